//! The share card: a 1000×800 PNG rendered in pure Rust, no I/O; a card
//! whose link is too long for its corner QR code (a result code with its move log)
//! grows to 1000×[`LONG_HEIGHT`] with a large QR code in a band of its own ([`Layout`]).
//!
//! The card brags for the player: a headline with their name and result ("Ann · 33 步通关",
//! "Ann solved it in 33 moves"; 2048 its score and best tile), their rank among friends on a
//! daily's board, the puzzle a friend will get from the code, labelled as the challenge (the
//! number slide's start board, a picture puzzle's whole picture, Klotski's named layout;
//! 2048 shows the player's final grid), the time to the tenth as the finish records it, and
//! the QR code of the share link `<code::LINK_BASE>?c=<code>`, sized so that it still scans
//! from the card at half its size in a chat. Light and dark variants ([`Theme`]). Text is
//! drawn from the shipped font subsets in `assets/` (Noto Sans CJK SC and, for the pieces'
//! names, Noto Serif CJK SC; SIL OFL 1.1), so the card looks the same on every platform.

mod canvas;
mod draw;
mod game_card;
mod labels;
mod picture;
mod qr;
mod style;
mod thumb;

pub use draw::{Card, Layout, HEIGHT, LONG_HEIGHT, WIDTH};
pub use labels::{clock, clock_tenths};
pub use picture::{Picture, MAX_PICTURE_PNG, MAX_PICTURE_SIDE};
pub use style::{has_name_font, install_name_font, Lang, Theme};
pub use thumb::Thumb;

use game_card::{Finish, GameCard, Level};
use style::Fonts;
#[cfg(test)]
use {
    ab_glyph::FontRef,
    style::{BOLD, REGULAR, SERIF},
};

use huarong_engine::code::{self, Decoded};
#[cfg(test)]
use huarong_engine::klotski;
use huarong_engine::{daily, Error, ErrorCode, Kind};
use labels::{date_text, fill, fill_named, labels, number, unit, EN};

/// The games on the card: each one's module `src/games/<game>.rs` (named as the engine's
/// module) defines `CARD`.
mod games {
    pub mod g2048;
    pub mod klotski;
    /// The tests' stand-in game (the engine's `stand-in` feature).
    #[cfg(stand_in)]
    pub mod lights;
    pub mod slide;
}

/// The card table, made from the engine's list of games (`for_each_game!`): a game without
/// its module here does not compile.
macro_rules! card_games {
    ($( $variant:ident = $game:path, $module:ident, $name:literal; )+) => {
        const GAMES: &[GameCard] = &[$( games::$module::CARD ),+];
    };
}

huarong_engine::for_each_game!(card_games! {});

impl GameCard {
    fn name(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::Zh => self.name[0],
            Lang::En => self.name[1],
        }
    }
}

/// The card part of `kind`. Every game has one (checked by a test); an unlisted one would
/// get the first entry rather than a panic.
fn game(kind: Kind) -> &'static GameCard {
    GAMES.iter().find(|g| g.kind == kind).unwrap_or(&GAMES[0])
}

/// What the card shows besides what the code says.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CardSpec {
    /// The share code (or link) of the puzzle played.
    pub code: String,
    pub lang: Lang,
    pub theme: Theme,
    /// Moves under the game's default count (number slide: tile moves; Klotski: piece
    /// moves), as codes carry them.
    pub moves: u32,
    /// Time played, in whole seconds (older callers); `ms` wins when given.
    pub seconds: u64,
    /// Time played in milliseconds, as the finish recorded it: shown to the tenth (cut, as
    /// the finish and the records show it).
    pub ms: Option<u64>,
    /// The player's display name for the headline (checked as a result code's name:
    /// [`code::check_name`]); `None` or empty: a headline without a name.
    pub name: Option<String>,
    /// How many friends this result beats on its daily's friends' board (the app counts
    /// them); shown when at least one.
    pub friends_beaten: Option<u32>,
    /// The optimal move count, where known.
    pub optimum: Option<u32>,
    /// Stars earned (0–3), where the game gives stars.
    pub stars: Option<u8>,
    /// 2048: the final score and best tile.
    pub score: Option<u64>,
    pub best_tile: Option<u32>,
    /// The day played (year, month, day); a daily challenge shows its own date.
    pub date: Option<(i32, u32, u32)>,
    /// A picture puzzle's image as PNG bytes (at most [`MAX_PICTURE_PNG`]): the board is
    /// drawn as the whole picture. Only for a picture puzzle's code, or with `own_photo`.
    pub picture: Option<Vec<u8>>,
    /// The puzzle is the player's own photo: its code carries no picture (the photo never
    /// travels in a code), so it reads as a plain number slide; `picture` is that photo (a
    /// square slide of a picture size only). The app sets it when the player's current game
    /// is that custom-photo puzzle.
    pub own_photo: bool,
    /// The challenge this result beat (the game was opened from a friend's code): the card
    /// says "Ann beat 85 moves with 83", while its own code carries the player's result.
    pub beat: Option<code::Challenge>,
    /// The finished board, in the game-ID body form of the game's snapshots
    /// (`snapshot.board`: `4x4:1,2,…,0`, `aCCb/…`, sixteen 2048 values), at most
    /// [`MAX_BOARD_TEXT`] characters. It must fit the code's puzzle: the same size (and for
    /// Klotski the same pieces and walls), solved for the number slide and Klotski; for 2048
    /// its largest tile is the best tile. The number slide and Klotski show the code's puzzle
    /// whatever it is; 2048 draws it (without it, the best tile alone as one big tile).
    pub board: Option<String>,
}

