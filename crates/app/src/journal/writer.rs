//! The writer: turns pending slot changes into snapshot, append and remove jobs, on a
//! background thread or one batch per `Journal::step` (single-threaded platforms).

use super::{describe, encode_record, encode_snapshot, lock, Inner, Names, Slot, State};
use super::{COMPACT_MIN, MAX_FILE, RETRY_FIRST, RETRY_MAX};
use crate::fsio::Io;
use crate::persist::Notice;
use huarong_engine::session::SavedSession;
use serde_json::Value;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::Arc;

enum Job {
    Snapshot {
        key: String,
        old: u64,
        new: u64,
        bytes: Vec<u8>,
    },
    Append {
        key: String,
        jgen: u64,
        bytes: Vec<u8>,
    },
    Remove {
        key: String,
    },
    /// Rename the slot's snapshot and journals `<name>.kept-<tag>`.
    Aside {
        key: String,
        tag: u64,
    },
}

/// A file kept aside by [`Job::Aside`]: never read, never removed.
fn kept(name: &str) -> bool {
    name.contains(".kept-")
}

/// A snapshot file's payload as written (serialised straight from the slot).
#[derive(serde::Serialize)]
struct SnapOut<'a> {
    key: &'a str,
    jgen: u64,
    header: &'a Value,
    saved: &'a SavedSession<Value>,
}

fn snapshot_bytes(key: &str, jgen: u64, slot: &Slot) -> Result<Vec<u8>, String> {
    let payload = serde_json::to_vec(&SnapOut {
        key,
        jgen,
        header: &slot.header,
        saved: &slot.saved,
    })
    .map_err(|e| e.to_string())?;
    encode_snapshot(&payload, MAX_FILE as usize)
}

/// Take the next batch of work (under the lock).
fn collect(inner: &Inner, st: &mut State) -> (Vec<Job>, Option<String>) {
    // Files moved aside first: a new game of the key is written after them.
    let mut jobs: Vec<Job> = std::mem::take(&mut st.aside)
        .into_iter()
        .map(|(key, tag)| Job::Aside { key, tag })
        .collect();
    jobs.extend(st.removed.iter().map(|k| Job::Remove { key: k.clone() }));
    st.removed.clear();
    let compact_at = inner.opts.compact_at.unwrap_or(COMPACT_MIN);
    let checkpoint = std::mem::take(&mut st.checkpoint);
    let mut failed = Vec::new();
    for (key, slot) in st.slots.iter_mut() {
        let big = slot.jbytes + slot.pending_bytes > compact_at.max(slot.snap_bytes);
        let full = slot.snap || big || (checkpoint && (slot.jbytes > 0 || slot.dirty()));
        if full {
            // A snapshot file may say any `jgen` (a hostile u64::MAX overflowed here); past the
            // last one the count starts again at 1 (0 means "no snapshot yet").
            let new = slot.jgen.wrapping_add(1).max(1);
            match snapshot_bytes(key, new, slot) {
                Ok(bytes) => {
                    jobs.push(Job::Snapshot {
                        key: key.clone(),
                        old: slot.jgen,
                        new,
                        bytes,
                    });
                    slot.snap = false;
                }
                // `snap` stays set: the writer tries again after its back-off.
                Err(e) => {
                    slot.snap = true;
                    failed.push(format!("the game {key} cannot be saved: {e}"));
                }
            }
        } else if !slot.pending.is_empty() {
            let mut bytes = Vec::with_capacity(slot.pending_bytes as usize);
            for p in &slot.pending {
                // Payloads over the limit never reach `pending`.
                let _ = encode_record(&mut bytes, p);
            }
            jobs.push(Job::Append {
                key: key.clone(),
                jgen: slot.jgen,
                bytes,
            });
        }
        slot.pending.clear();
        slot.pending_bytes = 0;
    }
    (jobs, failed.pop())
}

fn mutant(inner: &Inner, site: &str) -> bool {
    inner.opts.mutant == Some(site)
}

