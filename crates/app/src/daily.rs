//! The one "today" of the app (the local date, decided here; the UI reads it from
//! `get_progress().today`), the daily streaks, and the calendar of the days a daily was
//! solved (`daily_calendar`, from the player's own results kept on the friends' boards).

use crate::core::AppState;
use crate::error::{AppError, AppResult};
use crate::progress::{Progress, Streak};
use huarong_engine::daily::{self, Date};
use huarong_engine::Kind;
use serde::Serialize;

/// Most weeks `daily_calendar` shows.
pub const MAX_CALENDAR_WEEKS: u32 = 53;
/// Weeks `daily_calendar` shows when not asked.
pub const CALENDAR_WEEKS: u32 = 5;

/// One day of the calendar.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CalendarDay {
    /// `YYYY-MM-DD`.
    pub date: String,
    /// The player solved this day's daily puzzle of the kind (2048: played it to its end).
    pub done: bool,
    /// A day after today (the rest of this week).
    pub future: bool,
}

/// What `daily_calendar` returns: whole weeks, Monday first, the last one holding today.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DailyCalendar {
    pub kind: String,
    pub today: String,
    pub weeks: u32,
    /// Days done in the calendar.
    pub solved: u32,
    /// `weeks × 7` days, oldest first.
    pub days: Vec<CalendarDay>,
}

/// The calendar of `weeks` whole weeks (Monday first) up to the week of `today`: the days
/// whose daily of `kind` the player's own results (`friends.days[n].mine`) say were solved.
pub(crate) fn calendar(p: &Progress, kind: Kind, today: Date, weeks: u32) -> DailyCalendar {
    let weeks = weeks.clamp(1, MAX_CALENDAR_WEEKS);
    // 1970-01-01 was a Thursday: Monday is 0.
    let weekday = (today.days() + 3).rem_euclid(7);
    let first = today.days() - weekday - 7 * (i64::from(weeks) - 1);
    let days: Vec<CalendarDay> = (0..i64::from(weeks) * 7)
        .map(|i| {
            let day = Date::from_days(first + i);
            let future = day > today;
            let done = !future
                && daily::number(day).is_ok_and(|n| {
                    p.friends
                        .days
                        .get(&n)
                        .is_some_and(|b| b.mine.contains_key(kind.as_str()))
                });
            CalendarDay {
                date: day.to_string(),
                done,
                future,
            }
        })
        .collect();
    DailyCalendar {
        kind: kind.as_str().to_string(),
        today: today.to_string(),
        weeks,
        solved: days.iter().filter(|d| d.done).count() as u32,
        days,
    }
}

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
        .find(|d| daily::puzzles(*d).is_ok_and(|p| p.id(kind) == Some(id)))
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

    /// `daily_calendar {kind, weeks?}`: the last `weeks` weeks (default
    /// [`CALENDAR_WEEKS`], at most [`MAX_CALENDAR_WEEKS`]) of `kind`'s daily, solved or not.
    pub fn daily_calendar(&self, kind: Kind, weeks: Option<u32>) -> AppResult<DailyCalendar> {
        let weeks = weeks.unwrap_or(CALENDAR_WEEKS);
        if !(1..=MAX_CALENDAR_WEEKS).contains(&weeks) {
            return Err(AppError::bad_argument(format!(
                "weeks {weeks}: from 1 to {MAX_CALENDAR_WEEKS}"
            )));
        }
        let today = self.today();
        let day = Date::parse(&today)
            .map_err(|e| AppError::internal(format!("today {today:?}: {}", e.message)))?;
        Ok(calendar(&self.store().progress, kind, day, weeks))
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

    #[test]
    fn the_calendar_is_whole_weeks_from_monday_with_the_own_results_marked() {
        let mut p = Progress::default();
        let n = |d: &str| daily::number(Date::parse(d).unwrap()).unwrap();
        let mine = crate::progress::BoardResult {
            moves: 30,
            ms: 60_000,
            verified: true,
            ..Default::default()
        };
        let today = n("2026-03-02");
        p.friends.add_mine(n("2026-03-01"), "slide", mine, today);
        p.friends.add_mine(n("2026-02-23"), "klotski", mine, today);
        // A result dated after today (a clock that was ahead) is no done day yet.
        p.friends.add_mine(n("2026-03-04"), "slide", mine, today);
        let done = |c: &DailyCalendar| -> Vec<String> {
            c.days
                .iter()
                .filter(|d| d.done)
                .map(|d| d.date.clone())
                .collect()
        };
        // 2026-03-02 is a Monday: two weeks from 2026-02-23, six days of them still to come.
        let c = calendar(&p, Kind::Slide, Date::parse("2026-03-02").unwrap(), 2);
        assert_eq!(c.days.len(), 14);
        assert_eq!(c.days[0].date, "2026-02-23");
        assert_eq!(c.days[13].date, "2026-03-08");
        assert_eq!(c.days.iter().filter(|d| d.future).count(), 6);
        assert_eq!(done(&c), ["2026-03-01"]);
        assert_eq!(c.solved, 1);
        let k = calendar(&p, Kind::Klotski, Date::parse("2026-03-02").unwrap(), 2);
        assert_eq!(done(&k), ["2026-02-23"]);
        // A Sunday ends its week: nothing to come; the days after are done once they are past.
        let c = calendar(&p, Kind::Slide, Date::parse("2026-03-08").unwrap(), 1);
        assert_eq!(c.days[0].date, "2026-03-02");
        assert!(c.days.iter().all(|d| !d.future));
        assert_eq!(done(&c), ["2026-03-04"]);
        // Weeks are clamped to 1..=53 here (the command refuses others).
        let c = calendar(&p, Kind::Slide, Date::parse("2026-03-08").unwrap(), 900);
        assert_eq!(c.days.len(), 53 * 7);
        assert_eq!(done(&c), ["2026-03-01", "2026-03-04"]);
    }
}
