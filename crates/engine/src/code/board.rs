//! The start boards a code carries, in a compact form independent of each game's text
//! details: number slide as a permutation rank, Klotski as a list of piece shapes in scan
//! order, 2048 as sixteen 4-bit exponents. Text in and out is the game-ID body form; the
//! game modules validate it (see `mod.rs`).

use super::perm;
use super::wire::{Reader, Writer};
use crate::error::{Error, Result};

/// Largest and smallest number-slide sides.
pub const SLIDE_MIN: usize = 2;
pub const SLIDE_MAX: usize = 10;
/// Largest and smallest Klotski sides.
pub const KLOTSKI_MIN: usize = 3;
pub const KLOTSKI_MAX: usize = 8;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlideBoard {
    pub w: usize,
    pub h: usize,
    /// Row-major tiles, 0 = blank.
    pub tiles: Vec<u8>,
}

impl SlideBoard {
    /// Reads `WxH:<tiles>` (tiles separated by commas or spaces).
    pub fn parse(body: &str) -> Result<SlideBoard> {
        let (size, tiles) = body.split_once(':').ok_or_else(|| {
            Error::parse(format!(
                "slide board {body:?} is not of the form WxH:<tiles>"
            ))
        })?;
        let (w, h) = parse_size(size, SLIDE_MIN, SLIDE_MAX)?;
        let tiles: Vec<u8> = tiles
            .split([',', ' '])
            .filter(|t| !t.is_empty())
            .map(|t| {
                t.parse::<u8>()
                    .map_err(|_| Error::parse(format!("tile {t:?} is not a number")))
            })
            .collect::<Result<_>>()?;
        let board = SlideBoard { w, h, tiles };
        board.check_permutation()?;
        Ok(board)
    }

    fn check_permutation(&self) -> Result<()> {
        let n = self.w * self.h;
        if self.tiles.len() != n {
            return Err(Error::parse(format!(
                "a {}x{} board has {n} cells, not {}",
                self.w,
                self.h,
                self.tiles.len()
            )));
        }
        let mut seen = vec![false; n];
        for &t in &self.tiles {
            let t = t as usize;
            if t >= n || std::mem::replace(&mut seen[t], true) {
                return Err(Error::parse(format!(
                    "tile {t} is out of range or repeated"
                )));
            }
        }
        Ok(())
    }

    pub fn body(&self) -> String {
        let tiles: Vec<String> = self.tiles.iter().map(|t| t.to_string()).collect();
        format!("{}x{}:{}", self.w, self.h, tiles.join(","))
    }

    pub fn write(&self, out: &mut Writer) {
        out.byte((self.w as u8) << 4 | self.h as u8);
        out.slice(&perm::rank(&self.tiles));
    }

    pub fn read(r: &mut Reader) -> Result<SlideBoard> {
        let (w, h) = read_size(r, SLIDE_MIN, SLIDE_MAX, "number slide")?;
        let n = w * h;
        let rank = r.slice(perm::rank_len(n), "the board")?;
        let tiles = perm::unrank(rank, n)?;
        Ok(SlideBoard { w, h, tiles })
    }

    pub fn solvable(&self) -> bool {
        perm::slide_solvable(self.w, self.h, &self.tiles)
    }
}

/// A Klotski piece: a filled rectangle, or a wall cell, placed at the first free cell in
/// row-major order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    Empty,
    Wall,
    Piece { w: u8, h: u8, target: bool },
}

