//! A Klotski board: its size, walls and pieces; the text form; bitboard geometry; and the
//! single-piece reachability that both play and the solver use.
//!
//! Cells are numbered `row * width + col` and a set of cells is a `u64` bit mask (boards
//! are at most 8×8). A piece is a filled rectangle named by one letter; its position is
//! its top-left cell (the *anchor*).

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::fmt;

/// What one move is, for counting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// One piece moves any number of cells, around corners too (the standard count).
    Piece,
    /// One piece slides any number of cells in one direction.
    Straight,
    /// One piece slides one cell.
    Unit,
}

impl Metric {
    pub const ALL: [Metric; 3] = [Metric::Piece, Metric::Straight, Metric::Unit];
    pub fn parse(s: &str) -> Option<Metric> {
        match s {
            "piece" => Some(Metric::Piece),
            "straight" => Some(Metric::Straight),
            "unit" => Some(Metric::Unit),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Metric::Piece => "piece",
            Metric::Straight => "straight",
            Metric::Unit => "unit",
        }
    }
}

/// Smallest and largest board side.
pub const MIN_SIDE: usize = 3;
pub const MAX_SIDE: usize = 8;
/// The letter of the piece that must escape (曹操).
pub const GOAL: char = 'C';

/// One piece: a `height`×`width` rectangle whose top-left cell is (`row`, `col`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    pub letter: char,
    pub row: u8,
    pub col: u8,
    pub height: u8,
    pub width: u8,
}

impl Piece {
    pub fn pos(&self) -> (u8, u8) {
        (self.row, self.col)
    }
    pub fn shape(&self) -> (u8, u8) {
        (self.height, self.width)
    }
}

/// A reachable position of a piece and a shortest one-cell-step path to it: `path` lists
/// the piece's top-left cell from where it stands now (first) to `to` (last).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Target {
    pub to: (u8, u8),
    pub path: Vec<(u8, u8)>,
}

/// A board: rectangle of `width`×`height` cells, `#` walls, and pieces (sorted by letter).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    width: u8,
    height: u8,
    walls: u64,
    pieces: Vec<Piece>,
}

/// Bitboard geometry of one board size and wall set.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Geom {
    pub w: u32,
    pub h: u32,
    pub walls: u64,
    /// Anchors not in the first column (may step left).
    pub not_first_col: u64,
    /// Anchors not in the last column (may step right).
    pub not_last_col: u64,
}

impl Geom {
    pub fn new(w: u32, h: u32, walls: u64) -> Geom {
        let mut first = 0u64;
        let mut last = 0u64;
        for r in 0..h {
            first |= 1u64 << (r * w);
            last |= 1u64 << (r * w + w - 1);
        }
        let all = all_cells(w, h);
        Geom {
            w,
            h,
            walls,
            not_first_col: all & !first,
            not_last_col: all & !last,
        }
    }

    /// The cells of a `sh`×`sw` piece anchored at cell 0.
    pub fn shape_mask(&self, sh: u32, sw: u32) -> u64 {
        let row = if sw >= 64 { u64::MAX } else { (1u64 << sw) - 1 };
        (0..sh).fold(0, |m, r| m | (row << (r * self.w)))
    }

    /// Anchors where a `sh`×`sw` piece fits inside the board and off the walls.
    pub fn valid_anchors(&self, sh: u32, sw: u32) -> u64 {
        let mut valid = 0u64;
        if sh > self.h || sw > self.w {
            return 0;
        }
        for r in 0..=self.h - sh {
            for c in 0..=self.w - sw {
                valid |= 1u64 << (r * self.w + c);
            }
        }
        valid & !spread(self.walls, sh, sw, self.w)
    }

    /// One bit-parallel step of every anchor in `from` in the four directions, kept in `free`.
    #[inline(always)]
    pub fn step(&self, from: u64, free: u64) -> u64 {
        ((from >> self.w)
            | (from << self.w)
            | ((from & self.not_first_col) >> 1)
            | ((from & self.not_last_col) << 1))
            & free
    }

    /// Every anchor reachable from `start` by one-cell steps inside `free` (including `start`).
    #[inline(always)]
    pub fn flood(&self, start: u64, free: u64) -> u64 {
        let mut reach = start;
        loop {
            let next = reach | self.step(reach, free);
            if next == reach {
                return reach;
            }
            reach = next;
        }
    }

