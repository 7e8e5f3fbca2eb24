//! The progress saver and where it puts the primary copy. It runs on a background thread
//! of the platform's, or, on a platform without threads, one step at a time when the host
//! calls [`Writer::step`] (after each command): the same jobs, the same order, the same
//! back-off, so both modes give the same durability.

use super::{encode_sized, log, write_atomic_io, Doc, Paths};
use crate::fsio::Io;
use crate::platform::{Clock, Platform, Priority};

use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// Where the writer puts the primary copy after the good copy: the store plugin in the app,
/// a plain in-place file write (what the plugin does) in tests.
pub trait Primary: Send + 'static {
    /// Get ready to save `bytes` without touching the file (the store plugin takes the new
    /// value into its memory). The saver runs this while the good copy is written and
    /// synced, on another thread where the platform has threads; `save` follows only once
    /// the good copy is durable, with the same bytes.
    fn prepare(&mut self, bytes: &[u8]) -> Result<(), String> {
        let _ = bytes;
        Ok(())
    }
    /// Write `bytes`, the whole file (`persist::store_value` is what the store plugin keeps),
    /// after `prepare` with the same bytes succeeded.
    fn save(&mut self, bytes: &[u8]) -> Result<(), String>;
}

/// Writes the primary the way `tauri-plugin-store` does, through an [`Io`]: truncate, write
/// in place, no fsync (the plain shells' primary, and the tests').
pub struct InPlaceIo(pub Arc<dyn Io>, pub PathBuf);

impl Primary for InPlaceIo {
    fn save(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.0
            .create(&self.1)
            .and_then(|()| self.0.append(&self.1, bytes))
            .map_err(|e| e.to_string())
    }
}

/// What a doc may have to wait for before it is written: the move journal holding the
/// finished game whose record the doc carries (`Journal` implements it). The finishing move
/// hands both over without waiting; the order is kept here, on the saver's side.
pub trait Gate: Send + Sync + 'static {
    /// Every change up to `mark` is durable.
    fn reached(&self, mark: u64) -> bool;
    /// Wait until it is (or the gate's writer has stopped); false at the timeout.
    fn wait(&self, mark: u64, timeout: Duration) -> bool;
}

/// Longest a doc waits for its gate: a journal that cannot write (a failing disk) does not
/// hold the progress back for longer; the record is then written as the finishing move used
/// to write it after its own 2 s wait, and a later start settles nothing twice (`settled`).
pub const GATE_WAIT: Duration = Duration::from_secs(2);

/// Sites of the saver a test can break on purpose ([`Writer::set_mutant`]) to prove that the
/// persist tests catch the break, as the journal's
/// `journal::MUTANT_SITES`: `log.chain_after_failed_empty` continues the change log after a
/// whole write whose emptying of the log failed (the `if emptied.is_ok()` guard removed).
pub const MUTANT_SITES: &[&str] = &["log.chain_after_failed_empty"];

/// The first wait before a failed save is tried again; it doubles up to [`RETRY_MAX`].
pub const RETRY_FIRST: Duration = Duration::from_millis(50);
pub const RETRY_MAX: Duration = Duration::from_secs(5);

/// A save, kept with its bytes so that trying it again does not serialise it again.
struct Job {
    doc: Doc,
    bytes: Vec<u8>,
}

struct WriterState {
    pending: Option<Doc>,
    /// The last failed save, tried again after the back-off unless a newer doc comes first.
    retry: Option<Job>,
    /// When `retry` may run (the platform's monotonic clock).
    retry_at: Duration,
    durable: u64,
    error: Option<String>,
    stop: bool,
    /// The background thread has ended (or never started).
    exited: bool,
    /// The back-off of the next attempt after a failure (reset by a success).
    wait: Duration,
    /// The gate mark the pending doc waits for (0: none), and since when it waits.
    after: u64,
    after_since: Option<Duration>,
}

/// Where the change log stands: the state its last line (or the copies, when it is empty)
/// holds, and its length. `None` until a whole write has emptied the log (the first save
/// after a start, and the one after any failure, write the copies whole).
struct Chain {
    last: Doc,
    log_len: u64,
    copy_len: usize,
}

