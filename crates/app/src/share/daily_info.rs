//! Today's daily challenge as the home screen shows it. Rust decides the local date (the
//! platform's clock and zone, the same as `AppState::today`); the UI only asks.

use crate::error::AppResult;
use huarong_engine::daily;
use serde::Serialize;
use std::collections::BTreeMap;

/// What `daily_info` returns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DailyInfo {
    pub number: u32,
    /// The local date `YYYY-MM-DD` of these puzzles.
    pub date: String,
    /// Game IDs of the day's puzzles (open with `open_game`), keyed by kind name
    /// (`slide`, `klotski`, `2048`: one key per game with a daily, from the engine's registry).
    #[serde(flatten)]
    pub puzzles: BTreeMap<String, String>,
    /// Milliseconds until the next puzzle (local midnight) and the same as `hh:mm:ss`.
    pub next_in_ms: u64,
    pub countdown: String,
}

/// The daily challenge at the local time `local_ms` (Unix milliseconds plus the zone's
/// offset, so that whole days of it are local dates).
pub fn daily_info_at(local_ms: i64) -> AppResult<DailyInfo> {
    let today = daily::local_date(local_ms);
    let p = daily::puzzles(today)?;
    let next = daily::next_in_ms(local_ms);
    Ok(DailyInfo {
        number: p.number,
        date: today.to_string(),
        puzzles: p
            .puzzles
            .iter()
            .map(|(k, id)| (k.as_str().to_string(), id.clone()))
            .collect(),
        next_in_ms: next,
        countdown: daily::countdown_text(next),
    })
}
