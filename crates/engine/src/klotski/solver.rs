//! The optimal solver: breadth-first search over *canonical* positions (see [`super::space`]:
//! identical shapes interchangeable, mirror images one where the walls allow) in one of three
//! counts — one piece anywhere it can go, one straight slide, or one cell — all unit-cost, so
//! the first solved position reached is an optimal one. The visited set is an
//! open-addressing hash table of packed keys; the queue doubles as the list of positions,
//! with a parent index each.
//!
//! The search yields a chain of canonical keys; the moves with the board's real letters are
//! recovered by replaying from the real start, choosing at each step a move whose result
//! has the next key (a mirrored key is matched just the same).

use super::board::Board;
use super::keys::Table;
use super::space::{with_space, Model, Space, Visit, NO_SKIP};
use super::Move;
use crate::error::{Error, ErrorCode, Result};
use crate::game::Cancel;
use serde::{Deserialize, Serialize};

/// What one move is, for counting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// One piece moves any number of cells, around corners too (the standard count).
    Piece,
    /// One piece slides any number of cells in one direction.
    Straight,
    /// One piece slides one cell.
    Unit,
}

impl Metric {
    pub const ALL: [Metric; 3] = [Metric::Piece, Metric::Straight, Metric::Unit];
    pub fn parse(s: &str) -> Option<Metric> {
        match s {
            "piece" => Some(Metric::Piece),
            "straight" => Some(Metric::Straight),
            "unit" => Some(Metric::Unit),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Metric::Piece => "piece",
            Metric::Straight => "straight",
            Metric::Unit => "unit",
        }
    }
}

/// Most positions one search may visit before it gives up (bounded time and memory).
pub const MAX_STATES: usize = 4_000_000;
/// Most memory one search may use, roughly (wide keys of boards with many pieces lower the
/// position limit below [`MAX_STATES`]).
pub const MAX_BYTES: usize = 256 << 20;

/// An optimal solution.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SolutionInfo {
    pub metric: Metric,
    /// The moves, each one move of `metric`; `to` is the piece's new top-left cell.
    pub moves: Vec<Move>,
    /// Distinct canonical positions the search stored.
    pub states: u64,
}

impl SolutionInfo {
    /// The optimal move count.
    pub fn count(&self) -> u32 {
        self.moves.len() as u32
    }
}

/// What a search found: a solution (or none: the goal is unreachable) and its effort.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchResult {
    pub solution: Option<Vec<Move>>,
    pub states: u64,
}

/// Solve `board` optimally in `metric`. `Ok(None)` means there is no solution.
pub fn solve(board: &Board, metric: Metric, cancel: &Cancel) -> Result<Option<SolutionInfo>> {
    let r = search(board, metric, cancel)?;
    Ok(r.solution.map(|moves| SolutionInfo {
        metric,
        moves,
        states: r.states,
    }))
}

/// Solve `board` optimally in `metric`, reporting the effort even when there is no solution.
pub fn search(board: &Board, metric: Metric, cancel: &Cancel) -> Result<SearchResult> {
    search_with_limit(board, metric, cancel, MAX_STATES)
}

/// [`search`] with an explicit bound on stored positions.
pub fn search_with_limit(
    board: &Board,
    metric: Metric,
    cancel: &Cancel,
    limit: usize,
) -> Result<SearchResult> {
    search_in(board, metric, cancel, limit, false)
}

/// [`search_with_limit`], optionally forcing slot keys (to test one space against the other).
pub(crate) fn search_in(
    board: &Board,
    metric: Metric,
    cancel: &Cancel,
    limit: usize,
    force_slots: bool,
) -> Result<SearchResult> {
    let model = Model::new(board);
    with_space(
        &model,
        force_slots,
        Bfs {
            board,
            metric,
            cancel,
            limit,
        },
    )
}

/// Breadth-first search from `board` to the nearest solved position.
struct Bfs<'a> {
    board: &'a Board,
    metric: Metric,
    cancel: &'a Cancel,
    limit: usize,
}

