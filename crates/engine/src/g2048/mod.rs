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
//! Game-ID bodies: `""` with a seed (`2048:#7`, `2048#7`) is a fresh game; sixteen tile values
//! row-major, comma-separated (`2048:2,0,0,…`) is that exact board, its spawns drawn from the
//! given `#seed` or else from `rng::fnv1a64` of the canonical body.
//!
//! Move JSON: `{"dir": "left"|"right"|"up"|"down"}` or `{"keep_going": true}`.
//! The hint is the expectimax AI of [`ai`] (`values` lists the value of every direction that
//! moves; directions that change nothing are left out).

pub mod ai;
pub mod board;
mod code;

pub use board::Dir;

use crate::clock::Clock;
use crate::error::{Error, Result};
use std::time::Duration;
use crate::game::{Cancel, Game, Hint, Kind, Status};
use crate::rng::{self, ChaCha8Rng};
use board::{cell, count_empty, exponent, max_exp, tables, value, Board};
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

/// A 2048 game in progress.
#[derive(Debug, Clone, PartialEq)]
pub struct G2048 {
    board: Board,
    score: u64,
    moves: u32,
    rng: ChaCha8Rng,
    reached: bool,
    keep_going: bool,
}

/// The cells of the four lines a slide in `dir` works on, each listed from the edge the
/// tiles move toward.
fn lines(dir: Dir) -> [[u8; 4]; 4] {
    std::array::from_fn(|k| board::line_cells(dir, k).map(|c| c as u8))
}

/// Follow every tile through a slide (for the animation; the board itself comes from the
/// tables).
fn track(b: Board, dir: Dir) -> Vec<TileMove> {
    let mut out = Vec::with_capacity(16);
    for line in lines(dir) {
        let tiles: Vec<(u8, u8)> = line
            .iter()
            .map(|&c| (c, cell(b, c as usize)))
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
    /// A game on `board` whose spawns come from `rng` (no tiles added).
    pub fn with_board(board: Board, rng: ChaCha8Rng) -> G2048 {
        G2048 {
            board,
            score: 0,
            moves: 0,
            rng,
            reached: max_exp(board) >= WIN_EXP,
            keep_going: false,
        }
    }

    /// A fresh game: two tiles drawn from the seed's stream.
    pub fn new(seed: u64) -> G2048 {
        let mut g = G2048::with_board(Board::default(), rng::stream(seed, STREAM));
        g.spawn();
        g.spawn();
        g
    }

    /// The board (see [`board`]).
    pub fn board(&self) -> Board {
        self.board
    }
    pub fn score(&self) -> u64 {
        self.score
    }
    /// The sixteen tile values, row-major.
    pub fn values(&self) -> [u32; 16] {
        board::to_values(self.board)
    }
    pub fn max_tile(&self) -> u32 {
        value(max_exp(self.board))
    }
    /// Whether a 2048 tile has been made (or was on the starting board).
    pub fn reached_2048(&self) -> bool {
        self.reached
    }
    /// Whether the player chose to keep going after 2048.
    pub fn kept_going(&self) -> bool {
        self.keep_going
    }

    /// Put a new tile in a random empty cell; `None` on a full board.
    fn spawn(&mut self) -> Option<Spawn> {
        let empties = self.board.empty_mask();
        let n = empties.count_ones() as u64;
        if n == 0 {
            return None;
        }
        let k = rng::below(&mut self.rng, n);
        let e = if rng::below(&mut self.rng, 10) == 0 {
            2
        } else {
            1
        };
        let mut m = empties;
        for _ in 0..k {
            m &= m - 1;
        }
        let i = (m.trailing_zeros() / 4) as usize;
        self.board = self.board.with_spawn(m & m.wrapping_neg(), e);
        Some(Spawn {
            cell: i as u8,
            value: value(e),
        })
    }

    fn slide(&mut self, dir: Dir) -> Result<Effect> {
        let t = tables();
        let next = t.slide(self.board, dir);
        if next == self.board {
            return Err(Error::illegal("nothing moves that way"));
        }
        let gained = t.gain(self.board, dir);
        let tiles = track(self.board, dir);
        self.board = next;
        self.score += gained as u64;
        self.moves = self.moves.saturating_add(1);
        if max_exp(next) >= WIN_EXP {
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
        for (i, p) in parts.iter().enumerate() {
            let v: u32 = p.parse().map_err(|_| {
                Error::parse(format!(
                    "cell {} of the board, {p:?}, is not a tile value",
                    i + 1
                ))
            })?;
            exps[i] = exponent(v).ok_or_else(|| {
                Error::parse(format!(
                    "cell {} of the board is {v}: a tile is 0 (empty) or a power of two from 2 to 131072",
                    i + 1
                ))
            })?;
        }
        let b = board::from_exps(&exps);
        if b == Board::default() {
            return Err(Error::parse("a 2048 board needs at least one tile"));
        }
        Ok(b)
    }

    /// The body form of a board: sixteen values, comma-separated.
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
        let b = G2048::parse_board(body)?;
        let seed = seed.unwrap_or_else(|| rng::fnv1a64(G2048::body_of(b).as_bytes()));
        Ok(G2048::with_board(b, rng::stream(seed, STREAM)))
    }

    fn board_body(&self) -> String {
        G2048::body_of(self.board)
    }

    fn apply(&mut self, mv: &Move) -> Result<Effect> {
        match *mv {
            Move::KeepGoing => {
                if !self.reached {
                    return Err(Error::illegal("keep going is for after reaching 2048"));
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
                    return Err(Error::illegal("2048 reached: send keep_going to play on"));
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
        } else if count_empty(self.board) == 0 && !tables().can_move(self.board) {
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

    /// `{size, cells}`: tile values row-major, 0 = empty.
    fn view(&self, _start: &Self) -> serde_json::Value {
        serde_json::json!({ "size": 4, "cells": self.values() })
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
        let choice = ai::best_move(self.board, budget, cancel);
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
        let b = board::from_exps(&[1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        let t = track(b, Dir::Left);
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
        let b = board::from_exps(&[2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
        let t = track(b, Dir::Down);
        assert_eq!(t, vec![mv(8, 12, 2, false), mv(0, 8, 4, false)]);
    }
}
