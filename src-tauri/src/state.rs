//! The app's state: every game slot, the player's progress, and the saver. Plain Rust (no
//! Tauri types), so tests and the kill-test child drive exactly what the commands drive.
//! The work is split by responsibility: `slots.rs` (slots and sessions, routing, the cap),
//! `play.rs` (moves and views), `finish.rs` (records), `daily.rs` (today and streaks),
//! `settings.rs` (settings, screen, progress view), `launch.rs` (`--open` and links),
//! `search.rs` (hint, solve, optimum, cancel).
//!
//! Locking order: a kind's slot map, then one slot, then the progress store — never the
//! reverse. Searches run without any lock, on a clone of the session, and write back only
//! if the slot did not change meanwhile (`Slot::version`).

use crate::error::{guard, AppError, AppResult, Code};
use crate::games::{with_game, AppGame, Games};
use crate::persist::{self, Doc, Notice, Paths, Primary, Writer};
use crate::progress::{self, Progress};
use huarong_engine::{Kind, SavedSession, Session};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

pub use crate::daily::today;
pub use crate::launch::resolve_open;
pub use crate::views::{
    Finish, GameEntry, GameSnapshot, HintView, ProgressView, SolveView, StorageView, View,
};

pub(crate) fn lock<T: ?Sized>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic is caught at the boundary; the data it guarded is still consistent because
    // every mutation is done on a clone first. Never propagate poisoning.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

pub(crate) struct Store {
    pub progress: Progress,
    pub gen: u64,
    pub notices: Vec<Notice>,
    pub writer: Option<Writer>,
    pub paths: Option<Paths>,
}

pub(crate) struct Inner {
    epoch: Instant,
    pub games: Games,
    store: Mutex<Store>,
    /// The newest `updated_ms` handed out (stamps strictly increase).
    last_stamp: AtomicU64,
}

/// The app's state; cheap to clone (shared).
#[derive(Clone)]
pub struct AppState(pub(crate) Arc<Inner>);

impl AppState {
    /// Open the progress in `paths` (checking and repairing the files first), restore every
    /// saved game, and start the saver with `primary` built after the check (the store
    /// plugin must not open the file before). `paths = None` runs without saving.
    pub fn open(
        paths: Option<Paths>,
        primary: impl FnOnce() -> Result<Box<dyn Primary>, String>,
    ) -> AppState {
        let (doc, mut notices, writer) = match &paths {
            None => (
                Doc {
                    gen: 0,
                    progress: Progress::default(),
                },
                Vec::new(),
                None,
            ),
            Some(p) => {
                let rec = persist::recover(p);
                let mut notices = rec.notices;
                let writer = if rec.writable {
                    match primary() {
                        Ok(prim) => Some(Writer::start(p.clone(), prim, rec.doc.gen)),
                        Err(e) => {
                            notices.push(Notice::warning(
                                "unreadable",
                                format!("the progress store could not be opened ({e}); progress will not be saved"),
                            ));
                            None
                        }
                    }
                } else {
                    None
                };
                (rec.doc, notices, writer)
            }
        };
        let mut progress = doc.progress;
        let saved = std::mem::take(&mut progress.games);
        let gen = doc.gen;
        let state = AppState(Arc::new(Inner {
            epoch: Instant::now(),
            games: Games::default(),
            store: Mutex::new(Store {
                progress,
                gen,
                notices: Vec::new(),
                writer,
                paths,
            }),
            last_stamp: AtomicU64::new(0),
        }));
        let mut kept = BTreeMap::new();
        let mut quarantine = Vec::new();
        for (kind_s, value) in saved {
            let Some(kind) = Kind::parse(&kind_s) else {
                continue;
            };
            let key = state.store().progress.current.get(&kind_s).cloned();
            match with_game!(kind, G => state.restore_saved::<G>(key, &value)) {
                Ok(key) => {
                    kept.insert(kind_s.clone(), value);
                    state.store().progress.current.insert(kind_s, key);
                }
                Err(e) => {
                    notices.push(Notice::warning(
                        "game_not_resumed",
                        format!("your {kind_s} game in progress could not be resumed ({}); it is kept in the save file", e.message),
                    ));
                    quarantine.push(progress::Quarantined {
                        kind: kind_s,
                        reason: e.message,
                        saved: value.value(),
                    });
                }
            }
        }
        {
            let mut st = state.store();
            st.notices = notices;
            st.progress.games = kept;
            st.progress.quarantine.extend(quarantine.iter().cloned());
            st.progress.sanitize();
        }
        if !quarantine.is_empty() {
            // Write the quarantine down now, so the broken game is not retried at every start.
            state.commit(|_| {});
        }
        for kind in Kind::ALL {
            with_game!(kind, G => state.find_optimal_current::<G>());
        }
        state
    }

    /// A saved game (of the schema-1 layout: one per kind) back into its slot.
    fn restore_saved<G: AppGame>(
        &self,
        key: Option<String>,
        value: &progress::SavedGame,
    ) -> AppResult<String> {
        let saved: SavedSession<G::Move> = serde_json::from_str(&value.text()).map_err(|e| {
            AppError::new(
                Code::CorruptSave,
                format!("the saved game does not parse: {e}"),
            )
        })?;
        let sess = guard("resuming the game", || {
            Session::<G>::restore(&saved).map_err(AppError::from)
        })?;
        let (key, mode) = match key.and_then(|k| crate::slots::mode_of_key(&k).map(|m| (k, m))) {
            Some(km) => km,
            None => self.route_id::<G>(&sess, false),
        };
        self.insert_slot(key.clone(), mode, sess);
        Ok(key)
    }

    /// Milliseconds since the app started (the sessions' clock).
    pub(crate) fn now(&self) -> u64 {
        self.0.epoch.elapsed().as_millis() as u64
    }

    /// Unix milliseconds for `updated_ms`, strictly increasing within a run.
    pub(crate) fn stamp(&self) -> u64 {
        let wall = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
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
        let mut st = self.store();
        f(&mut st.progress);
        st.gen += 1;
        let doc = Doc {
            gen: st.gen,
            progress: st.progress.clone(),
        };
        if let Some(w) = &st.writer {
            w.submit(doc);
        }
        st.gen
    }

    pub fn notice(&self, n: Notice) {
        self.store().notices.push(n);
    }

    /// Wait until everything handed to the saver is on disk (false on timeout or when
    /// progress cannot be saved).
    pub fn flush(&self, timeout: Duration) -> bool {
        let (gen, writer_ok) = {
            let st = self.store();
            (st.gen, st.writer.is_some())
        };
        if !writer_ok {
            return false;
        }
        let deadline = Instant::now() + timeout;
        loop {
            let st = self.store();
            let Some(w) = &st.writer else { return false };
            if w.durable() >= gen {
                return true;
            }
            drop(st);
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// The newest gen handed to the saver.
    pub fn gen(&self) -> u64 {
        self.store().gen
    }

    /// Stop the saver after writing what is pending (app exit).
    pub fn shutdown(&self) {
        let w = self.store().writer.take();
        if let Some(mut w) = w {
            w.stop();
        }
    }
}
