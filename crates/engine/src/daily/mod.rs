//! The daily challenge: one puzzle per game per calendar day, the same for
//! everyone, a pure function of the date.
//!
//! Day number `n` = days since [`EPOCH`] (2025-12-31), so 2026-01-01 is daily #1. Each
//! game's seed is FNV-1a of `"huarong daily <n> <game>"` and its puzzle is
//! `<game>:<params>#<seed>`, with the game's daily parameters
//! ([`crate::registry::Registered::DAILY`]):
//! - number slide: `slide:4x4/medium#<seed>` (optimal length 31–40 tile moves),
//! - Klotski: `klotski:30-60#<seed>` (a generated level of 30–60 piece moves),
//! - 2048: `2048:#<seed>` (a seeded game, judged by score).
//!
//! A day's puzzle must never change once released: `golden.tsv` pins the start boards of
//! days 1–60 and the test fails if a generator or this module changes any of them.
//!
//! Dates are local calendar dates: the caller turns its clock into a [`Date`] (the engine
//! reads no clock); [`local_date`] and [`next_in_ms`] do the arithmetic from a local
//! timestamp (UTC milliseconds plus the zone offset).

use crate::code;
use crate::error::{Error, Result};
use crate::game::Kind;
use crate::registry;
use crate::rng::fnv1a64;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Day 0 of the daily numbering (no puzzle): daily #1 is the day after.
pub const EPOCH: Date = Date {
    year: 2025,
    month: 12,
    day: 31,
};
/// The last date with a daily number (keeps numbers small and bounded).
pub const LAST: Date = Date {
    year: 2999,
    month: 12,
    day: 31,
};

/// A calendar date (proleptic Gregorian).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Date {
    pub year: i32,
    pub month: u32,
    pub day: u32,
}

fn is_leap(y: i32) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i32, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(y) => 29,
        2 => 28,
        _ => 0,
    }
}

impl Date {
    /// A checked date.
    pub fn new(year: i32, month: u32, day: u32) -> Result<Date> {
        if !(1..=9999).contains(&year)
            || !(1..=12).contains(&month)
            || day == 0
            || day > days_in_month(year, month)
        {
            return Err(Error::range(format!(
                "{year:04}-{month:02}-{day:02} is not a calendar date"
            )));
        }
        Ok(Date { year, month, day })
    }

    /// `YYYY-MM-DD`.
    pub fn parse(text: &str) -> Result<Date> {
        let t = text.trim();
        let parts: Vec<&str> = t.split('-').collect();
        let ok = parts.len() == 3
            && parts[0].len() == 4
            && parts[1].len() == 2
            && parts[2].len() == 2
            && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()));
        if !ok {
            return Err(Error::parse(format!(
                "date {t:?} is not of the form YYYY-MM-DD"
            )));
        }
        let num = |s: &str| s.parse::<u32>().unwrap_or(0);
        Date::new(num(parts[0]) as i32, num(parts[1]), num(parts[2]))
    }

    /// Days since 1970-01-01 (negative before).
    pub fn days(self) -> i64 {
        // Shift the year to start in March so the leap day is last.
        let y = self.year as i64 - if self.month <= 2 { 1 } else { 0 };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = self.month as i64;
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + self.day as i64 - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// The date `days` days after 1970-01-01.
    pub fn from_days(days: i64) -> Date {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = (yoe + era * 400 + if month <= 2 { 1 } else { 0 }) as i32;
        Date { year, month, day }
    }

    pub fn succ(self) -> Date {
        Date::from_days(self.days() + 1)
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// The daily number of a date (≥ 1).
pub fn number(date: Date) -> Result<u32> {
    let date = Date::new(date.year, date.month, date.day)?;
    if date <= EPOCH || date > LAST {
        return Err(Error::range(format!(
            "daily challenges exist from {} to {LAST}; {date} is outside",
            EPOCH.succ()
        )));
    }
    Ok((date.days() - EPOCH.days()) as u32)
}

/// The date of daily number `n`.
pub fn date_of(n: u32) -> Result<Date> {
    let last = number(LAST)?;
    if n == 0 || n > last {
        return Err(Error::range(format!(
            "daily #{n} does not exist (numbers run from 1 to {last})"
        )));
    }
    Ok(Date::from_days(EPOCH.days() + n as i64))
}

/// The seed of a game's daily puzzle on day `n`.
pub fn seed(n: u32, game: &str) -> u64 {
    fnv1a64(format!("huarong daily {n} {game}").as_bytes())
}

/// One day's puzzles, as game IDs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Daily {
    pub number: u32,
    pub date: Date,
    /// The game ID of every game with a daily puzzle, in [`Kind::ALL`] order.
    pub puzzles: Vec<(Kind, String)>,
}

impl Daily {
    /// The game ID of `kind`'s puzzle (`None`: the game has no daily).
    pub fn id(&self, kind: Kind) -> Option<&str> {
        self.puzzles
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, id)| id.as_str())
    }
}

