//! 2048 with the original rules (guide §2), on a 64-bit board (see [`board`]).
//!
//! * Start: two tiles. After a move that changed the board (and only then): one new tile,
//!   2 with probability 0.9 else 4, in a uniformly chosen empty cell. A spawn draws the cell
//!   first (`rng::below(empties)`, empty cells counted row-major), then the value
//!   (`rng::below(10) == 0` → 4). All draws come from `rng::stream(seed, "2048")`, which the
//!   state carries, so the same seed and moves give the same game everywhere, and undo (which
//!   restores an earlier state) restores the spawn sequence too.
//! * Each tile merges at most once per move; the score grows by each merged tile's new value.
//! * [`Status::Won`] once a 2048 tile exists, until the player sends [`Move::KeepGoing`]
//!   (`{"keep_going": true}`); after that the game is `Playing` until `Lost`. `Lost` only when
//!   no direction changes the board.
//! * A direction that changes nothing is an illegal move (`illegal_move`, "nothing moves that
//!   way"): nothing spawns and the session records nothing.
//!
//! * Tiles merge up to 131,072, the largest a 4×4 board can hold (see [`board`]).
//!
//! Game-ID bodies: `""` with a seed (`2048:#7`, `2048#7`) is a fresh 4×4 game; a size
//! `NxN` with a seed (`2048:5x5#7`) a fresh game on that board (3×3, 5×5 … 8×8; the 4×4 keeps
//! its one ID, `2048#7`: `2048:4x4#7` is refused and says so); sixteen tile values row-major, comma-separated
//! (`2048:2,0,0,…`) is that exact 4×4 board, and 9, 25, 36, 49 or 64 values the exact board
//! of that size, its spawns drawn from the given `#seed` or else from `rng::fnv1a64` of the
//! canonical body.
//!
//! Sizes: the 4×4 keeps its bitboard ([`board`]) and its table-driven AI ([`ai`]); every
//! other size plays on a [`grid::Grid`] with the same rules line by line and its own
//! expectimax ([`grid_ai`]). The winning tile of each size is defined once, in
//! [`crate::registry::G2048_WIN_TILES`] (3×3: 256; 4×4 and up: 2048).
//!
//! Move JSON: `{"dir": "left"|"right"|"up"|"down"}` or `{"keep_going": true}`.
//! The hint is the expectimax AI of [`ai`] (`values` lists the value of every direction that
//! moves; directions that change nothing are left out).

pub mod ai;
pub mod board;
mod code;
pub mod grid;
pub mod grid_ai;
pub mod splits;
mod table;

pub use board::Dir;

use crate::clock::Clock;
use crate::error::{Error, Result};
use std::time::Duration;
use crate::game::{Cancel, Game, Hint, Kind, Status};
use crate::rng::{self, ChaCha8Rng};
use board::{count_empty, exponent, max_exp, tables, value, Board};
use grid::{Grid, MAX_SIDE, MIN_SIDE};
use serde::{Deserialize, Serialize};

/// The exponent of the winning tile (2^11 = 2048).
pub const WIN_EXP: u8 = 11;
/// The time the app's hint may think, in milliseconds (at most: a smaller budget given to
/// `hint_within` wins).
pub const HINT_MS: u64 = 150;
/// The depth (chance layers) of the unbounded, clock-free [`Game::hint`]: deterministic, and
/// the least depth [`ai::Budget::Millis`] aims at on any board.
pub const HINT_DEPTH: u8 = 3;
/// Name of the random stream of 2048 spawns.
pub const STREAM: &str = "2048";

