//! The change log beside the two copies: a save appends what changed since
//! the last one, instead of rewriting the whole file.
//!
//! At 5,000 record scopes the file is about 5 MB, and a finish changes one scope of it.
//! Rewriting it whole (temp file, fsync, rename, folder fsync) cost 30–40 ms of disk time per
//! save; appending the change and syncing it costs about a millisecond.
//!
//! `huarong.log` holds one line per save: `<checksum> <json>\n`, where the JSON is a
//! [`Delta`] from the state of gen `prev` to the state of gen `gen`. The checksum (FNV-1a 64,
//! as the files') is over the JSON text. The saver appends a line and fsyncs the log; the two
//! copies are rewritten (*compaction*: good copy, then the store's file, then the log
//! emptied) when the log has grown past [`compact_at`] bytes, at the first save after a
//! start, and after any failed write.
//!
//! Reading ([`replay`]) starts from the newest valid copy and applies the lines that continue
//! its chain (`prev` = the state so far):
//! - a line whose `gen` is not above the state so far is already in the copy (a log that
//!   was not emptied after a compaction): skipped;
//! - a line whose `prev` is above the state so far belongs to a state that is not there
//!   (the copies were lost): the rest is not applied, and the log is kept aside;
//! - a damaged line at the end, with nothing valid after it, is a save cut by a kill or a
//!   power loss: it was never durable, so nothing is lost and nothing is said;
//! - a damaged line with a valid one after it is real damage: the lines before it are
//!   applied, the log is kept aside and a notice says so.

use super::{checksum_of, Doc};
use crate::progress::{
    DayBoards, Friends, KeptReplay, Progress, Record, Replays, ScopeStats, Shared, SCHEMA,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, VecDeque};

/// The log's file name in the data folder.
pub const LOG_FILE: &str = "huarong.log";

/// The log is folded into the copies once it is this long: a quarter of the copies' size,
/// at least 64 KiB and at most 1 MiB (so the folder's files stay within a few MB over the
/// copies, and a start reads at most 1 MiB of changes).
pub fn compact_at(copy_len: usize) -> u64 {
    (copy_len as u64 / 4).clamp(64 << 10, 1 << 20)
}

/// What changed between two saved states. The progress' small parts are carried whole when
/// they changed; statistics, level records and the friends' days per key (`None`: removed);
/// the kept replays as how many went from the front and which came at the back.
#[derive(Serialize, Deserialize)]
pub struct Delta {
    pub schema: u32,
    pub prev: u64,
    pub gen: u64,
    /// Whole top-level fields of the progress, by their Rust name.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub set: Map<String, Value>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub stats: BTreeMap<String, Option<Shared<ScopeStats>>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub records: BTreeMap<String, Option<Record>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub friend_days: BTreeMap<u32, Option<DayBoards>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replays: Option<Tail<KeptReplay>>,
}

/// A list's change as a queue's: `drop` items gone from the front, `push` added at the back.
#[derive(Serialize, Deserialize)]
pub struct Tail<T> {
    pub drop: usize,
    pub push: Vec<T>,
}

/// `b` as `a` with [`Tail`]'s change (`None`: equal). Finding where `b` begins in `a` costs
/// a few comparisons in the usual case (one pushed, the oldest gone).
fn tail_diff<T: PartialEq + Clone>(a: &VecDeque<T>, b: &VecDeque<T>) -> Option<Tail<T>> {
    if a == b {
        return None;
    }
    let drop = (0..=a.len())
        .find(|&k| {
            let rest = a.len() - k;
            rest <= b.len() && a.iter().skip(k).zip(b.iter()).all(|(x, y)| x == y)
        })
        .unwrap_or(a.len());
    let push = b.iter().skip(a.len() - drop).cloned().collect();
    Some(Tail { drop, push })
}

/// Every top-level field of [`Progress`] carried whole in a [`Delta`] (all but `stats`,
/// `records` and the unsaved `fold_log`). [`diff`] destructures the progress without `..`,
/// so a field added to it does not compile until it is placed here or handled there.
macro_rules! whole_fields {
    ($m:ident) => {
        $m!(
            challenges, current, folded, games, groups, quarantine, screen, settings, settled,
            streaks, unlocked
        )
    };
}

