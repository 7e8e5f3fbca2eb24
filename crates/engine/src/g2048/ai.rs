//! The 2048 AI: expectimax over the bitboard.
//!
//! API: [`best_move`]`(board: u64, budget: Budget, cancel: &Cancel) -> Option<Choice>` with
//! [`Budget`]`::{Depth(u8), Millis(u64, &dyn Clock)}` and [`Choice`]` { dir, values: [Option<f64>; 4],
//! positions: u64, depth: u8 }` (`values` in the order left, right, up, down). Every call on a
//! thread shares that thread's 16 MB transposition table (allocated on the first call).
//!
//! * **Tree.** Max nodes try the four directions; chance nodes average over every empty
//!   cell × {2 (p 0.9), 4 (p 0.1)}. [`Budget::Depth`]`(d)` expands `d` chance layers below
//!   each root move (so the deepest positions are `d + 1` moves ahead); a chance node whose
//!   path probability falls below [`PRUNE_PROB`] is scored by the heuristic instead of being
//!   expanded (unlikely branches cost nothing).
//! * **Transposition table.** Chance-node values are cached by board together with the depth
//!   they were searched to (an entry answers any request for the same or less depth). The
//!   table is a fixed array owned by the calling thread and tagged by search, so no search sees
//!   another's entries: a depth search gives the same answer every time (deterministic).
//! * **Heuristic.** A sum over the four rows and four columns of a value precomputed for every
//!   one of the 65,536 lines: empty cells and neighbouring equal tiles are rewarded;
//!   non-monotonic lines (tiles going up and down instead of one way) are penalised by the
//!   smaller of the two directions' "wrong-way" steps in rank⁴, and large tile sums by rank^3.5
//!   (which makes merging attractive). The weights follow the well-known published expectimax
//!   heuristic's shape; a position with no move scores 0, far below any live one.
//! * **Time.** [`Budget::Millis`] deepens iteratively (1, 2, … layers, up to a cap that grows
//!   with the number of distinct tiles on the board, as easy early positions need no deep
//!   look), keeps the last completed depth, stops starting a new depth when it would
//!   predictably overrun, and abandons an unfinished one at the deadline. The clock is the
//!   caller's ([`crate::clock`]); it only bounds the thinking.
//! * **Cancel.** A set [`Cancel`] stops the search within a few thousand positions and
//!   [`best_move`] returns `None`.
//!
//! "Positions" (in [`Choice::positions`]) counts every node the search visits: each board a
//! move produced (chance node) and each board after a spawn (max node).

use super::board::{self, transpose, Board, Dir, Tables};
use super::table;
use crate::game::Cancel;
use std::cell::RefCell;
use std::sync::OnceLock;
use crate::clock::{Clock, Deadline};
use std::time::Duration;

/// How much thinking a search may do.
#[derive(Clone, Copy)]
pub enum Budget<'a> {
    /// Exactly this many chance layers (deterministic), at least 1 and at most [`MAX_DEPTH`].
    Depth(u8),
    /// Iterative deepening within this many milliseconds as the caller's monotonic clock
    /// measures them (at least depth 0 is always done; see [`crate::clock`]).
    Millis(u64, &'a dyn Clock),
}

impl std::fmt::Debug for Budget<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Budget::Depth(d) => write!(f, "Depth({d})"),
            Budget::Millis(ms, _) => write!(f, "Millis({ms})"),
        }
    }
}

/// The AI's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// The direction to play.
    pub dir: Dir,
    /// The expectimax value of each direction (`[left, right, up, down]`); `None` for a
    /// direction that changes nothing.
    pub values: [Option<f64>; 4],
    /// Positions visited (all completed and abandoned depths).
    pub positions: u64,
    /// The deepest completed depth (chance layers) the answer comes from.
    pub depth: u8,
}

/// The deepest search ever run.
pub const MAX_DEPTH: u8 = 12;
/// Chance nodes reached with a smaller path probability are not expanded.
pub const PRUNE_PROB: f32 = 1e-4;