/// The board the card of `spec` shows (see [`CardSpec::board`]); an error when the code is
/// bad (`bad_code`…) or when the spec's final board does not fit its puzzle (`parse`).
pub fn board_shown(spec: &CardSpec) -> Result<Thumb, Error> {
    shown(spec, &code::decode_full(&spec.code)?)
}

fn shown(spec: &CardSpec, decoded: &Decoded) -> Result<Thumb, Error> {
    if let Some(b) = &spec.board {
        if b.len() > MAX_BOARD_TEXT {
            return Err(Error::parse(format!(
                "the card's board is {} characters long; at most {MAX_BOARD_TEXT}",
                b.len()
            )));
        }
    }
    (game(decoded.kind).board)(&Finish {
        decoded,
        board: spec.board.as_deref().map(str::trim),
        lang: spec.lang,
        best_tile: spec.best_tile,
    })
}

/// Longest time shown (999 hours), largest numbers: beyond them the card refuses the spec.
const MAX_SECONDS: u64 = 999 * 3600;
const MAX_MOVES: u32 = 9_999_999;
/// Longest board text accepted (a 16×16 slide is under 1,000 characters).
pub const MAX_BOARD_TEXT: usize = 1200;

/// Whether a card of this code may show a picture: a picture puzzle's code, or with
/// `own_photo` a number slide of a size picture puzzles have. A puzzle with the player's own
/// photo is shared without its picture (the code carries only built-in pictures: the photo
/// never travels in a code), so its code is a plain slide's; the card is the player's to
/// share, and shows the photo.
fn takes_picture(decoded: &code::Decoded, own_photo: bool) -> bool {
    if decoded.kind != Kind::Slide {
        return false;
    }
    if decoded.id.contains("/picture:") {
        return true;
    }
    if !own_photo {
        return false;
    }
    let size = decoded.board.split([':', '/']).next().unwrap_or("");
    huarong_engine::slide::record_scope(&format!(
        "{size}/picture:{}",
        huarong_engine::slide::pictures::CUSTOM
    ))
    .is_ok()
}

/// Renders the card as PNG bytes.
pub fn render(spec: &CardSpec) -> Result<Vec<u8>, Error> {
    Ok(render_traced(spec)?.png)
}

/// A rendered card with what was written on it.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    pub png: Vec<u8>,
    /// Every text run drawn on the card, in drawing order.
    pub texts: Vec<String>,
    /// Characters drawn that the card's fonts have no glyph for (always empty for the
    /// card's own words: tested).
    pub missing: Vec<char>,
    /// The QR code's white tile: x, y, size in pixels.
    pub qr_box: (f32, f32, f32),
}

/// Renders the card and reports the texts drawn on it.
pub fn render_traced(spec: &CardSpec) -> Result<Rendered, Error> {
    Card::describe(spec)?.draw_traced()
}

/// The name as the headline can write it with the card's faces: a character they lack is
/// left out when it is no letter or digit (an emoji, a symbol); a letter they lack (a rare
/// character) leaves the whole name out rather than print half of it or a "☒".
fn writable_name(name: &str, fonts: &Fonts) -> Option<String> {
    let mut kept = String::new();
    for ch in name.chars() {
        if ch.is_whitespace() || fonts.bold_for(ch).is_some() {
            kept.push(ch);
        } else if ch.is_alphanumeric() {
            return None;
        }
    }
    let kept = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    (!kept.is_empty()).then_some(kept)
}

