//! Near-optimal solutions within a budget.
//!
//! - **4×4 class** (sizes with pattern databases), [`anytime_pdb`]: a weighted IDA* (weight 2)
//!   gives a solution in a few thousand nodes; then the optimal IDA* runs until most of the
//!   budget is spent; if it has not finished, weighted searches with smaller weights (3/2, 5/4)
//!   try to shorten the path with what is left. The shortest path found is returned, flagged
//!   optimal only when the optimal search finished.
//! - **5×5**, [`solve_5x5`]: the top row and the left column (9 tiles) are placed by weighted
//!   A* over (cells of the tiles placed, blank cell) — the other tiles are indistinguishable
//!   there, so that search is exact for the sub-goal — with the Manhattan distance of those
//!   tiles, the blank's distance to them and linear conflicts as the heuristic. Either all 9
//!   together (shorter, but it may need more nodes than the budget allows) or split: the row,
//!   then the column of the 5×4 below (cheap, a little longer). A quick split search runs
//!   first so some candidate always exists; then joint and split searches with smaller
//!   weights while the budget lasts. Of every sub-goal state found, the one whose remaining
//!   4×4 has the smallest 4×4 pattern-database value (plus the moves spent) is finished by
//!   [`anytime_pdb`]. This runs on four views of the board (itself, mirrored along the
//!   diagonal, reversed — solved from the goal towards it —, and both), each with a share of
//!   60 % of the budget; the shortest result is then shortened by windowed re-optimisation
//!   ([`shorten`]): for windows of the path, an IDA* (Manhattan + linear conflicts between
//!   the two positions) looks for a shorter connection and splices it in, until the deadline.
//! - **bigger boards**: the reduction solver (`reduce.rs`) down to a 5×5 (or 4×4) region,
//!   which is then finished as above with a small budget.
//!
//! Every path is passed through [`drop_cycles`] (a position visited twice loses the moves in
//! between) and checked by replay before it is returned.
//!
//! Budgets are a deadline on the caller's clock ([`crate::clock`]) and/or node counts ([`Limit`]). Without a deadline every
//! result depends only on the board (node counts are deterministic).

use super::board::{region, Board};
use super::pdb::{self, Limit, Weight};
use super::reduce;
use crate::error::{Error, Result};
use crate::game::Cancel;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Duration;

/// Hard 4×4 boards (70–80 moves) with their optimal lengths, verified offline: lines
/// `optimal<TAB>tiles<TAB>note`, `#` comments (the hint benchmark and tests use them).
pub const HARD_4X4: &str = include_str!("hard4x4.tsv");

/// A path and whether it is proven optimal.
#[derive(Debug, Clone)]
pub(super) struct Path {
    pub tiles: Vec<u16>,
    pub optimal: bool,
    pub nodes: u64,
}

impl Path {
    /// A path not proved optimal, found with `nodes` search nodes.
    fn near(tiles: Vec<u16>, nodes: u64) -> Path {
        Path {
            tiles,
            optimal: false,
            nodes,
        }
    }
}

/// Node caps when no deadline is given (about 0.1 s each on the reference machine), and as
/// the memory bound of the 5×5 sub-goal search.
const PDB_NODES: u64 = 1_500_000;
const L_NODES: usize = 400_000;
/// Node cap of a 4×4 region finished inside a bigger board.
const REGION_NODES: u64 = 200_000;

/// The part of `limit` that ends at `frac` of the time left after `start` (a reading of
/// the limit's own clock, [`Limit::now`]).
fn part<'a>(limit: &Limit<'a>, start: Duration, frac: f64) -> Limit<'a> {
    limit.part(start, frac)
}

/// A solution of `b` (a pattern-database size) within `limit`: optimal when the optimal
/// search finishes in time, otherwise the shortest path the weighted searches found (never
/// worse than the reduction solver's).
pub(super) fn anytime_pdb(b: &Board, limit: &Limit, cancel: &Cancel) -> Result<Path> {
    let start = limit.now();
    let mut nodes = 0u64;
    let mut best: Option<Vec<u16>> = None;
    let keep = |tiles: Vec<u16>, best: &mut Option<Vec<u16>>| {
        if best.as_ref().is_none_or(|b| tiles.len() < b.len()) {
            *best = Some(tiles);
        }
    };
    // 1. A quick path.
    if let Some(f) = pdb::solve_weighted(b, Weight::Two, &part(limit, start, 0.5), cancel)? {
        nodes += f.nodes;
        if let Some(t) = f.tiles {
            keep(t, &mut best);
        }
    }
    // 2. The proof.
    if let Some(f) = pdb::solve_weighted(b, Weight::One, &part(limit, start, 0.75), cancel)? {
        nodes += f.nodes;
        if let Some(t) = f.tiles {
            return Ok(Path {
                tiles: t,
                optimal: true,
                nodes,
            });
        }
    }
    // 3. Shorter paths with what is left.
    for w in [Weight::ThreeHalves, Weight::FiveFourths] {
        if limit.expired() {
            break;
        }
        match pdb::solve_weighted(b, w, limit, cancel)? {
            Some(f) => {
                nodes += f.nodes;
                if let Some(t) = f.tiles {
                    keep(t, &mut best);
                }
            }
            None => break,
        }
    }
    let tiles = match best {
        Some(t) => t,
        None => reduce::solve_fast(b, cancel)?,
    };
    Ok(Path::near(tiles, nodes))
}

/// [`anytime_pdb`] with the default node caps when `limit` has none.
pub(super) fn anytime_pdb_capped(b: &Board, limit: &Limit, cancel: &Cancel) -> Result<Path> {
    anytime_pdb(b, &limit.or_nodes(PDB_NODES), cancel)
}

// ---------------------------------------------------------------------------------------
// 5×5: the top row and left column by weighted A*, then the 4×4.

/// The tiles of the 5×5 top row and left column, in slot order (slot 0 of a state is the blank).
const L_TILES: [u8; 9] = [1, 2, 3, 4, 5, 6, 11, 16, 21];
/// The top row alone, and the left column of the 5×4 region below it (its own numbering).
const ROW_TILES: [u8; 5] = [1, 2, 3, 4, 5];
const COL_TILES: [u8; 4] = [1, 6, 11, 16];
const SIDE: usize = 5;
const CELLS: usize = 25;
/// Most tiles a sub-goal search places.
const MAX_SUB: usize = 9;