/// One player input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "MoveJson", into = "MoveJson")]
pub enum Move {
    /// `{"dir": "left"}` …
    Slide(Dir),
    /// `{"keep_going": true}`: carry on after reaching 2048.
    KeepGoing,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveJson {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dir: Option<Dir>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    keep_going: Option<bool>,
}

impl TryFrom<MoveJson> for Move {
    type Error = String;
    fn try_from(j: MoveJson) -> std::result::Result<Move, String> {
        match (j.dir, j.keep_going) {
            (Some(d), None) => Ok(Move::Slide(d)),
            (None, Some(true)) => Ok(Move::KeepGoing),
            (None, Some(false)) => Err("keep_going must be true".into()),
            (Some(_), Some(_)) => {
                Err("a 2048 move is either {\"dir\": …} or {\"keep_going\": true}, not both".into())
            }
            (None, None) => Err(
                "a 2048 move needs \"dir\" (left, right, up, down) or \"keep_going\": true".into(),
            ),
        }
    }
}

impl From<Move> for MoveJson {
    fn from(m: Move) -> MoveJson {
        match m {
            Move::Slide(d) => MoveJson {
                dir: Some(d),
                keep_going: None,
            },
            Move::KeepGoing => MoveJson {
                dir: None,
                keep_going: Some(true),
            },
        }
    }
}

/// One tile of the board before a move: where it was, where it went, and whether it merged
/// there with another tile (a merged pair both point at the same `to`, whose new value is
/// `2 × value`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TileMove {
    pub from: u8,
    pub to: u8,
    pub value: u32,
    pub merged: bool,
}

/// The tile that appeared after the move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Spawn {
    pub cell: u8,
    pub value: u32,
}

/// What a move did, for the animation. `tiles` lists every tile that was on the board
/// (including those that stayed); `KeepGoing` has no tiles and no spawn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Effect {
    pub tiles: Vec<TileMove>,
    pub spawn: Option<Spawn>,
    pub gained: u32,
}

/// The board of a game: the 4×4's bitboard, or a [`Grid`] of any other size.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Cells {
    Four(Board),
    Other(Grid),
}

impl Cells {
    fn side(&self) -> u8 {
        match self {
            Cells::Four(_) => 4,
            Cells::Other(g) => g.side(),
        }
    }
    fn exps(&self) -> Vec<u8> {
        match self {
            Cells::Four(b) => board::to_exps(*b).to_vec(),
            Cells::Other(g) => g.exps().to_vec(),
        }
    }
    fn max_exp(&self) -> u8 {
        match self {
            Cells::Four(b) => max_exp(*b),
            Cells::Other(g) => g.max_exp(),
        }
    }
}

/// The exponent of the winning tile on a board of side `side` (from the registry).
fn win_exp(side: u8) -> u8 {
    let tile = crate::registry::g2048_win_tile(side).unwrap_or(2048);
    tile.trailing_zeros() as u8
}

/// A 2048 game in progress.
#[derive(Debug, Clone, PartialEq)]
pub struct G2048 {
    cells: Cells,
    score: u64,
    moves: u32,
    rng: ChaCha8Rng,
    reached: bool,
    keep_going: bool,
}

/// The cells of the lines a slide in `dir` works on a board of side `n`, each listed from
/// the edge the tiles move toward (the 4×4's [`board::line_cells`] on any side).
fn lines(n: usize, dir: Dir) -> Vec<Vec<u8>> {
    (0..n)
        .map(|k| {
            (0..n)
                .map(|j| {
                    (match dir {
                        Dir::Left => n * k + j,
                        Dir::Right => n * k + n - 1 - j,
                        Dir::Up => n * j + k,
                        Dir::Down => n * (n - 1 - j) + k,
                    }) as u8
                })
                .collect()
        })
        .collect()
}

