//! The one "today" of the app (the local date, decided here; the UI reads it from
//! `get_progress().today`) and the daily streaks.

use crate::core::AppState;
use crate::error::{AppError, AppResult};
use crate::progress::{Progress, Streak};
use huarong_engine::daily::{self, Date};
use huarong_engine::Kind;

/// Extend `kind`'s daily streak with a solve of the puzzle of `day`.
///
/// The rule (ARCHITECTURE.md, "Daily streaks and the clock"): the same day changes nothing;
/// the next day grows the streak; a gap starts a new run of 1 and keeps the run it ended
/// aside (`held`). A day *before* the last one can only come from a clock that was ahead
/// and came back: if it is the day after the held run, that run resumes (+1) and the
/// future-dated run is dropped; otherwise the streak keeps its count and its last day
/// becomes this day, so the days up to the future date count again (no freeze).
pub(crate) fn apply_daily(p: &mut Progress, kind: Kind, day: Date) -> Streak {
    let s = p.streaks.entry(kind.as_str().to_string()).or_default();
    let last = Date::parse(&s.last).ok();
    let held = Date::parse(&s.held_last).ok().filter(|_| s.held > 0);
    match last {
        Some(l) if day < l => {
            match held {
                Some(h) if h.days() + 1 == day.days() => {
                    s.current = s.held.saturating_add(1);
                }
                Some(h) if h == day => s.current = s.held,
                _ => s.current = s.current.max(1),
            }
            s.held_last.clear();
            s.held = 0;
            s.last = day.to_string();
        }
        _ => {
            let previous = last.map(|d| (d, s.current));
            let (next, count) = daily::streak(previous, day);
            if let Some(l) = last.filter(|l| l.days() + 1 < day.days()) {
                // A gap: keep the run it ended, in case the clock was ahead.
                s.held_last = l.to_string();
                s.held = s.current;
            } else if last.is_some_and(|l| l.days() + 1 == day.days()) {
                s.held_last.clear();
                s.held = 0;
            }
            s.last = next.to_string();
            s.current = count;
        }
    }
    s.best = s.best.max(s.current);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(p: &mut Progress, day: &str) -> u32 {
        apply_daily(p, Kind::Slide, Date::parse(day).unwrap()).current
    }

    #[test]
    fn a_clock_ahead_and_back_neither_freezes_nor_breaks_the_streak() {
        let mut p = Progress::default();
        assert_eq!(solve(&mut p, "2026-03-01"), 1);
        assert_eq!(solve(&mut p, "2026-03-02"), 2);
        // The clock jumps ten days ahead, a daily is solved there…
        assert_eq!(solve(&mut p, "2026-03-12"), 1);
        // …and comes back: the real next day continues the run, and so on.
        assert_eq!(solve(&mut p, "2026-03-03"), 3);
        assert_eq!(solve(&mut p, "2026-03-04"), 4);
        assert_eq!(p.streaks["slide"].best, 4);
        // A clock one day ahead, then back: the streak is not frozen until that day.
        let mut p = Progress::default();
        solve(&mut p, "2026-03-01");
        assert_eq!(solve(&mut p, "2026-03-02"), 2);
        assert_eq!(solve(&mut p, "2026-03-01"), 2);
        assert_eq!(solve(&mut p, "2026-03-02"), 3);
        // A real gap still restarts it; the same day twice changes nothing.
        assert_eq!(solve(&mut p, "2026-03-09"), 1);
        assert_eq!(solve(&mut p, "2026-03-09"), 1);
        assert_eq!(solve(&mut p, "2026-03-10"), 2);
    }
}