/// A 64-bit mixing hasher for the packed states (they are already well spread integers).
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        let mut x = self.0;
        x ^= x >> 31;
        x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x ^ (x >> 29)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | b as u64).wrapping_mul(0x100_0000_01B3);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

type Fast = BuildHasherDefault<Mix>;

fn md5(a: usize, b: usize) -> u32 {
    ((a % SIDE).abs_diff(b % SIDE) + (a / SIDE).abs_diff(b / SIDE)) as u32
}

/// Packed state: slot `i` (0 = blank, 1… = the sub-goal's tiles) in bits `5i..5i+5`.
fn unpack(s: u64, k: usize, pos: &mut [usize; MAX_SUB + 1]) {
    for (i, p) in pos.iter_mut().enumerate().take(k + 1) {
        *p = ((s >> (5 * i)) & 31) as usize;
    }
}

fn pack(pos: &[usize]) -> u64 {
    pos.iter()
        .enumerate()
        .fold(0u64, |a, (i, &p)| a | (p as u64) << (5 * i))
}

/// A sub-goal of a board 5 wide: bring `tiles` (goal cell = tile − 1, row-major) home, the
/// other tiles being indistinguishable.
struct Sub<'a> {
    tiles: &'a [u8],
    height: usize,
}

impl Sub<'_> {
    /// Lower bound on the moves that bring every tile home: their Manhattan distance, plus
    /// the blank's way to the nearest misplaced one (it must stand next to it first), plus
    /// linear conflicts in the top row and the left column.
    fn h(&self, pos: &[usize; MAX_SUB + 1]) -> u32 {
        let mut h = 0;
        let mut near = u32::MAX;
        for (i, &t) in self.tiles.iter().enumerate() {
            let d = md5(pos[i + 1], t as usize - 1);
            if d > 0 {
                h += d;
                near = near.min(md5(pos[0], pos[i + 1]));
            }
        }
        if h == 0 {
            return 0;
        }
        // Of the tiles standing in their goal line, all but an in-order subset must leave it
        // and come back (2 moves each); row and column conflicts add up (each counts moves
        // across a different axis).
        let mut row = [0u8; SIDE];
        let mut nr = 0;
        let mut col = [0u8; SIDE];
        let mut nc = 0;
        for (i, &t) in self.tiles.iter().enumerate() {
            let (p, g) = (pos[i + 1], t as usize - 1);
            if p / SIDE == 0 && g / SIDE == 0 {
                row[nr] = (p % SIDE * SIDE + g % SIDE) as u8;
                nr += 1;
            }
            if p % SIDE == 0 && g % SIDE == 0 {
                col[nc] = (p / SIDE * SIDE + g / SIDE) as u8;
                nc += 1;
            }
        }
        h + near - 1 + 2 * (out_of_order(&mut row[..nr]) + out_of_order(&mut col[..nc]))
    }
}

/// For tiles given as `current · 5 + goal` (on one line), how many must leave the line so that
/// the rest stand in goal order: the count minus the longest increasing run of goals.
fn out_of_order(v: &mut [u8]) -> u32 {
    v.sort_unstable();
    let mut goals = [0u8; SIDE];
    for (g, &x) in goals.iter_mut().zip(v.iter()) {
        *g = x % SIDE as u8;
    }
    must_leave(&goals[..v.len()]) as u32
}

struct LNode {
    state: u64,
    parent: u32,
}

/// Weighted A* (weight `wn/wd`) for a sub-goal of `b` (5 wide, 4 or 5 high). Returns up to
/// `want` goal paths (as blank cells visited), in the order found; fewer (maybe none) if
/// `limit` or `max_nodes` ran out first. The clock is read every 256 expansions.
fn sub_search(
    b: &Board,
    sub: &Sub,
    (wn, wd): (u32, u32),
    want: usize,
    max_nodes: usize,
    limit: &Limit,
    cancel: &Cancel,
) -> Result<Vec<Vec<usize>>> {
    let k = sub.tiles.len();
    let (h, cells) = (sub.height, SIDE * sub.height);
    if b.width() != SIDE || b.height() != h || k > MAX_SUB || want == 0 {
        return Err(Error::range("a sub-goal search takes a board 5 wide"));
    }
    let mut pos = [0usize; MAX_SUB + 1];
    pos[0] = b.blank();
    for (i, &t) in sub.tiles.iter().enumerate() {
        pos[i + 1] = b
            .position(t as u16)
            .ok_or_else(|| Error::range("a sub-goal tile is not on the board"))?;
    }
    let start = pack(&pos[..=k]);
    let cap = max_nodes.min(1 << 16);
    let mut nodes: Vec<LNode> = Vec::with_capacity(cap);
    nodes.push(LNode {
        state: start,
        parent: u32::MAX,
    });
    let mut best_g: HashMap<u64, u16, Fast> =
        HashMap::with_capacity_and_hasher(cap, Fast::default());
    best_g.insert(start, 0);
    // (f, deeper first, node index)
    let mut open: BinaryHeap<(Reverse<u32>, u16, u32)> = BinaryHeap::with_capacity(cap);
    open.push((Reverse(wn * sub.h(&pos)), 0, 0));
    let mut goals: Vec<u32> = Vec::new();
    let mut goal_limit = usize::MAX;
    let mut popped = 0usize;
    let mut occ = [u8::MAX; CELLS];
    while let Some((_, g, idx)) = open.pop() {
        popped += 1;
        if popped & 0xFF == 0 {
            if cancel.is_cancelled() {
                return Err(Error::cancelled());
            }
            if limit.expired() {
                break;
            }
        }
        if nodes.len() >= max_nodes || popped >= goal_limit {
            break;
        }
        let s = nodes[idx as usize].state;
        if best_g.get(&s).is_some_and(|&bg| bg < g) {
            continue; // a stale entry
        }
        unpack(s, k, &mut pos);
        if sub.h(&pos) == 0 {
            goals.push(idx);
            if goals.len() == 1 {
                // Look a little further for other goal states (their rests differ).
                goal_limit = popped + popped / 4 + 64;
            }
            if goals.len() >= want {
                break;
            }
            continue;
        }
        occ[..cells].iter_mut().for_each(|o| *o = u8::MAX);
        for (i, &p) in pos.iter().enumerate().take(k + 1).skip(1) {
            occ[p] = i as u8;
        }
        let blank = pos[0];
        let parent_blank = match nodes[idx as usize].parent {
            u32::MAX => usize::MAX,
            p => (nodes[p as usize].state & 31) as usize,
        };
        let (r, c) = (blank / SIDE, blank % SIDE);
        let mut next = [usize::MAX; 4];
        if r > 0 {
            next[0] = blank - SIDE;
        }
        if c > 0 {
            next[1] = blank - 1;
        }
        if c + 1 < SIDE {
            next[2] = blank + 1;
        }
        if r + 1 < h {
            next[3] = blank + SIDE;
        }
        for q in next {
            if q == usize::MAX || q == parent_blank {
                continue;
            }
            let mut np = pos;
            if occ[q] != u8::MAX {
                np[occ[q] as usize] = blank;
            }
            np[0] = q;
            let ns = pack(&np[..=k]);
            let ng = g + 1;
            match best_g.entry(ns) {
                std::collections::hash_map::Entry::Occupied(mut e) => {
                    if *e.get() <= ng {
                        continue;
                    }
                    e.insert(ng);
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(ng);
                }
            }
            let f = wd * ng as u32 + wn * sub.h(&np);
            nodes.push(LNode {
                state: ns,
                parent: idx,
            });
            open.push((Reverse(f), ng, (nodes.len() - 1) as u32));
        }
    }
    Ok(goals
        .into_iter()
        .map(|gi| {
            let mut blanks = Vec::new();
            let mut i = gi;
            while nodes[i as usize].parent != u32::MAX {
                blanks.push((nodes[i as usize].state & 31) as usize);
                i = nodes[i as usize].parent;
            }
            blanks.reverse();
            blanks
        })
        .collect())
}

