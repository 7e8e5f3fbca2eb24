//! Durable game slots: per slot a checksummed snapshot plus an append-only journal of
//! session deltas (O(1) bytes per move), written by one background thread. See README.md
//! in this folder for the design, the file layout and the crash argument.
//!
//! The in-memory slot state kept here is authoritative: every call updates it at once and
//! hands the bytes to the writer; a write that fails is retried (as a full snapshot) with
//! back-off, never dropped.

mod format;
mod open;
mod recover;
#[cfg(test)]
mod tests;
mod writer;

pub use format::{
    crc32, decode_records, decode_snapshot, encode_record, encode_snapshot, stem, unstem, Records,
    MAX_RECORD,
};

use crate::fsio::Io;
use crate::persist::Notice;
use crate::platform::Clock;
use huarong_engine::session::{SavedSession, SessionDelta};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use recover::recover;
pub use recover::{RecIn, SnapIn};
use writer::writer;

/// The progress saver writes a doc that holds a finished game's record only once the
/// journal has that game (`persist::Gate`).
impl crate::persist::Gate for Journal {
    fn reached(&self, mark: u64) -> bool {
        Journal::reached(self, mark)
    }
    fn wait(&self, mark: u64, timeout: Duration) -> bool {
        self.wait_for(mark, timeout)
    }
}

/// Largest file the journal writes or reads (snapshot or journal).
/// The folder of the data directory that holds every slot's snapshot and journal (Android
/// backs it up beside the progress files: `gen/android/.../res/xml/*_rules.xml`).
pub const GAMES_DIR: &str = "games";
pub const MAX_FILE: u64 = 64 << 20;
/// A journal shorter than this is never compacted for its size.
pub const COMPACT_MIN: u64 = 256 << 10;
/// First and longest wait before a failed write is tried again.
pub const RETRY_FIRST: Duration = Duration::from_millis(50);
pub const RETRY_MAX: Duration = Duration::from_secs(5);

/// One slot as recovered at start: CORE's header and the whole `SavedSession` JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct SlotData {
    pub key: String,
    pub header: Value,
    pub saved: Value,
}

/// Write-path sites a test can break on purpose (`Options::mutant`) to prove that the
/// power-loss tests notice a missing fsync or a wrong order. Never set in the app.
pub const MUTANT_SITES: &[&str] = &[
    "snapshot.fsync",
    "snapshot.dir_fsync",
    "journal.fsync",
    "snapshot.rename_before_fsync",
    "snapshot.remove_old_before_rename",
];

/// How a journal is opened (tests and benchmarks; the app uses the defaults).
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Break one write-path site (one of [`MUTANT_SITES`]); `None` in the app.
    pub mutant: Option<&'static str>,
    /// Compact a journal once it passes this many bytes (and the snapshot's size);
    /// `None` = [`COMPACT_MIN`].
    pub compact_at: Option<u64>,
    /// First wait before a failed write is tried again; `None` = [`RETRY_FIRST`].
    pub retry_first: Option<Duration>,
}

#[derive(Clone)]
pub struct Journal {
    inner: Arc<Inner>,
}

struct Inner {
    /// `None` when there is no data folder: memory only.
    dir: Option<PathBuf>,
    io: Option<Arc<dyn Io>>,
    opts: Options,
    state: Mutex<State>,
    /// Wakes the writer.
    wake: Condvar,
    /// Wakes `flush` waiters.
    done: Condvar,
    clock: Arc<dyn Clock>,
    /// A background thread writes (else the host calls [`Journal::step`]).
    threaded: bool,
}

struct Slot {
    header: Value,
    saved: SavedSession<Value>,
    /// Record payloads not yet handed to the writer.
    pending: Vec<Vec<u8>>,
    pending_bytes: u64,
    /// The next write must be a full snapshot (new game, game end, failed write, torn tail).
    snap: bool,
    /// Generation of the snapshot on disk (0: none yet); its journal is `<stem>.<jgen>.jnl`.
    jgen: u64,
    /// Bytes in that journal file.
    jbytes: u64,
    /// Bytes of the last snapshot written.
    snap_bytes: u64,
}

impl Slot {
    fn dirty(&self) -> bool {
        self.snap || !self.pending.is_empty()
    }
}

