//! Splits: the named milestones of a game (a line of the number slide done, Klotski's 曹操
//! a quarter nearer the exit, 2048's first 256 tile), decided from a line of moves from the
//! start. Each game says where its splits fall ([`Splits::split_marks`], in a module beside
//! the game); [`splits`] adds the move count and the time of each.
//!
//! Names are stable machine names the page translates: the number slide `row<k>` / `col<k>`
//! (k from 1, the board's k-th row from the top or column from the left), Klotski `q3`,
//! `q2`, `q1` (the optimal distance first at ¾, ½, ¼ of the start's), 2048 `tile256`,
//! `tile512`, `tile1024`, `tile2048`.

use crate::game::{Cancel, Game};
use serde::{Deserialize, Serialize};

/// Where a split falls in a line: its name, and how many of the line's moves lead to it
/// (1 = after the first move).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    pub name: String,
    pub at: usize,
}

/// One split as the app answers it: `{name, moves, ms}`. `moves` is the move count under
/// the game's default rule after the split's move; `ms` that move's time (ms from the first
/// move), `None` when the line has no times.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Split {
    // Fields in key order (the progress file's canonical form keeps them).
    pub moves: u32,
    pub ms: Option<u64>,
    pub name: String,
}

/// A game's splits. The default is none.
pub trait Splits: Game {
    /// The splits of `line` played from `start`, in order of their moves. Moves that do not
    /// replay end the line there. Bounded work (a game that needs a search bounds it and
    /// answers none past its bound).
    fn split_marks(_start: &Self, _line: &[Self::Move], _cancel: &Cancel) -> Vec<Mark> {
        Vec::new()
    }
    /// Where each split was first reached in `line` (during play: the moment to show it),
    /// in order. The same as [`Splits::split_marks`] for a game whose splits cannot be
    /// undone by play; the number slide's lines can be broken again.
    fn first_marks(start: &Self, line: &[Self::Move], cancel: &Cancel) -> Vec<Mark> {
        Self::split_marks(start, line, cancel)
    }
}

/// Calls `f(i, position)` for the start (`i` = 0) and the position after each move of
/// `line` (`i` moves played), up to the first move that does not replay; one position is
/// held at a time.
pub fn walk<G: Game>(start: &G, line: &[G::Move], mut f: impl FnMut(usize, &G)) {
    let mut g = start.clone();
    f(0, &g);
    for (i, mv) in line.iter().enumerate() {
        if !g.accepts(mv) || g.apply(mv).is_err() {
            break;
        }
        f(i + 1, &g);
    }
}

/// The splits of `line` from `start` with their move counts and times: `times` holds each
/// move's time in ms from the first move (as long as `line`), or `None` when unknown.
pub fn splits<G: Splits>(
    start: &G,
    line: &[G::Move],
    times: Option<&[u64]>,
    cancel: &Cancel,
) -> Vec<Split> {
    with_times(start, line, times, G::split_marks(start, line, cancel))
}

/// [`splits`] at the moments each was first reached ([`Splits::first_marks`]).
pub fn first_splits<G: Splits>(
    start: &G,
    line: &[G::Move],
    times: Option<&[u64]>,
    cancel: &Cancel,
) -> Vec<Split> {
    with_times(start, line, times, G::first_marks(start, line, cancel))
}

fn with_times<G: Game>(
    start: &G,
    line: &[G::Move],
    times: Option<&[u64]>,
    marks: Vec<Mark>,
) -> Vec<Split> {
    if marks.is_empty() {
        return Vec::new();
    }
    let mut counts = vec![None; line.len() + 1];
    walk(start, line, |i, g| {
        if marks.iter().any(|m| m.at == i) {
            counts[i] = Some(g.moves());
        }
    });
    marks
        .into_iter()
        .filter(|m| m.at >= 1)
        .filter_map(|m| {
            Some(Split {
                moves: (*counts.get(m.at)?)?,
                ms: times.and_then(|t| t.get(m.at - 1).copied()),
                name: m.name,
            })
        })
        .collect()
}