/// `v` read as a value of `_like`'s type.
fn read_as<T: serde::de::DeserializeOwned>(_like: &T, v: Value, name: &str) -> Result<T, String> {
    serde_json::from_value(v).map_err(|e| format!("{name}: {e}"))
}

/// Per key, what differs from `a` to `b`: both maps walked once, side by side, in key order
/// (at 5,000 scopes a lookup per key cost milliseconds of key comparisons).
fn map_diff<K: Ord + Clone, T: PartialEq + Clone>(
    a: &BTreeMap<K, T>,
    b: &BTreeMap<K, T>,
) -> BTreeMap<K, Option<T>> {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let mut out = BTreeMap::new();
    let (mut x, mut y) = (a.iter().peekable(), b.iter().peekable());
    loop {
        match (x.peek(), y.peek()) {
            (None, None) => break,
            (Some((ka, _)), None) => {
                out.insert((*ka).clone(), None);
                x.next();
            }
            (None, Some((kb, vb))) => {
                out.insert((*kb).clone(), Some((*vb).clone()));
                y.next();
            }
            (Some((ka, va)), Some((kb, vb))) => match ka.cmp(kb) {
                Less => {
                    out.insert((*ka).clone(), None);
                    x.next();
                }
                Greater => {
                    out.insert((*kb).clone(), Some((*vb).clone()));
                    y.next();
                }
                Equal => {
                    if va != vb {
                        out.insert((*kb).clone(), Some((*vb).clone()));
                    }
                    x.next();
                    y.next();
                }
            },
        }
    }
    out
}

/// The change from `a` (gen `prev`) to `b`. Statistics shared with `a` (the saver's copies
/// share unchanged scopes) are compared by address first, so 5,000 scopes cost little.
pub fn diff(prev: &Doc, next: &Doc) -> Result<Delta, String> {
    let a = &prev.progress;
    let b = &next.progress;
    // Every field, so that a new one is placed in `whole_fields!` or handled here.
    let Progress {
        challenges: _,
        current: _,
        fold_log: _,
        folded: _,
        friends,
        games: _,
        groups: _,
        quarantine: _,
        records,
        replays,
        screen: _,
        settings: _,
        settled: _,
        stats,
        streaks: _,
        unlocked: _,
    } = b;
    let Friends { days } = friends;
    let Replays { kept } = replays;
    let mut set = Map::new();
    macro_rules! put {
        ($($f:ident),*) => {$(
            if a.$f != b.$f {
                let v = serde_json::to_value(&b.$f)
                    .map_err(|e| format!("{}: {e}", stringify!($f)))?;
                set.insert(stringify!($f).to_string(), v);
            }
        )*};
    }
    whole_fields!(put);
    Ok(Delta {
        schema: SCHEMA,
        prev: prev.gen,
        gen: next.gen,
        set,
        stats: map_diff(&a.stats, stats),
        records: map_diff(&a.records, records),
        friend_days: map_diff(&a.friends.days, days),
        replays: tail_diff(&a.replays.kept, kept),
    })
}

/// Apply `delta` to `doc` (whose gen is `delta.prev`). All or nothing: every part is read
/// before anything changes.
pub fn apply(doc: &mut Doc, delta: Delta) -> Result<(), String> {
    let p = &mut doc.progress;
    let mut set = delta.set;
    macro_rules! take {
        ($($f:ident),*) => {
            $(
                let $f = match set.remove(stringify!($f)) {
                    Some(v) => Some(read_as(&p.$f, v, stringify!($f))?),
                    None => None,
                };
            )*
            if let Some(k) = set.keys().next() {
                return Err(format!("a change of an unknown part \"{k}\""));
            }
            $(
                if let Some(v) = $f {
                    p.$f = v;
                }
            )*
        };
    }
    if let Some(t) = &delta.replays {
        if t.drop > p.replays.kept.len() {
            return Err(format!(
                "{} replays to drop of {}",
                t.drop,
                p.replays.kept.len()
            ));
        }
    }
    whole_fields!(take);
    for (k, v) in delta.stats {
        match v {
            Some(v) => p.stats.insert(k, v),
            None => p.stats.remove(&k),
        };
    }
    for (k, v) in delta.records {
        match v {
            Some(v) => p.records.insert(k, v),
            None => p.records.remove(&k),
        };
    }
    for (k, v) in delta.friend_days {
        match v {
            Some(v) => p.friends.days.insert(k, v),
            None => p.friends.days.remove(&k),
        };
    }
    if let Some(t) = delta.replays {
        p.replays.kept.drain(..t.drop);
        p.replays.kept.extend(t.push);
    }
    doc.gen = delta.gen;
    Ok(())
}

