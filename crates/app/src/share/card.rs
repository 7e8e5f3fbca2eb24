//! The score card: its arguments as the UI sends them, rendering, and the name of its file
//! (the platform's `Share` saves or shares it).

use crate::error::{AppError, AppResult};
use crate::pictures::base64;
use huarong_card::{CardSpec, Lang};
use huarong_engine::code;
use huarong_engine::daily::Date;
use serde::Deserialize;

/// The `card` argument of `share_card` and `card_image` (snake_case keys; unknown keys are
/// refused).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardArgs {
    pub code: String,
    #[serde(default)]
    pub lang: Option<String>,
    pub moves: u32,
    pub seconds: u64,
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
        let spec = CardSpec {
            code: self.code.clone(),
            lang,
            moves: self.moves,
            seconds: self.seconds,
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
            huarong_card::finished_board(&spec)
                .map_err(|e| AppError::bad_argument(format!("`board`: {}", e.message)))?;
        }
        Ok(spec)
    }
}

impl crate::core::AppState {
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