impl Card {
    /// Reads the code and the player's result into the texts of the card.
    pub fn describe(spec: &CardSpec) -> Result<Card, Error> {
        let decoded = code::decode_full(&spec.code)?;
        if spec.seconds > MAX_SECONDS || spec.moves > MAX_MOVES {
            return Err(Error::range("time or move count too large for a card"));
        }
        if let Some(ms) = spec.ms {
            if ms > MAX_SECONDS * 1000 {
                return Err(Error::range("time too large for a card"));
            }
            if spec.seconds != 0 && spec.seconds.abs_diff(ms / 1000) > 1 {
                return Err(Error::range(format!(
                    "{} seconds and {ms} ms are not the same time",
                    spec.seconds
                )));
            }
        }
        if let Some(s) = spec.stars {
            if s > 3 {
                return Err(Error::range(format!("{s} stars: a card shows 0 to 3")));
            }
        }
        if let Some((_, m, d)) = spec.date {
            if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
                return Err(Error::range("the card's date is not a calendar date"));
            }
        }
        let name = match &spec.name {
            Some(n) => code::check_name(n)?,
            None => None,
        };
        let fonts = Fonts::load()?;
        let name = name.and_then(|n| writable_name(&n, &fonts));
        let lang = spec.lang;
        let l = labels(lang);
        let game = game(decoded.kind);
        let board = shown(spec, &decoded)?;
        let picture = match &spec.picture {
            Some(png) => {
                if !takes_picture(&decoded, spec.own_photo) {
                    return Err(Error::parse(
                        "a picture goes on the card of a picture puzzle only (a square number slide of a picture size); this code is not one",
                    ));
                }
                Some(Picture::decode(png)?)
            }
            None => None,
        };
        let start = Thumb::parse(decoded.kind, &decoded.board).map_err(Error::parse)?;
        let (cols, rows) = start.grid();
        let level = Level {
            decoded: &decoded,
            lang,
            size: format!("{cols}×{rows}"),
        };
        let (mut title, mut subtitle) = (game.level)(l, &level)?;
        let mut when = spec.date.map(|d| date_text(lang, d)).unwrap_or_default();
        if let Some(n) = decoded.daily {
            // A daily is named by its number, never "custom layout": its level's other
            // words (a classic's name, a difficulty, the size) follow.
            let parts: Vec<String> = [title, subtitle]
                .into_iter()
                .filter(|p| !p.is_empty() && p != l.custom)
                .collect();
            title = fill(l.daily, n);
            subtitle = parts.join(labels::SEP);
            if let Ok(d) = daily::date_of(n) {
                when = date_text(lang, (d.year, d.month, d.day));
            }
        }

