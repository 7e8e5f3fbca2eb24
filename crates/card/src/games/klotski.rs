//! Klotski on the card: its name, its level line (classic, generated band or custom) and
//! its thumbnail (the pieces in the board's colours, the exit in the frame).

use crate::canvas::{Align, Canvas, Rgb};
use crate::thumb::{Frame, Thumb};
use crate::{fill, GameCard, Labels, Lang, Level, TitleLines};
use ab_glyph::FontRef;
use huarong_engine::code::Origin;
use huarong_engine::{klotski, Error, Kind};

pub const CARD: GameCard = GameCard {
    kind: Kind::Klotski,
    name: ["华容道", "Klotski"],
    scored: false,
    thumb,
    draw,
    level,
};

/// A classic: its name and number; a generated level: its band; else custom and the size.
fn level(l: &Labels, level: &Level) -> Result<TitleLines, Error> {
    Ok(match &level.decoded.origin {
        Origin::Classic { index } => {
            let classics = klotski::classics();
            let c = classics
                .get(*index)
                .ok_or_else(|| Error::bad_code("no such classic"))?;
            let name = match level.lang {
                Lang::Zh => c.name_zh.to_string(),
                Lang::En => c.name_en.to_string(),
            };
            (name, fill(l.classic, index + 1))
        }
        Origin::Generated { params, .. } => (
            l.generated.to_string(),
            fill(l.band, params.replace('-', "–")),
        ),
        _ => (l.custom.to_string(), level.size.clone()),
    })
}

fn thumb(body: &str) -> Result<Thumb, String> {
    let bad = || format!("cannot draw the board {body:?}");
    let rows: Vec<&[u8]> = if body.contains('/') {
        body.split('/').map(str::as_bytes).collect()
    } else {
        body.as_bytes().chunks(4).collect()
    };
    let w = rows.first().map_or(0, |r| r.len());
    if w == 0 || w > 16 || rows.len() > 16 || rows.iter().any(|r| r.len() != w) {
        return Err(bad());
    }
    Ok(Thumb {
        kind: Kind::Klotski,
        cols: w,
        rows: rows.len(),
        cells: rows.concat().into_iter().map(u32::from).collect(),
    })
}

fn draw(t: &Thumb, cv: &mut Canvas, font: &FontRef, f: &Frame) {
    let (bx, by, bw, bh, pad, cell, gap) = (f.x, f.y, f.w, f.h, f.pad, f.cell, f.gap);
    let (w, h) = (t.cols, t.rows);
    let cells: Vec<u8> = t.cells.iter().map(|&c| c as u8).collect();
    cv.round_rect(bx, by, bw, bh, pad * 1.2, Rgb::hex(0x4a3426));
    // The exit: a gap in the frame under the middle of the bottom edge.
    let exit_w = cell * 2.0;
    cv.round_rect(
        bx + (bw - exit_w) / 2.0,
        by + bh - pad,
        exit_w,
        pad,
        0.0,
        Rgb::hex(0xe8d5b5),
    );
    let mut seen = [false; 256];
    for (i, &ch) in cells.iter().enumerate() {
        let (r, c) = (i / w, i % w);
        if ch == b'.' {
            continue;
        }
        let (cx, cy) = (bx + pad + c as f32 * cell, by + pad + r as f32 * cell);
        if ch == b'#' {
            cv.round_rect(
                cx + gap / 2.0,
                cy + gap / 2.0,
                cell - gap,
                cell - gap,
                cell * 0.08,
                Rgb::hex(0x2a1d15),
            );
            continue;
        }
        if std::mem::replace(&mut seen[ch as usize], true) {
            continue;
        }
        // The piece's extent from its top-left cell.
        let mut pw = 1;
        while c + pw < w && cells[i + pw] == ch {
            pw += 1;
        }
        let mut ph = 1;
        while r + ph < h && cells[i + ph * w] == ch {
            ph += 1;
        }
        // The board's colours (ui/css/board-klotski.css, light theme): Cao Cao red,
        // vertical generals green, the horizontal general blue, soldiers gold.
        let color = match (ch, pw, ph) {
            (b'C', _, _) => Rgb::hex(0xa3271d),
            (_, 1, 1) => Rgb::hex(0xd9b06a),
            (_, 1, _) => Rgb::hex(0x2c5a4d),
            _ => Rgb::hex(0x2d4e6e),
        };
        let (pwf, phf) = (pw as f32 * cell - gap, ph as f32 * cell - gap);
        let shade = Rgb(color.0 / 4 * 3, color.1 / 4 * 3, color.2 / 4 * 3);
        cv.round_rect(
            cx + gap / 2.0,
            cy + gap / 2.0 + cell * 0.04,
            pwf,
            phf - cell * 0.04,
            cell * 0.16,
            shade,
        );
        cv.round_rect(
            cx + gap / 2.0,
            cy + gap / 2.0,
            pwf,
            phf - cell * 0.04,
            cell * 0.16,
            color,
        );
        if ch == b'C' {
            // 曹操, the piece that must escape.
            let s = cell * 0.7;
            let (mx, my) = (
                cx + gap / 2.0 + pwf / 2.0,
                cy + gap / 2.0 + (phf - cell * 0.04) / 2.0,
            );
            cv.text(
                font,
                s,
                (mx, my + s * 0.36),
                Align::Center,
                Rgb::hex(0xfbe9d0),
                "曹",
            );
        }
    }
}
