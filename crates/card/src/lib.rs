//! The share card (issue 7): a 1000×800 PNG rendered in pure Rust, no I/O.
//!
//! Everything about the puzzle comes from its share code (kind, level, start board, daily
//! number); the player's result comes from the [`CardSpec`]. Text is drawn from the shipped
//! font subset in `assets/` (Noto Sans CJK SC, SIL OFL 1.1), so the card looks the same on
//! every platform. The QR code holds the link `huarong://play?c=<code>`.

mod canvas;
mod picture;
mod qr;
mod thumb;

pub use picture::{Picture, MAX_PICTURE_PNG, MAX_PICTURE_SIDE};
pub use thumb::Thumb;

use ab_glyph::FontRef;
use canvas::{Align, Canvas, Rgb};
use huarong_engine::code::{self, Decoded};
#[cfg(test)]
use huarong_engine::klotski;
use huarong_engine::{daily, Error, ErrorCode, Kind};

/// The card's part of one game, defined in the game's module `src/games/<game>.rs`.
pub(crate) struct GameCard {
    pub kind: Kind,
    /// The game's name on the card: Chinese, English.
    pub name: [&'static str; 2],
    /// Whether the result is a score (final score, best tile, no stars) rather than moves.
    pub scored: bool,
    /// Reads a start board (game-ID body form) into its thumbnail.
    pub thumb: fn(&str) -> Result<Thumb, String>,
    /// Paints the thumbnail into its frame.
    pub draw: fn(&Thumb, &mut Canvas, &FontRef, &thumb::Frame),
    /// The title and subtitle naming the level (a classic's name, a difficulty, the size…).
    pub level: fn(&Labels, &Level<'_>) -> Result<TitleLines, Error>,
}

/// A card's title and subtitle.
pub(crate) type TitleLines = (String, String);

/// What a game's `level` gets to name the level.
pub(crate) struct Level<'a> {
    pub decoded: &'a Decoded,
    pub lang: Lang,
    /// The board's size, `W×H`.
    pub size: String,
}

/// The games on the card, one line each: the module `src/games/<game>.rs` defines `CARD`.
macro_rules! games {
    ($( $module:ident ),+ $(,)?) => {
        mod games {
            $( pub mod $module; )+
        }
        const GAMES: &[GameCard] = &[$( games::$module::CARD ),+];
    };
}

games![slide, klotski, g2048];

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

/// Card size in pixels (5:4, the WeChat share-card ratio).
pub const WIDTH: usize = 1000;
pub const HEIGHT: usize = 800;

static REGULAR: &[u8] = include_bytes!("../assets/HuarongCard-Regular.otf");
static BOLD: &[u8] = include_bytes!("../assets/HuarongCard-Bold.otf");

/// The card's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    Zh,
    En,
}

impl Lang {
    pub fn parse(text: &str) -> Result<Lang, Error> {
        match text.trim().to_ascii_lowercase().as_str() {
            "zh" | "zh-cn" | "zh-hans" | "cn" => Ok(Lang::Zh),
            "en" | "en-us" | "en-gb" => Ok(Lang::En),
            other => Err(Error::parse(format!(
                "unknown card language {other:?} (expected zh or en)"
            ))),
        }
    }
}

/// What the card shows besides what the code says.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CardSpec {
    /// The share code (or link) of the puzzle played.
    pub code: String,
    pub lang: Lang,
    /// Moves under the game's count (number slide: tile moves; Klotski: piece moves).
    pub moves: u32,
    /// Time played, in whole seconds.
    pub seconds: u64,
    /// The optimal move count, where known.
    pub optimum: Option<u32>,
    /// Stars earned (0–3), where the game gives stars.
    pub stars: Option<u8>,
    /// 2048: the final score and best tile.
    pub score: Option<u64>,
    pub best_tile: Option<u32>,
    /// The day played (year, month, day); a daily challenge shows its own date.
    pub date: Option<(i32, u32, u32)>,
    /// A picture puzzle's image as PNG bytes (at most [`MAX_PICTURE_PNG`]): the start board
    /// is drawn with every tile showing its part of it. Only for a picture puzzle's code.
    pub picture: Option<Vec<u8>>,
    /// The challenge this result beat (the game was opened from a friend's code): the card
    /// says "I beat 85 with 83", while its own code carries the player's result to beat.
    pub beat: Option<code::Challenge>,
}