/// Follow every tile through a slide (for the animation; the board itself comes from the
/// tables or the grid).
fn track(exps: &[u8], n: usize, dir: Dir) -> Vec<TileMove> {
    let mut out = Vec::with_capacity(exps.len());
    for line in lines(n, dir) {
        let tiles: Vec<(u8, u8)> = line
            .iter()
            .map(|&c| (c, exps[c as usize]))
            .filter(|&(_, e)| e != 0)
            .collect();
        let (mut i, mut slot) = (0, 0);
        while i < tiles.len() {
            let (from, e) = tiles[i];
            let to = line[slot];
            if i + 1 < tiles.len() && tiles[i + 1].1 == e && e < board::MAX_EXP {
                out.push(TileMove {
                    from,
                    to,
                    value: value(e),
                    merged: true,
                });
                out.push(TileMove {
                    from: tiles[i + 1].0,
                    to,
                    value: value(e),
                    merged: true,
                });
                i += 2;
            } else {
                out.push(TileMove {
                    from,
                    to,
                    value: value(e),
                    merged: false,
                });
                i += 1;
            }
            slot += 1;
        }
    }
    out
}

impl G2048 {
    /// A 4×4 game on `board` whose spawns come from `rng` (no tiles added).
    pub fn with_board(board: Board, rng: ChaCha8Rng) -> G2048 {
        G2048::with_cells(Cells::Four(board), rng)
    }

    /// A game on `grid` (any size; a 4×4 grid plays on the bitboard) whose spawns come from
    /// `rng` (no tiles added).
    pub fn with_grid(grid: Grid, rng: ChaCha8Rng) -> G2048 {
        let cells = if grid.side() == 4 {
            let exps: [u8; 16] = std::array::from_fn(|i| grid.get(i));
            Cells::Four(board::from_exps(&exps))
        } else {
            Cells::Other(grid)
        };
        G2048::with_cells(cells, rng)
    }

    fn with_cells(cells: Cells, rng: ChaCha8Rng) -> G2048 {
        G2048 {
            cells,
            score: 0,
            moves: 0,
            rng,
            reached: cells.max_exp() >= win_exp(cells.side()),
            keep_going: false,
        }
    }

    /// A fresh 4×4 game: two tiles drawn from the seed's stream.
    pub fn new(seed: u64) -> G2048 {
        let mut g = G2048::with_board(Board::default(), rng::stream(seed, STREAM));
        g.spawn();
        g.spawn();
        g
    }

    /// A fresh game on a `side`×`side` board (3 … 8; 4 is [`G2048::new`]): two tiles drawn
    /// from the seed's stream.
    pub fn new_sized(side: u8, seed: u64) -> Result<G2048> {
        check_side(side, side)?;
        if side == 4 {
            return Ok(G2048::new(seed));
        }
        let mut g = G2048::with_grid(Grid::empty(side), rng::stream(seed, STREAM));
        g.spawn();
        g.spawn();
        Ok(g)
    }

    /// The 4×4 board (see [`board`]); an empty one for the other sizes (see [`G2048::grid`]).
    pub fn board(&self) -> Board {
        match self.cells {
            Cells::Four(b) => b,
            Cells::Other(_) => Board::default(),
        }
    }
    /// The board of a size other than 4×4 (`None` for the 4×4: see [`G2048::board`]).
    pub fn grid(&self) -> Option<Grid> {
        match self.cells {
            Cells::Four(_) => None,
            Cells::Other(g) => Some(g),
        }
    }
    /// The side of the (square) board, 3 … 8.
    pub fn side(&self) -> u8 {
        self.cells.side()
    }
    /// The tile that wins on this board's size (from the registry).
    pub fn win_tile(&self) -> u32 {
        value(win_exp(self.side()))
    }
    pub fn score(&self) -> u64 {
        self.score
    }
    /// The 4×4's sixteen tile values, row-major (zeros for the other sizes: see
    /// [`G2048::cells`]).
    pub fn values(&self) -> [u32; 16] {
        board::to_values(self.board())
    }
    /// Every cell's tile value, row-major (`side²` of them).
    pub fn cells(&self) -> Vec<u32> {
        self.cells.exps().into_iter().map(value).collect()
    }
    pub fn max_tile(&self) -> u32 {
        value(self.cells.max_exp())
    }
    /// Whether the winning tile (2048; 256 on the 3×3) has been made (or was on the
    /// starting board).
    pub fn reached_2048(&self) -> bool {
        self.reached
    }
    /// Whether the player chose to keep going after 2048.
    pub fn kept_going(&self) -> bool {
        self.keep_going
    }

