//! What a game gives the card (`src/games/<game>.rs` defines its [`GameCard`]), and what the
//! card gives a game to name its level and choose its board.

use crate::canvas;
use crate::labels::Labels;
use crate::style::{Fonts, Lang, Theme};
use crate::thumb::{self, Thumb};
use huarong_engine::code::Decoded;
use huarong_engine::{Error, Kind};

/// The card's part of one game, defined in the game's module `src/games/<game>.rs`.
pub(crate) struct GameCard {
    pub kind: Kind,
    /// The game's name on the card: Chinese, English.
    pub name: [&'static str; 2],
    /// Whether the result is a score (final score, best tile, no stars) rather than moves.
    pub scored: bool,
    /// Whether the board shown is the code's puzzle ("This puzzle"), else the player's final
    /// board ("Final board": 2048, whose spawns make every game's end its own).
    pub shows_start: bool,
    /// Reads a board (game-ID body form) into cells.
    pub thumb: fn(&str) -> Result<Thumb, String>,
    /// The board the card shows, after checking the spec's final board (if any) against
    /// the code's puzzle.
    pub board: fn(&Finish<'_>) -> Result<Thumb, Error>,
    /// Paints the board into its frame, in the card's theme.
    pub draw: Paint,
    /// The title and subtitle naming the level (a classic's name, a difficulty, the size…).
    pub level: fn(&Labels, &Level<'_>) -> Result<TitleLines, Error>,
    /// The game's own words on the card (its level line), Chinese and English: the font must
    /// have them (`label_texts`).
    pub words: [&'static [&'static str]; 2],
}

/// Paints a game's board into its frame, in the card's theme.
pub(crate) type Paint = fn(&Thumb, &mut canvas::Canvas, &Fonts<'_>, &thumb::Frame, Theme);

/// A card's title and subtitle.
pub(crate) type TitleLines = (String, String);

/// What a game's `level` gets to name the level.
pub(crate) struct Level<'a> {
    pub decoded: &'a Decoded,
    pub lang: Lang,
    /// The board's size, `W×H`.
    pub size: String,
}

/// What a game's `board` gets: the code, the spec's final board and best tile.
pub(crate) struct Finish<'a> {
    pub decoded: &'a Decoded,
    /// The spec's final board, if any (game-ID body form).
    pub board: Option<&'a str>,
    pub lang: Lang,
    pub best_tile: Option<u32>,
}
