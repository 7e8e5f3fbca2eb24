//! The board of the number slide: a W×H grid holding the tiles 1 … W·H−1 and one blank (0).

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Smallest side length accepted.
pub const MIN_SIDE: usize = 2;
/// Largest side length accepted.
pub const MAX_SIDE: usize = 10;

/// One tile that slid one cell (for the UI's animation): `from` and `to` are cell indices,
/// row-major from the top-left corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Moved {
    pub tile: u16,
    pub from: u16,
    pub to: u16,
}

/// A W×H board. `cells[i]` is the tile in cell `i` (row-major), 0 is the blank.
/// Every value of the type is a well-formed board (right size, each tile once, one blank);
/// it may still be unsolvable, see [`Board::is_solvable`].
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    w: usize,
    h: usize,
    cells: Vec<u8>,
    blank: usize,
}

/// Check that `w`×`h` is a supported size.
pub fn check_size(w: usize, h: usize) -> Result<()> {
    let ok = |s: usize| (MIN_SIDE..=MAX_SIDE).contains(&s);
    if ok(w) && ok(h) {
        Ok(())
    } else {
        Err(Error::range(format!(
            "board size {w}x{h} is not supported: width and height must be {MIN_SIDE}…{MAX_SIDE}"
        )))
    }
}

/// Parse a size written `WxH` (also `W×H`), e.g. `4x4`, and check it is supported.
pub fn parse_size(text: &str) -> Result<(usize, usize)> {
    let text = text.trim();
    let (w, h) = text
        .split_once(['x', 'X', '×'])
        .ok_or_else(|| Error::parse(format!("size {text:?} is not of the form WxH (e.g. 4x4)")))?;
    let num = |s: &str, what: &str| -> Result<usize> {
        s.trim().parse::<usize>().map_err(|_| {
            Error::parse(format!(
                "{what} {s:?} in size {text:?} is not a whole number"
            ))
        })
    };
    let (w, h) = (num(w, "width")?, num(h, "height")?);
    check_size(w, h)?;
    Ok((w, h))
}

impl Board {
    /// A board from its tiles, row-major, 0 = blank. Checks the size, that every tile
    /// 1 … W·H−1 appears exactly once and that there is exactly one blank.
    pub fn new(w: usize, h: usize, tiles: &[u16]) -> Result<Board> {
        check_size(w, h)?;
        let n = w * h;
        if tiles.len() != n {
            return Err(Error::parse(format!(
                "a {w}x{h} board has {n} cells but {} tiles were given",
                tiles.len()
            )));
        }
        let mut seen = vec![0u32; n];
        for &t in tiles {
            if t as usize >= n {
                return Err(Error::parse(format!(
                    "tile {t} does not exist on a {w}x{h} board (tiles are 1…{}, 0 is the blank)",
                    n - 1
                )));
            }
            seen[t as usize] += 1;
        }
        match seen[0] {
            0 => return Err(Error::parse("the board has no blank (0)")),
            1 => {}
            k => {
                return Err(Error::parse(format!(
                    "the board has {k} blanks (0); it must have exactly one"
                )))
            }
        }
        if let Some(dup) = (1..n).find(|&t| seen[t] > 1) {
            let missing: Vec<String> = (1..n)
                .filter(|&t| seen[t] == 0)
                .map(|t| t.to_string())
                .collect();
            return Err(Error::parse(format!(
                "tile {dup} appears {} times; missing: {}",
                seen[dup],
                missing.join(", ")
            )));
        }
        let cells: Vec<u8> = tiles.iter().map(|&t| t as u8).collect();
        let blank = cells.iter().position(|&c| c == 0).unwrap_or(n - 1);
        Ok(Board { w, h, cells, blank })
    }

    /// The solved board: 1 … W·H−1 row-major, blank bottom-right.
    pub fn solved(w: usize, h: usize) -> Result<Board> {
        check_size(w, h)?;
        Ok(Self::solved_unchecked(w, h))
    }

    pub(crate) fn solved_unchecked(w: usize, h: usize) -> Board {
        let n = w * h;
        let mut cells: Vec<u8> = (1..n as u8).collect();
        cells.push(0);
        Board {
            w,
            h,
            cells,
            blank: n - 1,
        }
    }

