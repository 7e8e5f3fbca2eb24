//! The number slide (数字华容道): a W×H board (2 ≤ W, H ≤ 10) holding the tiles 1 … W·H−1 and
//! a blank; the goal is 1 … W·H−1 row-major with the blank bottom-right.
//!
//! # Rules and counting
//! A move taps a tile in the blank's row or column: that tile and every tile between it and
//! the blank slide one cell toward the blank ([`Move`] = `{"tile": n}`). Two counts are kept:
//! *tile moves* (each tile that slides one cell counts 1; this is [`Game::moves`]) and *line
//! moves* (each tap counts 1). `counters()` = `{"tile": n, "line": n}`.
//!
//! # Game IDs
//! - exact board: `slide:WxH:<tiles comma-separated, 0 = blank>`, e.g. `slide:3x3:1,2,3,4,5,6,7,0,8`
//!   (must be solvable);
//! - generated: `slide:WxH#seed` (uniform among solvable boards) or `slide:WxH/<difficulty>#seed`;
//! - picture puzzles (the tiles show parts of an image instead of numbers; the rules are the
//!   same): a `/picture:<name>` segment after the size and any difficulty, square sizes
//!   3×3 … 6×6 only ([`PICTURE_SIDES`]):
//!   `slide:3x3/picture:lotus#12`, `slide:4x4/hard/picture:pagoda#5`,
//!   `slide:3x3/picture:lotus:1,2,3,4,5,6,7,0,8` (exact board).
//!   `<name>` is `[a-z0-9-]{1,32}`: one of the built-in pictures ([`pictures`]), or any other
//!   name for a picture of the player's own (`custom`, a photo id), which the app resolves.
//!   [`split_picture`] separates the segment; [`Slide::picture`] and [`Slide::record_scope`]
//!   read it back.
//!
//! # Record scopes
//! [`Slide::record_scope`] (from the start position; [`record_scope`] from an ID body):
//! `slide:WxH` for number games, `slide:WxH/picture` for picture games (every picture of one
//! size shares one scope: the puzzle is the same, only the drawing differs).
//!
//! # Difficulty
//! Defined by the optimal number of tile moves, for 3×3 and 4×4 only:
//!
//! | level    | 3×3    | 4×4    |
//! |----------|--------|--------|
//! | `easy`   | 8–14   | 20–30  |
//! | `medium` | 15–20  | 31–40  |
//! | `hard`   | 21–25  | 41–50  |
//! | `expert` | 26–31  | 51–80  |
//!
//! # Generation
//! Seeded by [`crate::rng::stream`]`(seed, "slide")`, so a seed is a game ID on every platform
//! forever. Without a difficulty: a uniform shuffle (Fisher–Yates with [`crate::rng::below`]),
//! and if it is unsolvable the two first non-blank cells are swapped (a parity-flipping
//! bijection, so the result is uniform over the solvable boards); the solved board is drawn
//! again. With a difficulty, see [`generate`].
//!
//! # Solvers ([`solve`])
//! - at most 10 cells (2×2 … 3×3, 2×5, 5×2): exact distance tables (`table.rs`), optimal;
//! - 4×4, 3×4, 4×3, 3×5, 5×3, 2×6, 6×2: IDA* with additive pattern databases (`pdb.rs`),
//!   optimal; the 4×4 tables ship in the binary, the others are built on first use;
//! - anything else: a fast reduction solver (`reduce.rs`), not optimal.
//!
//! Hints are the first tap of that solution; `optimal` means optimal in tile moves. See
//! `README.md` beside this file for the figures.

mod board;
mod code;
mod near;
mod pdb;
pub mod pictures;
mod reduce;
pub mod splits;
pub mod run;
mod table;

pub use board::{check_size, parse_size, Board, Moved, MAX_SIDE, MIN_SIDE};
pub use near::HARD_4X4;
pub use pdb::{
    build_pdb, embedded_4x4_loads, has_pdb, install_pdb4x4, needs_pdb4x4, partition, pdb, pdb_is_built, solve_optimal, solve_optimal_until, TABLES_MISSING,
    solve_weighted, Found, Limit, PdbSet, Weight,
};
pub use reduce::solve_fast;
pub(crate) use table::SizeCache;
pub use table::{build_table, has_table, is_built, table, Table, TABLE_SIZES};

