//! The share card (issues 7, 26): a 1000×800 PNG rendered in pure Rust, no I/O; a card
//! whose link is too long for its corner QR code (a result code with its move log, issue 25)
//! grows to 1000×1212 with a large QR code in a band of its own ([`Layout`]).
//!
//! The card shows the *finished* board (the solved number slide or the whole picture,
//! 2048's final grid, Klotski's final position with its named pieces and red exit) beside
//! the player's result; the puzzle itself (kind, level, start board, daily number) travels
//! only in the share code and its QR code. The final board comes in the [`CardSpec`]
//! (`board`); without it the card shows what it can know (see [`CardSpec::board`]). Text is
//! drawn from the shipped font subsets in `assets/` (Noto Sans CJK SC and, for the pieces'
//! names, Noto Serif CJK SC; SIL OFL 1.1), so the card looks the same on every platform. The
//! QR code holds the share link `<code::LINK_BASE>?c=<code>` (`https://huarong.app/?c=<code>`).

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
    /// Reads a board (game-ID body form) into cells.
    pub thumb: fn(&str) -> Result<Thumb, String>,
    /// The finished board to show: the spec's board checked against the code's puzzle, or
    /// what the game can know without it.
    pub finished: fn(&Finish<'_>) -> Result<Thumb, Error>,
    /// Paints the board into its frame.
    pub draw: fn(&Thumb, &mut Canvas, &Fonts<'_>, &thumb::Frame),
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

/// What a game's `finished` gets to find the board to show.
pub(crate) struct Finish<'a> {
    pub decoded: &'a Decoded,
    /// The spec's final board, if any (game-ID body form).
    pub board: Option<&'a str>,
    pub lang: Lang,
    pub best_tile: Option<u32>,
}

/// The card's faces: sans regular and bold for the texts, serif bold for the Klotski
/// pieces' Chinese names (the game's face font).
pub(crate) struct Fonts<'a> {
    pub regular: FontRef<'a>,
    pub bold: FontRef<'a>,
    pub serif: FontRef<'a>,
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

/// Card size in pixels (5:4, the WeChat share-card ratio); a [`Layout::Long`] card is
/// [`LONG_HEIGHT`] tall.
pub const WIDTH: usize = 1000;
pub const HEIGHT: usize = 800;
pub const LONG_HEIGHT: usize = LONG_QR_Y as usize + LONG_QR_SIZE as usize + MARGIN as usize;

/// Where the link's QR code goes. A link that fits the corner box with modules of at least
/// 3 px (any puzzle code, a result code without its move log) gets the 5:4 card; a longer
/// one (up to a 1,200-character code: QR version 25 at L, 4 px modules) a taller card whose
/// bottom band holds a large QR code, the call to play beside it.
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

    /// The QR code's box: x, y, size.
    fn qr_box(self) -> (f32, f32, f32) {
        match self {
            Layout::Corner => (QR_X, QR_Y, QR_SIZE),
            Layout::Long => (
                WIDTH as f32 - MARGIN - LONG_QR_SIZE,
                LONG_QR_Y,
                LONG_QR_SIZE,
            ),
        }
    }
}

static REGULAR: &[u8] = include_bytes!("../assets/HuarongCard-Regular.otf");
static BOLD: &[u8] = include_bytes!("../assets/HuarongCard-Bold.otf");
static SERIF: &[u8] = include_bytes!("../assets/HuarongCard-SerifBold.otf");

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
    /// A picture puzzle's image as PNG bytes (at most [`MAX_PICTURE_PNG`]): the solved board
    /// is drawn as the whole picture. Only for a picture puzzle's code, or with `own_photo`.
    pub picture: Option<Vec<u8>>,
    /// The puzzle is the player's own photo: its code carries no picture (the photo never
    /// travels in a code), so it reads as a plain number slide; `picture` is that photo (a
    /// square slide of a picture size only). The app sets it when the player's current game
    /// is that custom-photo puzzle.
    pub own_photo: bool,
    /// The challenge this result beat (the game was opened from a friend's code): the card
    /// says "I beat 85 moves with 83 moves", while its own code carries the player's result.
    pub beat: Option<code::Challenge>,
    /// The finished board, in the game-ID body form of the game's snapshots
    /// (`snapshot.board`: `4x4:1,2,…,0`, `aCCb/…`, sixteen 2048 values), at most
    /// [`MAX_BOARD_TEXT`] characters. It must fit the code's puzzle: the same size (and for
    /// Klotski the same pieces and walls), solved for the number slide and Klotski; for 2048
    /// its largest tile is the best tile. Without it the card shows the solved slide (known
    /// from the size), for Klotski the position an optimal solution ends in (the pieces
    /// other than Cao Cao may stand elsewhere in the player's), and for 2048, whose final
    /// grid nothing else tells, the best tile alone as one big tile.
    pub board: Option<String>,
}