    /// The anchors a straight slide from `a` in direction `d` passes while they are in `free`,
    /// nearest first.
    #[inline(always)]
    pub fn ray(&self, a: u32, d: usize, free: u64) -> impl Iterator<Item = u32> + '_ {
        std::iter::successors(self.neighbour(a, d), move |&b| self.neighbour(b, d))
            .take_while(move |&n| free >> n & 1 != 0)
    }

    /// The anchor one step from `a` in direction `d` (0 up, 1 down, 2 left, 3 right), if on
    /// the board.
    #[inline(always)]
    pub fn neighbour(&self, a: u32, d: usize) -> Option<u32> {
        let (r, c) = (a / self.w, a % self.w);
        match d {
            0 if r > 0 => Some(a - self.w),
            1 if r + 1 < self.h => Some(a + self.w),
            2 if c > 0 => Some(a - 1),
            3 if c + 1 < self.w => Some(a + 1),
            _ => None,
        }
    }
}

/// All cells of a `w`×`h` board.
pub(crate) fn all_cells(w: u32, h: u32) -> u64 {
    let n = w * h;
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// The anchors at which a `sh`×`sw` piece would cover a cell of `cells` (board width `w`).
#[inline(always)]
pub(crate) fn spread(cells: u64, sh: u32, sw: u32, w: u32) -> u64 {
    let mut x = cells;
    for dc in 1..sw {
        x |= cells >> dc;
    }
    let mut y = x;
    for dr in 1..sh {
        y |= x >> (dr * w);
    }
    y
}

fn side_error(what: &str, n: usize) -> Error {
    Error::range(format!(
        "board {what} is {n}; Klotski boards are {MIN_SIDE} to {MAX_SIDE} cells on each side"
    ))
}

/// Pieces are named by ASCII letters (digits are not allowed, so that a board in a game ID
/// never ends in digits and cannot be mistaken for a `#seed`).
fn is_piece_char(ch: char) -> bool {
    ch.is_ascii_alphabetic()
}

impl Board {
    /// Parse a board: rows joined by `/` (e.g. `aCCb/aCCb/cdde/cste/u..v`), or the
    /// 20-character 4×5 form of `klotski-classic.tsv`. One letter per piece
    /// repeated over its cells, `C` the piece that escapes, `.` empty, `#` wall.
    pub fn parse(text: &str) -> Result<Board> {
        let text = text.trim();
        if text.is_empty() {
            return Err(Error::parse("empty board"));
        }
        if text.chars().count() > MAX_SIDE * (MAX_SIDE + 1) {
            return Err(Error::range(format!(
                "board text is {} characters long; at most {MAX_SIDE}×{MAX_SIDE} boards are accepted",
                text.chars().count()
            )));
        }
        let rows: Vec<Vec<char>> = if text.contains('/') {
            text.split('/').map(|r| r.chars().collect()).collect()
        } else {
            let cells: Vec<char> = text.chars().collect();
            if cells.len() != 20 {
                return Err(Error::parse(format!(
                    "a board without '/' must be the 20-character 4×5 form, but this one has {} \
                     characters (join rows with '/' for other sizes)",
                    cells.len()
                )));
            }
            cells.chunks(4).map(|c| c.to_vec()).collect()
        };
        let height = rows.len();
        let width = rows[0].len();
        for (r, row) in rows.iter().enumerate() {
            if row.is_empty() {
                return Err(Error::parse(format!("row {} is empty", r + 1)));
            }
            if row.len() != width {
                return Err(Error::parse(format!(
                    "ragged rows: row {} has {} cells but row 1 has {width}",
                    r + 1,
                    row.len()
                )));
            }
        }
        if !(MIN_SIDE..=MAX_SIDE).contains(&width) {
            return Err(side_error("width", width));
        }
        if !(MIN_SIDE..=MAX_SIDE).contains(&height) {
            return Err(side_error("height", height));
        }
        let mut walls = 0u64;
        // Cells of each piece character, in reading order.
        let mut cells: Vec<(char, Vec<(usize, usize)>)> = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            for (c, &ch) in row.iter().enumerate() {
                match ch {
                    '.' => {}
                    '#' => walls |= 1u64 << (r * width + c),
                    ch if is_piece_char(ch) => match cells.iter_mut().find(|(l, _)| *l == ch) {
                        Some((_, v)) => v.push((r, c)),
                        None => cells.push((ch, vec![(r, c)])),
                    },
                    other => {
                        return Err(Error::parse(format!(
                            "unknown character {other:?} at row {}, column {} (pieces are letters \
                             A-Z or a-z, '.' is empty, '#' a wall)",
                            r + 1,
                            c + 1
                        )))
                    }
                }
            }
        }
        let mut pieces = Vec::with_capacity(cells.len());
        for (letter, cs) in &cells {
            let r0 = cs.iter().map(|p| p.0).min().unwrap_or(0);
            let r1 = cs.iter().map(|p| p.0).max().unwrap_or(0);
            let c0 = cs.iter().map(|p| p.1).min().unwrap_or(0);
            let c1 = cs.iter().map(|p| p.1).max().unwrap_or(0);
            let area = (r1 - r0 + 1) * (c1 - c0 + 1);
            if cs.len() != area {
                return Err(Error::parse(if connected(cs) {
                    format!("piece {letter:?} is not a filled rectangle")
                } else {
                    format!("piece {letter:?} is split into separate parts (each letter names one piece)")
                }));
            }
            pieces.push(Piece {
                letter: *letter,
                row: r0 as u8,
                col: c0 as u8,
                height: (r1 - r0 + 1) as u8,
                width: (c1 - c0 + 1) as u8,
            });
        }
        Board::new(width, height, walls, pieces)
    }

    /// Build a board from parts, checking everything `parse` checks.
    pub fn new(width: usize, height: usize, walls: u64, mut pieces: Vec<Piece>) -> Result<Board> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&width) {
            return Err(side_error("width", width));
        }
        if !(MIN_SIDE..=MAX_SIDE).contains(&height) {
            return Err(side_error("height", height));
        }
        let g = Geom::new(
            width as u32,
            height as u32,
            walls & all_cells(width as u32, height as u32),
        );
        if walls & !all_cells(width as u32, height as u32) != 0 {
            return Err(Error::range("a wall lies outside the board"));
        }
        pieces.sort_by_key(|p| p.letter);
        let mut occ = walls;
        for (i, p) in pieces.iter().enumerate() {
            if !is_piece_char(p.letter) {
                return Err(Error::parse(format!("{:?} cannot name a piece", p.letter)));
            }
            if i > 0 && pieces[i - 1].letter == p.letter {
                return Err(Error::parse(format!("two pieces are named {:?}", p.letter)));
            }
            if p.height == 0
                || p.width == 0
                || p.row as usize + p.height as usize > height
                || p.col as usize + p.width as usize > width
            {
                return Err(Error::range(format!(
                    "piece {:?} does not fit on the board",
                    p.letter
                )));
            }
            let m = g.shape_mask(p.height as u32, p.width as u32)
                << (p.row as u32 * g.w + p.col as u32);
            if m & occ != 0 {
                return Err(Error::parse(format!(
                    "piece {:?} overlaps a wall or another piece",
                    p.letter
                )));
            }
            occ |= m;
        }
        let goal = *pieces
            .iter()
            .find(|p| p.letter == GOAL)
            .ok_or_else(|| Error::parse("no piece C (the piece that must escape) on the board"))?;
        if !(width - goal.width as usize).is_multiple_of(2) {
            return Err(Error::parse(format!(
                "C is {} cells wide on a board {width} cells wide, so the exit cannot be centred \
                 (board width minus C's width must be even)",
                goal.width
            )));
        }
        let b = Board {
            width: width as u8,
            height: height as u8,
            walls,
            pieces,
        };
        let (er, ec) = b.exit();
        if g.valid_anchors(goal.height as u32, goal.width as u32)
            & (1u64 << (er as u32 * g.w + ec as u32))
            == 0
        {
            return Err(Error::parse(
                "a wall blocks the exit (C's place at the bottom edge, centred)",
            ));
        }
        Ok(b)
    }

    pub fn width(&self) -> usize {
        self.width as usize
    }
    pub fn height(&self) -> usize {
        self.height as usize
    }
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }
    pub fn piece(&self, letter: char) -> Option<&Piece> {
        self.pieces.iter().find(|p| p.letter == letter)
    }
    /// Walls as a cell mask (bit `row * width + col`).
    pub fn walls(&self) -> u64 {
        self.walls
    }
    pub fn is_wall(&self, row: usize, col: usize) -> bool {
        row < self.height()
            && col < self.width()
            && self.walls >> (row * self.width() + col) & 1 == 1
    }
    pub(crate) fn geom(&self) -> Geom {
        Geom::new(self.width as u32, self.height as u32, self.walls)
    }

    /// The goal piece `C`.
    pub fn goal_piece(&self) -> &Piece {
        self.piece(GOAL)
            .expect("a board always has C (checked when built)")
    }

    /// Where C's top-left cell must be to escape: on the bottom edge, centred.
    pub fn exit(&self) -> (u8, u8) {
        let c = self.goal_piece();
        (self.height - c.height, (self.width - c.width) / 2)
    }

    pub fn is_solved(&self) -> bool {
        self.goal_piece().pos() == self.exit()
    }

    /// The character at a cell: a piece letter, `.` or `#`.
    pub fn at(&self, row: usize, col: usize) -> char {
        if self.is_wall(row, col) {
            return '#';
        }
        self.pieces
            .iter()
            .find(|p| {
                (p.row as usize..p.row as usize + p.height as usize).contains(&row)
                    && (p.col as usize..p.col as usize + p.width as usize).contains(&col)
            })
            .map_or('.', |p| p.letter)
    }

    /// Rows joined by `/` (the game-ID body form).
    pub fn to_rows(&self) -> String {
        let mut s = String::with_capacity(self.height() * (self.width() + 1));
        for r in 0..self.height() {
            if r > 0 {
                s.push('/');
            }
            for c in 0..self.width() {
                s.push(self.at(r, c));
            }
        }
        s
    }

    /// The 20-character form for a 4×5 board without walls (as in `klotski-classic.tsv`),
    /// rows joined by `/` otherwise.
    pub fn to_compact(&self) -> String {
        if self.width == 4 && self.height == 5 {
            self.to_rows().replace('/', "")
        } else {
            self.to_rows()
        }
    }

    /// Cells covered by pieces, as a mask.
    pub(crate) fn occupancy(&self, g: &Geom) -> u64 {
        self.pieces.iter().fold(0, |m, p| m | piece_mask(g, p))
    }

    /// The anchors the piece `letter` may occupy with all other pieces fixed, and its index.
    pub(crate) fn free_for(&self, letter: char) -> Result<(usize, u64, Geom)> {
        let i = self
            .pieces
            .iter()
            .position(|p| p.letter == letter)
            .ok_or_else(|| Error::illegal(format!("there is no piece {letter:?} on the board")))?;
        let g = self.geom();
        let p = &self.pieces[i];
        let others = self.occupancy(&g) & !piece_mask(&g, p);
        let (sh, sw) = (p.height as u32, p.width as u32);
        let free = g.valid_anchors(sh, sw) & !spread(others, sh, sw, g.w);
        Ok((i, free, g))
    }

    /// Every position the piece `letter` can reach in one move (any number of cells, around
    /// corners, others fixed), each with a shortest path; nearest first.
    pub fn targets(&self, letter: char) -> Result<Vec<Target>> {
        let (i, free, g) = self.free_for(letter)?;
        let p = &self.pieces[i];
        let start = p.row as u32 * g.w + p.col as u32;
        let (order, parent) = unit_bfs(&g, start, free);
        Ok(order
            .iter()
            .skip(1)
            .map(|&a| Target {
                to: rc(&g, a),
                path: path_to(&g, &parent, a),
            })
            .collect())
    }

    /// Every place piece `i` can go in one move of `metric` (one piece anywhere it can
    /// reach / one straight slide / one cell).
    pub(crate) fn moves_of(&self, i: usize, metric: Metric) -> Vec<(u8, u8)> {
        let Some(p) = self.pieces.get(i) else {
            return Vec::new();
        };
        let Ok((_, free, g)) = self.free_for(p.letter) else {
            return Vec::new();
        };
        let x = p.row as u32 * g.w + p.col as u32;
        let mut out = Vec::new();
        match metric {
            Metric::Piece => {
                let mut t = g.flood(1u64 << x, free) & !(1u64 << x);
                while t != 0 {
                    out.push(rc(&g, t.trailing_zeros()));
                    t &= t - 1;
                }
            }
            Metric::Unit | Metric::Straight => {
                for d in 0..4 {
                    for b in g.ray(x, d, free) {
                        out.push(rc(&g, b));
                        if metric == Metric::Unit {
                            break;
                        }
                    }
                }
            }
        }
        out
    }

    /// Move piece `i` to anchor (row, col) without any check (callers checked legality).
    pub(crate) fn set_pos(&mut self, i: usize, to: (u8, u8)) {
        self.pieces[i].row = to.0;
        self.pieces[i].col = to.1;
    }

    /// A text that is the same for two boards exactly when they hold the same shapes at the
    /// same places, up to which letter names which piece and (on a left-right symmetric
    /// board) up to mirroring. Used to tell generated layouts from the classics.
    pub fn canonical(&self) -> String {
        let plain = |mirror: bool| {
            let mut cells = vec!['.'; self.width() * self.height()];
            for r in 0..self.height() {
                for c in 0..self.width() {
                    if self.is_wall(r, c) {
                        cells[r * self.width() + c] = '#';
                    }
                }
            }
            for p in &self.pieces {
                let col = if mirror {
                    self.width - p.width - p.col
                } else {
                    p.col
                } as usize;
                // One symbol per shape; C stays distinct from other pieces of its shape.
                let sym = if p.letter == GOAL {
                    '@'
                } else {
                    SHAPE_SYMBOLS[(p.height as usize - 1) * MAX_SIDE + p.width as usize - 1] as char
                };
                for r in p.row as usize..(p.row + p.height) as usize {
                    for c in col..col + p.width as usize {
                        cells[r * self.width() + c] = sym;
                    }
                }
            }
            cells
                .chunks(self.width())
                .map(|r| r.iter().collect::<String>())
                .collect::<Vec<_>>()
                .join("/")
        };
        let a = plain(false);
        if self.is_mirror_symmetric() {
            a.min(plain(true))
        } else {
            a
        }
    }

    /// True when the walls are symmetric left-right (then so is the exit, and mirroring a
    /// position keeps its distance to the goal).
    pub fn is_mirror_symmetric(&self) -> bool {
        (0..self.height()).all(|r| {
            (0..self.width()).all(|c| self.is_wall(r, c) == self.is_wall(r, self.width() - 1 - c))
        })
    }
}

