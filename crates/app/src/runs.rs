//! Speedsolving runs of the number slide: `new_game {kind: "slide", params,
//! mode}` with `marathon:<count>` or `relay:<N>`. The rules (modes, the puzzles of a run,
//! scopes, tiles per second) are the engine's (`huarong_engine::slide::run`); here a run
//! lives in one slot: the slot's session is the solve being played, the slot's `run` holds
//! the mode, the seed and the finished solves' splits, and both go to the journal with every
//! change (the run in the header), so a run in progress survives a kill like any game.
//!
//! A solve won in a run puts its split in the run and, unless it was the last, the next
//! solve into the slot at once with its clock running (one timer for the run: the time
//! between two solves counts). The last solve finishes the run: one finish of the run's
//! scope (`slide:4x4/marathon:10`, `slide/relay:5`) with the run's total time and moves and
//! every split.

use crate::core::AppState;
use crate::error::{guard, AppError, AppResult};
use crate::games::{AppGame, Mode};
use crate::progress::{moves_under, rules_of};
use crate::slots::Slot;
use crate::views::Marks;
use crate::views::{RunView, SplitView, View};
use huarong_engine::slide::run::{self, Run, RunMode, SavedRun, Split};
use huarong_engine::{Kind, Session};
use serde_json::Value;

/// The run saved in a journal header (`null`: none), checked against the slot's session:
/// the session must be the run's current solve (or its last one, once done).
pub(crate) fn restore_run(v: &Value, session_id: &str) -> AppResult<Option<Run>> {
    if v.is_null() {
        return Ok(None);
    }
    let corrupt = |why: String| AppError::new(huarong_engine::ErrorCode::CorruptSave, why);
    let saved: SavedRun =
        serde_json::from_value(v.clone()).map_err(|e| corrupt(format!("a saved run: {e}")))?;
    let run = Run::restore(&saved).map_err(AppError::from)?;
    let expected = run
        .current_id()
        .or_else(|| run.splits().last().map(|s| s.id.clone()));
    if expected.as_deref() != Some(session_id) {
        return Err(corrupt(format!(
            "the saved run plays {expected:?}, but its slot holds {session_id}"
        )));
    }
    Ok(Some(run))
}

/// The record scope of a slot: its run's, or its game's.
pub(crate) fn scope_of<G: AppGame>(slot: &Slot<G>) -> String {
    match &slot.run {
        Some(r) => r.mode().scope(),
        None => crate::records::scope_of(&slot.session),
    }
}

/// The split of `slot`'s session as it stands (its solve just won).
fn split_of<G: AppGame>(slot: &Slot<G>, now: u64) -> Split {
    let sess = &slot.session;
    let g = sess.current();
    let counters = g.counters();
    let marks = Marks::of_session(sess);
    Split {
        id: sess.id().to_string(),
        ms: sess.elapsed_ms(now),
        moves: rules_of(G::KIND.as_str())
            .iter()
            .map(|r| (r.to_string(), moves_under(&counters, r, g.moves())))
            .collect(),
        undo_used: marks.undo_used,
        hints_used: marks.hints_used,
        auto_solved: marks.auto_solved,
    }
}

/// A solve of `slot`'s run was just won (call with the slot locked, its run not done):
/// its split goes into the run; unless it was the last, the next solve takes the slot
/// with its clock running. Returns whether the run goes on (the caller then saves the slot
/// whole; otherwise the run's finish is settled like any game's).
pub(crate) fn solved<G: AppGame>(slot: &mut Slot<G>, now: u64) -> AppResult<bool> {
    let split = split_of(slot, now);
    let Some(run) = slot.run.as_mut() else {
        return Ok(false);
    };
    run.add(split).map_err(AppError::from)?;
    let Some(next) = run.current_id() else {
        return Ok(false);
    };
    let mut sess = guard("opening the run's next solve", || {
        Session::<G>::open(&next).map_err(AppError::from)
    })?;
    // A speedsolve is played forward: no undo in a run.
    sess.set_undo_allowed(false);
    sess.start_clock(now);
    slot.set_session(sess);
    Ok(true)
}

/// What the page shows of a run: solve i of N, the splits, the run's time so far.
pub(crate) fn view<G: AppGame>(slot: &Slot<G>, now: u64, rule: &str) -> Option<RunView> {
    let run = slot.run.as_ref()?;
    let mode = run.mode();
    let size = |i: u32| {
        let (w, h) = mode.size_of(i);
        format!("{w}x{h}")
    };
    let splits: Vec<SplitView> = run
        .splits()
        .iter()
        .enumerate()
        .map(|(i, s)| SplitView {
            size: size(i as u32),
            ms: s.ms,
            moves: s.moves.get(rule).copied().unwrap_or(0),
            tps: run::tps(s.moves.get("tile").copied().unwrap_or(0), s.ms),
        })
        .collect();
    let done = run.done();
    let live = if done {
        0
    } else {
        slot.session.elapsed_ms(now)
    };
    let solve = (run.splits().len() as u32 + u32::from(!done)).min(run.solves());
    Some(RunView {
        mode: mode.text(),
        params: mode.params(),
        scope: mode.scope(),
        seed: run.seed(),
        solve,
        of: run.solves(),
        size: size(solve.saturating_sub(1)),
        splits,
        elapsed_ms: run.splits_ms() + live,
        done,
    })
}

impl AppState {
    /// `new_game` with a `mode`: a new speedsolving run of the number slide in the mode's
    /// slot (keyed by its scope: `slide:4x4/marathon:10`, `slide/relay:5`), its first solve
    /// ready. A run in progress there is replaced only with `replace`.
    pub(crate) fn new_run(
        &self,
        kind: Kind,
        params: &str,
        mode: &str,
        seed: u64,
        replace: bool,
    ) -> AppResult<View> {
        if kind != Kind::Slide {
            return Err(AppError::bad_argument(format!(
                "`mode` {:?} is for the number slide; {} has no speedsolving modes",
                mode.chars().take(40).collect::<String>(),
                kind.as_str()
            )));
        }
        let parsed = RunMode::parse(mode, params)
            .map_err(|e| AppError::bad_argument(format!("`mode`: {}", e.message)))?;
        let run = Run::new(parsed, seed);
        let first = run
            .current_id()
            .ok_or_else(|| AppError::internal("a new run has no solve"))?;
        type G = huarong_engine::slide::Slide;
        let mut sess = guard("opening the run's first solve", || {
            Session::<G>::open(&first).map_err(AppError::from)
        })?;
        // A speedsolve is played forward: no undo in a run.
        sess.set_undo_allowed(false);
        // The slot is keyed by the scope (`slide:4x4/marathon:10`); a relay's scope has no
        // size, so its key names the kind first like every key: `slide:relay:5`.
        let key = match parsed {
            RunMode::Marathon { .. } => parsed.scope(),
            RunMode::Relay { .. } => format!("slide:{}", parsed.text()),
        };
        let view = self.place::<G>(key.clone(), Mode::Free, sess, replace, false, Some(run))?;
        // A new run has no result to beat.
        self.set_challenge(&key, None);
        let mut view = view;
        view.snapshot.challenge = None;
        Ok(view)
    }
}
