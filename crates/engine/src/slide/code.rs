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
    const GOLDEN: &'static [&'static str] = &[
        "slide:2x2#3",
        "slide:3x2#77",
        "slide:3x3#3",
        "slide:4x4#77",
        "slide:5x5#3",
        "slide:6x6#77",
        "slide:7x10#3",
        "slide:10x2#77",
        "slide:2x10#3",
        "slide:10x10#3",
        "slide:10x10#77",
        "slide:10x10#18446744073709551615",
        "slide:4x4/easy#11",
        "slide:4x4/medium#11",
        "slide:4x4/hard#11",
        "slide:4x4/expert#11",
        "slide:3x3/expert#2",
        "slide:3x3/picture:lotus#12",
        "slide:4x4/hard/picture:pagoda#5",
        "slide:3x3/picture:mountains:1,2,3,4,5,6,7,0,8",
        "slide:5x5/picture:koi#8",
        "slide:3x3/picture:photo-9f3a#12",
        "slide:3x4/picture:lotus#1",
        "slide:10x10/picture:lotus#9",
        "slide:3x3:1,2,3,4,5,6,7,0,8",
        "slide:4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,15,14,0",
        "slide:2x2:1,2,3,0",
        "slide:11x11#1",
        "slide:3x3:1,2",
        "slide:4x4/wrong#1",
        "slide:4x4/medium#18446744073709551615",
    ];

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

    /// A tap on a tile in the blank's row or column (it slides the run up to the blank), the
    /// tiles in cell order: (W − 1) + (H − 1) choices, 3 bits a tap on 4×4.
    fn log_choices(g: &Slide) -> Option<Vec<super::Move>> {
        let b = g.board();
        if b.is_solved() {
            return Some(Vec::new());
        }
        let (w, blank) = (b.width(), b.blank());
        let cells = b.cells();
        Some(
            (0..cells.len())
                .filter(|&i| i != blank && (i / w == blank / w || i % w == blank % w))
                .map(|i| super::Move {
                    tile: cells[i] as u16,
                })
                .collect(),
        )
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
