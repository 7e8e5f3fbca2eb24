//! Lights Out on one row on the card: the stand-in game of the tests (the engine's `lights`,
//! `cfg(stand_in)`), drawn like every game: its name in both languages, its level line (the
//! row's length), moves against the optimum, and the puzzle's row (a final board given must have
//! every light off).

use crate::canvas::{Canvas, Rgb};
use crate::game_card::{Finish, GameCard, Level, TitleLines};
use crate::labels::Labels;
use crate::style::{Fonts, Lang, Theme};
use crate::thumb::{Frame, Thumb};
use huarong_engine::code::Origin;
use huarong_engine::{Error, Kind};

pub const CARD: GameCard = GameCard {
    kind: Kind::Lights,
    name: ["关灯", "Lights Out"],
    scored: false,
    shows_start: true,
    thumb,
    board,
    draw,
    level,
    words: [&["盏灯"], &["lights"]],
};

/// Title: the row's length ("5 盏灯", "5 lights"); subtitle: a seeded row, else custom.
fn level(l: &Labels, level: &Level) -> Result<TitleLines, Error> {
    let n = level.decoded.board.len();
    let title = match level.lang {
        Lang::Zh => format!("{n} {}", CARD.words[0][0]),
        Lang::En => format!("{n} {}", CARD.words[1][0]),
    };
    let sub = match level.decoded.origin {
        Origin::Generated { .. } => l.shuffle,
        _ => l.custom,
    };
    Ok((title, sub.to_string()))
}

/// A row (`10110`: 1 = on) as one row of cells.
fn thumb(body: &str) -> Result<Thumb, String> {
    let cells: Vec<u32> = body
        .bytes()
        .map(|b| match b {
            b'0' => Ok(0),
            b'1' => Ok(1),
            _ => Err(format!("cannot draw the lights {body:?}")),
        })
        .collect::<Result<_, _>>()?;
    if cells.is_empty() || cells.len() > 16 {
        return Err(format!("cannot draw the lights {body:?}"));
    }
    Ok(Thumb {
        kind: Kind::Lights,
        cols: cells.len(),
        rows: 1,
        cells,
        names: Vec::new(),
    })
}

/// The code's row: the puzzle the friend gets. A final board given with the spec must be the
/// row of the same length with every light off (the game has one goal).
fn board(f: &Finish) -> Result<Thumb, Error> {
    let n = f.decoded.board.len();
    if let Some(body) = f.board {
        if body != "0".repeat(n) {
            return Err(Error::parse(format!(
                "the card's board {body:?} is not the row of {n} lights all off: the board given with a card is the finished one"
            )));
        }
    }
    thumb(&f.decoded.board).map_err(Error::parse)
}

fn draw(t: &Thumb, cv: &mut Canvas, _fonts: &Fonts, f: &Frame, theme: Theme) {
    let (bx, by, pad, cell, gap) = (f.x, f.y, f.pad, f.cell, f.gap);
    let frame = match theme {
        Theme::Light => 0x3f2d1c,
        Theme::Dark => 0x2e2115,
    };
    cv.round_rect(bx, by, f.w, f.h, pad * 1.2, Rgb::hex(frame));
    for (i, &on) in t.cells.iter().enumerate() {
        let (cx, cy) = (
            bx + pad + (i % t.cols) as f32 * cell + gap,
            by + pad + (i / t.cols) as f32 * cell + gap,
        );
        let d = cell - 2.0 * gap;
        let face = if on == 1 { 0xf6c945 } else { 0xd8cbb4 };
        cv.round_rect(cx, cy + d * 0.04, d, d, d / 2.0, Rgb::hex(0x2a1e12));
        cv.round_rect(cx, cy, d, d, d / 2.0, Rgb::hex(face));
    }
}

#[cfg(test)]
mod tests {
    use crate::{render, Card, CardSpec, Lang, HEIGHT, WIDTH};
    use ab_glyph::{Font, FontRef};
    use huarong_engine::code;

    fn spec(lang: Lang, board: Option<&str>) -> CardSpec {
        CardSpec {
            code: code::encode("lights:10110").unwrap(),
            lang,
            moves: 2,
            seconds: 3,
            optimum: Some(2),
            stars: Some(3),
            date: Some((2026, 11, 29)),
            board: board.map(str::to_string),
            ..CardSpec::default()
        }
    }

    /// The stand-in's card in both languages: its name and level line, every character of
    /// them in the card's fonts (no "☒"), its finished row, and a wrong final board refused.
    #[test]
    fn the_stand_in_has_a_card_in_both_languages() {
        let regular = FontRef::try_from_slice(crate::style::REGULAR).unwrap();
        let bold = FontRef::try_from_slice(crate::style::BOLD).unwrap();
        for (lang, game, title) in [
            (Lang::Zh, "关灯", "5 盏灯"),
            (Lang::En, "Lights Out", "5 lights"),
        ] {
            let c = Card::describe(&spec(lang, Some("00000"))).unwrap();
            assert_eq!((c.game.as_str(), c.title.as_str()), (game, title));
            assert_eq!((c.board.cols, c.board.rows), (5, 1));
            assert_eq!(c.board.cells, [1, 0, 1, 1, 0], "the puzzle's row");
            for ch in [c.game, c.title, c.subtitle, c.headline].concat().chars() {
                for font in [&regular, &bold] {
                    assert_ne!(font.glyph_id(ch).0, 0, "the card's font lacks {ch:?}");
                }
            }
            let png = render(&spec(lang, None)).unwrap();
            assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
            let e = render(&spec(lang, Some("00100"))).unwrap_err();
            assert!(e.message.contains("all off"), "{}", e.message);
        }
        // The PNG's size, from its header (IHDR: width and height, big-endian).
        let png = render(&spec(Lang::Zh, None)).unwrap();
        let be = |i: usize| u32::from_be_bytes(png[i..i + 4].try_into().unwrap()) as usize;
        assert_eq!((be(16), be(20)), (WIDTH, HEIGHT));
    }
}