use crate::error::{Error, Result};
use crate::game::{Cancel, Game, Hint, Kind, Solved, Status};
use crate::rng::{self, ChaCha8Rng};
use serde::{Deserialize, Serialize};
use crate::clock::{Clock, Deadline};
use std::time::Duration;

/// One tap: `tile` and every tile between it and the blank slide toward the blank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Move {
    pub tile: u16,
}

/// What a move changed: the tiles that slid, with their cell indices (row-major), the one
/// next to the blank first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effect {
    pub moved: Vec<Moved>,
}

/// A difficulty level: a band of optimal solution lengths (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
    Expert,
}

impl Difficulty {
    pub const ALL: [Difficulty; 4] = [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Expert,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Expert => "expert",
        }
    }

    pub fn parse(text: &str) -> Result<Difficulty> {
        Difficulty::ALL
            .into_iter()
            .find(|d| d.as_str() == text)
            .ok_or_else(|| {
                Error::parse(format!(
                    "unknown difficulty {text:?} (expected easy, medium, hard or expert)"
                ))
            })
    }

    /// The band of optimal lengths (tile moves, inclusive) on a `w`×`h` board, if defined.
    pub fn band(self, w: usize, h: usize) -> Option<(u32, u32)> {
        let i = self as usize;
        match (w, h) {
            (3, 3) => Some([(8, 14), (15, 20), (21, 25), (26, 31)][i]),
            (4, 4) => Some([(20, 30), (31, 40), (41, 50), (51, 80)][i]),
            _ => None,
        }
    }
}

/// A solution: single-tile moves (the tile that slides into the blank, in order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Solution {
    pub tiles: Vec<u16>,
    /// True when no shorter solution exists (in tile moves).
    pub optimal: bool,
    /// Search nodes expanded, where the solver searches.
    pub nodes: Option<u64>,
}

/// A solution from `board` to the goal. Exact tables for boards of at most 10 cells.
/// Unsolvable boards give `ErrorCode::Unsolvable`; a cancelled search `ErrorCode::Cancelled`.
///
/// The optimal IDA* of the 4×4-class sizes stops at the deadline of the thread's ambient
/// [`Budget`](crate::budget::Budget) (none by default): past it, `Unsupported`. Its
/// memory is the size's shared pattern tables and a path of at most a few hundred moves, far
/// below the budget's bytes.
pub fn solve(board: &Board, cancel: &Cancel) -> Result<Solution> {
    searches!();
    if !board.is_solvable() {
        return Err(Error::unsolvable(format!(
            "this {}x{} board cannot reach the goal (its parity is wrong: swap any two tiles to fix it)",
            board.width(),
            board.height()
        )));
    }
    if board.is_solved() {
        return Ok(Solution {
            tiles: Vec::new(),
            optimal: true,
            nodes: Some(0),
        });
    }
    if cancel.is_cancelled() {
        return Err(Error::cancelled());
    }
    if let Some(t) = table(board.width(), board.height()) {
        return Ok(Solution {
            tiles: t.solve(board)?,
            optimal: true,
            nodes: None,
        });
    }
    if has_pdb(board.width(), board.height()) {
        let bounds = crate::budget::ambient();
        let found = match bounds.deadline() {
            None => solve_optimal(board, cancel, None)?,
            Some(deadline) => {
                let limit = Limit {
                    deadline: Some(deadline),
                    nodes: None,
                };
                solve_weighted(board, Weight::One, &limit, cancel)?.ok_or_else(|| {
                    Error::unsupported(format!(
                        "the optimal {}x{} search ran out of its time budget",
                        board.width(),
                        board.height()
                    ))
                })?
            }
        };
        let tiles = found
            .tiles
            .ok_or_else(|| Error::unsolvable("no solution found"))?;
        return Ok(Solution {
            tiles,
            optimal: true,
            nodes: Some(found.nodes),
        });
    }
    solve_big(board, &Limit::NONE, cancel)
}

