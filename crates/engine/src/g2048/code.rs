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
    /// The other sizes, pinned after the rows above.
    const GOLDEN_ADDED: &'static [&'static str] = &[
        "2048:3x3#1",
        "2048:5x5#7",
        "2048:6x6#0",
        "2048:7x7#123456789",
        "2048:8x8#18446744073709551615",
        "2048:4x4#5",
        "2048:3x3#0",
        "2048:2,0,0,0,4,0,0,0,256",
        "2048:2,0,0,0,4,0,0,0,256#9",
        "2048:131072,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2#3",
        "2048:5x4#1",
        "2048:2x2#1",
        "2048:9x9#1",
        "2048:5x5",
        "2048:2,0,0,0,4,0,0,0,256,0",
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
    /// A size 2048 is played on before the seed (`2048:5x5#7`) names a fresh game of that
    /// size (any other text stays refused as before: `the code's origin does not fit its game`).
    fn seed_params(body: &str) -> bool {
        matches!(super::size_param(body), Some((Ok(w), Ok(h))) if w != 4 && super::check_side(w, h).is_ok())
    }
    /// A 2048 result is its score and whether the 2048 tile was made (the board
    /// ranks a win first, then the score).
    fn outcome(g: &G2048) -> Option<crate::code::Outcome> {
        Some(crate::code::Outcome {
            score: g.score(),
            won: g.reached_2048(),
        })
    }
    fn is_wide(board: &Board2048) -> bool {
        board.is_wide()
    }
    fn check_board(_board: &Board2048, body: &str, _picture: Option<&str>) -> Result<()> {
        G2048::from_id(body, None).map(|_| ())
    }
}
