//! The background saver thread and where it puts the primary copy.

use super::{envelope, write_atomic_io, Doc, Paths};
use crate::fsio::{Io, Real};
use serde_json::{json, Value};
use std::fs;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

/// Where the writer puts the primary copy after the good copy: the store plugin in the app,
/// a plain in-place file write (what the plugin does) in tests.
pub trait Primary: Send + 'static {
    fn save(&mut self, envelope: &Value, bytes: &[u8]) -> Result<(), String>;
}

/// Writes the primary the way `tauri-plugin-store` does: `fs::write`, in place, no fsync.
pub struct InPlaceFile(pub PathBuf);

impl Primary for InPlaceFile {
    fn save(&mut self, _envelope: &Value, bytes: &[u8]) -> Result<(), String> {
        fs::write(&self.0, bytes).map_err(|e| e.to_string())
    }
}

/// [`InPlaceFile`] through an [`Io`] (fault tests): truncate, write, no fsync.
pub struct InPlaceIo(pub Arc<dyn Io>, pub PathBuf);

impl Primary for InPlaceIo {
    fn save(&mut self, _envelope: &Value, bytes: &[u8]) -> Result<(), String> {
        self.0
            .create(&self.1)
            .and_then(|()| self.0.append(&self.1, bytes))
            .map_err(|e| e.to_string())
    }
}

/// The first wait before a failed save is tried again; it doubles up to [`RETRY_MAX`].
pub const RETRY_FIRST: Duration = Duration::from_millis(50);
pub const RETRY_MAX: Duration = Duration::from_secs(5);

/// A save that failed, kept with its bytes so that trying again does not serialise it again.
struct Failed {
    doc: Doc,
    envelope: Value,
    bytes: Vec<u8>,
}

struct WriterState {
    pending: Option<Doc>,
    /// The last failed save, tried again after the back-off unless a newer doc comes first.
    retry: Option<Failed>,
    busy: bool,
    durable: u64,
    error: Option<String>,
    stop: bool,
    /// The back-off of the next attempt after a failure (reset by a success).
    wait: Duration,
}

struct Shared {
    state: Mutex<WriterState>,
    cv: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, WriterState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The background saver: `submit` never blocks on I/O; only the newest pending state is
/// written (coalescing); each write is good copy (atomic) first, then the primary.
pub struct Writer {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Writer {
    pub fn start(paths: Paths, primary: Box<dyn Primary>, durable: u64) -> Writer {
        Self::start_with(paths, primary, durable, Arc::new(Real))
    }

    /// [`Writer::start`] with the good copy written through `io` (fault tests).
    pub fn start_with(
        paths: Paths,
        primary: Box<dyn Primary>,
        durable: u64,
        io: Arc<dyn Io>,
    ) -> Writer {
        Self::start_retrying(paths, primary, durable, io, RETRY_FIRST, RETRY_MAX)
    }

    /// [`Writer::start_with`] with the back-off of failed saves: `first`, doubling up to `max`.
    pub fn start_retrying(
        paths: Paths,
        mut primary: Box<dyn Primary>,
        durable: u64,
        io: Arc<dyn Io>,
        first: Duration,
        max: Duration,
    ) -> Writer {
        let shared = Arc::new(Shared {
            state: Mutex::new(WriterState {
                pending: None,
                retry: None,
                busy: false,
                durable,
                error: None,
                stop: false,
                wait: first,
            }),
            cv: Condvar::new(),
        });
        let s = shared.clone();
        let max = max.max(first);
        let thread = std::thread::Builder::new()
            .name("huarong-save".into())
            .spawn(move || loop {
                let job = {
                    let mut st = s.lock();
                    while st.pending.is_none() && st.retry.is_none() && !st.stop {
                        st = s.cv.wait(st).unwrap_or_else(|e| e.into_inner());
                    }
                    // A newer doc supersedes the failed one; else the failed one again,
                    // with the bytes it already has.
                    let job = match st.pending.take() {
                        Some(d) => {
                            st.retry = None;
                            Err(d)
                        }
                        None => match st.retry.take() {
                            Some(f) => Ok(f),
                            None => break,
                        },
                    };
                    st.busy = true;
                    job
                };
                let job = job.unwrap_or_else(|doc| {
                    let envelope = envelope(&doc);
                    let bytes =
                        serde_json::to_vec_pretty(&json!({ "save": envelope })).unwrap_or_default();
                    Failed {
                        doc,
                        envelope,
                        bytes,
                    }
                });
                // A panic in a write (the plugin, the file layer) is a failed save, retried
                // like any other; the thread goes on.
                let result = crate::error::guard("saving progress", || {
                    if job.bytes.len() as u64 > super::MAX_FILE {
                        // Never write a file the reader refuses: the older copies stay.
                        return Err(crate::error::AppError::storage(format!(
                            "the progress ({} bytes) is larger than the {} byte limit of a save; it is kept in memory only",
                            job.bytes.len(),
                            super::MAX_FILE
                        )));
                    }
                    write_atomic_io(io.as_ref(), &paths.good, &job.bytes)
                        .map_err(|e| format!("could not write {}: {e}", paths.good.display()))
                        .and_then(|()| primary.save(&job.envelope, &job.bytes))
                        .map_err(crate::error::AppError::storage)
                })
                .map_err(|e| e.message);
                let mut st = s.lock();
                st.busy = false;
                match result {
                    Ok(()) => {
                        st.durable = st.durable.max(job.doc.gen);
                        st.error = None;
                        st.wait = first;
                    }
                    Err(e) => {
                        st.error = Some(e);
                        if st.stop {
                            st.pending = None;
                        } else {
                            if st.pending.is_none() {
                                st.retry = Some(job);
                            }
                            // Back off before trying again (disk full, permissions…); a
                            // newer doc or `stop` ends the wait early.
                            let deadline = std::time::Instant::now() + st.wait;
                            st.wait = (st.wait * 2).min(max);
                            s.cv.notify_all();
                            while st.pending.is_none() && !st.stop {
                                let left =
                                    deadline.saturating_duration_since(std::time::Instant::now());
                                if left.is_zero() {
                                    break;
                                }
                                st =
                                    s.cv.wait_timeout(st, left)
                                        .map(|r| r.0)
                                        .unwrap_or_else(|e| e.into_inner().0);
                            }
                            if st.stop {
                                st.pending = None;
                                st.retry = None;
                            }
                        }
                    }
                }
                drop(st);
                s.cv.notify_all();
            })
            .expect("spawn the save thread");
        Writer {
            shared,
            thread: Some(thread),
        }
    }

    /// Queue `doc` to be saved (replacing any older pending one).
    pub fn submit(&self, doc: Doc) {
        let mut st = self.shared.lock();
        if st.pending.as_ref().is_none_or(|p| p.gen <= doc.gen) {
            st.pending = Some(doc);
        }
        drop(st);
        self.shared.cv.notify_all();
    }

    /// The gen of the newest state known to be on disk.
    pub fn durable(&self) -> u64 {
        self.shared.lock().durable
    }

    /// The last write error, if the last attempt failed.
    pub fn error(&self) -> Option<String> {
        self.shared.lock().error.clone()
    }

    /// Wait until `gen` is on disk; false on timeout.
    pub fn wait_durable(&self, gen: u64, timeout: Duration) -> bool {
        let deadline = std::time::Instant::now() + timeout;
        let mut st = self.shared.lock();
        while st.durable < gen {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
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

    /// Write what is pending and stop the thread.
    pub fn stop(&mut self) {
        self.shared.lock().stop = true;
        self.shared.cv.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        self.stop();
    }
}
