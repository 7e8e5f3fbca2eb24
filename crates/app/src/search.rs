//! Searches: hint, solve (blocking — called on a worker thread, never on the thread that
//! handles IPC or links), the background optimum of a start, and cancelling.
//!
//! At most one search per kind at a time: a new hint or solve cancels the kind's previous
//! one and pauses its background optimum search, which starts again when the hint is done
//! (the hint wins). Any change of the slot (a move, leaving the game screen, the app going
//! to the background, `cancel`) cancels a running hint or solve.

use crate::core::{lock, AppState};
use crate::error::{guard, AppError, AppResult};
use crate::games::{with_game, AppGame};
use crate::platform::{Monotonic, Priority};
use crate::search_gate::{Stopped, Urgency};
use crate::slots::SlotRef;
use crate::views::{HintView, SolveView};
use huarong_engine::budget::{self, Budget};
use huarong_engine::Hint;
use huarong_engine::{Cancel, ErrorCode, Kind, Session, Status};
use serde_json::Value;
use std::time::Duration;

/// How long a hint or the start of an auto-solve may search before it answers with the best
/// move known (every answer within 200 ms; the rest is the IPC and the page).
pub const SEARCH_BUDGET: Duration = Duration::from_millis(170);

/// Time budget of a background optimum (its bytes: the engine's 64 MiB). Past
/// either it fails, and the failure is remembered for that game ([`Slot::optimum_failed`]).
///
/// [`Slot::optimum_failed`]: crate::games::Slot::optimum_failed
pub const OPTIMUM_TIME: Duration = Duration::from_secs(10);
/// Time budget of the finish analysis (someone waits for it: a spinner).
pub const ANALYSIS_TIME: Duration = Duration::from_secs(10);
/// Time budget of opening a game ID that runs a generator (`--open`, links, `open_game`,
/// `new_game`).
pub const OPEN_TIME: Duration = Duration::from_secs(5);
/// Running-time budget of a hint's background proof (its bytes: the engine's
/// 64 MiB, of which the slide IDA* needs kilobytes beside its shared tables). Only the time
/// it runs counts: while it is parked (the game off screen, the app in the background) its
/// clock stands still, and it goes on where it stood.
///
/// Why a minute: nobody waits for the proof (the hint is shown already, a move of a
/// solution), so it may take far longer than a hint, but it runs on the player's battery. On
/// the 2-core development machine (README, "Bounded work on every input") the proofs of
/// eight `expert` 4×4 boards took 3 ms – 1.5 s, the hard list's 72- and 76-move boards
/// 0.5 s and 11 s; the 80-move boards, the hardest 4×4 positions there are (100 s there,
/// longer on a phone), are past it and keep the near-optimal hint they were given. Past it
/// the proof ends quietly: nothing is adopted, the slot is as without a proof.
pub const PROOF_TIME: Duration = Duration::from_secs(60);

/// The platform's monotonic clock, owned, for a [`Budget`]'s deadline.
struct OwnedClock(std::sync::Arc<dyn crate::platform::Clock>);

impl huarong_engine::clock::Clock for OwnedClock {
    fn now(&self) -> Duration {
        self.0.monotonic()
    }
}

pub(crate) fn hint_view<M: serde::Serialize>(hint: &Hint<M>, pending: bool) -> HintView {
    let remaining = (!hint.line.is_empty() || hint.optimal).then(|| hint.line.len() as u32 + 1);
    HintView {
        mv: serde_json::to_value(&hint.mv).unwrap_or(Value::Null),
        optimal: hint.optimal,
        remaining: if hint.values.is_some() && hint.line.is_empty() {
            None
        } else {
            remaining
        },
        values: hint.values.clone(),
        pending,
    }
}

impl AppState {
    /// A budget of the engine's 64 MiB and `time` on the platform's clock, cancelled by `cancel`.
    pub(crate) fn budget(&self, cancel: &Cancel, time: Duration) -> Budget {
        Budget::new(budget::MAX_BYTES, cancel.clone()).within(self.budget_clock(), time)
    }

