//! Ghosts: a timed run played beside the player's game, from where the slot keeps it.
//!
//! - A game opened from a result code whose move log carries a time for every move keeps that
//!   log and those times with the slot's result to beat (`SlotChallenge::ghost`, source
//!   `friend`), so the ghost survives a restart and goes with the result when the slot gets
//!   another game.
//! - `race_best {kind, replace?}`: the current game's board again, in the same slot, with the
//!   player's own best kept replay with times as the result to beat and the ghost (source
//!   `best`): the fewest moves under the default rule, then the least time.
//! - `ghost {kind}`: `{source, name, moves, times_ms, views, counts, splits}` for the current game, or
//!   null. `views` are the board after 0, 1, … of the ghost's moves (the game's own view form,
//!   as `replay` gives them), `times_ms` one per move from the first (the sender's claim, never
//!   verified), `splits` the ghost's splits with their times. Searches (a generator, Klotski's
//!   split distances) run through the search gate under the analysis budget, stopped by
//!   `cancel {kind}` or a newer replay of the kind.

use crate::core::{lock, AppState};
use crate::error::{AppError, AppResult};
use crate::games::{with_game, AppGame};
use crate::progress::{SlotChallenge, SlotGhost};
use crate::views::View;
use huarong_engine::budget::{self, Budget};
use huarong_engine::code::{self, Times};
use huarong_engine::{Cancel, ErrorCode, GameId, Kind, Session};
use serde_json::{json, Value};

/// A friend's timed result code.
pub const FRIEND: &str = "friend";
/// The player's own best kept replay.
pub const BEST: &str = "best";

/// The ghost a decoded result code gives: its move log, when every move has a time.
pub(crate) fn of_code(d: &code::Decoded) -> Option<SlotGhost> {
    let log = d.log().filter(|l| !l.is_empty())?;
    let Some(Times::Moves(times)) = d.sent.as_ref().and_then(|s| s.times.as_ref()) else {
        return None;
    };
    if times.len() != log.len() {
        return None;
    }
    Some(SlotGhost {
        id: d.id.clone(),
        log: code::pack_log(&d.id, log).ok()?,
        source: FRIEND.into(),
        times: code::pack_times(times),
    })
}

fn cancelled() -> AppError {
    AppError::new(
        ErrorCode::Cancelled,
        "the ghost was cancelled or overtaken by a newer replay",
    )
}

/// The answer of `ghost` for `g` beside a game whose start is `start` (game ID `start_id`).
fn ghost_view<G: AppGame>(
    start_id: &str,
    start: &G,
    g: &SlotGhost,
    name: Option<&str>,
    cancel: &Cancel,
) -> AppResult<Value> {
    let moves = code::unpack_log(&g.id, &g.log)?;
    let times = code::unpack_times(&g.times)?;
    if times.len() != moves.len() {
        return Err(AppError::new(
            ErrorCode::BadCode,
            format!(
                "the ghost has {} moves and {} times",
                moves.len(),
                times.len()
            ),
        ));
    }
    // The log is packed against its own game ID (a friend's code names the board itself; a
    // daily's slot has the daily's ID): its start, made again only when the IDs differ.
    let own;
    let start = if g.id == start_id {
        start
    } else {
        let parsed = GameId::parse(&g.id)?;
        own = G::from_id(&parsed.body, parsed.seed).map_err(|e| match e.code {
            ErrorCode::Cancelled => cancelled(),
            _ => AppError::from(e),
        })?;
        &own
    };
    let mut cur = start.clone();
    let mut views = Vec::with_capacity(moves.len() + 1);
    views.push(cur.view(start));
    let mut counts = vec![cur.moves()];
    for (i, v) in moves.iter().enumerate() {
        if i % 256 == 0 && cancel.is_cancelled() {
            return Err(cancelled());
        }
        let m: G::Move = serde_json::from_value(v.clone())
            .map_err(|e| AppError::bad_argument(format!("move {} of the ghost: {e}", i + 1)))?;
        if !cur.accepts(&m) || cur.apply(&m).is_err() {
            return Err(AppError::new(
                ErrorCode::BadCode,
                format!("move {} of the ghost is not legal", i + 1),
            ));
        }
        views.push(cur.view(start));
        counts.push(cur.moves());
    }
    let timed = crate::times::line_times_of(start, &moves, Some(&Times::Moves(times)), cancel);
    if cancel.is_cancelled() {
        return Err(cancelled());
    }
    Ok(json!({
        "source": g.source,
        "name": name,
        "moves": moves,
        "times_ms": timed.times_ms,
        "views": views,
        "counts": counts,
        "splits": timed.splits,
    }))
}