/// The finished board the card of `spec` shows (see [`CardSpec::board`]); an error when the
/// code is bad (`bad_code`…) or when the spec's board does not fit its puzzle (`parse`).
pub fn finished_board(spec: &CardSpec) -> Result<Thumb, Error> {
    finished(spec, &code::decode_full(&spec.code)?)
}

fn finished(spec: &CardSpec, decoded: &Decoded) -> Result<Thumb, Error> {
    if let Some(b) = &spec.board {
        if b.len() > MAX_BOARD_TEXT {
            return Err(Error::parse(format!(
                "the card's board is {} characters long; at most {MAX_BOARD_TEXT}",
                b.len()
            )));
        }
    }
    (game(decoded.kind).finished)(&Finish {
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
    /// The friend's challenge this result beat, as one sentence ("I beat 85 moves with 83
    /// moves"), drawn as a ribbon under the result.
    pub beaten: Option<String>,
    pub stars: Option<u8>,
    /// The finished board.
    pub board: Thumb,
    /// The picture the solved board shows (a picture puzzle), decoded.
    pub picture: Option<Picture>,
    pub code: String,
    pub link: String,
    /// Where the link's QR code goes, and so the card's height.
    pub layout: Layout,
    /// The code carries the move log: a long card says the link holds the replay.
    pub replay: bool,
}

pub(crate) struct Labels {
    solved: &'static str,
    final_score: &'static str,
    /// Move units: one, many (the same word in Chinese).
    move_unit: [&'static str; 2],
    point_unit: [&'static str; 2],
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
    /// The call to play, beside the QR code.
    caption: &'static str,
    /// Under it on a long card whose link carries the move log.
    replay: &'static str,
    code: &'static str,
    months: [&'static str; 12],
    /// A challenge the player beat: "beat {their moves} with {mine}" (each with its unit).
    beaten: &'static str,
    /// A challenge still to beat: label, and "{moves} · {time}".
    to_beat: &'static str,
}

const ZH: Labels = Labels {
    solved: "挑战成功！",
    final_score: "本局得分",
    move_unit: ["步", "步"],
    point_unit: ["分", "分"],
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
    caption: "长按识别，来挑战我",
    replay: "还能一步步回看我的解法",
    code: "挑战码",
    months: [
        "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12",
    ],
    // "以 83 步击败 85 步": mine first (see `Card::describe`).
    beaten: "以 {}击败 {}",
    to_beat: "待超越",
};

const EN: Labels = Labels {
    solved: "Solved!",
    final_score: "Final score",
    move_unit: ["move", "moves"],
    point_unit: ["point", "points"],
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
    caption: "Scan to play this puzzle",
    replay: "and watch my solve, move by move",
    code: "Code",
    months: [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ],
    beaten: "I beat {} with {}",
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

/// The unit of `n` things: `[one, many]` (English "1 move", "0 moves", "2 moves").
fn unit(forms: [&'static str; 2], n: u64) -> &'static str {
    if n == 1 {
        forms[0]
    } else {
        forms[1]
    }
}

impl Labels {
    /// "85 moves", "1 move", "85 步".
    fn moves_text(&self, n: u32) -> String {
        format!("{n} {}", unit(self.move_unit, n.into()))
    }
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
        let board = finished(spec, &decoded)?;
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

        let (headline, big, big_unit, mut lines) = if game.scored {
            let mut lines = Vec::new();
            let best = spec
                .best_tile
                .or_else(|| spec.board.as_ref().and(board.cells.iter().copied().max()));
            if let Some(t) = best {
                lines.push((l.best_tile.to_string(), t.to_string()));
            }
            lines.push((l.moves.to_string(), spec.moves.to_string()));
            let score = spec.score.unwrap_or(0);
            (
                l.final_score.to_string(),
                score.to_string(),
                unit(l.point_unit, score).to_string(),
                lines,
            )
        } else {
            let mut lines = Vec::new();
            if let Some(o) = spec.optimum {
                lines.push((l.optimum.to_string(), l.moves_text(o)));
            }
            (
                l.solved.to_string(),
                spec.moves.to_string(),
                unit(l.move_unit, spec.moves.into()).to_string(),
                lines,
            )
        };
        lines.push((l.time.to_string(), clock(spec.seconds)));
        // The challenge this result beat, else the one the code carries: beaten by this
        // result, or still to beat. Time is in whole seconds here (rounded), so with as many
        // moves only a result a whole second faster is surely a beat: the player's own result
        // in their own code is always "to beat", never "I beat 12 moves with 12 moves".
        let surely_beats = |c: &code::Challenge| {
            spec.moves < c.moves
                || (spec.moves == c.moves
                    && spec.seconds.saturating_add(1).saturating_mul(1000) <= c.ms)
        };
        let beaten_text = |c: &code::Challenge| {
            let (theirs, mine) = (l.moves_text(c.moves), l.moves_text(spec.moves));
            match lang {
                // "以 83 步击败 85 步": mine first.
                Lang::Zh => fill(&fill(l.beaten, mine), theirs),
                Lang::En => fill(&fill(l.beaten, theirs), mine),
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
            } else {
                lines.push((
                    l.to_beat.to_string(),
                    format!("{} · {}", l.moves_text(c.moves), clock_tenths(c.ms)),
                ));
            }
        }
        let code_text = decoded.code.clone();
        let link = code::link(&code_text);
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
        let font_err = |_| Error::new(ErrorCode::Unsupported, "the card's font is damaged");
        let fonts = Fonts {
            regular: FontRef::try_from_slice(REGULAR).map_err(font_err)?,
            bold: FontRef::try_from_slice(BOLD).map_err(font_err)?,
            serif: FontRef::try_from_slice(SERIF).map_err(font_err)?,
        };
        let (regular, bold) = (&fonts.regular, &fonts.bold);

        let paper = Rgb::hex(0xf6efe3);
        let red = Rgb::hex(0x9e2b25);
        let ink = Rgb::hex(0x3b2a1e);
        let muted = Rgb::hex(0x8a7260);
        let cream = Rgb::hex(0xf3dcb6);
        let white = Rgb::hex(0xffffff);
        let mut cv = Canvas::new(WIDTH, self.layout.height(), paper);
        let (qr_x, qr_y, qr_size) = self.layout.qr_box();

        // Header band: brand on the left, game and date on the right.
        cv.fill_rect(0, 0, WIDTH as i64, HEADER, red);
        cv.fill_rect(0, HEADER, WIDTH as i64, 6, Rgb::hex(0xd9a441));
        let brand = cv.text(bold, 60.0, (MARGIN, 84.0), Align::Left, white, "华容");
        cv.text(
            regular,
            22.0,
            (MARGIN + brand + 16.0, 82.0),
            Align::Left,
            cream,
            "HUARONG",
        );
        let game_size = Canvas::fit(bold, 34.0, 440.0, &self.game);
        cv.text(
            bold,
            game_size,
            (RIGHT, 60.0),
            Align::Right,
            white,
            &self.game,
        );
        if !self.when.is_empty() {
            cv.text(
                regular,
                24.0,
                (RIGHT, 98.0),
                Align::Right,
                cream,
                &self.when,
            );
        }

        // The finished board.
        cv.round_rect(MARGIN, BOARD_Y, 432.0, 432.0, 22.0, Rgb::hex(0xe9dcc7));
        let (bx, by, bs) = board_box();
        match &self.picture {
            Some(p) => p.draw(&self.board, &mut cv, &self.board.frame(bx, by, bs)),
            None => self.board.draw(&mut cv, &fonts, bx, by, bs),
        }

        // The result: headline with the stars, level, the big number, the ribbon of a
        // beaten challenge, the lines.
        let col_w = RIGHT - COL_X;
        let head_w = cv.text(bold, 30.0, (COL_X, 188.0), Align::Left, red, &self.headline);
        if let Some(n) = self.stars {
            let (r, pitch) = (21.0, 50.0);
            let first = (RIGHT - r - 2.0 * pitch).max(COL_X + head_w + 16.0 + r);
            for i in 0..3u8 {
                let color = if i < n {
                    Rgb::hex(0xe3a92b)
                } else {
                    Rgb::hex(0xe0d3bf)
                };
                cv.star(first + i as f32 * pitch, 178.0, r, color);
            }
        }
        let title_size = Canvas::fit(bold, 46.0, col_w, &self.title);
        cv.text(
            bold,
            title_size,
            (COL_X, 244.0),
            Align::Left,
            ink,
            &self.title,
        );
        if !self.subtitle.is_empty() {
            let s = Canvas::fit(regular, 25.0, col_w, &self.subtitle);
            cv.text(
                regular,
                s,
                (COL_X, 282.0),
                Align::Left,
                muted,
                &self.subtitle,
            );
        }
        let big_size = Canvas::fit(bold, 124.0, col_w - 110.0, &self.big);
        let big_w = cv.text(
            bold,
            big_size,
            (COL_X - 4.0, 400.0),
            Align::Left,
            ink,
            &self.big,
        );
        cv.text(
            regular,
            34.0,
            (COL_X + big_w + 10.0, 400.0),
            Align::Left,
            muted,
            &self.big_unit,
        );
        // Four lines (2048 with a result to beat) sit closer and start higher, all clear
        // of the QR code below.
        let (mut y, step) = if self.lines.len() >= 4 {
            (446.0, 36.0)
        } else {
            (456.0, 40.0)
        };
        if let Some(text) = &self.beaten {
            let size = Canvas::fit(bold, 26.0, col_w - 32.0, text);
            let w = Canvas::text_width(bold, size, text);
            cv.round_rect(COL_X, 424.0, w + 32.0, 42.0, 21.0, red);
            cv.text(bold, size, (COL_X + 16.0, 454.0), Align::Left, white, text);
            y = 506.0;
        }
        let label_w = if self.lang == Lang::Zh { 112.0 } else { 118.0 };
        for (label, value) in &self.lines {
            let lw = cv.text(regular, 28.0, (COL_X, y), Align::Left, muted, label);
            let vx = COL_X + lw.max(label_w) + 10.0;
            // Beside the QR code a line ends before it.
            let end = if y + 10.0 > qr_y { qr_x - 20.0 } else { RIGHT };
            let size = Canvas::fit(bold, 28.0, end - vx, value);
            cv.text(bold, size, (vx, y), Align::Left, ink, value);
            y += step;
        }

        qr::draw(&mut cv, &self.link, qr_x, qr_y, qr_size)?;
        match self.layout {
            Layout::Corner => self.draw_corner_caption(&mut cv, &fonts),
            Layout::Long => self.draw_long_caption(&mut cv, &fonts),
        }
        cv.png().map_err(|e| Error::new(ErrorCode::Unsupported, e))
    }

    /// The corner QR code's call to play right beside it, with the code.
    fn draw_corner_caption(&self, cv: &mut Canvas, fonts: &Fonts<'_>) {
        let (regular, bold) = (&fonts.regular, &fonts.bold);
        let l = labels(self.lang);
        let (red, ink, muted) = (Rgb::hex(0x9e2b25), Rgb::hex(0x3b2a1e), Rgb::hex(0x8a7260));
        // The QR code of the link in the bottom-right corner, as far from both edges as the
        // board is from the left one, and the call to play right beside it with the code.
        let text_end = QR_X - 24.0;
        let cap = Canvas::fit(bold, 32.0, text_end - MARGIN, l.caption);
        let cap_w = Canvas::text_width(bold, cap, l.caption);
        let code_size = 22.0;
        let label_w = Canvas::text_width(bold, code_size, l.code);
        let code_lines = wrap(
            regular,
            code_size,
            text_end - MARGIN - label_w - 12.0,
            &self.code,
            4,
        );
        let code_w = label_w
            + 12.0
            + code_lines
                .iter()
                .map(|c| Canvas::text_width(regular, code_size, c))
                .fold(0.0, f32::max);
        // Both end at the QR code: the caption, and the code's block (its lines left-aligned).
        let x = (text_end - code_w).max(MARGIN);
        let line_h = 28.0;
        let block_h = cap + 16.0 + line_h * code_lines.len() as f32;
        let top = QR_Y + QR_SIZE / 2.0 - block_h / 2.0;
        let cap_x = text_end - cap_w;
        cv.text(
            bold,
            cap,
            (cap_x, top + cap * 0.88),
            Align::Left,
            red,
            l.caption,
        );
        let code_y = top + cap + 16.0 + code_size * 0.88;
        cv.text(bold, code_size, (x, code_y), Align::Left, muted, l.code);
        for (i, line) in code_lines.iter().enumerate() {
            cv.text(
                regular,
                code_size,
                (x + label_w + 12.0, code_y + i as f32 * line_h),
                Align::Left,
                ink,
                line,
            );
        }
    }

    /// A long card's band: the call to play beside the large QR code, what the link holds
    /// (the replay), and where it goes. The code itself is not printed: hundreds of
    /// characters are for the QR code and the link, not for typing.
    fn draw_long_caption(&self, cv: &mut Canvas, fonts: &Fonts<'_>) {
        let (regular, bold) = (&fonts.regular, &fonts.bold);
        let l = labels(self.lang);
        let (red, ink, muted) = (Rgb::hex(0x9e2b25), Rgb::hex(0x3b2a1e), Rgb::hex(0x8a7260));
        let (qr_x, qr_y, qr_size) = self.layout.qr_box();
        // A hairline between the result and the band.
        cv.fill_rect(
            MARGIN as i64,
            (qr_y - 22.0) as i64,
            (RIGHT - MARGIN) as i64,
            2,
            Rgb::hex(0xe6d8c2),
        );
        let text_end = qr_x - 28.0;
        let width = text_end - MARGIN;
        let cap = Canvas::fit(bold, 38.0, width, l.caption);
        let cap_lines = words(bold, cap, width, l.caption);
        let (note, note_h) = (28.0, 40.0);
        let notes = if self.replay {
            words(regular, note, width, l.replay)
        } else {
            Vec::new()
        };
        let host = code::link_host();
        let (host_size, cap_h) = (24.0, cap * 1.3);
        let block_h = cap_h * cap_lines.len() as f32
            + if notes.is_empty() {
                0.0
            } else {
                14.0 + note_h * notes.len() as f32
            }
            + 30.0
            + host_size;
        let mut y = qr_y + qr_size / 2.0 - block_h / 2.0;
        for line in &cap_lines {
            cv.text(
                bold,
                cap,
                (text_end, y + cap * 0.9),
                Align::Right,
                red,
                line,
            );
            y += cap_h;
        }
        if !notes.is_empty() {
            y += 14.0;
            for line in &notes {
                cv.text(
                    regular,
                    note,
                    (text_end, y + note * 0.9),
                    Align::Right,
                    ink,
                    line,
                );
                y += note_h;
            }
        }
        y += 30.0;
        cv.text(
            regular,
            host_size,
            (text_end, y + host_size * 0.9),
            Align::Right,
            muted,
            host,
        );
    }
}

/// The layout: the header band's height, the margin of the board box and the QR code
/// from the card's edges, the result column, the QR code's box.
const HEADER: i64 = 120;
const MARGIN: f32 = 44.0;
const RIGHT: f32 = WIDTH as f32 - MARGIN;
const BOARD_Y: f32 = 150.0;
const COL_X: f32 = 520.0;
const QR_SIZE: f32 = 190.0;
const QR_X: f32 = WIDTH as f32 - MARGIN - QR_SIZE;
const QR_Y: f32 = HEIGHT as f32 - MARGIN - QR_SIZE;
/// A long card's QR box: 540 px holds version 25 (117 modules and the quiet zone) at 4 px a
/// module, below the board's box (which ends at 582) and the result's lines.
const LONG_QR_SIZE: f32 = 540.0;
const LONG_QR_Y: f32 = 628.0;

/// Where the board is drawn inside its box: x, y, size.
fn board_box() -> (f32, f32, f32) {
    (MARGIN + 6.0, BOARD_Y + 6.0, 420.0)
}

/// Splits `text` (no spaces: a code) into at most `max_lines` lines of at most `width`;
/// shrinks nothing (a corner card's code is at most 207 characters, as its QR code holds:
/// four lines suffice at 22 px).
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
    for p in pieces {
        match lines.last_mut() {
            Some(last) => {
                let candidate = if spaced {
                    format!("{last} {p}")
                } else {
                    format!("{last}{p}")
                };
                if Canvas::text_width(font, size, &candidate) <= width {
                    *last = candidate;
                } else {
                    lines.push(p);
                }
            }
            None => lines.push(p),
        }
    }
    lines
}

/// Every text the card can print for `lang`, apart from numbers, codes, level names and the
/// pieces' names (used by the font-coverage test and the glyph list of `assets/make-font.py`).
pub fn label_texts(lang: Lang) -> Vec<&'static str> {
    let l = labels(lang);
    let mut v = vec![
        "华容",
        "HUARONG",
        l.solved,
        l.final_score,
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
        l.replay,
        l.code,
        l.beaten,
        l.to_beat,
        "×",
        "–",
        "·",
        "年月日",
    ];
    v.extend(l.move_unit);
    v.extend(l.point_unit);
    v.extend(GAMES.iter().map(|g| g.name(lang)));
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
