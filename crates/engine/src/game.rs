//! The common interface of every game (the "back end" of guide §1).

use crate::clock::Clock;
use crate::error::Result;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::fmt::Debug;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::ThreadId;
use std::time::Duration;

/// The games (declared by the list in `lib.rs`).
pub use crate::Kind;

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Playing,
    Won,
    Lost,
}

impl Status {
    /// `Won` when `solved`, else `Playing`: the status of a puzzle that cannot be lost.
    pub fn won_if(solved: bool) -> Status {
        if solved {
            Status::Won
        } else {
            Status::Playing
        }
    }
}

/// A cancellation flag shared between a search and whoever may cancel it; it can also
/// *park* the search (nothing computes while nobody waits for it).
///
/// A search polls [`Cancel::is_cancelled`] every few thousand nodes. While the flag is
/// parked ([`Cancel::park`]), that poll *blocks* on the one thread that armed the flag
/// ([`Cancel::arm_here`], the search's own thread) until [`Cancel::unpark`] or
/// [`Cancel::cancel`]: the search sleeps where it stands, holding its stack and tables, and
/// goes on from the same node when unparked — no work is lost or redone. Every other
/// thread (the UI asking whether a search was stopped) reads a parked flag as not cancelled
/// and never blocks, so an observer cannot deadlock on it.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<Flag>);

#[derive(Debug, Default)]
struct Flag {
    /// [`RUN`], [`PARKED`] or [`CANCELLED`].
    state: AtomicU8,
    /// The thread whose polls wait while parked.
    owner: Mutex<Option<ThreadId>>,
    gate: Mutex<()>,
    wake: Condvar,
    /// How long the flag has been parked, on the clock of [`Cancel::running_clock`]. Park
    /// and unpark change the state under this lock, so the time and the state agree.
    parked: Mutex<ParkedTime>,
}

/// The time a flag spent parked, read on one clock.
#[derive(Default)]
struct ParkedTime {
    clock: Option<Arc<dyn Clock>>,
    /// Parked time of the parkings that ended.
    total: Duration,
    /// When the current parking began (while parked).
    since: Option<Duration>,
}

impl std::fmt::Debug for ParkedTime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParkedTime")
            .field("total", &self.total)
            .field("since", &self.since)
            .finish()
    }
}

impl ParkedTime {
    /// The clock's reading with the parked time taken out: it stands still while parked.
    fn running(&self) -> Duration {
        let Some(clock) = &self.clock else {
            return Duration::ZERO;
        };
        let now = self.since.unwrap_or_else(|| clock.now());
        now.saturating_sub(self.total)
    }
}

const RUN: u8 = 0;
const PARKED: u8 = 1;
const CANCELLED: u8 = 2;