/// The pieces with a 3-bit code of their own, codes 2 to 6 in this order: (width, height,
/// target) = 1×1, 1×2 upright, 2×1 lying, 2×2, 2×2 target. Their only form (fixed forever).
const SHORT_PIECES: [(u8, u8, bool); 5] = [
    (1, 1, false),
    (1, 2, false),
    (2, 1, false),
    (2, 2, false),
    (2, 2, true),
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KlotskiBoard {
    pub w: usize,
    pub h: usize,
    /// In scan order: each entry covers the first cell not yet covered.
    pub items: Vec<Cell>,
}

/// The letters given to pieces when a board is rebuilt from a code (`C` is the target).
const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABDEFGHIJKLMNOPQRSTUVWXYZ";

impl KlotskiBoard {
    /// Reads rows joined by `/` (or the 20-character 4×5 form): one letter per piece,
    /// `C` the piece that must escape, `.` empty, `#` wall.
    pub fn parse(body: &str) -> Result<KlotskiBoard> {
        let rows: Vec<&[u8]> = if body.contains('/') {
            body.split('/').map(str::as_bytes).collect()
        } else if body.len() == 20 {
            body.as_bytes().chunks(4).collect()
        } else {
            return Err(Error::parse(format!(
                "Klotski board {body:?} is neither rows joined by '/' nor 20 cells"
            )));
        };
        let h = rows.len();
        let w = rows[0].len();
        if rows.iter().any(|r| r.len() != w) {
            return Err(Error::parse("Klotski board rows have different lengths"));
        }
        check_side(w, h, KLOTSKI_MIN, KLOTSKI_MAX)?;
        let grid: Vec<u8> = rows.concat();
        let mut covered = vec![false; w * h];
        let mut items = Vec::new();
        for start in 0..w * h {
            if covered[start] {
                continue;
            }
            let ch = grid[start];
            let (r0, c0) = (start / w, start % w);
            let item = match ch {
                b'.' => Cell::Empty,
                b'#' => Cell::Wall,
                _ if ch.is_ascii_alphanumeric() => {
                    let mut pw = 1;
                    while c0 + pw < w && grid[start + pw] == ch {
                        pw += 1;
                    }
                    let mut ph = 1;
                    while r0 + ph < h && grid[start + ph * w] == ch {
                        ph += 1;
                    }
                    if pw > 8 || ph > 8 {
                        return Err(Error::parse(
                            "a Klotski piece is larger than 8 cells across",
                        ));
                    }
                    Cell::Piece {
                        w: pw as u8,
                        h: ph as u8,
                        target: ch == b'C',
                    }
                }
                _ => {
                    return Err(Error::parse(format!(
                        "unknown Klotski cell {:?}",
                        ch as char
                    )))
                }
            };
            let (iw, ih) = item.size();
            for r in r0..r0 + ih {
                for c in c0..c0 + iw {
                    let i = r * w + c;
                    if covered[i] || grid[i] != ch {
                        return Err(Error::parse(format!(
                            "Klotski piece {:?} is not a filled rectangle",
                            ch as char
                        )));
                    }
                    covered[i] = true;
                }
            }
            items.push(item);
        }
        // A letter used by two separate rectangles is two pieces in the text but one name.
        let mut letters: Vec<u8> = grid
            .iter()
            .copied()
            .filter(u8::is_ascii_alphanumeric)
            .collect();
        letters.sort_unstable();
        letters.dedup();
        let pieces = items
            .iter()
            .filter(|i| matches!(i, Cell::Piece { .. }))
            .count();
        if letters.len() != pieces {
            return Err(Error::parse(
                "a Klotski piece letter is used for two separate pieces",
            ));
        }
        Ok(KlotskiBoard { w, h, items })
    }

    /// Rows joined by `/`, pieces lettered in scan order (`C` for the target).
    pub fn body(&self) -> Result<String> {
        let mut grid = vec![b'?'; self.w * self.h];
        let mut next = 0;
        self.place(|cells, item| {
            let ch = match item {
                Cell::Empty => b'.',
                Cell::Wall => b'#',
                Cell::Piece { target: true, .. } => b'C',
                Cell::Piece { .. } => {
                    let Some(&ch) = LETTERS.get(next) else {
                        return Err(Error::bad_code(
                            "the Klotski board has more pieces than letters",
                        ));
                    };
                    next += 1;
                    ch
                }
            };
            for i in cells {
                grid[i] = ch;
            }
            Ok(())
        })?;
        let rows: Vec<&str> = grid
            .chunks(self.w)
            .map(|r| std::str::from_utf8(r).unwrap_or("?"))
            .collect();
        Ok(rows.join("/"))
    }

    /// Walks the items, handing each the cells it covers; fails when an item does not fit.
    fn place(&self, mut f: impl FnMut(Vec<usize>, Cell) -> Result<()>) -> Result<()> {
        let (w, h) = (self.w, self.h);
        let mut covered = vec![false; w * h];
        let mut cursor = 0;
        for &item in &self.items {
            while cursor < w * h && covered[cursor] {
                cursor += 1;
            }
            if cursor == w * h {
                return Err(Error::bad_code(
                    "the Klotski board has more pieces than room",
                ));
            }
            let (r0, c0) = (cursor / w, cursor % w);
            let (iw, ih) = item.size();
            if c0 + iw > w || r0 + ih > h {
                return Err(Error::bad_code("a Klotski piece sticks out of the board"));
            }
            let mut cells = Vec::with_capacity(iw * ih);
            for r in r0..r0 + ih {
                for c in c0..c0 + iw {
                    let i = r * w + c;
                    if covered[i] {
                        return Err(Error::bad_code("two Klotski pieces overlap"));
                    }
                    covered[i] = true;
                    cells.push(i);
                }
            }
            f(cells, item)?;
        }
        if covered.iter().any(|c| !c) {
            return Err(Error::bad_code(
                "the Klotski board leaves cells undescribed",
            ));
        }
        Ok(())
    }

    /// 3 bits per item: 0 empty, 1 wall, 2–6 the [`SHORT_PIECES`], 7 any other rectangle (then
    /// 3 bits width−1, 3 bits height−1, 1 bit target).
    pub fn write(&self, out: &mut Writer) {
        out.byte((self.w as u8) << 4 | self.h as u8);
        for item in &self.items {
            match *item {
                Cell::Empty => out.bits(0, 3),
                Cell::Wall => out.bits(1, 3),
                Cell::Piece { w, h, target } => {
                    match SHORT_PIECES.iter().position(|&p| p == (w, h, target)) {
                        Some(i) => out.bits(2 + i as u32, 3),
                        None => {
                            out.bits(7, 3);
                            out.bits(w as u32 - 1, 3);
                            out.bits(h as u32 - 1, 3);
                            out.bits(target as u32, 1);
                        }
                    }
                }
            }
        }
        out.align();
    }

    pub fn read(r: &mut Reader) -> Result<KlotskiBoard> {
        let (w, h) = read_size(r, KLOTSKI_MIN, KLOTSKI_MAX, "Klotski")?;
        let mut board = KlotskiBoard {
            w,
            h,
            items: Vec::new(),
        };
        let mut free = w * h;
        while free > 0 {
            let item = match r.bits(3, "the Klotski board")? {
                0 => Cell::Empty,
                1 => Cell::Wall,
                k @ 2..=6 => {
                    let (w, h, target) = SHORT_PIECES[k as usize - 2];
                    Cell::Piece { w, h, target }
                }
                _ => {
                    let pw = r.bits(3, "the Klotski board")? as u8 + 1;
                    let ph = r.bits(3, "the Klotski board")? as u8 + 1;
                    let target = r.bits(1, "the Klotski board")? == 1;
                    let item = Cell::Piece {
                        w: pw,
                        h: ph,
                        target,
                    };
                    // The short forms are the only forms of their shapes.
                    if SHORT_PIECES.contains(&(pw, ph, target)) {
                        return Err(Error::bad_code(
                            "a Klotski piece is written in a non-canonical form",
                        ));
                    }
                    item
                }
            };
            let (iw, ih) = item.size();
            if iw * ih > free {
                return Err(Error::bad_code(
                    "the Klotski board has more pieces than room",
                ));
            }
            free -= iw * ih;
            board.items.push(item);
        }
        r.align()?;
        // Check the layout fits together.
        board.place(|_, _| Ok(()))?;
        Ok(board)
    }
}

impl Cell {
    fn size(self) -> (usize, usize) {
        match self {
            Cell::Empty | Cell::Wall => (1, 1),
            Cell::Piece { w, h, .. } => (w as usize, h as usize),
        }
    }
}

/// A 2048 board: `side²` exponents row-major (0 = empty, k = tile 2^k, k ≤ 17), side 3 … 8
/// (cells past `side²` are 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board2048 {
    pub side: u8,
    pub cells: [u8; 64],
}