    /// A budget of the engine's 64 MiB and `time` of *running* time, cancelled by `cancel`:
    /// its clock stands still while `cancel` is parked (a parked search does not use up its
    /// time, [`Cancel::running_clock`]). For the background work that parks.
    pub(crate) fn running_budget(&self, cancel: &Cancel, time: Duration) -> Budget {
        let clock = std::sync::Arc::new(cancel.running_clock(self.budget_clock()));
        Budget::new(budget::MAX_BYTES, cancel.clone()).within(clock, time)
    }

    /// `search` with `bounds` as the thread's ambient budget, once no other bounded search
    /// runs (`search_gate.rs`: the app holds one search's memory at a time).
    pub(crate) fn bounded<R: Stopped>(
        &self,
        urgency: Urgency,
        bounds: Budget,
        search: impl FnOnce() -> R,
    ) -> R {
        let cancel = bounds.cancel.clone();
        self.0
            .searches
            .run(urgency, &cancel, || budget::scoped(bounds, search))
    }

    /// `search` (a command's own bounded work, its budget set inside) through the gate.
    pub(crate) fn gated<R: Stopped>(&self, cancel: &Cancel, search: impl FnOnce() -> R) -> R {
        self.0.searches.run(Urgency::Foreground, cancel, search)
    }

    /// The platform's monotonic clock as a budget's deadline reads it.
    pub(crate) fn budget_clock(&self) -> std::sync::Arc<dyn huarong_engine::clock::Clock> {
        std::sync::Arc::new(OwnedClock(self.platform().clock.clone()))
    }

    /// Nobody looks at `G`'s game any more (another screen, the app in the background): the
    /// running hint, solve or analysis is cancelled (its answer would go nowhere), and the
    /// background proof and optimum are *parked*: their threads sleep where they stand
    /// until [`AppState::show_kind`] (no CPU; the memory they hold stays within its bound).
    pub(crate) fn hide_kind<G: AppGame>(&self) {
        let mut kinds = G::slots(&self.0.games).lock();
        kinds.hidden = true;
        match &kinds.proof {
            Some(p) if p.same(&kinds.search) => p.park(),
            _ => kinds.search.cancel(),
        }
        if let Some((_, c)) = &kinds.optimum {
            c.park();
        }
    }

    /// `G`'s game is on screen again: a parked proof or optimum goes on from where it stood
    /// (the same IDA* node or BFS position: nothing is redone), and the optimum may start.
    pub(crate) fn show_kind<G: AppGame>(&self) {
        {
            let mut kinds = G::slots(&self.0.games).lock();
            kinds.hidden = false;
            if let Some(p) = &kinds.proof {
                p.unpark();
            }
            if let Some((_, c)) = &kinds.optimum {
                c.unpark();
            }
        }
        self.find_optimal_current::<G>();
    }

    /// [`AppState::hide_kind`] of `kind` (of every kind when `None`).
    pub fn hide(&self, kind: Option<Kind>) {
        for k in Kind::ALL {
            if kind.is_none_or(|want| want == k) {
                with_game!(k, G => self.hide_kind::<G>());
            }
        }
    }

    /// [`AppState::show_kind`] of `kind`.
    pub fn show(&self, kind: Kind) {
        with_game!(kind, G => self.show_kind::<G>());
    }

    /// Begin a hint/solve on `G`'s current slot: a clone of its session, the cancel flag,
    /// the slot's version (to write back only onto the same position).
    pub(crate) fn begin_search<G: AppGame>(
        &self,
    ) -> AppResult<(SlotRef<G>, Session<G>, Cancel, u64)> {
        let slot_ref = self.current::<G>()?;
        let cancel = Cancel::new();
        {
            let mut kinds = G::slots(&self.0.games).lock();
            // Someone waits for this search: the game is on screen.
            kinds.hidden = false;
            kinds.search.cancel();
            kinds.search = cancel.clone();
            if let Some((_, c)) = kinds.optimum.take() {
                c.cancel();
            }
        }
        let mut slot = lock(&slot_ref);
        slot.search = cancel.clone();
        let (sess, version) = (slot.session.clone(), slot.version);
        drop(slot);
        Ok((slot_ref, sess, cancel, version))
    }

    /// After a hint/solve: the optimum search of the current slot may run again.
    pub(crate) fn end_search<G: AppGame>(&self) {
        self.find_optimal_current::<G>();
    }

