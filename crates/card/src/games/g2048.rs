//! 2048 on the card: its name, its level line, a score instead of a move count, and its
//! thumbnail (the classic palette).

use crate::canvas::{Align, Canvas, Rgb};
use crate::thumb::{Frame, Thumb};
use crate::{GameCard, Labels, Level, TitleLines};
use ab_glyph::FontRef;
use huarong_engine::{Error, Kind};

pub const CARD: GameCard = GameCard {
    kind: Kind::G2048,
    name: ["2048", "2048"],
    scored: true,
    thumb,
    draw,
    level,
};

fn level(l: &Labels, level: &Level) -> Result<TitleLines, Error> {
    Ok((l.board_2048.to_string(), level.size.clone()))
}

fn thumb(body: &str) -> Result<Thumb, String> {
    let bad = || format!("cannot draw the board {body:?}");
    let values: Vec<u32> = body
        .split([',', ' '])
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    if values.len() != 16 {
        return Err(bad());
    }
    Ok(Thumb {
        kind: Kind::G2048,
        cols: 4,
        rows: 4,
        cells: values,
    })
}

fn draw(t: &Thumb, cv: &mut Canvas, font: &FontRef, f: &Frame) {
    let (bx, by, pad, cell, gap) = (f.x, f.y, f.pad, f.cell, f.gap);
    cv.round_rect(bx, by, f.w, f.h, pad * 1.2, Rgb::hex(0xbbada0));
    for (i, &v) in t.cells.iter().enumerate() {
        let (cx, cy) = (
            bx + pad + (i % 4) as f32 * cell,
            by + pad + (i / 4) as f32 * cell,
        );
        let (tx, ty, ts) = (cx + gap, cy + gap, cell - 2.0 * gap);
        let (bg, fg) = tile(v);
        cv.round_rect(tx, ty, ts, ts, ts * 0.08, bg);
        if v > 0 {
            let label = v.to_string();
            let s = Canvas::fit(font, ts * 0.45, ts * 0.84, &label);
            cv.text(
                font,
                s,
                (tx + ts / 2.0, ty + ts / 2.0 + s * 0.36),
                Align::Center,
                fg,
                &label,
            );
        }
    }
}

/// The classic 2048 palette.
fn tile(v: u32) -> (Rgb, Rgb) {
    let dark = Rgb::hex(0x776e65);
    let light = Rgb::hex(0xf9f6f2);
    match v {
        0 => (Rgb::hex(0xcdc1b4), dark),
        2 => (Rgb::hex(0xeee4da), dark),
        4 => (Rgb::hex(0xede0c8), dark),
        8 => (Rgb::hex(0xf2b179), light),
        16 => (Rgb::hex(0xf59563), light),
        32 => (Rgb::hex(0xf67c5f), light),
        64 => (Rgb::hex(0xf65e3b), light),
        128 => (Rgb::hex(0xedcf72), light),
        256 => (Rgb::hex(0xedcc61), light),
        512 => (Rgb::hex(0xedc850), light),
        1024 => (Rgb::hex(0xedc53f), light),
        2048 => (Rgb::hex(0xedc22e), light),
        _ => (Rgb::hex(0x3c3a32), light),
    }
}
