//! Sharing (issue 7): the score card, share codes and the daily challenge, app side.
//!
//! Registered in `lib.rs::builder`. No capability entries are needed (own commands). On phones `share_card` writes the PNG to a
//! uniquely named file in the app cache and opens the system share sheet with it through
//! `mobile::share_file` (`tauri-plugin-sharekit`, registered in `mobile.rs`, driven from Rust
//! only). Android's chooser reports "cancelled" even after a successful share, so a dismissed
//! sheet is not an error. On desktop `share_card` saves the PNG in the Pictures folder and
//! returns the path for the UI to show ("saved to …").
//!
//! # Commands (JS names camelCase; errors are `{code, message}` like `AppError`)
//! | command | args | returns |
//! |---|---|---|
//! | `share_card` | `card` (below) | `{ saved: path \| null, file: path \| null, shared: bool \| null }` |
//! | `card_image` | `card` | `"data:image/png;base64,…"` (finish-screen preview) |
//! | `daily_info` | `localMs` (Date.now() − offset·60000), `lastSolved?` (`YYYY-MM-DD`), `streak?` | `DailyInfo` |
//! | `encode_code` | `id`, `daily?`, `classic?` (0-based), `moves?` + `ms?` (the sender's result, both or neither) | `{ code, link }` |
//! | `decode_code` | `text` (code, link or game ID) | `{ id, kind, board, daily, source, challenge: {moves, ms} \| null, picture }` |
//!
//! `card` = `{ code, lang?: "zh"\|"en", moves, seconds, optimum?, stars?, score?, bestTile?,
//! date?: "YYYY-MM-DD" }` (extra fields are refused).

use huarong_card::{CardSpec, Lang};
use huarong_engine::code;
use huarong_engine::daily::{self, Date};
use huarong_engine::Error as EngineError;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use tauri::{AppHandle, Manager, Runtime};

/// The error of these commands: the same JSON shape as the app's `AppError`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShareError {
    pub code: String,
    pub message: String,
}

impl ShareError {
    fn new(code: &str, message: impl Into<String>) -> ShareError {
        ShareError {
            code: code.to_string(),
            message: message.into(),
        }
    }
    fn bad_argument(message: impl Into<String>) -> ShareError {
        ShareError::new("bad_argument", message)
    }
    fn storage(message: impl Into<String>) -> ShareError {
        ShareError::new("storage", message)
    }
}

impl From<EngineError> for ShareError {
    fn from(e: EngineError) -> ShareError {
        ShareError::new(e.code.as_str(), e.message)
    }
}

impl std::fmt::Display for ShareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

/// The card arguments as the UI sends them.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
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
}

impl CardArgs {
    pub fn spec(&self) -> Result<CardSpec, ShareError> {
        if self.code.len() > code::MAX_INPUT_LEN {
            return Err(ShareError::bad_argument("`code` is too long"));
        }
        let lang = Lang::parse(self.lang.as_deref().unwrap_or("zh"))?;
        let date = match &self.date {
            Some(d) => {
                let d = Date::parse(d)?;
                Some((d.year, d.month, d.day))
            }
            None => None,
        };
        Ok(CardSpec {
            code: self.code.clone(),
            lang,
            moves: self.moves,
            seconds: self.seconds,
            optimum: self.optimum,
            stars: self.stars,
            score: self.score,
            best_tile: self.best_tile,
            date,
        })
    }
}

/// Renders the card (tens of milliseconds in a release build).
pub fn card_png(spec: &CardSpec) -> Result<Vec<u8>, ShareError> {
    Ok(huarong_card::render(spec)?)
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

/// Writes `png` into `dir` (created if needed) under a name no other file has (`-2`, `-3`, …
/// appended when needed; the file is created exclusively, so two saves never collide).
pub fn save_card(png: &[u8], dir: &Path, now_ms: i64) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let base = card_file_name(now_ms);
    let stem = base.trim_end_matches(".png");
    for n in 1..1000 {
        let name = if n == 1 {
            base.clone()
        } else {
            format!("{stem}-{n}.png")
        };
        let path = dir.join(name);
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(mut f) => {
                f.write_all(png)
                    .and_then(|_| f.sync_all())
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("cannot write {}: {e}", path.display())),
        }
    }
    Err(format!(
        "too many cards named {stem}-… in {}",
        dir.display()
    ))
}

/// Desktop: save the card in the Pictures folder (falling back to ~/Pictures, then the
/// download folder) and return where.
pub fn save_card_desktop(png: &[u8], dir: &Path) -> Result<PathBuf, String> {
    save_card(png, dir, now_ms())
}

