//! Moves on a kind's current slot: play, undo, redo, restart, snapshot, pause, Klotski drag
//! targets; and the one way a slot becomes a `View`.

use crate::args;
use crate::core::{lock, AppState};
use crate::error::{guard, AppError, AppResult};
use crate::games::{with_game, AppGame};
use crate::slots::Slot;
use crate::views::{Finish, GameSnapshot, View};
use huarong_engine::klotski::Klotski;
use huarong_engine::{Kind, Session, Status};
use serde_json::Value;

/// The one way a slot becomes a `View`: its snapshot at `now` with the moves counted under the
/// player's rule, the result to beat the progress keeps for it, and its run. Pure: the app state
/// ([`AppState::view`]) and the web page's first core (`first.rs`) both build views with it.
pub(crate) fn view_of<G: AppGame>(
    slot: &Slot<G>,
    p: &crate::progress::Progress,
    now: u64,
    effect: Option<Value>,
    finish: Option<Finish>,
) -> View {
    let rule = p.settings.rule(G::KIND.as_str()).to_string();
    let challenge = crate::challenge::view(crate::challenge::full(p, &slot.key, slot.session.id()));
    let mut base = slot.session.snapshot(now);
    base.moves = crate::progress::moves_under(&base.counters, &rule, base.moves);
    let run = crate::runs::view(slot, now, &rule);
    if let Some(r) = &run {
        // One timer for a run: the clock shows the run's time.
        base.elapsed_ms = r.elapsed_ms;
    }
    View {
        snapshot: GameSnapshot {
            base,
            slot: slot.key.clone(),
            mode: slot.mode,
            challenge: challenge.clone(),
            run,
        },
        effect,
        finish,
        rule,
        challenge,
    }
}

impl AppState {
    pub(crate) fn view<G: AppGame>(
        &self,
        slot: &Slot<G>,
        effect: Option<Value>,
        finish: Option<Finish>,
    ) -> View {
        let now = self.now();
        view_of(slot, &self.store().progress, now, effect, finish)
    }

    pub(crate) fn rule(&self, kind: Kind) -> String {
        self.store()
            .progress
            .settings
            .rule(kind.as_str())
            .to_string()
    }

    pub fn play(&self, kind: Kind, mv: Value) -> AppResult<View> {
        with_game!(kind, G => self.play_g::<G>(mv))
    }

    fn play_g<G: AppGame>(&self, mv: Value) -> AppResult<View> {
        let m: G::Move = args::mv(G::KIND, Some(mv))?;
        let now = self.now();
        let slot_ref = self.current::<G>()?;
        let mut slot = lock(&slot_ref);
        let before = slot.session.status();
        let first = slot.session.played().is_empty()
            && !slot.session.can_redo()
            && !slot.session.undo_used();
        let effect = guard("the move", || {
            slot.session.play(&m, now).map_err(AppError::from)
        })?;
        let after = slot.session.status();
        slot.touch(self.stamp());
        let effect = serde_json::to_value(effect).ok();
        let mut finish = None;
        // The first move of a run is its one play (the first move of its first solve).
        let first = first && slot.run.as_ref().is_none_or(|r| r.splits().is_empty());
        let in_run = slot.run.as_ref().is_some_and(|r| !r.done());
        if after == Status::Won && after != before && in_run {
            // A solve of a speedsolving run: its split, and the next solve at once (runs.rs).
            let scope = crate::runs::scope_of(&slot);
            if crate::runs::solved(&mut slot, now)? {
                self.save_slot(&mut slot, true);
                if first {
                    self.commit(|p| crate::records::add_play(p, &scope));
                }
                return Ok(self.view(&slot, effect, None));
            }
        }
        if after != before && after != Status::Playing {
            finish = self.finished_now(&mut slot, first);
        } else if first {
            // A game of the scope begins: one play (records.rs).
            self.save_slot(&mut slot, false);
            let scope = crate::runs::scope_of(&slot);
            self.commit(|p| crate::records::add_play(p, &scope));
        } else {
            self.save_slot(&mut slot, false);
        }
        let pending = finish.as_ref().is_some_and(|f| f.pending);
        let view = self.view(&slot, effect, finish);
        drop(slot);
        if pending {
            // The verdict waits for the start's optimum: make sure its search runs (natively
            // a thread; the web's shell asks `offload_optimum` after every move).
            self.find_optimal::<G>(&slot_ref);
        }
        Ok(view)
    }