// The heuristic's weights (the grid search's too).
pub(super) const LOST_PENALTY: f32 = 200_000.0;
pub(super) const MONO_POWER: f32 = 4.0;
pub(super) const MONO_WEIGHT: f32 = 47.0;
pub(super) const SUM_POWER: f32 = 3.5;
pub(super) const SUM_WEIGHT: f32 = 11.0;
pub(super) const MERGE_WEIGHT: f32 = 700.0;
pub(super) const EMPTY_WEIGHT: f32 = 270.0;

/// The heuristic value of one line of four exponents (see the module doc).
pub fn line_value(line: [u8; 4]) -> f32 {
    let empty = line.iter().filter(|&&e| e == 0).count() as f32;
    // Runs of equal tiles (empty cells between them ignored): a run of k ≥ 2 scores k.
    let tiles: Vec<u8> = line.iter().copied().filter(|&e| e != 0).collect();
    let mut merges = 0f32;
    let mut run = 1;
    for k in 1..=tiles.len() {
        if k < tiles.len() && tiles[k] == tiles[k - 1] {
            run += 1;
        } else {
            if run >= 2 {
                merges += run as f32;
            }
            run = 1;
        }
    }
    let sum: f32 = line.iter().map(|&e| (e as f32).powf(SUM_POWER)).sum();
    let (mut down, mut up) = (0f32, 0f32);
    for w in line.windows(2) {
        let (a, b) = (
            (w[0] as f32).powf(MONO_POWER),
            (w[1] as f32).powf(MONO_POWER),
        );
        if a > b {
            down += a - b;
        } else {
            up += b - a;
        }
    }
    LOST_PENALTY + EMPTY_WEIGHT * empty + MERGE_WEIGHT * merges
        - MONO_WEIGHT * down.min(up)
        - SUM_WEIGHT * sum
}

fn heuristic_table() -> &'static [f32] {
    static H: OnceLock<Vec<f32>> = OnceLock::new();
    H.get_or_init(|| {
        (0..1usize << 16)
            .map(|r| line_value(board::unpack_row(r as u16)))
            .collect()
    })
}

/// The static value of a board: its rows and columns through the line table (a line with a
/// tile above 32,768 through [`line_value`] of its exponents).
#[inline]
pub fn evaluate(b: Board) -> f32 {
    if b.over() != 0 {
        return evaluate_big(b);
    }
    let h = heuristic_table();
    let x = b.cells();
    let t = transpose(x);
    let mut v = 0.0;
    for k in 0..4 {
        v += h[((x >> (16 * k)) & 0xFFFF) as usize] + h[((t >> (16 * k)) & 0xFFFF) as usize];
    }
    v
}

#[cold]
fn evaluate_big(b: Board) -> f32 {
    let exps = board::to_exps(b);
    let mut v = 0.0;
    for k in 0..4 {
        for dir in [Dir::Left, Dir::Up] {
            v += line_value(board::line_cells(dir, k).map(|c| exps[c]));
        }
    }
    v
}

/// The transposition tables: 2^20 slots (16 MB) per thread that searches; plus 2^16 slots
/// (1.5 MB, allocated on the first search of such a board) for boards with tiles above
/// 32,768, keyed by both words.
struct Table {
    slots: table::Table<u64>,
    big: table::Table<(u64, u32)>,
}

const TABLE_BITS: u32 = 20;
const BIG_TABLE_BITS: u32 = 16;