    /// Parse the game-ID body form `WxH:<tiles comma-separated>` (e.g. `3x3:1,2,3,4,5,6,7,0,8`).
    pub fn parse(text: &str) -> Result<Board> {
        let text = text.trim();
        let (size, tiles) = text.split_once(':').ok_or_else(|| {
            Error::parse(format!(
                "board {text:?} is not of the form WxH:<tiles> (e.g. 3x3:1,2,3,4,5,6,7,0,8)"
            ))
        })?;
        let (w, h) = parse_size(size)?;
        Self::from_text(w, h, tiles)
    }

    /// Parse the tiles of a `w`×`h` board written row-major, separated by commas and/or
    /// white space (the CLI's `1 2 3 … 0` and the ID's `1,2,3,…,0`).
    pub fn from_text(w: usize, h: usize, text: &str) -> Result<Board> {
        check_size(w, h)?;
        let n = w * h;
        let mut tiles = Vec::with_capacity(n);
        for tok in text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|t| !t.is_empty())
        {
            if tiles.len() == n {
                let total = text
                    .split(|c: char| c == ',' || c.is_whitespace())
                    .filter(|t| !t.is_empty())
                    .count();
                return Err(Error::parse(format!(
                    "a {w}x{h} board has {n} cells but {total} tiles were given"
                )));
            }
            let t: u16 = tok.parse().map_err(|_| {
                Error::parse(format!("{tok:?} is not a tile number (0 is the blank)"))
            })?;
            tiles.push(t);
        }
        Self::new(w, h, &tiles)
    }

    pub fn width(&self) -> usize {
        self.w
    }
    pub fn height(&self) -> usize {
        self.h
    }
    /// Number of cells, W·H.
    pub fn len(&self) -> usize {
        self.cells.len()
    }
    /// Always false: a board has at least 4 cells (kept for the `len` convention).
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
    /// The tiles, row-major, 0 = blank.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }
    /// The tiles as numbers, row-major, 0 = blank.
    pub fn tiles(&self) -> Vec<u16> {
        self.cells.iter().map(|&c| c as u16).collect()
    }
    /// Cell index of the blank.
    pub fn blank(&self) -> usize {
        self.blank
    }
    /// Cell index of `tile` (0 = the blank), if the tile exists.
    pub fn position(&self, tile: u16) -> Option<usize> {
        if tile as usize >= self.cells.len() {
            return None;
        }
        self.cells.iter().position(|&c| c as u16 == tile)
    }

    pub fn is_solved(&self) -> bool {
        let n = self.cells.len();
        self.blank == n - 1
            && self.cells[..n - 1]
                .iter()
                .enumerate()
                .all(|(i, &c)| c as usize == i + 1)
    }

    /// Number of pairs of tiles (blank ignored) that stand in the wrong order, row-major.
    pub fn inversions(&self) -> u32 {
        let tiles: Vec<u8> = self.cells.iter().copied().filter(|&c| c != 0).collect();
        let mut inv = 0;
        for i in 0..tiles.len() {
            for j in i + 1..tiles.len() {
                if tiles[i] > tiles[j] {
                    inv += 1;
                }
            }
        }
        inv
    }

    /// Whether the goal can be reached. With an odd width, iff the number of inversions
    /// (blank ignored) is even; with an even width, iff inversions + the blank's row counted
    /// from the bottom (1-based) is odd. (A horizontal move keeps the inversions; a vertical
    /// one jumps a tile over W−1 others, which flips their parity exactly when W is even, and
    /// then also moves the blank one row. Both invariants hold at the goal; for W, H ≥ 2
    /// every board that satisfies them is reachable — tested against breadth-first search.)
    pub fn is_solvable(&self) -> bool {
        let inv = self.inversions() as usize;
        if self.w % 2 == 1 {
            inv.is_multiple_of(2)
        } else {
            let row_from_bottom = self.h - self.blank / self.w;
            (inv + row_from_bottom) % 2 == 1
        }
    }

    /// Sum over the tiles of their row + column distance from their goal cell
    /// (a lower bound on the tile moves still needed).
    pub fn manhattan(&self) -> u32 {
        let w = self.w;
        self.cells
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != 0)
            .map(|(i, &c)| {
                let g = c as usize - 1;
                ((i % w).abs_diff(g % w) + (i / w).abs_diff(g / w)) as u32
            })
            .sum()
    }

    /// The game-ID body: `WxH:<tiles comma-separated>`.
    pub fn body(&self) -> String {
        format!("{}x{}:{}", self.w, self.h, self.join(","))
    }

    /// The tiles joined by `sep` (the CLI line form uses a space).
    pub fn join(&self, sep: &str) -> String {
        self.cells
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(sep)
    }

    /// Tiles that can slide into the blank right now (its 2 … 4 neighbours).
    pub fn movable(&self) -> Vec<u16> {
        self.neighbours(self.blank)
            .into_iter()
            .map(|i| self.cells[i] as u16)
            .collect()
    }

    /// `OutOfRange` unless this board is `w`×`h`, for the `w`×`h` `what` (a table, a search)
    /// it is given to.
    pub(crate) fn expect_size(&self, w: usize, h: usize, what: &str) -> Result<()> {
        if (self.w, self.h) != (w, h) {
            return Err(Error::range(format!(
                "a {}x{} board given to the {w}x{h} {what}",
                self.w, self.h
            )));
        }
        Ok(())
    }

    /// Cells next to cell `i`, in the order up, left, right, down.
    pub(crate) fn neighbours(&self, i: usize) -> Vec<usize> {
        let (w, h) = (self.w, self.h);
        let (r, c) = (i / w, i % w);
        let mut v = Vec::with_capacity(4);
        if r > 0 {
            v.push(i - w);
        }
        if c > 0 {
            v.push(i - 1);
        }
        if c + 1 < w {
            v.push(i + 1);
        }
        if r + 1 < h {
            v.push(i + w);
        }
        v
    }

    /// Slide `tile` and every tile between it and the blank one cell toward the blank
    /// (a tap on a tile in the blank's row or column). Returns the tiles that moved, the one
    /// next to the blank first. Illegal moves leave the board unchanged.
    pub fn slide(&mut self, tile: u16) -> Result<Vec<Moved>> {
        if tile == 0 {
            return Err(Error::illegal("tile 0 is the blank; tap a numbered tile"));
        }
        let p = self.position(tile).ok_or_else(|| {
            Error::illegal(format!(
                "there is no tile {tile} on a {}x{} board (tiles are 1…{})",
                self.w,
                self.h,
                self.len() - 1
            ))
        })?;
        let w = self.w;
        let (pr, pc, br, bc) = (p / w, p % w, self.blank / w, self.blank % w);
        let step: isize = if pr == br {
            if pc > bc {
                1
            } else {
                -1
            }
        } else if pc == bc {
            if pr > br {
                w as isize
            } else {
                -(w as isize)
            }
        } else {
            return Err(Error::illegal(format!(
                "tile {tile} is not in the blank's row or column, so it cannot slide"
            )));
        };
        let mut moved = Vec::new();
        while self.blank != p {
            let next = (self.blank as isize + step) as usize;
            let t = self.cells[next];
            self.cells[self.blank] = t;
            moved.push(Moved {
                tile: t as u16,
                from: next as u16,
                to: self.blank as u16,
            });
            self.blank = next;
        }
        self.cells[p] = 0;
        Ok(moved)
    }

    /// Slide one tile that is next to the blank into it.
    pub fn step(&mut self, tile: u16) -> Result<Moved> {
        let p = self.position(tile).filter(|_| tile != 0);
        match p {
            Some(p) if self.neighbours(self.blank).contains(&p) => {
                let m = self.slide(tile)?;
                Ok(m[0])
            }
            _ => Err(Error::illegal(format!(
                "tile {tile} is not next to the blank"
            ))),
        }
    }

    /// Swap the blank with the neighbouring cell `i` (no checks; solvers only).
    #[inline]
    pub(crate) fn swap_blank(&mut self, i: usize) {
        self.cells[self.blank] = self.cells[i];
        self.cells[i] = 0;
        self.blank = i;
    }

    /// Replay single-tile moves; errors name the first move that is not legal.
    pub fn replay(&mut self, tiles: &[u16]) -> Result<()> {
        for (k, &t) in tiles.iter().enumerate() {
            self.step(t)
                .map_err(|e| Error::illegal(format!("move {} (tile {t}): {}", k + 1, e.message)))?;
        }
        Ok(())
    }

    pub(crate) fn from_cells_unchecked(w: usize, h: usize, cells: Vec<u8>) -> Board {
        let blank = cells.iter().position(|&c| c == 0).expect("a blank");
        Board { w, h, cells, blank }
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.body())
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = if self.len() > 10 { 2 } else { 1 };
        for r in 0..self.h {
            let row: Vec<String> = (0..self.w)
                .map(|c| match self.cells[r * self.w + c] {
                    0 => format!("{:>width$}", "."),
                    t => format!("{t:>width$}"),
                })
                .collect();
            writeln!(f, "{}", row.join(" "))?;
        }
        Ok(())
    }
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
