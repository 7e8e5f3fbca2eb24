//! `analysis {kind}`: the optimal distance to the goal after each counted move of
//! the current game of `kind`, from its move log (the engine's `huarong_engine::analysis`),
//! under the player's counting rule. Any time, finished or not.
//!
//! It runs like a hint: on a worker thread (the command uses `blocking`), on a clone of the
//! session, as the kind's one search (`begin_search`), so `cancel`, a newer hint/solve/
//! analysis, a move or any other change of the slot cancels it (`cancelled`). A result whose
//! slot changed meanwhile is not returned (`cancelled`: ask again for the new position).
//!
//! The engine computes the start's optimum itself (its API takes no known optimum; for the
//! exact-table sizes and Klotski it is part of the same table/search, and for 4×4-class
//! boards it is one IDA* run besides the per-position ones).
//!
//! Supported: number slide up to 3×3 (and 2×5, 5×2) under both rules; 4×4, 3×4, 4×3, 3×5,
//! 5×3, 2×6, 6×2 under `tile`; every Klotski board the solver takes, every rule. Anything
//! else (10×10, 2048, …) is `unsupported`, and so is a run past its memory bound (64 MiB,
//! counted by the engine before each growth) or its time budget (`search::ANALYSIS_TIME`).

use crate::core::{lock, AppState};
use crate::error::{guard, AppError, AppResult};
use crate::games::{with_game, AppGame};
use huarong_engine::analysis::{self as engine, Analysis};
use huarong_engine::{ErrorCode, Kind};
use serde_json::{json, Value};

impl AppState {
    pub fn analysis(&self, kind: Kind) -> AppResult<Value> {
        // As `hint`: a search job in the board wasm.
        if !cfg!(feature = "search") {
            return Err(AppError::not_in_build("the analysis command"));
        }
        let rule = self.rule(kind);
        let found = with_game!(kind, G => {
            if !G::ANALYSED {
                return Err(AppError::new(
                    ErrorCode::Unsupported,
                    format!("{} has no optimal distance to analyse", kind.as_str()),
                ));
            }
            let r = self.analyse::<G>(&rule, |sess, cancel| G::analyse(sess, &rule, cancel));
            self.end_search::<G>();
            let tps = self.current::<G>().ok().and_then(|s| self.tps_now(&lock(&s)));
            r.map(|a| (a, tps))
        })?;
        let (found, tps) = found;
        let worst = found.worst_window().map(|w| worst_view(&found, w));
        Ok(json!({
            "kind": kind,
            "rule": rule,
            "optimal_start": found.optimal_start,
            "distances": found.distances,
            "lost": found.lost,
            "worst": worst,
            "tps": tps,
        }))
    }

    /// Tile moves per second of `slot`'s game so far (its own clock), for games counted in
    /// tile moves (the number slide); else `None`.
    pub(crate) fn tps_now<G: AppGame>(&self, slot: &crate::slots::Slot<G>) -> Option<f64> {
        let counters = slot.session.current().counters();
        let tile = counters.get("tile")?.as_u64()?;
        huarong_engine::slide::run::tps(
            u32::try_from(tile).ok()?,
            slot.session.elapsed_ms(self.now()),
        )
    }

    fn analyse<G: AppGame>(
        &self,
        rule: &str,
        f: impl FnOnce(
            &huarong_engine::Session<G>,
            &huarong_engine::Cancel,
        ) -> Result<Analysis, huarong_engine::Error>,
    ) -> AppResult<Analysis> {
        let (slot_ref, sess, cancel, version) = self.begin_search::<G>()?;
        // Bounded: the engine's 64 MiB and `ANALYSIS_TIME`; past either the
        // analysis is `unsupported`, a cancelled one `cancelled`.
        let bounds = self.budget(&cancel, crate::search::ANALYSIS_TIME);
        let found = self.bounded(crate::search_gate::Urgency::Foreground, bounds, || {
            guard("the analysis", || f(&sess, &cancel).map_err(AppError::from))
        })?;
        let mut slot = lock(&slot_ref);
        if cancel.is_cancelled() || slot.version != version {
            return Err(AppError::new(
                ErrorCode::Cancelled,
                "the analysis was cancelled, overtaken by a newer request, or the game changed",
            ));
        }
        self.analysed_optimum(&mut slot, rule, found.optimal_start);
        Ok(found)
    }

    /// An analysis under `rule` found the start's optimum `n` under that rule: if the finish
    /// does not know it yet, it does now (one optimum for the finish, its stars and the
    /// analysis). Under the game's default rule it is the slot's optimum (stars, records);
    /// under another rule only the finish's `optimal` and `perfect` (that rule earns no
    /// stars). Slot locked.
    pub(crate) fn analysed_optimum<G: AppGame>(
        &self,
        slot: &mut crate::slots::Slot<G>,
        rule: &str,
        n: u32,
    ) {
        let default = huarong_engine::registry::rules(G::KIND).first().copied();
        if default == Some(rule) {
            if slot.optimal.is_none() {
                self.optimum_known(slot, n);
            }
            return;
        }
        let Some(f) = slot.finish.as_mut() else {
            return;
        };
        if f.rule == rule && f.optimal.is_none() {
            f.optimal = Some(n);
            f.perfect = Some(crate::views::perfect_of(
                n,
                f.moves,
                f.hints_used,
                f.assisted,
            ));
            self.finish_ready(G::KIND);
        }
    }
}

/// The `worst` value: the engine's stretch of moves `from..=to` where lost moves outnumber the
/// others the most, with `lost` = the moves that stretch cost: the moves made in it minus the
/// distance they gained (`len - (d[from-1] - d[to])`). A move away from the goal costs two —
/// itself and the move that takes it back — so under `tile` the losses of all stretches add
/// up to `moves - optimal_start`, the number the finish shows beside the optimum.
pub(crate) fn worst_view(a: &Analysis, w: engine::Window) -> Value {
    let at = |k: u32| -> i64 {
        if k == 0 {
            i64::from(a.optimal_start)
        } else {
            a.distances.get(k as usize - 1).map_or(0, |&d| i64::from(d))
        }
    };
    let len = i64::from(w.to) - i64::from(w.from) + 1;
    let gained = at(w.from - 1) - at(w.to);
    let cost = (len - gained).max(i64::from(w.lost));
    json!({ "from": w.from, "to": w.to, "lost": cost, "lost_moves": w.lost })
}