/// Play a path of blank cells on `b`, returning the tiles moved.
fn play_blanks(b: &mut Board, blanks: &[usize]) -> Vec<u16> {
    blanks
        .iter()
        .map(|&c| {
            let t = b.cells()[c] as u16;
            b.swap_blank(c);
            t
        })
        .collect()
}

/// A 5×5 board with its top row and left column home, reached by `tiles`.
struct Corner {
    tiles: Vec<u16>,
    board: Board,
    /// Moves spent plus the 4×4 tables' lower bound on the rest.
    score: u32,
}

fn corner(b: &Board, tiles: Vec<u16>, board: Board, set: &pdb::PdbSet) -> Result<Corner> {
    let (rest, _) = region(&board, 1, 1)?;
    let score = tiles.len() as u32 + set.heuristic(&rest)?;
    Ok(Corner {
        tiles: checked_prefix(b, tiles, &board)?,
        board,
        score,
    })
}

/// `tiles` must take `b` to `to` (a sub-goal); the caller's own check of the whole path
/// happens later, this catches a wrong sub-path early with a clear error.
fn checked_prefix(b: &Board, tiles: Vec<u16>, to: &Board) -> Result<Vec<u16>> {
    let mut r = b.clone();
    r.replay(&tiles)?;
    if r.cells() != to.cells() {
        return Err(Error::unsolvable(
            "a sub-goal path does not reach its state",
        ));
    }
    Ok(tiles)
}

/// The sub-goal searches of a 5×5 board `b` for "top row and left column home", their
/// results scored with the 4×4 tables `set`.
struct Corners<'a> {
    b: &'a Board,
    set: &'a pdb::PdbSet,
    cancel: &'a Cancel,
}

impl Corners<'_> {
    /// The top row and left column placed by the joint search (weight `w`), every goal found.
    fn joint(&self, w: (u32, u32), max_nodes: usize, limit: &Limit) -> Result<Vec<Corner>> {
        let (b, set, cancel) = (self.b, self.set, self.cancel);
        let sub = Sub {
            tiles: &L_TILES,
            height: SIDE,
        };
        let goals = sub_search(b, &sub, w, 6, max_nodes, limit, cancel)?;
        goals
            .into_iter()
            .map(|blanks| {
                let mut nb = b.clone();
                let tiles = play_blanks(&mut nb, &blanks);
                corner(b, tiles, nb, set)
            })
            .collect()
    }

    /// The top row first, then the left column of the 5×4 region below it (weight `w` each):
    /// far fewer nodes than the joint search, slightly longer paths. The best few row goals are
    /// each continued.
    fn split(&self, w: (u32, u32), max_nodes: usize, limit: &Limit) -> Result<Vec<Corner>> {
        let (b, set, cancel) = (self.b, self.set, self.cancel);
        let row = Sub {
            tiles: &ROW_TILES,
            height: SIDE,
        };
        let col = Sub {
            tiles: &COL_TILES,
            height: SIDE - 1,
        };
        let mut out = Vec::new();
        for blanks in sub_search(b, &row, w, 3, max_nodes, limit, cancel)? {
            let mut nb = b.clone();
            let mut tiles = play_blanks(&mut nb, &blanks);
            let (lower, back) = region(&nb, 1, 0)?;
            let Some(cb) = sub_search(&lower, &col, w, 1, max_nodes, limit, cancel)?
                .into_iter()
                .next()
            else {
                break;
            };
            let mut lb = lower.clone();
            let local = play_blanks(&mut lb, &cb);
            for &t in &local {
                let t = back[t as usize];
                let c = nb
                    .position(t)
                    .ok_or_else(|| Error::unsolvable("a split path moved a missing tile"))?;
                nb.swap_blank(c);
                tiles.push(t);
            }
            out.push(corner(b, tiles, nb, set)?);
        }
        Ok(out)
    }
}

/// Node cap of each split search (row, column): enough for weight 3/2 on most boards.
const SPLIT_NODES: usize = 200_000;

/// A 5×5 board seen another way, so that the sub-goal searches (which place the top row and
/// left column first) make different choices: transposed (mirror along the main diagonal)
/// and/or reversed (solved from the goal towards the board, with tiles relabelled).
#[derive(Clone, Copy, Debug)]
struct View {
    transpose: bool,
    reverse: bool,
}

