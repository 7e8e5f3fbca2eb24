//! Klotski (华容道): sliding rectangular pieces until `C` (曹操) reaches the exit, the
//! middle of the bottom edge.
//!
//! - [`Board`] (`board.rs`): sizes 3×3 to 8×8, `#` walls, pieces of any filled rectangle
//!   shape named by letters; text form `aCCb/aCCb/cdde/cste/u..v` (rows joined by `/`) or the
//!   20-character 4×5 form; single-piece reachability ([`Board::targets`]).
//! - [`Klotski`] (here): the [`Game`]: one move = one piece to any cell it can reach with the
//!   others fixed ([`Move`] = `{"piece": "a", "to": [row, col]}`), with the three counters.
//! - [`solve`]/[`search`] (`solver.rs`): optimal in each [`Metric`], by breadth-first search
//!   over canonical positions packed into integer keys (`space.rs`, `keys.rs`).
//! - [`classics`] (`levels.rs`): the 40 classic layouts; [`generate`] (`generate.rs`): new
//!   layouts whose optimal count lies in a band, seeded.
//!
//! # Counting
//! Consecutive moves of the same piece merge into one move (a *run*). The counters measure
//! the line of runs: each run counts 1 piece move if it left the piece somewhere else than
//! where it started (0 if the piece came back), and the fewest straight slides / one-cell
//! steps that take the piece from where the run started to where it stands, others fixed.
//! So a player who plays an optimal solution of any count scores that count's optimum.

mod analysis;
mod board;
mod code;
mod generate;
mod keys;
pub mod layout;
mod levels;
mod solver;
mod space;
pub mod splits;
mod view;

pub use analysis::{goal_distances, run_positions};
pub use board::{Board, Metric, Piece, Target, GOAL, MAX_SIDE, MIN_SIDE};
pub use generate::{generate, generate_counted, generate_with, Band, GenSpec};
pub use levels::{classic, classics, Classic, Stars};
pub use solver::{
    search, search_with_limit, search_within, solve, SearchResult, SolutionInfo, MAX_BYTES,
    MAX_STATES,
};
pub use view::{is_classic, view};

use crate::error::{Error, Result};
use crate::game::{Cancel, Game, Hint, Kind, Status};
use board::{path_to, straight_distance, unit_bfs};
use serde::{Deserialize, Serialize};

/// One move: piece `piece` (its letter as on the board) to the new top-left cell `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    pub piece: char,
    pub to: (u8, u8),
}

/// What a move did, for the animation: `path` lists the piece's top-left cell from `from`
/// to `to` along a shortest one-cell-step path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Effect {
    pub piece: char,
    pub from: (u8, u8),
    pub to: (u8, u8),
    pub path: Vec<(u8, u8)>,
}

/// The three counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Counts {
    /// The standard count (one piece, any distance, around corners).
    pub piece: u32,
    /// Straight slides.
    pub straight: u32,
    /// One-cell slides.
    pub unit: u32,
}

/// The run of moves of one piece that the last move belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Run {
    piece: char,
    /// Where the piece stood when the run began.
    start: (u8, u8),
    /// The counters before the run.
    base: Counts,
}

/// A Klotski game: the board plus the counters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Klotski {
    board: Board,
    counts: Counts,
    run: Option<Run>,
}

impl Klotski {
    pub fn new(board: Board) -> Klotski {
        Klotski {
            board,
            counts: Counts::default(),
            run: None,
        }
    }

    /// A game from a board text (rows joined by `/`, or the 20-character 4×5 form).
    pub fn parse(text: &str) -> Result<Klotski> {
        Board::parse(text).map(Klotski::new)
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn counts(&self) -> Counts {
        self.counts
    }

    /// Every position `piece` can reach in one move, each with a shortest path (for a drag
    /// that follows the finger around corners). Empty once the game is won.
    pub fn targets(&self, piece: char) -> Result<Vec<Target>> {
        if self.board.is_solved() {
            self.board.piece(piece).ok_or_else(|| no_piece(piece))?;
            return Ok(Vec::new());
        }
        self.board.targets(piece)
    }

    /// An optimal solution from here in `metric` (`None` = no solution).
    pub fn solve_in(&self, metric: Metric, cancel: &Cancel) -> Result<Option<SolutionInfo>> {
        solve(&self.board, metric, cancel)
    }
}

fn no_piece(letter: char) -> Error {
    Error::illegal(format!("there is no piece {letter:?} on the board"))
}

/// The body of a generated game ID: `MIN-MAX` (or `MIN+`), optionally `:`-followed by a
/// variant (see [`GenSpec::parse`]).
fn parse_generated(body: &str) -> Result<(GenSpec, Band)> {
    let (band, spec) = match body.split_once(':') {
        Some((b, s)) => (b, GenSpec::parse(s)?),
        None => (body, GenSpec::standard()),
    };
    Ok((spec, Band::parse(band)?))
}

impl crate::registry::Registered for Klotski {
    const RULES: &'static [&'static str] = &["piece", "straight", "unit"];
    const DAILY: Option<&'static str> = Some("30-60");
    const MOVE_FORM: &'static str = r#"{"piece": "a", "to": [row, col]}"#;
    /// Every generated level is searched for its band.
    fn costly_generator(_params: &str) -> bool {
        true
    }
}

