//! Challenge to beat (issue 16): a share code may carry the sender's result; the game opened
//! from it keeps that result in its slot (`Progress::challenges`, keyed by slot key and
//! checked against the slot's game ID, so it survives restarts and never sticks to another
//! game put into the same slot). Every `View` of that slot carries `snapshot.challenge =
//! {moves, ms}`; its finish carries `challenge: {moves, ms, beaten}`.
//!
//! `beaten` compares the finish under the game's *default* counting rule (tile moves, piece
//! moves: what the sender's card and code carry) and its time: fewer moves, or as many in
//! less time (`Challenge::beaten_by`). A game that was lost, auto-solved, or used undo or
//! hints still gets the comparison; `counted`/`undo_used`/`hints_used` beside it say so.

use crate::progress::Progress;
use huarong_engine::code::Challenge;

use serde_json::{json, Value};

pub use crate::progress::{SlotChallenge, MAX_CHALLENGES};

/// The challenge of slot `key` if it is for the game `id`.
pub fn of(p: &Progress, key: &str, id: &str) -> Option<Challenge> {
    p.challenges
        .get(key)
        .filter(|c| c.id == id)
        .map(|c| Challenge {
            moves: c.moves,
            ms: c.ms,
        })
}

/// The `snapshot.challenge` value.
pub fn view(c: Option<Challenge>) -> Option<Value> {
    c.map(|c| json!({ "moves": c.moves, "ms": c.ms }))
}

/// The finish's `challenge` value: the target and whether `moves` (default rule) in `ms`
/// beat it (a game not won never does).
pub fn finish(c: Option<Challenge>, won: bool, moves: u32, ms: u64) -> Option<Value> {
    c.map(|c| {
        json!({
            "moves": c.moves,
            "ms": c.ms,
            "beaten": won && c.beaten_by(moves, ms),
        })
    })
}

/// Set (or with `None` clear) the challenge of slot `key`; keeps the map bounded, dropping
/// entries of slots that no longer exist (`live`) first.
pub fn set(p: &mut Progress, key: &str, id: &str, c: Option<Challenge>, live: &[String]) {
    match c {
        Some(c) => {
            p.challenges.insert(
                key.to_string(),
                SlotChallenge {
                    id: id.to_string(),
                    moves: c.moves,
                    ms: c.ms,
                },
            );
        }
        None => {
            p.challenges.remove(key);
        }
    }
    if p.challenges.len() > MAX_CHALLENGES {
        p.challenges
            .retain(|k, _| k == key || live.iter().any(|l| l == k));
    }
    while p.challenges.len() > MAX_CHALLENGES {
        let Some(victim) = p.challenges.keys().find(|k| *k != key).cloned() else {
            break;
        };
        p.challenges.remove(&victim);
    }
}