/// The views [`solve_5x5`] tries, in order.
const VIEWS: [View; 4] = [
    View {
        transpose: false,
        reverse: false,
    },
    View {
        transpose: true,
        reverse: false,
    },
    View {
        transpose: false,
        reverse: true,
    },
    View {
        transpose: true,
        reverse: true,
    },
];

/// The mirror of a 5×5 cell along the main diagonal.
fn flip(c: usize) -> usize {
    c % SIDE * SIDE + c / SIDE
}

/// Tile `t` of the mirrored board (its goal cell mirrored).
fn flip_tile(t: u8) -> u8 {
    if t == 0 {
        0
    } else {
        flip(t as usize - 1) as u8 + 1
    }
}

/// The 5×5 board `b` mirrored along the main diagonal (same distance to the goal).
fn transposed(b: &Board) -> Result<Board> {
    let cells: Vec<u16> = (0..CELLS)
        .map(|c| flip_tile(b.cells()[flip(c)]) as u16)
        .collect();
    Board::new(SIDE, SIDE, &cells)
}

impl View {
    /// The board this view solves, and the moves (on `b`) played before its solution.
    /// Reversed: the blank of `b` is first walked to the corner (position `s`); the view is
    /// the goal relabelled so that `s` reads as the goal, whose solutions, reversed and
    /// relabelled back, lead from `s` to the goal.
    fn board(&self, b: &Board) -> Result<(Board, Vec<u16>, Vec<u16>)> {
        let mut s = b.clone();
        let mut pre = Vec::new();
        let mut back: Vec<u16> = (0..CELLS as u16).collect();
        let mut v = b.clone();
        if self.reverse {
            while s.blank() % SIDE + 1 < SIDE {
                let t = s.cells()[s.blank() + 1] as u16;
                s.step(t)?;
                pre.push(t);
            }
            while s.blank() / SIDE + 1 < SIDE {
                let t = s.cells()[s.blank() + SIDE] as u16;
                s.step(t)?;
                pre.push(t);
            }
            // Label of tile t in the view: the cell it holds in `s`, plus one.
            let mut label = [0u16; CELLS];
            for (c, &t) in s.cells().iter().enumerate() {
                if t != 0 {
                    label[t as usize] = c as u16 + 1;
                    back[c + 1] = t as u16;
                }
            }
            let goal = Board::solved(SIDE, SIDE)?;
            let cells: Vec<u16> = goal.cells().iter().map(|&t| label[t as usize]).collect();
            v = Board::new(SIDE, SIDE, &cells)?;
        }
        if self.transpose {
            v = transposed(&v)?;
        }
        Ok((v, pre, back))
    }

    /// A solution of `b` from a solution `tiles` of its view (`pre`, `back` from [`board`]).
    fn solution(&self, pre: Vec<u16>, back: &[u16], mut tiles: Vec<u16>) -> Vec<u16> {
        if self.transpose {
            tiles.iter_mut().for_each(|t| *t = flip_tile(*t as u8) as u16);
        }
        if self.reverse {
            // The view's path goes from the relabelled goal to the relabelled `s`; each of
            // its moves, undone in reverse order, moves the same tile back.
            tiles.reverse();
            tiles.iter_mut().for_each(|t| *t = back[*t as usize]);
        }
        let mut out = pre;
        out.extend(tiles);
        out
    }
}

/// A near-optimal solution of a 5×5 board within `limit` (node caps apply in any case).
///
/// Each of the four [`VIEWS`] of the board (itself, mirrored, reversed, both) gets an equal
/// share of the first [`VIEW_SHARE`] of the budget for [`solve_5x5_with`]; the shortest
/// solution found is then shortened by [`shorten`] with what is left. If no view found a
/// sub-goal state in time, the reduction solver does it all.
pub(super) fn solve_5x5(b: &Board, limit: &Limit, cancel: &Cancel) -> Result<Path> {
    if (b.width(), b.height()) != (SIDE, SIDE) {
        return Err(Error::range("solve_5x5 takes a 5x5 board"));
    }
    let start = limit.now();
    let mut best: Option<Vec<u16>> = None;
    let mut nodes = 0u64;
    for (i, view) in VIEWS.iter().enumerate() {
        if i > 0 && limit.expired() {
            break;
        }
        let lim = part(limit, start, VIEW_SHARE * (i + 1) as f64 / VIEWS.len() as f64);
        let (vb, pre, back) = view.board(b)?;
        let Some(p) = solve_5x5_with(&vb, &lim, cancel, false)? else {
            continue;
        };
        nodes += p.nodes;
        let tiles = checked(b, view.solution(pre, &back, p.tiles))?;
        if best.as_ref().is_none_or(|t| tiles.len() < t.len()) {
            best = Some(tiles);
        }
    }
    let Some(tiles) = best else {
        // The sub-goal searches ran out: the reduction solver, finished on the 4×4.
        return solve_reduced(b, limit, cancel);
    };
    // Shortening stops a little before the deadline: it has no result to wait for, and a
    // loaded machine may pause the thread between two looks at the clock.
    let lim = part(limit, start, SHORTEN_END).or_nodes(SHORTEN_NODES);
    let tiles = shorten(b, tiles, &lim, cancel, &mut nodes)?;
    Ok(Path::near(checked(b, tiles)?, nodes))
}

/// The part of a 5×5 budget the views' searches share; the rest shortens the best path.
const VIEW_SHARE: f64 = 0.6;
/// Where in the budget [`shorten`] stops: well before the deadline, as a loaded phone may
/// pause the thread for tens of milliseconds between two looks at the clock.
const SHORTEN_END: f64 = 0.85;
/// Node cap of [`shorten`] without a deadline.
const SHORTEN_NODES: u64 = 4_000_000;

/// Node cap of each sub-goal search of a 5×5 region inside a bigger board.
const LIGHT_NODES: usize = 40_000;