    pub fn hint(&self, kind: Kind) -> AppResult<HintView> {
        // Without the engine's searches (the web page's board wasm) hints run as search jobs
        // (`offload`); the command itself is left out of that build.
        if !cfg!(feature = "search") {
            return Err(AppError::not_in_build("the hint command"));
        }
        with_game!(kind, G => {
            let r = self.hint_g::<G>();
            // A proof still running in the background restarts the optimum when it ends.
            if !matches!(&r, Ok(h) if h.pending) {
                self.end_search::<G>();
            }
            r
        })
    }

    /// The hint the current game already holds, without searching or counting a hint
    /// (`null` when none): what the page asks for once a background proof made it optimal.
    pub fn hint_status(&self, kind: Kind) -> AppResult<Option<HintView>> {
        with_game!(kind, G => {
            let slot_ref = self.current::<G>()?;
            let slot = lock(&slot_ref);
            Ok(slot.session.cached_hint().map(|h| hint_view(&h, false)))
        })
    }

    fn hint_g<G: AppGame>(&self) -> AppResult<HintView> {
        let (slot_ref, mut sess, cancel, version) = self.begin_search::<G>()?;
        let hint = self.gated(&cancel, || {
            guard("the hint", || {
                sess.hint_within(
                    *lock(&self.0.search_budget),
                    &Monotonic(self.platform().clock.as_ref()),
                    &cancel,
                )
                .map_err(AppError::from)
            })
        })?;
        let mut slot = lock(&slot_ref);
        if cancel.is_cancelled() || slot.version != version {
            return Err(AppError::new(
                ErrorCode::Cancelled,
                "the hint was overtaken by a newer request, a move, or leaving the game",
            ));
        }
        // The clone carries the hint line (for reuse) and the hints count.
        slot.session = sess;
        let stamp = self.stamp();
        slot.touch(stamp);
        self.save_slot(&mut slot, false);
        let mut pending = !hint.optimal && slot.session.current().hint_can_improve();
        if pending {
            // Not proven within the budget: go on proving in the background; any change of
            // the slot (a move, leaving, `cancel`) cancels it through `slot.search`.
            let proof = Cancel::new();
            slot.search = proof.clone();
            {
                let mut kinds = G::slots(&self.0.games).lock();
                kinds.search = proof.clone();
                kinds.proof = Some(proof.clone());
                if kinds.hidden {
                    proof.park();
                }
            }
            let game = slot.session.current().clone();
            drop(slot);
            pending = self.prove_hint::<G>(slot_ref, game, proof);
        }
        Ok(hint_view(&hint, pending))
    }

    /// Run the optimal hint search for `game` (the slot's current position) on a thread of
    /// its own, within [`PROOF_TIME`] of running time and 64 MiB (the thread's ambient
    /// budget, which the engine's hint searches read); when it finishes first, the slot's
    /// session adopts it and the page is told (`hint_ready`). Past its budget it ends
    /// without a word (the hint stays as it was). Then the kind's optimum search may run
    /// again. `false` when the platform cannot run it (then nothing is pending).
    fn prove_hint<G: AppGame>(&self, slot_ref: SlotRef<G>, game: G, cancel: Cancel) -> bool {
        let state = self.clone();
        // Made now: a proof parked before its thread starts has its clock stopped already.
        let bounds = self.running_budget(&cancel, PROOF_TIME);
        let job = Box::new(move || {
            // Parking the flag (the game left the screen) makes this search sleep where it
            // stands, its budget's clock stopped; unparking lets it go on from the same node.
            cancel.arm_here();
            let board = game.board_body();
            let found = state.bounded(Urgency::Background, bounds, || {
                guard("the hint proof", || {
                    game.hint(&cancel).map_err(AppError::from)
                })
            });
            {
                let mut kinds = G::slots(&state.0.games).lock();
                if kinds.proof.as_ref().is_some_and(|p| p.same(&cancel)) {
                    kinds.proof = None;
                }
            }
            let adopted = match found {
                Ok(h) if !cancel.is_cancelled() => {
                    let mut slot = lock(&slot_ref);
                    !cancel.is_cancelled() && slot.session.adopt_hint(&board, &h)
                }
                _ => false,
            };
            if adopted {
                state.hint_ready(G::KIND);
            }
            state.end_search::<G>();
        });
        let spawned = self.spawn_background("huarong-hint-proof", job);
        if !spawned {
            self.end_search::<G>();
        }
        spawned
    }