/// The first 5 bits of a sized 2048 board in the wide form: no exponent of a 4×4 cell
/// (at most 17) has this value.
const SIZED_MARK: u32 = 31;

impl Board2048 {
    /// A 4×4 board of sixteen exponents.
    pub fn four(cells: [u8; 16]) -> Board2048 {
        let mut all = [0u8; 64];
        all[..16].copy_from_slice(&cells);
        Board2048 {
            side: 4,
            cells: all,
        }
    }

    /// The exponents, row-major.
    pub fn exps(&self) -> &[u8] {
        &self.cells[..self.side as usize * self.side as usize]
    }

    /// Reads 9, 16, 25, 36, 49 or 64 tile values (commas or spaces between them).
    pub fn parse(body: &str) -> Result<Board2048> {
        let values: Vec<&str> = body.split([',', ' ']).filter(|t| !t.is_empty()).collect();
        let side = (3u8..=8).find(|&s| s as usize * s as usize == values.len());
        let Some(side) = side else {
            return Err(Error::parse(format!(
                "a 2048 board has 16 cells (or 9, 25, 36, 49, 64), not {}",
                values.len()
            )));
        };
        let mut cells = [0u8; 64];
        for (cell, v) in cells.iter_mut().zip(values) {
            let n: u32 = v
                .parse()
                .map_err(|_| Error::parse(format!("tile {v:?} is not a number")))?;
            *cell = match n {
                0 => 0,
                n if n >= 2 && n.is_power_of_two() && n.trailing_zeros() <= 17 => {
                    n.trailing_zeros() as u8
                }
                _ => {
                    return Err(Error::parse(format!(
                        "tile {n} is not 0 or a power of two from 2 to 131072"
                    )))
                }
            };
        }
        Ok(Board2048 { side, cells })
    }