    /// Put a new tile in a random empty cell; `None` on a full board. Every size draws the
    /// same way: the cell first among the empty cells in row-major order, then the value.
    fn spawn(&mut self) -> Option<Spawn> {
        let grid = match &mut self.cells {
            Cells::Four(b) => return G2048::spawn_four(b, &mut self.rng),
            Cells::Other(g) => g,
        };
        let empties: Vec<usize> = (0..grid.len()).filter(|&i| grid.get(i) == 0).collect();
        if empties.is_empty() {
            return None;
        }
        let k = rng::below(&mut self.rng, empties.len() as u64) as usize;
        let e = if rng::below(&mut self.rng, 10) == 0 {
            2
        } else {
            1
        };
        grid.set(empties[k], e);
        Some(Spawn {
            cell: empties[k] as u8,
            value: value(e),
        })
    }

    fn spawn_four(board: &mut Board, rng: &mut ChaCha8Rng) -> Option<Spawn> {
        let empties = board.empty_mask();
        let n = empties.count_ones() as u64;
        if n == 0 {
            return None;
        }
        let k = rng::below(rng, n);
        let e = if rng::below(rng, 10) == 0 { 2 } else { 1 };
        let mut m = empties;
        for _ in 0..k {
            m &= m - 1;
        }
        let i = (m.trailing_zeros() / 4) as usize;
        *board = board.with_spawn(m & m.wrapping_neg(), e);
        Some(Spawn {
            cell: i as u8,
            value: value(e),
        })
    }

    fn slide(&mut self, dir: Dir) -> Result<Effect> {
        let (next, gained) = match self.cells {
            Cells::Four(b) => {
                let t = tables();
                (Cells::Four(t.slide(b, dir)), t.gain(b, dir))
            }
            Cells::Other(g) => {
                let (next, gained) = g.slide(dir);
                (Cells::Other(next), gained)
            }
        };
        if next == self.cells {
            return Err(Error::illegal("nothing moves that way"));
        }
        let tiles = track(&self.cells.exps(), self.side() as usize, dir);
        self.cells = next;
        self.score += gained as u64;
        self.moves = self.moves.saturating_add(1);
        if next.max_exp() >= win_exp(next.side()) {
            self.reached = true;
        }
        let spawn = self.spawn();
        Ok(Effect {
            tiles,
            spawn,
            gained,
        })
    }

    /// Parse sixteen comma-separated tile values into a board.
    pub fn parse_board(body: &str) -> Result<Board> {
        if body.len() > 200 {
            return Err(Error::range(
                "a 2048 board is 16 tile values; this text is far too long",
            ));
        }
        let parts: Vec<&str> = body.split(',').map(str::trim).collect();
        if parts.len() != 16 {
            return Err(Error::parse(format!(
                "a 2048 board is 16 comma-separated tile values (row-major, 0 = empty); got {}",
                parts.len()
            )));
        }
        let mut exps = [0u8; 16];
        for (e, v) in exps.iter_mut().zip(G2048::parse_exps(&parts)?) {
            *e = v;
        }
        Ok(board::from_exps(&exps))
    }