impl Cancel {
    pub fn new() -> Self {
        Self::default()
    }
    /// Stop the search for good (a parked one wakes up and stops).
    pub fn cancel(&self) {
        self.0.state.store(CANCELLED, Ordering::SeqCst);
        let _g = lock_ignoring_poison(&self.0.gate);
        self.0.wake.notify_all();
    }
    /// Whether the search should stop. On the armed thread, a parked flag waits here until
    /// it is unparked or cancelled.
    #[inline]
    pub fn is_cancelled(&self) -> bool {
        match self.0.state.load(Ordering::Relaxed) {
            RUN => false,
            CANCELLED => true,
            _ => self.wait_if_owner(),
        }
    }
    #[cold]
    fn wait_if_owner(&self) -> bool {
        let me = std::thread::current().id();
        if *lock_ignoring_poison(&self.0.owner) != Some(me) {
            return self.0.state.load(Ordering::SeqCst) == CANCELLED;
        }
        let mut g = lock_ignoring_poison(&self.0.gate);
        while self.0.state.load(Ordering::SeqCst) == PARKED {
            g = self.0.wake.wait(g).unwrap_or_else(|e| e.into_inner());
        }
        self.0.state.load(Ordering::SeqCst) == CANCELLED
    }
    /// The calling thread runs the search: its polls wait while the flag is parked.
    pub fn arm_here(&self) {
        *lock_ignoring_poison(&self.0.owner) = Some(std::thread::current().id());
    }
    /// Park the search at its next poll (no effect once cancelled). From now until
    /// [`Cancel::unpark`], its [`Cancel::running_clock`] stands still.
    pub fn park(&self) {
        let mut t = lock_ignoring_poison(&self.0.parked);
        let parked = self
            .0
            .state
            .compare_exchange(RUN, PARKED, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok();
        if parked {
            t.since = t.clock.as_ref().map(|c| c.now());
        }
    }
    /// Let a parked search go on from where it stopped.
    pub fn unpark(&self) {
        let mut time = lock_ignoring_poison(&self.0.parked);
        if self
            .0
            .state
            .compare_exchange(PARKED, RUN, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            let t = &mut *time;
            if let (Some(c), Some(since)) = (&t.clock, t.since.take()) {
                t.total += c.now().saturating_sub(since);
            }
            drop(time);
            let _g = lock_ignoring_poison(&self.0.gate);
            self.0.wake.notify_all();
        }
    }
    /// A clock that reads `clock` but stands still while this flag is parked: a deadline on
    /// it is a budget of the time the search may *run*, which parking does not use up (a
    /// parked search goes on where it stood). One clock per flag: a second call replaces
    /// the first's clock. A flag parked already stops the clock from this call on.
    pub fn running_clock(&self, clock: Arc<dyn Clock>) -> RunningClock {
        let mut t = lock_ignoring_poison(&self.0.parked);
        t.since = self.is_parked().then(|| clock.now());
        t.total = Duration::ZERO;
        t.clock = Some(clock);
        RunningClock(self.clone())
    }
    /// Whether `other` is this very flag (a clone of it).
    pub fn same(&self, other: &Cancel) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
    /// Whether the flag is cancelled, without waiting on a parked one (which is not).
    pub fn cancelled_now(&self) -> bool {
        self.0.state.load(Ordering::SeqCst) == CANCELLED
    }
    /// Whether the flag is parked now.
    pub fn is_parked(&self) -> bool {
        self.0.state.load(Ordering::SeqCst) == PARKED
    }
}

/// The clock of [`Cancel::running_clock`]: its flag's clock less the time it was parked.
#[derive(Debug, Clone)]
pub struct RunningClock(Cancel);

impl Clock for RunningClock {
    fn now(&self) -> Duration {
        lock_ignoring_poison(&(self.0).0.parked).running()
    }
}

fn lock_ignoring_poison<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The answer of a hint request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hint<M> {
    /// The move to play now.
    pub mv: M,
    /// True when `mv` starts an optimal solution (number slide, Klotski).
    pub optimal: bool,
    /// The rest of the solution after `mv`, if the solver produced one; the session keeps it
    /// so later hints along the same line are free.
    pub line: Vec<M>,
    /// Optional per-choice values (2048: the expectimax value of each direction).
    pub values: Option<Vec<(String, f64)>>,
}

/// One game's rules. A value of the type is one position (plus whatever the rules need
/// to carry along, e.g. the spawn generator of 2048 or the Klotski move counters),
/// so undo is restoring an earlier value.
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// Which game this is.
    const KIND: Kind;
    /// One player input that the rules execute (a tap, a drag released, a swipe).
    type Move: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// What a move changed, for the UI's animation (tiles moved, merges, spawns, path).
    type Effect: Clone + Debug + Serialize + Send + 'static;

    /// Build a game from the part of a game ID after `kind:` (before any `#seed`),
    /// and the optional seed. `body` may be an exact board ("description") or
    /// generator parameters (when `seed` is given). Garbage → `Error` with a clear message.
    fn from_id(body: &str, seed: Option<u64>) -> Result<Self>;

    /// The current board in game-ID body form (what `data-state` shows and
    /// `from_id(.., None)` reads back).
    fn board_body(&self) -> String;

    /// Execute a move; illegal moves leave `self` unchanged and return an error.
    fn apply(&mut self, mv: &Self::Move) -> Result<Self::Effect>;

    fn status(&self) -> Status;

    /// Whether the session may play `mv` now. By default only while `Playing`; a game with
    /// a move that continues after a win (2048's "keep going") widens this.
    fn accepts(&self, _mv: &Self::Move) -> bool {
        self.status() == Status::Playing
    }

    /// The move count under the game's current counting rule (the UI's "moves").
    fn moves(&self) -> u32;

    /// All counters the game keeps (e.g. `{"tile": 12, "line": 7}`), for the snapshot.
    fn counters(&self) -> serde_json::Value;

    /// The board as structured data (`Snapshot::view`), so no UI parses `board_body`:
    /// slide `{w, h, tiles}`, Klotski `{w, h, pieces, walls, exit}`, 2048 `{size, cells}`.
    /// `start` is the position the session began from (Klotski names its pieces by it).
    /// Null for a game without one (test games).
    fn view(&self, _start: &Self) -> serde_json::Value {
        serde_json::Value::Null
    }

    /// The next move of a solution (or the AI's choice) from this position.
    fn hint(&self, cancel: &Cancel) -> Result<Hint<Self::Move>>;

    /// A whole solution from this position (auto-solve). Games without one return
    /// `ErrorCode::Unsupported`; an unsolvable position returns `ErrorCode::Unsolvable`.
    fn solve(&self, cancel: &Cancel) -> Result<Vec<Self::Move>>;

    /// A hint within about `budget` as the caller's monotonic `clock` measures it (the
    /// engine reads no clock of its own, see [`crate::clock`]): the best move known when the
    /// budget runs out, with `optimal: false` if the proof was not finished (the move still starts
    /// a solution, `line` holds its rest). By default the unbounded [`Game::hint`] (games
    /// whose hint is always fast).
    fn hint_within(
        &self,
        budget: Duration,
        clock: &dyn Clock,
        cancel: &Cancel,
    ) -> Result<Hint<Self::Move>> {
        let _ = (budget, clock);
        self.hint(cancel)
    }

