//! Near-optimal solutions within a budget.
//!
//! - **4×4 class** (sizes with pattern databases), [`anytime_pdb`]: a weighted IDA* (weight 2)
//!   gives a solution in a few thousand nodes; then the optimal IDA* runs until most of the
//!   budget is spent; if it has not finished, weighted searches with smaller weights (3/2, 5/4)
//!   try to shorten the path with what is left. The shortest path found is returned, flagged
//!   optimal only when the optimal search finished.
//! - **5×5**, [`solve_5x5`]: the top row and the left column (9 tiles) are placed together by
//!   a weighted A* over (cells of those 9 tiles, blank cell) — the other tiles are
//!   indistinguishable there, so that search is exact for the sub-goal — with the Manhattan
//!   distance of the 9 tiles plus the blank's distance to them as the heuristic. Several
//!   sub-goal states are collected and the one whose remaining 4×4 has the smallest 4×4
//!   pattern-database value (plus the moves spent) is finished by [`anytime_pdb`].
//! - **bigger boards**: the reduction solver (`reduce.rs`) down to a 5×5 (or 4×4) region,
//!   which is then finished as above with a small budget.
//!
//! Every path is passed through [`drop_cycles`] (a position visited twice loses the moves in
//! between) and checked by replay before it is returned.
//!
//! Budgets are a wall-clock deadline and/or node counts ([`Limit`]). Without a deadline every
//! result depends only on the board (node counts are deterministic).

use super::board::Board;
use super::pdb::{self, Limit, Weight};
use super::reduce;
use crate::error::{Error, Result};
use crate::game::Cancel;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::time::{Duration, Instant};

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

/// Node caps when no deadline is given (about 0.1 s each on the reference machine), and as
/// the memory bound of the 5×5 sub-goal search.
const PDB_NODES: u64 = 1_500_000;
const L_NODES: usize = 400_000;
/// Node cap of a 4×4 region finished inside a bigger board.
const REGION_NODES: u64 = 200_000;

/// The part of `limit` that ends at `frac` of the time left after `start`.
fn part(limit: &Limit, start: Instant, frac: f64) -> Limit {
    Limit {
        deadline: limit.deadline.map(|d| {
            let left = d.saturating_duration_since(start);
            start + Duration::from_secs_f64(left.as_secs_f64() * frac)
        }),
        nodes: limit.nodes,
    }
}

/// A solution of `b` (a pattern-database size) within `limit`: optimal when the optimal
/// search finishes in time, otherwise the shortest path the weighted searches found (never
/// worse than the reduction solver's).
pub(super) fn anytime_pdb(b: &Board, limit: &Limit, cancel: &Cancel) -> Result<Path> {
    let start = Instant::now();
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
    Ok(Path {
        tiles,
        optimal: false,
        nodes,
    })
}

/// [`anytime_pdb`] with the default node caps when `limit` has none.
pub(super) fn anytime_pdb_capped(b: &Board, limit: &Limit, cancel: &Cancel) -> Result<Path> {
    let limit = Limit {
        deadline: limit.deadline,
        nodes: Some(limit.nodes.unwrap_or(PDB_NODES)),
    };
    anytime_pdb(b, &limit, cancel)
}

/// The bottom-right region of `b` from row `r0`, column `c0` (every tile outside it home),
/// relabelled as a board of its own, with the map from its tile numbers back to `b`'s.
pub(super) fn region(b: &Board, r0: usize, c0: usize) -> Result<(Board, Vec<u16>)> {
    let (w, h) = (b.width(), b.height());
    let (rw, rh) = (w - c0, h - r0);
    let mut sub = Vec::with_capacity(rw * rh);
    let mut back = vec![0u16; rw * rh + 1];
    for r in r0..h {
        for c in c0..w {
            let t = b.cells()[r * w + c] as usize;
            if t == 0 {
                sub.push(0u16);
                continue;
            }
            let (gr, gc) = ((t - 1) / w, (t - 1) % w);
            if gr < r0 || gc < c0 {
                return Err(Error::unsolvable(format!(
                    "tile {t} belongs outside the region being finished"
                )));
            }
            let local = (gr - r0) * rw + (gc - c0) + 1;
            back[local] = t as u16;
            sub.push(local as u16);
        }
    }
    Ok((Board::new(rw, rh, &sub)?, back))
}

