//! Every word the card prints, in both languages, and the formatting of its numbers, times
//! and dates. `assets/make-font.py` builds the font subsets from the string literals of this
//! crate's sources (this file among them), and the test `every_literal_has_its_glyphs` fails
//! when a literal has a character the shipped fonts lack.

use crate::style::Lang;

pub(crate) struct Labels {
    /// The headline of a solve: with the player's name, without one ("{name}", "{n}",
    /// "{unit}" are filled in).
    pub solved_by: &'static str,
    pub solved: &'static str,
    /// 2048's headline: with the best tile, without one; each with and without the name
    /// ("{score}" with its unit in English).
    pub scored_tile_by: &'static str,
    pub scored_tile: &'static str,
    pub scored_by: &'static str,
    pub scored: &'static str,
    /// The rank among friends on a daily's board: "beat {} friends" (one, many).
    pub rank: [&'static str; 2],
    /// What the board shows: the puzzle the friend gets; 2048's final grid.
    pub this_puzzle: &'static str,
    pub final_board: &'static str,
    /// Move units: one, many (the same word in Chinese).
    pub move_unit: [&'static str; 2],
    pub point_unit: [&'static str; 2],
    pub optimum: &'static str,
    pub time: &'static str,
    pub moves: &'static str,
    pub best_tile: &'static str,
    pub difficulty: [&'static str; 4],
    pub classic: &'static str,
    pub generated: &'static str,
    pub band: &'static str,
    /// Only for a board that is neither a level, a daily nor a picture.
    pub custom: &'static str,
    /// A picture puzzle whose picture this version does not know (else its title).
    pub picture: &'static str,
    pub shuffle: &'static str,
    pub daily: &'static str,
    /// The call to play, beside the QR code.
    pub caption: &'static str,
    /// Under it on a long card whose link carries the move log.
    pub replay: &'static str,
    pub code: &'static str,
    pub months: [&'static str; 12],
    /// A challenge the player beat, as the headline (the card's one voice, the player's
    /// name or none): "{name} beat {theirs} with {n}" ("{mine}": my moves with their unit).
    pub beat_by: &'static str,
    pub beat: &'static str,
    /// A challenge still to beat: label, and "{moves} · {time}".
    pub to_beat: &'static str,
}

pub(crate) const ZH: Labels = Labels {
    solved_by: "{name} · {n} 步通关",
    solved: "{n} 步通关",
    scored_tile_by: "{name} · 合成 {tile}，{score} 分",
    scored_tile: "合成 {tile}，{score} 分",
    scored_by: "{name} · {score} 分",
    scored: "得分 {score}",
    rank: ["击败 {} 位好友", "击败 {} 位好友"],
    this_puzzle: "这一局",
    final_board: "终局",
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
    shuffle: "随机打乱",
    daily: "每日挑战 第 {} 期",
    caption: "长按识别，来挑战我",
    replay: "还能一步步回看我的解法",
    code: "挑战码",
    months: [
        "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12",
    ],
    // "以 83 步击败 85 步": mine first.
    beat_by: "{name} · 以 {mine}击败 {theirs}",
    beat: "以 {mine}击败 {theirs}",
    to_beat: "待超越",
};

pub(crate) const EN: Labels = Labels {
    solved_by: "{name} solved it in {n} {unit}",
    solved: "Solved in {n} {unit}",
    scored_tile_by: "{name} scored {score} with a {tile} tile",
    scored_tile: "{score} {unit} with a {tile} tile",
    scored_by: "{name} scored {score}",
    scored: "{score} {unit}",
    rank: ["Beat {} friend", "Beat {} friends"],
    this_puzzle: "This puzzle",
    final_board: "Final board",
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
    shuffle: "Random shuffle",
    daily: "Daily challenge #{}",
    caption: "Scan to play this puzzle",
    replay: "and watch my solve, move by move",
    code: "Code",
    months: [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ],
    beat_by: "{name} beat {theirs} with {n}",
    beat: "Beat {theirs} with {mine}",
    to_beat: "To beat",
};

/// Between the parts of a line ("每日挑战 第 3 期·4×4"): the fonts' middle dot is a full
/// em wide, its own spacing.
pub(crate) const SEP: &str = "·";

pub(crate) fn labels(lang: Lang) -> &'static Labels {
    match lang {
        Lang::Zh => &ZH,
        Lang::En => &EN,
    }
}

/// Fills the first `{}` of `template`.
pub(crate) fn fill(template: &str, value: impl std::fmt::Display) -> String {
    template.replacen("{}", &value.to_string(), 1)
}

/// Fills the named places `{key}` of `template` in one pass (a value is never read as a
/// template: a name may hold braces).
pub(crate) fn fill_named(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}').and_then(|close| {
            let key = &after[..close];
            values
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| (close, *v))
        }) {
            Some((close, value)) => {
                out.push_str(value);
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The unit of `n` things: `[one, many]` (English "1 move", "0 moves", "2 moves").
pub(crate) fn unit(forms: [&'static str; 2], n: u64) -> &'static str {
    if n == 1 {
        forms[0]
    } else {
        forms[1]
    }
}

impl Labels {
    /// "85 moves", "1 move", "85 步".
    pub fn moves_text(&self, n: u32) -> String {
        format!("{n} {}", unit(self.move_unit, n.into()))
    }
}

/// A large number as the language writes it: "36,112" in English, "36112" in Chinese.
pub(crate) fn number(lang: Lang, n: u64) -> String {
    let digits = n.to_string();
    if lang == Lang::Zh {
        return digits;
    }
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// `m:ss.t` or `h:mm:ss.t` (tenths of a second, cut, never rounded up): the time as the
/// finish, the friends' board and the records show it (`formatTime(ms, true)` in the UI).
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

pub(crate) fn date_text(lang: Lang, (y, m, d): (i32, u32, u32)) -> String {
    match lang {
        Lang::Zh => format!("{y}年{m}月{d}日"),
        Lang::En => format!("{d} {} {y}", EN.months[(m as usize).clamp(1, 12) - 1]),
    }
}