impl table::Key for u64 {
    #[inline]
    fn spread(self) -> u64 {
        self.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

impl table::Key for (u64, u32) {
    #[inline]
    fn spread(self) -> u64 {
        (self.0 ^ (self.1 as u64).rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

impl Table {
    fn new() -> Table {
        Table {
            slots: table::Table::new(TABLE_BITS),
            big: table::Table::unallocated(BIG_TABLE_BITS),
        }
    }

    fn begin(&mut self, big: bool) {
        if big {
            self.big.allocate();
        }
        self.slots.begin();
        self.big.begin();
    }
}

thread_local! {
    static TABLE: RefCell<Option<Table>> = const { RefCell::new(None) };
}

struct Search<'a> {
    moves: &'static Tables,
    table: &'a mut Table,
    positions: u64,
    deadline: Option<Deadline<'a>>,
    cancel: &'a Cancel,
    stopped: bool,
    until_check: u32,
}

const CHECK_EVERY: u32 = 4096;

impl Search<'_> {
    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        self.until_check -= 1;
        if self.until_check == 0 {
            self.until_check = CHECK_EVERY;
            if self.cancel.is_cancelled() || self.deadline.is_some_and(|d| d.passed()) {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// The best value over the directions (0 when none moves).
    #[inline]
    fn max_node(&mut self, b: Board, depth: u8, prob: f32) -> f32 {
        let mut best = 0f32;
        if b.is_ordinary() {
            // The table path: the nibble word alone, moved by the row tables.
            let x = b.cells();
            for dir in Dir::ALL {
                let next = self.moves.slide_cells(x, dir);
                if next != x {
                    let v = self.chance_node(Board::from_cells(next), depth, prob);
                    if v > best {
                        best = v;
                    }
                }
            }
        } else {
            for dir in Dir::ALL {
                let next = self.moves.slide(b, dir);
                if next != b {
                    let v = self.chance_node(next, depth, prob);
                    if v > best {
                        best = v;
                    }
                }
            }
        }
        best
    }

    /// The expected value over the spawns, `depth` chance layers deep.
    fn chance_node(&mut self, b: Board, depth: u8, prob: f32) -> f32 {
        self.positions += 1;
        if depth == 0 || prob < PRUNE_PROB {
            return evaluate(b);
        }
        let cached = if b.over() == 0 {
            self.table.slots.get(b.cells(), depth)
        } else {
            self.table.big.get((b.cells(), b.over()), depth)
        };
        if let Some(v) = cached {
            return v;
        }
        if self.should_stop() {
            return 0.0;
        }
        let empties = b.empty_mask();
        let n = empties.count_ones() as f32;
        let (p2, p4) = (prob * 0.9 / n, prob * 0.1 / n);
        let mut sum = 0f32;
        let mut m = empties;
        while m != 0 {
            let bit = m & m.wrapping_neg();
            self.positions += 2;
            sum += 0.9 * self.max_node(b.with_spawn(bit, 1), depth - 1, p2);
            sum += 0.1 * self.max_node(b.with_spawn(bit, 2), depth - 1, p4);
            m &= m - 1;
        }
        let v = sum / n;
        if !self.stopped {
            if b.over() == 0 {
                self.table.slots.put(b.cells(), depth, v);
            } else {
                self.table.big.put((b.cells(), b.over()), depth, v);
            }
        }
        v
    }

    /// Values of the four root moves at `depth`, or `None` if the search was stopped.
    fn root(&mut self, b: Board, depth: u8) -> Option<[Option<f64>; 4]> {
        let mut values = [None; 4];
        for dir in Dir::ALL {
            let next = self.moves.slide(b, dir);
            if next != b {
                values[dir.index()] = Some(self.chance_node(next, depth, 1.0) as f64);
            }
        }
        (!self.stopped).then_some(values)
    }
}

/// The number of distinct tile values on the board.
fn distinct_tiles(b: Board) -> u32 {
    let mut seen = 0u32;
    for i in 0..16 {
        seen |= 1 << board::cell(b, i);
    }
    (seen & !1).count_ones()
}

/// The depth iterative deepening stops at: deeper when the board holds many different tiles.
pub fn depth_cap(b: Board) -> u8 {
    (distinct_tiles(b).saturating_sub(2)).clamp(3, MAX_DEPTH as u32) as u8
}

/// A search the budget driver ([`deepen`]) runs: the 4×4's here, other sizes' in
/// [`super::grid_ai`].
pub(crate) trait Deepening<'a> {
    /// The values of the root's directions, `depth` chance layers deep; `None` when stopped.
    fn root_values(&mut self, depth: u8) -> Option<[Option<f64>; 4]>;
    /// From now on, stop at `deadline`.
    fn set_deadline(&mut self, deadline: Deadline<'a>);
    /// Positions visited so far.
    fn positions(&self) -> u64;
}

/// Runs `s` within `budget`: one search `Depth(d)` deep, or iterative deepening within
/// `Millis`, aiming at `aim` of the time (a depth that cannot finish in the time left is not
/// begun; the growth of one depth over the last is measured, between 1.5× and 40×), at most
/// `cap` deep. `None` when no direction changes the board or `cancel` was set.
pub(crate) fn deepen<'a>(
    s: &mut impl Deepening<'a>,
    budget: Budget<'a>,
    cap: u8,
    aim: f64,
    cancel: &Cancel,
) -> Option<Choice> {
    let (values, depth) = match budget {
        Budget::Depth(d) => {
            let d = d.clamp(1, MAX_DEPTH);
            (s.root_values(d)?, d)
        }
        Budget::Millis(ms, clock) => {
            let start = clock.now();
            let elapsed = || clock.now().saturating_sub(start);
            let limit = Duration::from_millis(ms).mul_f64(aim);
            let mut best = s.root_values(0)?;
            let mut depth = 0;
            s.set_deadline(Deadline::at(clock, start.saturating_add(limit)));
            let mut last = elapsed();
            let mut growth = 4.0f64;
            while depth < cap {
                let began = elapsed();
                // Skip a depth that cannot finish in the time left.
                if depth > 0 && began + last.mul_f64(growth) > limit {
                    break;
                }
                let Some(values) = s.root_values(depth + 1) else {
                    break;
                };
                best = values;
                depth += 1;
                let took = elapsed().saturating_sub(began);
                if depth > 1 && !last.is_zero() {
                    growth = (took.as_secs_f64() / last.as_secs_f64()).clamp(1.5, 40.0);
                }
                last = took;
            }
            if cancel.is_cancelled() {
                return None;
            }
            (best, depth)
        }
    };
    Some(Choice {
        dir: pick(&values)?,
        values,
        positions: s.positions(),
        depth,
    })
}

fn pick(values: &[Option<f64>; 4]) -> Option<Dir> {
    let mut best: Option<(Dir, f64)> = None;
    for dir in Dir::ALL {
        if let Some(v) = values[dir.index()] {
            if best.is_none_or(|(_, bv)| v > bv) {
                best = Some((dir, v));
            }
        }
    }
    best.map(|(d, _)| d)
}

/// The best direction on board `b` within `budget`. `None` when no direction changes the
/// board, or when `cancel` was set (check [`Cancel::is_cancelled`] to tell them apart).
/// Ties go to the first of left, right, up, down.
pub fn best_move(b: Board, budget: Budget<'_>, cancel: &Cancel) -> Option<Choice> {
    let moves = board::tables();
    if !moves.can_move(b) || cancel.is_cancelled() {
        return None;
    }
    TABLE.with(|cell| {
        let mut slot = cell.borrow_mut();
        let table = slot.get_or_insert_with(Table::new);
        table.begin(!b.is_ordinary());
        let mut s = Search {
            moves,
            table,
            positions: 0,
            deadline: None,
            cancel,
            stopped: false,
            until_check: CHECK_EVERY,
        };
        deepen(&mut AtRoot(&mut s, b), budget, depth_cap(b), 1.0, cancel)
    })
}

/// The 4×4 search from its root board, for [`deepen`].
struct AtRoot<'s, 'a>(&'s mut Search<'a>, Board);

impl<'a> Deepening<'a> for AtRoot<'_, 'a> {
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

    fn b(exps: [u8; 16]) -> Board {
        board::from_exps(&exps)
    }

    #[test]
    fn depth_mode_is_deterministic() {
        let pos = b([1, 2, 3, 0, 0, 1, 0, 4, 0, 0, 2, 0, 5, 0, 0, 1]);
        let c = Cancel::new();
        let a = best_move(pos, Budget::Depth(3), &c).unwrap();
        // Another search in between must not change the answer.
        best_move(
            b([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]),
            Budget::Depth(4),
            &c,
        );
        let again = best_move(pos, Budget::Depth(3), &c).unwrap();
        assert_eq!(a, again);
        assert!(a.positions > 100);
        assert_eq!(a.values.iter().filter(|v| v.is_some()).count(), 4);
    }

    #[test]
    fn no_move_no_choice_and_illegal_directions_have_no_value() {
        let c = Cancel::new();
        let dead = b([1, 2, 1, 2, 2, 1, 2, 1, 1, 2, 1, 2, 2, 1, 2, 1]);
        assert_eq!(best_move(dead, Budget::Depth(2), &c), None);
        // Tiles packed into the top-left corner: left and up change nothing.
        let corner = b([3, 2, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        let ch = best_move(corner, Budget::Depth(2), &c).unwrap();
        assert_eq!(ch.values[Dir::Left.index()], None);
        assert_eq!(ch.values[Dir::Up.index()], None);
        assert!(matches!(ch.dir, Dir::Right | Dir::Down));
    }

    #[test]
    fn depth_two_wins_a_seeded_game() {
        // Strength check without timing: a fixed-depth search plays a seeded game to 2048.
        use crate::game::{Game, Status};
        let c = Cancel::new();
        let mut g = crate::g2048::G2048::new(3);
        while g.status() == Status::Playing {
            let ch = best_move(g.board(), Budget::Depth(2), &c).unwrap();
            g.apply(&crate::g2048::Move::Slide(ch.dir)).unwrap();
        }
        assert_eq!(
            g.status(),
            Status::Won,
            "lost with max tile {}",
            g.max_tile()
        );
    }

    #[test]
    fn cancelled_search_returns_none() {
        let c = Cancel::new();
        c.cancel();
        let pos = b([1, 2, 3, 0, 0, 1, 0, 4, 0, 0, 2, 0, 5, 0, 0, 1]);
        let clock = crate::clock::Ticking::new(Duration::from_millis(1));
        assert_eq!(best_move(pos, Budget::Millis(1000, &clock), &c), None);
    }

    #[test]
    fn cancel_stops_a_running_search() {
        // A depth-12 search of this crowded board visits tens of millions of positions
        // (seconds); a cancel from another thread after 30 ms ends it with no answer.
        let c = Cancel::new();
        let c2 = c.clone();
        let t = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(30));
            c2.cancel();
        });
        let pos = b([1, 2, 3, 4, 8, 7, 6, 5, 9, 10, 11, 12, 0, 0, 2, 1]);
        assert_eq!(best_move(pos, Budget::Depth(MAX_DEPTH), &c), None);
        t.join().unwrap();
    }

    #[test]
    fn millis_mode_returns_a_legal_move() {
        let c = Cancel::new();
        let pos = b([1, 2, 3, 0, 0, 1, 0, 4, 0, 0, 2, 0, 5, 0, 0, 1]);
        let clock = crate::clock::Native::new();
        let ch = best_move(pos, Budget::Millis(20, &clock), &c).unwrap();
        assert!(ch.values[ch.dir.index()].is_some());
        assert!(ch.depth >= 1);
    }

    #[test]
    fn millis_mode_reads_the_injected_clock() {
        // Clocks that read one step later at each look (a look every 4,096 positions): the
        // 20 ms budget is spent after a fixed number of looks whatever the machine's speed, so
        // the answer is the same every time, the search stopped on the injected deadline (a
        // few readings past it at most), and a clock that advances less per look lets the
        // same budget search deeper.
        let c = Cancel::new();
        let pos = b([1, 2, 3, 4, 8, 7, 6, 5, 9, 10, 11, 12, 0, 0, 2, 1]);
        let run = |step: Duration| {
            let clock = crate::clock::Ticking::new(step);
            let ch = best_move(pos, Budget::Millis(20, &clock), &c).unwrap();
            (ch, clock.last())
        };
        let (fast, last) = run(Duration::from_millis(1));
        assert_eq!(run(Duration::from_millis(1)), (fast.clone(), last));
        assert!(last <= Duration::from_millis(24), "read {last:?}");
        let (slow, _) = run(Duration::from_micros(20));
        assert!(slow.depth > fast.depth, "{slow:?} vs {fast:?}");
        assert!(slow.positions > fast.positions);
    }

    #[test]
    fn heuristic_prefers_monotone_lines() {
        assert!(line_value([4, 3, 2, 1]) > line_value([4, 1, 3, 2]));
        assert!(line_value([1, 1, 0, 0]) > line_value([1, 2, 0, 0]));
        assert!(line_value([0, 0, 0, 0]) > line_value([1, 0, 0, 0]));
    }
}
