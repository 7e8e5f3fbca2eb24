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

/// The daily numbers whose daily of `kind` the player solved, oldest first: the days that
/// hold the player's own result of `kind` on the friends' boards (`friends.days[n].mine`,
/// written by every counted daily finish and kept ten years).
fn solved_days(p: &Progress, kind: Kind) -> impl Iterator<Item = u32> + '_ {
    p.friends
        .days
        .iter()
        .filter(move |(_, b)| b.mine.contains_key(kind.as_str()))
        .map(|(&n, _)| n)
}

/// The streak of a set of solved days (ascending daily numbers): `current` is the run of
/// consecutive days ending at the newest day, `best` the longest run, `last` the newest day.
pub(crate) fn streak_of(days: impl IntoIterator<Item = u32>) -> Streak {
    let (mut run, mut best, mut prev) = (0u32, 0u32, None::<u32>);
    for n in days {
        if prev == Some(n) {
            continue;
        }
        run = if prev.is_some_and(|p| p.checked_add(1) == Some(n)) {
            run.saturating_add(1)
        } else {
            1
        };
        best = best.max(run);
        prev = Some(n);
    }
    Streak {
        best,
        current: run,
        last: prev
            .and_then(|n| daily::date_of(n).ok())
            .map(|d| d.to_string())
            .unwrap_or_default(),
        ..Streak::default()
    }
}

/// `kind`'s daily streak once the daily of `day` is solved, derived from the set of days
/// solved (this one included) and stored in `p.streaks`. Only the set counts: the order of
/// the finishes, a re-solve, an undo and redo of the winning move or yesterday's daily
/// finished after today's change nothing.
pub(crate) fn apply_daily(p: &mut Progress, kind: Kind, day: Date) -> Streak {
    let mut days: Vec<u32> = solved_days(p, kind).collect();
    if let Ok(n) = daily::number(day) {
        if let Err(i) = days.binary_search(&n) {
            days.insert(i, n);
        }
    }
    let s = streak_of(days);
    p.streaks.insert(kind.as_str().to_string(), s.clone());
    s
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

    /// The player solved `kind`'s daily puzzle of `date` (`YYYY-MM-DD`; for tools and tests,
    /// not in the command table): the day joins the set of days solved (an own result without
    /// moves, unless the day has one) and the streak is derived again.
    pub fn record_daily(&self, kind: Kind, date: &str) -> AppResult<Streak> {
        let day = Date::parse(date)
            .map_err(|e| AppError::bad_argument(format!("date {date:?}: {}", e.message)))?;
        let n = daily::number(day).map_err(|e| AppError::bad_argument(e.message))?;
        let mut out = Streak::default();
        self.commit(|p| {
            let mine = &mut p.friends.days.entry(n).or_default().mine;
            mine.entry(kind.as_str().to_string()).or_default();
            out = apply_daily(p, kind, day);
        });
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

    /// A counted finish of the slide daily of `day` (its own result, then the streak).
    fn solve(p: &mut Progress, day: &str) -> (u32, u32) {
        let d = Date::parse(day).unwrap();
        let n = daily::number(d).unwrap();
        let s = apply_daily(p, Kind::Slide, d);
        p.friends
            .add_mine(n, "slide", crate::progress::BoardResult::default(), n);
        (s.current, s.best)
    }

    #[test]
    fn the_streak_is_the_run_of_solved_days_ending_at_the_newest() {
        let mut p = Progress::default();
        assert_eq!(solve(&mut p, "2026-03-01"), (1, 1));
        assert_eq!(solve(&mut p, "2026-03-02"), (2, 2));
        // Solved again, in any order: nothing changes.
        assert_eq!(solve(&mut p, "2026-03-01"), (2, 2));
        assert_eq!(solve(&mut p, "2026-03-02"), (2, 2));
        // A gap starts a new run; the best stays.
        assert_eq!(solve(&mut p, "2026-03-05"), (1, 2));
        // The days between, solved late, join the runs into one.
        assert_eq!(solve(&mut p, "2026-03-04"), (2, 2));
        assert_eq!(solve(&mut p, "2026-03-03"), (5, 5));
        assert_eq!(p.streaks["slide"].last, "2026-03-05");
        assert!(!p.streaks.contains_key("klotski"));
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
