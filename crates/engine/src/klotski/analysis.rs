//! Distances to the goal for post-game analysis (`crate::analysis`): one search over the
//! whole component of the start position gives the optimal distance of every position the
//! player can reach, in one [`Metric`].
//!
//! 1. Breadth-first from the start over canonical keys (the solver's [`Space`]), not
//!    expanding solved positions (the game ends there), gives every reachable position.
//! 2. Breadth-first from all solved positions of that set at once: moves are reversible in
//!    every metric (a piece can go back the way it came, others fixed), so this is each
//!    position's distance to its nearest goal.
//!
//! Both passes check the [`Cancel`] flag, the position bound and the thread's ambient
//! [`Budget`](crate::budget::Budget): its deadline, and its bytes — every array and table
//! growth is charged before it allocates (about 30–60 bytes per position with `u64` keys:
//! the half-full index of 16-byte entries, the key, its distance and a queue entry), so
//! 64 MiB is about a million positions; beyond it the analysis is `Unsupported`.

use super::board::Board;
use super::keys::IndexMap;
use super::space::{with_space, Model, Space, Visit, NO_SKIP};
use super::{Metric, MAX_STATES};
use crate::error::{Error, Result};
use crate::game::Cancel;

/// The optimal distance to the goal (in `metric`) of each of `positions`, all of which must
/// be reachable from `start`; `None` for a position that cannot reach the goal. Stores at
/// most `limit` positions (`OutOfRange` beyond), about 20 bytes each.
pub fn goal_distances(
    start: &Board,
    positions: &[Board],
    metric: Metric,
    cancel: &Cancel,
    limit: usize,
) -> Result<Vec<Option<u32>>> {
    searches!();
    let model = Model::new(start);
    let budget = crate::budget::ambient();
    with_space(
        &model,
        false,
        Distances {
            start,
            positions,
            metric,
            cancel,
            limit: limit.min(MAX_STATES),
            budget: &budget,
        },
    )
}

struct Distances<'a> {
    start: &'a Board,
    positions: &'a [Board],
    metric: Metric,
    cancel: &'a Cancel,
    limit: usize,
    budget: &'a crate::budget::Budget,
}

const UNSEEN: u32 = u32::MAX;

impl Visit for Distances<'_> {
    type Out = Result<Vec<Option<u32>>>;

    fn visit<S: Space>(self, s: &S) -> Self::Out {
        let what = "the analysis of this Klotski board";
        let mut meter = crate::budget::Meter::new(self.budget.max_bytes);
        let over = |b: usize| self.budget.over(what, b);
        let mut index = IndexMap::<S::K>::new();
        meter.charge(index.bytes()).map_err(over)?;
        let mut states: Vec<S::K> = Vec::new();
        let k0 = s.key_of(self.start);
        index.get_or_insert(k0, 0);
        meter.push(&mut states, k0).map_err(over)?;
        let mut goals: Vec<u32> = Vec::new();
        let mut head = 0;
        let mut full = None;
        while head < states.len() {
            if head & 1023 == 0 {
                self.check(states.len())?;
            }
            let k = states[head];
            if s.is_goal(k) {
                meter.push(&mut goals, head as u32).map_err(over)?;
            } else {
                s.expand(k, self.metric, NO_SKIP, |child, _, _| {
                    let next = states.len() as u32;
                    let r = index
                        .get_or_insert_metered(child, next, &mut meter)
                        .and_then(|(_, new)| {
                            if new {
                                meter.push(&mut states, child)
                            } else {
                                Ok(())
                            }
                        });
                    match r {
                        Ok(()) => false,
                        Err(b) => {
                            full = Some(b);
                            true
                        }
                    }
                });
                if let Some(b) = full {
                    return Err(over(b));
                }
            }
            head += 1;
        }
        // Distances from the goals.
        meter.charge(states.len() * 4).map_err(over)?;
        let mut dist = vec![UNSEEN; states.len()];
        let mut queue: Vec<u32> = goals;
        for &g in &queue {
            dist[g as usize] = 0;
        }
        let mut head = 0;
        while head < queue.len() {
            if head & 1023 == 0 {
                self.check(0)?;
            }
            let i = queue[head] as usize;
            let d = dist[i] + 1;
            s.expand(states[i], self.metric, NO_SKIP, |child, _, _| {
                let (j, new) = match index.get_or_insert_metered(child, UNSEEN, &mut meter) {
                    Ok(r) => r,
                    Err(b) => {
                        full = Some(b);
                        return true;
                    }
                };
                // A neighbour of a goal that pass 1 did not reach (it lies beyond the goal)
                // is inserted here with UNSEEN as its index and skipped from then on.
                if !new && j != UNSEEN && dist[j as usize] == UNSEEN {
                    dist[j as usize] = d;
                    if let Err(b) = meter.push(&mut queue, j) {
                        full = Some(b);
                        return true;
                    }
                }
                false
            });
            if let Some(b) = full {
                return Err(over(b));
            }
            head += 1;
        }
        self.positions
            .iter()
            .map(|b| {
                let (j, new) = index.get_or_insert(s.key_of(b), UNSEEN);
                if new || j == UNSEEN {
                    return Err(Error::illegal(
                        "a position of the move log is not reachable from the start",
                    ));
                }
                let d = dist[j as usize];
                Ok((d != UNSEEN).then_some(d))
            })
            .collect()
    }
}

impl Distances<'_> {
    fn check(&self, stored: usize) -> Result<()> {
        if self.cancel.is_cancelled() {
            return Err(Error::cancelled());
        }
        self.budget.check("the Klotski analysis")?;
        if stored > self.limit {
            return Err(Error::range(format!(
                "the analysis gave up after {stored} positions (the limit is {})",
                self.limit
            )));
        }
        Ok(())
    }
}

/// The positions one run of moves of piece `i` passes through, counted in `metric`: from
/// `before` (the board when the run began) to `to`, along a shortest path of `metric` moves
/// with the other pieces fixed (the path the game's counters measure). Empty when the piece
/// ends where it began.
pub fn run_positions(before: &Board, i: usize, to: (u8, u8), metric: Metric) -> Vec<Board> {
    let from = before.pieces()[i].pos();
    if from == to {
        return Vec::new();
    }
    if metric == Metric::Piece {
        let mut b = before.clone();
        b.set_pos(i, to);
        return vec![b];
    }
    // Breadth-first over the piece's anchors with one-cell or straight moves.
    let mut seen: Vec<((u8, u8), usize)> = vec![(from, usize::MAX)];
    let mut head = 0;
    let mut found = None;
    while head < seen.len() && found.is_none() {
        let (at, _) = seen[head];
        let mut b = before.clone();
        b.set_pos(i, at);
        for next in b.moves_of(i, metric) {
            if seen.iter().all(|&(p, _)| p != next) {
                seen.push((next, head));
                if next == to {
                    found = Some(seen.len() - 1);
                    break;
                }
            }
        }
        head += 1;
    }
    let Some(mut j) = found else {
        return Vec::new();
    };
    let mut path = Vec::new();
    while seen[j].1 != usize::MAX {
        path.push(seen[j].0);
        j = seen[j].1;
    }
    path.reverse();
    path.into_iter()
        .map(|p| {
            let mut b = before.clone();
            b.set_pos(i, p);
            b
        })
        .collect()
}
