//! Challenge to beat: a share code may carry the sender's result; the game opened
//! from it keeps that result in its slot (`Progress::challenges`, keyed by slot key and
//! checked against the slot's game ID, so it survives restarts and never sticks to another
//! game put into the same slot). Every `View` of that slot carries `challenge` (and the same
//! in `snapshot.challenge`) `= {moves, ms, name, daily?, replay, verified}` — `name` null
//! when the sender gave none, `daily` only for a daily's result, `replay`/`verified` true
//! when the code carried the move log, which decoding replayed; its finish
//! carries `challenge: {moves, ms, name, beaten, outcome, diff_ms, score?}`.
//!
//! `outcome` ([`compare`]) is `beaten`, `tied` or `lost`, and `beaten == (outcome ==
//! "beaten")`. Number slide and Klotski: the moves under the game's *default* counting rule
//! (what the sender's card and code carry) first, then the time at the precision shown
//! (tenths of a second); equal moves and equal tenths are a tie; a game not won is lost.
//! 2048 (both sides' outcome known): the board's own rank, the 2048 tile first, then the
//! score, then fewer moves. `diff_ms` is the player's time minus the sender's, in whole tenths
//! (so 0 exactly when the shown times are equal); `score` is the sender's 2048 score. A game
//! that was auto-solved, or used undo or hints still gets the comparison;
//! `counted`/`undo_used`/`hints_used`/`assisted` beside it say so.

use crate::progress::Progress;
use huarong_engine::code::Outcome;

use serde::Serialize;
use serde_json::{json, Value};

pub use crate::progress::{SlotChallenge, MAX_CHALLENGES};

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
        if let Some(g) = &c.ghost {
            v["ghost"] = json!(g.source);
        }
        v
    })
}

/// How a finish stands against the result it had to beat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Beaten,
    Tied,
    Lost,
}

/// The player's finished game, as [`compare`] reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mine {
    pub won: bool,
    /// Under the game's default rule.
    pub moves: u32,
    pub ms: u64,
    /// 2048: the score and whether the 2048 tile was made.
    pub outcome: Option<Outcome>,
}

/// Tenths of a second: the precision a time is shown at.
fn tenths(ms: u64) -> u64 {
    ms / 100
}

/// `mine` against `c` (see the module documentation for the rules).
pub fn compare(c: &SlotChallenge, mine: &Mine) -> Verdict {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let order = match (mine.outcome, c.outcome) {
        // 2048: the board's rank, best first (the tile, the score, fewer moves).
        (Some(a), Some(b)) => (!a.won, std::cmp::Reverse(a.score), mine.moves).cmp(&(
            !b.won,
            std::cmp::Reverse(b.score),
            c.moves,
        )),
        _ if !mine.won => Greater,
        _ => (mine.moves, tenths(mine.ms)).cmp(&(c.moves, tenths(c.ms))),
    };
    match order {
        Less => Verdict::Beaten,
        Equal => Verdict::Tied,
        Greater => Verdict::Lost,
    }
}

/// The player's time minus the sender's, in ms, at the precision shown (whole tenths).
pub fn diff_ms(mine_ms: u64, their_ms: u64) -> i64 {
    let t = |ms: u64| i64::try_from(tenths(ms)).unwrap_or(i64::MAX);
    t(mine_ms).saturating_sub(t(their_ms)).saturating_mul(100)
}