struct Shared {
    state: Mutex<WriterState>,
    chain: Mutex<Option<Chain>>,
    /// The log's bound in bytes ([`Writer::set_log_bound`]; `u64::MAX`: [`log::compact_at`]).
    bound: std::sync::atomic::AtomicU64,
    /// The state a new line replaced as the chain's last: dropped once the save is
    /// reported durable (freeing 5,000 scopes' copy is milliseconds nobody waits for).
    spent: Mutex<Option<Doc>>,
    cv: Condvar,
    clock: Arc<dyn Clock>,
    io: Arc<dyn Io>,
    paths: Paths,
    primary: Mutex<Box<dyn Primary>>,
    gate: Mutex<Option<Arc<dyn Gate>>>,
    /// The size of the last file serialised (the next one's first buffer).
    last_size: std::sync::atomic::AtomicUsize,
    /// Whether the primary's `prepare` may run on a thread of its own.
    threads: bool,
    /// The site of [`MUTANT_SITES`] broken on purpose (tests only; `None` in the app).
    mutant: Mutex<Option<&'static str>>,
    first: Duration,
    max: Duration,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, WriterState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether `site` is broken on purpose ([`Writer::set_mutant`]).
    fn mutant(&self, site: &str) -> bool {
        *self.mutant.lock().unwrap_or_else(|e| e.into_inner()) == Some(site)
    }

    /// The pending doc waits for its gate: the gate, its mark and how much longer it may
    /// wait. `None` once the mark is reached, at stop, or after [`GATE_WAIT`].
    fn held(&self, st: &mut WriterState) -> Option<(Arc<dyn Gate>, u64, Duration)> {
        if st.pending.is_none() || st.after == 0 || st.stop {
            return None;
        }
        let gate = self
            .gate
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()?;
        if gate.reached(st.after) {
            return None;
        }
        let now = self.clock.monotonic();
        let since = *st.after_since.get_or_insert(now);
        let left = (since + GATE_WAIT).saturating_sub(now);
        (!left.is_zero()).then_some((gate, st.after, left))
    }

    /// The job that may run now: the newest pending doc (it supersedes a failed one) once
    /// its gate lets it, else the failed one once its back-off has passed.
    fn take(&self, st: &mut WriterState) -> Option<Job> {
        if st.pending.is_some() && self.held(st).is_some() {
            return None;
        }
        if let Some(doc) = st.pending.take() {
            st.after = 0;
            st.after_since = None;
            st.retry = None;
            // Serialised by `write`, outside the lock (`submit` never waits for it).
            return Some(Job {
                doc,
                bytes: Vec::new(),
            });
        }
        if st.retry.is_some() && (st.stop || self.clock.monotonic() >= st.retry_at) {
            return st.retry.take();
        }
        None
    }

    /// Write one job: as a line of the change log while the log continues the last save and
    /// is short, else whole ([`Shared::write_whole`]). A failed line makes the next save a
    /// whole one (a cut line is never followed by another).
    fn write(&self, job: &mut Job) -> Result<(), String> {
        let mut chain = self.chain.lock().unwrap_or_else(|e| e.into_inner());
        if job.bytes.is_empty() {
            if let Some(c) = chain.as_mut() {
                match self.append(c, job) {
                    Ok(true) => return Ok(()),
                    // Past the log's bound: this save is whole.
                    Ok(false) => {}
                    Err(e) => {
                        *chain = None;
                        return Err(e);
                    }
                }
            }
        }
        drop(chain);
        self.write_whole_and_restart(job)
    }

    /// [`Shared::write_whole`], then the log starts again, empty: the copies hold this
    /// state. Until the log is known to be empty (the copies are durable either way), saves
    /// stay whole.
    fn write_whole_and_restart(&self, job: &mut Job) -> Result<(), String> {
        let mut chain = self.chain.lock().unwrap_or_else(|e| e.into_inner());
        *chain = None;
        self.write_whole(job)?;
        let (io, path) = (self.io.as_ref(), &self.paths.log);
        let emptied = crate::error::guard("emptying the change log", || {
            io.create(path)
                .and_then(|()| io.fsync(path))
                .and_then(|()| io.sync_dir(&self.paths.dir))
                .map_err(|e| crate::error::AppError::storage(e.to_string()))
        });
        if emptied.is_ok() || self.mutant("log.chain_after_failed_empty") {
            *chain = Some(Chain {
                last: take_doc(&mut job.doc),
                log_len: 0,
                copy_len: job.bytes.len(),
            });
        }
        Ok(())
    }