/// The folder desktop cards go to.
pub fn pictures_dir<R: Runtime>(app: &AppHandle<R>) -> Result<PathBuf, String> {
    let paths = app.path();
    paths
        .picture_dir()
        .or_else(|_| paths.home_dir().map(|h| h.join("Pictures")))
        .or_else(|_| paths.download_dir())
        .map_err(|e| format!("no folder to save the card in: {e}"))
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// Standard base64 (with padding), for data URLs and the share plugins.
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn arg<T: serde::de::DeserializeOwned>(name: &str, v: Option<Value>) -> Result<T, ShareError> {
    let v = v.unwrap_or(Value::Null);
    if v.to_string().len() > 4096 {
        return Err(ShareError::bad_argument(format!("`{name}` is too long")));
    }
    serde_json::from_value(v).map_err(|e| ShareError::bad_argument(format!("`{name}`: {e}")))
}

async fn blocking<T: Send + 'static>(
    what: &str,
    f: impl FnOnce() -> Result<T, ShareError> + Send + 'static,
) -> Result<T, ShareError> {
    tauri::async_runtime::spawn_blocking(move || {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
    })
    .await
    .map_err(|e| ShareError::new("internal", format!("{what}: worker failed: {e}")))?
    .map_err(|_| {
        ShareError::new(
            "internal",
            format!("{what}: a bug stopped the work (panic)"),
        )
    })?
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

/// Render the card and save it (desktop) or prepare it for the share sheet (mobile).
#[tauri::command]
pub async fn share_card<R: Runtime>(
    app: AppHandle<R>,
    card: Option<Value>,
) -> Result<ShareOutcome, ShareError> {
    let args: CardArgs = arg("card", card)?;
    let spec = args.spec()?;
    #[cfg(mobile)]
    let dir = app
        .path()
        .app_cache_dir()
        .map(|d| d.join("cards"))
        .map_err(|e| ShareError::storage(format!("no cache folder: {e}")))?;
    #[cfg(mobile)]
    let window = app
        .get_webview_window("main")
        .ok_or_else(|| ShareError::new("internal", "share_card: the main window is gone"))?;
    #[cfg(not(mobile))]
    let dir = pictures_dir(&app).map_err(ShareError::storage)?;
    blocking("share_card", move || {
        let png = card_png(&spec)?;
        #[cfg(mobile)]
        {
            // A new file name per share (the iOS side keeps an older copy of the same name);
            // the sheet blocks this worker thread until the player closes it.
            let path = save_card(&png, &dir, now_ms()).map_err(ShareError::storage)?;
            let outcome = crate::mobile::share_file(&window, &path, "image/png", "Huarong 华容")
                .map_err(|e| ShareError::new("share_failed", e))?;
            Ok(ShareOutcome {
                saved: None,
                file: Some(path.to_string_lossy().into_owned()),
                shared: Some(outcome == crate::mobile::ShareOutcome::Shared),
            })
        }
        #[cfg(not(mobile))]
        {
            let path = save_card_desktop(&png, &dir).map_err(ShareError::storage)?;
            Ok(ShareOutcome {
                saved: Some(path.to_string_lossy().into_owned()),
                file: None,
                shared: None,
            })
        }
    })
    .await
}

/// The card as a `data:` URL, for the finish screen.
#[tauri::command]
pub async fn card_image(card: Option<Value>) -> Result<String, ShareError> {
    let args: CardArgs = arg("card", card)?;
    let spec = args.spec()?;
    blocking("card_image", move || {
        Ok(format!(
            "data:image/png;base64,{}",
            base64(&card_png(&spec)?)
        ))
    })
    .await
}

/// Today's daily challenge as the home screen shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DailyInfo {
    pub number: u32,
    pub date: String,
    /// Game IDs of the day's puzzles (open with `open_game`).
    pub slide: String,
    pub klotski: String,
    #[serde(rename = "2048")]
    pub g2048: String,
    /// Milliseconds until the next puzzle (local midnight) and the same as `hh:mm:ss`.
    pub next_in_ms: u64,
    pub countdown: String,
    /// The streak to show today (0 when broken), from the caller's stored streak.
    pub streak: u32,
}

