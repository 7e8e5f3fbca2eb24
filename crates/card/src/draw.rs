//! Drawing the card: each theme's palette and the layout.
//!
//! ```text
//!  ┌──────────────────────────────────────────────────────┐
//!  │ 华容 HUARONG                     game name · the date │  the band
//!  │ Ann · 33 步通关                               ★ ★ ★ │  the headline
//!  │ [击败 2 位好友] [以 33 步击败 40 步]                  │  the pills (when any)
//!  │ [这一局] 5×5 · 每日挑战 第 333 期                      │  what the board is
//!  │ ┌────────────────────┐  用时        最优解            │
//!  │ │                    │  0:48.3      21 步            │  the facts
//!  │ │     the board      │                               │
//!  │ │                    │         挑战码 2RB3jD3A…      │
//!  │ │                    │      长按识别，来挑战我       │
//!  │ │                    │               ┌──────────┐    │
//!  │ │                    │               │ QR code  │    │
//!  │ └────────────────────┘               └──────────┘    │
//!  └──────────────────────────────────────────────────────┘
//! ```
//! A long card (a link too long for the corner QR code) has a larger board and a band of its
//! own below it: the call to play on the left, the QR code at the right. On every card the
//! QR code is smaller than the puzzle: the board is what a friend reads first.

use crate::canvas::{Align, Canvas, Rgb};
use crate::labels::labels;
use crate::picture::Picture;
use crate::qr;
use crate::style::{Fonts, Lang, Theme};
use crate::thumb::Frame;
use crate::thumb::Thumb;
use ab_glyph::FontRef;
use huarong_engine::{code, Error};

/// Card size in pixels (5:4, the WeChat share-card ratio); a [`Layout::Long`] card is
/// [`LONG_HEIGHT`] tall.
pub const WIDTH: usize = 1000;
pub const HEIGHT: usize = 800;

/// Where the link's QR code goes. A link whose QR code fits the corner box with modules of
/// at least 4 px (2 px on the card halved: any puzzle code, a result code with a short move
/// log) gets the 5:4 card; a longer one (up to a 1,200-character code: QR version 25 or 26
/// at L, 4 px modules) a taller card whose bottom band holds a large QR code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    Corner,
    Long,
}

impl Layout {
    /// The layout of a card whose QR code holds `link`; an error when no QR code of the
    /// card can hold it.
    pub fn of(link: &str) -> Result<Layout, Error> {
        if qr::plan(link, QR_SIZE).is_some() {
            Ok(Layout::Corner)
        } else if qr::plan(link, LONG_QR_SIZE).is_some() {
            Ok(Layout::Long)
        } else {
            Err(Error::range("the link is too long for the card's QR code"))
        }
    }

    /// The card's height in pixels (its width is always [`WIDTH`]).
    pub fn height(self) -> usize {
        match self {
            Layout::Corner => HEIGHT,
            Layout::Long => LONG_HEIGHT,
        }
    }
}

/// Everything the card prints, already in the card's language.
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    pub lang: Lang,
    pub theme: Theme,
    pub game: String,
    pub when: String,
    /// The player's name as the headline writes it: `None` without one, or when the card's
    /// font cannot write a letter of it (see [`Card::describe`]).
    pub name: Option<String>,
    /// "Ann · 33 步通关", "Ann solved it in 33 moves", "Ann scored 36,112 with a 2048 tile",
    /// "Ann beat 58 moves with 52".
    pub headline: String,
    /// "击败 2 位好友" / "Beat 2 friends": the result's rank on its daily's friends' board.
    pub rank: Option<String>,
    /// What the board is: "这一局" / "This puzzle", or 2048's "终局" / "Final board".
    pub board_label: String,
    /// The level: its name or size, and a second part (a classic's number, a difficulty, a
    /// picture's title, a daily's number…).
    pub title: String,
    pub subtitle: String,
    /// The facts beside the board: (label, value), e.g. ("用时", "0:48.3").
    pub lines: Vec<(String, String)>,
    /// The friend's challenge this result beat, as one sentence ("Ann beat 85 moves with
    /// 83"): then the headline is this sentence (one voice, no second line saying it).
    pub beaten: Option<String>,
    pub stars: Option<u8>,
    /// The board shown.
    pub board: Thumb,
    /// The picture the board shows (a picture puzzle), decoded.
    pub picture: Option<Picture>,
    pub code: String,
    pub link: String,
    /// Where the link's QR code goes, and so the card's height.
    pub layout: Layout,
    /// The code carries the move log: a long card says the link holds the replay.
    pub replay: bool,
}

