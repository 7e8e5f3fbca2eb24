//! The app state's life: start-up (recover the files, restore every slot, import schema-1
//! games, settle and heal), flush, `step` (single-threaded writers) and shutdown. The
//! `AppState` type and its locking order are in `core.rs`; each domain module adds its
//! commands (`slots.rs`, `play.rs`, `finish.rs`, `daily.rs`, `settings.rs`, `launch.rs`,
//! `search.rs`, …).

use crate::error::{guard, AppError, AppResult};
use crate::games::{with_game, AppGame, Games};
use crate::journal::{Journal, SlotData};
use crate::persist::{self, Doc, Notice, Paths, Primary, Writer};
use crate::platform::Platform;
use crate::progress::{self, Progress};
use huarong_engine::{ErrorCode, Kind, SavedSession, Session};
use serde::Deserialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

pub(crate) use crate::core::lock;
pub use crate::core::AppState;
pub(crate) use crate::core::{Inner, Store};

pub use crate::launch::resolve_open;
pub use crate::views::{
    Finish, GameEntry, GameSnapshot, HintView, ProgressView, SolveView, StorageView, View,
};

pub(crate) fn restore_session<G: AppGame>(saved: &serde_json::Value) -> AppResult<Session<G>> {
    let saved = SavedSession::<G::Move>::deserialize(saved).map_err(|e| {
        AppError::new(
            ErrorCode::CorruptSave,
            format!("the saved game does not parse: {e}"),
        )
    })?;
    guard("resuming the game", || {
        Session::<G>::restore(&saved).map_err(AppError::from)
    })
}

