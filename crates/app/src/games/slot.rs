//! A game slot and one kind's map of slots (the data every layer above holds; `slots.rs`
//! routes games into them).

use super::Mode;
use huarong_engine::{Cancel, Game, Session, Status};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

/// One game in its slot.
pub struct Slot<G: Game> {
    pub key: String,
    pub mode: Mode,
    pub session: Session<G>,
    /// Unix ms of the last change.
    pub updated_ms: u64,
    /// Grows with every change of `session`; a search writes back only if it is unchanged.
    pub version: u64,
    /// The running hint/solve on this slot (any change cancels it).
    pub search: Cancel,
    /// The fewest moves from the start under the game's default rule, once known.
    pub optimal: Option<u32>,
    /// The game ID whose background optimum failed (over its memory or time budget): it is
    /// not tried again for that game (kept in the journal header, so not at the next start
    /// either).
    pub optimum_failed: Option<String>,
    /// This session already counted a win (undo then win again improves bests but is not a
    /// second win).
    pub counted_win: bool,
    /// The last finish of this session, for a record settled at the next start (a kill
    /// between the journal and the record): the local date of the finish, and whether the
    /// session had counted a win before that finish.
    pub finish_date: Option<String>,
    pub counted_before: bool,
    /// The finish view of the session's last change, when that change finished the game
    /// (in memory only: what `finish {kind}` reads, updated when a pending optimum arrives).
    pub finish: Option<crate::views::Finish>,
    /// The speedsolving run this slot plays (number slide marathons and relays):
    /// its mode, seed and splits; saved in the journal header with every change.
    pub run: Option<huarong_engine::slide::run::Run>,
    /// The game was opened from the Klotski editor (`open_game {origin: "editor"}`): its
    /// finish leads back there. Kept in the journal header (`origin`).
    pub from_editor: bool,
}

impl<G: Game> Slot<G> {
    /// A new slot of `session` (nothing searched or finished yet), last changed at `updated_ms`.
    pub fn new(key: String, mode: Mode, session: Session<G>, updated_ms: u64) -> Slot<G> {
        Slot {
            key,
            mode,
            session,
            updated_ms,
            version: 0,
            search: Cancel::new(),
            optimal: None,
            optimum_failed: None,
            counted_win: false,
            finish_date: None,
            counted_before: false,
            finish: None,
            run: None,
            from_editor: false,
        }
    }

    /// The session changed: cancel searches on the old position.
    pub fn touch(&mut self, stamp: u64) {
        self.version += 1;
        self.updated_ms = stamp;
        self.search.cancel();
        self.finish = None;
    }

    /// A new game in this slot: its session, with nothing yet known or counted of it (its
    /// optimum, a counted win, the last finish).
    pub fn set_session(&mut self, session: Session<G>) {
        self.session = session;
        self.optimal = None;
        self.counted_win = false;
        self.finish_date = None;
        self.counted_before = false;
        self.from_editor = false;
    }
}

impl<G: super::AppGame> Slot<G> {
    /// Whether the game can go on: playing, or 2048 at its 2048 tile before "keep going".
    pub fn unfinished(&self) -> bool {
        self.session.status() == Status::Playing || self.session.current().can_go_on()
    }
    /// Whether replacing this slot's game loses something: unfinished, with moves.
    pub fn would_lose(&self) -> bool {
        let run_started = self
            .run
            .as_ref()
            .is_some_and(|r| !r.splits().is_empty() && !r.done());
        run_started
            || (self.unfinished() && (!self.session.played().is_empty() || self.session.can_redo()))
    }
}

pub type SlotRef<G> = Arc<Mutex<Slot<G>>>;

/// One kind's slots and its searches (at most one hint/solve and one optimum at a time).
pub struct KindMap<G: Game> {
    pub slots: BTreeMap<String, SlotRef<G>>,
    /// The running hint/solve of this kind.
    pub search: Cancel,
    /// The running background optimum: (slot key, its cancel flag).
    pub optimum: Option<(String, Cancel)>,
    /// The running background proof of a hint (also `search` while it runs).
    pub proof: Option<Cancel>,
    /// The running opening of a game of this kind (a generator: `open_game`, `new_game`,
    /// a launch); `cancel` and a newer opening stop it.
    pub opening: Cancel,
    /// The running replay of a game of this kind (`replay`: its views and its analysis, issue
    /// 35); `cancel` and a newer replay stop it.
    pub replay: Cancel,
    /// The running `preview` of a game of this kind (a generator); `cancel` and a newer
    /// preview stop it.
    pub preview: Cancel,
    /// Nobody looks at this kind's game (another screen, or the app in the background):
    /// its proof and optimum are parked and no new background work starts.
    pub hidden: bool,
}

pub struct KindSlots<G: Game>(Mutex<KindMap<G>>);

impl<G: Game> Default for KindSlots<G> {
    fn default() -> Self {
        KindSlots(Mutex::new(KindMap {
            slots: BTreeMap::new(),
            search: Cancel::new(),
            optimum: None,
            proof: None,
            opening: Cancel::new(),
            replay: Cancel::new(),
            preview: Cancel::new(),
            hidden: false,
        }))
    }
}

impl<G: Game> KindSlots<G> {
    pub fn lock(&self) -> MutexGuard<'_, KindMap<G>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}