/// The colours of a card.
pub(crate) struct Palette {
    pub paper: Rgb,
    pub band: Rgb,
    pub band_text: Rgb,
    pub band_sub: Rgb,
    pub rule: Rgb,
    pub ink: Rgb,
    pub muted: Rgb,
    /// The name in the headline, the call to play, the board's tag.
    pub accent: Rgb,
    pub on_accent: Rgb,
    pub star_on: Rgb,
    pub star_off: Rgb,
    pub hairline: Rgb,
    /// The QR code's modules (on a white tile in both themes).
    pub qr: Rgb,
}

pub(crate) fn palette(theme: Theme) -> Palette {
    let c = Rgb::hex;
    match theme {
        // Warm paper and ink with a vermilion band (ui/css/base.css's light theme).
        Theme::Light => Palette {
            paper: c(0xf6efe3),
            band: c(0x9e2b25),
            band_text: c(0xffffff),
            band_sub: c(0xf3dcb6),
            rule: c(0xd9a441),
            ink: c(0x2e2118),
            muted: c(0x76604e),
            accent: c(0xa3271d),
            on_accent: c(0xffffff),
            star_on: c(0xe3a92b),
            star_off: c(0xe0d3bf),
            hairline: c(0xe6d8c2),
            qr: c(0x2b1d14),
        },
        // Ink-stone (the dark theme's --bg, --text, --muted, --accent), the band a deep
        // vermilion.
        Theme::Dark => Palette {
            paper: c(0x16181d),
            band: c(0x7f241d),
            band_text: c(0xfff6ee),
            band_sub: c(0xf0c9a0),
            rule: c(0xc99a3f),
            ink: c(0xede6d9),
            muted: c(0xb2a898),
            accent: c(0xff8070),
            on_accent: c(0x240805),
            star_on: c(0xf0b93a),
            star_off: c(0x3b404a),
            hairline: c(0x2e323a),
            qr: c(0x16181d),
        },
    }
}

/// The margin all round, the band, the headline, the pills.
pub const MARGIN: f32 = 44.0;
const RIGHT: f32 = WIDTH as f32 - MARGIN;
const BOTTOM: f32 = HEIGHT as f32 - MARGIN;
const BAND: f32 = 88.0;
const RULE: f32 = 5.0;
const HEADLINE_Y: f32 = 164.0;
const HEADLINE_SIZE: f32 = 60.0;
const PILL_Y: f32 = 188.0;
const PILL_H: f32 = 48.0;
/// The pills' text: the brag under the headline, readable in a chat's thumbnail.
const PILL_TEXT: f32 = 28.0;
/// The board's widest frame (a long card's is larger: its QR code is).
const BOARD_MAX_W: f32 = 500.0;
const LONG_BOARD_MAX_W: f32 = 600.0;
/// The corner QR code's box: 244 px holds QR version 9 (53 modules and the quiet zone) at
/// 4 px a module.
pub const QR_SIZE: f32 = 244.0;
/// The corner QR code grows up to this where the facts leave room (larger modules for a
/// short link: more margin when the card is seen small).
const QR_MAX: f32 = 300.0;
/// A long card's QR box: 516 px holds version 26 (121 modules and the quiet zone) at 4 px a
/// module, at the right of a band below the card's upper part.
pub const LONG_QR_SIZE: f32 = 516.0;
const LONG_QR_Y: f32 = LONG_BOTTOM + 44.0;
/// Where a long card's upper part ends: its board up to 694 px tall (taller and wider than
/// the QR code below it). The QR code's top then falls on a multiple of 4 px, as its left
/// edge does: halved at either pixel phase, its 2 px modules still read (tests/half.rs; at
/// 930, whose QR top is 2 px off that grid, zbar misread the odd phase).
pub(crate) const LONG_BOTTOM: f32 = 940.0;
pub const LONG_HEIGHT: usize = (LONG_QR_Y + LONG_QR_SIZE + MARGIN) as usize;
/// The facts: a row's height, the gap between the board and their column.
const FACT_ROW: f32 = 84.0;
const COLUMN_GAP: f32 = 40.0;