impl AppState {
    /// Open the progress in `paths` (checking and repairing the files first), restore every
    /// saved game, and start the saver with `primary` built after the check (the store
    /// plugin must not open the file before). `paths = None` runs without saving. Files,
    /// clocks and background work go through `platform`.
    pub fn open(
        paths: Option<Paths>,
        platform: Platform,
        primary: impl FnOnce() -> Result<Box<dyn Primary>, String>,
    ) -> AppState {
        // One writer per data folder: a second app on it (the single-instance hand-over
        // failed) writes nothing there (`persist::claim`). It shows the progress as it is
        // saved (settings, records, statistics: `persist::latest`, which only reads), so the
        // player's language and records are there; games stay with the first app.
        let asked = paths.clone();
        let (paths, lock, busy) = persist::claim(paths, platform.io.as_ref());
        let (doc, mut notices, writer) = match &paths {
            None => (
                asked
                    .filter(|_| busy.is_some())
                    .and_then(|p| persist::latest(&p, platform.io.as_ref()))
                    .unwrap_or(Doc {
                        gen: 0,
                        progress: Progress::default(),
                    }),
                Vec::new(),
                None,
            ),
            Some(p) => {
                let rec = persist::recover_at(p, platform.io.as_ref(), platform.clock.wall_ms());
                let mut notices = rec.notices;
                let writer = if rec.writable {
                    match primary() {
                        Ok(prim) => Some(Arc::new(Writer::start_on(
                            &platform,
                            p.clone(),
                            prim,
                            rec.doc.gen,
                            persist::RETRY_FIRST,
                            persist::RETRY_MAX,
                        ))),
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
        // Schema-1 files kept one game per kind in the progress: imported into slots below.
        let saved = std::mem::take(&mut progress.games);
        let saved_copy = saved.clone();
        let gen = doc.gen;
        let (journal, slots, jnotices) = match &paths {
            Some(p) => Journal::open_on(&p.dir, &platform, Default::default()),
            None => (Journal::disabled(), Vec::new(), Vec::new()),
        };
        notices.extend(jnotices);
        let read_only = busy.is_some();
        notices.extend(busy);
        if let Some(w) = &writer {
            // A finished game's record waits on the saver's side for the journal to hold it.
            w.set_gate(Arc::new(journal.clone()));
        }
        let state = AppState(Arc::new(Inner {
            platform,
            games: Games::default(),
            store: Mutex::new(Store {
                progress,
                gen,
                notices: Vec::new(),
                writer,
                paths,
                lock,
                read_only,
            }),
            journal,
            last_stamp: AtomicU64::new(0),
            links: Mutex::new(0),
            links_done: Condvar::new(),
            search_budget: Mutex::new(crate::search::SEARCH_BUDGET),
            offloads_optimum: std::sync::atomic::AtomicBool::new(false),
            searches: Default::default(),
        }));
        for (key, e) in state.restore_slots(slots) {
            notices.push(Notice::warning(
                "game_not_resumed",
                format!(
                    "your game in slot {key} could not be resumed ({}); it is kept in the games folder",
                    e.message
                ),
            ));
        }
        let migrating = !saved.is_empty();
        let mut quarantine = Vec::new();
        let repaired_any;
        for (kind_s, value) in saved {
            let Some(kind) = Kind::parse(&kind_s) else {
                continue;
            };
            let key = state.store().progress.current.get(&kind_s).cloned();
            match with_game!(kind, G => state.import_saved::<G>(key, &value)) {
                Ok(key) => {
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
            st.progress.quarantine.extend(quarantine.iter().cloned());
            st.progress.sanitize();
            let folded = std::mem::take(&mut st.progress.fold_log);
            if !folded.is_empty() {
                st.notices
                    .push(Notice::info("stats_folded", folded.message()));
            }
            let repaired = progress::repair_impossible(&mut st.progress);
            if !repaired.is_empty() {
                st.notices.push(Notice::warning(
                    "records_repaired",
                    format!(
                        "records no game could have made were taken back: {}",
                        repaired.join("; ")
                    ),
                ));
            }
            repaired_any = !repaired.is_empty();
        }
        if repaired_any && !migrating && quarantine.is_empty() {
            state.commit(|_| {});
        }
        if migrating || !quarantine.is_empty() {
            // The imported games are in the journal first; then the progress without them
            // (a kill in between imports them again, into the slots they already have).
            // A journal that could not write them keeps them in the progress too: they are
            // imported again at the next start (into the slots they have then, if any).
            if !state.0.journal.flush(Duration::from_secs(5)) && migrating {
                let mut st = state.store();
                st.progress.games = saved_copy;
                st.notices.push(Notice::warning(
                    "migration_pending",
                    "your earlier games could not be written to the games folder yet; they stay in the progress file and are moved at the next start",
                ));
            }
            state.commit(|_| {});
        }
        for kind in Kind::ALL {
            with_game!(kind, G => state.heal_current::<G>());
            with_game!(kind, G => state.settle_unrecorded::<G>());
            with_game!(kind, G => state.find_optimal_current::<G>());
        }
        state
    }

    /// The current slot of `G` names a slot the journal does not have (a kill after the
    /// store took the new pointer, before the journal took the new game): the kind's most
    /// recently played slot is current instead.
    fn heal_current<G: AppGame>(&self) {
        let key = self.current_key(G::KIND);
        let map = G::slots(&self.0.games).lock();
        if key.as_ref().is_some_and(|k| map.slots.contains_key(k)) {
            return;
        }
        let newest = map
            .slots
            .values()
            .map(|r| {
                let s = lock(r);
                (s.updated_ms, s.key.clone())
            })
            .max()
            .map(|(_, k)| k);
        drop(map);
        let mut st = self.store();
        match newest {
            Some(k) => st.progress.current.insert(G::KIND.as_str().into(), k),
            None => st.progress.current.remove(G::KIND.as_str()),
        };
    }

    /// Restore every slot the journal read, on up to four of the platform's tasks: replaying
    /// the saved sessions is most of the start-up's work, and each slot is independent (its
    /// own key in its kind's map). The slots that could not be restored, in the journal's order.
    fn restore_slots(&self, slots: Vec<SlotData>) -> Vec<(String, AppError)> {
        use crate::platform::Priority;
        use std::sync::atomic::AtomicUsize;
        use std::sync::mpsc;
        let tasks = self.0.platform.tasks.clone();
        let helpers = if tasks.threaded() {
            tasks
                .parallelism()
                .clamp(1, 4)
                .min(slots.len())
                .saturating_sub(1)
        } else {
            0
        };
        let slots = Arc::new(slots);
        let next = Arc::new(AtomicUsize::new(0));
        let restore = |state: &AppState, slots: &[SlotData], next: &AtomicUsize| {
            let mut failed = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(data) = slots.get(i) else {
                    return failed;
                };
                if let Err(e) = guard("resuming a game", || state.restore_slot(data)) {
                    failed.push((i, e));
                }
            }
        };
        let (tx, rx) = mpsc::channel();
        let mut started = 0;
        for _ in 0..helpers {
            let (state, slots, next, tx) = (self.clone(), slots.clone(), next.clone(), tx.clone());
            let job = Box::new(move || {
                // `restore` catches panics (guard), so a helper always sends its list.
                let _ = tx.send(restore(&state, &slots, &next));
            });
            if tasks
                .spawn("huarong-restore", Priority::Normal, job)
                .is_ok()
            {
                started += 1;
            }
        }
        drop(tx);
        let mut failed = restore(self, &slots, &next);
        for list in rx.iter().take(started) {
            failed.extend(list);
        }
        failed.sort_by_key(|(i, _)| *i);
        failed
            .into_iter()
            .map(|(i, e)| (slots[i].key.clone(), e))
            .collect()
    }

    pub(crate) fn restore_slot(&self, data: &SlotData) -> AppResult<()> {
        let kind = data.header["kind"]
            .as_str()
            .and_then(Kind::parse)
            .or_else(|| {
                let id = data.saved["id"].as_str()?;
                huarong_engine::GameId::parse(id).ok().map(|g| g.kind)
            })
            .ok_or_else(|| AppError::new(ErrorCode::CorruptSave, "the slot names no known game"))?;
        let mode = serde_json::from_value(data.header["mode"].clone())
            .ok()
            .or_else(|| crate::slots::mode_of_key(&data.key))
            .ok_or_else(|| AppError::new(ErrorCode::CorruptSave, "the slot key is not a slot"))?;
        with_game!(kind, G => {
            // A generated game replays its generator: bounded like opening it.
            let bounds = self.budget(&huarong_engine::Cancel::new(), crate::search::OPEN_TIME);
            let sess = self.bounded(crate::search_gate::Urgency::Foreground, bounds, || {
                restore_session::<G>(&data.saved)
            })?;
            // A speedsolving run's state rides in the header (checked against the session).
            let run = crate::runs::restore_run(&data.header["run"], sess.id())?;
            let updated = data.header["updated_ms"].as_u64().unwrap_or(0);
            self.see_stamp(updated);
            self.insert_slot(data.key.clone(), mode, sess);
            if let Some(r) = G::slots(&self.0.games).lock().slots.get(&data.key) {
                let mut slot = lock(r);
                slot.updated_ms = updated;
                slot.counted_win = data.header["counted_win"].as_bool().unwrap_or(false);
                slot.finish_date = data.header["finish_date"].as_str().map(str::to_string);
                slot.counted_before = data.header["counted_before"].as_bool().unwrap_or(false);
                slot.optimum_failed = data.header["optimum_failed"].as_str().map(str::to_string);
                slot.run = run;
                slot.from_editor = data.header["origin"] == "editor";
            }
        });
        Ok(())
    }

    /// A game of the schema-1 layout (one per kind in the progress) into its slot, unless
    /// the journal already has that slot (then it was imported before).
    fn import_saved<G: AppGame>(
        &self,
        key: Option<String>,
        value: &progress::SavedGame,
    ) -> AppResult<String> {
        let sess = restore_session::<G>(&value.value())?;
        let (key, mode) = match key.and_then(|k| crate::slots::mode_of_key(&k).map(|m| (k, m))) {
            Some(km) => km,
            None => self.route_id::<G>(&sess, false),
        };
        let exists = G::slots(&self.0.games).lock().slots.contains_key(&key);
        if !exists {
            // The earlier layout saved a finished game with its record: already settled.
            if sess.status() != huarong_engine::Status::Playing {
                let mark = format!("{}@{}", sess.id(), sess.played().len());
                self.store().progress.settled.insert(key.clone(), mark);
            }
            self.insert_slot(key.clone(), mode, sess);
            if let Some(r) = G::slots(&self.0.games).lock().slots.get(&key).cloned() {
                self.save_slot(&mut lock(&r), true);
            }
        }
        Ok(key)
    }

    /// Wait until everything handed to the saver is on disk (false on timeout or when
    /// progress cannot be saved).
    pub fn flush(&self, timeout: Duration) -> bool {
        let clock = &self.0.platform.clock;
        let deadline = clock.monotonic() + timeout;
        if !self.0.journal.flush(timeout) {
            return false;
        }
        let (gen, writer) = {
            let st = self.store();
            (st.gen, st.writer.clone())
        };
        match writer {
            Some(w) => w.wait_durable(gen, deadline.saturating_sub(clock.monotonic())),
            None => false,
        }
    }

    /// Single-threaded platforms: write what the journal and the progress saver have pending
    /// (the host calls this after each command). A no-op where threads write.
    pub fn step(&self) {
        while self.0.journal.step() {}
        let writer = self.store().writer.clone();
        if let Some(w) = writer {
            while w.step() {}
        }
    }

    /// Stop the saver after writing what is pending (app exit).
    pub fn shutdown(&self) {
        self.0.journal.shutdown();
        let w = self.store().writer.take();
        if let Some(w) = w {
            w.stop();
        }
        // Everything is written: the folder is free for the next app.
        self.store().lock = None;
    }
}