/// Longest time shown (999 hours), largest numbers: beyond them the card refuses the spec.
const MAX_SECONDS: u64 = 999 * 3600;
const MAX_MOVES: u32 = 9_999_999;

/// Renders the card as PNG bytes.
pub fn render(spec: &CardSpec) -> Result<Vec<u8>, Error> {
    let card = Card::describe(spec)?;
    card.draw()
}

/// Everything the card prints, already in the card's language.
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    pub lang: Lang,
    pub game: String,
    pub when: String,
    pub headline: String,
    pub title: String,
    pub subtitle: String,
    pub big: String,
    pub big_unit: String,
    pub lines: Vec<(String, String)>,
    pub stars: Option<u8>,
    pub thumb: Thumb,
    /// The picture the thumbnail's tiles show (a picture puzzle), decoded.
    pub picture: Option<Picture>,
    pub code: String,
    pub link: String,
}

pub(crate) struct Labels {
    solved: &'static str,
    final_score: &'static str,
    moves_unit: &'static str,
    points_unit: &'static str,
    optimum: &'static str,
    time: &'static str,
    moves: &'static str,
    best_tile: &'static str,
    difficulty: [&'static str; 4],
    classic: &'static str,
    generated: &'static str,
    band: &'static str,
    custom: &'static str,
    /// A picture puzzle whose picture this version does not know (else its title).
    picture: &'static str,
    board_2048: &'static str,
    shuffle: &'static str,
    daily: &'static str,
    caption: &'static str,
    code: &'static str,
    months: [&'static str; 12],
    /// A challenge the player beat: label, and "beat {their moves} with {mine}".
    beaten: &'static str,
    beaten_value: &'static str,
    /// A challenge still to beat: label, and "{moves} · {time}".
    to_beat: &'static str,
}

const ZH: Labels = Labels {
    solved: "挑战成功！",
    final_score: "本局得分",
    moves_unit: "步",
    points_unit: "分",
    optimum: "最优解",
    time: "用时",
    moves: "步数",
    best_tile: "最大方块",
    difficulty: ["简单", "中等", "困难", "专家"],
    classic: "经典布局 第 {} 局",
    generated: "随机新关卡",
    band: "最优 {} 步",
    custom: "自定义布局",
    picture: "图片拼图",
    board_2048: "经典模式",
    shuffle: "随机打乱",
    daily: "每日挑战 第 {} 期",
    caption: "扫码或输入挑战码，和我玩同一局",
    code: "挑战码",
    months: [
        "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12",
    ],
    beaten: "擂台",
    beaten_value: "以 {} 步击败 {} 步",
    to_beat: "待超越",
};

const EN: Labels = Labels {
    solved: "Solved!",
    final_score: "Final score",
    moves_unit: "moves",
    points_unit: "points",
    optimum: "Optimal",
    time: "Time",
    moves: "Moves",
    best_tile: "Best tile",
    difficulty: ["Easy", "Medium", "Hard", "Expert"],
    classic: "Classic layout #{}",
    generated: "Generated level",
    band: "Optimal {} moves",
    custom: "Custom layout",
    picture: "Picture puzzle",
    board_2048: "Classic mode",
    shuffle: "Random shuffle",
    daily: "Daily challenge #{}",
    caption: "Scan or enter the code to play the same puzzle",
    code: "Code",
    months: [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ],
    beaten: "Challenge",
    beaten_value: "I beat {} with {}",
    to_beat: "To beat",
};

fn labels(lang: Lang) -> &'static Labels {
    match lang {
        Lang::Zh => &ZH,
        Lang::En => &EN,
    }
}

pub(crate) fn fill(template: &str, value: impl std::fmt::Display) -> String {
    template.replacen("{}", &value.to_string(), 1)
}

/// `m:ss.t` or `h:mm:ss.t` (tenths of a second, rounded down), for a challenge's time.
pub fn clock_tenths(ms: u64) -> String {
    format!("{}.{}", clock(ms / 1000), ms % 1000 / 100)
}

/// `m:ss` or `h:mm:ss`.
pub fn clock(seconds: u64) -> String {
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

fn date_text(lang: Lang, (y, m, d): (i32, u32, u32)) -> String {
    match lang {
        Lang::Zh => format!("{y}年{m}月{d}日"),
        Lang::En => format!("{d} {} {y}", EN.months[(m as usize).clamp(1, 12) - 1]),
    }
}

impl Card {
    /// Reads the code and the player's result into the texts of the card.
    pub fn describe(spec: &CardSpec) -> Result<Card, Error> {
        let decoded = code::decode_full(&spec.code)?;
        if spec.seconds > MAX_SECONDS || spec.moves > MAX_MOVES {
            return Err(Error::range("time or move count too large for a card"));
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
        let lang = spec.lang;
        let l = labels(lang);
        let game = game(decoded.kind);
        let thumb = Thumb::parse(decoded.kind, &decoded.board).map_err(Error::parse)?;
        let picture = match &spec.picture {
            Some(png) => {
                if decoded.kind != Kind::Slide || !decoded.id.contains("/picture:") {
                    return Err(Error::parse(
                        "a picture goes on the card of a picture puzzle only; this code is not one",
                    ));
                }
                Some(Picture::decode(png)?)
            }
            None => None,
        };
        let (cols, rows) = thumb.grid();
        let level = Level {
            decoded: &decoded,
            lang,
            size: format!("{cols}×{rows}"),
        };
        let (title, mut subtitle) = (game.level)(l, &level)?;
        let mut when = spec.date.map(|d| date_text(lang, d)).unwrap_or_default();
        if let Some(n) = decoded.daily {
            let label = fill(l.daily, n);
            if let Ok(d) = daily::date_of(n) {
                when = date_text(lang, (d.year, d.month, d.day));
            }
            subtitle = if subtitle.is_empty() {
                label
            } else {
                format!("{label} · {subtitle}")
            };
        }

        let moves_value = |n: u32| match lang {
            Lang::Zh => format!("{n} {}", l.moves_unit),
            Lang::En => n.to_string(),
        };
        let (headline, big, big_unit, mut lines) = if game.scored {
            let mut lines = Vec::new();
            if let Some(t) = spec.best_tile {
                lines.push((l.best_tile.to_string(), t.to_string()));
            }
            lines.push((l.moves.to_string(), spec.moves.to_string()));
            (
                l.final_score.to_string(),
                spec.score.unwrap_or(0).to_string(),
                l.points_unit.to_string(),
                lines,
            )
        } else {
            let mut lines = Vec::new();
            if let Some(o) = spec.optimum {
                lines.push((l.optimum.to_string(), moves_value(o)));
            }
            (
                l.solved.to_string(),
                spec.moves.to_string(),
                l.moves_unit.to_string(),
                lines,
            )
        };
        lines.push((l.time.to_string(), clock(spec.seconds)));
        // The challenge this result beat, else the one the code carries: beaten by this
        // result, or still to beat. Time is in whole seconds here (rounded), so with as many
        // moves only a result a whole second faster is surely a beat: the player's own result
        // in their own code is always "to beat", never "I beat 12 with 12".
        let surely_beats = |c: &code::Challenge| {
            spec.moves < c.moves
                || (spec.moves == c.moves
                    && spec.seconds.saturating_add(1).saturating_mul(1000) <= c.ms)
        };
        let beaten_line = |c: &code::Challenge| {
            let text = match lang {
                // "以 83 步击败 85 步": mine first.
                Lang::Zh => fill(&fill(l.beaten_value, spec.moves), c.moves),
                Lang::En => fill(&fill(l.beaten_value, c.moves), spec.moves),
            };
            (l.beaten.to_string(), text)
        };
        if let Some(b) = &spec.beat {
            // The app compared exact times; more moves than the target is never a beat.
            if spec.moves > b.moves {
                return Err(Error::range(format!(
                    "{} moves do not beat {}",
                    spec.moves, b.moves
                )));
            }
            lines.push(beaten_line(b));
        } else if let Some(c) = decoded.challenge {
            if surely_beats(&c) {
                lines.push(beaten_line(&c));
            } else {
                lines.push((
                    l.to_beat.to_string(),
                    format!("{} {} · {}", c.moves, l.moves_unit, clock_tenths(c.ms)),
                ));
            }
        }
        let code_text = decoded.code.clone();
        Ok(Card {
            lang,
            game: game.name(lang).to_string(),
            when,
            headline,
            title,
            subtitle,
            big,
            big_unit,
            lines,
            stars: if game.scored { None } else { spec.stars },
            thumb,
            picture,
            link: code::link(&code_text),
            code: code_text,
        })
    }

    /// Draws the card.
    pub fn draw(&self) -> Result<Vec<u8>, Error> {
        let font_err = |_| Error::new(ErrorCode::Unsupported, "the card's font is damaged");
        let regular = FontRef::try_from_slice(REGULAR).map_err(font_err)?;
        let bold = FontRef::try_from_slice(BOLD).map_err(font_err)?;
        let l = labels(self.lang);

        let paper = Rgb::hex(0xf6efe3);
        let red = Rgb::hex(0x9e2b25);
        let ink = Rgb::hex(0x3b2a1e);
        let muted = Rgb::hex(0x8a7260);
        let cream = Rgb::hex(0xf3dcb6);
        let mut cv = Canvas::new(WIDTH, HEIGHT, paper);

        // Header band: brand on the left, game and date on the right.
        cv.fill_rect(0, 0, WIDTH as i64, 130, red);
        cv.fill_rect(0, 130, WIDTH as i64, 6, Rgb::hex(0xd9a441));
        let brand = cv.text(
            &bold,
            64.0,
            (50.0, 90.0),
            Align::Left,
            Rgb::hex(0xffffff),
            "华容",
        );
        cv.text(
            &regular,
            22.0,
            (50.0 + brand + 16.0, 88.0),
            Align::Left,
            cream,
            "HUARONG",
        );
        let game_size = Canvas::fit(&bold, 36.0, 440.0, &self.game);
        cv.text(
            &bold,
            game_size,
            (950.0, 68.0),
            Align::Right,
            Rgb::hex(0xffffff),
            &self.game,
        );
        if !self.when.is_empty() {
            cv.text(
                &regular,
                24.0,
                (950.0, 106.0),
                Align::Right,
                cream,
                &self.when,
            );
        }

        // The start board.
        cv.round_rect(44.0, 170.0, 432.0, 432.0, 22.0, Rgb::hex(0xe9dcc7));
        match &self.picture {
            Some(p) => p.draw(&self.thumb, &mut cv, &self.thumb.frame(50.0, 176.0, 420.0)),
            None => self.thumb.draw(&mut cv, &bold, 50.0, 176.0, 420.0),
        }

        // The result.
        let x0 = 520.0;
        let col_w = 430.0;
        cv.text(&bold, 30.0, (x0, 205.0), Align::Left, red, &self.headline);
        let title_size = Canvas::fit(&bold, 46.0, col_w, &self.title);
        cv.text(
            &bold,
            title_size,
            (x0, 262.0),
            Align::Left,
            ink,
            &self.title,
        );
        if !self.subtitle.is_empty() {
            let s = Canvas::fit(&regular, 25.0, col_w, &self.subtitle);
            cv.text(&regular, s, (x0, 302.0), Align::Left, muted, &self.subtitle);
        }
        let big_size = Canvas::fit(&bold, 124.0, col_w - 110.0, &self.big);
        let big_w = cv.text(
            &bold,
            big_size,
            (x0 - 4.0, 430.0),
            Align::Left,
            ink,
            &self.big,
        );
        cv.text(
            &regular,
            34.0,
            (x0 + big_w + 10.0, 430.0),
            Align::Left,
            muted,
            &self.big_unit,
        );
        // Three lines and the stars (a challenge line) sit closer, clear of the footer.
        let tight = self.lines.len() >= 3 && self.stars.is_some();
        let (mut y, step) = if tight { (476.0, 38.0) } else { (488.0, 44.0) };
        for (label, value) in &self.lines {
            let lw = cv.text(&regular, 28.0, (x0, y), Align::Left, muted, label);
            cv.text(
                &bold,
                28.0,
                (
                    x0 + lw.max(if self.lang == Lang::Zh { 112.0 } else { 118.0 }) + 10.0,
                    y,
                ),
                Align::Left,
                ink,
                value,
            );
            y += step;
        }
        if let Some(n) = self.stars {
            for i in 0..3u8 {
                let color = if i < n {
                    Rgb::hex(0xe3a92b)
                } else {
                    Rgb::hex(0xe0d3bf)
                };
                cv.star(x0 + 24.0 + i as f32 * 56.0, y + 4.0, 24.0, color);
            }
        }

        // Footer: how to play it, the code, and the QR code of the link.
        cv.fill_rect(44, 628, 690, 2, Rgb::hex(0xe0d0b8));
        let cap = Canvas::fit(&regular, 24.0, 680.0, l.caption);
        cv.text(&regular, cap, (50.0, 668.0), Align::Left, muted, l.caption);
        let label_w = cv.text(&bold, 24.0, (50.0, 712.0), Align::Left, red, l.code);
        let code_x = 50.0 + label_w + 14.0;
        let code_lines = wrap(&regular, 24.0, 734.0 - code_x, &self.code, 3);
        for (i, line) in code_lines.iter().enumerate() {
            cv.text(
                &regular,
                24.0,
                (code_x, 712.0 + i as f32 * 30.0),
                Align::Left,
                ink,
                line,
            );
        }
        qr::draw(&mut cv, &self.link, 764.0, 606.0, 190.0)?;
        cv.png().map_err(|e| Error::new(ErrorCode::Unsupported, e))
    }
}

/// Splits `text` (no spaces: a code) into at most `max_lines` lines of at most `width`;
/// shrinks nothing (codes are ≤ 160 characters: three lines always suffice at 24 px).
fn wrap(font: &FontRef, size: f32, width: f32, text: &str, max_lines: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for ch in text.chars() {
        let mut candidate = lines.last().cloned().unwrap_or_default();
        candidate.push(ch);
        if Canvas::text_width(font, size, &candidate) > width && lines.len() < max_lines {
            lines.push(ch.to_string());
        } else if let Some(last) = lines.last_mut() {
            last.push(ch);
        }
    }
    lines
}

/// Every text the card can print for `lang`, apart from numbers, codes and level names
/// (used by the font-coverage test and the glyph list of `assets/make-font.py`).
pub fn label_texts(lang: Lang) -> Vec<&'static str> {
    let l = labels(lang);
    let mut v = vec![
        "华容",
        "HUARONG",
        l.solved,
        l.final_score,
        l.moves_unit,
        l.points_unit,
        l.optimum,
        l.time,
        l.moves,
        l.best_tile,
        l.classic,
        l.generated,
        l.band,
        l.custom,
        l.picture,
        l.board_2048,
        l.shuffle,
        l.daily,
        l.caption,
        l.code,
        l.beaten,
        l.beaten_value,
        l.to_beat,
        "×",
        "–",
        "·",
        "年月日",
        "曹",
    ];
    v.extend(GAMES.iter().map(|g| g.name(lang)));
    v.extend(l.difficulty);
    v.extend(l.months);
    v
}

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