/// [`solve_5x5`]'s searches (`light`: only the two weight-3 ones, with small node caps, for
/// a region of a bigger board); `None` when no sub-goal state was found in time.
fn solve_5x5_with(b: &Board, limit: &Limit, cancel: &Cancel, light: bool) -> Result<Option<Path>> {
    if (b.width(), b.height()) != (SIDE, SIDE) {
        return Err(Error::range("solve_5x5 takes a 5x5 board"));
    }
    let start = limit.now();
    let set = pdb::pdb(4, 4).ok_or_else(pdb::tables_missing)?;
    let (split_nodes, joint_nodes) = if light {
        (LIGHT_NODES, LIGHT_NODES)
    } else {
        (SPLIT_NODES, L_NODES)
    };
    let corners = Corners { b, set, cancel };
    let mut cands = corners.split((3, 1), split_nodes, &part(limit, start, 0.25))?;
    if cands.is_empty() && !limit.expired() {
        cands = corners.split((6, 1), split_nodes, &part(limit, start, 0.35))?;
    }
    let plan: &[(bool, (u32, u32), f64)] = if light {
        &[(false, (3, 1), 0.5)]
    } else {
        &[
            (false, (3, 1), 0.5),
            (true, (2, 1), 0.6),
            (false, (5, 2), 0.75),
        ]
    };
    for &(split, w, frac) in plan {
        if limit.expired() {
            break;
        }
        let lim = part(limit, start, frac);
        cands.extend(if split {
            corners.split(w, split_nodes, &lim)?
        } else {
            corners.joint(w, joint_nodes, &lim)?
        });
    }
    let Some(best) = cands.into_iter().min_by_key(|c| c.score) else {
        return Ok(None);
    };
    let (sub, back) = region(&best.board, 1, 1)?;
    let rest = if light {
        anytime_pdb(&sub, limit, cancel)?
    } else {
        anytime_pdb_capped(&sub, limit, cancel)?
    };
    let nodes = rest.nodes;
    let mut tiles = best.tiles;
    tiles.extend(rest.tiles.into_iter().map(|t| back[t as usize]));
    Ok(Some(Path::near(checked(b, tiles)?, nodes)))
}

/// Boards other than the 4×4 class and 5×5: reduce to a 5×5 or 4×4 region, finish it near
/// optimally.
pub(super) fn solve_reduced(b: &Board, limit: &Limit, cancel: &Cancel) -> Result<Path> {
    let region_limit = limit.or_nodes(REGION_NODES);
    let tiles = reduce::solve_with_finish(b, cancel, &mut |sub: &Board| match (
        sub.width(),
        sub.height(),
    ) {
        (4, 4) => anytime_pdb(sub, &region_limit, cancel).map(|p| Some(p.tiles)),
        (5, 5) => Ok(solve_5x5_with(sub, &region_limit, cancel, true)?.map(|p| p.tiles)),
        _ => Ok(None),
    })?;
    Ok(Path::near(checked(b, tiles)?, 0))
}

/// Drop the cycles of `tiles` and check that the result solves `b`.
fn checked(b: &Board, tiles: Vec<u16>) -> Result<Vec<u16>> {
    let short = drop_cycles(b, &tiles);
    let mut r = b.clone();
    if r.replay(&short).is_ok() && r.is_solved() {
        return Ok(short);
    }
    let mut r = b.clone();
    r.replay(&tiles)?;
    if !r.is_solved() {
        return Err(Error::unsolvable(
            "the solver's path does not reach the goal",
        ));
    }
    Ok(tiles)
}

/// Remove every stretch of `tiles` that comes back to a position already visited (Zobrist
/// hashes of the positions along the path; the caller checks the result by replay).
pub(super) fn drop_cycles(b: &Board, tiles: &[u16]) -> Vec<u16> {
    let n = b.len();
    // Zobrist keys of (tile, cell), from a fixed generator.
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut key = vec![0u64; n * n];
    for k in key.iter_mut() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        *k = x;
    }
    let mut cells = b.cells().to_vec();
    let mut blank = b.blank();
    let mut hash = cells
        .iter()
        .enumerate()
        .fold(0u64, |a, (c, &t)| a ^ key[t as usize * n + c]);
    let mut kept: Vec<u16> = Vec::with_capacity(tiles.len());
    // hashes[i] = hash after kept[..i].
    let mut hashes: Vec<u64> = vec![hash];
    let mut at: HashMap<u64, usize, Fast> = HashMap::default();
    at.insert(hash, 0);
    let w = b.width();
    for &t in tiles {
        let Some(q) = cells.iter().position(|&c| c as u16 == t) else {
            return tiles.to_vec();
        };
        if q.abs_diff(blank) != w && !(q.abs_diff(blank) == 1 && q / w == blank / w) {
            return tiles.to_vec();
        }
        hash ^= key[t as usize * n + q] ^ key[t as usize * n + blank];
        hash ^= key[blank] ^ key[q];
        cells[blank] = t as u8;
        cells[q] = 0;
        blank = q;
        if let Some(&i) = at.get(&hash) {
            for h in hashes.drain(i + 1..) {
                at.remove(&h);
            }
            kept.truncate(i);
        } else {
            kept.push(t);
            hashes.push(hash);
            at.insert(hash, kept.len());
        }
    }
    kept
}

// ---------------------------------------------------------------------------------------
// Windowed re-optimisation: shorter connections between two positions of a path.

/// Linear conflicts of one line of 5 cells, by the line's code: digit `i` (base 6) of the code
/// is 0 for a cell whose tile has its target off the line, else 1 + the target's place on it.
/// The value is how many tiles must leave the line (all but an in-order subset).
fn line_conflicts() -> &'static [u8; LINE_CODES] {
    static T: std::sync::OnceLock<Box<[u8; LINE_CODES]>> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let mut t = Box::new([0u8; LINE_CODES]);
        for (code, v) in t.iter_mut().enumerate() {
            let mut g = [0u8; SIDE];
            let mut k = 0;
            let mut x = code;
            for _ in 0..SIDE {
                if x % 6 != 0 {
                    g[k] = (x % 6) as u8;
                    k += 1;
                }
                x /= 6;
            }
            *v = must_leave(&g[..k]);
        }
        t
    })
}

/// Codes of a 5-cell line (6⁵).
const LINE_CODES: usize = 7776;
const POW6: [u16; SIDE] = [1, 6, 36, 216, 1296];