    /// Append the change from the chain's last state to `job`'s, and sync it; `false` (and
    /// nothing written) when the log would grow past its bound ([`log::compact_at`]).
    fn append(&self, c: &mut Chain, job: &mut Job) -> Result<bool, String> {
        let (io, path) = (self.io.as_ref(), &self.paths.log);
        let bound = match self.bound.load(std::sync::atomic::Ordering::Relaxed) {
            u64::MAX => log::compact_at(c.copy_len),
            b => b,
        };
        let line = crate::error::guard("saving progress", || {
            let line = log::diff(&c.last, &job.doc)
                .and_then(|d| log::line(&d))
                .map_err(crate::error::AppError::storage)?;
            if c.log_len + line.len() as u64 > bound {
                return Ok(None);
            }
            io.append(path, &line)
                .and_then(|()| io.fsync(path))
                .map_err(|e| {
                    crate::error::AppError::storage(format!(
                        "could not write {}: {e}",
                        path.display()
                    ))
                })?;
            Ok(Some(line.len()))
        })
        .map_err(|e| e.message)?;
        let Some(len) = line else {
            return Ok(false);
        };
        c.log_len += len as u64;
        let spent = std::mem::replace(&mut c.last, take_doc(&mut job.doc));
        *self.spent.lock().unwrap_or_else(|e| e.into_inner()) = Some(spent);
        Ok(true)
    }

    /// At stop: write the state the log ends at into the copies and empty the log, so that
    /// after a clean exit the copies hold everything (a start then has no line to read).
    /// A failure leaves the log as it is: it still holds those saves.
    fn fold(&self) {
        let mut chain = self.chain.lock().unwrap_or_else(|e| e.into_inner());
        if chain.as_ref().is_none_or(|c| c.log_len == 0) {
            return;
        }
        let Some(c) = chain.take() else {
            return;
        };
        drop(chain);
        let mut job = Job {
            doc: c.last,
            bytes: Vec::new(),
        };
        let _ = self.write_whole_and_restart(&mut job);
    }

    /// Write one job whole: the good copy (atomic) first, then the primary. A panic in a
    /// write (the plugin, the file layer) is a failed save, retried like any other.
    fn write_whole(&self, job: &mut Job) -> Result<(), String> {
        use std::sync::atomic::Ordering::Relaxed;
        if job.bytes.is_empty() {
            // Compact, serialised once: 5,000 scopes of statistics stay a few MB
            // (`progress/stats.rs`).
            let hint = self.last_size.load(Relaxed);
            job.bytes = encode_sized(&job.doc, hint + hint / 8);
            self.last_size.store(job.bytes.len(), Relaxed);
        }
        crate::error::guard("saving progress", || {
            if job.bytes.len() as u64 > super::MAX_FILE {
                // Never write a file the reader refuses: the older copies stay.
                return Err(crate::error::AppError::storage(format!(
                    "the progress ({} bytes) is larger than the {} byte limit of a save; it is kept in memory only",
                    job.bytes.len(),
                    super::MAX_FILE
                )));
            }
            let good = || {
                write_atomic_io(self.io.as_ref(), &self.paths.good, &job.bytes)
                    .map_err(|e| format!("could not write {}: {e}", self.paths.good.display()))
            };
            let mut guard = self.primary.lock().unwrap_or_else(|e| e.into_inner());
            let primary: &mut Box<dyn Primary> = &mut guard;
            let bytes = &job.bytes;
            let (good, ready) = self.beside(good, || primary.prepare(bytes));
            // The primary's file is touched only once the good copy is durable.
            good.and(ready)
                .and_then(|()| primary.save(&job.bytes))
                .map_err(crate::error::AppError::storage)
        })
        .map_err(|e| e.message)
    }

    /// Run `first` and `second` at once (`second` on a thread of its own) where the platform
    /// has threads, else (or when no thread can be had) one after the other. A panic in
    /// `second` is its error.
    fn beside(
        &self,
        first: impl FnOnce() -> Result<(), String>,
        second: impl FnOnce() -> Result<(), String> + Send,
    ) -> (Result<(), String>, Result<(), String>) {
        let slot = Mutex::new(Some(second));
        let run = || {
            let f = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
            crate::error::guard("preparing the primary copy", || {
                f.map_or(Ok(()), |f| f())
                    .map_err(crate::error::AppError::storage)
            })
            .map_err(|e| e.message)
        };
        let mut first = Some(first);
        let mut first = || first.take().map_or(Ok(()), |f| f());
        if self.threads {
            let pair = std::thread::scope(|scope| {
                let spawned = std::thread::Builder::new()
                    .name("huarong-save-primary".into())
                    .spawn_scoped(scope, run);
                let handle = spawned.ok()?;
                let a = first();
                let b = handle
                    .join()
                    .unwrap_or_else(|_| Err("preparing the primary copy failed".into()));
                Some((a, b))
            });
            if let Some(pair) = pair {
                return pair;
            }
            // The thread could not be started: neither has run yet.
        }
        (first(), run())
    }

