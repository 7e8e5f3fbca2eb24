//! The 4×4 board: sixteen 4-bit exponents in one `u64` (0 = empty, `e` = the tile `2^e`),
//! plus two overflow bits per cell for the tiles above 32,768.
//!
//! Cell `i = 4·row + col` (row-major, row 0 at the top, col 0 at the left) lives in bits
//! `4i..4i+4`, so row `r` is the 16-bit word at bit `16r` and, inside a row word, the
//! leftmost cell is the lowest nibble.
//!
//! Full rules: tiles merge up to 131,072 (2^17), the largest tile a 4×4 board can hold. A
//! nibble of 15 means "32,768 or more"; [`Board`]'s overflow bits (`over`, bits `2i..2i+2`)
//! add 0, 1 or 2 to that cell's exponent. An *ordinary* board (no tile above 32,768 and at
//! most one 32,768, so no two can merge: every board of a real game until its first pair of
//! 32,768s) has `over == 0` and moves through the tables below; any other board takes a slow
//! path that slides each line from its exponents. Two 131,072s (only possible on a
//! hand-made board) do not merge: 262,144 cannot exist on a 4×4 board.
//!
//! Moves go through four precomputed 65,536-entry tables, one per direction: `left` and
//! `right` map a row word to the moved row word; `up` and `down` map a *column* (read as
//! a row word through [`transpose`]) to the moved column already spread back into column
//! layout (nibble `k` at bit `16k`). A fifth table holds the points a line move gains
//! (the same for both directions of a line: a run of `k` equal tiles gives `⌊k/2⌋`
//! merges whichever end it is pushed to). Rows with two 15 nibbles are never looked up
//! (their boards are not ordinary) and hold the row unchanged.

use std::sync::OnceLock;

/// The largest exponent a cell holds (2^17 = 131,072).
pub const MAX_EXP: u8 = 17;
/// The nibble of a tile of 32,768 or more (its overflow bits say which).
const BIG: u8 = 15;
const LOW_NIBBLES: u64 = 0x1111_1111_1111_1111;

/// A board: the nibble word and the overflow bits (see the module documentation).
/// Invariant: `over` is non-zero only at cells whose nibble is 15.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    cells: u64,
    over: u32,
}

impl Board {
    /// The board whose exponents are exactly the sixteen nibbles of `cells` (tiles up to
    /// 32,768).
    #[inline]
    pub const fn from_cells(cells: u64) -> Board {
        Board { cells, over: 0 }
    }
    /// The nibble word (a 15 nibble is a tile of 32,768 or more).
    #[inline]
    pub const fn cells(self) -> u64 {
        self.cells
    }
    /// The overflow bits: two per cell, the exponent above 15.
    #[inline]
    pub const fn over(self) -> u32 {
        self.over
    }
    /// No tile above 32,768 and at most one 32,768: the row tables move it exactly.
    #[inline]
    pub fn is_ordinary(self) -> bool {
        self.over == 0 && big_mask(self.cells).count_ones() <= 1
    }
    /// A mask with bit `4i` set for every empty cell `i`.
    #[inline]
    pub fn empty_mask(self) -> u64 {
        empty_mask(self.cells)
    }
    /// The board with an exponent-`e` tile (1 or 2: a spawn) put in the empty cell whose
    /// nibble's low bit is `bit`.
    #[inline]
    pub fn with_spawn(self, bit: u64, e: u8) -> Board {
        Board {
            cells: self.cells | (bit * e as u64),
            over: self.over,
        }
    }
}

/// A mask with bit `4i` set for every cell whose nibble is 15.
#[inline]
pub fn big_mask(x: u64) -> u64 {
    x & (x >> 1) & (x >> 2) & (x >> 3) & LOW_NIBBLES
}

/// The four directions, in the order used by every per-direction array
/// (`[left, right, up, down]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dir {
    Left,
    Right,
    Up,
    Down,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::Left, Dir::Right, Dir::Up, Dir::Down];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Dir::Left => "left",
            Dir::Right => "right",
            Dir::Up => "up",
            Dir::Down => "down",
        }
    }

    pub fn parse(text: &str) -> Option<Dir> {
        match text {
            "left" => Some(Dir::Left),
            "right" => Some(Dir::Right),
            "up" => Some(Dir::Up),
            "down" => Some(Dir::Down),
            _ => None,
        }
    }
}