    /// Parse a board of any size: 9, 16, 25, 36, 49 or 64 comma-separated tile values
    /// (3×3 … 8×8, row-major). Returns the side and the exponents.
    pub fn parse_cells(body: &str) -> Result<(u8, Vec<u8>)> {
        if body.len() > 600 {
            return Err(Error::range(
                "a 2048 board is at most 64 tile values; this text is far too long",
            ));
        }
        let parts: Vec<&str> = body.split(',').map(str::trim).collect();
        let n = parts.len();
        let side = (MIN_SIDE..=MAX_SIDE).find(|&s| s as usize * s as usize == n);
        let Some(side) = side else {
            return Err(Error::parse(if n == 1 {
                // A body that is no list at all.
                "a 2048 board is 16 comma-separated tile values (row-major, 0 = empty); got 1"
                    .to_string()
            } else {
                format!(
                    "a 2048 board is 9, 16, 25, 36, 49 or 64 comma-separated tile values \
                     (3x3 … 8x8, row-major, 0 = empty); got {n}"
                )
            }));
        };
        if side == 4 {
            return Ok((4, board::to_exps(G2048::parse_board(body)?).to_vec()));
        }
        Ok((side, G2048::parse_exps(&parts)?))
    }

    /// The exponents of a board's tile values, in order; the first bad cell is the error, and
    /// a board needs at least one tile.
    fn parse_exps(parts: &[&str]) -> Result<Vec<u8>> {
        let mut exps = Vec::with_capacity(parts.len());
        for (i, p) in parts.iter().enumerate() {
            let v: u32 = p.parse().map_err(|_| {
                Error::parse(format!(
                    "cell {} of the board, {p:?}, is not a tile value",
                    i + 1
                ))
            })?;
            exps.push(exponent(v).ok_or_else(|| {
                Error::parse(format!(
                    "cell {} of the board is {v}: a tile is 0 (empty) or a power of two from 2 to 131072",
                    i + 1
                ))
            })?);
        }
        if exps.iter().all(|&e| e == 0) {
            return Err(Error::parse("a 2048 board needs at least one tile"));
        }
        Ok(exps)
    }

    /// The body form of any board: its tile values row-major, comma-separated.
    pub fn body_of_cells(values: &[u32]) -> String {
        values
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The body form of a 4×4 board: sixteen values, comma-separated.
    pub fn body_of(b: Board) -> String {
        board::to_values(b)
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",")
    }
}

impl crate::registry::Registered for G2048 {
    const RULES: &'static [&'static str] = &["moves"];
    /// A seeded game, judged by score.
    const DAILY: Option<&'static str> = Some("");
    const MOVE_FORM: &'static str = r#"{"dir": "left|right|up|down"} or {"keep_going": true}"#;
}

impl Game for G2048 {
    const KIND: Kind = Kind::G2048;
    type Move = Move;
    type Effect = Effect;

    fn from_id(body: &str, seed: Option<u64>) -> Result<Self> {
        let body = body.trim();
        if body.is_empty() {
            return match seed {
                Some(s) => Ok(G2048::new(s)),
                None => Err(Error::parse(
                    "a 2048 game ID needs a seed (2048:#42) or a board of 16 tile values (2048:2,0,…)",
                )),
            };
        }
        if size_param(body).is_some() {
            let w = parse_side(body)?;
            if w == 4 {
                // One ID per game: the 4×4 keeps its own (`2048#7`, as its codes and dailies).
                return Err(Error::parse(
                    "the 4x4 game ID is 2048#<seed> (or 16 comma-separated tile values); \
                     a size here is 3x3, 5x5, 6x6, 7x7 or 8x8",
                ));
            }
            let h = w;
            return match seed {
                Some(s) => G2048::new_sized(w, s),
                None => Err(Error::parse(format!(
                    "a 2048 game ID of a size needs a seed: 2048:{w}x{h}#42"
                ))),
            };
        }
        let (side, exps) = G2048::parse_cells(body)?;
        let g = Grid::from_exps(side, &exps);
        let canon = G2048::body_of_cells(&exps.iter().map(|&e| value(e)).collect::<Vec<_>>());
        let seed = seed.unwrap_or_else(|| rng::fnv1a64(canon.as_bytes()));
        Ok(G2048::with_grid(g, rng::stream(seed, STREAM)))
    }