impl AppState {
    /// `ghost {kind}`: the ghost of the kind's current game, or null.
    pub fn ghost(&self, kind: Kind) -> AppResult<Value> {
        with_game!(kind, G => self.ghost_g::<G>())
    }

    fn ghost_g<G: AppGame>(&self) -> AppResult<Value> {
        let slot = self.current::<G>()?;
        let (key, id, start) = {
            let s = lock(&slot);
            (
                s.key.clone(),
                s.session.id().to_string(),
                s.session.start().clone(),
            )
        };
        let kept = crate::challenge::full(&self.store().progress, &key, &id).cloned();
        let Some((g, name)) = kept.and_then(|c| c.ghost.map(|g| (g, c.name))) else {
            return Ok(Value::Null);
        };
        let cancel = Cancel::new();
        {
            let mut kinds = G::slots(&self.0.games).lock();
            kinds.replay.cancel();
            kinds.replay = cancel.clone();
        }
        let bounds = Budget::new(budget::MAX_BYTES, cancel.clone())
            .within(self.budget_clock(), crate::search::ANALYSIS_TIME);
        self.gated(&cancel, || {
            budget::scoped(bounds, || {
                crate::error::guard("the ghost", || {
                    ghost_view::<G>(&id, &start, &g, name.as_deref(), &cancel)
                })
            })
        })
    }

    /// The player's best kept replay with times of game `id`: the fewest moves under `rule`,
    /// then the least time, among won finishes still in the history.
    fn best_kept(&self, id: &str, rule: &str) -> Option<(SlotGhost, u32, u64)> {
        let st = self.store();
        let p = &st.progress;
        p.replays
            .kept
            .iter()
            .filter(|k| k.id == id && !k.times.is_empty())
            .filter_map(|k| {
                let stats = p.stats.get(&k.scope)?;
                let e = stats.history.iter().find(|e| e.at_ms == k.at_ms)?;
                let moves = *e.moves.get(rule)?;
                e.won.then_some((k, moves, e.ms))
            })
            .min_by_key(|(k, moves, ms)| (*moves, *ms, std::cmp::Reverse(k.at_ms)))
            .map(|(k, moves, ms)| {
                (
                    SlotGhost {
                        id: k.id.clone(),
                        log: k.log.clone(),
                        source: BEST.into(),
                        times: k.times.clone(),
                    },
                    moves,
                    ms,
                )
            })
    }

    /// `race_best {kind, replace?}`: the current game's board again in its slot, against the
    /// player's own best kept replay with times (the result to beat and the ghost).
    pub fn race_best(&self, kind: Kind, replace: bool) -> AppResult<View> {
        with_game!(kind, G => self.race_best_g::<G>(replace))
    }

    fn race_best_g<G: AppGame>(&self, replace: bool) -> AppResult<View> {
        let slot = self.current::<G>()?;
        let (key, mode, id, body) = {
            let s = lock(&slot);
            (
                s.key.clone(),
                s.mode,
                s.session.id().to_string(),
                s.session.start().board_body(),
            )
        };
        let rule = huarong_engine::registry::rules(G::KIND)
            .first()
            .copied()
            .unwrap_or("moves");
        let (ghost, moves, ms) = self.best_kept(&id, rule).ok_or_else(|| {
            AppError::new(
                ErrorCode::Unsupported,
                "no won game of this board with its move times is kept: there is no best to race",
            )
        })?;
        // The start is the slot's own (no generator runs again); a 2048 game's spawns follow
        // from its seed, which its ID keeps.
        let made = (G::KIND != Kind::G2048).then_some(body);
        let sess = crate::error::guard("opening the game", || {
            match made {
                None => Session::<G>::open(&id),
                Some(body) => G::from_id(&body, None).map(|g| Session::with_game(id.clone(), g)),
            }
            .map_err(AppError::from)
        })?;
        let placed = self.place(key.clone(), mode, sess, replace, false, None)?;
        self.set_challenge(
            &key,
            Some(SlotChallenge {
                assisted: false,
                daily: None,
                ghost: Some(ghost),
                id,
                moves,
                ms,
                name: None,
                outcome: None,
                replay: true,
                verified: true,
            }),
        );
        let slot = G::slots(&self.0.games).lock().slots.get(&key).cloned();
        Ok(match slot {
            Some(s) => self.view(&lock(&s), placed.effect, placed.finish),
            None => placed,
        })
    }
}