/// Run one job; the outcome for the slot's bookkeeping.
fn run(inner: &Inner, io: &dyn Io, dir: &Path, job: &Job) -> std::io::Result<()> {
    match job {
        Job::Remove { key } => {
            let n = Names::new(dir, key);
            let prefix = format!("{}.", n.stem);
            for name in io.list(dir)? {
                if name.starts_with(&prefix) && !kept(&name) {
                    match io.remove(&dir.join(&name)) {
                        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
                        _ => {}
                    }
                }
            }
            io.sync_dir(dir)
        }
        Job::Aside { key, tag } => {
            let n = Names::new(dir, key);
            let prefix = format!("{}.", n.stem);
            for name in io.list(dir)? {
                if name.starts_with(&prefix) && (name.ends_with(".snap") || name.ends_with(".jnl"))
                {
                    match io.rename(&dir.join(&name), &dir.join(format!("{name}.kept-{tag}"))) {
                        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
                        _ => {}
                    }
                }
            }
            io.sync_dir(dir)
        }
        Job::Append { key, jgen, bytes } => {
            let n = Names::new(dir, key);
            let path = n.journal(*jgen);
            io.append(&path, bytes)?;
            if !mutant(inner, "journal.fsync") {
                io.fsync(&path)?;
            }
            Ok(())
        }
        Job::Snapshot {
            key,
            old,
            new,
            bytes,
        } => {
            let n = Names::new(dir, key);
            let old_j = n.journal(*old);
            let cleanup = |e: std::io::Error| {
                let _ = io.remove(&n.tmp);
                e
            };
            io.create(&n.tmp).map_err(cleanup)?;
            io.append(&n.tmp, bytes).map_err(cleanup)?;
            if mutant(inner, "snapshot.rename_before_fsync") {
                io.rename(&n.tmp, &n.snap).map_err(cleanup)?;
                io.fsync(&n.snap)?;
            } else {
                if !mutant(inner, "snapshot.fsync") {
                    io.fsync(&n.tmp).map_err(cleanup)?;
                }
                io.create(&n.journal(*new)).map_err(cleanup)?;
                if mutant(inner, "snapshot.remove_old_before_rename") && *old > 0 {
                    let _ = io.remove(&old_j);
                }
                io.rename(&n.tmp, &n.snap).map_err(cleanup)?;
            }
            if mutant(inner, "snapshot.rename_before_fsync") {
                io.create(&n.journal(*new))?;
            }
            if !mutant(inner, "snapshot.dir_fsync") {
                io.sync_dir(dir)?;
            }
            if *old > 0 {
                match io.remove(&old_j) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        // Left over; the next start removes it.
                    }
                    _ => {}
                }
            }
            Ok(())
        }
    }
}

/// What one batch took from the state: its jobs, a slot that could not be encoded, and the
/// change count it covers.
pub(super) struct Batch {
    jobs: Vec<Job>,
    unencodable: Option<String>,
    seq: u64,
}

/// Whether the writer has work it may do now (a failed write waits for its back-off).
pub(super) fn ready(inner: &Inner, st: &State) -> bool {
    let work = st.durable < st.seq || st.checkpoint;
    work && st.retry_at.is_none_or(|t| inner.clock.monotonic() >= t)
}

/// Take the next batch if there is one that may run now.
pub(super) fn take(inner: &Inner, st: &mut State) -> Option<Batch> {
    if !ready(inner, st) {
        return None;
    }
    let seq = st.seq;
    let (jobs, unencodable) = collect(inner, st);
    Some(Batch {
        jobs,
        unencodable,
        seq,
    })
}

