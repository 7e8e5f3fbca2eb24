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

    /// A piece moved to a cell it can reach (the standard piece count: one move, any
    /// distance): pieces in the order of their top-left cells, each one's reachable cells in
    /// row-major order. Letters play no part, so the log replays on the decoded board.
    fn log_choices(g: &Klotski) -> Option<Vec<super::Move>> {
        let b = g.board();
        if b.is_solved() {
            return Some(Vec::new());
        }
        let mut pieces: Vec<_> = b.pieces().to_vec();
        pieces.sort_by_key(|p| p.pos());
        let mut out = Vec::new();
        for p in pieces {
            let mut to: Vec<(u8, u8)> = b
                .targets(p.letter)
                .map(|ts| ts.into_iter().map(|t| t.to).collect())
                .unwrap_or_default();
            to.sort_unstable();
            out.extend(to.into_iter().map(|to| super::Move {
                piece: p.letter,
                to,
            }));
        }
        Some(out)
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