/// Of `goals` (target places along a line, in the order the tiles stand on it), how many
/// must leave the line: the count minus the longest increasing run.
fn must_leave(goals: &[u8]) -> u8 {
    let mut lis = [0u8; SIDE];
    let mut best = 0;
    for i in 0..goals.len() {
        lis[i] = 1;
        for j in 0..i {
            if goals[j] < goals[i] {
                lis[i] = lis[i].max(lis[j] + 1);
            }
        }
        best = best.max(lis[i]);
    }
    goals.len() as u8 - best
}

/// An IDA* on the 5×5 board from one concrete position to another, with the Manhattan
/// distance between the two plus linear conflicts (tiles in their target row or column in
/// the wrong order: all but an in-order subset must step out and back) as the heuristic.
struct Window<'a> {
    cells: [u8; CELLS],
    /// `dist[t][c]`: Manhattan distance from cell `c` to tile `t`'s target cell.
    dist: [[u8; CELLS]; CELLS],
    /// `row_dig[t][c]`, `col_dig[t][c]`: what tile `t` on cell `c` adds to the code of its row
    /// (column); see [`line_conflicts`].
    row_dig: [[u16; CELLS]; CELLS],
    col_dig: [[u16; CELLS]; CELLS],
    row_code: [u16; SIDE],
    col_code: [u16; SIDE],
    lc: &'static [u8; LINE_CODES],
    nbr: [[u8; 4]; CELLS],
    /// Tiles moved so far on the current branch.
    line: Vec<u16>,
    nodes: u64,
    cap: u64,
    limit: &'a Limit<'a>,
    cancel: &'a Cancel,
    cancelled: bool,
}

/// What one bounded depth-first pass of [`Window`] ended with.
enum Pass {
    Found,
    /// Not within the bound; the least f above it seen (`u32::MAX`: none).
    Above(u32),
    Stopped,
}

impl Window<'_> {
    fn lc_sum(&self) -> u32 {
        self.row_code
            .iter()
            .chain(&self.col_code)
            .map(|&c| self.lc[c as usize] as u32)
            .sum()
    }

    /// Depth-first below the position (blank at `blank`, reached from `prev`) at depth `g`
    /// whose Manhattan distance is `md` and linear-conflict count `lc`, within `bound`.
    fn dfs(&mut self, blank: usize, prev: usize, g: u32, md: u32, lc: u32, bound: u32) -> Pass {
        if md == 0 {
            return Pass::Found;
        }
        self.nodes += 1;
        if self.nodes >= self.cap {
            return Pass::Stopped;
        }
        if self.nodes & 0x3FF == 0 {
            if self.cancel.is_cancelled() {
                self.cancelled = true;
                return Pass::Stopped;
            }
            if self.limit.expired() {
                return Pass::Stopped;
            }
        }
        let mut least = u32::MAX;
        for i in 0..4 {
            let q = self.nbr[blank][i] as usize;
            if q == usize::from(u8::MAX) || q == prev {
                continue;
            }
            let t = self.cells[q] as usize;
            let nmd = md + self.dist[t][blank] as u32 - self.dist[t][q] as u32;
            let vertical = i == 0 || i == 3;
            // A vertical move changes the conflicts of two rows and only the code of its
            // column (the order there stays); a horizontal one the other way round.
            let (codes, other, a, b, c, dig, odig) = if vertical {
                let (rc, cc) = (&mut self.row_code, &mut self.col_code);
                (rc, cc, q / SIDE, blank / SIDE, q % SIDE, &self.row_dig[t], &self.col_dig[t])
            } else {
                let (rc, cc) = (&mut self.col_code, &mut self.row_code);
                (rc, cc, q % SIDE, blank % SIDE, q / SIDE, &self.col_dig[t], &self.row_dig[t])
            };
            let (oa, ob, oc) = (codes[a], codes[b], other[c]);
            let (na, nb) = (oa - dig[q], ob + dig[blank]);
            let lc_t = self.lc;
            let nlc = lc + lc_t[na as usize] as u32 + lc_t[nb as usize] as u32
                - lc_t[oa as usize] as u32
                - lc_t[ob as usize] as u32;
            let f = g + 1 + nmd + 2 * nlc;
            if f > bound {
                least = least.min(f);
                continue;
            }
            codes[a] = na;
            codes[b] = nb;
            other[c] = oc - odig[q] + odig[blank];
            self.cells[blank] = t as u8;
            self.cells[q] = 0;
            self.line.push(t as u16);
            let r = self.dfs(q, blank, g + 1, nmd, nlc, bound);
            if matches!(r, Pass::Found) {
                return r;
            }
            self.line.pop();
            self.cells[q] = t as u8;
            self.cells[blank] = 0;
            let (codes, other) = if vertical {
                (&mut self.row_code, &mut self.col_code)
            } else {
                (&mut self.col_code, &mut self.row_code)
            };
            codes[a] = oa;
            codes[b] = ob;
            other[c] = oc;
            match r {
                Pass::Above(f) => least = least.min(f),
                _ => return r,
            }
        }
        Pass::Above(least)
    }
}

