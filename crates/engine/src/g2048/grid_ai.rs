//! The 2048 AI on boards other than the 4×4 ([`Grid`]): the same expectimax as [`super::ai`]
//! (max nodes over the four directions, chance nodes over every empty cell × {2: 0.9,
//! 4: 0.1}, unlikely chance nodes scored by the heuristic, iterative deepening under the
//! same [`Budget`]), on a board of one byte per cell instead of the 4×4's row tables.
//!
//! * **Heuristic.** Summed over every row and column, the 4×4's line terms on lines of any
//!   length ([`line_value`]): empty cells and runs of equal tiles rewarded, non-monotonic lines
//!   penalised by the smaller "wrong-way" total in rank⁴, tile sums by rank^3.5. The weights
//!   are the 4×4's, so a line of four scores exactly what the 4×4's table says.
//! * **Transposition table.** 2^16 slots per thread, keyed by a 64-bit hash of the board with
//!   the searched depth, tagged per search (results never depend on earlier searches).
//! * **Time.** As on the 4×4, except that the search aims at 80 % of the budget (its deadline
//!   and the decision to start another depth), and the clock is read every 512 positions
//!   counting leaves (a big board's chance node expands hundreds of them).
//! * **Deeper on small boards.** The depth cap is `max(3, distinct tiles − 2)` as on the 4×4,
//!   and at least 4 on the 3×3, whose few empty cells make deep layers cheap.

use super::ai::{
    deepen, Budget, Choice, Deepening, EMPTY_WEIGHT, LOST_PENALTY, MAX_DEPTH, MERGE_WEIGHT,
    MONO_POWER, MONO_WEIGHT, PRUNE_PROB, SUM_POWER, SUM_WEIGHT,
};
use super::board::{Dir, MAX_EXP};
use super::grid::Grid;
use super::table;
use crate::clock::Deadline;
use crate::game::Cancel;
use std::cell::RefCell;
use std::sync::OnceLock;

struct Powers {
    mono: [f32; MAX_EXP as usize + 1],
    sum: [f32; MAX_EXP as usize + 1],
}

fn powers() -> &'static Powers {
    static P: OnceLock<Powers> = OnceLock::new();
    P.get_or_init(|| Powers {
        mono: std::array::from_fn(|e| (e as f32).powf(MONO_POWER)),
        sum: std::array::from_fn(|e| (e as f32).powf(SUM_POWER)),
    })
}

/// The heuristic value of one line of exponents of any length (the 4×4's
/// [`super::ai::line_value`] for a line of four).
pub fn line_value(line: &[u8]) -> f32 {
    let p = powers();
    let mut empty = 0f32;
    let mut merges = 0f32;
    let (mut prev, mut run) = (0u8, 1u32);
    let mut sum = 0f32;
    let (mut down, mut up) = (0f32, 0f32);
    for (j, &e) in line.iter().enumerate() {
        sum += p.sum[e as usize];
        if j > 0 {
            let (a, b) = (p.mono[line[j - 1] as usize], p.mono[e as usize]);
            if a > b {
                down += a - b;
            } else {
                up += b - a;
            }
        }
        if e == 0 {
            empty += 1.0;
            continue;
        }
        // Runs of equal tiles, empty cells between them ignored.
        if e == prev {
            run += 1;
        } else {
            if run >= 2 {
                merges += run as f32;
            }
            run = 1;
            prev = e;
        }
    }
    if run >= 2 {
        merges += run as f32;
    }
    LOST_PENALTY + EMPTY_WEIGHT * empty + MERGE_WEIGHT * merges
        - MONO_WEIGHT * down.min(up)
        - SUM_WEIGHT * sum
}

/// The static value of a board: its rows and columns through [`line_value`].
pub fn evaluate(g: &Grid) -> f32 {
    let n = g.side() as usize;
    let mut line = [0u8; 8];
    let mut total = 0f32;
    for k in 0..n {
        for (j, c) in g.line_cells(Dir::Left, k).enumerate() {
            line[j] = g.get(c);
        }
        total += line_value(&line[..n]);
        for (j, c) in g.line_cells(Dir::Up, k).enumerate() {
            line[j] = g.get(c);
        }
        total += line_value(&line[..n]);
    }
    total
}

/// The depth iterative deepening stops at.
pub fn depth_cap(g: &Grid) -> u8 {
    let mut seen = 0u32;
    for &e in g.exps() {
        seen |= 1 << e;
    }
    let distinct = (seen & !1).count_ones();
    let least = if g.side() <= 3 { 4 } else { 3 };
    distinct.saturating_sub(2).clamp(least, MAX_DEPTH as u32) as u8
}

const TABLE_BITS: u32 = 16;

/// A grid's key: already a 64-bit hash, so its top bits pick the slot as they are.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
struct Hashed(u64);

impl table::Key for Hashed {
    #[inline]
    fn spread(self) -> u64 {
        self.0
    }
}

type Table = table::Table<Hashed>;

thread_local! {
    static TABLE: RefCell<Option<Table>> = const { RefCell::new(None) };
}

/// The clock is read once every this many positions (leaves included: a chance node of a
/// big board expands hundreds of leaves, so counting chance nodes alone would read it too
/// seldom to keep the deadline).
const CHECK_EVERY: u64 = 512;

