//! The number slide's part of the share-code format: the board as a permutation rank, and
//! its picture puzzles.

use super::{check_picture_name, pictures, record_scope, split_picture, Slide};
use crate::code::board::SlideBoard;
use crate::code::{Coded, Reader, Writer};
use crate::error::{Error, Result};
use crate::game::Game;

impl Coded for Slide {
    type Board = SlideBoard;
    const PICTURES: bool = true;

    fn parse_board(body: &str) -> Result<SlideBoard> {
        SlideBoard::parse(body)
    }
    fn board_text(board: &SlideBoard) -> Result<String> {
        Ok(board.body())
    }
    fn write_board(board: &SlideBoard, out: &mut Writer) {
        board.write(out)
    }
    fn read_board(r: &mut Reader, _wide: bool) -> Result<SlideBoard> {
        SlideBoard::read(r)
    }

    /// A picture puzzle's size must allow pictures; the parity must be right; the game
    /// must accept the board.
    fn check_board(board: &SlideBoard, body: &str, picture: Option<&str>) -> Result<()> {
        if picture.is_some() {
            let size = body.split(':').next().unwrap_or("");
            record_scope(&format!("{size}/picture:x")).map_err(|e| Error::bad_code(e.message))?;
        }
        if !board.solvable() {
            return Err(Error::unsolvable(format!(
                "the number-slide board {body} cannot reach the goal (its parity is wrong)"
            )));
        }
        Slide::from_id(body, None).map(|_| ())
    }

    fn split_picture(body: &str) -> Result<(String, Option<String>)> {
        split_picture(body)
    }
    fn shares_picture(name: &str) -> bool {
        pictures::is_builtin(name)
    }
    fn picture_name_ok(name: &str) -> bool {
        check_picture_name(name).is_ok()
    }
    /// `WxH:<tiles>` → `WxH/picture:<name>:<tiles>`.
    fn with_picture(body: String, name: &str) -> String {
        match body.split_once(':') {
            Some((size, tiles)) => format!("{size}/picture:{name}:{tiles}"),
            None => body,
        }
    }
}