/// The QR box of a layout at its smallest: x, y, size.
pub(crate) fn qr_box(layout: Layout) -> (f32, f32, f32) {
    match layout {
        Layout::Corner => (RIGHT - QR_SIZE, BOTTOM - QR_SIZE, QR_SIZE),
        Layout::Long => (RIGHT - LONG_QR_SIZE, LONG_QR_Y, LONG_QR_SIZE),
    }
}

fn has_pills(card: &Card) -> bool {
    card.rank.is_some()
}

/// The baseline of the row that says what the board is.
fn label_y(card: &Card) -> f32 {
    if has_pills(card) {
        PILL_Y + PILL_H + 42.0
    } else {
        HEADLINE_Y + 58.0
    }
}

/// Where the card's upper part (the board, the facts' column) ends.
fn upper_bottom(layout: Layout) -> f32 {
    match layout {
        Layout::Corner => BOTTOM,
        Layout::Long => LONG_BOTTOM,
    }
}

/// The board's frame: as large as fits below its label, at most [`BOARD_MAX_W`] wide
/// ([`LONG_BOARD_MAX_W`] on a long card).
pub(crate) fn board_frame(card: &Card) -> Frame {
    let top = label_y(card) + 24.0;
    let bottom = upper_bottom(card.layout);
    let max_w = match card.layout {
        Layout::Corner => BOARD_MAX_W,
        Layout::Long => LONG_BOARD_MAX_W,
    };
    card.board.frame_in(MARGIN, top, max_w, bottom - top)
}

/// Draws the whole card; returns it with its QR code's box.
pub(crate) fn card(
    card: &Card,
    fonts: &Fonts,
    paint: crate::game_card::Paint,
) -> Result<(Canvas, (f32, f32, f32)), Error> {
    let p = palette(card.theme);
    let mut cv = Canvas::new(WIDTH, card.layout.height(), p.paper);
    band(&mut cv, card, fonts, &p);
    headline(&mut cv, card, fonts, &p);
    pills(&mut cv, card, fonts, &p);
    board_label(&mut cv, card, fonts, &p);
    let frame = board_frame(card);
    match &card.picture {
        Some(pic) => pic.draw(&card.board, &mut cv, &frame, card.theme),
        None => paint(&card.board, &mut cv, fonts, &frame, card.theme),
    }
    let x0 = frame.x + frame.w + COLUMN_GAP;
    let facts_end = facts(&mut cv, card, fonts, &p, x0, frame.y);
    let qr = match card.layout {
        Layout::Corner => corner_caption(&mut cv, card, fonts, &p, x0, facts_end),
        Layout::Long => {
            long_caption(&mut cv, card, fonts, &p);
            qr_box(Layout::Long)
        }
    };
    qr::draw(&mut cv, &card.link, qr, p.qr)?;
    Ok((cv, qr))
}