    pub fn body(&self) -> String {
        let values: Vec<String> = self
            .exps()
            .iter()
            .map(|&e| if e == 0 { 0 } else { 1u32 << e }.to_string())
            .collect();
        values.join(",")
    }

    /// Whether the board needs the wide form: a tile above 32,768, or a size other than 4×4.
    pub fn is_wide(&self) -> bool {
        self.side != 4 || self.exps().iter().any(|&e| e > 15)
    }

    /// A 4×4: 16 4-bit exponents, or in the wide form 16 5-bit exponents (10 bytes). Any
    /// other size, always wide: 5 bits 31 (no 4×4 exponent), 4 bits the side, then `side²`
    /// 5-bit exponents, zero-padded to a byte.
    pub fn write(&self, out: &mut Writer) {
        if self.side != 4 {
            out.bits(SIZED_MARK, 5);
            out.bits(self.side as u32, 4);
            for &e in self.exps() {
                out.bits(e as u32, 5);
            }
            out.align();
            return;
        }
        if self.is_wide() {
            for &e in self.exps() {
                out.bits(e as u32, 5);
            }
            out.align();
            return;
        }
        for pair in self.exps().chunks(2) {
            out.byte(pair[0] << 4 | pair[1]);
        }
    }

    /// Reads what [`Board2048::write`] wrote; `wide` says which form. A 4×4 wide form must
    /// hold a tile above 32,768 (one text per board) and no exponent above 17.
    pub fn read(r: &mut Reader, wide: bool) -> Result<Board2048> {
        let mut cells = [0u8; 64];
        if wide {
            let first = r.bits(5, "the 2048 board")?;
            if first == SIZED_MARK {
                let side = r.bits(4, "the 2048 board")? as u8;
                if !(3..=8).contains(&side) || side == 4 {
                    return Err(Error::bad_code(
                        "the 2048 board's size in the code is not 3x3, 5x5 … 8x8",
                    ));
                }
                let n = side as usize * side as usize;
                for c in cells[..n].iter_mut() {
                    *c = r.bits(5, "the 2048 board")? as u8;
                }
                r.align()?;
                if cells.iter().any(|&e| e > 17) {
                    return Err(Error::bad_code("a 2048 tile in the code is above 131072"));
                }
                return Ok(Board2048 { side, cells });
            }
            cells[0] = first as u8;
            for c in cells[1..16].iter_mut() {
                *c = r.bits(5, "the 2048 board")? as u8;
            }
            r.align()?;
            let b = Board2048 { side: 4, cells };
            if b.exps().iter().any(|&e| e > 17) {
                return Err(Error::bad_code("a 2048 tile in the code is above 131072"));
            }
            if !b.is_wide() {
                return Err(Error::bad_code(
                    "the 2048 board is written in a non-canonical form",
                ));
            }
            return Ok(b);
        }
        let bytes = r.slice(8, "the 2048 board")?;
        for (i, b) in bytes.iter().enumerate() {
            cells[2 * i] = b >> 4;
            cells[2 * i + 1] = b & 15;
        }
        Ok(Board2048 { side: 4, cells })
    }
}