    pub fn solve(&self, kind: Kind) -> AppResult<SolveView> {
        // As `hint`: a search job in the board wasm.
        if !cfg!(feature = "search") {
            return Err(AppError::not_in_build("the solve command"));
        }
        with_game!(kind, G => {
            let r = self.solve_g::<G>();
            self.end_search::<G>();
            r
        })
    }

    fn solve_g<G: AppGame>(&self) -> AppResult<SolveView> {
        let (slot_ref, sess, cancel, version) = self.begin_search::<G>()?;
        if sess.status() != Status::Playing {
            return Err(AppError::new(ErrorCode::IllegalMove, "the game is over"));
        }
        let moves = self
            .gated(&cancel, || {
                guard("the solver", || {
                    sess.solution_within(
                        *lock(&self.0.search_budget),
                        &Monotonic(self.platform().clock.as_ref()),
                        &cancel,
                    )
                    .map_err(AppError::from)
                })
            })?
            .moves;
        let mut slot = lock(&slot_ref);
        if cancel.is_cancelled() || slot.version != version {
            return Err(AppError::new(
                ErrorCode::Cancelled,
                "the solver was overtaken by a newer request, a move, or leaving the game",
            ));
        }
        // Asking for the whole solution marks the game: it will not set records.
        slot.session.mark_auto_solved();
        let stamp = self.stamp();
        slot.touch(stamp);
        self.save_slot(&mut slot, false);
        Ok(SolveView {
            moves: moves
                .iter()
                .filter_map(|m| serde_json::to_value(m).ok())
                .collect(),
        })
    }

    /// `cancel`: stop the running hint/solve, opening and replay of `kind` (of every kind
    /// when `None`).
    pub fn cancel(&self, kind: Option<Kind>) {
        for k in Kind::ALL {
            if kind.is_none_or(|want| want == k) {
                with_game!(k, G => {
                    let kinds = G::slots(&self.0.games).lock();
                    kinds.search.cancel();
                    kinds.opening.cancel();
                    kinds.replay.cancel();
                    kinds.preview.cancel();
                });
            }
        }
    }

    /// Slot `key` is about to become `G`'s current one: if another game was current, its
    /// hint, solve or hint proof stops (the player left it; at most one search per kind).
    /// Call with no slot lock held (the kind's lock comes first).
    pub(crate) fn leave_current<G: AppGame>(&self, key: &str) {
        if self.current_key(G::KIND).is_some_and(|k| k != key) {
            self.cancel(Some(G::KIND));
        }
    }

    pub(crate) fn find_optimal_current<G: AppGame>(&self) {
        if let Ok(slot_ref) = self.current::<G>() {
            self.find_optimal::<G>(&slot_ref);
        }
    }