/// One symbol per piece shape (height, width) for [`Board::canonical`].
const SHAPE_SYMBOLS: &[u8; MAX_SIDE * MAX_SIDE] =
    b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+*";

pub(crate) fn piece_mask(g: &Geom, p: &Piece) -> u64 {
    g.shape_mask(p.height as u32, p.width as u32) << (p.row as u32 * g.w + p.col as u32)
}

pub(crate) fn rc(g: &Geom, a: u32) -> (u8, u8) {
    ((a / g.w) as u8, (a % g.w) as u8)
}

/// Breadth-first search over anchors by one-cell steps inside `free`: the visiting order
/// (starting with `start`) and each visited anchor's predecessor (`u8::MAX` = none).
pub(crate) fn unit_bfs(g: &Geom, start: u32, free: u64) -> (Vec<u32>, [u8; 64]) {
    let mut parent = [u8::MAX; 64];
    let mut seen = 1u64 << start;
    let mut order = vec![start];
    let mut head = 0;
    while head < order.len() {
        let a = order[head];
        head += 1;
        for d in 0..4 {
            if let Some(b) = g.neighbour(a, d) {
                if free >> b & 1 == 1 && seen >> b & 1 == 0 {
                    seen |= 1u64 << b;
                    parent[b as usize] = a as u8;
                    order.push(b);
                }
            }
        }
    }
    (order, parent)
}

