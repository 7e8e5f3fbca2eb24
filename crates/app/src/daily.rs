//! The one "today" of the app (the local date, decided here; the UI reads it from
//! `get_progress().today`) and the daily streaks.

use crate::core::AppState;
use crate::error::{AppError, AppResult};
use crate::progress::{Progress, Streak};
use huarong_engine::daily::{self, Date};
use huarong_engine::Kind;

/// Extend `kind`'s daily streak with a solve of the puzzle of `day` (the engine's rule:
/// consecutive days grow it, a gap restarts it, an older day changes nothing).
pub(crate) fn apply_daily(p: &mut Progress, kind: Kind, day: Date) -> Streak {
    let s = p.streaks.entry(kind.as_str().to_string()).or_default();
    let previous = Date::parse(&s.last).ok().map(|d| (d, s.current));
    let (last, count) = daily::streak(previous, day);
    s.last = last.to_string();
    s.current = count;
    s.best = s.best.max(count);
    s.clone()
}

/// If `id` is the daily puzzle of `kind` for today or yesterday (a game begun before
/// midnight), that day.
pub(crate) fn daily_day(kind: Kind, id: &str, today: &str) -> Option<Date> {
    let today = Date::parse(today).ok()?;
    [today, Date::from_days(today.days() - 1)]
        .into_iter()
        .find(|d| {
            daily::puzzles(*d)
                .is_ok_and(|p| huarong_engine::registry::daily_id(&p, kind) == Some(id))
        })
}

impl AppState {
    /// The local date `YYYY-MM-DD` (the platform's clock and time zone).
    pub fn today(&self) -> String {
        crate::platform::today(self.platform().clock.as_ref())
    }

    /// The player solved `kind`'s daily puzzle of `date` (`YYYY-MM-DD`): extend the streak
    /// (consecutive days), or start a new one. Solving the same day twice changes nothing.
    pub fn record_daily(&self, kind: Kind, date: &str) -> AppResult<Streak> {
        let day = Date::parse(date)
            .map_err(|e| AppError::bad_argument(format!("date {date:?}: {}", e.message)))?;
        let mut out = Streak::default();
        self.commit(|p| out = apply_daily(p, kind, day));
        Ok(out)
    }
}
