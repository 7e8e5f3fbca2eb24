//! The number slide on the card: its name, its level line (size and difficulty) and the
//! puzzle a friend gets from the code (its start board, wooden tiles; a picture puzzle's
//! whole picture is drawn by `picture.rs`).

use crate::canvas::{Align, Canvas, Rgb};
use crate::game_card::{Finish, GameCard, Level, TitleLines};
use crate::labels::Labels;
use crate::style::{Fonts, Lang, Theme};
use crate::thumb::{Frame, Thumb};
use huarong_engine::code::Origin;
use huarong_engine::slide::{self, pictures};
use huarong_engine::{Error, Kind};

pub const CARD: GameCard = GameCard {
    kind: Kind::Slide,
    name: ["数字华容道", "Number slide"],
    scored: false,
    shows_start: true,
    thumb,
    board,
    draw,
    level,
    words: [&[], &[]],
};

/// Title: the size; subtitle: a picture puzzle's picture, else the difficulty of a generated
/// level, else shuffle or custom.
fn level(l: &Labels, level: &Level) -> Result<TitleLines, huarong_engine::Error> {
    let size = level.size.clone();
    if let Some(name) = &level.decoded.picture {
        let title = match (pictures::find(name), level.lang) {
            (Some(p), Lang::Zh) => p.title_zh,
            (Some(p), Lang::En) => p.title_en,
            (None, _) => l.picture,
        };
        return Ok((size, title.to_string()));
    }
    Ok(match &level.decoded.origin {
        Origin::Generated { params, .. } => {
            let diff = params.split_once('/').map(|(_, d)| d);
            let name = ["easy", "medium", "hard", "expert"]
                .iter()
                .position(|&d| Some(d) == diff)
                .map(|i| l.difficulty[i]);
            (size, name.unwrap_or(l.shuffle).to_string())
        }
        _ => (size, l.custom.to_string()),
    })
}

fn thumb(body: &str) -> Result<Thumb, String> {
    let bad = || format!("cannot draw the board {body:?}");
    let (size, tiles) = body.split_once(':').ok_or_else(bad)?;
    let (w, h) = size.split_once('x').ok_or_else(bad)?;
    let (w, h): (usize, usize) = (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
    let tiles: Vec<u32> = tiles
        .split([',', ' '])
        .filter(|t| !t.is_empty())
        .map(|t| t.parse::<u16>().map(u32::from).map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    if !(1..=16).contains(&w) || !(1..=16).contains(&h) || tiles.len() != w * h {
        return Err(bad());
    }
    Ok(Thumb {
        kind: Kind::Slide,
        cols: w,
        rows: h,
        cells: tiles,
        names: Vec::new(),
    })
}

/// The code's start board: the puzzle the friend gets. A final board given with the spec must
/// be the solved board of the code's size (a won number slide has only one final position).
fn board(f: &Finish) -> Result<Thumb, Error> {
    let start = slide::Board::parse(&f.decoded.board)?;
    let (w, h) = (start.width(), start.height());
    if let Some(body) = f.board {
        let given = slide::Board::parse(body)
            .map_err(|e| Error::parse(format!("the card's board {body:?}: {}", e.message)))?;
        if (given.width(), given.height()) != (w, h) {
            return Err(Error::parse(format!(
                "the card's board is {}×{}, but the code's puzzle is {w}×{h}",
                given.width(),
                given.height()
            )));
        }
        if !given.is_solved() {
            return Err(Error::parse(format!(
                "the card's board {body:?} is not solved: the board given with a card is the finished one"
            )));
        }
    }
    thumb(&start.body()).map_err(Error::parse)
}

/// The wooden frame, the tiles' face, their lower edge and their numbers.
pub(crate) fn wood(theme: Theme) -> [Rgb; 4] {
    match theme {
        Theme::Light => [0x8a5a35, 0xf7e9d0, 0xc9a57a, 0x5b3a1f],
        Theme::Dark => [0x5a3d26, 0xf1dfbf, 0xa88558, 0x4a2f18],
    }
    .map(Rgb::hex)
}

fn draw(t: &Thumb, cv: &mut Canvas, fonts: &Fonts, f: &Frame, theme: Theme) {
    let (bx, by, pad, cell, gap) = (f.x, f.y, f.pad, f.cell, f.gap);
    let [frame, face, edge, ink] = wood(theme);
    cv.round_rect(bx, by, f.w, f.h, pad * 1.2, frame);
    let text_size = cell * if t.cells.len() > 99 { 0.42 } else { 0.46 };
    for (i, &n) in t.cells.iter().enumerate() {
        if n == 0 {
            continue;
        }
        let (cx, cy) = (
            bx + pad + (i % t.cols) as f32 * cell,
            by + pad + (i / t.cols) as f32 * cell,
        );
        let (tx, ty, ts) = (cx + gap / 2.0, cy + gap / 2.0, cell - gap);
        cv.round_rect(tx, ty + ts * 0.05, ts, ts, ts * 0.14, edge);
        cv.round_rect(tx, ty, ts, ts * 0.95, ts * 0.14, face);
        cv.text(
            &fonts.bold,
            text_size,
            (tx + ts / 2.0, ty + ts * 0.475 + text_size * 0.36),
            Align::Center,
            ink,
            &n.to_string(),
        );
    }
}