    /// Compute the start's optimum in the background when the game can and it is cheap
    /// enough; kept in the slot for the finish view. One per kind: it cancels the kind's
    /// previous one, and waits while a hint or solve of the kind runs.
    pub(crate) fn find_optimal<G: AppGame>(&self, slot_ref: &SlotRef<G>) {
        let (start, id, key) = {
            let slot = lock(slot_ref);
            if slot.optimal.is_some()
                || !G::has_optimum(slot.session.start())
                || slot.optimum_failed.as_deref() == Some(slot.session.id())
            {
                return;
            }
            (
                slot.session.start().clone(),
                slot.session.id().to_string(),
                slot.key.clone(),
            )
        };
        let cancel = Cancel::new();
        {
            let mut kinds = G::slots(&self.0.games).lock();
            // Nobody looks at the game: no background work starts (it starts when the game
            // is shown again).
            if kinds.hidden || !self.on_screen(G::KIND) {
                return;
            }
            if let Some((k, c)) = kinds.optimum.take() {
                if k == key && !c.is_cancelled() {
                    kinds.optimum = Some((k, c));
                    return;
                }
                c.cancel();
            }
            kinds.optimum = Some((key.clone(), cancel.clone()));
        }
        let slot = slot_ref.clone();
        // Parked while the game is off screen: that time is not taken from its budget.
        let bounds = self.running_budget(&cancel, OPTIMUM_TIME);
        let state = self.clone();
        let job = Box::new(move || {
            cancel.arm_here();
            let found = state.bounded(Urgency::Background, bounds, || {
                guard("the optimum", || Ok(G::optimum(&start, &cancel)))
                    .ok()
                    .flatten()
            });
            {
                // This search is over: the kind runs no optimum now (a new game in the same
                // slot must be able to start its own).
                let mut kinds = G::slots(&state.0.games).lock();
                if kinds.optimum.as_ref().is_some_and(|(_, c)| c.same(&cancel)) {
                    kinds.optimum = None;
                }
            }
            let stopped = cancel.is_cancelled();
            let mut s = lock(&slot);
            if stopped || s.session.id() != id {
                return;
            }
            match found {
                // A finish waiting for it gets its verdict now (`huarong-finish`).
                Some(n) => state.optimum_known(&mut s, n),
                None => {
                    // Over its bytes or time, or no optimum at all: not tried again for
                    // this game (the header keeps it across starts).
                    state.optimum_failed(&mut s);
                    state.save_slot(&mut s, false);
                }
            }
        });
        // Without threads (the web core's worker) there is no background optimum: the
        // finish view then shows the quick optimum where the game has one.
        let _ = self.spawn_background("huarong-optimum", job);
    }

    /// Whether the progress shows `kind`'s game screen.
    pub(crate) fn on_screen(&self, kind: Kind) -> bool {
        self.store().progress.screen == format!("game:{}", kind.as_str())
    }

