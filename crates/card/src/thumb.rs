//! The start-board thumbnail of each game, drawn into a box.

use crate::canvas::{Align, Canvas, Rgb};
use ab_glyph::FontRef;

/// A start board, parsed from its game-ID body form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Thumb {
    /// Row-major tiles, 0 = blank.
    Slide { w: usize, h: usize, tiles: Vec<u16> },
    /// Row-major cells: a piece letter, `C` the target, `.` empty, `#` wall.
    Klotski { w: usize, h: usize, cells: Vec<u8> },
    /// Sixteen tile values, 0 = empty.
    G2048 { values: [u32; 16] },
}

impl Thumb {
    /// Parses a start board body (as `huarong_engine::code` returns it).
    pub fn parse(kind: huarong_engine::Kind, body: &str) -> Result<Thumb, String> {
        use huarong_engine::Kind;
        let bad = || format!("cannot draw the board {body:?}");
        match kind {
            Kind::Slide => {
                let (size, tiles) = body.split_once(':').ok_or_else(bad)?;
                let (w, h) = size.split_once('x').ok_or_else(bad)?;
                let (w, h): (usize, usize) =
                    (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
                let tiles: Vec<u16> = tiles
                    .split([',', ' '])
                    .filter(|t| !t.is_empty())
                    .map(|t| t.parse().map_err(|_| bad()))
                    .collect::<Result<_, _>>()?;
                if !(1..=16).contains(&w) || !(1..=16).contains(&h) || tiles.len() != w * h {
                    return Err(bad());
                }
                Ok(Thumb::Slide { w, h, tiles })
            }
            Kind::Klotski => {
                let rows: Vec<&[u8]> = if body.contains('/') {
                    body.split('/').map(str::as_bytes).collect()
                } else {
                    body.as_bytes().chunks(4).collect()
                };
                let w = rows.first().map_or(0, |r| r.len());
                if w == 0 || w > 16 || rows.len() > 16 || rows.iter().any(|r| r.len() != w) {
                    return Err(bad());
                }
                Ok(Thumb::Klotski {
                    w,
                    h: rows.len(),
                    cells: rows.concat(),
                })
            }
            Kind::G2048 => {
                let values: Vec<u32> = body
                    .split([',', ' '])
                    .filter(|t| !t.is_empty())
                    .map(|t| t.parse().map_err(|_| bad()))
                    .collect::<Result<_, _>>()?;
                let values: [u32; 16] = values.try_into().map_err(|_| bad())?;
                Ok(Thumb::G2048 { values })
            }
        }
    }

    /// Columns and rows.
    pub fn grid(&self) -> (usize, usize) {
        match self {
            Thumb::Slide { w, h, .. } | Thumb::Klotski { w, h, .. } => (*w, *h),
            Thumb::G2048 { .. } => (4, 4),
        }
    }

    /// Draws the board centred in the box (x, y, size × size).
    pub fn draw(&self, cv: &mut Canvas, font: &FontRef, x: f32, y: f32, size: f32) {
        let (cols, rows) = self.grid();
        let pad = size * 0.04;
        let cell = ((size - 2.0 * pad) / cols.max(rows) as f32).floor();
        let (bw, bh) = (
            cell * cols as f32 + 2.0 * pad,
            cell * rows as f32 + 2.0 * pad,
        );
        let (bx, by) = (
            (x + (size - bw) / 2.0).round(),
            (y + (size - bh) / 2.0).round(),
        );
        let gap = (cell * 0.06).max(1.5);
        match self {
            Thumb::Slide { w, tiles, .. } => {
                cv.round_rect(bx, by, bw, bh, pad * 1.2, Rgb::hex(0x8a5a35));
                let text_size = cell * if tiles.len() > 99 { 0.42 } else { 0.46 };
                for (i, &t) in tiles.iter().enumerate() {
                    if t == 0 {
                        continue;
                    }
                    let (cx, cy) = (
                        bx + pad + (i % w) as f32 * cell,
                        by + pad + (i / w) as f32 * cell,
                    );
                    let (tx, ty, ts) = (cx + gap / 2.0, cy + gap / 2.0, cell - gap);
                    cv.round_rect(tx, ty + ts * 0.05, ts, ts, ts * 0.14, Rgb::hex(0xc9a57a));
                    cv.round_rect(tx, ty, ts, ts * 0.95, ts * 0.14, Rgb::hex(0xf7e9d0));
                    cv.text(
                        font,
                        text_size,
                        (tx + ts / 2.0, ty + ts * 0.475 + text_size * 0.36),
                        Align::Center,
                        Rgb::hex(0x5b3a1f),
                        &t.to_string(),
                    );
                }
            }
            Thumb::Klotski { w, h, cells } => {
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
                    while c + pw < *w && cells[i + pw] == ch {
                        pw += 1;
                    }
                    let mut ph = 1;
                    while r + ph < *h && cells[i + ph * w] == ch {
                        ph += 1;
                    }
                    // The board's colours (ui/css/board-klotski.css, light theme): Cao Cao
                    // red, vertical generals green, the horizontal general blue, soldiers gold.
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
            Thumb::G2048 { values } => {
                cv.round_rect(bx, by, bw, bh, pad * 1.2, Rgb::hex(0xbbada0));
                for (i, &v) in values.iter().enumerate() {
                    let (cx, cy) = (
                        bx + pad + (i % 4) as f32 * cell,
                        by + pad + (i / 4) as f32 * cell,
                    );
                    let (tx, ty, ts) = (cx + gap, cy + gap, cell - 2.0 * gap);
                    let (bg, fg) = tile_2048(v);
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
        }
    }
}

/// The classic 2048 palette: the background of each tile value (empty cells are 0, values
/// past 2048 are dark), and the text: dark on 2 and 4, light from 8 on.
const TILES_2048: [(u32, u32); 12] = [
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

fn tile_2048(v: u32) -> (Rgb, Rgb) {
    let bg = TILES_2048
        .iter()
        .find(|&&(value, _)| value == v)
        .map_or(0x3c3a32, |&(_, bg)| bg);
    let text = if v <= 4 { 0x776e65 } else { 0xf9f6f2 };
    (Rgb::hex(bg), Rgb::hex(text))
}