        let ms = spec.ms;
        let time = ms.map_or_else(|| labels::clock(spec.seconds), labels::clock_tenths);
        let name_ref = name.as_deref().unwrap_or("");
        let (headline, mut lines) = if game.scored {
            let score = spec.score.unwrap_or(0);
            let best = spec
                .best_tile
                .or_else(|| spec.board.as_ref().and(board.cells.iter().copied().max()))
                .filter(|&t| t > 0);
            let template = match (name.is_some(), best.is_some()) {
                (true, true) => l.scored_tile_by,
                (false, true) => l.scored_tile,
                (true, false) => l.scored_by,
                (false, false) => l.scored,
            };
            let tile = best.map(|t| t.to_string()).unwrap_or_default();
            let headline = fill_named(
                template,
                &[
                    ("name", name_ref),
                    ("score", &number(lang, score)),
                    ("tile", &tile),
                    ("unit", unit(l.point_unit, score)),
                ],
            );
            let lines = vec![
                (l.moves.to_string(), number(lang, spec.moves.into())),
                (l.time.to_string(), time),
            ];
            (headline, lines)
        } else {
            let template = if name.is_some() {
                l.solved_by
            } else {
                l.solved
            };
            let headline = fill_named(
                template,
                &[
                    ("name", name_ref),
                    ("n", &spec.moves.to_string()),
                    ("unit", unit(l.move_unit, spec.moves.into())),
                ],
            );
            let mut lines = vec![(l.time.to_string(), time)];
            if let Some(o) = spec.optimum {
                lines.push((l.optimum.to_string(), l.moves_text(o)));
            }
            (headline, lines)
        };
        // The challenge this result beat, else the one the code carries: beaten by this
        // result, or still to beat. With the recorded milliseconds the times compare
        // exactly; with whole seconds (rounded) only a result a whole second faster surely
        // beats as many moves: the player's own result in their own code is always "to
        // beat", never "beat 12 moves with 12".
        let surely_beats = |c: &code::Challenge| match ms {
            Some(ms) => spec.moves < c.moves || (spec.moves == c.moves && ms < c.ms),
            None => {
                spec.moves < c.moves
                    || (spec.moves == c.moves
                        && spec.seconds.saturating_add(1).saturating_mul(1000) <= c.ms)
            }
        };
        // A beaten challenge is the headline: "Ann beat 58 moves with 52".
        let beaten_text = |c: &code::Challenge| {
            let template = if name.is_some() { l.beat_by } else { l.beat };
            fill_named(
                template,
                &[
                    ("name", name_ref),
                    ("theirs", &l.moves_text(c.moves)),
                    ("mine", &l.moves_text(spec.moves)),
                    ("n", &spec.moves.to_string()),
                ],
            )
        };
        // The player's own result in their own result code: the headline already says it.
        let own = |c: &code::Challenge| {
            c.moves == spec.moves
                && match ms {
                    Some(ms) => ms == c.ms,
                    None => c.ms / 1000 == spec.seconds || (c.ms + 500) / 1000 == spec.seconds,
                }
        };
        let mut beaten = None;
        if let Some(b) = &spec.beat {
            // The app compared exact times; more moves than the target is never a beat.
            if spec.moves > b.moves {
                return Err(Error::range(format!(
                    "{} do not beat {}",
                    EN.moves_text(spec.moves),
                    EN.moves_text(b.moves)
                )));
            }
            beaten = Some(beaten_text(b));
        } else if let Some(c) = decoded.challenge {
            if surely_beats(&c) {
                beaten = Some(beaten_text(&c));
            } else if !own(&c) {
                lines.push((
                    l.to_beat.to_string(),
                    format!("{} · {}", l.moves_text(c.moves), labels::clock_tenths(c.ms)),
                ));
            }
        }
        let headline = beaten.clone().unwrap_or(headline);
        let rank = spec
            .friends_beaten
            .filter(|&n| n > 0)
            .map(|n| fill(unit(l.rank, n.into()), n));
        let code_text = decoded.code.clone();
        let link = code::link(&code_text);
        Ok(Card {
            lang,
            theme: spec.theme,
            game: game.name(lang).to_string(),
            when,
            name,
            headline,
            rank,
            board_label: if game.shows_start {
                l.this_puzzle
            } else {
                l.final_board
            }
            .to_string(),
            title,
            subtitle,
            lines,
            beaten,
            stars: if game.scored { None } else { spec.stars },
            board,
            picture,
            layout: Layout::of(&link)?,
            replay: decoded.log().is_some(),
            link,
            code: code_text,
        })
    }

    /// Draws the card.
    pub fn draw(&self) -> Result<Vec<u8>, Error> {
        Ok(self.draw_traced()?.png)
    }

    /// Draws the card and reports the texts drawn.
    pub fn draw_traced(&self) -> Result<Rendered, Error> {
        let fonts = Fonts::load()?;
        let (cv, qr_box) = draw::card(self, &fonts, game(self.board.kind).draw)?;
        Ok(Rendered {
            png: cv
                .png()
                .map_err(|e| Error::new(ErrorCode::Unsupported, e))?,
            texts: cv.texts,
            missing: cv.missing,
            qr_box,
        })
    }

    /// Where the board is drawn: its frame on the card.
    pub fn board_frame(&self) -> thumb::Frame {
        draw::board_frame(self)
    }
}

impl Thumb {
    /// Parses a board body (game-ID body form, as `huarong_engine::code` returns it).
    pub fn parse(kind: Kind, body: &str) -> Result<Thumb, String> {
        (game(kind).thumb)(body)
    }
}

/// Every text the card can print for `lang` apart from numbers, codes, names, level names and
/// the pieces' names (for the font-coverage tests; `assets/make-font.py` reads the string
/// literals of the sources instead).
pub fn label_texts(lang: Lang) -> Vec<&'static str> {
    let l = labels(lang);
    let mut v = vec![
        "华容",
        "HUARONG",
        l.solved_by,
        l.solved,
        l.scored_tile_by,
        l.scored_tile,
        l.scored_by,
        l.scored,
        l.this_puzzle,
        l.final_board,
        l.optimum,
        l.time,
        l.moves,
        l.best_tile,
        l.classic,
        l.generated,
        l.band,
        l.custom,
        l.picture,
        l.shuffle,
        l.daily,
        l.caption,
        l.replay,
        l.code,
        l.beat_by,
        l.beat,
        l.to_beat,
        "×",
        "–",
        "·",
        ",",
        "年月日",
    ];
    v.extend(l.rank);
    v.extend(l.move_unit);
    v.extend(l.point_unit);
    v.extend(GAMES.iter().map(|g| g.name(lang)));
    let words = match lang {
        Lang::Zh => 0,
        Lang::En => 1,
    };
    v.extend(GAMES.iter().flat_map(|g| g.words[words]));
    v.extend(l.difficulty);
    v.extend(l.months);
    v
}

#[cfg(test)]
mod board_tests;
#[cfg(test)]
mod tests;

#[cfg(test)]
mod games_tests {
    use super::*;

    #[test]
    fn every_game_has_one_card_entry() {
        for kind in Kind::ALL {
            assert_eq!(
                GAMES.iter().filter(|g| g.kind == kind).count(),
                1,
                "{kind:?}"
            );
            assert_eq!(game(kind).kind, kind);
        }
        assert_eq!(GAMES.len(), Kind::COUNT);
    }
}