fn line_sum(json: &[u8]) -> String {
    checksum_of(SCHEMA, 0, json)
}

/// One log line for `delta`: checksum, a space, the compact JSON, a newline.
pub fn line(delta: &Delta) -> Result<Vec<u8>, String> {
    let json =
        crate::progress::file_form(|| serde_json::to_vec(delta)).map_err(|e| e.to_string())?;
    let mut out = Vec::with_capacity(json.len() + 18);
    out.extend_from_slice(line_sum(&json).as_bytes());
    out.push(b' ');
    out.extend_from_slice(&json);
    out.push(b'\n');
    Ok(out)
}

/// Why a line was not read: damage, or another format (`true`: a newer app's).
enum BadLine {
    Damaged(String),
    Foreign(String, bool),
}

fn parse_line(raw: &[u8]) -> Result<Delta, BadLine> {
    let damaged = |s: String| BadLine::Damaged(s);
    if raw.len() < 18 || raw[16] != b' ' {
        return Err(damaged("not a log line".into()));
    }
    let (sum, json) = (&raw[..16], &raw[17..]);
    if sum != line_sum(json).as_bytes() {
        return Err(damaged("checksum mismatch".into()));
    }
    #[derive(Deserialize)]
    struct Head {
        schema: u32,
    }
    let head: Head =
        serde_json::from_slice(json).map_err(|e| damaged(format!("does not parse: {e}")))?;
    if head.schema != SCHEMA {
        return Err(BadLine::Foreign(
            format!(
                "written in format {} (this version reads {SCHEMA})",
                head.schema
            ),
            head.schema > SCHEMA,
        ));
    }
    let delta: Delta =
        serde_json::from_slice(json).map_err(|e| damaged(format!("does not parse: {e}")))?;
    if delta.gen <= delta.prev {
        return Err(damaged(format!(
            "save #{} does not follow #{}",
            delta.gen, delta.prev
        )));
    }
    Ok(delta)
}

/// What reading the log did to a state.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Replayed {
    /// Lines applied.
    pub applied: usize,
    /// Lines already in the copy.
    pub stale: usize,
    /// A cut last line (a save a kill or a power loss stopped): never durable.
    pub torn: bool,
    /// Why lines that may hold saves were not applied (the log is then kept aside).
    pub lost: Option<String>,
    /// Those lines are a newer app version's (kept aside as such).
    pub newer: bool,
}

/// Apply the log's lines that continue `doc`'s chain (see the module's text).
pub fn replay(doc: &mut Doc, bytes: &[u8]) -> Replayed {
    let mut r = Replayed::default();
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    // The text after the last newline: empty, or a line whose write was cut.
    let tail = lines.pop().unwrap_or_default();
    r.torn = !tail.is_empty();
    let mut i = 0;
    while i < lines.len() {
        let n = i + 1;
        let delta = match parse_line(lines[i]) {
            Ok(d) => d,
            Err(BadLine::Foreign(why, newer)) => {
                r.lost = Some(format!("line {n} of the change log is {why}"));
                r.newer = newer;
                break;
            }
            Err(BadLine::Damaged(why)) => {
                // Damage with a valid line after it is not a cut save.
                if lines[n..].iter().any(|l| parse_line(l).is_ok()) {
                    r.lost = Some(format!("line {n} of the change log is damaged ({why})"));
                } else {
                    r.torn = true;
                }
                break;
            }
        };
        if delta.gen <= doc.gen {
            r.stale += 1;
        } else if delta.prev != doc.gen {
            r.lost = Some(format!(
                "line {n} of the change log continues save #{}, but the progress is at save #{}",
                delta.prev, doc.gen
            ));
            break;
        } else {
            if let Err(why) = apply(doc, delta) {
                r.lost = Some(format!("line {n} of the change log does not apply ({why})"));
                break;
            }
            r.applied += 1;
        }
        i = n;
    }
    if r.applied > 0 {
        doc.progress.sanitize();
    }
    r
}
