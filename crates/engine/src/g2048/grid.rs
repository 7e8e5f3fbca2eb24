//! 2048 boards of any square size 3×3 … 8×8 other than the 4×4 (which keeps its bitboard,
//! [`super::board`]): one exponent per cell, row-major, and the same rules line by line
//! ([`super::board::slide_line`]'s rule on a line of any length: each tile merges at most
//! once per move, two tiles of [`MAX_EXP`] do not merge).

use super::board::{Dir, MAX_EXP};

/// The smallest and largest side of a 2048 board.
pub const MIN_SIDE: u8 = 3;
pub const MAX_SIDE: u8 = 8;

/// A square board of side 3 … 8: exponents row-major (0 = empty, k = tile 2^k), cells past
/// `side²` always 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    side: u8,
    cells: [u8; 64],
}

impl Grid {
    /// An empty board (`side` must be within [`MIN_SIDE`] … [`MAX_SIDE`]).
    pub fn empty(side: u8) -> Grid {
        assert!((MIN_SIDE..=MAX_SIDE).contains(&side), "2048 side {side}");
        Grid {
            side,
            cells: [0; 64],
        }
    }

    /// A board from `side²` exponents (each at most [`MAX_EXP`]; larger ones count as it).
    pub fn from_exps(side: u8, exps: &[u8]) -> Grid {
        let mut g = Grid::empty(side);
        let n = g.len();
        assert_eq!(exps.len(), n, "a {side}x{side} board has {n} cells");
        for (c, &e) in g.cells.iter_mut().zip(exps) {
            *c = e.min(MAX_EXP);
        }
        g
    }

    pub fn side(&self) -> u8 {
        self.side
    }

    /// The number of cells, `side²`.
    pub fn len(&self) -> usize {
        self.side as usize * self.side as usize
    }

    pub fn is_empty(&self) -> bool {
        self.exps().iter().all(|&e| e == 0)
    }

    /// The exponents, row-major.
    pub fn exps(&self) -> &[u8] {
        &self.cells[..self.len()]
    }

    pub fn get(&self, i: usize) -> u8 {
        self.cells[i]
    }

    pub fn set(&mut self, i: usize, e: u8) {
        debug_assert!(i < self.len());
        self.cells[i] = e.min(MAX_EXP);
    }

    pub fn count_empty(&self) -> u32 {
        self.exps().iter().filter(|&&e| e == 0).count() as u32
    }

    pub fn max_exp(&self) -> u8 {
        self.exps().iter().copied().max().unwrap_or(0)
    }

    /// The cells of line `k` of a slide in `dir`, from the edge the tiles move toward
    /// (rows for left/right, columns for up/down; the 4×4's `line_cells` on any side).
    pub fn line_cells(&self, dir: Dir, k: usize) -> impl Iterator<Item = usize> {
        let n = self.side as usize;
        (0..n).map(move |j| match dir {
            Dir::Left => n * k + j,
            Dir::Right => n * k + n - 1 - j,
            Dir::Up => n * j + k,
            Dir::Down => n * (n - 1 - j) + k,
        })
    }

    /// The board after sliding in `dir`, and the points the merges made.
    pub fn slide(&self, dir: Dir) -> (Grid, u32) {
        let n = self.side as usize;
        let mut out = Grid::empty(self.side);
        let mut gained = 0u32;
        let mut idx = [0usize; 8];
        for k in 0..n {
            for (j, c) in self.line_cells(dir, k).enumerate() {
                idx[j] = c;
            }
            let mut slot = 0;
            let mut held: u8 = 0; // a tile not yet placed, which may still merge
            for &c in &idx[..n] {
                let e = self.cells[c];
                if e == 0 {
                    continue;
                }
                if held == 0 {
                    held = e;
                } else if held == e && e < MAX_EXP {
                    out.cells[idx[slot]] = e + 1;
                    gained = gained.saturating_add(1u32 << (e + 1));
                    slot += 1;
                    held = 0;
                } else {
                    out.cells[idx[slot]] = held;
                    slot += 1;
                    held = e;
                }
            }
            if held != 0 {
                out.cells[idx[slot]] = held;
            }
        }
        (out, gained)
    }

    /// Does any direction change the board?
    pub fn can_move(&self) -> bool {
        let n = self.side as usize;
        if self.count_empty() > 0 {
            return true;
        }
        for r in 0..n {
            for c in 0..n {
                let e = self.cells[r * n + c];
                if e >= MAX_EXP {
                    continue;
                }
                if (c + 1 < n && self.cells[r * n + c + 1] == e)
                    || (r + 1 < n && self.cells[(r + 1) * n + c] == e)
                {
                    return true;
                }
            }
        }
        false
    }

    /// A 64-bit key of the board for the search's transposition table.
    pub(crate) fn key(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ self.side as u64;
        for chunk in self.exps().chunks(8) {
            let mut w = 0u64;
            for (i, &e) in chunk.iter().enumerate() {
                w |= (e as u64) << (8 * i);
            }
            h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 29;
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::g2048::board::{self, slide_line};

    #[test]
    fn lines_slide_like_the_4x4_rule() {
        // Every 4-cell line of exponents 0..=3 plus a few big ones: the grid's line rule on a
        // one-row view equals the 4×4's table rule.
        let vals = [0u8, 1, 2, 3, 16, 17];
        for a in vals {
            for b in vals {
                for c in vals {
                    for d in vals {
                        let line = [a, b, c, d];
                        let (want, gain) = slide_line(line);
                        let mut exps = [0u8; 16];
                        exps[..4].copy_from_slice(&line);
                        let (g, gained) = Grid::from_exps(4, &exps).slide(Dir::Left);
                        assert_eq!(&g.exps()[..4], &want, "{line:?}");
                        assert_eq!(gained, gain, "{line:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_4x4_grid_moves_like_the_bitboard() {
        let exps = [1, 1, 2, 0, 0, 3, 3, 3, 2, 0, 2, 2, 5, 4, 4, 4];
        let b = board::from_exps(&exps);
        let g = Grid::from_exps(4, &exps);
        let t = board::tables();
        for dir in Dir::ALL {
            let (next, gained) = g.slide(dir);
            assert_eq!(next.exps(), &board::to_exps(t.slide(b, dir))[..], "{dir:?}");
            assert_eq!(gained, t.gain(b, dir), "{dir:?}");
        }
    }

    #[test]
    fn a_5x5_row_merges_once_per_tile() {
        let mut exps = [0u8; 25];
        exps[..5].copy_from_slice(&[1, 1, 1, 1, 1]);
        let (g, gained) = Grid::from_exps(5, &exps).slide(Dir::Left);
        assert_eq!(&g.exps()[..5], &[2, 2, 1, 0, 0]);
        assert_eq!(gained, 8);
        let (g, _) = Grid::from_exps(5, &exps).slide(Dir::Down);
        assert_eq!(&g.exps()[20..25], &[1, 1, 1, 1, 1]);
        assert!(g.exps()[..20].iter().all(|&e| e == 0));
    }

    #[test]
    fn full_boards_without_pairs_cannot_move() {
        let exps: Vec<u8> = (0..9).map(|i| (i % 3 + 3 * ((i / 3) % 2)) as u8 + 1).collect();
        // 1 2 3 / 4 5 6 / 1 2 3: no equal neighbours.
        let g = Grid::from_exps(3, &exps);
        assert!(!g.can_move());
        for dir in Dir::ALL {
            assert_eq!(g.slide(dir).0, g);
        }
        let mut g2 = g;
        g2.set(1, 1);
        assert!(g2.can_move());
    }
}