/// The puzzles of `date` (a pure function of the date; generates nothing).
pub fn puzzles(date: Date) -> Result<Daily> {
    let n = number(date)?;
    let puzzles = Kind::ALL
        .into_iter()
        .filter_map(|k| {
            let params = registry::daily_params(k)?;
            let name = k.as_str();
            Some((k, format!("{name}:{params}#{}", seed(n, name))))
        })
        .collect();
    Ok(Daily {
        number: n,
        date,
        puzzles,
    })
}

/// One day's share codes (marked with the daily number), in [`Kind::ALL`] order; as JSON
/// an object keyed by game name (`{"slide": …, "klotski": …, "2048": …}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Codes(pub Vec<(Kind, String)>);

impl Codes {
    /// The share code of `kind`'s puzzle (`None`: the game has no daily).
    pub fn get(&self, kind: Kind) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, c)| c.as_str())
    }
}

impl Serialize for Codes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (kind, code) in &self.0 {
            map.serialize_entry(kind.as_str(), code)?;
        }
        map.end()
    }
}

/// The share codes of `date`'s puzzles (generates the levels: tens of milliseconds).
pub fn codes(date: Date) -> Result<Codes> {
    let d = puzzles(date)?;
    let extra = code::Extra {
        daily: Some(d.number),
        classic: None,
    };
    let codes = d
        .puzzles
        .iter()
        .map(|(k, id)| Ok((*k, code::encode_with(id, extra)?)))
        .collect::<Result<_>>()?;
    Ok(Codes(codes))
}

/// The streak after the player solves `today`'s daily, given the last day they solved one
/// and the streak then: the same day counts once, the next day adds one, a gap starts
/// over at 1. A `previous` later than `today` (the clock or time zone moved back) keeps
/// the streak as it was, without counting `today` twice.
pub fn streak(previous: Option<(Date, u32)>, today: Date) -> (Date, u32) {
    match previous {
        Some((last, count)) if last >= today => (last, count.max(1)),
        Some((last, count)) if last.days() + 1 == today.days() => (today, count.saturating_add(1)),
        _ => (today, 1),
    }
}

/// The streak to show on `today` before playing: still alive if the last solved day is
/// today or yesterday, else 0.
pub fn streak_shown(previous: Option<(Date, u32)>, today: Date) -> u32 {
    match previous {
        Some((last, count)) if last.days() + 1 >= today.days() => count,
        _ => 0,
    }
}

const DAY_MS: i64 = 86_400_000;

/// The local calendar date of a local timestamp (UTC milliseconds + zone offset).
pub fn local_date(local_ms: i64) -> Date {
    Date::from_days(local_ms.div_euclid(DAY_MS))
}

/// Milliseconds from a local timestamp to the next local midnight, when the next daily
/// puzzle appears (1 … 86 400 000; a zone change at midnight is not foreseen).
pub fn next_in_ms(local_ms: i64) -> u64 {
    (DAY_MS - local_ms.rem_euclid(DAY_MS)) as u64
}

/// `hh:mm:ss` of a countdown in milliseconds (rounded up to whole seconds).
pub fn countdown_text(ms: u64) -> String {
    let s = ms.div_ceil(1000);
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests;
