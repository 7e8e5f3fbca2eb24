//! 2048's part of the share-code format: sixteen 4-bit exponents (5-bit in the wide form),
//! and a seed that may come with a board (the spawns after it).

use super::G2048;
use crate::code::board::Board2048;
use crate::code::{Coded, Reader, Writer};
use crate::error::Result;
use crate::game::Game;

impl Coded for G2048 {
    type Board = Board2048;
    const GOLDEN: &'static [&'static str] = &[
        "2048:#0",
        "2048:#1",
        "2048:#2",
        "2048:#5",
        "2048:#9",
        "2048:#42",
        "2048:#123456789",
        "2048:#18446744073709551615",
        "2048:2,0,0,0,0,4,0,0,0,0,8,0,0,0,0,32768",
        "2048:2,0,0,0,0,4,0,0,0,0,8,0,0,0,0,32768#42",
        "2048:2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,4#5",
        "2048:2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,4",
        "2048:65536,2,0,0,0,0,0,0,0,0,0,0,0,0,0,131072#3",
        "2048:65536,2,0,0,0,0,0,0,0,0,0,0,0,0,0,4",
        "2048:2,0,0,0,0,4,0,0,0,0,8,0,0,0,0,2#6",
        "2048:3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0",
        "2048:easy#4",
        "2048:",
    ];
    const SEED_WITH_BOARD: bool = true;
    const WIDE_FORM: bool = true;

    fn parse_board(body: &str) -> Result<Board2048> {
        Board2048::parse(body)
    }
    fn board_text(board: &Board2048) -> Result<String> {
        Ok(board.body())
    }
    fn write_board(board: &Board2048, out: &mut Writer) {
        board.write(out)
    }
    fn read_board(r: &mut Reader, wide: bool) -> Result<Board2048> {
        Board2048::read(r, wide)
    }

    /// A swipe, 2 bits: left, right, up, down. Spawns follow from the game's seed and the
    /// moves (the session's save replays them the same way), so a log replays exactly.
    fn log_choices(g: &G2048) -> Option<Vec<super::Move>> {
        if g.status() != crate::game::Status::Playing {
            return Some(Vec::new());
        }
        Some(super::Dir::ALL.into_iter().map(super::Move::Slide).collect())
    }
    /// "Keep going" after 2048 is implied by the next swipe.
    fn log_implied(mv: &super::Move) -> bool {
        matches!(mv, super::Move::KeepGoing)
    }
    fn log_before(g: &mut G2048) {
        if g.status() == crate::game::Status::Won {
            let _ = g.apply(&super::Move::KeepGoing);
        }
    }
    /// A 2048 result is its finish: won (2048 reached) or over.
    fn log_done(g: &G2048) -> bool {
        g.status() != crate::game::Status::Playing
    }
    fn is_wide(board: &Board2048) -> bool {
        board.is_wide()
    }
    fn check_board(_board: &Board2048, body: &str, _picture: Option<&str>) -> Result<()> {
        G2048::from_id(body, None).map(|_| ())
    }
}
