//! Start-up recovery: verify both files, choose the newest valid state, keep damage aside.

use super::{decode_with, encode, log, move_aside, read, tmp_path, write_atomic_io, MAX_FILE};
use super::{Bad, Doc, Found, Notice, Paths};
use crate::fsio::Io;
use crate::progress::{Progress, SCHEMA};
use std::io;
use std::path::Path;

/// What [`recover`] decided.
#[derive(Debug, Clone)]
pub struct Recovered {
    pub doc: Doc,
    pub notices: Vec<Notice>,
    /// False when a file could not be read or moved aside: then nothing may be written
    /// (writing could destroy the player's data), and a notice says so.
    pub writable: bool,
}

/// Check the files before anything else touches them; choose the newest valid state; keep
/// damaged files aside; leave both files holding the chosen state. Never panics, never
/// returns an empty state while a damaged file it could not move aside holds data.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub fn recover(paths: &Paths) -> Recovered {
    recover_with(paths, &crate::fsio::Real)
}

/// [`recover`] through an [`Io`], at the system's time (native).
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub fn recover_with(paths: &Paths, io: &dyn Io) -> Recovered {
    use crate::platform::Clock;
    recover_at(
        paths,
        io,
        crate::platform::native::SystemClock::default().wall_ms(),
    )
}