impl Game for Klotski {
    const KIND: Kind = Kind::Klotski;
    type Move = Move;
    type Effect = Effect;

    fn from_id(body: &str, seed: Option<u64>) -> Result<Self> {
        match seed {
            Some(seed) => {
                let (spec, band) = parse_generated(body)?;
                generate_with(&spec, band, seed).map(Klotski::new)
            }
            None if body.trim().starts_with(|c: char| c.is_ascii_digit()) => {
                Err(Error::parse(format!(
                    "{body:?} looks like generator parameters but there is no seed (expected e.g. \
                 klotski:60-90#42)"
                )))
            }
            None => Klotski::parse(body),
        }
    }

    fn board_body(&self) -> String {
        self.board.to_rows()
    }

    fn apply(&mut self, mv: &Move) -> Result<Effect> {
        if self.board.is_solved() {
            return Err(Error::illegal("C has already escaped; the game is over"));
        }
        let (i, free, g) = self.board.free_for(mv.piece)?;
        let from = self.board.pieces()[i].pos();
        let (r, c) = mv.to;
        if r as usize >= self.board.height() || c as usize >= self.board.width() {
            return Err(Error::illegal(format!(
                "({r}, {c}) is off the {}×{} board",
                self.board.width(),
                self.board.height()
            )));
        }
        if mv.to == from {
            return Err(Error::illegal(format!(
                "piece {:?} is already at ({r}, {c})",
                mv.piece
            )));
        }
        let anchor = |p: (u8, u8)| p.0 as u32 * g.w + p.1 as u32;
        let (order, parent) = unit_bfs(&g, anchor(from), free);
        let to = anchor(mv.to);
        if !order.contains(&to) {
            return Err(Error::illegal(format!(
                "piece {:?} cannot reach ({r}, {c}) in one move",
                mv.piece
            )));
        }
        let path = path_to(&g, &parent, to);
        // Merge with the run of this piece, if the last move moved it too.
        let (start, base) = match self.run {
            Some(run) if run.piece == mv.piece => (run.start, run.base),
            _ => (from, self.counts),
        };
        let (unit, straight) = if start == mv.to {
            (0, 0)
        } else {
            // The piece's free region is the same from anywhere in the run (others are fixed).
            let (_, par) = unit_bfs(&g, anchor(start), free);
            let cells = path_to(&g, &par, to).len() as u32 - 1;
            let slides = straight_distance(&g, anchor(start), to, free).unwrap_or(cells);
            (cells, slides)
        };
        self.counts = Counts {
            piece: base.piece + u32::from(start != mv.to),
            straight: base.straight + straight,
            unit: base.unit + unit,
        };
        self.run = Some(Run {
            piece: mv.piece,
            start,
            base,
        });
        self.board.set_pos(i, mv.to);
        Ok(Effect {
            piece: mv.piece,
            from,
            to: mv.to,
            path,
        })
    }

    fn status(&self) -> Status {
        Status::won_if(self.board.is_solved())
    }

    fn moves(&self) -> u32 {
        self.counts.piece
    }

    fn counters(&self) -> serde_json::Value {
        serde_json::json!({
            "piece": self.counts.piece,
            "straight": self.counts.straight,
            "unit": self.counts.unit,
        })
    }

    fn view(&self, start: &Self) -> serde_json::Value {
        view::view(&self.board, &start.board)
    }

    fn hint(&self, cancel: &Cancel) -> Result<Hint<Move>> {
        let mut line = self.solve(cancel)?;
        if line.is_empty() {
            return Err(Error::illegal(
                "C has already escaped; there is nothing to hint",
            ));
        }
        let mv = line.remove(0);
        Ok(Hint {
            mv,
            optimal: true,
            line,
            values: None,
        })
    }

    fn solve(&self, cancel: &Cancel) -> Result<Vec<Move>> {
        match solve(&self.board, Metric::Piece, cancel)? {
            Some(info) => Ok(info.moves),
            None => Err(Error::unsolvable(
                "no solution: C cannot reach the exit from this position (走投无路)",
            )),
        }
    }
}

#[cfg(test)]
mod tests;