/// The move and score tables (about 1.5 MB, built once on first use).
pub struct Tables {
    left: Vec<u16>,
    right: Vec<u16>,
    up: Vec<u64>,
    down: Vec<u64>,
    score: Vec<u32>,
}

/// Slide one line of four exponents toward index 0: pack the tiles, then merge equal
/// neighbours from the front, each tile at most once. Returns the new line and the points.
pub fn slide_line(line: [u8; 4]) -> ([u8; 4], u32) {
    let mut packed = [0u8; 4];
    let mut n = 0;
    for &e in &line {
        if e != 0 {
            packed[n] = e;
            n += 1;
        }
    }
    let mut out = [0u8; 4];
    let mut gained = 0u32;
    let (mut i, mut o) = (0, 0);
    while i < n {
        let e = packed[i];
        if i + 1 < n && packed[i + 1] == e && e < MAX_EXP {
            out[o] = e + 1;
            gained += 1u32 << (e + 1);
            i += 2;
        } else {
            out[o] = e;
            i += 1;
        }
        o += 1;
    }
    (out, gained)
}

/// The four nibbles of a row word, leftmost first.
pub fn unpack_row(row: u16) -> [u8; 4] {
    [
        (row & 15) as u8,
        ((row >> 4) & 15) as u8,
        ((row >> 8) & 15) as u8,
        ((row >> 12) & 15) as u8,
    ]
}

pub fn pack_row(line: [u8; 4]) -> u16 {
    line[0] as u16 | (line[1] as u16) << 4 | (line[2] as u16) << 8 | (line[3] as u16) << 12
}

fn reverse_row(row: u16) -> u16 {
    (row >> 12) | ((row >> 4) & 0x00F0) | ((row << 4) & 0x0F00) | (row << 12)
}

/// A row word's nibble `k` moved to bit `16k` (a column of a board).
fn spread_column(row: u16) -> u64 {
    let r = row as u64;
    (r & 0xF) | ((r & 0xF0) << 12) | ((r & 0xF00) << 24) | ((r & 0xF000) << 36)
}

fn build() -> Tables {
    const N: usize = 1 << 16;
    let mut t = Tables {
        left: vec![0; N],
        right: vec![0; N],
        up: vec![0; N],
        down: vec![0; N],
        score: vec![0; N],
    };
    for row in 0..N {
        if unpack_row(row as u16).iter().filter(|&&e| e == BIG).count() >= 2 {
            // Never looked up (see the module documentation): 15 + 15 does not fit a nibble.
            t.left[row] = row as u16;
            t.right[row] = row as u16;
            t.up[row] = spread_column(row as u16);
            t.down[row] = spread_column(row as u16);
            continue;
        }
        let (moved, gained) = slide_line(unpack_row(row as u16));
        let left = pack_row(moved);
        let right = reverse_row(pack_row(slide_line(unpack_row(reverse_row(row as u16))).0));
        t.left[row] = left;
        t.right[row] = right;
        t.up[row] = spread_column(left);
        t.down[row] = spread_column(right);
        t.score[row] = gained;
    }
    t
}

/// The shared tables.
pub fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(build)
}

/// Rows become columns: cell (r, c) goes to (c, r).
#[inline]
pub fn transpose(x: u64) -> u64 {
    // Swap the off-diagonal nibbles inside each 2×2 block, then the off-diagonal 2×2 blocks.
    let a1 = x & 0xF0F0_0F0F_F0F0_0F0F;
    let a2 = x & 0x0000_F0F0_0000_F0F0;
    let a3 = x & 0x0F0F_0000_0F0F_0000;
    let a = a1 | (a2 << 12) | (a3 >> 12);
    let b1 = a & 0xFF00_FF00_00FF_00FF;
    let b2 = a & 0x00FF_00FF_0000_0000;
    let b3 = a & 0x0000_0000_FF00_FF00;
    b1 | (b2 >> 24) | (b3 << 24)
}

impl Tables {
    /// The board after sliding `dir` (no spawn).
    #[inline]
    pub fn slide(&self, b: Board, dir: Dir) -> Board {
        if b.is_ordinary() {
            Board::from_cells(self.slide_cells(b.cells, dir))
        } else {
            slow_slide(b, dir).0
        }
    }

