//! The score card: its arguments as the UI sends them, what the core adds (the player's
//! name, their rank among friends, the theme), rendering, and the name of its file (the
//! platform's `Share` saves or shares it).

use crate::error::{AppError, AppResult};
use crate::pictures::base64;
use crate::progress::BoardResult;
use huarong_card::{CardSpec, Lang, Theme};
use huarong_engine::code;
use huarong_engine::daily::Date;
use serde::Deserialize;

/// The `card` argument of `share_card` and `card_image` (snake_case keys; unknown keys are
/// refused). The player's name and their rank among friends are not arguments: the core
/// adds them ([`crate::core::AppState::fill_card`]).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardArgs {
    pub code: String,
    #[serde(default)]
    pub lang: Option<String>,
    pub moves: u32,
    /// Whole seconds (older callers); `ms` or `seconds`, or both when they agree.
    #[serde(default)]
    pub seconds: Option<u64>,
    /// The finish's milliseconds exactly as recorded (`finish.time_ms`): the card shows them
    /// to the tenth, as the finish and the records do.
    #[serde(default)]
    pub ms: Option<u64>,
    /// The page's resolved theme (`light` or `dark`), used when the settings' theme is
    /// `system`; the settings' `light` or `dark` wins.
    #[serde(default)]
    pub theme: Option<String>,
    #[serde(default)]
    pub optimum: Option<u32>,
    #[serde(default)]
    pub stars: Option<u8>,
    #[serde(default)]
    pub score: Option<u64>,
    #[serde(default)]
    pub best_tile: Option<u32>,
    #[serde(default)]
    pub date: Option<String>,
    /// A picture puzzle's image for the thumbnail: a `data:image/png;base64,` URL or bare
    /// base64 PNG of at most `huarong_card::MAX_PICTURE_PNG` bytes (the UI renders it).
    #[serde(default)]
    pub picture: Option<String>,
    /// The challenge this result beat (`finish.challenge` when `beaten`): the card says
    /// "I beat 85 with 83" while its code carries the player's own result.
    #[serde(default)]
    pub beat: Option<BeatArgs>,
    /// The finished board in game-ID body form (the final `snapshot.board`): the card draws
    /// it. Checked against the code's puzzle when the card is made (a board of another size,
    /// another game or unsolved → `bad_argument`); without it the card shows what it knows.
    #[serde(default)]
    pub board: Option<String>,
}

/// `card.beat`: the friend's result that was beaten.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BeatArgs {
    pub moves: u32,
    pub ms: u64,
}

/// Longest `picture` text accepted (base64 of the largest PNG plus a data-URL header).
pub const MAX_PICTURE_DATA: usize = huarong_card::MAX_PICTURE_PNG / 3 * 4 + 8 + 64;

impl CardArgs {
    pub fn spec(&self) -> AppResult<CardSpec> {
        if self.code.len() > code::MAX_INPUT_LEN {
            return Err(AppError::bad_argument("`code` is too long"));
        }
        let lang = Lang::parse(self.lang.as_deref().unwrap_or("zh"))?;
        let date = match &self.date {
            Some(d) => {
                let d = Date::parse(d)?;
                Some((d.year, d.month, d.day))
            }
            None => None,
        };
        let picture = match &self.picture {
            Some(data) => {
                let (bytes, format) = crate::pictures::parse_data(data)?;
                if format != crate::pictures::Format::Png {
                    return Err(AppError::bad_argument(
                        "`picture` of a card must be a PNG image",
                    ));
                }
                Some(bytes)
            }
            None => None,
        };
        let beat = match &self.beat {
            Some(b) => Some(code::Challenge::new(b.moves, b.ms)?),
            None => None,
        };
        let seconds = match (self.seconds, self.ms) {
            (None, None) => {
                return Err(AppError::bad_argument(
                    "`card` needs the time: `ms` (the finish's milliseconds) or `seconds`",
                ))
            }
            (Some(s), Some(ms)) if s.abs_diff(ms / 1000) > 1 => {
                return Err(AppError::bad_argument(format!(
                    "`card.seconds` {s} and `card.ms` {ms} are not the same time"
                )))
            }
            (Some(s), _) => s,
            (None, Some(ms)) => ms / 1000,
        };
        let theme = match &self.theme {
            Some(t) => Theme::parse(t)
                .map_err(|e| AppError::bad_argument(format!("`card.theme`: {}", e.message)))?,
            None => Theme::Light,
        };
        let spec = CardSpec {
            code: self.code.clone(),
            lang,
            theme,
            moves: self.moves,
            seconds,
            ms: self.ms,
            name: None,
            friends_beaten: None,
            optimum: self.optimum,
            stars: self.stars,
            score: self.score,
            best_tile: self.best_tile,
            date,
            picture,
            own_photo: false,
            beat,
            board: self.board.clone(),
        };
        // A board that does not fit the code's puzzle is a bad argument (a bad code is left
        // to the renderer: `bad_code`).
        if spec.board.is_some() && code::decode_full(&spec.code).is_ok() {
            huarong_card::board_shown(&spec)
                .map_err(|e| AppError::bad_argument(format!("`board`: {}", e.message)))?;
        }
        Ok(spec)
    }
}

