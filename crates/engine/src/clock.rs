//! The monotonic clock that bounds searches, passed in by the caller.
//!
//! The engine keeps no time of its own: every search with a deadline (`hint_within`,
//! `solve_within`, the 2048 AI's [`Budget::Millis`](crate::g2048::ai::Budget), the
//! pattern-database and near-optimal searches' [`Limit`](crate::slide::Limit)) reads the
//! [`Clock`] it is handed. [`Native`] (an `Instant`) is the only clock that reads the
//! machine's time and the only `Instant` user of the engine; it is not compiled for
//! `wasm32-unknown-unknown`, where `Instant::now` traps, so a browser build passes a clock of
//! its own (e.g. `performance.now()`). [`Ticking`] is a pure clock that advances by a fixed
//! step at every reading: a search under it is deterministic (tests, benchmarks by node count).
//!
//! A deadline is a reading of one clock ([`Deadline`]); a search looks at it every few
//! thousand nodes, so it may overrun by as long as those nodes take.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// A monotonic clock: `now` never goes back. Its zero is arbitrary (a clock's own start).
pub trait Clock: Send + Sync {
    /// The time since the clock's own zero.
    fn now(&self) -> Duration;
}

/// The machine's monotonic clock (`std::time::Instant`), zero at its creation. Not on
/// `wasm32-unknown-unknown`.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
#[derive(Debug, Clone, Copy)]
pub struct Native {
    origin: std::time::Instant,
}

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
impl Native {
    /// A clock whose zero is now.
    pub fn new() -> Native {
        Native {
            origin: std::time::Instant::now(),
        }
    }
}

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
impl Default for Native {
    fn default() -> Self {
        Native::new()
    }
}

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
impl Clock for Native {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }
}

/// A clock that reads `step` later at every call of [`Clock::now`] (the first reading is
/// `step`): time passes with the work done, not with the machine's time, so a search bounded
/// by it ends after a fixed number of looks at the clock.
#[derive(Debug)]
pub struct Ticking {
    step_ns: u64,
    ticks: AtomicU64,
}

impl Ticking {
    pub fn new(step: Duration) -> Ticking {
        Ticking {
            step_ns: u64::try_from(step.as_nanos()).unwrap_or(u64::MAX),
            ticks: AtomicU64::new(0),
        }
    }

    /// How many times the clock has been read.
    pub fn reads(&self) -> u64 {
        self.ticks.load(Ordering::Relaxed)
    }

    /// The last reading given (zero before the first).
    pub fn last(&self) -> Duration {
        Duration::from_nanos(self.step_ns.saturating_mul(self.reads()))
    }
}

impl Clock for Ticking {
    fn now(&self) -> Duration {
        let n = self.ticks.fetch_add(1, Ordering::Relaxed) + 1;
        Duration::from_nanos(self.step_ns.saturating_mul(n))
    }
}

/// A point in time of one clock: a search stops once the clock reads `at` or later.
#[derive(Clone, Copy)]
pub struct Deadline<'a> {
    clock: &'a dyn Clock,
    at: Duration,
}

impl std::fmt::Debug for Deadline<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Deadline").field("at", &self.at).finish()
    }
}

impl<'a> Deadline<'a> {
    /// `budget` from now on `clock`.
    pub fn after(clock: &'a dyn Clock, budget: Duration) -> Deadline<'a> {
        Deadline {
            clock,
            at: clock.now().saturating_add(budget),
        }
    }

    /// The moment `at` of `clock`.
    pub fn at(clock: &'a dyn Clock, at: Duration) -> Deadline<'a> {
        Deadline { clock, at }
    }

    /// The clock's reading at which the deadline passes.
    pub fn when(&self) -> Duration {
        self.at
    }

    /// The clock this deadline is read on.
    pub fn clock(&self) -> &'a dyn Clock {
        self.clock
    }

    /// The clock's reading now.
    pub fn now(&self) -> Duration {
        self.clock.now()
    }

    /// Whether the clock reads the deadline or later.
    pub fn passed(&self) -> bool {
        self.clock.now() >= self.at
    }

    /// The deadline at `frac` (0 … 1) of the time left from `start` (a reading of the same
    /// clock) to this one.
    pub fn part(&self, start: Duration, frac: f64) -> Deadline<'a> {
        let left = self.at.saturating_sub(start);
        Deadline {
            clock: self.clock,
            at: start + Duration::from_secs_f64(left.as_secs_f64() * frac),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticking_advances_one_step_per_reading() {
        let c = Ticking::new(Duration::from_millis(3));
        assert_eq!(c.last(), Duration::ZERO);
        assert_eq!(c.now(), Duration::from_millis(3));
        assert_eq!(c.now(), Duration::from_millis(6));
        assert_eq!((c.reads(), c.last()), (2, Duration::from_millis(6)));
    }

    #[test]
    fn a_deadline_passes_on_its_own_clock() {
        let c = Ticking::new(Duration::from_millis(10));
        let d = Deadline::after(&c, Duration::from_millis(35)); // reads 10: at 45
        assert_eq!(d.when(), Duration::from_millis(45));
        assert!(!d.passed()); // 20
        assert!(!d.passed()); // 30
        assert!(!d.passed()); // 40
        assert!(d.passed()); // 50
        let half = d.part(Duration::from_millis(5), 0.5);
        assert_eq!(half.when(), Duration::from_millis(25));
    }

    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    #[test]
    fn the_native_clock_does_not_go_back() {
        let c = Native::new();
        let a = c.now();
        assert!(c.now() >= a);
    }
}