/// Boards without an optimal solver: 5×5 by [`near`]'s sub-goal search, bigger ones by
/// reduction down to a 4×4 finished near-optimally.
fn solve_big(board: &Board, limit: &Limit, cancel: &Cancel) -> Result<Solution> {
    let path = if (board.width(), board.height()) == (5, 5) {
        near::solve_5x5(board, limit, cancel)?
    } else {
        near::solve_reduced(board, limit, cancel)?
    };
    Ok(Solution {
        tiles: path.tiles,
        optimal: false,
        nodes: Some(path.nodes),
    })
}

/// [`solve`] within about `budget` as `clock` measures it (the search checks the clock every
/// few thousand nodes, so it may overrun by a millisecond or two): on the 4×4-class sizes the
/// optimal solution when its search finishes in time, otherwise the shortest path found by
/// weighted searches (`optimal: false`); exact-table sizes are always optimal and instant;
/// bigger boards as [`solve`], cut short by the deadline where it helps. Without a budget,
/// exactly [`solve`].
pub fn solve_within(
    board: &Board,
    budget: Option<Duration>,
    clock: &dyn Clock,
    cancel: &Cancel,
) -> Result<Solution> {
    searches!();
    let Some(budget) = budget else {
        return solve(board, cancel);
    };
    // Keep a margin for the caller's own work and for a search that is between two looks
    // at the clock: a tenth of the budget, at most 15 ms.
    let margin = (budget / 10).min(Duration::from_millis(15));
    let limit = Limit {
        deadline: Some(Deadline::after(clock, budget - margin)),
        nodes: None,
    };
    let (w, h) = (board.width(), board.height());
    if !board.is_solvable() || board.is_solved() || has_table(w, h) {
        return solve(board, cancel);
    }
    if cancel.is_cancelled() {
        return Err(Error::cancelled());
    }
    if has_pdb(w, h) {
        let path = near::anytime_pdb(board, &limit, cancel)?;
        return Ok(Solution {
            tiles: path.tiles,
            optimal: path.optimal,
            nodes: Some(path.nodes),
        });
    }
    solve_big(board, &limit, cancel)
}

/// Build (once per process) whatever tables the solver of `w`×`h` boards uses, so the first
/// hint is instant: call it on a background thread when a game of that size opens. 4×4 takes
/// a few seconds the first time; sizes without tables return at once.
pub fn prepare(w: usize, h: usize) {
    if has_table(w, h) {
        table(w, h);
    } else if has_pdb(w, h) {
        pdb(w, h);
    }
}

/// The optimal solution length of `board` where it is cheap to know (exact tables).
pub fn optimal_length(board: &Board) -> Option<u32> {
    let t = table(board.width(), board.height())?;
    t.distance(board).ok().flatten().map(u32::from)
}

fn shuffled(w: usize, h: usize, rng: &mut ChaCha8Rng) -> Board {
    let n = w * h;
    let mut cells: Vec<u8> = (1..n as u8).collect();
    cells.push(0);
    for i in (1..n).rev() {
        let j = rng::below(rng, i as u64 + 1) as usize;
        cells.swap(i, j);
    }
    let mut b = Board::from_cells_unchecked(w, h, cells);
    if !b.is_solvable() {
        let mut cells = b.cells().to_vec();
        let mut non_blank = (0..n).filter(|&i| cells[i] != 0);
        let (a, c) = (non_blank.next().unwrap_or(0), non_blank.next().unwrap_or(1));
        cells.swap(a, c);
        b = Board::from_cells_unchecked(w, h, cells);
    }
    b
}

/// Generate a board, reproducibly from `seed`.
///
/// Without a difficulty: uniform among the solvable boards, never the solved one.
/// With a difficulty (3×3 and 4×4 only): a board whose optimal length lies in the band.
/// - 3×3, and 4×4 `hard` and `expert`: uniform shuffles are drawn until one falls in the band,
///   so the board is uniform among the boards of the band.
/// - 4×4 `easy` and `medium` (rare among uniform boards): a random walk of the blank from the
///   goal (never straight back) until the tiles' Manhattan distance reaches a target drawn from
///   the band, then the optimal length is checked; walks are drawn until one falls in the band.
///
/// Every choice depends only on the seed, the Manhattan distance and the optimal length (a
/// property of the board, not of the solver), so a seed gives the same board forever.
pub fn generate(w: usize, h: usize, difficulty: Option<Difficulty>, seed: u64) -> Result<Board> {
    generate_inner(w, h, difficulty, seed).map(|(b, _)| b)
}