    /// The table move of an ordinary board's nibble word (see [`Board::is_ordinary`]); for
    /// any other board the result is meaningless.
    #[inline]
    pub fn slide_cells(&self, b: u64, dir: Dir) -> u64 {
        match dir {
            Dir::Left => self.rows(b, &self.left),
            Dir::Right => self.rows(b, &self.right),
            Dir::Up => self.cols(b, &self.up),
            Dir::Down => self.cols(b, &self.down),
        }
    }

    #[inline]
    fn rows(&self, b: u64, table: &[u16]) -> u64 {
        let mut out = 0u64;
        for r in 0..4 {
            out |= (table[((b >> (16 * r)) & 0xFFFF) as usize] as u64) << (16 * r);
        }
        out
    }

    #[inline]
    fn cols(&self, b: u64, table: &[u64]) -> u64 {
        let t = transpose(b);
        let mut out = 0u64;
        for c in 0..4 {
            out |= table[((t >> (16 * c)) & 0xFFFF) as usize] << (4 * c);
        }
        out
    }

    /// The points a slide in `dir` gains.
    #[inline]
    pub fn gain(&self, b: Board, dir: Dir) -> u32 {
        if !b.is_ordinary() {
            return slow_slide(b, dir).1;
        }
        let lines = match dir {
            Dir::Left | Dir::Right => b.cells,
            Dir::Up | Dir::Down => transpose(b.cells),
        };
        (0..4)
            .map(|k| self.score[((lines >> (16 * k)) & 0xFFFF) as usize])
            .sum()
    }

    /// Does any direction change the board?
    pub fn can_move(&self, b: Board) -> bool {
        Dir::ALL.iter().any(|&d| self.slide(b, d) != b)
    }
}

/// The cells of line `k` of a slide in `dir`, listed from the edge the tiles move toward.
#[inline]
pub fn line_cells(dir: Dir, k: usize) -> [usize; 4] {
    std::array::from_fn(|j| match dir {
        Dir::Left => 4 * k + j,
        Dir::Right => 4 * k + 3 - j,
        Dir::Up => 4 * j + k,
        Dir::Down => 4 * (3 - j) + k,
    })
}

/// Any board's slide, line by line from the exponents: the new board and the points.
pub fn slow_slide(b: Board, dir: Dir) -> (Board, u32) {
    let exps = to_exps(b);
    let mut out = [0u8; 16];
    let mut gained = 0;
    for k in 0..4 {
        let cells = line_cells(dir, k);
        let (moved, g) = slide_line(cells.map(|c| exps[c]));
        gained += g;
        for (j, &c) in cells.iter().enumerate() {
            out[c] = moved[j];
        }
    }
    (from_exps(&out), gained)
}

/// The exponent in cell `i`.
#[inline]
pub fn cell(b: Board, i: usize) -> u8 {
    let n = ((b.cells >> (4 * i)) & 15) as u8;
    n + ((b.over >> (2 * i)) & 3) as u8
}

/// The board with cell `i` set to exponent `e` (at most [`MAX_EXP`]).
#[inline]
pub fn with_cell(b: Board, i: usize, e: u8) -> Board {
    let e = e.min(MAX_EXP);
    let (n, o) = if e >= BIG { (BIG, e - BIG) } else { (e, 0) };
    Board {
        cells: (b.cells & !(15u64 << (4 * i))) | ((n as u64) << (4 * i)),
        over: (b.over & !(3u32 << (2 * i))) | ((o as u32) << (2 * i)),
    }
}

/// A mask with bit `4i` set for every empty cell `i` of a nibble word.
#[inline]
pub fn empty_mask(b: u64) -> u64 {
    let mut x = b;
    x |= x >> 2;
    x |= x >> 1;
    !x & LOW_NIBBLES
}

#[inline]
pub fn count_empty(b: Board) -> u32 {
    b.empty_mask().count_ones()
}

/// The largest exponent on the board.
pub fn max_exp(b: Board) -> u8 {
    (0..16).map(|i| cell(b, i)).max().unwrap_or(0)
}

/// The tile value of an exponent (0 for empty).
pub fn value(e: u8) -> u32 {
    if e == 0 {
        0
    } else {
        1u32 << e.min(MAX_EXP)
    }
}