    /// Run a job nobody waits for, below the UI; `false` when the platform cannot.
    fn spawn_background(&self, name: &str, job: crate::platform::Job) -> bool {
        let tasks = &self.platform().tasks;
        tasks.threaded() && tasks.spawn(name, Priority::Background, job).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use crate::core::AppState;
    use crate::games::AppGame;
    use huarong_engine::slide::Slide;
    use huarong_engine::Kind;
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    /// The 80-move 4×4 board: no optimal proof within a 1 ms budget.
    const HARDEST: &str = "slide:4x4:0,12,9,13,15,11,10,14,3,7,2,5,4,8,6,1";

    fn no_saving() -> AppState {
        AppState::open(None, crate::Platform::headless(), || Err("no store".into()))
    }

    /// The running hint/solve of the slide kind (a handle that sees its cancellation).
    fn running(st: &AppState) -> huarong_engine::Cancel {
        Slide::slots(&st.0.games).lock().search.clone()
    }

    #[test]
    fn opening_or_resuming_another_game_stops_the_hint_proof_of_the_one_left() {
        let st = no_saving();
        st.set_search_budget(Duration::from_millis(1));
        st.open_game(HARDEST, false).expect("open");
        let hint = st.hint(Kind::Slide).expect("a hint");
        assert!(hint.pending, "a proof goes on");
        let proof = running(&st);
        assert!(!proof.is_cancelled());
        // Re-opening the same game resumes it: the proof goes on.
        st.open_game(HARDEST, false).expect("resume");
        assert!(!proof.is_cancelled(), "the same game stays current");
        // Another game of the kind becomes current: the proof stops.
        st.open_game("slide:4x4#5", false).expect("open another");
        assert!(
            proof.is_cancelled(),
            "the proof of the game left still runs"
        );
        // The same for resuming a slot: a hint on the 4×4 challenge, then back to the board.
        st.open_game(HARDEST, false).expect("resume");
        let hint = st.hint(Kind::Slide).expect("a hint");
        assert!(hint.pending);
        let proof = running(&st);
        let other = st
            .list_games()
            .into_iter()
            .find(|g| g.id != HARDEST && g.kind == Kind::Slide)
            .expect("the other slot");
        st.resume_game(&other.slot).expect("resume the other");
        assert!(
            proof.is_cancelled(),
            "resuming another slot stops the proof"
        );
        // Leave on a board whose optimum is instant, so that no search outlives the test.
        st.open_game("slide:3x3:1,2,3,4,5,6,7,0,8", false)
            .expect("open a trivial board");
        st.shutdown();
    }

    /// The machine's clocks, the monotonic one moved on by hand when the test says: time
    /// passes in an instant, with no sleeping.
    #[derive(Default)]
    struct Jumping {
        real: crate::platform::native::SystemClock,
        ahead_ns: AtomicU64,
    }
    impl Jumping {
        fn jump(&self, by: Duration) {
            self.ahead_ns
                .fetch_add(by.as_nanos() as u64, Ordering::SeqCst);
        }
    }
    impl crate::platform::Clock for Jumping {
        fn wall_ms(&self) -> u64 {
            self.real.wall_ms()
        }
        fn monotonic(&self) -> Duration {
            self.real.monotonic() + Duration::from_nanos(self.ahead_ns.load(Ordering::SeqCst))
        }
        fn utc_offset_minutes(&self, wall_ms: u64) -> i32 {
            self.real.utc_offset_minutes(wall_ms)
        }
    }

    /// Counts the `hint_ready` events.
    #[derive(Default)]
    struct Heard(AtomicUsize);
    impl crate::platform::Events for Heard {
        fn emit(&self, event: crate::platform::Event) {
            if matches!(event, crate::platform::Event::HintReady(_)) {
                self.0.fetch_add(1, Ordering::SeqCst);
            }
        }
    }

    /// Whether `proof` is still the kind's running proof.
    fn proving(st: &AppState, proof: &huarong_engine::Cancel) -> bool {
        Slide::slots(&st.0.games)
            .lock()
            .proof
            .as_ref()
            .is_some_and(|p| p.same(proof))
    }

    /// Wait (real time, at most `limit`) until `done`.
    fn wait_until(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
        let t = Instant::now();
        while !done() {
            if t.elapsed() > limit {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        true
    }

    #[test]
    fn the_hint_proof_ends_at_its_running_time_budget_which_parking_does_not_use_up() {
        let clock = Arc::new(Jumping::default());
        let heard = Arc::new(Heard::default());
        let mut platform = crate::Platform::headless().with_events(heard.clone());
        platform.clock = clock.clone();
        let st = AppState::open(None, platform, || Err("no store".into()));
        st.set_search_budget(Duration::from_millis(1));
        st.open_game(HARDEST, false).expect("open");
        let hint = st.hint(Kind::Slide).expect("a hint");
        assert!(hint.pending && !hint.optimal, "a proof goes on");
        let proof = running(&st);
        assert!(proving(&st, &proof));

        // Off screen (the app in the background): the proof parks, and ten budgets' worth
        // of time passes. Shown again, it goes on: the parked time was not its running time.
        st.pause(Some(Kind::Slide));
        assert!(proof.is_parked());
        clock.jump(super::PROOF_TIME * 10);
        st.show(Kind::Slide);
        assert!(!proof.is_parked());
        // Long enough for the search to look at its deadline many times (it does every few
        // thousand nodes), far too short for the 80-move proof (about 100 s).
        std::thread::sleep(Duration::from_millis(300));
        assert!(
            proving(&st, &proof),
            "the proof stopped after a parking: the parked time used up its budget"
        );

        // Its running time runs out: it ends by itself, quietly.
        clock.jump(super::PROOF_TIME);
        assert!(
            wait_until(Duration::from_secs(20), || !proving(&st, &proof)),
            "the proof outlived its time budget"
        );
        assert!(
            !proof.is_cancelled(),
            "it ended by its budget, not by a cancel"
        );
        assert_eq!(heard.0.load(Ordering::SeqCst), 0, "nothing was adopted");
        let kept = st.hint_status(Kind::Slide).expect("the slot");
        assert!(kept.is_some_and(|h| !h.optimal), "the hint stays as it was");

        // The next hint works, and starts a proof of its own.
        let again = st.hint(Kind::Slide).expect("the next hint");
        assert!(again.pending);
        let next = running(&st);
        assert!(!next.same(&proof) && proving(&st, &next));
        st.open_game("slide:3x3:1,2,3,4,5,6,7,0,8", false)
            .expect("open a trivial board");
        assert!(next.is_cancelled());
        st.shutdown();
    }
}
