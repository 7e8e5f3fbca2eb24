//! Challenge to beat (issue 16): a share code may carry the sender's result; the game opened
//! from it keeps that result in its slot (`Progress::challenges`, keyed by slot key and
//! checked against the slot's game ID, so it survives restarts and never sticks to another
//! game put into the same slot). Every `View` of that slot carries `challenge` (and the same
//! in `snapshot.challenge`) `= {moves, ms, name, daily?, replay, verified}` — `name` null
//! when the sender gave none, `daily` only for a daily's result, `replay`/`verified` true
//! when the code carried the move log, which decoding replayed (issue 25); its finish
//! carries `challenge: {moves, ms, beaten}`.
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
    full(p, key, id).map(|c| Challenge {
        moves: c.moves,
        ms: c.ms,
    })
}

/// The whole kept result (with the sender) of slot `key` if it is for the game `id`.
pub fn full<'a>(p: &'a Progress, key: &str, id: &str) -> Option<&'a SlotChallenge> {
    p.challenges.get(key).filter(|c| c.id == id)
}

/// The `challenge` value of a View.
pub fn view(c: Option<&SlotChallenge>) -> Option<Value> {
    c.map(|c| {
        let mut v = json!({
            "moves": c.moves,
            "ms": c.ms,
            "name": c.name,
            "replay": c.replay,
            "verified": c.verified,
        });
        if let Some(d) = c.daily {
            v["daily"] = json!(d);
        }
        v
    })
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

/// Set (or with `None` clear) the challenge of slot `key` (`c.id` is its game); keeps the
/// map bounded, dropping entries of slots that no longer exist (`live`) first.
pub fn set(p: &mut Progress, key: &str, c: Option<SlotChallenge>, live: &[String]) {
    match c {
        Some(c) => {
            p.challenges.insert(key.to_string(), c);
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
