//! The Klotski layout editor's one question: is this layout valid, and if so, is
//! it solvable and in how many moves? `klotski_check {board}` answers it; the page draws the
//! answer and never decides legality itself.
//!
//! `board` is either the pieces the player placed, `[{shape, row, col}]` (`shape`: `cao`,
//! `vertical`, `horizontal`, `soldier`), or a board text in game-ID body form. The rules are
//! the engine's (`klotski::layout`); the optimum is the solver's breadth-first search in the
//! standard count (one piece, any distance), bounded like every search: 64 MiB, the engine's
//! position bound and [`CHECK_TIME`]. A 4×5 layout with two empty cells has at most a few
//! tens of thousands of positions, so the bound is never what answers in practice.

use crate::core::AppState;
use crate::error::{AppError, AppResult};
use huarong_engine::klotski::layout::{self, LayoutError, Placed};
use huarong_engine::klotski::{self, Board, Metric};
use huarong_engine::Cancel;
use serde::Serialize;
use serde_json::Value;
use std::time::Duration;

/// The longest a check's search may run.
pub const CHECK_TIME: Duration = Duration::from_secs(5);
/// Longest JSON accepted for `board` (20 pieces of `{"shape":"horizontal","row":4,"col":3}`
/// are under 1 KiB).
pub const MAX_BOARD_JSON: usize = 2048;

/// The classic a layout is (up to lettering and mirroring).
#[derive(Debug, Clone, Serialize)]
pub struct ClassicName {
    pub index: u32,
    pub name_zh: &'static str,
    pub name_en: &'static str,
}

/// A named piece of a classic layout, where it stands (the game board's names: 曹操, each
/// general, 兵).
#[derive(Debug, Clone, Serialize)]
pub struct PieceName {
    pub row: u64,
    pub col: u64,
    pub name_zh: String,
    pub name_en: String,
}

/// `klotski_check`'s answer.
#[derive(Debug, Clone, Serialize)]
pub struct LayoutCheck {
    /// The layout follows the rules (then `error` is null).
    pub valid: bool,
    /// What is wrong (`{code, message, piece?, empty?, cells?}`), null when valid.
    pub error: Option<LayoutError>,
    /// Valid layouts only: whether 曹操 can reach the exit.
    pub solvable: Option<bool>,
    /// Valid and solvable: the fewest moves (the standard count, `rule`).
    pub optimal: Option<u32>,
    /// The count `optimal` is in: `piece`.
    pub rule: &'static str,
    /// Valid layouts only: the board in game-ID body form and its game ID (`open_game`,
    /// `encode_code` take it).
    pub board: Option<String>,
    pub id: Option<String>,
    /// The classic this layout is, if it is one.
    pub classic: Option<ClassicName>,
    /// A classic's pieces by name (as its game board names them), else null.
    pub names: Option<Vec<PieceName>>,
    /// Positions the search stored.
    pub states: Option<u64>,
}

/// `board` as the command receives it: the placed pieces or a board text.
pub fn parse_board_arg(v: Option<Value>) -> AppResult<Result<Board, LayoutError>> {
    match v {
        None => Err(AppError::bad_argument(
            "`board` is missing (a board text or a list of {shape, row, col})",
        )),
        Some(Value::String(s)) => {
            if s.len() > 256 {
                return Err(AppError::bad_argument(format!(
                    "`board` is {} bytes long; a 4×5 board text is at most 256",
                    s.len()
                )));
            }
            Ok(layout::check_text(&s))
        }
        Some(v @ Value::Array(_)) => {
            let n = v.as_array().map_or(0, Vec::len);
            if n > layout::MAX_PIECES {
                return Err(AppError::bad_argument(format!(
                    "`board` lists {n} pieces; at most {} fit on the board",
                    layout::MAX_PIECES
                )));
            }
            let pieces: Vec<Placed> = crate::args::json("board", Some(v), MAX_BOARD_JSON)?;
            Ok(layout::check_pieces(&pieces))
        }
        Some(_) => Err(AppError::bad_argument(
            "`board` must be a board text or a list of {shape, row, col}",
        )),
    }
}

impl AppState {
    /// Check a layout (see the module's comment).
    pub fn klotski_check(&self, layout: Result<Board, LayoutError>) -> AppResult<LayoutCheck> {
        let board = match layout {
            Ok(b) => b,
            Err(error) => {
                return Ok(LayoutCheck {
                    valid: false,
                    error: Some(error),
                    solvable: None,
                    optimal: None,
                    rule: Metric::Piece.as_str(),
                    board: None,
                    id: None,
                    classic: None,
                    names: None,
                    states: None,
                })
            }
        };
        let budget = self.budget(&Cancel::new(), CHECK_TIME);
        let found = self.gated(&budget.cancel.clone(), || {
            klotski::search_within(&board, Metric::Piece, &budget)
        })?;
        let canon = board.canonical();
        let classic = klotski::is_classic(&board)
            .then(|| {
                klotski::classics()
                    .iter()
                    .find(|c| c.parse_board().canonical() == canon)
            })
            .flatten()
            .map(|c| ClassicName {
                index: c.index,
                name_zh: c.name_zh,
                name_en: c.name_en,
            });
        let names = classic.as_ref().map(|_| piece_names(&board));
        let body = board.to_rows();
        Ok(LayoutCheck {
            valid: true,
            error: None,
            solvable: Some(found.solution.is_some()),
            optimal: found.solution.as_ref().map(|s| s.len() as u32),
            rule: Metric::Piece.as_str(),
            id: Some(format!("klotski:{body}")),
            board: Some(body),
            classic,
            names,
            states: Some(found.states),
        })
    }
}

/// The names the game board gives the pieces of `board` (a classic: `klotski::view` names
/// them), by cell.
fn piece_names(board: &Board) -> Vec<PieceName> {
    let v = klotski::view(board, board);
    let Some(pieces) = v["pieces"].as_array() else {
        return Vec::new();
    };
    pieces
        .iter()
        .filter_map(|p| {
            Some(PieceName {
                row: p["r"].as_u64()?,
                col: p["c"].as_u64()?,
                name_zh: p["name_zh"].as_str()?.to_string(),
                name_en: p["name_en"].as_str()?.to_string(),
            })
        })
        .collect()
}
