//! Sharing: the score card, share codes and the daily challenge, core side.
//!
//! `share_card` renders the card and hands the PNG to the platform's [`Share`] service: the
//! desktop saves it in the Pictures folder and returns the path for the UI to show ("saved to
//! …"); phones write it to a uniquely named file in the app cache and open the system share
//! sheet with it (Android's chooser reports "cancelled" even after a successful share, so a
//! dismissed sheet is not an error).
//!
//! Like every command: snake_case argument and field names, errors are the one `AppError`
//! (`share_failed` when the card cannot be saved or shared). The table of commands is in
//! ARCHITECTURE.md ("IPC contract").
//!
//! - `card.rs`: the card arguments, rendering, the card's file name;
//! - `codes.rs`: share codes and links;
//! - `daily_info.rs`: today's daily challenge;
//! - `finish_share.rs`: `share`, the finish's one call: code, result code, card and text from
//!   the slot's own finish.

mod card;
mod codes;
mod daily_info;
mod finish_share;

pub use crate::pictures::{base64, decode_base64};
pub use card::CardArgs;
pub use codes::{CodeInfo, DecodedInfo};
pub use daily_info::DailyInfo;
pub use finish_share::Shared;

use crate::args::{self, Args};
use crate::core::AppState;
use crate::error::{AppError, AppResult};
use crate::platform::{self, Platform, ShareOutcome};
use huarong_card::CardSpec;
use huarong_engine::code;

/// Longest JSON accepted for a share argument read with `json` (the card is about 200 bytes).
const MAX_ARG_JSON: usize = 4096;

/// Longest `card` JSON: the share argument plus a picture puzzle's image.
const MAX_CARD_JSON: usize = MAX_ARG_JSON + card::MAX_PICTURE_DATA;

/// The checked `card` argument, with what the core adds: the player's own photo, name,
/// theme and rank among friends ([`AppState::fill_card`]).
pub fn card_spec(st: &AppState, a: &mut Args) -> AppResult<CardSpec> {
    // Without the `card` feature (the web page's first wasm) the card commands fail at once
    // with `Unsupported` (`huarong_engine::NOT_IN_BUILD`) and the renderer is not linked.
    if !cfg!(feature = "card") {
        return Err(AppError::new(
            huarong_engine::ErrorCode::Unsupported,
            format!("the share card is {}", huarong_engine::NOT_IN_BUILD),
        ));
    }
    let mut spec = args::json::<CardArgs>("card", a.take("card"), MAX_CARD_JSON)?.spec()?;
    st.mark_own_photo(&mut spec);
    st.fill_card(&mut spec);
    Ok(spec)
}

/// The checked arguments of `share`: the language and theme to say it in, and a picture
/// puzzle's image for the card (the only thing the page renders itself). No result field is
/// an argument: the finish is the slot's own.
pub fn share_args(
    a: &mut Args,
) -> AppResult<(huarong_card::Lang, huarong_card::Theme, Option<Vec<u8>>)> {
    let lang = args::opt_string("lang", a.take("lang"), 16)?;
    let lang = huarong_card::Lang::parse(lang.as_deref().unwrap_or("zh"))
        .map_err(|e| AppError::bad_argument(format!("`lang`: {}", e.message)))?;
    let theme = args::opt_string("theme", a.take("theme"), 16)?;
    let theme = huarong_card::Theme::parse(theme.as_deref().unwrap_or("light"))
        .map_err(|e| AppError::bad_argument(format!("`theme`: {}", e.message)))?;
    let picture = match args::opt_string("picture", a.take("picture"), card::MAX_PICTURE_DATA)? {
        Some(data) => {
            let (bytes, format) = crate::pictures::parse_data(&data)?;
            if format != crate::pictures::Format::Png {
                return Err(AppError::bad_argument("`picture` must be a PNG image"));
            }
            Some(bytes)
        }
        None => None,
    };
    Ok((lang, theme, picture))
}

/// Render the card and save it (desktop) or share it with the system sheet (phones).
pub fn share_card(platform: &Platform, spec: &CardSpec) -> AppResult<ShareOutcome> {
    let png = card::card_png(spec)?;
    // A new file name per card (the iOS side keeps an older copy of the same name).
    let name = card::card_file_name(platform.clock.wall_ms() as i64);
    platform.share.share_png(&png, &name)
}

/// The card as a `data:` URL, for the finish screen.
pub fn card_image(spec: &CardSpec) -> AppResult<String> {
    card::card_data_url(spec)
}

/// Today's daily challenge (the local date as the platform's clock sees it).
pub fn daily_info(platform: &Platform) -> AppResult<DailyInfo> {
    daily_info::daily_info_at(platform::local_ms(platform.clock.as_ref()))
}

/// The checked arguments of `encode_code`: the game ID, the daily/classic extras and the
/// sender's result to beat (`moves` and `ms`, both or neither).
pub fn encode_args(a: &mut Args) -> AppResult<(String, code::Extra, Option<code::Challenge>)> {
    let id = args::string("id", a.take("id"), args::MAX_OPEN)?;
    let extra = code::Extra {
        daily: args::json("daily", a.take("daily"), MAX_ARG_JSON)?,
        classic: args::json("classic", a.take("classic"), MAX_ARG_JSON)?,
    };
    let challenge = codes::challenge(
        args::json("moves", a.take("moves"), MAX_ARG_JSON)?,
        args::json("ms", a.take("ms"), MAX_ARG_JSON)?,
    )?;
    Ok((id, extra, challenge))
}

/// The share code and link of a game ID.
pub fn encode_code(
    id: &str,
    extra: code::Extra,
    challenge: Option<code::Challenge>,
) -> AppResult<CodeInfo> {
    codes::encode(id, extra, challenge)
}

/// What a code, link or game ID stands for (the "enter or paste a code" box).
pub fn decode_code(text: &str) -> AppResult<DecodedInfo> {
    codes::decode(text)
}

#[cfg(test)]
mod tests;