/// [`recover`] through an [`Io`]; `wall_ms` (Unix ms) names the copies moved aside.
pub fn recover_at(paths: &Paths, io: &dyn Io, wall_ms: u64) -> Recovered {
    let mut notices = Vec::new();
    if let Err(e) = io.create_dir_all(&paths.dir) {
        notices.push(Notice::warning(
            "unreadable",
            format!(
                "cannot use the data folder {}: {e}; progress will not be saved",
                paths.dir.display()
            ),
        ));
        return Recovered {
            doc: fresh(),
            notices,
            writable: false,
        };
    }
    // A leftover temp file is an atomic write that never finished: the target is intact.
    for p in [&paths.store, &paths.good] {
        let _ = io.remove(&tmp_path(p));
    }
    let mut writable = true;
    let mut valid: Vec<(Doc, u32, Vec<u8>, &Path)> = Vec::new();
    let mut damaged_primary = false;
    // Damaged files that still parse when the checksum is not checked (last resort).
    let mut salvage: Vec<Doc> = Vec::new();
    for (path, label) in [
        (&paths.store, "progress file"),
        (&paths.good, "backup copy"),
    ] {
        match read(io, path) {
            Found::Missing => {}
            Found::Valid { doc, from, raw } => valid.push((*doc, from, raw, path.as_path())),
            Found::Unreadable(e) => {
                writable = false;
                notices.push(Notice::warning(
                    "unreadable",
                    format!("the {label} {} cannot be read ({e}); progress will not be saved until this is fixed", path.display()),
                ));
            }
            Found::Bad(bad, raw) => {
                if path == &paths.store {
                    damaged_primary = true;
                }
                if let (Bad::Damaged(_), Ok((doc, _))) = (&bad, decode_with(&raw, false)) {
                    salvage.push(doc);
                }
                let (tag, why) = match &bad {
                    Bad::Damaged(w) => ("corrupt", w.clone()),
                    Bad::Newer(w) => ("newer", w.clone()),
                };
                let moved = move_aside(io, path, tag, wall_ms);
                match moved {
                    Ok(kept) => notices.push(Notice::warning(
                        "kept_aside",
                        format!(
                            "the {label} was not usable ({why}); it is kept at {}",
                            kept.display()
                        ),
                    )),
                    Err(e) => {
                        writable = false;
                        notices.push(Notice::warning(
                            "unreadable",
                            format!("the {label} is not usable ({why}) and could not be moved aside ({e}); progress will not be saved"),
                        ));
                    }
                }
            }
        }
    }
    // The newest valid state wins (the good copy is written first, so it is never older).
    valid.sort_by_key(|(doc, ..)| std::cmp::Reverse(doc.gen));
    let chosen = valid.first();
    let doc = match chosen {
        Some((doc, from, raw, src)) => {
            if damaged_primary {
                notices.push(Notice::warning(
                    "restored",
                    format!(
                        "your progress was restored from the last good copy (save #{}); the app was probably closed while saving",
                        doc.gen
                    ),
                ));
            }
            if *from < SCHEMA && writable {
                let bak = paths.dir.join(format!("huarong.schema-{from}.bak.json"));
                if matches!(io.read(&bak, 0), Err(e) if e.kind() == io::ErrorKind::NotFound) {
                    if let Err(e) = write_atomic_io(io, &bak, raw) {
                        notices.push(Notice::warning(
                            "save_failed",
                            format!("could not keep a copy of the old file: {e}"),
                        ));
                    }
                }
                notices.push(Notice::info(
                    "migrated",
                    format!("progress upgraded from format {from} to {SCHEMA} (the old file is kept at {}) [{}]", bak.display(), src.display()),
                ));
            }
            doc.clone()
        }
        None => match salvage.into_iter().max_by_key(|d| d.gen) {
            Some(doc) => {
                notices.push(Notice::warning(
                    "salvaged",
                    format!(
                        "both copies of your progress were damaged; the most complete one (save #{}) was read even though its check failed, so some values may be wrong",
                        doc.gen
                    ),
                ));
                doc
            }
            None => fresh(),
        },
    };
    // The saves since the copies were last written whole: the change log's lines.
    let base = doc.gen;
    let mut doc = doc;
    let mut replayed = log::Replayed::default();
    match io.read(&paths.log, MAX_FILE) {
        Ok(bytes) => replayed = log::replay(&mut doc, &bytes),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) if e.kind() == io::ErrorKind::InvalidData => {
            replayed.lost = Some(format!("the change log is larger than any ({e})"));
        }
        Err(e) => {
            // It may hold the newest saves: nothing is written over them.
            writable = false;
            notices.push(Notice::warning(
                "unreadable",
                format!(
                    "the change log {} cannot be read ({e}); progress will not be saved until this is fixed",
                    paths.log.display()
                ),
            ));
        }
    }
    if writable {
        // Leave both files holding the chosen state in the current format, unless they
        // already do (the common case: nothing to write at start) and the log holds the
        // rest. A log that is kept aside is first written into the copies.
        let up_to_date = |p: &Path| {
            valid
                .iter()
                .any(|(d, from, _, src)| *src == p && d.gen == base && *from == SCHEMA)
        };
        let mut written = true;
        if replayed.lost.is_some() || !(up_to_date(&paths.good) && up_to_date(&paths.store)) {
            let bytes = encode(&doc);
            for p in [&paths.good, &paths.store] {
                if let Err(e) = write_atomic_io(io, p, &bytes) {
                    // Saving stays on: both files still hold whole states (atomic writes),
                    // and the writer tries again with every change.
                    notices.push(Notice::warning(
                        "save_failed",
                        format!(
                            "could not write {}: {e}; the app keeps trying to save",
                            p.display()
                        ),
                    ));
                    written = false;
                    break;
                }
            }
        }
        if let (Some(why), true) = (&replayed.lost, written) {
            let tag = if replayed.newer { "newer" } else { "corrupt" };
            let applied = match replayed.applied {
                0 => String::new(),
                n => format!(" (the {n} saves before it were read)"),
            };
            match move_aside(io, &paths.log, tag, wall_ms) {
                Ok(kept) => notices.push(Notice::warning(
                    "kept_aside",
                    format!(
                        "{why}: the changes from there on were not read{applied}; the log is kept at {}",
                        kept.display()
                    ),
                )),
                Err(e) => {
                    writable = false;
                    notices.push(Notice::warning(
                        "unreadable",
                        format!("{why}, and the log could not be moved aside ({e}); progress will not be saved"),
                    ));
                }
            }
        }
    }
    Recovered {
        doc,
        notices,
        writable,
    }
}

fn fresh() -> Doc {
    Doc {
        gen: 0,
        progress: Progress::default(),
    }
}
