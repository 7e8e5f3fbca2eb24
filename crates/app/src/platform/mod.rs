//! The platform services a shell passes in at start ([`Platform`]): clocks, the file layer,
//! background work, haptics, the share sheet and an event sink. The core and the engine reach
//! the world only through these; `native.rs` has the desktop/phone implementation (threads,
//! `std::fs`, the system clocks), and a web shell brings its own.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub mod native;

use crate::error::AppResult;
use crate::fsio::Io;
use huarong_engine::Kind;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Wall clock, monotonic clock and the local time zone.
pub trait Clock: Send + Sync + 'static {
    /// Milliseconds since the Unix epoch (may jump: the player can set the clock).
    fn wall_ms(&self) -> u64;
    /// Time since a fixed point of this run; never goes back. Deadlines and the games'
    /// clocks use it.
    fn monotonic(&self) -> Duration;
    /// The local time zone's offset from UTC at `wall_ms`, in minutes east of UTC (China: 480).
    fn utc_offset_minutes(&self, wall_ms: u64) -> i32;
    /// Move both readings forward by `ms` (the `test_clock` command). Only a test build's
    /// clock can ([`TestClock`], the web page's test clock); `Err` says why not.
    fn advance(&self, ms: u64) -> Result<(), String> {
        let _ = ms;
        Err("the test clock is off: this clock cannot be set".into())
    }
}

/// A clock the tests move forward: the host's wall and monotonic readings plus an offset that
/// only grows, so that a game played by a test at machine speed takes a human's time. A shell
/// uses it only when asked at start ([`Platform::with_test_clock`]).
pub struct TestClock {
    host: Arc<dyn Clock>,
    offset_ms: AtomicU64,
}

impl TestClock {
    pub fn new(host: Arc<dyn Clock>) -> TestClock {
        TestClock {
            host,
            offset_ms: AtomicU64::new(0),
        }
    }
    fn offset(&self) -> u64 {
        self.offset_ms.load(Ordering::SeqCst)
    }
}

impl Clock for TestClock {
    fn wall_ms(&self) -> u64 {
        self.host.wall_ms().saturating_add(self.offset())
    }
    fn monotonic(&self) -> Duration {
        self.host
            .monotonic()
            .saturating_add(Duration::from_millis(self.offset()))
    }
    fn utc_offset_minutes(&self, wall_ms: u64) -> i32 {
        self.host.utc_offset_minutes(wall_ms)
    }
    fn advance(&self, ms: u64) -> Result<(), String> {
        let _ = self
            .offset_ms
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |o| {
                Some(o.saturating_add(ms))
            });
        Ok(())
    }
}

/// A clock read through three functions of the host: the web page's JavaScript (`Date.now`,
/// `performance.now`, the time zone's offset), called from wasm. A reading that is negative,
/// NaN or infinite is 0 (or the largest time), never a panic.
pub struct HostClock {
    pub wall_ms: fn() -> f64,
    pub monotonic_ms: fn() -> f64,
    pub utc_offset_minutes: fn(f64) -> f64,
}

impl Clock for HostClock {
    fn wall_ms(&self) -> u64 {
        let ms = (self.wall_ms)();
        if ms.is_finite() && ms > 0.0 {
            ms as u64
        } else {
            0
        }
    }
    fn monotonic(&self) -> Duration {
        let ms = (self.monotonic_ms)();
        Duration::try_from_secs_f64(ms.max(0.0) / 1000.0).unwrap_or(Duration::MAX)
    }
    fn utc_offset_minutes(&self, wall_ms: u64) -> i32 {
        let m = (self.utc_offset_minutes)(wall_ms as f64);
        if m.is_finite() {
            m.clamp(-24.0 * 60.0, 24.0 * 60.0) as i32
        } else {
            0
        }
    }
}

/// The platform's monotonic clock as the engine's searches read it for their deadlines.
pub struct Monotonic<'a>(pub &'a dyn Clock);

impl huarong_engine::clock::Clock for Monotonic<'_> {
    fn now(&self) -> Duration {
        self.0.monotonic()
    }
}

/// How important a background job is to the player right now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Priority {
    /// Someone waits for it (a hint, an auto-solve, the analysis, a writer).
    Normal,
    /// Nobody waits (the background optimum, a hint's proof): run it below the UI.
    Background,
}

/// A job handed to [`Tasks::spawn`].
pub type Job = Box<dyn FnOnce() + Send + 'static>;

