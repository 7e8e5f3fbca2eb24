//! Exact distance tables for the boards whose whole state space is small (at most 10 cells:
//! 2×2, 2×3, 3×2, 2×4, 4×2, 3×3, 2×5, 5×2 — at most 1,814,400 solvable states).
//!
//! One breadth-first search from the goal gives every state's optimal distance, so an
//! optimal hint is a table lookup over the blank's neighbours. States are indexed by the
//! Lehmer rank of the whole arrangement (blank included): `n!` bytes, half of them unused
//! (unreachable parity), which keeps the index a few shifts and popcounts.

use super::board::Board;
use crate::error::{Error, Result};
use std::sync::OnceLock;

/// Largest number of cells that gets an exact table.
pub const MAX_CELLS: usize = 10;

const UNSEEN: u8 = u8::MAX;

/// Every state's distance to the goal for one board size.
pub struct Table {
    w: usize,
    h: usize,
    dist: Vec<u8>,
    states: u64,
    max: u8,
}

/// The sizes that get a table, in slot order (every board of at most [`MAX_CELLS`] cells).
pub const TABLE_SIZES: [(usize, usize); 8] = [
    (2, 2),
    (2, 3),
    (3, 2),
    (2, 4),
    (4, 2),
    (3, 3),
    (2, 5),
    (5, 2),
];

/// One value per board size of a fixed list, built on first use and cached for the process.
pub(crate) struct SizeCache<T, const N: usize> {
    sizes: [(usize, usize); N],
    slots: [OnceLock<T>; N],
}

impl<T, const N: usize> SizeCache<T, N> {
    pub(crate) const fn new(sizes: [(usize, usize); N]) -> Self {
        SizeCache {
            sizes,
            slots: [const { OnceLock::new() }; N],
        }
    }

    fn slot(&self, w: usize, h: usize) -> Option<usize> {
        self.sizes.iter().position(|&s| s == (w, h))
    }

    /// Whether `w`×`h` is one of the sizes.
    pub(crate) fn has(&self, w: usize, h: usize) -> bool {
        self.slot(w, h).is_some()
    }

    /// The value of `w`×`h`, built by `build` on first use; `None` for other sizes.
    pub(crate) fn get_or_init(&self, w: usize, h: usize, build: impl FnOnce() -> T) -> Option<&T> {
        let slot = self.slot(w, h)?;
        Some(self.slots[slot].get_or_init(build))
    }

    /// Whether the value of `w`×`h` is already built.
    pub(crate) fn is_built(&self, w: usize, h: usize) -> bool {
        self.slot(w, h)
            .is_some_and(|slot| self.slots[slot].get().is_some())
    }
}

static TABLES: SizeCache<Table, 8> = SizeCache::new(TABLE_SIZES);

/// Whether `w`×`h` is solved by an exact table.
pub fn has_table(w: usize, h: usize) -> bool {
    TABLES.has(w, h)
}

/// The table of `w`×`h`, built on first use and cached for the process.
pub fn table(w: usize, h: usize) -> Option<&'static Table> {
    TABLES.get_or_init(w, h, || Table::build(w, h))
}

/// Build a fresh table of `w`×`h`, not cached (for benchmarks); `None` for other sizes.
pub fn build_table(w: usize, h: usize) -> Option<Table> {
    has_table(w, h).then(|| Table::build(w, h))
}

/// Whether the table of `w`×`h` is already built (for the benchmark's build timing).
pub fn is_built(w: usize, h: usize) -> bool {
    TABLES.is_built(w, h)
}

/// Pack cells (values 0…15) into 4-bit nibbles, cell 0 lowest.
#[inline]
fn pack(cells: &[u8]) -> u64 {
    cells
        .iter()
        .enumerate()
        .fold(0u64, |acc, (i, &c)| acc | (c as u64) << (4 * i))
}

/// Bits set in each 10-bit number (a table: faster than a portable popcount).
const POPCOUNT: [u8; 1 << MAX_CELLS] = {
    let mut t = [0u8; 1 << MAX_CELLS];
    let mut i = 1;
    while i < t.len() {
        t[i] = t[i >> 1] + (i & 1) as u8;
        i += 1;
    }
    t
};

/// Lehmer rank of a packed arrangement of `n` distinct values 0…n−1.
#[inline]
fn rank(packed: u64, n: usize) -> usize {
    let mut used: usize = 0;
    let mut r = 0usize;
    for i in 0..n {
        let v = ((packed >> (4 * i)) & 0xF) as usize;
        let smaller_used = POPCOUNT[used & ((1 << v) - 1)] as usize;
        r = r * (n - i) + (v - smaller_used);
        used |= 1 << v;
    }
    r
}

fn factorial(n: usize) -> usize {
    (1..=n).product()
}