impl Visit for Bfs<'_> {
    type Out = Result<SearchResult>;

    fn visit<S: Space>(self, s: &S) -> Result<SearchResult> {
        let k0 = s.key_of(self.board);
        if s.is_goal(k0) {
            return Ok(SearchResult {
                solution: Some(Vec::new()),
                states: 1,
            });
        }
        let mut table = Table::<S::K>::new();
        let mut states: Vec<S::K> = Vec::with_capacity(1 << 12);
        let mut parent: Vec<u32> = Vec::with_capacity(1 << 12);
        // The anchor (in the stored key) of the piece whose move reached each position. In
        // the piece count, moving that piece again only reaches positions one move from the
        // parent, all already stored; so it is skipped.
        let mut moved: Vec<u8> = Vec::with_capacity(1 << 12);
        let skips = self.metric == Metric::Piece;
        table.insert(k0);
        states.push(k0);
        parent.push(u32::MAX);
        moved.push(u8::MAX);
        // Bound memory as well as positions: the queue, the parents and a table at most
        // half full take about three keys and five bytes per position.
        let limit = self
            .limit
            .min(MAX_BYTES / (3 * std::mem::size_of::<S::K>() + 5));
        let mut head = 0usize;
        let mut found = None;
        while head < states.len() {
            if head & 1023 == 0 {
                if self.cancel.is_cancelled() {
                    return Err(Error::cancelled());
                }
                if states.len() > limit {
                    return Err(Error::range(format!(
                        "search gave up after {} positions (the limit is {limit})",
                        states.len()
                    )));
                }
            }
            let skip = if skips && moved[head] != u8::MAX {
                moved[head] as u32
            } else {
                NO_SKIP
            };
            let stopped = s.expand(states[head], self.metric, skip, |k, goal, anchor| {
                if table.insert(k) {
                    states.push(k);
                    parent.push(head as u32);
                    moved.push(anchor as u8);
                    if goal {
                        found = Some(states.len() - 1);
                        return true;
                    }
                }
                false
            });
            if stopped {
                break;
            }
            head += 1;
        }
        let n_states = states.len() as u64;
        let Some(mut j) = found else {
            return Ok(SearchResult {
                solution: None,
                states: n_states,
            });
        };
        let mut keys = vec![states[j]];
        while parent[j] != u32::MAX {
            j = parent[j] as usize;
            keys.push(states[j]);
        }
        keys.reverse();
        let moves = replay(s, self.board, self.metric, &keys)?;
        Ok(SearchResult {
            solution: Some(moves),
            states: n_states,
        })
    }
}

/// The real moves (with the board's letters) that follow a chain of canonical keys: at each
/// step, a move of `metric` whose resulting position has the next key.
fn replay<S: Space>(s: &S, board: &Board, metric: Metric, keys: &[S::K]) -> Result<Vec<Move>> {
    let mut cur = board.clone();
    let mut moves = Vec::with_capacity(keys.len().saturating_sub(1));
    for next in &keys[1..] {
        let mut step = None;
        'pieces: for i in 0..cur.pieces().len() {
            for to in cur.moves_of(i, metric) {
                let mut b = cur.clone();
                b.set_pos(i, to);
                if s.key_of(&b) == *next {
                    step = Some((i, to));
                    break 'pieces;
                }
            }
        }
        let (i, to) = step.ok_or_else(|| {
            Error::new(
                ErrorCode::Unsolvable,
                "internal error: the solution does not replay",
            )
        })?;
        moves.push(Move {
            piece: cur.pieces()[i].letter,
            to,
        });
        cur.set_pos(i, to);
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_and_slot_keys_find_the_same_counts() {
        for (text, want) in [
            ("aCCb/aCCb/cdde/cste/u..v", [81, 90, 116]),
            ("sCCt/uCCv/abbc/adec/.de.", [34, 0, 0]),
        ] {
            let b = Board::parse(text).unwrap();
            for (metric, &want) in Metric::ALL.iter().zip(&want) {
                let a = search_in(&b, *metric, &Cancel::new(), MAX_STATES, false).unwrap();
                let s = search_in(&b, *metric, &Cancel::new(), MAX_STATES, true).unwrap();
                let (na, ns) = (a.solution.unwrap().len(), s.solution.unwrap().len());
                assert_eq!(na, ns, "{text} {metric:?}");
                assert_eq!(a.states, s.states, "the same canonical positions");
                if want > 0 {
                    assert_eq!(na, want);
                }
            }
        }
    }

    #[test]
    fn the_state_limit_is_an_error() {
        let b = Board::parse("aCCb/aCCb/cdde/cste/u..v").unwrap();
        let e = search_with_limit(&b, Metric::Piece, &Cancel::new(), 2000).unwrap_err();
        assert_eq!(e.code, ErrorCode::OutOfRange);
    }
}