#[derive(Default)]
struct State {
    slots: HashMap<String, Slot>,
    /// Keys whose files must go.
    removed: BTreeSet<String>,
    /// Keys whose files must be moved aside (renamed `<name>.kept-<tag>`) before the key's
    /// next write: a game the app could not restore, whose key a new game takes.
    aside: BTreeMap<String, u64>,
    /// Changes handed over so far / made durable so far.
    seq: u64,
    durable: u64,
    checkpoint: bool,
    error: Option<String>,
    /// When a failed write may be tried again (the platform's monotonic clock).
    retry_at: Option<Duration>,
    backoff: Duration,
    stop: bool,
    /// The writer thread has ended (or never ran).
    exited: bool,
    /// Problems noticed by the writer since the last `take_notices`.
    notices: Vec<Notice>,
}

/// The clock of a journal without files (nothing waits on it).
struct NoClock;
impl Clock for NoClock {
    fn wall_ms(&self) -> u64 {
        0
    }
    fn monotonic(&self) -> Duration {
        Duration::ZERO
    }
    fn utc_offset_minutes(&self, _: u64) -> i32 {
        0
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn describe(e: &std::io::Error) -> String {
    match e.raw_os_error() {
        Some(28) => "the device is full".into(),
        Some(30) => "the storage is read-only".into(),
        Some(5) => "an input/output error".into(),
        _ => e.to_string(),
    }
}

/// The file names of one slot.
struct Names {
    snap: PathBuf,
    tmp: PathBuf,
    dir: PathBuf,
    stem: String,
}

impl Names {
    fn new(dir: &Path, key: &str) -> Names {
        let stem = stem(key);
        Names {
            snap: dir.join(format!("{stem}.snap")),
            tmp: dir.join(format!("{stem}.snap.tmp")),
            dir: dir.to_path_buf(),
            stem,
        }
    }
    fn journal(&self, jgen: u64) -> PathBuf {
        self.dir.join(format!("{}.{jgen}.jnl", self.stem))
    }
}

fn parse_saved(v: &Value) -> Result<SavedSession<Value>, String> {
    serde_json::from_value(v.clone()).map_err(|e| format!("not a saved game: {e}"))
}

fn parse_delta(v: &Value) -> Result<SessionDelta<Value>, String> {
    serde_json::from_value(v.clone()).map_err(|e| format!("not a session delta: {e}"))
}

impl Journal {
    fn changed(&self, st: &mut State) {
        st.seq += 1;
        if self.inner.dir.is_none() {
            st.durable = st.seq;
        }
        self.inner.wake.notify_all();
    }

    /// One change of a slot: `header` = the slot's small metadata JSON (opaque here),
    /// `delta` = an engine `SessionDelta` as JSON. O(1) bytes appended.
    ///
    /// The slot must exist (`put` first). A delta that does not fit the slot's game is not
    /// applied; it is reported by [`Journal::error`] (the caller should `put` the slot).
    pub fn append(&self, key: &str, header: Value, delta: Value) {
        let mut st = lock(&self.inner.state);
        let Some(slot) = st.slots.get_mut(key) else {
            st.error = Some(format!(
                "a move for the game slot {key}, which was never saved, was not stored"
            ));
            return;
        };
        // `apply` checks before it changes anything.
        if let Err(e) = parse_delta(&delta).and_then(|d| slot.saved.apply(d).map_err(|e| e.message))
        {
            st.error = Some(format!("a move for {key} was not stored: {e}"));
            return;
        }
        let payload = serde_json::to_vec(&json!({"h": &header, "d": delta})).unwrap_or_default();
        slot.header = header;
        if payload.len() > MAX_RECORD {
            slot.snap = true;
        } else {
            slot.pending_bytes += (payload.len() + format::FRAME) as u64;
            slot.pending.push(payload);
        }
        self.changed(&mut st);
    }

    /// The whole slot (new game in the slot, game finished): `saved` = `SavedSession` JSON.
    pub fn put(&self, key: &str, header: Value, saved: Value) {
        let mut st = lock(&self.inner.state);
        let saved = match parse_saved(&saved) {
            Ok(s) => s,
            Err(e) => {
                st.error = Some(format!("the game in slot {key} was not stored: {e}"));
                return;
            }
        };
        match st.slots.get_mut(key) {
            Some(slot) => {
                slot.header = header;
                slot.saved = saved;
                slot.pending.clear();
                slot.pending_bytes = 0;
                slot.snap = true;
            }
            None => {
                st.slots.insert(
                    key.to_string(),
                    Slot {
                        header,
                        saved,
                        pending: Vec::new(),
                        pending_bytes: 0,
                        snap: true,
                        jgen: 0,
                        jbytes: 0,
                        snap_bytes: 0,
                    },
                );
            }
        }
        self.changed(&mut st);
    }

    /// Whether the journal holds a game in slot `key` (also one the app could not restore).
    pub fn holds(&self, key: &str) -> bool {
        lock(&self.inner.state).slots.contains_key(key)
    }

    /// The game in slot `key` is kept as it is on disk, out of the way of the key's next
    /// game: its files are renamed `<name>.kept-<wall ms>` (which no start reads or removes)
    /// before anything else is written for the key, and the journal forgets the slot.
    pub fn set_aside(&self, key: &str) {
        let mut st = lock(&self.inner.state);
        if st.slots.remove(key).is_none() {
            return;
        }
        let tag = self.inner.clock.wall_ms();
        st.aside.insert(key.to_string(), tag);
        self.changed(&mut st);
    }

    pub fn remove(&self, key: &str) {
        let mut st = lock(&self.inner.state);
        st.slots.remove(key);
        st.removed.insert(key.to_string());
        self.changed(&mut st);
    }

    /// App leaves the foreground: write full snapshots of every slot with a journal, then
    /// fsync. Returns at once; `flush` waits for it.
    pub fn checkpoint(&self) {
        let mut st = lock(&self.inner.state);
        st.checkpoint = true;
        // A checkpoint is also the moment to try again at once after a failure.
        st.retry_at = None;
        self.changed(&mut st);
    }

    /// Wait until everything handed over so far is durable; false at the timeout.
    /// Single-threaded: write now (a failed write is tried again only after its back-off),
    /// never wait.
    pub fn flush(&self, timeout: Duration) -> bool {
        if !self.inner.threaded {
            while self.step() {}
            let st = lock(&self.inner.state);
            return st.durable >= st.seq;
        }
        let target = self.handed();
        self.wait_for(target, timeout)
    }

    /// How many changes were handed over so far: a mark a later write can wait for
    /// ([`Journal::reached`], [`Journal::wait_for`]).
    pub fn handed(&self) -> u64 {
        lock(&self.inner.state).seq
    }

    /// Every change up to `mark` is durable.
    pub fn reached(&self, mark: u64) -> bool {
        lock(&self.inner.state).durable >= mark
    }

    /// Wait until every change up to `mark` is durable (or the writer has stopped); false at
    /// the timeout. Single-threaded: never waits (the host's `step` writes).
    pub fn wait_for(&self, target: u64, timeout: Duration) -> bool {
        if !self.inner.threaded {
            return self.reached(target);
        }
        let deadline = self.inner.clock.monotonic() + timeout;
        let mut st = lock(&self.inner.state);
        while st.durable < target {
            let now = self.inner.clock.monotonic();
            if now >= deadline || st.exited {
                return st.durable >= target;
            }
            st = self
                .inner
                .done
                .wait_timeout(st, deadline - now)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
        true
    }

    /// Single-threaded mode: write the batch that may be written now. Returns whether it
    /// wrote one. A no-op when a thread writes.
    pub fn step(&self) -> bool {
        if self.inner.threaded {
            return false;
        }
        let batch = writer::take(&self.inner, &mut lock(&self.inner.state));
        match batch {
            Some(b) => writer::run_batch(&self.inner, b),
            None => false,
        }
    }

    /// The current storage problem, if any (cleared once a write succeeds again).
    pub fn error(&self) -> Option<String> {
        lock(&self.inner.state).error.clone()
    }

    /// Problems the writer met since the last call (each reported once), as notices.
    pub fn take_notices(&self) -> Vec<Notice> {
        std::mem::take(&mut lock(&self.inner.state).notices)
    }

    /// Write what is pending (one more try), then stop the writer thread.
    pub fn shutdown(&self) {
        {
            let mut st = lock(&self.inner.state);
            st.stop = true;
            st.retry_at = None;
            self.inner.wake.notify_all();
        }
        if !self.inner.threaded {
            // One more try of everything, as the thread makes at its stop.
            if self.step() {
                while lock(&self.inner.state).retry_at.is_none() && self.step() {}
            }
        } else {
            let mut st = lock(&self.inner.state);
            while !st.exited {
                st = self.inner.done.wait(st).unwrap_or_else(|p| p.into_inner());
            }
        }
        self.inner.done.notify_all();
    }

    /// The slot's current state as this journal holds it (what the next start recovers once
    /// flushed).
    pub fn get(&self, key: &str) -> Option<SlotData> {
        let st = lock(&self.inner.state);
        st.slots.get(key).map(|s| SlotData {
            key: key.to_string(),
            header: s.header.clone(),
            saved: serde_json::to_value(&s.saved).unwrap_or(Value::Null),
        })
    }
}