/// The shortest way from position `from` to position `to` (5×5 cells) if it takes at most
/// `max_len` moves, by IDA*; `Ok(None)` when there is none that short or when `cap` nodes or
/// `limit` ran out first. The nodes spent are added to `spent`.
fn connect(
    from: &[u8],
    to: &[u8],
    max_len: u32,
    (cap, limit): (u64, &Limit),
    cancel: &Cancel,
    spent: &mut u64,
) -> Result<Option<Vec<u16>>> {
    if from.len() != CELLS || to.len() != CELLS {
        return Err(Error::range("a window search takes two 5x5 positions"));
    }
    let mut target = [u8::MAX; CELLS];
    for (c, &t) in to.iter().enumerate() {
        if (t as usize) < CELLS {
            target[t as usize] = c as u8;
        }
    }
    let mut seen = [false; CELLS];
    for &t in from {
        if let Some(s) = seen.get_mut(t as usize) {
            *s = true;
        }
    }
    if target.contains(&u8::MAX) || seen.contains(&false) {
        return Err(Error::range("a window's positions hold different tiles"));
    }
    let mut s = Window {
        cells: [0; CELLS],
        dist: [[0; CELLS]; CELLS],
        row_dig: [[0; CELLS]; CELLS],
        col_dig: [[0; CELLS]; CELLS],
        row_code: [0; SIDE],
        col_code: [0; SIDE],
        lc: line_conflicts(),
        nbr: [[u8::MAX; 4]; CELLS],
        line: Vec::with_capacity(max_len as usize),
        nodes: 0,
        cap,
        limit,
        cancel,
        cancelled: false,
    };
    s.cells.copy_from_slice(from);
    for (t, &g) in target.iter().enumerate().skip(1) {
        let g = g as usize;
        for c in 0..CELLS {
            s.dist[t][c] = md5(c, g) as u8;
            if c / SIDE == g / SIDE {
                s.row_dig[t][c] = (1 + (g % SIDE) as u16) * POW6[c % SIDE];
            }
            if c % SIDE == g % SIDE {
                s.col_dig[t][c] = (1 + (g / SIDE) as u16) * POW6[c / SIDE];
            }
        }
    }
    for c in 0..CELLS {
        let (r, col) = (c / SIDE, c % SIDE);
        let v = &mut s.nbr[c];
        if r > 0 {
            v[0] = (c - SIDE) as u8;
        }
        if col > 0 {
            v[1] = (c - 1) as u8;
        }
        if col + 1 < SIDE {
            v[2] = (c + 1) as u8;
        }
        if r + 1 < SIDE {
            v[3] = (c + SIDE) as u8;
        }
    }
    let mut blank = usize::MAX;
    let mut md = 0;
    for (c, &t) in from.iter().enumerate() {
        let t = t as usize;
        if t == 0 {
            blank = c;
            continue;
        }
        md += s.dist[t][c] as u32;
        s.row_code[c / SIDE] += s.row_dig[t][c];
        s.col_code[c % SIDE] += s.col_dig[t][c];
    }
    if blank == usize::MAX {
        return Err(Error::range("a window's position has no blank"));
    }
    let lc = s.lc_sum();
    let mut bound = md + 2 * lc;
    let found = loop {
        if bound > max_len {
            break None;
        }
        match s.dfs(blank, usize::MAX, 0, md, lc, bound) {
            Pass::Found => break Some(std::mem::take(&mut s.line)),
            Pass::Stopped | Pass::Above(u32::MAX) => break None,
            Pass::Above(f) => bound = f,
        }
    };
    *spent += s.nodes;
    if s.cancelled {
        return Err(Error::cancelled());
    }
    Ok(found)
}

/// Window lengths tried by [`shorten`], in order, and the node cap of one window's search.
const WINDOWS: [usize; 7] = [20, 30, 40, 50, 60, 70, 80];
const WINDOW_NODES: u64 = 200_000;

/// Shorten `tiles`, a path from `b`: for windows of the path (position `i` to position
/// `i + k`, `k` from [`WINDOWS`], windows overlapping by half), a bounded IDA* looks for a
/// shorter connection and splices it in; until every window length is done, `limit` (a
/// deadline and/or a total node count) runs out, or nothing changes. Deterministic without a
/// deadline. The nodes spent are added to `spent`.
fn shorten(
    b: &Board,
    mut tiles: Vec<u16>,
    limit: &Limit,
    cancel: &Cancel,
    spent: &mut u64,
) -> Result<Vec<u16>> {
    if (b.width(), b.height()) != (SIDE, SIDE) {
        return Ok(tiles);
    }
    let budget = limit.nodes.unwrap_or(u64::MAX);
    let start_spent = *spent;
    let states = |tiles: &[u16]| -> Result<Vec<Vec<u8>>> {
        let mut r = b.clone();
        let mut v = Vec::with_capacity(tiles.len() + 1);
        v.push(r.cells().to_vec());
        for &t in tiles {
            r.step(t)?;
            v.push(r.cells().to_vec());
        }
        Ok(v)
    };
    // Rounds over every window length, at two offsets; another round only while the last
    // one made the path shorter.
    for _ in 0..SHORTEN_ROUNDS {
        let before = tiles.len();
        for &k in &WINDOWS {
            for offset in [0, k / 4] {
                let mut st = states(&tiles)?;
                let mut i = offset;
                while i + k <= tiles.len() {
                    if limit.expired() || *spent - start_spent >= budget {
                        return Ok(tiles);
                    }
                    let cap = WINDOW_NODES.min(budget - (*spent - start_spent));
                    let (from, to) = (&st[i], &st[i + k]);
                    if let Some(line) =
                        connect(from, to, k as u32 - 2, (cap, limit), cancel, spent)?
                    {
                        tiles.splice(i..i + k, line);
                        st = states(&tiles)?;
                    }
                    i += k / 2;
                }
            }
        }
        if tiles.len() == before {
            break;
        }
    }
    Ok(tiles)
}

/// Most rounds of [`shorten`].
const SHORTEN_ROUNDS: usize = 3;

#[cfg(test)]
mod tests {
    use super::*;

    fn corner_home(b: &Board) -> bool {
        L_TILES.iter().all(|&t| b.cells()[t as usize - 1] == t)
    }

    #[test]
    fn split_and_joint_corners_place_the_row_and_column() {
        let set = pdb::pdb(4, 4).unwrap();
        let cancel = Cancel::new();
        for seed in 0..4 {
            let b = super::super::generate(5, 5, None, seed).unwrap();
            let corners = Corners {
                b: &b,
                set,
                cancel: &cancel,
            };
            let split = corners.split((3, 1), SPLIT_NODES, &Limit::NONE).unwrap();
            let joint = corners.joint((3, 1), L_NODES, &Limit::NONE).unwrap();
            assert!(!split.is_empty(), "seed {seed}: no split corner");
            for c in split.iter().chain(&joint) {
                let mut r = b.clone();
                r.replay(&c.tiles).unwrap();
                assert_eq!(r.cells(), c.board.cells());
                assert!(corner_home(&r), "seed {seed}: corner not home");
                let (rest, _) = region(&r, 1, 1).unwrap();
                assert_eq!(
                    c.score,
                    c.tiles.len() as u32 + set.heuristic(&rest).unwrap()
                );
            }
        }
    }