fn check_side(w: usize, h: usize, min: usize, max: usize) -> Result<()> {
    if !(min..=max).contains(&w) || !(min..=max).contains(&h) {
        return Err(Error::range(format!(
            "board size {w}x{h} is outside {min}x{min} … {max}x{max}"
        )));
    }
    Ok(())
}

fn parse_size(text: &str, min: usize, max: usize) -> Result<(usize, usize)> {
    let (w, h) = text
        .split_once('x')
        .ok_or_else(|| Error::parse(format!("size {text:?} is not of the form WxH")))?;
    let w: usize = w
        .parse()
        .map_err(|_| Error::parse(format!("width {w:?} is not a number")))?;
    let h: usize = h
        .parse()
        .map_err(|_| Error::parse(format!("height {h:?} is not a number")))?;
    check_side(w, h, min, max)?;
    Ok((w, h))
}

fn read_size(r: &mut Reader, min: usize, max: usize, what: &str) -> Result<(usize, usize)> {
    let b = r.byte("the board size")?;
    let (w, h) = ((b >> 4) as usize, (b & 15) as usize);
    if !(min..=max).contains(&w) || !(min..=max).contains(&h) {
        return Err(Error::bad_code(format!("a {what} board cannot be {w}x{h}")));
    }
    Ok((w, h))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip_klotski(body: &str) -> KlotskiBoard {
        let b = KlotskiBoard::parse(body).unwrap();
        let mut w = Writer::default();
        b.write(&mut w);
        let mut r = Reader::new(&w.bytes);
        let back = KlotskiBoard::read(&mut r).unwrap();
        assert_eq!(r.remaining(), 0);
        assert_eq!(back, b);
        back
    }

    #[test]
    fn klotski_layout_round_trip() {
        let b = round_trip_klotski("aCCbaCCbcddecsteu..v");
        assert_eq!(b.body().unwrap(), "aCCb/aCCb/cdde/cfge/h..i");
        // Bytes: size + 12 items × 3 bits = 5 bytes.
        let mut w = Writer::default();
        b.write(&mut w);
        assert_eq!(w.bytes.len(), 6);
        let b = round_trip_klotski("##...#/aCC.b#/aCC.b#/.dddd./......");
        assert_eq!(b.body().unwrap(), "##...#/aCC.b#/aCC.b#/.cccc./......");
        round_trip_klotski("CCC/CCC/...");
    }

    #[test]
    fn klotski_parse_errors() {
        assert!(KlotskiBoard::parse("aCCbaCCbcddecsteu..").is_err());
        assert!(KlotskiBoard::parse("aCCb/aCCb/cdde/cste/u.?v").is_err());
        assert!(KlotskiBoard::parse("aCCb/aCC/cdde/cste/u..v").is_err());
        // `a` is L-shaped.
        assert!(KlotskiBoard::parse("aCCb/aCCb/aade/cste/u..v").is_err());
        // `b` used twice, apart.
        assert!(KlotskiBoard::parse("aCCb/aCCb/.dd./.st./b..v").is_err());
        assert!(KlotskiBoard::parse("ab/ab").is_err());
    }

    #[test]
    fn slide_round_trip_and_errors() {
        let b = SlideBoard::parse("3x3:1,2,3,4,5,6,7,0,8").unwrap();
        assert_eq!(b.body(), "3x3:1,2,3,4,5,6,7,0,8");
        let mut w = Writer::default();
        b.write(&mut w);
        assert_eq!(w.bytes.len(), 4);
        assert_eq!(SlideBoard::read(&mut Reader::new(&w.bytes)).unwrap(), b);
        assert!(SlideBoard::parse("3x3:1,2,3,4,5,6,7,8,8").is_err());
        assert!(SlideBoard::parse("3x3:1,2,3,4,5,6,7,8").is_err());
        assert!(SlideBoard::parse("11x3:1").is_err());
        assert!(SlideBoard::read(&mut Reader::new(&[0x1f, 0])).is_err());
    }

    #[test]
    fn board2048_round_trip() {
        let b = Board2048::parse("0,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768")
            .unwrap();
        let mut w = Writer::default();
        b.write(&mut w);
        assert_eq!(w.bytes.len(), 8);
        assert_eq!(
            Board2048::read(&mut Reader::new(&w.bytes), false).unwrap(),
            b
        );
        assert_eq!(
            b.body(),
            "0,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768"
        );
        let wide = "131072,65536,0,0,0,0,0,0,0,0,0,0,0,0,0,2";
        let b = Board2048::parse(wide).unwrap();
        let mut w = Writer::default();
        b.write(&mut w);
        assert_eq!(w.bytes.len(), 10);
        assert_eq!(
            Board2048::read(&mut Reader::new(&w.bytes), true).unwrap(),
            b
        );
        assert_eq!(b.body(), wide);
        // The wide form of an ordinary board, and exponents above 17, are refused.
        let mut w = Writer::default();
        for e in [1u32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] {
            w.bits(e, 5);
        }
        assert!(Board2048::read(&mut Reader::new(&w.bytes), true).is_err());
        let mut w = Writer::default();
        for e in [18u32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] {
            w.bits(e, 5);
        }
        assert!(Board2048::read(&mut Reader::new(&w.bytes), true).is_err());
        assert!(Board2048::parse("1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0").is_err());
        assert!(Board2048::parse("262144,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0").is_err());
        assert!(Board2048::parse("0,0").is_err());
    }

    #[test]
    fn board2048_of_every_size_round_trips() {
        for side in [3u8, 5, 6, 7, 8] {
            let n = side as usize * side as usize;
            let values: Vec<String> = (0..n)
                .map(|i| match i % 19 {
                    0 => 0,
                    k => 1u32 << (k - 1).min(16) << 1,
                })
                .map(|v| v.to_string())
                .collect();
            let body = values.join(",");
            let b = Board2048::parse(&body).unwrap();
            assert_eq!(b.side, side);
            assert!(b.is_wide());
            let mut w = Writer::default();
            b.write(&mut w);
            assert_eq!(w.bytes.len(), (9 + 5 * n).div_ceil(8), "{side}");
            assert_eq!(
                Board2048::read(&mut Reader::new(&w.bytes), true).unwrap(),
                b
            );
            assert_eq!(b.body(), body);
            // A sized board cut short, or with a size the code never writes, is refused.
            assert!(
                Board2048::read(&mut Reader::new(&w.bytes[..w.bytes.len() - 2]), true).is_err()
            );
        }
        for bad_side in [0u32, 2, 4, 9, 15] {
            let mut w = Writer::default();
            w.bits(31, 5);
            w.bits(bad_side, 4);
            for _ in 0..16 {
                w.bits(1, 5);
            }
            w.align();
            let e = Board2048::read(&mut Reader::new(&w.bytes), true).unwrap_err();
            assert!(e.message.contains("size"), "{bad_side}: {}", e.message);
        }
        assert!(Board2048::parse(&["2"; 10].join(",")).is_err());
    }
}