// ---------------------------------------------------------------------------------------
// 5×5: the top row and left column by weighted A*, then the 4×4.

/// The tiles of the 5×5 top row and left column, in slot order (slot 0 of a state is the blank).
const L_TILES: [u8; 9] = [1, 2, 3, 4, 5, 6, 11, 16, 21];
const SIDE: usize = 5;
const CELLS: usize = 25;

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

/// Packed state: slot `i` (0 = blank, 1… = `L_TILES`) in bits `5i..5i+5`.
fn unpack(s: u64, pos: &mut [usize; 10]) {
    for (i, p) in pos.iter_mut().enumerate() {
        *p = ((s >> (5 * i)) & 31) as usize;
    }
}

fn pack(pos: &[usize; 10]) -> u64 {
    pos.iter()
        .enumerate()
        .fold(0u64, |a, (i, &p)| a | (p as u64) << (5 * i))
}

/// Lower bound on the moves that bring every `L_TILES` tile home: their Manhattan distance,
/// plus the blank's way to the nearest misplaced one (it must stand next to it first).
fn l_heuristic(pos: &[usize; 10]) -> u32 {
    let mut h = 0;
    let mut near = u32::MAX;
    for (i, &t) in L_TILES.iter().enumerate() {
        let d = md5(pos[i + 1], t as usize - 1);
        if d > 0 {
            h += d;
            near = near.min(md5(pos[0], pos[i + 1]));
        }
    }
    if h == 0 {
        return 0;
    }
    // Linear conflicts in the top row (tiles 1…5) and the left column (1, 6, 11, 16, 21):
    // of the tiles standing in their goal line, all but an in-order subset must leave it
    // and come back (2 moves each); row and column conflicts add up (each counts moves
    // across a different axis).
    let mut row = [0u8; SIDE];
    let mut nr = 0;
    let mut col = [0u8; SIDE];
    let mut nc = 0;
    for (i, &t) in L_TILES.iter().enumerate() {
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

/// For tiles given as `current · 5 + goal` (on one line), how many must leave the line so that
/// the rest stand in goal order: the count minus the longest increasing run of goals.
fn out_of_order(v: &mut [u8]) -> u32 {
    v.sort_unstable();
    let mut lis = [0u8; SIDE];
    let mut best = 0;
    for i in 0..v.len() {
        lis[i] = 1;
        for j in 0..i {
            if (v[j] % SIDE as u8) < (v[i] % SIDE as u8) {
                lis[i] = lis[i].max(lis[j] + 1);
            }
        }
        best = best.max(lis[i]);
    }
    (v.len() - best as usize) as u32
}

struct LNode {
    state: u64,
    parent: u32,
}

/// Weighted A* for the 5×5 sub-goal "top row and left column home". Returns up to a few
/// goal paths (as blank cells visited), cheapest first found; empty if `limit` or the node
/// cap ran out first.
fn l_search(
    b: &Board,
    wn: u32,
    wd: u32,
    limit: &Limit,
    cancel: &Cancel,
) -> Result<Vec<Vec<usize>>> {
    let mut pos = [0usize; 10];
    pos[0] = b.blank();
    for (i, &t) in L_TILES.iter().enumerate() {
        pos[i + 1] = b.position(t as u16).unwrap_or(0);
    }
    let start = pack(&pos);
    let mut nodes: Vec<LNode> = vec![LNode {
        state: start,
        parent: u32::MAX,
    }];
    let mut best_g: HashMap<u64, u16, Fast> = HashMap::default();
    best_g.insert(start, 0);
    // (f, deeper first, node index, g)
    let mut open: BinaryHeap<(Reverse<u32>, u16, u32)> = BinaryHeap::new();
    open.push((Reverse(wn * l_heuristic(&pos)), 0, 0));
    let mut goals: Vec<u32> = Vec::new();
    let mut goal_limit = usize::MAX;
    let mut popped = 0usize;
    let mut occ = [u8::MAX; CELLS];
    while let Some((_, g, idx)) = open.pop() {
        popped += 1;
        if popped & 0x3FF == 0 {
            if cancel.is_cancelled() {
                return Err(Error::cancelled());
            }
            if limit.expired() {
                break;
            }
        }
        if nodes.len() >= L_NODES || popped >= goal_limit {
            break;
        }
        let s = nodes[idx as usize].state;
        if best_g.get(&s).is_some_and(|&bg| bg < g) {
            continue; // a stale entry
        }
        unpack(s, &mut pos);
        if l_heuristic(&pos) == 0 {
            goals.push(idx);
            if goals.len() == 1 {
                // Look a little further for other goal states (their 4×4 rests differ).
                goal_limit = popped + popped / 4 + 64;
            }
            if goals.len() >= 6 {
                break;
            }
            continue;
        }
        occ.iter_mut().for_each(|o| *o = u8::MAX);
        for (i, &p) in pos.iter().enumerate().skip(1) {
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
        if r + 1 < SIDE {
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
            let ns = pack(&np);
            let ng = g + 1;
            match best_g.get(&ns) {
                Some(&og) if og <= ng => continue,
                _ => {}
            }
            best_g.insert(ns, ng);
            let f = wd * ng as u32 + wn * l_heuristic(&np);
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

/// A near-optimal solution of a 5×5 board within `limit` (node caps apply in any case).
pub(super) fn solve_5x5(b: &Board, limit: &Limit, cancel: &Cancel) -> Result<Path> {
    if (b.width(), b.height()) != (SIDE, SIDE) {
        return Err(Error::range("solve_5x5 takes a 5x5 board"));
    }
    let start = Instant::now();
    let set = pdb::pdb(4, 4).ok_or_else(|| Error::unsupported("no 4x4 tables"))?;
    // Weight 3 first (fast), then 5/2 (shorter, more nodes) while the budget lasts; among
    // the goal states found, the one with the least moves plus the 4×4 rest's lower bound.
    let mut goals = l_search(b, 3, 1, &part(limit, start, 0.7), cancel)?;
    if !limit.expired() {
        goals.extend(l_search(b, 5, 2, &part(limit, start, 0.8), cancel)?);
    }
    let mut best: Option<(u32, Vec<u16>, Board)> = None;
    for blanks in goals {
        let mut nb = b.clone();
        let tiles = play_blanks(&mut nb, &blanks);
        let (sub, _) = region(&nb, 1, 1)?;
        let score = tiles.len() as u32 + set.heuristic(&sub)?;
        if best.as_ref().is_none_or(|(s, _, _)| score < *s) {
            best = Some((score, tiles, nb));
        }
    }
    let Some((_, mut tiles, nb)) = best else {
        // The sub-goal search ran out: the reduction solver, finished on the 4×4.
        return solve_reduced(b, limit, cancel);
    };
    let (sub, back) = region(&nb, 1, 1)?;
    let rest = anytime_pdb_capped(&sub, limit, cancel)?;
    let nodes = rest.nodes;
    tiles.extend(rest.tiles.into_iter().map(|t| back[t as usize]));
    Ok(Path {
        tiles: checked(b, tiles)?,
        optimal: false,
        nodes,
    })
}

/// Boards other than the 4×4 class and 5×5: reduce to a 5×5 or 4×4 region, finish it near
/// optimally.
pub(super) fn solve_reduced(b: &Board, limit: &Limit, cancel: &Cancel) -> Result<Path> {
    let region_limit = Limit {
        deadline: limit.deadline,
        nodes: Some(limit.nodes.unwrap_or(REGION_NODES)),
    };
    let tiles = reduce::solve_with_finish(b, cancel, &mut |sub: &Board| {
        if (sub.width(), sub.height()) == (4, 4) {
            return anytime_pdb(sub, &region_limit, cancel).map(|p| Some(p.tiles));
        }
        Ok(None)
    })?;
    Ok(Path {
        tiles: checked(b, tiles)?,
        optimal: false,
        nodes: 0,
    })
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