    /// A whole solution within about `budget` on `clock`: optimal when the proof finished in
    /// time. By default the unbounded [`Game::solve`], reported as [`Game::SOLVE_OPTIMAL`].
    fn solve_within(
        &self,
        budget: Duration,
        clock: &dyn Clock,
        cancel: &Cancel,
    ) -> Result<Solved<Self::Move>> {
        let _ = (budget, clock);
        Ok(Solved {
            moves: self.solve(cancel)?,
            optimal: Self::SOLVE_OPTIMAL,
        })
    }

    /// Whether [`Game::solve`] always gives an optimal solution (used by the default
    /// [`Game::solve_within`]).
    const SOLVE_OPTIMAL: bool = false;

    /// Whether the unbounded [`Game::hint`] from this position may prove optimal a hint that
    /// [`Game::hint_within`] had to give as not optimal — i.e. whether a background proof is
    /// worth running. False by default (`hint_within` is `hint`).
    fn hint_can_improve(&self) -> bool {
        false
    }
}

/// A whole solution and whether it is proven optimal ([`Game::solve_within`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Solved<M> {
    pub moves: Vec<M>,
    pub optimal: bool,
}

#[cfg(test)]
mod tests {
    use super::Cancel;
    use crate::clock::{Clock, Deadline};

    /// A clock the test sets by hand (milliseconds).
    struct Manual(AtomicU64);
    impl Clock for Manual {
        fn now(&self) -> Duration {
            Duration::from_millis(self.0.load(Ordering::SeqCst))
        }
    }

    /// The running clock stops while the flag is parked and goes on from the same reading,
    /// so a deadline on it is a budget of running time only.
    #[test]
    fn the_running_clock_stands_still_while_parked() {
        let ms = Duration::from_millis;
        let base = Arc::new(Manual(AtomicU64::new(1_000)));
        let set = |t: u64| base.0.store(t, Ordering::SeqCst);
        let cancel = Cancel::new();
        let run = cancel.running_clock(base.clone());
        assert_eq!(run.now(), ms(1_000));
        let deadline = Deadline::after(&run, ms(300)); // at 1,300 of running time
        set(1_200);
        assert_eq!(run.now(), ms(1_200));
        cancel.park();
        cancel.park(); // parked already: no second start
        set(60_000);
        assert_eq!(run.now(), ms(1_200), "no time passes while parked");
        assert!(!deadline.passed(), "parking used up the budget");
        cancel.unpark();
        assert_eq!(run.now(), ms(1_200));
        set(60_050);
        assert_eq!(run.now(), ms(1_250));
        assert!(!deadline.passed());
        set(60_100);
        assert!(deadline.passed(), "running time counts");
        // Unparking a flag that is not parked changes nothing.
        cancel.unpark();
        assert_eq!(run.now(), ms(1_300));
        // Parked, then cancelled: the clock stays where the parking began.
        cancel.park();
        set(70_000);
        cancel.cancel();
        set(80_000);
        assert_eq!(run.now(), ms(1_300));

        // A flag parked before its clock was made: the clock starts standing still.
        let later = Cancel::new();
        later.park();
        let run = later.running_clock(base.clone());
        set(90_000);
        assert_eq!(run.now(), ms(80_000));
        later.unpark();
        set(90_010);
        assert_eq!(run.now(), ms(80_010));
    }
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    /// A parked search sleeps at its poll and goes on from the same step; observers on other
    /// threads never block on the parked flag.
    #[test]
    fn a_parked_search_waits_where_it_stands_and_goes_on() {
        let cancel = Cancel::new();
        let steps = Arc::new(AtomicU64::new(0));
        let (c, s) = (cancel.clone(), steps.clone());
        let worker = std::thread::spawn(move || {
            c.arm_here();
            let mut n = 0u64;
            while !c.is_cancelled() {
                n += 1;
                s.store(n, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(1));
            }
            n
        });
        std::thread::sleep(Duration::from_millis(50));
        cancel.park();
        std::thread::sleep(Duration::from_millis(30));
        let parked_at = steps.load(Ordering::SeqCst);
        assert!(parked_at > 0);
        // This thread is not the search's: it reads "not cancelled" and does not block.
        assert!(!cancel.is_cancelled());
        assert!(cancel.is_parked());
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(
            steps.load(Ordering::SeqCst),
            parked_at,
            "no step while parked"
        );
        cancel.unpark();
        std::thread::sleep(Duration::from_millis(50));
        let later = steps.load(Ordering::SeqCst);
        assert!(later > parked_at, "it went on");
        // Parked again, then cancelled: it wakes and stops, its count carried on from where
        // it stood (the state of the search was kept, not restarted).
        cancel.park();
        std::thread::sleep(Duration::from_millis(30));
        cancel.cancel();
        let n = worker.join().unwrap();
        assert!(n >= later);
        assert!(cancel.is_cancelled() && !cancel.is_parked());
        cancel.unpark();
        assert!(cancel.is_cancelled(), "a cancelled flag stays cancelled");
    }
}