    /// Record a job's outcome; a failure keeps the job for a retry after the back-off.
    fn done(&self, st: &mut WriterState, job: Job, result: Result<(), String>) {
        match result {
            Ok(()) => {
                st.durable = st.durable.max(job.doc.gen);
                st.error = None;
                st.wait = self.first;
            }
            Err(e) => {
                st.error = Some(e);
                if st.stop {
                    st.pending = None;
                } else if st.pending.is_none() {
                    st.retry = Some(job);
                    // Back off before trying again (disk full, permissions…); a newer doc
                    // or `stop` ends the wait early.
                    st.retry_at = self.clock.monotonic() + st.wait;
                    st.wait = (st.wait * 2).min(self.max);
                }
            }
        }
    }

    fn drop_spent(&self) {
        let spent = self.spent.lock().unwrap_or_else(|e| e.into_inner()).take();
        drop(spent);
    }

    /// The thread's loop (threaded platforms).
    fn run(&self) {
        let mut st = self.lock();
        loop {
            if let Some((gate, mark, left)) = self.held(&mut st) {
                // The journal is not there yet: wait for it without holding the state (a
                // newer doc may come meanwhile and inherits the mark).
                drop(st);
                gate.wait(mark, left);
                st = self.lock();
                continue;
            }
            if let Some(mut job) = self.take(&mut st) {
                drop(st);
                let result = self.write(&mut job);
                st = self.lock();
                self.done(&mut st, job, result);
                self.cv.notify_all();
                drop(st);
                self.drop_spent();
                st = self.lock();
                continue;
            }
            if st.stop {
                // A failed save still waiting is dropped at stop (the data stays in memory).
                st.retry = None;
                drop(st);
                self.fold();
                st = self.lock();
                break;
            }
            st = match st.retry.is_some() {
                true => {
                    let left = st.retry_at.saturating_sub(self.clock.monotonic());
                    self.cv
                        .wait_timeout(st, left)
                        .map(|r| r.0)
                        .unwrap_or_else(|e| e.into_inner().0)
                }
                false => self.cv.wait(st).unwrap_or_else(|e| e.into_inner()),
            };
        }
        st.exited = true;
        drop(st);
        self.cv.notify_all();
    }
}

/// The job's doc, moved out once it is written (its gen stays for `done`).
fn take_doc(doc: &mut Doc) -> Doc {
    let gen = doc.gen;
    std::mem::replace(
        doc,
        Doc {
            gen,
            progress: Default::default(),
        },
    )
}

/// The progress saver: `submit` never blocks on I/O; only the newest pending state is
/// written (coalescing); each write is good copy (atomic) first, then the primary.
pub struct Writer {
    shared: Arc<Shared>,
    /// Whether a background thread runs the jobs (else [`Writer::step`] does).
    threaded: bool,
}

impl Writer {
    /// The native saver with the good copy written through `io` (fault tests).
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    pub fn start_with(
        paths: Paths,
        primary: Box<dyn Primary>,
        durable: u64,
        io: Arc<dyn Io>,
    ) -> Writer {
        Self::start_retrying(paths, primary, durable, io, RETRY_FIRST, RETRY_MAX)
    }

    /// [`Writer::start_with`] on the real file system.
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    pub fn start(paths: Paths, primary: Box<dyn Primary>, durable: u64) -> Writer {
        Self::start_with(paths, primary, durable, crate::fsio::real())
    }

    /// [`Writer::start_with`] with the back-off of failed saves: `first`, doubling up to `max`.
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    pub fn start_retrying(
        paths: Paths,
        primary: Box<dyn Primary>,
        durable: u64,
        io: Arc<dyn Io>,
        first: Duration,
        max: Duration,
    ) -> Writer {
        let platform = Platform::headless().with_io(io);
        Self::start_on(&platform, paths, primary, durable, first, max)
    }

    /// The saver on `platform`'s clock, file layer and tasks: a background thread where the
    /// platform has threads, else single-threaded ([`Writer::step`]).
    pub fn start_on(
        platform: &Platform,
        paths: Paths,
        primary: Box<dyn Primary>,
        durable: u64,
        first: Duration,
        max: Duration,
    ) -> Writer {
        let shared = Arc::new(Shared {
            state: Mutex::new(WriterState {
                pending: None,
                retry: None,
                retry_at: Duration::ZERO,
                durable,
                error: None,
                stop: false,
                exited: true,
                wait: first,
                after: 0,
                after_since: None,
            }),
            chain: Mutex::new(None),
            spent: Mutex::new(None),
            bound: u64::MAX.into(),
            cv: Condvar::new(),
            clock: platform.clock.clone(),
            io: platform.io.clone(),
            paths,
            primary: Mutex::new(primary),
            gate: Mutex::new(None),
            last_size: Default::default(),
            threads: platform.tasks.threaded(),
            mutant: Mutex::new(None),
            first,
            max: max.max(first),
        });
        let mut threaded = false;
        if platform.tasks.threaded() {
            shared.lock().exited = false;
            let s = shared.clone();
            match platform
                .tasks
                .spawn("huarong-save", Priority::Normal, Box::new(move || s.run()))
            {
                Ok(()) => threaded = true,
                Err(e) => {
                    let mut st = shared.lock();
                    st.exited = true;
                    st.error = Some(format!(
                        "the saver cannot start ({e}); saving after each change instead"
                    ));
                }
            }
        }
        Writer { shared, threaded }
    }

