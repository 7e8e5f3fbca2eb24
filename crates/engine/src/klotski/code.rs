//! Klotski's part of the share-code format: the board as piece shapes in scan order, and
//! the classics, which a code names by number.

use super::{classics, search_with_limit, Board, Klotski, Metric};
use crate::code::board::KlotskiBoard;
use crate::code::{Classic, Coded, Reader, Writer, KLOTSKI_CHECK_STATES};
use crate::error::{Error, ErrorCode, Result};
use crate::game::Cancel;

impl Coded for Klotski {
    type Board = KlotskiBoard;
    const GOLDEN: &'static [&'static str] = &[
        "klotski:10-30#1",
        "klotski:10-30#2",
        "klotski:60-90#3",
        "klotski:90-200#4",
        "klotski:10-30:g4s6#5",
        "klotski:aCCb/aCCb/cdde/cste/.uv.",
        "klotski:a.CC.b/a.CC.b/c....d/c....d",
        "klotski:#aa#/.CC./.CC./b..c/b..c/#..#",
        "klotski:aCCbaCCbcddecsteu..v",
        "klotski:aCCb/aCCb/cdde/cste/u.v.",
        "klotski:CC/CC",
        "klotski:abcd",
        "klotski:10-30#bad",
    ];

    fn parse_board(body: &str) -> Result<KlotskiBoard> {
        KlotskiBoard::parse(body)
    }
    fn board_text(board: &KlotskiBoard) -> Result<String> {
        board.body()
    }
    fn write_board(board: &KlotskiBoard, out: &mut Writer) {
        board.write(out)
    }
    fn read_board(r: &mut Reader, _wide: bool) -> Result<KlotskiBoard> {
        KlotskiBoard::read(r)
    }

    /// The board must be solvable, which a search bounded by [`KLOTSKI_CHECK_STATES`]
    /// decides; a board too large to decide within the bound is accepted (the game reports
    /// it when asked for a hint).
    fn check_board(_board: &KlotskiBoard, body: &str, _picture: Option<&str>) -> Result<()> {
        let board = Board::parse(body)?;
        match search_with_limit(&board, Metric::Piece, &Cancel::new(), KLOTSKI_CHECK_STATES) {
            Ok(r) if r.solution.is_none() => Err(Error::unsolvable(format!(
                "the Klotski board {body} has no solution"
            ))),
            Ok(_) => Ok(()),
            // Too large to decide within the bound (count or bytes): accepted.
            Err(e) if matches!(e.code, ErrorCode::OutOfRange | ErrorCode::Unsupported) => Ok(()),
            Err(e) => Err(e),
        }
    }

    fn classic(index: usize) -> Option<Classic> {
        classics().get(index).map(|c| Classic {
            board: c.board,
            name: c.name_zh,
            solvable: c.min_moves.is_some(),
        })
    }
}