/// The path from the BFS start to `a` (both included) as (row, col) anchors.
pub(crate) fn path_to(g: &Geom, parent: &[u8; 64], a: u32) -> Vec<(u8, u8)> {
    let mut path = vec![rc(g, a)];
    let mut cur = a as u8;
    while parent[cur as usize] != u8::MAX {
        cur = parent[cur as usize];
        path.push(rc(g, cur as u32));
    }
    path.reverse();
    path
}

/// Fewest straight slides (any number of cells in one direction) from `from` to `to`
/// inside `free`; `None` if unreachable.
pub(crate) fn straight_distance(g: &Geom, from: u32, to: u32, free: u64) -> Option<u32> {
    let mut dist = [u32::MAX; 64];
    dist[from as usize] = 0;
    let mut queue = vec![from];
    let mut head = 0;
    while head < queue.len() {
        let a = queue[head];
        head += 1;
        if a == to {
            return Some(dist[a as usize]);
        }
        for d in 0..4 {
            for b in g.ray(a, d, free) {
                if dist[b as usize] == u32::MAX {
                    dist[b as usize] = dist[a as usize] + 1;
                    queue.push(b);
                }
            }
        }
    }
    None
}

/// True if the cells are 4-connected.
fn connected(cells: &[(usize, usize)]) -> bool {
    let mut seen = vec![false; cells.len()];
    let mut stack = vec![0usize];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        let (r, c) = cells[i];
        for (j, &(r2, c2)) in cells.iter().enumerate() {
            if !seen[j] && r.abs_diff(r2) + c.abs_diff(c2) == 1 {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen.iter().all(|&s| s)
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_rows())
    }
}

impl std::str::FromStr for Board {
    type Err = Error;
    fn from_str(s: &str) -> Result<Board> {
        Board::parse(s)
    }
}