    /// `slot`'s game has just finished: the whole game to the journal, then its record to the
    /// progress; its finish view (kept in the slot). `first`: this was the game's first move.
    fn finished_now<G: AppGame>(&self, slot: &mut Slot<G>, first: bool) -> Option<Finish> {
        let after = slot.session.status();
        let now = self.now();
        let today = self.today();
        let wall = self.wall_ms();
        let counted_before = slot.counted_win;
        slot.counted_win |= after == Status::Won && !slot.session.auto_solved();
        // Kept with the finished game: a record settled at the next start (a kill
        // before the record) uses this finish's date and win count, not the start's.
        slot.finish_date = Some(today.clone());
        slot.counted_before = counted_before;
        self.save_slot(slot, true);
        // The record only once the finished game is durable: the saver writes this doc
        // after the journal has the game (`commit_after`; the move never waits for the
        // disk). A kill before the record is healed at the next start (`settled`).
        let mark = self.0.journal.handed();
        let marker = crate::finish::marker(slot);
        let key = slot.key.clone();
        let scope = crate::runs::scope_of(slot);
        let coming = self.optimum_coming();
        let mut finish = None;
        self.commit_after(mark, |p| {
            if first {
                crate::records::add_play(p, &scope);
            }
            finish = crate::finish::settle(slot, counted_before, p, now, &today, wall, coming);
            p.settled.insert(key, marker);
        });
        slot.finish = finish.clone();
        finish
    }

    pub fn undo(&self, kind: Kind) -> AppResult<View> {
        with_game!(kind, G => self.change::<G>(|s, now| s.undo(now).map_err(AppError::from)))
    }

    /// A redo that finishes the game finishes it like a move, as an assisted win (the
    /// session says the position was reached by redo).
    pub fn redo(&self, kind: Kind) -> AppResult<View> {
        with_game!(kind, G => self.redo_g::<G>())
    }

    fn redo_g<G: AppGame>(&self) -> AppResult<View> {
        let now = self.now();
        let slot_ref = self.current::<G>()?;
        let mut slot = lock(&slot_ref);
        let before = slot.session.status();
        guard("the command", || {
            slot.session.redo(now).map_err(AppError::from)
        })?;
        slot.touch(self.stamp());
        let after = slot.session.status();
        let in_run = slot.run.as_ref().is_some_and(|r| !r.done());
        let finish = if after != before && after != Status::Playing && !in_run {
            self.finished_now(&mut slot, false)
        } else {
            self.save_slot(&mut slot, false);
            None
        };
        Ok(self.view(&slot, None, finish))
    }

    /// Whether the game in slot `key` was opened from the Klotski editor (`open_game`'s
    /// `origin`); kept in the journal header.
    pub(crate) fn set_from_editor(&self, kind: Kind, key: &str, from_editor: bool) {
        with_game!(kind, G => {
            let slot_ref = G::slots(&self.0.games).lock().slots.get(key).cloned();
            if let Some(r) = slot_ref {
                let mut slot = lock(&r);
                if slot.from_editor != from_editor {
                    slot.from_editor = from_editor;
                    self.save_slot(&mut slot, false);
                }
            }
        })
    }

    pub fn restart(&self, kind: Kind) -> AppResult<View> {
        with_game!(kind, G => self.change::<G>(|s, now| {
            s.restart(now);
            Ok(())
        }))
    }

    fn change<G: AppGame>(
        &self,
        f: impl FnOnce(&mut Session<G>, u64) -> AppResult<()>,
    ) -> AppResult<View> {
        let now = self.now();
        let slot_ref = self.current::<G>()?;
        let mut slot = lock(&slot_ref);
        guard("the command", || f(&mut slot.session, now))?;
        slot.touch(self.stamp());
        self.save_slot(&mut slot, false);
        Ok(self.view(&slot, None, None))
    }

    pub fn snapshot(&self, kind: Kind) -> AppResult<View> {
        with_game!(kind, G => {
            let slot_ref = self.current::<G>()?;
            let slot = lock(&slot_ref);
            Ok(self.view(&slot, None, None))
        })
    }

    /// Stop the clock of `kind`'s current game (or of every game): the app went to the
    /// background or the player left the game screen. The next move starts it again.
    /// Nobody looks at the game either: its searches stop or park (`search.rs`, `hide`).
    pub fn pause(&self, kind: Option<Kind>) {
        for k in Kind::ALL {
            if kind.is_none_or(|want| want == k) {
                with_game!(k, G => self.pause_g::<G>());
            }
        }
        self.hide(kind);
    }

    pub(crate) fn pause_g<G: AppGame>(&self) {
        let now = self.now();
        let Ok(slot_ref) = self.current::<G>() else {
            return;
        };
        let mut slot = lock(&slot_ref);
        slot.session.pause(now);
        self.save_slot(&mut slot, false);
    }

    /// Where a Klotski piece can go in one move (with the path to each place).
    pub fn klotski_targets(&self, piece: char) -> AppResult<Value> {
        let slot_ref = self.current::<Klotski>()?;
        let slot = lock(&slot_ref);
        let targets = guard("the drag targets", || {
            slot.session
                .current()
                .targets(piece)
                .map_err(AppError::from)
        })?;
        serde_json::to_value(targets).map_err(|e| AppError::internal(e.to_string()))
    }
}