    fn board_body(&self) -> String {
        match self.cells {
            Cells::Four(b) => G2048::body_of(b),
            Cells::Other(_) => G2048::body_of_cells(&self.cells()),
        }
    }

    fn apply(&mut self, mv: &Move) -> Result<Effect> {
        match *mv {
            Move::KeepGoing => {
                if !self.reached {
                    return Err(Error::illegal(format!(
                        "keep going is for after reaching {}",
                        self.win_tile()
                    )));
                }
                if self.keep_going {
                    return Err(Error::illegal("already keeping going"));
                }
                self.keep_going = true;
                Ok(Effect {
                    tiles: Vec::new(),
                    spawn: None,
                    gained: 0,
                })
            }
            Move::Slide(dir) => {
                if self.reached && !self.keep_going {
                    return Err(Error::illegal(format!(
                        "{} reached: send keep_going to play on",
                        self.win_tile()
                    )));
                }
                self.slide(dir)
            }
        }
    }

    fn accepts(&self, mv: &Move) -> bool {
        match mv {
            Move::KeepGoing => self.status() == Status::Won,
            Move::Slide(_) => self.status() == Status::Playing,
        }
    }

    fn status(&self) -> Status {
        if self.reached && !self.keep_going {
            Status::Won
        } else if !self.can_move() {
            Status::Lost
        } else {
            Status::Playing
        }
    }

    fn moves(&self) -> u32 {
        self.moves
    }

    fn counters(&self) -> serde_json::Value {
        serde_json::json!({ "moves": self.moves, "score": self.score, "max_tile": self.max_tile() })
    }

    /// `{size, cells, win}`: the side, tile values row-major (0 = empty), and the tile that
    /// wins on this size.
    fn view(&self, _start: &Self) -> serde_json::Value {
        serde_json::json!({ "size": self.side(), "cells": self.cells(), "win": self.win_tile() })
    }

    /// The AI's move at the fixed depth [`HINT_DEPTH`] (no clock: deterministic).
    fn hint(&self, cancel: &Cancel) -> Result<Hint<Move>> {
        self.ai_hint(ai::Budget::Depth(HINT_DEPTH), cancel)
    }

    /// The AI's move within [`HINT_MS`] (or `budget` when smaller) on `clock`.
    fn hint_within(
        &self,
        budget: Duration,
        clock: &dyn Clock,
        cancel: &Cancel,
    ) -> Result<Hint<Move>> {
        let ms = u64::try_from(budget.as_millis()).unwrap_or(u64::MAX);
        self.ai_hint(ai::Budget::Millis(ms.min(HINT_MS), clock), cancel)
    }

    fn solve(&self, _cancel: &Cancel) -> Result<Vec<Move>> {
        Err(Error::unsupported(
            "2048 has no auto-solve; ask for a hint instead",
        ))
    }
}

impl G2048 {
    /// The AI's hint within `budget`, with the value of every direction that moves.
    fn ai_hint(&self, budget: ai::Budget<'_>, cancel: &Cancel) -> Result<Hint<Move>> {
        searches!();
        let choice = self.best_move(budget, cancel);
        if cancel.is_cancelled() {
            return Err(Error::cancelled());
        }
        let choice =
            choice.ok_or_else(|| Error::illegal("no direction moves: the game is over"))?;
        let values = Dir::ALL
            .iter()
            .filter_map(|&d| choice.values[d.index()].map(|v| (d.as_str().to_string(), v)))
            .collect();
        Ok(Hint {
            mv: Move::Slide(choice.dir),
            optimal: false,
            line: Vec::new(),
            values: Some(values),
        })
    }
}

impl G2048 {
    /// Does any direction change the board?
    pub fn can_move(&self) -> bool {
        match self.cells {
            Cells::Four(b) => count_empty(b) > 0 || tables().can_move(b),
            Cells::Other(g) => g.can_move(),
        }
    }