/// The band: the brand on the left, the game and the date on the right.
fn band(cv: &mut Canvas, card: &Card, fonts: &Fonts, p: &Palette) {
    let (regular, bold) = (&fonts.regular, &fonts.bold);
    cv.fill_rect(0, 0, WIDTH as i64, BAND as i64, p.band);
    cv.fill_rect(0, BAND as i64, WIDTH as i64, RULE as i64, p.rule);
    let brand = cv.text(bold, 48.0, (MARGIN, 62.0), Align::Left, p.band_text, "华容");
    cv.text(
        regular,
        19.0,
        (MARGIN + brand + 14.0, 60.0),
        Align::Left,
        p.band_sub,
        "HUARONG",
    );
    let size = Canvas::fit(bold, 30.0, 420.0, &card.game);
    let game_y = if card.when.is_empty() { 58.0 } else { 46.0 };
    cv.text(
        bold,
        size,
        (RIGHT, game_y),
        Align::Right,
        p.band_text,
        &card.game,
    );
    if !card.when.is_empty() {
        cv.text(
            regular,
            21.0,
            (RIGHT, 75.0),
            Align::Right,
            p.band_sub,
            &card.when,
        );
    }
}

/// The headline, the name in the accent colour, and the stars at its right.
fn headline(cv: &mut Canvas, card: &Card, fonts: &Fonts, p: &Palette) {
    let bold = &fonts.bold;
    let (r, pitch) = (21.0, 50.0);
    let stars_w = if card.stars.is_some() {
        2.0 * pitch + 2.0 * r + 28.0
    } else {
        0.0
    };
    // The name, in runs of the face that writes each character, then the rest.
    let (runs, rest) = match &card.name {
        Some(name) if card.headline.starts_with(name.as_str()) => {
            (name_runs(fonts, name), &card.headline[name.len()..])
        }
        _ => (Vec::new(), card.headline.as_str()),
    };
    let width = |size: f32| {
        runs.iter()
            .map(|(f, t)| Canvas::text_width(f, size, t))
            .sum::<f32>()
            + Canvas::text_width(bold, size, rest)
    };
    let room = RIGHT - MARGIN - stars_w;
    let natural = width(HEADLINE_SIZE);
    let size = if natural > room {
        (HEADLINE_SIZE * room / natural).floor()
    } else {
        HEADLINE_SIZE
    };
    let mut x = MARGIN;
    for (font, text) in &runs {
        x += cv.text(font, size, (x, HEADLINE_Y), Align::Left, p.accent, text);
    }
    cv.text(bold, size, (x, HEADLINE_Y), Align::Left, p.ink, rest);
    if let Some(n) = card.stars {
        let cy = HEADLINE_Y - 21.0;
        for i in 0..3u8 {
            let color = if i < n { p.star_on } else { p.star_off };
            cv.star(RIGHT - r - (2 - i) as f32 * pitch, cy, r, color);
        }
    }
}

