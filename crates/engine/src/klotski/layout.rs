//! The layout editor's rules: a classic 4×5 Huarong Dao layout built piece by
//! piece. A layout is *valid* when it has exactly one 曹操 (2×2), every other piece is a
//! general (1×2 upright or 2×1 lying) or a soldier (1×1), every piece lies on the board, no
//! two overlap, exactly two cells stay empty, and 曹操 is not already at the exit (a start
//! that is already solved is nothing to play). A valid layout becomes a [`Board`] with
//! letters given in reading order, so its game ID is `klotski:<rows>`.
//!
//! Whether it is solvable, and in how many moves, is the solver's business
//! ([`super::search_within`]); the app core runs it under its budget.
//!
//! What is wrong is told with a stable `code` and an English `message` (the page words it
//! in the player's language from the code and its fields):
//! `out_of_bounds`, `overlap`, `no_cao_cao`, `two_cao_cao`, `empty_cells`, `already_solved`,
//! and for a board given as text also `parse`, `size`, `walls`, `shape`.

use super::board::{Board, Piece, GOAL};
use serde::{Deserialize, Serialize};

/// The editor's board: 4 columns, 5 rows.
pub const WIDTH: usize = 4;
pub const HEIGHT: usize = 5;
/// Cells that stay empty in a valid layout.
pub const EMPTY_CELLS: usize = 2;
/// More pieces than cells can never be a layout; a list longer than this is refused by the
/// caller before anything is checked.
pub const MAX_PIECES: usize = WIDTH * HEIGHT;

/// The four kinds of piece the editor places.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    /// 曹操, 2×2, the piece that must escape.
    Cao,
    /// A general standing upright: 1 wide, 2 tall.
    Vertical,
    /// A general lying down: 2 wide, 1 tall.
    Horizontal,
    /// A soldier, 1×1.
    Soldier,
}

impl Shape {
    /// (height, width) in cells.
    pub fn size(self) -> (u8, u8) {
        match self {
            Shape::Cao => (2, 2),
            Shape::Vertical => (2, 1),
            Shape::Horizontal => (1, 2),
            Shape::Soldier => (1, 1),
        }
    }

    fn of(p: &Piece) -> Option<Shape> {
        match (p.letter == GOAL, p.height, p.width) {
            (true, 2, 2) => Some(Shape::Cao),
            (false, 2, 1) => Some(Shape::Vertical),
            (false, 1, 2) => Some(Shape::Horizontal),
            (false, 1, 1) => Some(Shape::Soldier),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Shape::Cao => "Cao Cao (曹操)",
            Shape::Vertical => "the upright general",
            Shape::Horizontal => "the lying general",
            Shape::Soldier => "the soldier",
        }
    }
}

/// One placed piece: its shape and its top-left cell (any integers: a cell off the board is
/// an `out_of_bounds` answer, not a failure).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placed {
    pub shape: Shape,
    pub row: i64,
    pub col: i64,
}

/// What is wrong with a layout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LayoutError {
    /// Stable: `out_of_bounds`, `overlap`, `no_cao_cao`, `two_cao_cao`, `empty_cells`,
    /// `already_solved`, `parse`, `size`, `walls`, `shape`.
    pub code: &'static str,
    pub message: String,
    /// The index (in the given list; for a text, in reading order) of the piece at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<usize>,
    /// `empty_cells`: how many cells are empty now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub empty: Option<usize>,
    /// The cells concerned, `[row, col]` (`overlap`: the cells two pieces share).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<[u8; 2]>,
}

impl LayoutError {
    fn new(code: &'static str, message: impl Into<String>) -> LayoutError {
        LayoutError {
            code,
            message: message.into(),
            piece: None,
            empty: None,
            cells: Vec::new(),
        }
    }
    fn piece(mut self, i: usize) -> LayoutError {
        self.piece = Some(i);
        self
    }

    /// True for the errors that say a piece cannot stand where it was put (off the board, on
    /// another piece), as opposed to a layout that is not complete or not playable yet.
    pub fn is_placement(&self) -> bool {
        matches!(self.code, "out_of_bounds" | "overlap")
    }
}

/// Letters for the pieces other than 曹操, in reading order: the share code's own lettering
/// (`code::board`), so a layout's code decodes to the very same game ID.
const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyz";

