//! Klotski on the card: its name, its level line (classic, generated band or custom) and
//! its named layout, the puzzle a friend gets, as the game draws it (the board's colours,
//! the pieces' names, the red exit bar under the bottom edge).

use crate::canvas::{Align, Canvas, Rgb};
use crate::game_card::{Finish, GameCard, Level, TitleLines};
use crate::labels::{fill, Labels};
use crate::style::{Fonts, Lang, Theme};
use crate::thumb::{Frame, Thumb};
use huarong_engine::code::Origin;
use huarong_engine::klotski::{self, Board, Klotski};
use huarong_engine::{Error, Game, Kind};

pub const CARD: GameCard = GameCard {
    kind: Kind::Klotski,
    name: ["华容道", "Klotski"],
    scored: false,
    shows_start: true,
    thumb,
    board,
    draw,
    level,
    words: [&[], &[]],
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
        names: Vec::new(),
    })
}

/// The pieces as (letter, height, width), and the walls: what a position of the puzzle
/// keeps from its start.
fn makeup(b: &Board) -> (Vec<(char, u8, u8)>, u64, usize, usize) {
    let mut pieces: Vec<(char, u8, u8)> = b
        .pieces()
        .iter()
        .map(|p| (p.letter, p.height, p.width))
        .collect();
    pieces.sort_unstable();
    (pieces, b.walls(), b.width(), b.height())
}

/// The code's start position, the named layout a friend gets. A final board given with the
/// spec must be a position of that puzzle (its pieces and walls) with Cao Cao at the exit.
/// Every piece carries the game's name for it (`Game::view`, named by the start board).
fn board(f: &Finish) -> Result<Thumb, Error> {
    let start = Klotski::parse(&f.decoded.board)?;
    if let Some(body) = f.board {
        let given = Board::parse(body)
            .map_err(|e| Error::parse(format!("the card's board {body:?}: {}", e.message)))?;
        let (want, got) = (makeup(start.board()), makeup(&given));
        if (want.2, want.3) != (got.2, got.3) {
            return Err(Error::parse(format!(
                "the card's board is {}×{}, but the code's puzzle is {}×{}",
                got.2, got.3, want.2, want.3
            )));
        }
        if want != got {
            return Err(Error::parse(format!(
                "the card's board {body:?} does not have the pieces and walls of the code's puzzle"
            )));
        }
        if !given.is_solved() {
            return Err(Error::parse(format!(
                "the card's board {body:?} is not solved: Cao Cao is not at the exit"
            )));
        }
    }
    let view = start.view(&start);
    let mut t = thumb(&start.board().to_rows()).map_err(Error::parse)?;
    for p in view["pieces"].as_array().into_iter().flatten() {
        let letter = p["id"].as_str().and_then(|s| s.chars().next());
        let (Some(letter), Some(w), Some(h)) = (letter, p["w"].as_u64(), p["h"].as_u64()) else {
            continue;
        };
        let shape = shape(letter as u8, w as usize, h as usize);
        let name = match f.lang {
            Lang::Zh => p["name_zh"].as_str(),
            Lang::En => p["name_en"].as_str(),
        };
        let mut names: Vec<String> = name.map(str::to_string).into_iter().collect();
        names.extend(fallback(shape, f.lang).iter().map(|s| s.to_string()));
        names.dedup();
        t.names.push((letter as u32, names));
    }
    Ok(t)
}

/// A piece's look, as the game's `shape()`: Cao Cao, a tall or a wide general, a soldier,
/// any other block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    Cao,
    Tall,
    Wide,
    Soldier,
    Block,
}

fn shape(letter: u8, w: usize, h: usize) -> Shape {
    match (letter, w, h) {
        (b'C', _, _) => Shape::Cao,
        (_, 1, 1) => Shape::Soldier,
        (_, 1, 2) => Shape::Tall,
        (_, 2, 1) => Shape::Wide,
        _ => Shape::Block,
    }
}

/// What a piece without a traditional name shows, and the shorter words tried when a name
/// does not fit (the game's `GLYPH` and `pieceShort` strings).
fn fallback(shape: Shape, lang: Lang) -> &'static [&'static str] {
    match (lang, shape) {
        (Lang::Zh, Shape::Cao) => &["曹"],
        (Lang::Zh, Shape::Tall | Shape::Wide) => &["将"],
        (Lang::Zh, Shape::Soldier) => &["兵"],
        (Lang::En, Shape::Cao) => &["Cao Cao", "Cao"],
        (Lang::En, Shape::Tall | Shape::Wide) => &["General"],
        (Lang::En, Shape::Soldier) => &["Soldier"],
        (_, Shape::Block) => &[],
    }
}