/// [`generate`], also returning the optimal length: known from the tables for small sizes,
/// from the generator's check for difficulty boards (for the 4×4 `expert` band, whose top is
/// the 4×4 maximum of 80, it is computed by a full optimal search), otherwise `None`.
pub fn generate_with_length(
    w: usize,
    h: usize,
    difficulty: Option<Difficulty>,
    seed: u64,
) -> Result<(Board, Option<u32>)> {
    let (b, len) = generate_inner(w, h, difficulty, seed)?;
    if len.is_none() && difficulty.is_some() {
        let found = solve_optimal(&b, &Cancel::new(), None)?;
        return Ok((b, found.tiles.map(|t| t.len() as u32)));
    }
    Ok((b, len))
}

/// Longest optimal solution of any 4×4 board (Brüngger et al., 1999).
const MAX_4X4: u32 = 80;

fn generate_inner(
    w: usize,
    h: usize,
    difficulty: Option<Difficulty>,
    seed: u64,
) -> Result<(Board, Option<u32>)> {
    check_size(w, h)?;
    let mut rng = rng::stream(seed, "slide");
    let Some(d) = difficulty else {
        loop {
            let b = shuffled(w, h, &mut rng);
            if !b.is_solved() {
                let len = optimal_length(&b);
                return Ok((b, len));
            }
        }
    };
    let (lo, hi) = d.band(w, h).ok_or_else(|| {
        Error::range(format!(
            "difficulty levels exist for 3x3 and 4x4 boards only, not {w}x{h}"
        ))
    })?;
    let cancel = Cancel::new();
    // Whether the optimal length of `b` lies in lo..=hi, with the length if it was learnt.
    let in_band = |b: &Board| -> Result<Option<Option<u32>>> {
        if let Some(len) = optimal_length(b) {
            return Ok((lo..=hi).contains(&len).then_some(Some(len)));
        }
        if b.manhattan() > hi {
            return Ok(None);
        }
        if (w, h) == (4, 4) && hi >= MAX_4X4 {
            // Only the lower end matters: no solution of lo − 1 moves or fewer.
            let found = solve_optimal(b, &cancel, Some(lo - 1))?;
            return Ok(found.tiles.is_none().then_some(None));
        }
        let found = solve_optimal(b, &cancel, Some(hi))?;
        Ok(found
            .tiles
            .map(|t| t.len() as u32)
            .filter(|&len| len >= lo)
            .map(Some))
    };
    let walk = matches!((w, h, d), (4, 4, Difficulty::Easy | Difficulty::Medium));
    loop {
        let b = if walk {
            // Manhattan target: from about 70% of the band's low end to its high end.
            let (tlo, thi) = (lo * 7 / 10, hi);
            let target = tlo + rng::below(&mut rng, (thi - tlo + 1) as u64) as u32;
            random_walk(w, h, target, &mut rng)
        } else {
            shuffled(w, h, &mut rng)
        };
        if let Some(len) = in_band(&b)? {
            return Ok((b, len));
        }
    }
}

/// Walk the blank from the goal, never straight back, until the Manhattan distance reaches
/// `target` (or 4·target steps have been taken).
fn random_walk(w: usize, h: usize, target: u32, rng: &mut ChaCha8Rng) -> Board {
    let mut b = Board::solved_unchecked(w, h);
    let mut prev = usize::MAX;
    let mut steps = 0;
    while b.manhattan() < target && steps < 4 * target {
        let options: Vec<usize> = b
            .neighbours(b.blank())
            .into_iter()
            .filter(|&c| c != prev)
            .collect();
        let c = options[rng::below(rng, options.len() as u64) as usize];
        prev = b.blank();
        b.swap_blank(c);
        steps += 1;
    }
    b
}

/// Turn single-tile moves into taps: consecutive tile moves in the same direction along one
/// line are one tap on the last of those tiles. Fails if a move is not legal on `board`.
pub fn to_line_moves(board: &Board, tiles: &[u16]) -> Result<Vec<Move>> {
    let mut b = board.clone();
    let mut out: Vec<Move> = Vec::new();
    let mut last_dir: Option<isize> = None;
    for &t in tiles {
        let blank = b.blank() as isize;
        let m = b.step(t)?;
        let dir = m.from as isize - blank;
        if last_dir == Some(dir) {
            if let Some(prev) = out.last_mut() {
                prev.tile = t;
            }
        } else {
            out.push(Move { tile: t });
        }
        last_dir = Some(dir);
    }
    Ok(out)
}

