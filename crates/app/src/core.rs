//! The app's state as every domain module sees it: [`AppState`] (the slots of every kind,
//! the progress store, the journal, the platform's services) and its basic accessors. The
//! domain modules (`slots.rs`, `play.rs`, `finish.rs`, …) add their commands to it with
//! `impl AppState` blocks; `state.rs`, on top, starts it up and shuts it down.
//!
//! Locking order: a kind's slot map, then one slot, then the progress store — never the
//! reverse. Searches run without any lock, on a clone of the session, and write back only
//! if the slot did not change meanwhile (`Slot::version`).

use crate::games::Games;
use crate::journal::Journal;
use crate::persist::{Doc, Notice, Paths, Writer};
use crate::platform::{Event, Platform};
use crate::progress::Progress;
use huarong_engine::Kind;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

pub(crate) fn lock<T: ?Sized>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic is caught at the boundary; the data it guarded is still consistent because
    // every mutation is done on a clone first. Never propagate poisoning.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

pub(crate) struct Store {
    pub progress: Progress,
    pub gen: u64,
    pub notices: Vec<Notice>,
    pub writer: Option<Arc<Writer>>,
    pub paths: Option<Paths>,
    /// The data folder's one-writer lock, held while this app may write there.
    pub lock: Option<crate::fsio::DirLock>,
    /// Another app holds the data folder (`persist::claim`).
    pub read_only: bool,
}

pub(crate) struct Inner {
    /// The clocks, files, tasks and device services the shell passed in.
    pub platform: Platform,
    pub games: Games,
    pub store: Mutex<Store>,
    /// Where the slots' games are stored (`<data dir>/games/`).
    pub journal: Journal,
    /// The newest `updated_ms` handed out (stamps strictly increase).
    pub last_stamp: AtomicU64,
    /// How many links/second-instance requests were handled (on worker threads).
    pub links: Mutex<u64>,
    pub links_done: Condvar,
    /// How long a hint or an auto-solve start searches before answering (`search::SEARCH_BUDGET`).
    pub(crate) search_budget: Mutex<Duration>,
    /// The shell runs the background optimum itself (the web page's proof worker, through
    /// `offload_optimum`), where the platform has no threads for it.
    pub(crate) offloads_optimum: std::sync::atomic::AtomicBool,
    /// One bounded search at a time (`search_gate.rs`): the app holds one search's memory.
    pub(crate) searches: crate::search_gate::SearchGate,
}

/// The app's state; cheap to clone (shared).
#[derive(Clone)]
pub struct AppState(pub(crate) Arc<Inner>);

impl AppState {
    /// Milliseconds on the platform's monotonic clock (the sessions' clock).
    pub(crate) fn now(&self) -> u64 {
        self.0.platform.clock.monotonic().as_millis() as u64
    }

    /// Unix milliseconds of the wall clock.
    pub(crate) fn wall_ms(&self) -> u64 {
        self.0.platform.clock.wall_ms()
    }

    /// The platform's services.
    pub fn platform(&self) -> &Platform {
        &self.0.platform
    }

    /// The file layer.
    pub(crate) fn io(&self) -> Arc<dyn crate::fsio::Io> {
        self.0.platform.io.clone()
    }

    /// Unix milliseconds for `updated_ms`, strictly increasing within a run.
    pub(crate) fn stamp(&self) -> u64 {
        let wall = self.wall_ms();
        let mut out = wall;
        let _ = self
            .0
            .last_stamp
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |last| {
                out = wall.max(last + 1);
                Some(out)
            });
        out
    }

    /// Keep stamps of restored slots below the ones handed out from now on.
    pub(crate) fn see_stamp(&self, ms: u64) {
        self.0.last_stamp.fetch_max(ms, Ordering::SeqCst);
    }

    pub(crate) fn store(&self) -> MutexGuard<'_, Store> {
        lock(&self.0.store)
    }

    /// Change the progress and hand the new state to the saver.
    pub(crate) fn commit(&self, f: impl FnOnce(&mut Progress)) -> u64 {
        self.commit_after(0, f)
    }

    /// [`AppState::commit`], written only once the journal has every change up to `mark`
    /// (`Journal::handed`): a finished game's record after the finished game. The caller
    /// never waits for the disk; the saver keeps the order (`persist::Gate`).
    pub(crate) fn commit_after(&self, mark: u64, f: impl FnOnce(&mut Progress)) -> u64 {
        let mut st = self.store();
        f(&mut st.progress);
        let folded = std::mem::take(&mut st.progress.fold_log);
        if !folded.is_empty() {
            // The newest fold says what it folded (an older one of the kind gives way).
            st.notices.retain(|n| n.code != "stats_folded");
            st.notices
                .push(Notice::info("stats_folded", folded.message()));
        }
        st.gen += 1;
        let doc = Doc {
            gen: st.gen,
            progress: st.progress.clone(),
        };
        if let Some(w) = &st.writer {
            w.submit_after(doc, mark);
        }
        st.gen
    }

    /// How long the progress saver's change log may grow before a save writes the copies
    /// whole (`Writer::set_log_bound`; `None`: its own bound, `Some(0)`: every save whole).
    pub fn set_log_bound(&self, bytes: Option<u64>) {
        if let Some(w) = &self.store().writer {
            w.set_log_bound(bytes);
        }
    }

    /// Change the search budget of hints and auto-solve starts (tests force a background proof).
    pub fn set_search_budget(&self, budget: Duration) {
        *lock(&self.0.search_budget) = budget;
    }

    pub(crate) fn hint_ready(&self, kind: Kind) {
        self.0.platform.events.emit(Event::HintReady(kind));
    }

    /// A pending finish of `kind` got its verdict (`huarong-finish`).
    pub(crate) fn finish_ready(&self, kind: Kind) {
        self.0.platform.events.emit(Event::FinishReady(kind));
    }

    /// The shell finds the background optimum itself (`offload_optimum`): a finish before it
    /// is known is pending, as natively (the web page's board worker says so at start).
    pub fn set_offloads_optimum(&self, yes: bool) {
        self.0.offloads_optimum.store(yes, Ordering::SeqCst);
    }

    /// A link that arrived while the app runs was handled (see `lib.rs::open_link`).
    pub fn link_handled(&self) {
        *lock(&self.0.links) += 1;
        self.0.links_done.notify_all();
    }

    /// Wait until `n` links in all have been handled (false at the timeout).
    pub fn wait_links(&self, n: u64, timeout: Duration) -> bool {
        let clock = &self.0.platform.clock;
        let deadline = clock.monotonic() + timeout;
        let mut done = lock(&self.0.links);
        while *done < n {
            let now = clock.monotonic();
            if now >= deadline {
                return false;
            }
            done = self
                .0
                .links_done
                .wait_timeout(done, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        true
    }

    /// The app leaves the foreground: full snapshots of every slot with a journal.
    pub fn checkpoint(&self) {
        self.0.journal.checkpoint();
    }

    pub fn notice(&self, n: Notice) {
        self.store().notices.push(n);
    }

    /// Another app holds the data folder: this one reads and writes nothing there (its
    /// `read_only` notice says so).
    pub fn read_only(&self) -> bool {
        self.store().read_only
    }

    /// The newest gen handed to the saver.
    pub fn gen(&self) -> u64 {
        self.store().gen
    }
}