/// Background work. Searches are cancelled through their engine `Cancel` token, so a task
/// needs no handle.
pub trait Tasks: Send + Sync + 'static {
    /// Run `job` concurrently with the caller. `Err` (the job is dropped unrun) when the
    /// platform cannot start it now.
    fn spawn(&self, name: &str, priority: Priority, job: Job) -> Result<(), String>;
    /// Whether `spawn` runs jobs beside the caller (threads). When false, the writers run
    /// in single-threaded mode: the host calls [`crate::AppState::step`] after each command,
    /// and `spawn` runs searches to their end on the calling thread.
    fn threaded(&self) -> bool;
    /// How many jobs may usefully run at once (start-up restores slots on up to 4).
    fn parallelism(&self) -> usize {
        1
    }
}

/// What happened in the game, as far as the hand should feel it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feedback {
    /// A tap on something selectable (a piece picked up).
    Tap,
    /// A move was made.
    Move,
    /// A tile landed in its own cell (a second channel beside the spoken word).
    Placed,
    /// A move was refused (wall, illegal slide).
    Blocked,
    /// 2048 tiles merged.
    Merge,
    Win,
    Lose,
    Undo,
}

/// The names of [`Feedback`] in the `haptic` command.
pub const FEEDBACK_KINDS: &[&str] = &[
    "tap", "move", "placed", "blocked", "merge", "win", "lose", "undo",
];

impl Feedback {
    pub fn parse(s: &str) -> AppResult<Feedback> {
        Ok(match s {
            "tap" => Feedback::Tap,
            "move" => Feedback::Move,
            "placed" => Feedback::Placed,
            "blocked" => Feedback::Blocked,
            "merge" => Feedback::Merge,
            "win" => Feedback::Win,
            "lose" => Feedback::Lose,
            "undo" => Feedback::Undo,
            _ => {
                return Err(crate::error::AppError::bad_argument(format!(
                    "haptic kind {:?} is not one of {FEEDBACK_KINDS:?}",
                    s.chars().take(20).collect::<String>()
                )))
            }
        })
    }
}

/// The device's vibration motor.
pub trait Haptics: Send + Sync + 'static {
    /// Play one feedback; `Err` says why it could not.
    fn play(&self, feedback: Feedback) -> Result<(), String>;
}

/// Where `share_card` put the card.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ShareOutcome {
    /// Desktop: the saved file in the Pictures folder.
    pub saved: Option<String>,
    /// Mobile: the card file the share sheet was opened with.
    pub file: Option<String>,
    /// Mobile: whether the system confirmed a share (iOS does; Android's chooser never says,
    /// so `false` there is not a failure). Desktop: `null`.
    pub shared: Option<bool>,
}

/// The system's way to hand a picture to other apps (or to keep it).
pub trait Share: Send + Sync + 'static {
    /// Share or save the card's PNG; `name` is a fresh file name for it. Errors are
    /// `share_failed`.
    fn share_png(&self, png: &[u8], name: &str) -> AppResult<ShareOutcome>;
    /// Share or save a file of another type (`export_progress {share: true}`: the progress
    /// file, `application/json`); `share_failed` where the shell has no way to.
    fn share_file(&self, bytes: &[u8], name: &str, mime: &str) -> AppResult<ShareOutcome> {
        let _ = (bytes, name, mime);
        Err(crate::error::AppError::share_failed(
            "this platform cannot share a file; save it from the page",
        ))
    }
}

/// What the core tells the page outside a command's reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// A background proof made the kind's hint optimal (DOM event `huarong-hint`, detail =
    /// the kind).
    HintReady(Kind),
    /// The kind's pending finish got its verdict: the background optimum arrived (or gave
    /// up), so its stars, optimum and `perfect` are final (DOM event `huarong-finish`, detail
    /// = the kind; the page reads it with `finish {kind}`).
    FinishReady(Kind),
    /// A link or a second launch opened a game while the app runs (DOM event
    /// `huarong-opened`): the page re-reads the progress and shows the saved screen.
    Opened,
}

impl Event {
    /// The DOM event's name.
    pub fn name(self) -> &'static str {
        match self {
            Event::HintReady(_) => "huarong-hint",
            Event::FinishReady(_) => "huarong-finish",
            Event::Opened => "huarong-opened",
        }
    }
    /// The DOM event's `detail` (fixed text: a kind's name or nothing).
    pub fn detail(self) -> Option<&'static str> {
        match self {
            Event::HintReady(kind) | Event::FinishReady(kind) => Some(kind.as_str()),
            Event::Opened => None,
        }
    }
}