struct Search<'a> {
    table: &'a mut Table,
    positions: u64,
    deadline: Option<Deadline<'a>>,
    cancel: &'a Cancel,
    stopped: bool,
    next_check: u64,
}

impl Search<'_> {
    fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.positions >= self.next_check {
            self.next_check = self.positions + CHECK_EVERY;
            if self.cancel.is_cancelled() || self.deadline.is_some_and(|d| d.passed()) {
                self.stopped = true;
            }
        }
        self.stopped
    }

    fn max_node(&mut self, g: &Grid, depth: u8, prob: f32) -> f32 {
        let mut best = 0f32;
        for dir in Dir::ALL {
            let (next, _) = g.slide(dir);
            if next != *g {
                let v = self.chance_node(&next, depth, prob);
                if v > best {
                    best = v;
                }
            }
        }
        best
    }

    fn chance_node(&mut self, g: &Grid, depth: u8, prob: f32) -> f32 {
        self.positions += 1;
        if depth == 0 || prob < PRUNE_PROB {
            return evaluate(g);
        }
        let key = Hashed(g.key());
        if let Some(v) = self.table.get(key, depth) {
            return v;
        }
        if self.should_stop() {
            return 0.0;
        }
        let n = g.count_empty() as f32;
        let (p2, p4) = (prob * 0.9 / n, prob * 0.1 / n);
        let mut sum = 0f32;
        for i in 0..g.len() {
            if g.get(i) != 0 {
                continue;
            }
            self.positions += 2;
            let mut s = *g;
            s.set(i, 1);
            sum += 0.9 * self.max_node(&s, depth - 1, p2);
            s.set(i, 2);
            sum += 0.1 * self.max_node(&s, depth - 1, p4);
        }
        let v = sum / n;
        if !self.stopped {
            self.table.put(key, depth, v);
        }
        v
    }

    fn root(&mut self, g: &Grid, depth: u8) -> Option<[Option<f64>; 4]> {
        let mut values = [None; 4];
        for dir in Dir::ALL {
            let (next, _) = g.slide(dir);
            if next != *g {
                values[dir.index()] = Some(self.chance_node(&next, depth, 1.0) as f64);
            }
        }
        (!self.stopped).then_some(values)
    }
}

/// The best direction on `g` within `budget` (see [`super::ai::best_move`]: the same
/// contract, ties to the first of left, right, up, down).
pub fn best_move(g: &Grid, budget: Budget<'_>, cancel: &Cancel) -> Option<Choice> {
    if !g.can_move() || cancel.is_cancelled() {
        return None;
    }
    TABLE.with(|cell| {
        let mut slot = cell.borrow_mut();
        let table = slot.get_or_insert_with(|| Table::new(TABLE_BITS));
        table.begin();
        let mut s = Search {
            table,
            positions: 0,
            deadline: None,
            cancel,
            stopped: false,
            next_check: 0,
        };
        // Aim at 80 % of the budget: the move's own work after the search, and a thread
        // descheduled near the end on a busy machine, stay within the budget.
        deepen(&mut AtRoot(&mut s, g), budget, depth_cap(g), 0.8, cancel)
    })
}

/// The search from its root grid, for [`deepen`].
struct AtRoot<'s, 'a, 'g>(&'s mut Search<'a>, &'g Grid);

impl<'a> Deepening<'a> for AtRoot<'_, 'a, '_> {
    fn root_values(&mut self, depth: u8) -> Option<[Option<f64>; 4]> {
        self.0.root(self.1, depth)
    }
    fn set_deadline(&mut self, deadline: Deadline<'a>) {
        self.0.deadline = Some(deadline);
    }
    fn positions(&self) -> u64 {
        self.0.positions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::g2048::ai;

    #[test]
    fn a_line_of_four_scores_as_on_the_4x4() {
        for line in [[0, 0, 0, 0], [1, 1, 0, 2], [5, 3, 3, 1], [2, 0, 2, 2], [17, 16, 1, 0]] {
            let (a, b) = (line_value(&line), ai::line_value(line));
            assert!((a - b).abs() <= 1e-3 * b.abs().max(1.0), "{line:?}: {a} vs {b}");
        }
    }

    #[test]
    fn depth_mode_is_deterministic_and_takes_a_merge() {
        let mut exps = [0u8; 25];
        exps[0] = 1;
        exps[1] = 1;
        exps[24] = 3;
        let g = Grid::from_exps(5, &exps);
        let c = Cancel::new();
        let a = best_move(&g, Budget::Depth(2), &c).unwrap();
        best_move(&Grid::from_exps(3, &[1, 0, 0, 0, 2, 0, 0, 0, 1]), Budget::Depth(3), &c);
        assert_eq!(best_move(&g, Budget::Depth(2), &c).unwrap(), a);
        assert!(a.values.iter().all(Option::is_some));
    }

    #[test]
    fn no_move_no_choice_and_cancel_stops() {
        let stuck = Grid::from_exps(3, &[1, 2, 3, 4, 5, 6, 1, 2, 3]);
        assert!(best_move(&stuck, Budget::Depth(2), &Cancel::new()).is_none());
        let c = Cancel::new();
        c.cancel();
        let g = Grid::from_exps(3, &[1, 0, 0, 0, 0, 0, 0, 0, 1]);
        assert!(best_move(&g, Budget::Depth(2), &c).is_none());
    }
}
