//! Start-up: read every slot of the games folder (snapshot + valid journal prefix).

use super::format::{self, Tail};
use super::{decode_records, decode_snapshot, unstem};
use super::{describe, Names, Slot, MAX_FILE};
use crate::fsio::Io;
use crate::persist::Notice;
use huarong_engine::session::{SavedSession, SessionDelta};
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

/// Read every slot of the games folder.
pub(super) fn recover(
    dir: &Path,
    io: &dyn Io,
    slots: &mut HashMap<String, Slot>,
    notices: &mut Vec<Notice>,
) {
    let names = match io.list(dir) {
        Ok(n) => n,
        Err(e) => {
            notices.push(Notice::warning(
                "unreadable",
                format!("the games folder cannot be read ({})", describe(&e)),
            ));
            return;
        }
    };
    let mut journals: Vec<String> = Vec::new();
    for name in &names {
        if name.ends_with(".tmp") {
            let _ = io.remove(&dir.join(name));
        } else if name.ends_with(".jnl") {
            journals.push(name.clone());
        }
    }
    let mut keep: BTreeSet<String> = BTreeSet::new();
    for name in &names {
        let Some(st) = name.strip_suffix(".snap") else {
            continue;
        };
        let Some(key) = unstem(st) else {
            continue;
        };
        let n = Names::new(dir, &key);
        match load_slot(io, &n, &key, notices) {
            Ok(slot) => {
                keep.insert(format!("{st}.{}.jnl", slot.jgen));
                slots.insert(key, slot);
            }
            Err(why) => {
                let aside = dir.join(format!("{name}.bad"));
                let _ = io.rename(&n.snap, &aside);
                notices.push(Notice::warning(
                    "kept_aside",
                    format!(
                        "the saved game {key} could not be read ({why}); the file was kept as {}",
                        aside.display()
                    ),
                ));
            }
        }
    }
    // Journals of older snapshots (a compaction that was cut short) or of no snapshot.
    for j in journals {
        if !keep.contains(&j) {
            let _ = io.remove(&dir.join(j));
        }
    }
}

fn load_slot(io: &dyn Io, n: &Names, key: &str, notices: &mut Vec<Notice>) -> Result<Slot, String> {
    let bytes = io.read(&n.snap, MAX_FILE).map_err(|e| describe(&e))?;
    let payload = decode_snapshot(&bytes)?;
    // One parse, straight into the slot's types.
    let snap: SnapIn = serde_json::from_slice(payload).map_err(|e| format!("bad JSON: {e}"))?;
    if snap.key != key {
        return Err("the file belongs to another slot".into());
    }
    let jgen = snap.jgen;
    let mut saved = snap.saved;
    let mut header = snap.header;
    let mut snap = false;
    let mut jbytes = 0u64;
    match io.read(&n.journal(jgen), MAX_FILE) {
        Ok(j) => {
            let recs = decode_records(&j);
            let mut valid = 0usize;
            for r in &recs.records {
                let ok = serde_json::from_slice::<RecIn>(r)
                    .map_err(|e| e.to_string())
                    .and_then(|rec| {
                        saved.apply(rec.d).map_err(|e| e.message)?;
                        if let Some(h) = rec.h {
                            header = h;
                        }
                        Ok(())
                    });
                if let Err(e) = ok {
                    notices.push(Notice::warning(
                        "restored",
                        format!("the saved game {key}: a journal record does not apply ({e}); the moves before it were kept"),
                    ));
                    snap = true;
                    break;
                }
                valid += r.len() + format::FRAME;
            }
            let applied_all = valid == recs.valid;
            match format::tail_of(&j, recs.valid) {
                None => {}
                // The move in flight when the app stopped: dropped, and the next write is a
                // fresh snapshot so nothing is ever appended after the torn bytes.
                Some(Tail::Torn) => snap = true,
                // Damage after the file was written: the moves before it are kept, the
                // player is told, and the file is kept aside (the next write starts a new
                // journal beside a fresh snapshot).
                Some(Tail::Damaged) => {
                    snap = true;
                    if applied_all {
                        let aside = n.dir.join(format!("{}.jnl.bad", n.stem));
                        let _ = io.rename(&n.journal(jgen), &aside);
                        notices.push(Notice::warning(
                            "restored",
                            format!(
                                "the saved game {key}: its move journal is damaged after record {}; \
                                 the game was restored to the last move before the damage (the file \
                                 was kept as {})",
                                recs.records.len(),
                                aside.display()
                            ),
                        ));
                    }
                }
            }
            jbytes = valid as u64;
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => snap = true,
        Err(e) => {
            notices.push(Notice::warning(
                "restored",
                format!(
                    "the saved game {key}: its latest moves cannot be read ({}); the game was restored from its last full save",
                    describe(&e)
                ),
            ));
            snap = true;
        }
    }
    Ok(Slot {
        header,
        saved,
        pending: Vec::new(),
        pending_bytes: 0,
        snap,
        jgen,
        jbytes,
        snap_bytes: bytes.len() as u64,
    })
}

/// A snapshot file's payload as read (public for the fuzz targets' model of the recovery).
#[derive(serde::Deserialize)]
pub struct SnapIn {
    pub key: String,
    pub jgen: u64,
    #[serde(default)]
    pub header: Value,
    pub saved: SavedSession<Value>,
}

/// A journal record's payload as read.
#[derive(serde::Deserialize)]
pub struct RecIn {
    #[serde(default)]
    pub h: Option<Value>,
    pub d: SessionDelta<Value>,
}