/// One number-slide game: the board and both move counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slide {
    board: Board,
    tile_moves: u32,
    line_moves: u32,
    /// The picture the tiles show (a picture puzzle), from the game ID.
    picture: Option<String>,
}

/// Side lengths of the square boards that may be picture puzzles.
pub const PICTURE_SIDES: std::ops::RangeInclusive<usize> = 3..=6;
/// Longest picture name.
pub const MAX_PICTURE_NAME: usize = 32;
const PICTURE_TAG: &str = "/picture:";

/// Checks a picture name: `[a-z0-9-]{1,32}`.
pub fn check_picture_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name.len() <= MAX_PICTURE_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(Error::parse(format!(
            "picture name {name:?} must be 1 to {MAX_PICTURE_NAME} of a-z, 0-9 and '-'"
        )))
    }
}

/// Splits the picture segment off a slide ID body: `3x3/hard/picture:lotus` →
/// (`3x3/hard`, `lotus`); `3x3/picture:lotus:1,2,…` → (`3x3:1,2,…`, `lotus`); a body
/// without one is returned as it is. The name is checked, the rest is not.
pub fn split_picture(body: &str) -> Result<(String, Option<String>)> {
    let body = body.trim();
    let Some(at) = body.find(PICTURE_TAG) else {
        return Ok((body.to_string(), None));
    };
    let after = &body[at + PICTURE_TAG.len()..];
    let (name, rest) = match after.find(':') {
        Some(i) => (&after[..i], &after[i..]),
        None => (after, ""),
    };
    check_picture_name(name)?;
    let head = &body[..at];
    if !rest.is_empty() && head.contains('/') {
        return Err(Error::parse(format!(
            "an exact picture board is WxH/picture:<name>:<tiles>, not {body:?}"
        )));
    }
    Ok((format!("{head}{rest}"), Some(name.to_string())))
}

/// Checks that a `w`×`h` board may show a picture.
fn check_picture_size(w: usize, h: usize) -> Result<()> {
    if w == h && PICTURE_SIDES.contains(&w) {
        Ok(())
    } else {
        Err(Error::range(format!(
            "picture puzzles are square, {0}x{0} to {1}x{1}; not {w}x{h}",
            PICTURE_SIDES.start(),
            PICTURE_SIDES.end()
        )))
    }
}

/// The record scope of the slide game an ID body (and seed) names, without generating it:
/// `slide:WxH` or `slide:WxH/picture` (see the module documentation).
pub fn record_scope(body: &str) -> Result<String> {
    let (rest, picture) = split_picture(body)?;
    let size = rest.split([':', '/']).next().unwrap_or("");
    let (w, h) = parse_size(size)?;
    Ok(match picture {
        Some(_) => {
            check_picture_size(w, h)?;
            format!("slide:{w}x{h}/picture")
        }
        None => format!("slide:{w}x{h}"),
    })
}

impl Slide {
    pub fn new(board: Board) -> Result<Slide> {
        if !board.is_solvable() {
            return Err(Error::unsolvable(format!(
                "board {} cannot reach the goal (its parity is wrong)",
                board.body()
            )));
        }
        Ok(Slide {
            board,
            tile_moves: 0,
            line_moves: 0,
            picture: None,
        })
    }
    /// The same game as a picture puzzle showing `name` (square boards 3×3 … 6×6).
    pub fn with_picture(mut self, name: &str) -> Result<Slide> {
        check_picture_name(name)?;
        check_picture_size(self.board.width(), self.board.height())?;
        self.picture = Some(name.to_string());
        Ok(self)
    }
    /// The picture the tiles show, for a picture puzzle.
    pub fn picture(&self) -> Option<&str> {
        self.picture.as_deref()
    }
    /// The record scope of a game started here: `slide:WxH`, or `slide:WxH/picture`.
    pub fn record_scope(&self) -> String {
        let (w, h) = (self.board.width(), self.board.height());
        match self.picture {
            Some(_) => format!("slide:{w}x{h}/picture"),
            None => format!("slide:{w}x{h}"),
        }
    }
    pub fn board(&self) -> &Board {
        &self.board
    }
    pub fn tile_moves(&self) -> u32 {
        self.tile_moves
    }
    pub fn line_moves(&self) -> u32 {
        self.line_moves
    }
}