/// The daily challenge for the local time `local_ms` (UTC ms + the zone offset, which the
/// UI knows: `Date.now() - new Date().getTimezoneOffset() * 60000`). `last_solved` and
/// `streak` are the stored streak (the day last solved and the count then); after a solve,
/// the app stores `daily::streak(previous, today)`.
pub fn daily_info_at(
    local_ms: i64,
    last_solved: Option<&str>,
    streak: Option<u32>,
) -> Result<DailyInfo, ShareError> {
    let today = daily::local_date(local_ms);
    let p = daily::puzzles(today)?;
    let previous = match last_solved {
        Some(d) => Some((Date::parse(d)?, streak.unwrap_or(1))),
        None => None,
    };
    let next = daily::next_in_ms(local_ms);
    Ok(DailyInfo {
        number: p.number,
        date: today.to_string(),
        slide: p.id(huarong_engine::Kind::Slide).unwrap_or_default().into(),
        klotski: p
            .id(huarong_engine::Kind::Klotski)
            .unwrap_or_default()
            .into(),
        g2048: p.id(huarong_engine::Kind::G2048).unwrap_or_default().into(),
        next_in_ms: next,
        countdown: daily::countdown_text(next),
        streak: daily::streak_shown(previous, today),
    })
}

#[tauri::command]
pub fn daily_info(
    local_ms: Option<Value>,
    last_solved: Option<Value>,
    streak: Option<Value>,
) -> Result<DailyInfo, ShareError> {
    let local_ms: i64 = arg("localMs", local_ms)?;
    let last_solved: Option<String> = arg("lastSolved", last_solved)?;
    let streak: Option<u32> = arg("streak", streak)?;
    daily_info_at(local_ms, last_solved.as_deref(), streak)
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CodeInfo {
    pub code: String,
    pub link: String,
}

/// The share code and link of a game ID (generates the level for seeded IDs).
#[tauri::command]
pub async fn encode_code(
    id: Option<Value>,
    daily: Option<Value>,
    classic: Option<Value>,
    moves: Option<Value>,
    ms: Option<Value>,
) -> Result<CodeInfo, ShareError> {
    let id: String = arg("id", id)?;
    let extra = code::Extra {
        daily: arg("daily", daily)?,
        classic: arg("classic", classic)?,
    };
    // The sender's result (issue 16): both `moves` and `ms`, or neither.
    let moves: Option<u32> = arg("moves", moves)?;
    let ms: Option<u64> = arg("ms", ms)?;
    let challenge = match (moves, ms) {
        (None, None) => None,
        (Some(m), Some(t)) => Some(code::Challenge::new(m, t)?),
        _ => {
            return Err(ShareError::bad_argument(
                "a result to beat needs both `moves` and `ms`",
            ))
        }
    };
    blocking("encode_code", move || {
        let c = code::encode_full(&id, extra, challenge)?;
        Ok(CodeInfo {
            link: code::link(&c),
            code: c,
        })
    })
    .await
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DecodedInfo {
    /// The game ID to open.
    pub id: String,
    pub kind: String,
    /// The exact start board.
    pub board: String,
    pub daily: Option<u32>,
    /// The level's own ID where there is one (`slide:4x4/medium#7`, a classic's board…).
    pub source: String,
    /// The sender's result to beat, `{moves, ms}`, when the code carries one.
    pub challenge: Option<code::Challenge>,
    /// The picture of a picture puzzle, when there is one.
    pub picture: Option<String>,
}

/// What a code, link or game ID stands for (the "enter or paste a code" box).
#[tauri::command]
pub async fn decode_code(text: Option<Value>) -> Result<DecodedInfo, ShareError> {
    let text: String = arg("text", text)?;
    blocking("decode_code", move || {
        let t = text.trim();
        if code::is_game_id(t) {
            let id = code::resolve(t)?;
            let parsed = huarong_engine::GameId::parse(&id)?;
            return Ok(DecodedInfo {
                kind: parsed.kind.as_str().to_string(),
                board: parsed.body.clone(),
                daily: None,
                source: id.clone(),
                challenge: None,
                picture: huarong_engine::slide::split_picture(&parsed.body)
                    .ok()
                    .and_then(|(_, p)| p)
                    .filter(|_| parsed.kind == huarong_engine::Kind::Slide),
                id,
            });
        }
        let d = code::decode_full(t)?;
        Ok(DecodedInfo {
            source: d.source_id(),
            id: d.id,
            kind: d.kind.as_str().to_string(),
            board: d.board,
            daily: d.daily,
            challenge: d.challenge,
            picture: d.picture,
        })
    })
    .await
}

#[cfg(test)]
mod tests;
