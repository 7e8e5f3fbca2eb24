//! The board on the card (the puzzle a friend gets, or 2048's final grid), drawn into a
//! frame: a grid of cells read and painted by the game's card module
//! (`src/games/<game>.rs`); the frame around it is common.

use huarong_engine::Kind;

/// A board as a grid of cells, made by its game's card module (slide: tile numbers,
/// 0 = blank; Klotski: the cell letters as bytes; 2048: tile values, 0 = empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thumb {
    pub kind: Kind,
    pub cols: usize,
    pub rows: usize,
    /// Row-major, `cols × rows` cells.
    pub cells: Vec<u32>,
    /// Klotski: what each piece shows in the card's language, by its letter: its name (the
    /// game's traditional one, or its shape's word when the layout has none), then shorter
    /// forms to use when it does not fit.
    pub names: Vec<(u32, Vec<String>)>,
}

/// Where the board is drawn: its outer rectangle, the padding and the cell pitch.
pub struct Frame {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
    pub pad: f32,
    pub cell: f32,
    pub gap: f32,
}

impl Thumb {
    /// Columns and rows.
    pub fn grid(&self) -> (usize, usize) {
        (self.cols, self.rows)
    }

    /// The names piece `letter` may show (Klotski), best first; none for a plain block.
    pub fn names_of(&self, letter: u32) -> &[String] {
        self.names
            .iter()
            .find(|(l, _)| *l == letter)
            .map_or(&[], |(_, n)| n.as_slice())
    }

    /// The largest frame of the board that fits `max_w × max_h` (whole-pixel cells), with
    /// its top-left corner at (x, y).
    pub fn frame_in(&self, x: f32, y: f32, max_w: f32, max_h: f32) -> Frame {
        let (cols, rows) = self.grid();
        let pad = (max_w.min(max_h) * 0.04).round();
        let cell = ((max_w - 2.0 * pad) / cols as f32)
            .min((max_h - 2.0 * pad) / rows as f32)
            .floor();
        Frame {
            x: x.round(),
            y: y.round(),
            w: cell * cols as f32 + 2.0 * pad,
            h: cell * rows as f32 + 2.0 * pad,
            pad,
            cell,
            gap: (cell * 0.06).max(1.5),
        }
    }
}