/// The finish's `challenge` value for the kept result `c`.
pub fn finish(c: Option<&SlotChallenge>, mine: &Mine) -> Option<Value> {
    c.map(|c| {
        let outcome = compare(c, mine);
        let mut v = json!({
            "moves": c.moves,
            "ms": c.ms,
            "name": c.name,
            "beaten": outcome == Verdict::Beaten,
            "outcome": outcome,
            "diff_ms": diff_ms(mine.ms, c.ms),
        });
        if let Some(o) = c.outcome {
            v["score"] = json!(o.score);
        }
        if let Some(g) = &c.ghost {
            v["ghost"] = json!(g.source);
        }
        v
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

#[cfg(test)]
mod tests {
    use super::*;

    fn target(moves: u32, ms: u64, outcome: Option<Outcome>) -> SlotChallenge {
        SlotChallenge {
            assisted: false,
            ghost: None,
            daily: None,
            id: "slide:3x3#1".into(),
            moves,
            ms,
            name: Some("Mei".into()),
            outcome,
            replay: false,
            verified: false,
        }
    }

    fn mine(won: bool, moves: u32, ms: u64) -> Mine {
        Mine {
            won,
            moves,
            ms,
            outcome: None,
        }
    }

    #[test]
    fn moves_first_then_the_time_as_shown() {
        let c = target(52, 41_200, None);
        assert_eq!(compare(&c, &mine(true, 51, 99_000)), Verdict::Beaten);
        assert_eq!(compare(&c, &mine(true, 53, 1_000)), Verdict::Lost);
        assert_eq!(compare(&c, &mine(true, 52, 41_100)), Verdict::Beaten);
        assert_eq!(compare(&c, &mine(true, 52, 41_500)), Verdict::Lost);
        // The same tenth is the same time: a tie, not a loss by 90 ms.
        assert_eq!(compare(&c, &mine(true, 52, 41_200)), Verdict::Tied);
        assert_eq!(compare(&c, &mine(true, 52, 41_299)), Verdict::Tied);
        // 0:00.3 against 0:00.0 at equal moves: a loss by 0.3 s, said as such.
        let fast = target(3, 40, None);
        assert_eq!(compare(&fast, &mine(true, 3, 300)), Verdict::Lost);
        assert_eq!(diff_ms(300, 40), 300);
        assert_eq!(compare(&fast, &mine(true, 3, 99)), Verdict::Tied);
        // A game not won never beats or ties.
        assert_eq!(compare(&c, &mine(false, 1, 1)), Verdict::Lost);
    }

    #[test]
    fn the_difference_is_in_shown_tenths_and_signed() {
        assert_eq!(diff_ms(41_299, 41_200), 0);
        assert_eq!(diff_ms(41_100, 41_499), -300);
        assert_eq!(diff_ms(12_345, 2_000), 10_300);
        assert_eq!(diff_ms(0, u64::MAX), i64::MIN, "saturates, never panics");
    }

    #[test]
    fn a_2048_result_ranks_by_the_tile_then_the_score_then_fewer_moves() {
        let o = |won, score| Some(Outcome { score, won });
        let c = target(500, 60_000, o(false, 5_000));
        let m = |won, score, moves| Mine {
            won: false,
            moves,
            ms: 1,
            outcome: o(won, score),
        };
        assert_eq!(
            compare(&c, &m(true, 100, 900)),
            Verdict::Beaten,
            "the tile first"
        );
        assert_eq!(compare(&c, &m(false, 5_004, 900)), Verdict::Beaten);
        assert_eq!(compare(&c, &m(false, 4_996, 10)), Verdict::Lost);
        assert_eq!(compare(&c, &m(false, 5_000, 499)), Verdict::Beaten);
        assert_eq!(compare(&c, &m(false, 5_000, 501)), Verdict::Lost);
        // Time does not count in 2048.
        assert_eq!(compare(&c, &m(false, 5_000, 500)), Verdict::Tied);
        let won = target(900, 1, o(true, 20_000));
        assert_eq!(compare(&won, &m(false, 90_000, 10)), Verdict::Lost);
        assert_eq!(compare(&won, &m(true, 20_000, 900)), Verdict::Tied);
    }

    #[test]
    fn the_finish_value_carries_the_outcome_and_the_sender() {
        let v = finish(Some(&target(5, 60_000, None)), &mine(true, 5, 60_050)).unwrap();
        assert_eq!(
            v,
            json!({"moves": 5, "ms": 60_000, "name": "Mei", "beaten": false,
                   "outcome": "tied", "diff_ms": 0})
        );
        let o = Some(Outcome {
            score: 1_200,
            won: false,
        });
        let v = finish(
            Some(&target(80, 9_000, o)),
            &Mine {
                won: false,
                moves: 70,
                ms: 8_000,
                outcome: Some(Outcome {
                    score: 1_300,
                    won: false,
                }),
            },
        )
        .unwrap();
        assert_eq!(
            (&v["outcome"], &v["beaten"], &v["score"], &v["diff_ms"]),
            (
                &json!("beaten"),
                &json!(true),
                &json!(1_200),
                &json!(-1_000)
            )
        );
        assert!(finish(None, &mine(true, 1, 1)).is_none());
    }
}