/// `name` cut into runs of the face that writes them (the card's bold, else the names'
/// face; a character neither has was left out of the card's name).
fn name_runs<'f, 'a>(fonts: &'f Fonts<'a>, name: &str) -> Vec<(&'f FontRef<'a>, String)> {
    let mut runs: Vec<(&FontRef<'a>, String)> = Vec::new();
    for ch in name.chars() {
        let font = fonts.bold_for(ch).unwrap_or(&fonts.bold);
        match runs.last_mut() {
            Some((f, text)) if std::ptr::eq(*f, font) => text.push(ch),
            _ => runs.push((font, ch.to_string())),
        }
    }
    runs
}

/// The rank among friends, as a pill under the headline (a beaten challenge is the
/// headline itself).
fn pills(cv: &mut Canvas, card: &Card, fonts: &Fonts, p: &Palette) {
    let bold = &fonts.bold;
    let items: Vec<(&str, Rgb, Rgb)> = [card.rank.as_deref().map(|t| (t, p.accent, p.on_accent))]
        .into_iter()
        .flatten()
        .collect();
    if items.is_empty() {
        return;
    }
    let (pad, gap) = (20.0, 14.0);
    let natural: f32 = items
        .iter()
        .map(|(t, _, _)| Canvas::text_width(bold, PILL_TEXT, t) + 2.0 * pad)
        .sum::<f32>()
        + gap * (items.len() - 1) as f32;
    let avail = RIGHT - MARGIN;
    let size = if natural > avail {
        (PILL_TEXT * (avail - (2.0 * pad + gap) * items.len() as f32)
            / (natural - (2.0 * pad + gap) * items.len() as f32))
            .floor()
    } else {
        PILL_TEXT
    };
    let mut x = MARGIN;
    for (text, fill, ink) in items {
        let w = Canvas::text_width(bold, size, text) + 2.0 * pad;
        cv.round_rect(x, PILL_Y, w, PILL_H, PILL_H / 2.0, fill);
        let base = PILL_Y + PILL_H / 2.0 + size * 0.36;
        cv.text(bold, size, (x + pad, base), Align::Left, ink, text);
        x += w + gap;
    }
}

/// The row above the board: a tag saying what it is ("这一局", "This puzzle"), then the
/// level's name and its second part.
fn board_label(cv: &mut Canvas, card: &Card, fonts: &Fonts, p: &Palette) {
    let (regular, bold) = (&fonts.regular, &fonts.bold);
    let y = label_y(card);
    let tag = 21.0;
    let tag_w = Canvas::text_width(bold, tag, &card.board_label) + 24.0;
    cv.round_rect(MARGIN, y - 25.0, tag_w, 34.0, 8.0, p.accent);
    cv.text(
        bold,
        tag,
        (MARGIN + 12.0, y - 1.0),
        Align::Left,
        p.on_accent,
        &card.board_label,
    );
    let x = MARGIN + tag_w + 16.0;
    let sub = if card.subtitle.is_empty() {
        String::new()
    } else {
        format!("{}{}", crate::labels::SEP, card.subtitle)
    };
    let (mut ts, mut ss) = (30.0, 24.0);
    let natural = Canvas::text_width(bold, ts, &card.title) + Canvas::text_width(regular, ss, &sub);
    if natural > RIGHT - x {
        let k = (RIGHT - x) / natural;
        ts = (ts * k).floor();
        ss = (ss * k).floor();
    }
    let tw = cv.text(bold, ts, (x, y), Align::Left, p.ink, &card.title);
    if !sub.is_empty() {
        cv.text(regular, ss, (x + tw, y), Align::Left, p.muted, &sub);
    }
}

/// The facts in the column right of the board, two to a row (a long value takes a row of
/// its own): a small label over a large value. Returns where they end.
fn facts(cv: &mut Canvas, card: &Card, fonts: &Fonts, p: &Palette, x0: f32, top: f32) -> f32 {
    let (regular, bold) = (&fonts.regular, &fonts.bold);
    let width = RIGHT - x0;
    let half = (width - 20.0) / 2.0;
    let value_size = 40.0;
    let (mut col, mut y) = (0, top);
    for (label, value) in &card.lines {
        let wide = Canvas::text_width(bold, value_size, value) > half;
        if col == 1 && wide {
            col = 0;
            y += FACT_ROW;
        }
        let x = x0 + col as f32 * (half + 20.0);
        let room = if wide { width } else { half };
        cv.text(regular, 23.0, (x, y + 22.0), Align::Left, p.muted, label);
        let size = Canvas::fit(bold, value_size, room, value);
        cv.text(bold, size, (x, y + 66.0), Align::Left, p.ink, value);
        if wide || col == 1 {
            col = 0;
            y += FACT_ROW;
        } else {
            col = 1;
        }
    }
    if col == 1 {
        y += FACT_ROW;
    }
    y
}

/// The corner card: the QR code in the bottom-right corner, as large as the facts above it
/// leave room for (from [`QR_SIZE`] to [`QR_MAX`]); the call to play right above it, and the
/// code above that when it fits on one line and the room allows (a long code is for the QR
/// code, not for typing). Returns the QR box.
fn corner_caption(
    cv: &mut Canvas,
    card: &Card,
    fonts: &Fonts,
    p: &Palette,
    x0: f32,
    facts_end: f32,
) -> (f32, f32, f32) {
    let (regular, bold) = (&fonts.regular, &fonts.bold);
    let l = labels(card.lang);
    let width = RIGHT - x0;
    let cap = Canvas::fit(bold, 30.0, width, l.caption);
    let code_label = 19.0;
    let label_w = Canvas::text_width(bold, code_label, l.code) + 10.0;
    let code_size = Canvas::fit(regular, code_label, width - label_w, &card.code);
    // Room above the QR code: the caption (22 px above it, its height and a gap), and the
    // code's line (18 px above the caption) when it is shown.
    let caption_room = 22.0 + cap + 12.0;
    let code_room = caption_room + 18.0 + code_label;
    let fits = |room: f32| BOTTOM - facts_end - room;
    let show_code = code_size >= 15.0 && fits(code_room) >= QR_SIZE;
    let room = if show_code { code_room } else { caption_room };
    let size = fits(room).clamp(QR_SIZE, QR_MAX).floor();
    let (qr_x, qr_y) = (RIGHT - size, BOTTOM - size);
    let cap_y = qr_y - 22.0;
    cv.text(bold, cap, (RIGHT, cap_y), Align::Right, p.accent, l.caption);
    if show_code {
        let code_y = cap_y - cap - 18.0;
        let w = cv.text(
            regular,
            code_size,
            (RIGHT, code_y),
            Align::Right,
            p.ink,
            &card.code,
        );
        cv.text(
            bold,
            code_label,
            (RIGHT - w - 10.0, code_y),
            Align::Right,
            p.muted,
            l.code,
        );
    }
    (qr_x, qr_y, size)
}

/// The long card's band: a hairline, then the call to play, the note that the link holds the
/// replay and the site on the left, top-aligned with the QR code at the right.
fn long_caption(cv: &mut Canvas, card: &Card, fonts: &Fonts, p: &Palette) {
    let (regular, bold) = (&fonts.regular, &fonts.bold);
    let l = labels(card.lang);
    let (qr_x, qr_y, _) = qr_box(card.layout);
    cv.fill_rect(
        MARGIN as i64,
        (qr_y - 22.0) as i64,
        (RIGHT - MARGIN) as i64,
        2,
        p.hairline,
    );
    let width = qr_x - COLUMN_GAP - MARGIN;
    let cap = 36.0;
    let mut y = qr_y + cap;
    for line in words(bold, cap, width, l.caption) {
        cv.text(bold, cap, (MARGIN, y), Align::Left, p.accent, &line);
        y += cap * 1.3;
    }
    let note = 25.0;
    if card.replay {
        y += 8.0;
        for line in words(regular, note, width, l.replay) {
            cv.text(regular, note, (MARGIN, y), Align::Left, p.ink, &line);
            y += note * 1.45;
        }
    }
    cv.text(
        regular,
        22.0,
        (MARGIN, y + 12.0),
        Align::Left,
        p.muted,
        code::link_host(),
    );
}

/// Splits `text` into lines of at most `width`: at spaces where it has them (English), else
/// between any two characters (Chinese); a word longer than the width stays whole.
fn words(font: &FontRef, size: f32, width: f32, text: &str) -> Vec<String> {
    let spaced = text.contains(' ');
    let pieces: Vec<String> = if spaced {
        text.split(' ').map(str::to_string).collect()
    } else {
        text.chars().map(String::from).collect()
    };
    let mut lines: Vec<String> = Vec::new();
    for piece in pieces {
        match lines.last_mut() {
            Some(last) => {
                let candidate = if spaced {
                    format!("{last} {piece}")
                } else {
                    format!("{last}{piece}")
                };
                if Canvas::text_width(font, size, &candidate) <= width {
                    *last = candidate;
                } else {
                    lines.push(piece);
                }
            }
            None => lines.push(piece),
        }
    }
    lines
}