    /// Break one site of [`MUTANT_SITES`] on purpose (the persist tests' mutation check);
    /// never called by the app.
    #[doc(hidden)]
    pub fn set_mutant(&self, site: Option<&'static str>) {
        *self.shared.mutant.lock().unwrap_or_else(|e| e.into_inner()) = site;
    }

    /// Queue `doc` to be saved (replacing any older pending one).
    pub fn submit(&self, doc: Doc) {
        self.submit_after(doc, 0);
    }

    /// Queue `doc`, to be written only once the gate ([`Writer::set_gate`]) has reached
    /// `mark` (a finished game's record after the journal holds the game), at most
    /// [`GATE_WAIT`]. A newer doc that replaces it keeps the mark. Never blocks on I/O.
    pub fn submit_after(&self, doc: Doc, mark: u64) {
        let mut st = self.shared.lock();
        if st.pending.as_ref().is_none_or(|p| p.gen <= doc.gen) {
            st.pending = Some(doc);
            st.after = st.after.max(mark);
        }
        drop(st);
        self.shared.cv.notify_all();
    }

    /// How long the change log may grow before a save writes the copies whole: `None`, its
    /// own bound ([`log::compact_at`]); `Some(0)`, every save whole (the kill test's lane of
    /// whole saves, which kills in the store file's in-place write).
    pub fn set_log_bound(&self, bytes: Option<u64>) {
        let b = bytes.map_or(u64::MAX, |b| b.min(u64::MAX - 1));
        self.shared
            .bound
            .store(b, std::sync::atomic::Ordering::Relaxed);
    }

    /// What docs submitted with a mark wait for (the move journal).
    pub fn set_gate(&self, gate: Arc<dyn Gate>) {
        *self.shared.gate.lock().unwrap_or_else(|e| e.into_inner()) = Some(gate);
    }

    /// Single-threaded mode: write what may be written now (a pending doc, or a failed one
    /// whose back-off has passed). Returns whether it wrote. A no-op when a thread runs the
    /// saver.
    pub fn step(&self) -> bool {
        if self.threaded {
            return false;
        }
        let mut st = self.shared.lock();
        let Some(mut job) = self.shared.take(&mut st) else {
            return false;
        };
        drop(st);
        let result = self.shared.write(&mut job);
        let mut st = self.shared.lock();
        self.shared.done(&mut st, job, result);
        drop(st);
        self.shared.drop_spent();
        true
    }

    /// The gen of the newest state known to be on disk.
    pub fn durable(&self) -> u64 {
        self.shared.lock().durable
    }

    /// The last write error, if the last attempt failed.
    pub fn error(&self) -> Option<String> {
        self.shared.lock().error.clone()
    }

    /// Wait until `gen` is on disk; false on timeout. Single-threaded: write now (and try a
    /// failed save again once), never wait.
    pub fn wait_durable(&self, gen: u64, timeout: Duration) -> bool {
        if !self.threaded {
            while self.durable() < gen && self.step() {}
            return self.durable() >= gen;
        }
        let clock = &self.shared.clock;
        let deadline = clock.monotonic() + timeout;
        let mut st = self.shared.lock();
        while st.durable < gen {
            let left = deadline.saturating_sub(clock.monotonic());
            if left.is_zero() {
                return false;
            }
            st = self
                .shared
                .cv
                .wait_timeout(st, left)
                .map(|r| r.0)
                .unwrap_or_else(|e| e.into_inner().0);
        }
        true
    }

    /// Write what is pending (one more try of a failed save) and stop the thread.
    pub fn stop(&self) {
        self.shared.lock().stop = true;
        self.shared.cv.notify_all();
        if !self.threaded {
            while self.step() {}
            self.shared.fold();
            return;
        }
        let mut st = self.shared.lock();
        while !st.exited {
            st = self.shared.cv.wait(st).unwrap_or_else(|e| e.into_inner());
        }
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        self.stop();
    }
}
