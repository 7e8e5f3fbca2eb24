//! Sharing (issue 7): the score card, share codes and the daily challenge, app side.
//!
//! Registered in `lib.rs::builder`. No capability entries are needed (own commands). On phones
//! `share_card` writes the PNG to a uniquely named file in the app cache and opens the system
//! share sheet with it through `mobile::share_file` (`tauri-plugin-sharekit`, registered in
//! `mobile.rs`, driven from Rust only). Android's chooser reports "cancelled" even after a
//! successful share, so a dismissed sheet is not an error. On desktop `share_card` saves the
//! PNG in the Pictures folder and returns the path for the UI to show ("saved to …").
//!
//! Like every command: snake_case argument and field names, errors are the one `AppError`
//! (`share_failed` when the card cannot be saved or shared). The table of commands is in
//! ARCHITECTURE.md ("IPC contract").
//!
//! - `card.rs`: the card arguments, rendering, saving the PNG;
//! - `codes.rs`: share codes and links;
//! - `daily_info.rs`: today's daily challenge.

mod card;
mod codes;
mod daily_info;

pub use card::base64;
pub use card::CardArgs;
pub use codes::{CodeInfo, DecodedInfo};
pub use daily_info::DailyInfo;

use crate::args;
use crate::commands::blocking;
use crate::error::{guard, AppResult};
use huarong_card::CardSpec;
use huarong_engine::code;
use serde::Serialize;
use serde_json::Value;
use tauri::{AppHandle, Runtime};

type Arg = Option<Value>;

/// Longest JSON accepted for a share argument read with [`arg`] (the card is about 200 bytes).
const MAX_ARG_JSON: usize = 4096;

fn arg<T: serde::de::DeserializeOwned>(name: &str, v: Arg) -> AppResult<T> {
    args::json(name, v, MAX_ARG_JSON)
}

/// Longest `card` JSON: the share argument plus a picture puzzle's image.
const MAX_CARD_JSON: usize = MAX_ARG_JSON + card::MAX_PICTURE_DATA;

/// The checked `card` argument.
fn card_spec(card: Arg) -> AppResult<CardSpec> {
    args::json::<CardArgs>("card", card, MAX_CARD_JSON)?.spec()
}

/// Where `share_card` put the card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShareOutcome {
    /// Desktop: the saved file in the Pictures folder.
    pub saved: Option<String>,
    /// Mobile: the card file the share sheet was opened with.
    pub file: Option<String>,
    /// Mobile: whether the system confirmed a share (iOS does; Android's chooser never says,
    /// so `false` there is not a failure). Desktop: `null`.
    pub shared: Option<bool>,
}

/// Render the card and save it (desktop) or share it with the system sheet (mobile).
#[tauri::command(rename_all = "snake_case")]
pub async fn share_card<R: Runtime>(app: AppHandle<R>, card: Arg) -> AppResult<ShareOutcome> {
    let spec = card_spec(card)?;
    let dir = card::card_dir(&app)?;
    #[cfg(mobile)]
    let window = tauri::Manager::get_webview_window(&app, "main")
        .ok_or_else(|| crate::error::AppError::internal("share_card: the main window is gone"))?;
    blocking("share_card", move || {
        let png = card::card_png(&spec)?;
        // A new file name per card (the iOS side keeps an older copy of the same name).
        let path = card::save_card(&png, &dir, card::now_ms())?;
        let file = path.to_string_lossy().into_owned();
        #[cfg(mobile)]
        {
            // The sheet blocks this worker thread until the player closes it.
            let outcome = crate::mobile::share_file(&window, &path, "image/png", "Huarong 华容")
                .map_err(crate::error::AppError::share_failed)?;
            Ok(ShareOutcome {
                saved: None,
                file: Some(file),
                shared: Some(outcome == crate::mobile::ShareOutcome::Shared),
            })
        }
        #[cfg(not(mobile))]
        {
            Ok(ShareOutcome {
                saved: Some(file),
                file: None,
                shared: None,
            })
        }
    })
    .await
}

/// The card as a `data:` URL, for the finish screen.
#[tauri::command(rename_all = "snake_case")]
pub async fn card_image(card: Arg) -> AppResult<String> {
    let spec = card_spec(card)?;
    blocking("card_image", move || card::card_data_url(&spec)).await
}

/// Today's daily challenge (the local date as Rust sees it; no arguments).
#[tauri::command(rename_all = "snake_case")]
pub fn daily_info() -> AppResult<DailyInfo> {
    guard("daily_info", || {
        daily_info::daily_info_at(daily_info::local_now_ms())
    })
}

/// The share code and link of a game ID, optionally with the sender's result to beat
/// (`moves` and `ms`, both or neither).
#[tauri::command(rename_all = "snake_case")]
pub async fn encode_code(
    id: Arg,
    daily: Arg,
    classic: Arg,
    moves: Arg,
    ms: Arg,
) -> AppResult<CodeInfo> {
    let id = args::string("id", id, args::MAX_OPEN)?;
    let extra = code::Extra {
        daily: arg("daily", daily)?,
        classic: arg("classic", classic)?,
    };
    let challenge = codes::challenge(arg("moves", moves)?, arg("ms", ms)?)?;
    blocking("encode_code", move || codes::encode(&id, extra, challenge)).await
}

/// What a code, link or game ID stands for (the "enter or paste a code" box).
#[tauri::command(rename_all = "snake_case")]
pub async fn decode_code(text: Arg) -> AppResult<DecodedInfo> {
    let text = args::string("text", text, args::MAX_OPEN)?;
    blocking("decode_code", move || codes::decode(&text)).await
}

#[cfg(test)]
mod tests;