impl Slide {
    /// `from_id` of a body without a picture segment.
    fn from_plain_id(body: &str, seed: Option<u64>) -> Result<Slide> {
        let body = body.trim();
        match seed {
            None => {
                if !body.contains(':') {
                    return Err(Error::parse(format!(
                        "slide ID body {body:?} needs the tiles (WxH:1,2,…,0) or a #seed"
                    )));
                }
                Slide::new(Board::parse(body)?)
            }
            Some(seed) => {
                if body.contains(':') {
                    return Err(Error::parse(
                        "an exact slide board (WxH:<tiles>) takes no #seed",
                    ));
                }
                let (size, diff) = match body.split_once('/') {
                    Some((s, d)) => (s, Some(Difficulty::parse(d.trim())?)),
                    None => (body, None),
                };
                let (w, h) = parse_size(size)?;
                Slide::new(generate(w, h, diff, seed)?)
            }
        }
    }
}

impl Slide {
    /// The hint of the solution `find` gives for the board: its first tap, the rest as the line.
    fn first_tap(&self, find: impl FnOnce(&Board) -> Result<Solution>) -> Result<Hint<Move>> {
        if self.board.is_solved() {
            return Err(Error::illegal("the board is already solved"));
        }
        let sol = find(&self.board)?;
        let taps = to_line_moves(&self.board, &sol.tiles)?;
        let (first, rest) = taps
            .split_first()
            .ok_or_else(|| Error::illegal("the board is already solved"))?;
        Ok(Hint {
            mv: *first,
            optimal: sol.optimal,
            line: rest.to_vec(),
            values: None,
        })
    }
}

impl crate::registry::Registered for Slide {
    const RULES: &'static [&'static str] = &["tile", "line"];
    const DAILY: Option<&'static str> = Some("4x4/medium");
    const MOVE_FORM: &'static str = r#"{"tile": n}"#;
    /// A difficulty (`4x4/hard`) runs the generator with solver checks; a plain shuffle not.
    fn costly_generator(params: &str) -> bool {
        params.split('/').any(|seg| Difficulty::parse(seg).is_ok())
    }
}

impl Game for Slide {
    const KIND: Kind = Kind::Slide;
    type Move = Move;
    type Effect = Effect;

    fn from_id(body: &str, seed: Option<u64>) -> Result<Self> {
        let (plain, picture) = split_picture(body)?;
        if picture.is_some() {
            // The size is checked before anything is generated.
            record_scope(body)?;
        }
        let game = Self::from_plain_id(&plain, seed)?;
        match picture {
            Some(name) => game.with_picture(&name),
            None => Ok(game),
        }
    }

    fn board_body(&self) -> String {
        self.board.body()
    }

    fn apply(&mut self, mv: &Move) -> Result<Effect> {
        let moved = self.board.slide(mv.tile)?;
        self.tile_moves = self.tile_moves.saturating_add(moved.len() as u32);
        self.line_moves = self.line_moves.saturating_add(1);
        Ok(Effect { moved })
    }

    fn status(&self) -> Status {
        Status::won_if(self.board.is_solved())
    }

    fn moves(&self) -> u32 {
        self.tile_moves
    }

    fn counters(&self) -> serde_json::Value {
        serde_json::json!({ "tile": self.tile_moves, "line": self.line_moves })
    }

    /// `{w, h, tiles}`: tile numbers row-major, 0 = the blank.
    fn view(&self, _start: &Self) -> serde_json::Value {
        let b = &self.board;
        serde_json::json!({ "w": b.width(), "h": b.height(), "tiles": b.tiles() })
    }

    /// The first tap of a solution; `optimal` means the solution is optimal in tile moves.
    fn hint(&self, cancel: &Cancel) -> Result<Hint<Move>> {
        self.first_tap(|b| solve(b, cancel))
    }

