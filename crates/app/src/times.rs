//! Move times and splits, app side: the times of a game's line from its session, the splits
//! of a finish, and what a result code's or a kept replay's times say (`times_ms`, `splits`).
//!
//! - A session keeps each move's time on its elapsed clock (the engine's `Session`); a line
//!   is the moves after the last restart, its times those moves' times. A line with a move
//!   of unknown time (restored from a save before times were kept) has no times.
//! - `times_ms` in answers is one time per move of the line, in ms from its first move (the
//!   first is 0). Times are the player's or the sender's claim: never called verified.
//! - Splits (`huarong_engine::splits`): `[{name, moves, ms}]`, `ms` from the line's first
//!   move (null when the line has no times). A finish's splits use the session's clock.

use crate::games::AppGame;
use huarong_engine::code::Times;
use huarong_engine::session::Entry;
use huarong_engine::splits::{self, Split};
use huarong_engine::{Cancel, Game, Session};

/// The times of the line [`line_of`] gives (the moves after the last
/// restart), on the session's clock; `None` when one is unknown.
pub(crate) fn line_times<G: AppGame>(sess: &Session<G>) -> Option<Vec<u64>> {
    let played = sess.played();
    let times = sess.played_times();
    let from = line_start(played);
    played[from..]
        .iter()
        .zip(&times[from..])
        .filter(|(e, _)| matches!(e, Entry::Move(_)))
        .map(|(_, t)| *t)
        .collect()
}

/// Times rebased to their first (the first is 0).
pub(crate) fn from_first(times: &[u64]) -> Vec<u64> {
    let first = times.first().copied().unwrap_or(0);
    times.iter().map(|t| t.saturating_sub(first)).collect()
}

/// The splits of a session's line, times on the session's clock (a finish's `time_ms`'s).
pub(crate) fn session_splits<G: AppGame>(sess: &Session<G>) -> Vec<Split> {
    let line = line_of(sess);
    let times = line_times(sess);
    splits::splits(
        sess.start(),
        &line,
        times.as_deref().filter(|t| t.len() == line.len()),
        &Cancel::new(),
    )
}

/// What a line's times say, as `decode_code` and `replay` answer them: `times_ms` (one per
/// move from the first, or none), which times were kept (`"moves"`, `"splits"`, none), and
/// the splits of the line with their times (a code with split times only: those, in order).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct LineTimes {
    pub times_ms: Option<Vec<u64>>,
    pub times: Option<&'static str>,
    pub splits: Vec<Split>,
}

/// [`LineTimes`] of `moves` (JSON) from `start` with `times`.
pub(crate) fn line_times_of<G: AppGame>(
    start: &G,
    moves: &[serde_json::Value],
    times: Option<&Times>,
    cancel: &Cancel,
) -> LineTimes {
    let Ok(line) = moves
        .iter()
        .map(|v| serde_json::from_value::<G::Move>(v.clone()))
        .collect::<Result<Vec<_>, _>>()
    else {
        return LineTimes::default();
    };
    let per_move = match times {
        Some(Times::Moves(t)) if t.len() == line.len() => Some(t.clone()),
        _ => None,
    };
    let mut s = splits::splits(start, &line, per_move.as_deref(), cancel);
    if let Some(Times::Splits(t)) = times {
        for (split, ms) in s.iter_mut().zip(t) {
            split.ms = Some(*ms);
        }
    }
    LineTimes {
        times: match times {
            Some(Times::Moves(_)) if per_move.is_some() => Some("moves"),
            Some(Times::Splits(_)) => Some("splits"),
            _ => None,
        },
        times_ms: per_move,
        splits: s,
    }
}

impl crate::core::AppState {
    /// `splits {kind}`: the current game's splits so far. `{kind, splits, live, times_ms}`:
    /// `splits` counted from when each line was done for good (as the finish counts them),
    /// `live` from when each was first reached (the moment a chip shows during play),
    /// `times_ms` the line's move times; every `ms` on the game's clock.
    pub fn splits(&self, kind: huarong_engine::Kind) -> crate::error::AppResult<serde_json::Value> {
        crate::games::with_game!(kind, G => {
            let slot = self.current::<G>()?;
            let sess = crate::core::lock(&slot).session.clone();
            let line = line_of(&sess);
            let times = line_times(&sess).filter(|t| t.len() == line.len());
            let cancel = Cancel::new();
            let done = splits::splits(sess.start(), &line, times.as_deref(), &cancel);
            let live = splits::first_splits(sess.start(), &line, times.as_deref(), &cancel);
            Ok(serde_json::json!({
                "kind": kind,
                "splits": done,
                "live": live,
                "times_ms": times,
            }))
        })
    }
}

impl crate::core::AppState {
    /// The kept move times of the history entries of `scope` (oldest first): one time per
    /// move from the first (0), `None` where the finish has no kept replay or no times.
    pub fn history_times(&self, scope: &str) -> Vec<Option<Vec<u64>>> {
        let st = self.store();
        let p = &st.progress;
        p.stats.get(scope).map_or_else(Vec::new, |s| {
            s.history
                .iter()
                .map(|e| {
                    p.replays
                        .find(scope, e.at_ms)
                        .filter(|k| !k.times.is_empty())
                        .and_then(|k| huarong_engine::code::unpack_times(&k.times).ok())
                })
                .collect()
        })
    }
}

impl crate::core::AppState {
    /// The splits kept with the record of `scope` under `rule` (those of the game that set
    /// its best time); empty when none.
    pub fn best_splits(&self, scope: &str, rule: &str) -> Vec<Split> {
        let st = self.store();
        st.progress
            .records
            .get(&format!("{scope}/{rule}"))
            .map_or_else(Vec::new, |r| r.best_splits.clone())
    }
}

/// Where a log's line starts: after its last restart.
fn line_start<M>(played: &[Entry<M>]) -> usize {
    played
        .iter()
        .rposition(|e| matches!(e, Entry::Restart))
        .map_or(0, |i| i + 1)
}

/// The moves of a session's line from its start (after its last restart).
pub(crate) fn line_of<G: Game>(sess: &Session<G>) -> Vec<G::Move> {
    let played = sess.played();
    played[line_start(played)..]
        .iter()
        .filter_map(|e| match e {
            Entry::Move(m) => Some(m.clone()),
            Entry::Restart => None,
        })
        .collect()
}