/// Write a batch (no lock held) and record its outcome. Returns false when the journal has
/// no files (memory only).
pub(super) fn run_batch(inner: &Inner, batch: Batch) -> bool {
    let (Some(io), Some(dir)) = (inner.io.clone(), inner.dir.clone()) else {
        return false;
    };
    let Batch {
        jobs,
        unencodable,
        seq,
    } = batch;
    let mut failure: Option<String> = unencodable;
    let mut outcomes = Vec::with_capacity(jobs.len());
    // Keys whose files could not be moved aside: nothing else is written for them yet.
    let mut blocked: Vec<&str> = Vec::new();
    for job in &jobs {
        let key = match job {
            Job::Snapshot { key, .. } | Job::Append { key, .. } => Some(key.as_str()),
            Job::Remove { .. } | Job::Aside { .. } => None,
        };
        if key.is_some_and(|k| blocked.contains(&k)) {
            outcomes.push(false);
            continue;
        }
        let r = catch_unwind(AssertUnwindSafe(|| run(inner, io.as_ref(), &dir, job)));
        let r = match r {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(format!("games cannot be saved: {}", describe(&e))),
            Err(p) => {
                let what = p
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                Err(format!(
                    "the saver failed unexpectedly ({what}); it keeps going"
                ))
            }
        };
        if let Err(e) = &r {
            failure = Some(e.clone());
            if let Job::Aside { key, .. } = job {
                blocked.push(key);
            }
        }
        outcomes.push(r.is_ok());
    }
    let mut st = lock(&inner.state);
    for (job, ok) in jobs.iter().zip(outcomes) {
        match job {
            Job::Remove { key } => {
                if !ok {
                    st.removed.insert(key.clone());
                }
            }
            Job::Aside { key, tag } => {
                if !ok {
                    st.aside.insert(key.clone(), *tag);
                }
            }
            Job::Append { key, bytes, .. } => {
                if let Some(slot) = st.slots.get_mut(key) {
                    if ok {
                        slot.jbytes += bytes.len() as u64;
                    } else {
                        slot.snap = true;
                    }
                }
            }
            Job::Snapshot {
                key, new, bytes, ..
            } => {
                if let Some(slot) = st.slots.get_mut(key) {
                    if ok {
                        slot.jgen = *new;
                        slot.jbytes = 0;
                        slot.snap_bytes = bytes.len() as u64;
                    } else {
                        slot.snap = true;
                    }
                } else if ok {
                    // Removed while it was written: remove its files again.
                    st.removed.insert(key.clone());
                }
            }
        }
    }
    match failure {
        Some(e) => {
            if st.error.as_deref() != Some(e.as_str()) {
                st.notices.push(Notice::warning("save_failed", e.clone()));
            }
            st.error = Some(e);
            let wait = st.backoff;
            st.retry_at = Some(inner.clock.monotonic() + wait);
            st.backoff = (wait * 2).min(RETRY_MAX);
        }
        None => {
            if st.error.take().is_some() {
                st.notices.push(Notice::info(
                    "saving_resumed",
                    "games are being saved again",
                ));
            }
            st.retry_at = None;
            st.backoff = inner.opts.retry_first.unwrap_or(RETRY_FIRST);
            st.durable = st.durable.max(seq);
        }
    }
    inner.done.notify_all();
    true
}

/// The background thread (threaded platforms): batches as they come, until `stop`.
pub(super) fn writer(inner: Arc<Inner>) {
    loop {
        let batch = {
            let mut st = lock(&inner.state);
            loop {
                if let Some(b) = take(&inner, &mut st) {
                    break b;
                }
                let work = st.durable < st.seq || st.checkpoint;
                if st.stop {
                    st.exited = true;
                    inner.done.notify_all();
                    return;
                }
                st = match st.retry_at {
                    Some(t) if work => {
                        let left = t.saturating_sub(inner.clock.monotonic());
                        inner
                            .wake
                            .wait_timeout(st, left)
                            .unwrap_or_else(|p| p.into_inner())
                            .0
                    }
                    _ => inner.wake.wait(st).unwrap_or_else(|p| p.into_inner()),
                };
            }
        };
        run_batch(&inner, batch);
        let mut st = lock(&inner.state);
        if st.stop && st.retry_at.is_some() {
            // Shutting down and the last try failed: stop anyway (data stays in memory).
            st.exited = true;
            inner.done.notify_all();
            return;
        }
    }
}