/// Check a list of placed pieces; a valid layout as a board.
pub fn check_pieces(pieces: &[Placed]) -> Result<Board, LayoutError> {
    if pieces.len() > MAX_PIECES {
        return Err(LayoutError::new(
            "overlap",
            format!(
                "{} pieces cannot fit on {} cells",
                pieces.len(),
                WIDTH * HEIGHT
            ),
        ));
    }
    let mut owner: [Option<usize>; WIDTH * HEIGHT] = [None; WIDTH * HEIGHT];
    for (i, p) in pieces.iter().enumerate() {
        let (h, w) = p.shape.size();
        let fits = p.row >= 0
            && p.col >= 0
            && p.row + h as i64 <= HEIGHT as i64
            && p.col + w as i64 <= WIDTH as i64;
        if !fits {
            return Err(LayoutError::new(
                "out_of_bounds",
                format!(
                    "{} at row {}, column {} does not fit on the {WIDTH}×{HEIGHT} board",
                    p.shape.name(),
                    p.row.saturating_add(1),
                    p.col.saturating_add(1)
                ),
            )
            .piece(i));
        }
        let mut shared = Vec::new();
        let mut other = None;
        for r in p.row as usize..p.row as usize + h as usize {
            for c in p.col as usize..p.col as usize + w as usize {
                match owner[r * WIDTH + c] {
                    Some(j) => {
                        other.get_or_insert(j);
                        shared.push([r as u8, c as u8]);
                    }
                    None => owner[r * WIDTH + c] = Some(i),
                }
            }
        }
        if let Some(j) = other {
            let mut e = LayoutError::new(
                "overlap",
                format!(
                    "{} at row {}, column {} overlaps {}",
                    p.shape.name(),
                    p.row + 1,
                    p.col + 1,
                    pieces[j].shape.name()
                ),
            )
            .piece(i);
            e.cells = shared;
            return Err(e);
        }
    }
    let caos: Vec<usize> = (0..pieces.len())
        .filter(|&i| pieces[i].shape == Shape::Cao)
        .collect();
    match caos.len() {
        0 => {
            return Err(LayoutError::new(
                "no_cao_cao",
                "place Cao Cao (曹操), the 2×2 piece that must escape",
            ))
        }
        1 => {}
        n => {
            return Err(LayoutError::new(
                "two_cao_cao",
                format!("there are {n} Cao Caos (曹操); a layout has exactly one"),
            )
            .piece(caos[1]))
        }
    }
    // Letters in reading order of the pieces' top-left cells.
    let mut order: Vec<usize> = (0..pieces.len()).collect();
    order.sort_by_key(|&i| (pieces[i].row, pieces[i].col));
    let mut next = LETTERS.iter();
    let mut built = Vec::with_capacity(pieces.len());
    for i in order {
        let p = pieces[i];
        let (height, width) = p.shape.size();
        let letter = if p.shape == Shape::Cao {
            GOAL
        } else {
            // At most 19 pieces besides 曹操 fit (checked above), fewer than the letters.
            *next.next().unwrap_or(&b'z') as char
        };
        built.push(Piece {
            letter,
            row: p.row as u8,
            col: p.col as u8,
            height,
            width,
        });
    }
    let board = Board::new(WIDTH, HEIGHT, 0, built)
        .map_err(|e| LayoutError::new("parse", e.message))?;
    finish(board)
}

/// Check a board given as text (the game-ID body form, rows joined by `/`, or the
/// 20-character 4×5 form) against the editor's rules.
pub fn check_text(text: &str) -> Result<Board, LayoutError> {
    let board = Board::parse(text).map_err(|e| LayoutError::new("parse", e.message))?;
    if board.width() != WIDTH || board.height() != HEIGHT {
        return Err(LayoutError::new(
            "size",
            format!(
                "the board is {}×{}; the editor's layouts are {WIDTH} wide and {HEIGHT} tall",
                board.width(),
                board.height()
            ),
        ));
    }
    if board.walls() != 0 {
        return Err(LayoutError::new(
            "walls",
            "the board has walls; a classic layout has none",
        ));
    }
    let mut pieces: Vec<&Piece> = board.pieces().iter().collect();
    pieces.sort_by_key(|p| p.pos());
    for (i, p) in pieces.iter().enumerate() {
        if Shape::of(p).is_none() {
            let what = if p.letter == GOAL {
                format!("C (曹操) is {}×{}; it must be 2×2", p.width, p.height)
            } else {
                format!(
                    "piece {:?} is {}×{}; besides 曹操 (2×2) there are only generals (1×2 or 2×1) and soldiers (1×1)",
                    p.letter, p.width, p.height
                )
            };
            return Err(LayoutError::new("shape", what).piece(i));
        }
    }
    finish(board)
}