impl Table {
    fn build(w: usize, h: usize) -> Table {
        let n = w * h;
        let mut dist = vec![UNSEEN; factorial(n)];
        let goal = Board::solved_unchecked(w, h);
        let start = pack(goal.cells()) | ((n as u64 - 1) << 60);
        dist[rank(start & !(0xFu64 << 60), n)] = 0;
        // Each queue entry: the packed cells, with the blank's cell in the top nibble.
        let mut queue: Vec<u64> = Vec::with_capacity(factorial(n) / 2);
        queue.push(start);
        let mut nbrs = [[usize::MAX; 4]; MAX_CELLS];
        for (i, slot) in nbrs.iter_mut().enumerate().take(n) {
            let (r, c) = (i / w, i % w);
            let mut k = 0;
            let mut add = |j: usize| {
                slot[k] = j;
                k += 1;
            };
            if r > 0 {
                add(i - w);
            }
            if c > 0 {
                add(i - 1);
            }
            if c + 1 < w {
                add(i + 1);
            }
            if r + 1 < h {
                add(i + w);
            }
        }
        // Layer by layer, so a state's distance is known without looking it up; a queue
        // entry also keeps the blank's previous cell (bits 52..56), whose state is older.
        const CELLS: u64 = (1 << 48) - 1;
        let mut head = 0;
        let mut d: u8 = 0;
        let mut max = 0;
        while head < queue.len() {
            let layer_end = queue.len();
            while head < layer_end {
                let s = queue[head];
                head += 1;
                let b = (s >> 60) as usize;
                let prev = ((s >> 52) & 0xF) as usize;
                let cells = s & CELLS;
                for &j in nbrs[b].iter().take_while(|&&j| j != usize::MAX) {
                    if j == prev && head > 1 {
                        continue;
                    }
                    let t = (cells >> (4 * j)) & 0xF;
                    let next = (cells & !(0xFu64 << (4 * j))) | (t << (4 * b));
                    let r = rank(next, n);
                    if dist[r] == UNSEEN {
                        dist[r] = d + 1;
                        max = d + 1;
                        queue.push(next | ((j as u64) << 60) | ((b as u64) << 52));
                    }
                }
            }
            d += 1;
        }
        Table {
            w,
            h,
            dist,
            states: queue.len() as u64,
            max,
        }
    }

    /// Number of reachable states (W·H!/2).
    pub fn states(&self) -> u64 {
        self.states
    }
    /// The largest distance of any state (e.g. 31 for 3×3).
    pub fn max_distance(&self) -> u8 {
        self.max
    }
    /// Bytes the table holds.
    pub fn bytes(&self) -> usize {
        self.dist.len()
    }
    /// How many states lie at each distance 0…max.
    pub fn histogram(&self) -> Vec<u64> {
        let mut h = vec![0u64; self.max as usize + 1];
        for &d in &self.dist {
            if d != UNSEEN {
                h[d as usize] += 1;
            }
        }
        h
    }

    fn check(&self, b: &Board) -> Result<()> {
        b.expect_size(self.w, self.h, "table")
    }

    /// Optimal number of tile moves from `b` to the goal (`None` when unsolvable).
    pub fn distance(&self, b: &Board) -> Result<Option<u8>> {
        self.check(b)?;
        let d = self.dist[rank(pack(b.cells()), b.len())];
        Ok((d != UNSEEN).then_some(d))
    }

    /// An optimal solution from `b` as single-tile moves.
    pub fn solve(&self, b: &Board) -> Result<Vec<u16>> {
        let mut d = self
            .distance(b)?
            .ok_or_else(|| Error::unsolvable("this board cannot reach the goal (wrong parity)"))?;
        let mut cur = b.clone();
        let mut tiles = Vec::with_capacity(d as usize);
        while d > 0 {
            let blank = cur.blank();
            let next = cur
                .neighbours(blank)
                .into_iter()
                .find(|&j| {
                    let mut nb = cur.clone();
                    nb.swap_blank(j);
                    self.dist[rank(pack(nb.cells()), nb.len())] == d - 1
                })
                .expect("a BFS table always has a neighbour one step closer");
            tiles.push(cur.cells()[next] as u16);
            cur.swap_blank(next);
            d -= 1;
        }
        Ok(tiles)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_is_a_bijection_on_small_n() {
        // All 4! arrangements of 0..4 map to distinct ranks 0..24.
        let mut seen = [false; 24];
        let mut a = [0u8, 1, 2, 3];
        fn perms(a: &mut [u8; 4], k: usize, seen: &mut [bool; 24]) {
            if k == 4 {
                let r = rank(pack(a), 4);
                assert!(!seen[r]);
                seen[r] = true;
                return;
            }
            for i in k..4 {
                a.swap(k, i);
                perms(a, k + 1, seen);
                a.swap(k, i);
            }
        }
        perms(&mut a, 0, &mut seen);
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn small_tables_have_half_the_states() {
        for (w, h, states) in [
            (2, 2, 12u64),
            (2, 3, 360),
            (3, 2, 360),
            (2, 4, 20_160),
            (4, 2, 20_160),
        ] {
            let t = table(w, h).unwrap();
            assert_eq!(t.states(), states, "{w}x{h}");
        }
        // The 2x2 puzzle is a cycle of 12 states: the farthest is 6 moves away.
        assert_eq!(table(2, 2).unwrap().max_distance(), 6);
    }
}