/// Every word a piece can show without a traditional name (for the font-coverage test).
#[cfg(test)]
pub(crate) fn piece_words() -> Vec<&'static str> {
    let shapes = [
        Shape::Cao,
        Shape::Tall,
        Shape::Wide,
        Shape::Soldier,
        Shape::Block,
    ];
    let mut v = Vec::new();
    for lang in [Lang::Zh, Lang::En] {
        for s in shapes {
            v.extend(fallback(s, lang));
        }
    }
    v
}

/// The game board's colours (ui/css/base.css, each theme's `--piece-*`): face and text of
/// each piece, one colour per piece whatever its orientation (every general jade).
pub(crate) fn colours(shape: Shape, theme: Theme) -> (Rgb, Rgb) {
    let (face, text) = match (theme, shape) {
        (Theme::Light, Shape::Cao) => (0xe85a48, 0x1a0503),
        (Theme::Light, Shape::Tall | Shape::Wide) => (0x6fb8a0, 0x0b1f18),
        (Theme::Light, Shape::Block) => (0x86b2e0, 0x0b1a2c),
        (Theme::Light, Shape::Soldier) => (0xd9b06a, 0x3a2508),
        (Theme::Dark, Shape::Cao) => (0xd64a3c, 0xffffff),
        (Theme::Dark, Shape::Tall | Shape::Wide) => (0x5fb39a, 0x0b1f18),
        (Theme::Dark, Shape::Block) => (0x78a8dc, 0x0b1a2c),
        (Theme::Dark, Shape::Soldier) => (0xdcb774, 0x2a1a04),
    };
    (Rgb::hex(face), Rgb::hex(text))
}

/// The game board's frame (`--frame`), floor (`--floor`) with its faint cell lines, and the
/// exit bar (`--accent`): wood in the light theme, ink-stone in the dark one.
pub(crate) fn wood(theme: Theme) -> [Rgb; 4] {
    match theme {
        Theme::Light => [0x5b4128, 0x3f2d1c, 0x4b3a29, 0xa3271d],
        Theme::Dark => [0x0c0e11, 0x15181d, 0x1f2327, 0xff8070],
    }
    .map(Rgb::hex)
}

/// Darker by `k` (0…1).
fn darker(c: Rgb, k: f32) -> Rgb {
    let m = |v: u8| (v as f32 * (1.0 - k)).round() as u8;
    Rgb(m(c.0), m(c.1), m(c.2))
}

