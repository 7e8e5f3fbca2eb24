//! Durable game slots: per slot a checksummed snapshot plus an append-only journal of
//! session deltas (O(1) bytes per move), written by one background thread. See README.md
//! in this folder for the design, the file layout and the crash argument.
//!
//! The in-memory slot state kept here is authoritative: every call updates it at once and
//! hands the bytes to the writer; a write that fails is retried (as a full snapshot) with
//! back-off, never dropped.

mod format;

pub use format::{
    crc32, decode_records, decode_snapshot, encode_record, encode_snapshot, stem, unstem, Records,
    MAX_RECORD,
};

use crate::fsio::Io;
use crate::persist::Notice;
use huarong_engine::session::{SavedSession, SessionDelta};
use serde_json::{json, Value};
use std::collections::{BTreeSet, HashMap};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Largest file the journal writes or reads (snapshot or journal).
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
    thread: Mutex<Option<JoinHandle<()>>>,
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
    /// Changes handed over so far / made durable so far.
    seq: u64,
    durable: u64,
    checkpoint: bool,
    error: Option<String>,
    retry_at: Option<Instant>,
    backoff: Duration,
    stop: bool,
    /// Problems noticed by the writer since the last `take_notices`.
    notices: Vec<Notice>,
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
}

fn parse_saved(v: &Value) -> Result<SavedSession<Value>, String> {
    serde_json::from_value(v.clone()).map_err(|e| format!("not a saved game: {e}"))
}

fn parse_delta(v: &Value) -> Result<SessionDelta<Value>, String> {
    serde_json::from_value(v.clone()).map_err(|e| format!("not a session delta: {e}"))
}

impl Journal {
    /// Open `<data dir>/games/`, recover every slot (snapshot + valid journal prefix, torn
    /// tail dropped), clean temp files. Never fails: problems become notices.
    pub fn open(dir: &Path, io: Arc<dyn Io>) -> (Journal, Vec<SlotData>, Vec<Notice>) {
        Self::open_with(dir, io, Options::default())
    }

    /// [`Journal::open`] with test options.
    pub fn open_with(
        dir: &Path,
        io: Arc<dyn Io>,
        opts: Options,
    ) -> (Journal, Vec<SlotData>, Vec<Notice>) {
        let gdir = dir.join("games");
        let mut notices = Vec::new();
        let mut slots = HashMap::new();
        if let Err(e) = io.create_dir_all(&gdir) {
            notices.push(Notice::warning(
                "save_failed",
                format!(
                    "the games folder {} cannot be created ({}); games are kept until it can",
                    gdir.display(),
                    describe(&e)
                ),
            ));
        } else {
            recover(&gdir, io.as_ref(), &mut slots, &mut notices);
        }
        let mut out: Vec<SlotData> = slots
            .iter()
            .map(|(k, s): (&String, &Slot)| SlotData {
                key: k.clone(),
                header: s.header.clone(),
                saved: serde_json::to_value(&s.saved).unwrap_or(Value::Null),
            })
            .collect();
        out.sort_by(|a, b| a.key.cmp(&b.key));
        let backoff = opts.retry_first.unwrap_or(RETRY_FIRST);
        let j = Journal {
            inner: Arc::new(Inner {
                dir: Some(gdir),
                io: Some(io),
                opts,
                state: Mutex::new(State {
                    slots,
                    backoff,
                    ..State::default()
                }),
                wake: Condvar::new(),
                done: Condvar::new(),
                thread: Mutex::new(None),
            }),
        };
        let inner = j.inner.clone();
        let handle = std::thread::Builder::new()
            .name("huarong-journal".into())
            .spawn(move || writer(inner));
        match handle {
            Ok(h) => *lock(&j.inner.thread) = Some(h),
            Err(e) => {
                lock(&j.inner.state).error = Some(format!("the saver cannot start: {e}"));
            }
        }
        (j, out, notices)
    }