    #[test]
    fn a_sub_goal_search_rejects_a_board_of_the_wrong_width() {
        let b = Board::new(
            4,
            4,
            &(0..16).map(|i| ((i + 1) % 16) as u16).collect::<Vec<_>>(),
        )
        .unwrap();
        let sub = Sub {
            tiles: &ROW_TILES,
            height: SIDE,
        };
        let r = sub_search(&b, &sub, (3, 1), 1, 100, &Limit::NONE, &Cancel::new());
        assert!(r.is_err());
    }

    /// Korf & Taylor's 24-puzzle instances 1 and 25 (goal blank top-left) with their
    /// optimal lengths.
    const KORF24: [(usize, &str); 2] = [
        (
            95,
            "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13",
        ),
        (
            81,
            "3 17 9 8 24 1 11 12 14 0 5 4 22 13 16 21 15 6 7 10 20 23 2 18 19",
        ),
    ];

    /// A Korf & Taylor instance in this game's goal: turned 180°, tile t → 25 − t (the same
    /// distance).
    fn korf24(text: &str) -> Board {
        let orig: Vec<u16> = text.split(' ').map(|t| t.parse().unwrap()).collect();
        let ours: Vec<u16> = orig
            .iter()
            .rev()
            .map(|&t| if t == 0 { 0 } else { 25 - t })
            .collect();
        Board::new(5, 5, &ours).unwrap()
    }

    fn solves(b: &Board, tiles: &[u16]) -> bool {
        let mut r = b.clone();
        r.replay(tiles).is_ok() && r.is_solved()
    }

    /// Positions reachable from `b` in at most `depth` moves, by breadth-first search: the
    /// exact distance to `to`, if within `depth`.
    fn bfs_distance(b: &Board, to: &Board, depth: usize) -> Option<usize> {
        let mut seen = std::collections::HashSet::new();
        let mut layer = vec![b.clone()];
        seen.insert(b.cells().to_vec());
        for d in 0..=depth {
            if layer.iter().any(|x| x.cells() == to.cells()) {
                return Some(d);
            }
            let mut next = Vec::new();
            for x in &layer {
                for q in x.neighbours(x.blank()) {
                    let mut y = x.clone();
                    y.swap_blank(q);
                    if seen.insert(y.cells().to_vec()) {
                        next.push(y);
                    }
                }
            }
            layer = next;
        }
        None
    }

    #[test]
    fn a_window_search_finds_the_exact_distance() {
        // Random walks from a scrambled board; the window search's length must equal the
        // breadth-first distance (an inadmissible heuristic would give longer ones).
        let cancel = Cancel::new();
        let mut x = 0x9E37_79B9u64;
        for walk in 0..12 {
            let from = super::super::generate(5, 5, None, walk).unwrap();
            let mut to = from.clone();
            let mut prev = usize::MAX;
            for _ in 0..14 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let nb: Vec<usize> = to
                    .neighbours(to.blank())
                    .into_iter()
                    .filter(|&q| q != prev)
                    .collect();
                prev = to.blank();
                to.swap_blank(nb[x as usize % nb.len()]);
            }
            let exact = bfs_distance(&from, &to, 14).unwrap();
            let mut spent = 0;
            let lim = Limit::NONE;
            let line = connect(from.cells(), to.cells(), 14, (1 << 22, &lim), &cancel, &mut spent)
                .unwrap()
                .unwrap();
            assert_eq!(line.len(), exact, "walk {walk}");
            let mut r = from.clone();
            r.replay(&line).unwrap();
            assert_eq!(r.cells(), to.cells());
            if exact >= 2 {
                let shorter = connect(
                    from.cells(),
                    to.cells(),
                    exact as u32 - 2,
                    (1 << 22, &lim),
                    &cancel,
                    &mut spent,
                )
                .unwrap();
                assert!(shorter.is_none(), "walk {walk}");
            }
        }
    }

    #[test]
    fn a_window_search_rejects_positions_of_different_boards() {
        let a = super::super::generate(5, 5, None, 1).unwrap();
        let lim = Limit::NONE;
        let mut spent = 0;
        let small = vec![0u8; 16];
        let r = connect(a.cells(), &small, 10, (100, &lim), &Cancel::new(), &mut spent);
        assert!(r.is_err());
        let mut twice = a.cells().to_vec();
        twice[0] = twice[1];
        let r = connect(&twice, a.cells(), 10, (100, &lim), &Cancel::new(), &mut spent);
        assert!(r.is_err());
    }

    #[test]
    fn shortening_keeps_a_solution_and_never_lengthens_it() {
        let cancel = Cancel::new();
        for seed in 0..3 {
            let b = super::super::generate(5, 5, None, seed).unwrap();
            let plain = reduce::solve_fast(&b, &cancel).unwrap();
            let mut spent = 0;
            let lim = Limit {
                deadline: None,
                nodes: Some(2_000_000),
            };
            let short = shorten(&b, plain.clone(), &lim, &cancel, &mut spent).unwrap();
            assert!(solves(&b, &short), "seed {seed}");
            assert!(short.len() < plain.len(), "seed {seed}: {} moves", short.len());
            assert!(spent <= 2_000_000 + WINDOW_NODES, "seed {seed}: {spent} nodes");
        }
    }

    #[test]
    fn every_view_maps_its_solutions_back() {
        let cancel = Cancel::new();
        for seed in 0..4 {
            let b = super::super::generate(5, 5, None, seed).unwrap();
            for view in VIEWS {
                let (vb, pre, back) = view.board(&b).unwrap();
                assert!(vb.is_solvable(), "seed {seed} {view:?}");
                let tiles = reduce::solve_fast(&vb, &cancel).unwrap();
                let sol = view.solution(pre, &back, tiles);
                assert!(solves(&b, &sol), "seed {seed} {view:?}");
            }
        }
    }

    #[test]
    fn korf_and_taylor_instances_come_within_a_bound_of_optimal() {
        // No deadline: node caps only, so the lengths depend only on the board.
        let cancel = Cancel::new();
        for (opt, text) in KORF24 {
            let b = korf24(text);
            let p = solve_5x5(&b, &Limit::NONE, &cancel).unwrap();
            assert!(solves(&b, &p.tiles));
            assert!(p.tiles.len() >= opt);
            let ratio = p.tiles.len() as f64 / opt as f64;
            assert!(ratio <= 1.25, "optimal {opt}: {} moves", p.tiles.len());
        }
    }
}