    fn solve(&self, cancel: &Cancel) -> Result<Vec<Move>> {
        let sol = solve(&self.board, cancel)?;
        to_line_moves(&self.board, &sol.tiles)
    }

    /// The first tap of [`solve_within`]'s solution: on the 4×4-class sizes a move of the
    /// best path found within `budget`, flagged optimal only when the optimal search finished.
    fn hint_within(
        &self,
        budget: Duration,
        clock: &dyn Clock,
        cancel: &Cancel,
    ) -> Result<Hint<Move>> {
        self.first_tap(|b| solve_within(b, Some(budget), clock, cancel))
    }

    fn solve_within(
        &self,
        budget: Duration,
        clock: &dyn Clock,
        cancel: &Cancel,
    ) -> Result<Solved<Move>> {
        let sol = solve_within(&self.board, Some(budget), clock, cancel)?;
        Ok(Solved {
            moves: to_line_moves(&self.board, &sol.tiles)?,
            optimal: sol.optimal,
        })
    }

    /// True on the sizes solved optimally by IDA* (4×4, 3×4, …): there a budgeted hint may be
    /// a weighted search's, and the unbounded [`Game::hint`] proves the optimal one.
    fn hint_can_improve(&self) -> bool {
        let (w, h) = (self.board.width(), self.board.height());
        has_pdb(w, h) && !self.board.is_solved()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;

    #[test]
    fn a_tap_slides_the_whole_line_and_counts_both_ways() {
        let mut g = Slide::from_id("3x3:1,2,3,4,5,6,7,8,0", None).unwrap();
        let e = g.apply(&Move { tile: 7 }).unwrap();
        assert_eq!(g.board_body(), "3x3:1,2,3,4,5,6,0,7,8");
        assert_eq!(
            e.moved,
            vec![
                Moved {
                    tile: 8,
                    from: 7,
                    to: 8
                },
                Moved {
                    tile: 7,
                    from: 6,
                    to: 7
                }
            ]
        );
        g.apply(&Move { tile: 1 }).unwrap();
        assert_eq!(g.board_body(), "3x3:0,2,3,1,5,6,4,7,8");
        assert_eq!(g.counters(), serde_json::json!({"tile": 4, "line": 2}));
        assert_eq!(g.moves(), 4);
        let err = g.apply(&Move { tile: 5 }).unwrap_err();
        assert_eq!(err.code, ErrorCode::IllegalMove);
        assert!(err.message.contains("row or column"), "{}", err.message);
        assert_eq!(
            g.apply(&Move { tile: 9 }).unwrap_err().code,
            ErrorCode::IllegalMove
        );
        assert_eq!(
            g.apply(&Move { tile: 0 }).unwrap_err().code,
            ErrorCode::IllegalMove
        );
        assert_eq!(
            g.board_body(),
            "3x3:0,2,3,1,5,6,4,7,8",
            "illegal moves change nothing"
        );
        assert_eq!(g.counters(), serde_json::json!({"tile": 4, "line": 2}));
    }

    #[test]
    fn move_and_effect_serialise_as_documented() {
        assert_eq!(
            serde_json::to_string(&Move { tile: 12 }).unwrap(),
            r#"{"tile":12}"#
        );
        let m: Move = serde_json::from_str(r#"{"tile": 3}"#).unwrap();
        assert_eq!(m, Move { tile: 3 });
        assert!(serde_json::from_str::<Move>(r#"{"tile": 3, "x": 1}"#).is_err());
        let e = Effect {
            moved: vec![Moved {
                tile: 8,
                from: 7,
                to: 8,
            }],
        };
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            r#"{"moved":[{"tile":8,"from":7,"to":8}]}"#
        );
    }

    #[test]
    fn line_moves_group_single_steps() {
        let b = Board::parse("3x3:1,2,3,4,5,6,0,7,8").unwrap();
        assert_eq!(to_line_moves(&b, &[7, 8]).unwrap(), vec![Move { tile: 8 }]);
        let b = Board::parse("3x3:0,2,3,1,5,6,4,7,8").unwrap();
        assert_eq!(
            to_line_moves(&b, &[1, 4, 7, 8]).unwrap(),
            vec![Move { tile: 4 }, Move { tile: 8 }]
        );
        assert!(to_line_moves(&b, &[5]).is_err());
    }
}