    /// The AI's choice on this board within `budget`: the 4×4's bitboard expectimax
    /// ([`ai`]), or the grid's ([`grid_ai`]) on the other sizes. `None` when nothing moves or
    /// `cancel` was set.
    pub fn best_move(&self, budget: ai::Budget<'_>, cancel: &Cancel) -> Option<ai::Choice> {
        match &self.cells {
            Cells::Four(b) => ai::best_move(*b, budget, cancel),
            Cells::Other(g) => grid_ai::best_move(g, budget, cancel),
        }
    }
}

/// `Some` when `body` has the form of a size, `WxH` (digits, an `x`, digits): each side, or
/// the error that it is no number.
#[allow(clippy::type_complexity)]
pub(crate) fn size_param(body: &str) -> Option<(Result<u8>, Result<u8>)> {
    let (w, h) = body.split_once(['x', 'X'])?;
    let digits = |t: &str| !t.is_empty() && t.len() <= 4 && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(w) || !digits(h) {
        return None;
    }
    let side = |t: &str| {
        t.parse::<u8>()
            .map_err(|_| Error::range(format!("2048 board side {t} is out of range 3…8")))
    };
    Some((side(w), side(h)))
}

/// The side of a 2048 board size `WxH` (square, 3 … 8), or why not.
pub fn parse_side(text: &str) -> Result<u8> {
    let Some((w, h)) = size_param(text.trim()) else {
        return Err(Error::parse(format!(
            "{text:?} is not a 2048 board size like 5x5 (3x3 … 8x8)"
        )));
    };
    let (w, h) = (w?, h?);
    check_side(w, h)?;
    Ok(w)
}

/// A 2048 board is square, 3×3 … 8×8.
pub(crate) fn check_side(w: u8, h: u8) -> Result<()> {
    if w != h {
        return Err(Error::range(format!(
            "a 2048 board is square (3x3 … 8x8), not {w}x{h}"
        )));
    }
    if !(MIN_SIDE..=MAX_SIDE).contains(&w) {
        return Err(Error::range(format!(
            "a 2048 board is 3x3 … 8x8, not {w}x{h}"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_json_forms() {
        let m: Move = serde_json::from_str(r#"{"dir":"left"}"#).unwrap();
        assert_eq!(m, Move::Slide(Dir::Left));
        assert_eq!(
            serde_json::to_string(&Move::Slide(Dir::Down)).unwrap(),
            r#"{"dir":"down"}"#
        );
        let k: Move = serde_json::from_str(r#"{"keep_going":true}"#).unwrap();
        assert_eq!(k, Move::KeepGoing);
        assert_eq!(
            serde_json::to_string(&Move::KeepGoing).unwrap(),
            r#"{"keep_going":true}"#
        );
        for bad in [
            r#"{"keep_going":false}"#,
            r#"{"dir":"diagonal"}"#,
            r#"{}"#,
            r#"{"dir":"up","keep_going":true}"#,
            r#"{"dir":"up","x":1}"#,
            r#""left""#,
        ] {
            assert!(
                serde_json::from_str::<Move>(bad).is_err(),
                "{bad} should not parse"
            );
        }
    }

    #[test]
    fn track_follows_merges() {
        let mv = |from, to, value, merged| TileMove {
            from,
            to,
            value,
            merged,
        };
        // Row 0: 2 2 2 2 → left: cells 0,1 → 0 merged; 2,3 → 1 merged.
        let b = [1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        let t = track(&b, 4, Dir::Left);
        assert_eq!(
            t,
            vec![
                mv(0, 0, 2, true),
                mv(1, 0, 2, true),
                mv(2, 1, 2, true),
                mv(3, 1, 2, true),
            ]
        );
        // Column 0 down: 4 at (0,0), 2 at (2,0) → 2 to (3,0), 4 to (2,0).
        let b = [2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0];
        let t = track(&b, 4, Dir::Down);
        assert_eq!(t, vec![mv(8, 12, 2, false), mv(0, 8, 4, false)]);
    }
}