/// The exponent of a tile value: `Some(0)` for 0, `Some(e)` for 2^e with 1 ≤ e ≤ 17.
pub fn exponent(v: u32) -> Option<u8> {
    if v == 0 {
        return Some(0);
    }
    if !v.is_power_of_two() || v < 2 {
        return None;
    }
    let e = v.trailing_zeros() as u8;
    (e <= MAX_EXP).then_some(e)
}

/// Sixteen exponents (row-major) of a board.
pub fn to_exps(b: Board) -> [u8; 16] {
    std::array::from_fn(|i| cell(b, i))
}

/// Sixteen tile values (row-major) from a board.
pub fn to_values(b: Board) -> [u32; 16] {
    std::array::from_fn(|i| value(cell(b, i)))
}

/// A board from sixteen exponents (row-major); exponents above 17 count as 17.
pub fn from_exps(exps: &[u8; 16]) -> Board {
    exps.iter()
        .enumerate()
        .fold(Board::default(), |b, (i, &e)| with_cell(b, i, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_transpose(b: u64) -> u64 {
        let mut out = Board::default();
        let b = Board::from_cells(b);
        for r in 0..4 {
            for c in 0..4 {
                out = with_cell(out, c * 4 + r, cell(b, r * 4 + c));
            }
        }
        out.cells()
    }

    #[test]
    fn transpose_matches_naive() {
        let mut x: u64 = 0x0123_4567_89AB_CDEF;
        for _ in 0..1000 {
            assert_eq!(transpose(x), naive_transpose(x));
            assert_eq!(transpose(transpose(x)), x);
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
        }
    }

    #[test]
    fn empty_mask_counts() {
        let c = |x| count_empty(Board::from_cells(x));
        assert_eq!(c(0), 16);
        assert_eq!(c(0x1111_1111_1111_1111), 0);
        assert_eq!(c(0xF000_0000_0000_0008), 14);
        assert_eq!(empty_mask(0x0000_0000_0000_00F0), 0x1111_1111_1111_1101);
        assert_eq!(big_mask(0xF0F0_0000_E000_000F), 0x1010_0000_0000_0001);
    }

    #[test]
    fn values_round_trip() {
        assert_eq!(exponent(0), Some(0));
        assert_eq!(exponent(2), Some(1));
        assert_eq!(exponent(32768), Some(15));
        assert_eq!(exponent(65536), Some(16));
        assert_eq!(exponent(131072), Some(17));
        assert_eq!(exponent(262144), None);
        assert_eq!(exponent(1), None);
        assert_eq!(exponent(6), None);
        let b = from_exps(&[1, 2, 0, 3, 0, 0, 0, 0, 15, 0, 0, 0, 0, 0, 0, 11]);
        assert_eq!(to_values(b)[15], 2048);
        assert_eq!(to_values(b)[8], 32768);
        assert_eq!(max_exp(b), 15);
        assert!(b.is_ordinary());
        let exps = [17, 16, 15, 0, 0, 16, 0, 0, 0, 0, 14, 0, 0, 0, 0, 1];
        let w = from_exps(&exps);
        assert_eq!(to_exps(w), exps);
        assert_eq!(to_values(w)[..3], [131072, 65536, 32768]);
        assert_eq!(max_exp(w), 17);
        assert!(!w.is_ordinary());
        assert_eq!(w.over(), 2 | 1 << 2 | 1 << 10);
        // Setting a big cell back to a small tile clears its overflow bits.
        assert_eq!(with_cell(with_cell(w, 0, 3), 1, 0).over(), 1 << 10);
        assert_eq!(w.with_spawn(1 << 12, 2), with_cell(w, 3, 2));
    }

    #[test]
    fn top_tiles_merge_up_to_131072() {
        assert_eq!(slide_line([15, 15, 0, 0]), ([16, 0, 0, 0], 65536));
        assert_eq!(slide_line([16, 16, 16, 0]), ([17, 16, 0, 0], 131072));
        assert_eq!(slide_line([14, 14, 15, 0]), ([15, 15, 0, 0], 32768));
        assert_eq!(slide_line([17, 17, 0, 0]), ([17, 17, 0, 0], 0));
        let two = from_exps(&[15, 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert!(!two.is_ordinary());
        let t = tables();
        let left = t.slide(two, Dir::Left);
        assert_eq!(to_values(left)[0], 65536);
        assert_eq!(t.gain(two, Dir::Left), 65536);
        assert_eq!(to_values(t.slide(two, Dir::Down))[12..14], [32768, 32768]);
    }
}