    /// No data folder: everything is kept in memory only.
    pub fn disabled() -> Journal {
        Journal {
            inner: Arc::new(Inner {
                dir: None,
                io: None,
                opts: Options::default(),
                state: Mutex::new(State::default()),
                wake: Condvar::new(),
                done: Condvar::new(),
                thread: Mutex::new(None),
            }),
        }
    }

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
    pub fn flush(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut st = lock(&self.inner.state);
        let target = st.seq;
        while st.durable < target {
            let now = Instant::now();
            if now >= deadline || lock(&self.inner.thread).is_none() {
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
        let handle = lock(&self.inner.thread).take();
        if let Some(h) = handle {
            let _ = h.join();
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

/// Read every slot of the games folder.
fn recover(dir: &Path, io: &dyn Io, slots: &mut HashMap<String, Slot>, notices: &mut Vec<Notice>) {
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
            if recs.torn(j.len()) {
                // The move in flight when the app stopped: dropped, and the next write is a
                // fresh snapshot so nothing is ever appended after the torn bytes.
                snap = true;
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

/// A snapshot file's payload as read.
#[derive(serde::Deserialize)]
struct SnapIn {
    key: String,
    jgen: u64,
    #[serde(default)]
    header: Value,
    saved: SavedSession<Value>,
}

/// A snapshot file's payload as written (serialised straight from the slot).
#[derive(serde::Serialize)]
struct SnapOut<'a> {
    key: &'a str,
    jgen: u64,
    header: &'a Value,
    saved: &'a SavedSession<Value>,
}

/// A journal record's payload as read.
#[derive(serde::Deserialize)]
struct RecIn {
    #[serde(default)]
    h: Option<Value>,
    d: SessionDelta<Value>,
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
    let mut jobs: Vec<Job> = st
        .removed
        .iter()
        .map(|k| Job::Remove { key: k.clone() })
        .collect();
    st.removed.clear();
    let compact_at = inner.opts.compact_at.unwrap_or(COMPACT_MIN);
    let checkpoint = std::mem::take(&mut st.checkpoint);
    let mut failed = Vec::new();
    for (key, slot) in st.slots.iter_mut() {
        let big = slot.jbytes + slot.pending_bytes > compact_at.max(slot.snap_bytes);
        let full = slot.snap || big || (checkpoint && (slot.jbytes > 0 || slot.dirty()));
        if full {
            let new = slot.jgen + 1;
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
                if name.starts_with(&prefix) {
                    match io.remove(&dir.join(&name)) {
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

fn writer(inner: Arc<Inner>) {
    let (Some(io), Some(dir)) = (inner.io.clone(), inner.dir.clone()) else {
        return;
    };
    loop {
        let ((jobs, unencodable), seq) = {
            let mut st = lock(&inner.state);
            loop {
                let work = st.durable < st.seq || st.checkpoint;
                let now = Instant::now();
                let ready = st.retry_at.is_none_or(|t| now >= t);
                if work && ready {
                    break;
                }
                if st.stop {
                    inner.done.notify_all();
                    return;
                }
                st = match st.retry_at {
                    Some(t) if work => {
                        inner
                            .wake
                            .wait_timeout(st, t.saturating_duration_since(now))
                            .unwrap_or_else(|p| p.into_inner())
                            .0
                    }
                    _ => inner.wake.wait(st).unwrap_or_else(|p| p.into_inner()),
                };
            }
            let seq = st.seq;
            (collect(&inner, &mut st), seq)
        };
        let mut failure: Option<String> = unencodable;
        let mut outcomes = Vec::with_capacity(jobs.len());
        for job in &jobs {
            let r = catch_unwind(AssertUnwindSafe(|| run(&inner, io.as_ref(), &dir, job)));
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
                st.retry_at = Some(Instant::now() + wait);
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
        if st.stop && st.retry_at.is_some() {
            // Shutting down and the last try failed: stop anyway (data stays in memory).
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fsio;
    use huarong_engine::slide::Slide;
    use huarong_engine::Session;

    fn tmpdir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("huarong-journal-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn moves(s: &Session<Slide>) -> Vec<huarong_engine::slide::Move> {
        s.current()
            .board()
            .movable()
            .into_iter()
            .map(|tile| huarong_engine::slide::Move { tile })
            .collect()
    }

    #[test]
    fn put_append_reopen_and_torn_tail() {
        let dir = tmpdir("basic");
        let (j, slots, notices) = Journal::open(&dir, fsio::real());
        assert!(slots.is_empty() && notices.is_empty(), "{notices:?}");
        let mut s = Session::<Slide>::open("slide:4x4#42").unwrap();
        j.put(
            "slide:4x4",
            json!({"n": 0}),
            serde_json::to_value(s.save(0)).unwrap(),
        );
        let _ = s.take_delta(0);
        assert!(j.flush(Duration::from_secs(10)));
        for i in 0..20u64 {
            let mv = moves(&s)[(i as usize * 7) % moves(&s).len()];
            s.play(&mv, i * 100).unwrap();
            if i % 5 == 4 {
                s.undo(i * 100 + 1).unwrap();
            }
            let d = s.take_delta(i * 100 + 2);
            j.append(
                "slide:4x4",
                json!({"n": i + 1}),
                serde_json::to_value(d).unwrap(),
            );
        }
        assert!(j.flush(Duration::from_secs(10)));
        assert_eq!(j.error(), None);
        j.shutdown();
        let want = serde_json::to_value(s.save(1902)).unwrap();
        let (j2, slots, notices) = Journal::open(&dir, fsio::real());
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(slots.len(), 1);
        assert_eq!(slots[0].key, "slide:4x4");
        assert_eq!(slots[0].header, json!({"n": 20}));
        assert_eq!(slots[0].saved, want);
        j2.shutdown();
        // Cut the journal inside its last record: that move is lost, the rest kept.
        let jnl = std::fs::read_dir(dir.join("games"))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|e| e == "jnl"))
            .unwrap();
        let len = std::fs::metadata(&jnl).unwrap().len();
        let f = std::fs::OpenOptions::new().write(true).open(&jnl).unwrap();
        f.set_len(len - 3).unwrap();
        let (j3, slots, _) = Journal::open(&dir, fsio::real());
        assert_eq!(slots[0].header, json!({"n": 19}));
        // The next write after a torn tail is a fresh snapshot; nothing follows the garbage.
        j3.append(
            "slide:4x4",
            json!({"n": 99}),
            serde_json::to_value(SessionDelta::<Value> {
                keep: 0,
                add: vec![],
                cursor: 0,
                elapsed_ms: 5,
                undo_used: true,
                hints_used: 0,
                auto_solved: false,
                undo_allowed: true,
            })
            .unwrap(),
        );
        assert!(j3.flush(Duration::from_secs(10)));
        j3.shutdown();
        let (j4, slots, _) = Journal::open(&dir, fsio::real());
        assert_eq!(slots[0].header, json!({"n": 99}));
        j4.remove("slide:4x4");
        assert!(j4.flush(Duration::from_secs(10)));
        j4.shutdown();
        let left: Vec<_> = std::fs::read_dir(dir.join("games"))
            .unwrap()
            .flatten()
            .collect();
        assert!(left.is_empty(), "{left:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn disabled_keeps_memory_only() {
        let j = Journal::disabled();
        j.put(
            "2048:free",
            json!({}),
            json!({"version":1,"id":"2048:4:1","log":[],"cursor":0,"elapsed_ms":0}),
        );
        assert!(j.flush(Duration::from_millis(10)));
        assert!(j.get("2048:free").is_some());
        j.shutdown();
    }
}
