//! 2048 on the card: its name, its level line, a score instead of a move count, and its
//! final grid (the classic palette).

use crate::canvas::{Align, Canvas, Rgb};
use crate::game_card::{Finish, GameCard, Level, TitleLines};
use crate::labels::Labels;
use crate::style::{Fonts, Lang, Theme};
use crate::thumb::{Frame, Thumb};
use huarong_engine::g2048::G2048;
use huarong_engine::{Error, Kind};

pub const CARD: GameCard = GameCard {
    kind: Kind::G2048,
    name: ["2048", "2048"],
    scored: true,
    shows_start: false,
    thumb,
    board,
    draw,
    level,
    // The level line's title: 2048 has one mode, the classic one.
    words: [&["经典模式"], &["Classic mode"]],
};

fn level(_l: &Labels, level: &Level) -> Result<TitleLines, Error> {
    let title = match level.lang {
        Lang::Zh => CARD.words[0][0],
        Lang::En => CARD.words[1][0],
    };
    Ok((title.to_string(), level.size.clone()))
}

fn thumb(body: &str) -> Result<Thumb, String> {
    let bad = || format!("cannot draw the board {body:?}");
    let values: Vec<u32> = body
        .split([',', ' '])
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    // Any square board 3×3 … 8×8.
    let side = (3..=8)
        .find(|&n: &usize| n * n == values.len())
        .ok_or_else(bad)?;
    Ok(Thumb {
        kind: Kind::G2048,
        cols: side,
        rows: side,
        cells: values,
        names: Vec::new(),
    })
}

/// The final grid as given (a 2048 board: its tile values, any size 3×3 … 8×8; the best tile, when given
/// too, must be its largest). Without one the final grid is unknown (tiles spawn at random
/// and the code carries only the start): the card shows the best tile alone, as one big tile
/// (an empty one without a best tile), never the start board.
fn board(f: &Finish) -> Result<Thumb, Error> {
    let Some(body) = f.board else {
        return Ok(Thumb {
            kind: Kind::G2048,
            cols: 1,
            rows: 1,
            cells: vec![f.best_tile.unwrap_or(0)],
            names: Vec::new(),
        });
    };
    let (_, exps) = G2048::parse_cells(body)
        .map_err(|e| Error::parse(format!("the card's board {body:?}: {}", e.message)))?;
    let values: Vec<u32> = exps
        .iter()
        .map(|&e| huarong_engine::g2048::board::value(e))
        .collect();
    let t = thumb(&G2048::body_of_cells(&values)).map_err(Error::parse)?;
    let max = t.cells.iter().copied().max().unwrap_or(0);
    if let Some(best) = f.best_tile {
        if best != max {
            return Err(Error::parse(format!(
                "the card's best tile is {best}, but its board's largest tile is {max}"
            )));
        }
    }
    Ok(t)
}

/// The grid and its empty cells (`--grid-2048`, `--cell-empty` of each theme, a little
/// lighter on the dark card's paper).
fn grid(theme: Theme) -> (Rgb, Rgb) {
    match theme {
        Theme::Light => (Rgb::hex(0xbbada0), Rgb::hex(0xcdc1b4)),
        Theme::Dark => (Rgb::hex(0x2c3038), Rgb::hex(0x3a3f49)),
    }
}

fn draw(t: &Thumb, cv: &mut Canvas, fonts: &Fonts, f: &Frame, theme: Theme) {
    let (bx, by, pad, cell, gap) = (f.x, f.y, f.pad, f.cell, f.gap);
    let (frame, empty) = grid(theme);
    cv.round_rect(bx, by, f.w, f.h, pad * 1.2, frame);
    for (i, &v) in t.cells.iter().enumerate() {
        let (cx, cy) = (
            bx + pad + (i % t.cols) as f32 * cell,
            by + pad + (i / t.cols) as f32 * cell,
        );
        let (tx, ty, ts) = (cx + gap, cy + gap, cell - 2.0 * gap);
        let (bg, fg) = tile(v);
        let bg = if v == 0 { empty } else { bg };
        cv.round_rect(tx, ty, ts, ts, ts * 0.08, bg);
        if v > 0 {
            let label = v.to_string();
            let s = Canvas::fit(&fonts.bold, ts * 0.45, ts * 0.84, &label);
            cv.text(
                &fonts.bold,
                s,
                (tx + ts / 2.0, ty + ts / 2.0 + s * 0.36),
                Align::Center,
                fg,
                &label,
            );
        }
    }
}

/// The classic 2048 palette: the background of each tile value (empty cells are 0, values
/// past 2048 are dark), and the text: dark on 2 and 4, light from 8 on.
const TILES: [(u32, u32); 12] = [
    (0, 0xcdc1b4),
    (2, 0xeee4da),
    (4, 0xede0c8),
    (8, 0xf2b179),
    (16, 0xf59563),
    (32, 0xf67c5f),
    (64, 0xf65e3b),
    (128, 0xedcf72),
    (256, 0xedcc61),
    (512, 0xedc850),
    (1024, 0xedc53f),
    (2048, 0xedc22e),
];

fn tile(v: u32) -> (Rgb, Rgb) {
    let bg = TILES
        .iter()
        .find(|&&(value, _)| value == v)
        .map_or(0x3c3a32, |&(_, bg)| bg);
    let text = if v <= 4 { 0x776e65 } else { 0xf9f6f2 };
    (Rgb::hex(bg), Rgb::hex(text))
}