/// Where events go (the shell forwards them to the page).
pub trait Events: Send + Sync + 'static {
    fn emit(&self, event: Event);
}

/// Every service the core uses, passed in once at start.
#[derive(Clone)]
pub struct Platform {
    pub clock: Arc<dyn Clock>,
    pub io: Arc<dyn Io>,
    pub tasks: Arc<dyn Tasks>,
    pub haptics: Arc<dyn Haptics>,
    pub share: Arc<dyn Share>,
    pub events: Arc<dyn Events>,
    /// A fresh random seed for a new game without one.
    pub seed: Arc<dyn Fn() -> u64 + Send + Sync>,
}

impl Platform {
    /// The same platform with another file layer (tests count or break the writes).
    pub fn with_io(mut self, io: Arc<dyn Io>) -> Platform {
        self.io = io;
        self
    }
    /// The same platform with another event sink.
    pub fn with_events(mut self, events: Arc<dyn Events>) -> Platform {
        self.events = events;
        self
    }
    /// The same platform on a [`TestClock`] over its clock (a test run: `test_clock` works).
    pub fn with_test_clock(mut self) -> Platform {
        self.clock = Arc::new(TestClock::new(self.clock));
        self
    }
}

/// A platform without threads (a browser worker): the writers run single-threaded (the host
/// calls `AppState::step` after each command) and nothing runs in the background.
pub struct NoThreads;
impl Tasks for NoThreads {
    fn spawn(&self, _name: &str, _priority: Priority, _job: Job) -> Result<(), String> {
        Err("this platform runs no background work".into())
    }
    fn threaded(&self) -> bool {
        false
    }
}

/// No events are heard (tests, tools).
pub struct NoEvents;
impl Events for NoEvents {
    fn emit(&self, _event: Event) {}
}

/// A device without a vibration motor.
pub struct NoHaptics;
impl Haptics for NoHaptics {
    fn play(&self, _feedback: Feedback) -> Result<(), String> {
        Err("haptics are not available".into())
    }
}

/// A build that cannot share (tests, tools).
pub struct NoShare;
impl Share for NoShare {
    fn share_png(&self, _png: &[u8], _name: &str) -> AppResult<ShareOutcome> {
        Err(crate::error::AppError::share_failed(
            "this build has no way to share a card",
        ))
    }
}

/// The local time now as the engine's calendar takes it: Unix milliseconds plus the time
/// zone's offset, so that whole days of it are local dates (`daily::local_date`).
pub fn local_ms(clock: &dyn Clock) -> i64 {
    let wall = clock.wall_ms();
    wall as i64 + i64::from(clock.utc_offset_minutes(wall)) * 60_000
}

/// The local date `YYYY-MM-DD` now (the one "today" of the app).
pub fn today(clock: &dyn Clock) -> String {
    huarong_engine::daily::local_date(local_ms(clock)).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use huarong_engine::daily;

    struct At(i32);
    impl Clock for At {
        fn wall_ms(&self) -> u64 {
            1_796_155_200_000 // 2026-12-01T20:00:00Z
        }
        fn monotonic(&self) -> Duration {
            Duration::ZERO
        }
        fn utc_offset_minutes(&self, _: u64) -> i32 {
            self.0
        }
    }

    #[test]
    fn the_test_clock_adds_an_offset_that_only_grows() {
        let host: Arc<dyn Clock> = Arc::new(At(480));
        assert!(host.advance(1000).is_err(), "a host clock cannot be set");
        let clock = TestClock::new(host);
        assert_eq!(clock.wall_ms(), 1_796_155_200_000);
        clock.advance(400).unwrap();
        clock.advance(350).unwrap();
        assert_eq!(clock.wall_ms(), 1_796_155_200_750);
        assert_eq!(clock.monotonic(), Duration::from_millis(750));
        assert_eq!(clock.utc_offset_minutes(clock.wall_ms()), 480);
        clock.advance(u64::MAX).unwrap();
        assert_eq!(clock.wall_ms(), u64::MAX, "saturates, never wraps back");
    }

    #[test]
    fn the_local_date_follows_the_offset() {
        let date = |offset| daily::local_date(local_ms(&At(offset))).to_string();
        assert_eq!(date(0), "2026-12-01");
        assert_eq!(date(480), "2026-12-02");
        assert_eq!(date(-600), "2026-12-01");
        assert_eq!(daily::next_in_ms(local_ms(&At(480))), 20 * 3_600_000);
        assert_eq!(daily::next_in_ms(local_ms(&At(0))), 4 * 3_600_000);
    }
}