impl crate::core::AppState {
    /// What the core adds to a card: the settings' display name; the theme when
    /// the settings name one (`light`, `dark`; `system` keeps the page's `theme`, else
    /// light); and for the card of a daily puzzle, how many friends on that daily's board
    /// this result beats (ranked as the board ranks: fewer moves, then less time, then
    /// verified; the card's result is the player's own, verified).
    pub fn fill_card(&self, spec: &mut CardSpec) {
        // The daily first, outside the store's lock: making that day's board to compare
        // (as `open_game` does) runs its generator; where it needs the 4×4 tables a build
        // has not installed yet, no rank.
        let daily = code::decode_full(&spec.code).ok().and_then(|d| {
            let n = d.daily?;
            matches!(crate::launch::daily_game(&d), Ok(Some(_))).then(|| (n, d.kind))
        });
        let store = self.store();
        let progress = &store.progress;
        let name = &progress.settings.name;
        spec.name = (!name.is_empty()).then(|| name.clone());
        match progress.settings.theme.as_str() {
            "light" => spec.theme = Theme::Light,
            "dark" => spec.theme = Theme::Dark,
            _ => {}
        }
        spec.friends_beaten = daily.map(|(n, kind)| {
            // Without the exact time (an older caller's whole seconds) a friend as fast to
            // the second is not counted as beaten.
            let mine = BoardResult {
                assisted: false,
                moves: spec.moves,
                ms: spec
                    .ms
                    .unwrap_or_else(|| spec.seconds.saturating_mul(1000).saturating_add(999)),
                score: spec.score,
                verified: true,
                // A scored game (2048) won when its best tile reached 2048.
                won: spec.score.map(|_| spec.best_tile.unwrap_or(0) >= 2048),
            };
            progress
                .friends
                .days
                .get(&n)
                .and_then(|day| day.friends.get(kind.as_str()))
                .map_or(0, |friends| {
                    friends.values().filter(|f| mine.better_than(f)).count() as u32
                })
        });
    }

    /// A picture sent with the card of a plain number-slide code is the player's own photo
    /// when their current slide game is a custom-photo puzzle of that very board (its code
    /// leaves the photo out): the card may show it (`CardSpec::own_photo`).
    pub fn mark_own_photo(&self, spec: &mut CardSpec) {
        use huarong_engine::slide::{pictures::CUSTOM, Slide};
        if spec.picture.is_none() {
            return;
        }
        let Ok(slot_ref) = self.current::<Slide>() else {
            return;
        };
        let id = crate::core::lock(&slot_ref).session.id().to_string();
        if !id.contains(&format!("/picture:{CUSTOM}")) {
            return;
        }
        let board = |c: &str| code::decode_full(c).ok().map(|d| (d.kind, d.board));
        let mine = code::encode(&id).ok().and_then(|c| board(&c));
        spec.own_photo = mine.is_some() && mine == board(&spec.code);
    }
}

/// Renders the card (tens of milliseconds in a release build).
pub fn card_png(spec: &CardSpec) -> AppResult<Vec<u8>> {
    Ok(huarong_card::render(spec)?)
}

/// The card as a `data:` URL.
pub fn card_data_url(spec: &CardSpec) -> AppResult<String> {
    Ok(format!(
        "data:image/png;base64,{}",
        base64(&card_png(spec)?)
    ))
}

/// `huarong-<YYYYMMDD>-<HHMMSS>.png` for a UTC time in milliseconds.
pub fn card_file_name(now_ms: i64) -> String {
    let date = Date::from_days(now_ms.div_euclid(86_400_000));
    let s = now_ms.rem_euclid(86_400_000) / 1000;
    format!(
        "huarong-{:04}{:02}{:02}-{:02}{:02}{:02}.png",
        date.year,
        date.month,
        date.day,
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}