fn draw(t: &Thumb, cv: &mut Canvas, fonts: &Fonts, f: &Frame, theme: Theme) {
    let (bx, by, bw, bh, pad, cell) = (f.x, f.y, f.w, f.h, f.pad, f.cell);
    let (w, h) = (t.cols, t.rows);
    let cells: Vec<u8> = t.cells.iter().map(|&c| c as u8).collect();
    let [frame, floor, line, exit] = wood(theme);
    // The frame and the floor with its faint cell lines.
    cv.round_rect(bx, by, bw, bh, pad * 1.2, frame);
    let (gx, gy) = (bx + pad, by + pad);
    let (gw, gh) = (cell * w as f32, cell * h as f32);
    cv.round_rect(gx, gy, gw, gh, 6.0, floor);
    for c in 1..w {
        cv.fill_rect(
            (gx + c as f32 * cell) as i64,
            gy as i64 + 3,
            1,
            gh as i64 - 6,
            line,
        );
    }
    for r in 1..h {
        cv.fill_rect(
            gx as i64 + 3,
            (gy + r as f32 * cell) as i64,
            gw as i64 - 6,
            1,
            line,
        );
    }
    // The exit (--accent): a red bar under the bottom edge where C leaves, as wide as C
    // (the engine's exit column: (W − C's width) / 2, rounded down).
    let goal_w = cells.iter().position(|&c| c == b'C').map_or(2, |i| {
        cells[i..(i / w + 1) * w]
            .iter()
            .take_while(|&&c| c == b'C')
            .count()
    });
    let exit_w = cell * goal_w as f32;
    let bar_h = (cell * 0.1).max(4.0);
    cv.round_rect(
        gx + ((w - goal_w.min(w)) / 2) as f32 * cell,
        gy + gh + (pad - bar_h) / 2.0,
        exit_w,
        bar_h,
        bar_h / 2.0,
        exit,
    );
    let mut seen = [false; 256];
    for (i, &ch) in cells.iter().enumerate() {
        let (r, c) = (i / w, i % w);
        if ch == b'.' {
            continue;
        }
        let (cx, cy) = (gx + c as f32 * cell, gy + r as f32 * cell);
        if ch == b'#' {
            cv.fill_rect(cx as i64, cy as i64, cell as i64, cell as i64, frame);
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
        let sh = shape(ch, pw, ph);
        let (face, ink) = colours(sh, theme);
        // The face: inset 3.5 % of a cell, corners 10 %, a darker lip along its bottom
        // (the game's inset shadow) and a soft drop shadow.
        let inset = cell * 0.035;
        let (fx, fy) = (cx + inset, cy + inset);
        let (fw, fh) = (
            pw as f32 * cell - 2.0 * inset,
            ph as f32 * cell - 2.0 * inset,
        );
        let radius = cell * 0.1;
        cv.round_rect(fx, fy + 2.0, fw, fh, radius, darker(floor, 0.35));
        cv.round_rect(fx, fy, fw, fh, radius, darker(face, 0.22));
        cv.round_rect(fx, fy, fw, fh - cell * 0.05, radius, face);
        let names = t.names_of(ch as u32);
        label(
            cv,
            fonts,
            (fx, fy, fw, fh - cell * 0.05),
            cell,
            sh,
            ink,
            names,
        );
    }
}

/// Writes a piece's name on its face: Chinese in the serif bold the game uses, the tall
/// generals' two characters stacked; pinyin in the sans bold, wrapped between words. The first of
/// the forms that fits is drawn (none: the face stays plain).
fn label(
    cv: &mut Canvas,
    fonts: &Fonts,
    (x, y, w, h): (f32, f32, f32, f32),
    cell: f32,
    shape: Shape,
    ink: Rgb,
    names: &[String],
) {
    let (mx, my) = (x + w / 2.0, y + h / 2.0);
    // Sizes as the game's CSS gives them, in em (a fraction of a cell), converted to the
    // rasteriser's pixel scale (ascent to descent) of each face. A glyph's middle stands
    // about 0.37 em above its baseline (ideographs and capitals alike).
    let px = |font: &ab_glyph::FontRef, em: f32| {
        use ab_glyph::Font;
        font.units_per_em()
            .map_or(em, |upem| em * font.height_unscaled() / upem)
    };
    for name in names.iter().filter(|n| !n.is_empty()) {
        if !name.is_ascii() {
            let font = &fonts.serif;
            let em = cell
                * match shape {
                    Shape::Cao => 0.52,
                    Shape::Soldier => 0.4,
                    _ => 0.42,
                };
            let size = px(font, em);
            let chars: Vec<String> = name.chars().map(String::from).collect();
            if shape == Shape::Tall && chars.len() > 1 {
                // Stacked, one character per line (1 em and the game's 0.08 em spacing).
                let step = em * 1.08;
                let top = my - step * (chars.len() as f32 - 1.0) / 2.0;
                for (k, ch) in chars.iter().enumerate() {
                    let base = top + k as f32 * step + em * 0.37;
                    cv.text(font, size, (mx, base), Align::Center, ink, ch);
                }
            } else {
                // Letter-spaced like the game's faces (0.06 em).
                let spacing = em * 0.06;
                let total: f32 = chars
                    .iter()
                    .map(|ch| Canvas::text_width(font, size, ch))
                    .sum::<f32>()
                    + spacing * (chars.len() as f32 - 1.0);
                let mut pen = mx - total / 2.0;
                for ch in &chars {
                    pen += cv.text(font, size, (pen, my + em * 0.37), Align::Left, ink, ch);
                    pen += spacing;
                }
            }
            return;
        }
        let em = cell * if shape == Shape::Cao { 0.3 } else { 0.2 };
        let size = px(&fonts.bold, em);
        // Words fill lines as far as the face's width allows (86 %, as in the game).
        let fits = |t: &str| Canvas::text_width(&fonts.bold, size, t) <= w * 0.86;
        let mut lines: Vec<String> = Vec::new();
        for word in name.split(' ') {
            match lines.last_mut() {
                Some(last) if fits(&format!("{last} {word}")) => {
                    last.push(' ');
                    last.push_str(word);
                }
                _ => lines.push(word.to_string()),
            }
        }
        let step = em * 1.15;
        if !lines.iter().all(|l| fits(l)) || lines.len() as f32 * step > h * 0.86 {
            continue;
        }
        let top = my - step * (lines.len() as f32 - 1.0) / 2.0;
        for (k, wd) in lines.iter().enumerate() {
            let base = top + k as f32 * step + em * 0.36;
            cv.text(&fonts.bold, size, (mx, base), Align::Center, ink, wd);
        }
        return;
    }
}