/// The checks every layout ends with: two empty cells, not solved already.
fn finish(board: Board) -> Result<Board, LayoutError> {
    let covered: usize = board
        .pieces()
        .iter()
        .map(|p| p.height as usize * p.width as usize)
        .sum();
    let empty = WIDTH * HEIGHT - covered;
    if empty != EMPTY_CELLS {
        let mut e = LayoutError::new(
            "empty_cells",
            format!(
                "{empty} cell{} empty; a layout leaves exactly {EMPTY_CELLS} empty",
                if empty == 1 { " is" } else { "s are" }
            ),
        );
        e.empty = Some(empty);
        return Err(e);
    }
    if board.is_solved() {
        return Err(LayoutError::new(
            "already_solved",
            "Cao Cao (曹操) already stands at the exit: there is nothing to solve",
        ));
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(shape: Shape, row: i64, col: i64) -> Placed {
        Placed { shape, row, col }
    }

    /// 横刀立马 as the editor builds it.
    fn classic() -> Vec<Placed> {
        use Shape::*;
        vec![
            p(Vertical, 0, 0),
            p(Cao, 0, 1),
            p(Vertical, 0, 3),
            p(Vertical, 2, 0),
            p(Horizontal, 2, 1),
            p(Vertical, 2, 3),
            p(Soldier, 3, 1),
            p(Soldier, 3, 2),
            p(Soldier, 4, 0),
            p(Soldier, 4, 3),
        ]
    }

    #[test]
    fn a_classic_layout_is_valid_and_lettered_in_reading_order() {
        let b = check_pieces(&classic()).expect("valid");
        assert_eq!(b.to_rows(), "aCCb/aCCb/cdde/cfge/h..i");
        // The same layout as text, and its own text again.
        assert_eq!(check_text("aCCb/aCCb/cdde/cfge/h..i").unwrap(), b);
        // Lettered as a share code letters it: the code decodes to the same text.
        let coded = crate::code::board::KlotskiBoard::parse(&b.to_rows()).unwrap();
        assert_eq!(coded.body().unwrap(), b.to_rows());
        assert_eq!(check_text("aCCbaCCbcddecsteu..v").unwrap().to_rows(), "aCCb/aCCb/cdde/cste/u..v");
    }

    #[test]
    fn every_fault_has_its_code() {
        use Shape::*;
        let code = |ps: &[Placed]| check_pieces(ps).unwrap_err().code;
        assert_eq!(code(&[]), "no_cao_cao");
        assert_eq!(code(&[p(Cao, 4, 0)]), "out_of_bounds");
        assert_eq!(code(&[p(Soldier, -1, 0)]), "out_of_bounds");
        assert_eq!(code(&[p(Horizontal, 0, 3)]), "out_of_bounds");
        assert_eq!(code(&[p(Soldier, i64::MAX, i64::MIN)]), "out_of_bounds");
        let e = check_pieces(&[p(Cao, 0, 0), p(Vertical, 1, 1)]).unwrap_err();
        assert_eq!((e.code, e.piece, e.cells.clone()), ("overlap", Some(1), vec![[1, 1]]));
        assert!(e.is_placement());
        assert_eq!(code(&[p(Cao, 0, 0), p(Cao, 0, 2)]), "two_cao_cao");
        let e = check_pieces(&[p(Cao, 0, 0)]).unwrap_err();
        assert_eq!((e.code, e.empty), ("empty_cells", Some(16)));
        assert!(!e.is_placement());
        let mut full = classic();
        full.push(p(Soldier, 4, 1));
        let e = check_pieces(&full).unwrap_err();
        assert_eq!((e.code, e.empty), ("empty_cells", Some(1)));
        assert!(e.message.contains("1 cell is empty"), "{}", e.message);
        // 曹操 at the exit.
        let solved = vec![
            p(Vertical, 0, 0),
            p(Vertical, 0, 1),
            p(Vertical, 0, 2),
            p(Vertical, 0, 3),
            p(Horizontal, 2, 0),
            p(Soldier, 2, 2),
            p(Soldier, 2, 3),
            p(Soldier, 3, 0),
            p(Soldier, 4, 0),
            p(Cao, 3, 1),
        ];
        assert_eq!(code(&solved), "already_solved");
        assert_eq!(code(&vec![p(Soldier, 0, 0); 21]), "overlap");
    }

    #[test]
    fn texts_outside_the_editors_rules_are_told_why() {
        let code = |t: &str| check_text(t).unwrap_err().code;
        assert_eq!(code(""), "parse");
        assert_eq!(code("aCCb/aCCb/cdde"), "size");
        assert_eq!(code("aCCb/aCCb/cdde/cste/#..v"), "walls");
        assert_eq!(code("aCCb/aCCb/cddd/cste/u..v"), "shape");
        assert_eq!(code("aaCC/aaCC/bdde/bste/u..v"), "shape");
        assert_eq!(code("aCCb/aCCb/cdde/cste/u.9v"), "parse");
        assert_eq!(code("ab.d/ab.d/eefg/hCCi/jCCk"), "already_solved");
        assert_eq!(code("aCCb/aCCb/cdde/cste/uvw."), "empty_cells");
        assert!(check_text("aCCb/aCCb/cdde/cste/uv..").is_ok());
    }
}
