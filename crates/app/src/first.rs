//! The web page's first core: a friend's shared board playable before the app core has
//! arrived.
//!
//! A friend opening a shared link waits for the board on a phone network, and the app core's
//! wasm is several hundred kilobytes. [`First`] is what the page runs until the core is there: it
//! answers the few commands a first visit makes before playing (`get_settings`, `get_progress`,
//! `open_game`, `levels`, `set_screen`, `snapshot`, `pause`, `haptic`, and `play` of a move that
//! does not end the game) for a player with **nothing saved**, and nothing else. It keeps no files:
//! the page replays every command it answered into the core once the core has started, at the
//! times they were made, and compares the replies (web/src/core-worker.js); only then is anything
//! stored.
//!
//! Its replies are the core's own because they are built by the same functions: the View from
//! [`crate::play::view_of`], the slot from [`crate::slots::route_of`], the code from
//! [`crate::launch::resolve_open_result`], the session from the same opening, the level lists
//! from [`crate::games::levels`], over a [`Progress`] as a fresh store has it. A test
//! (crates/web/tests/first.rs) plays the same commands on both and compares every reply.
//!
//! Whatever it cannot answer exactly as the core would, it does not answer: [`Answer::Defer`]
//! (the page then waits for the core). That is every other command, every error (the core says
//! it in its own words), a daily's code or a speedsolving run (friends' boards, streaks), a move
//! that finishes the game (records, stars), a second game, and `get_progress` once anything has
//! changed (the store's generation counts commits only the core makes).

use crate::games::{with_game, AppGame, Mode, Player};
use crate::platform::{Clock, Feedback};
use crate::play::view_of;
use crate::progress::{Progress, Record};
use crate::slots::{route_of, Slot};
use crate::views::{ProgressView, StorageView, View};
use huarong_engine::{Kind, Status};
use serde::Serialize;
use serde_json::Value;
use std::any::Any;

/// What [`First::dispatch`] says of a command.
#[derive(Debug)]
pub enum Answer {
    /// The core's reply, as JSON.
    Reply(Value),
    /// Not answered here: the command waits for the core.
    Defer,
}

/// The first core: one fresh player's settings, at most one game, no storage.
pub struct First {
    clock: Box<dyn Clock>,
    progress: Progress,
    /// What the core's `get_progress` says of a store that has just been started empty.
    storage: StorageView,
    /// The one game, its kind and its slot (a `Slot<G>` of that kind).
    game: Option<(Kind, Box<dyn Any>)>,
    /// Something was changed (a game opened, a screen set, a move): `get_progress` defers.
    changed: bool,
    /// Haptic kinds for the page to play, in order.
    haptics: Vec<String>,
}

impl First {
    /// A first core on `clock` for a player with nothing saved, whose core keeps its files
    /// under `dir` (the web page's `/huarong`).
    pub fn new(clock: Box<dyn Clock>, dir: &str) -> First {
        First {
            clock,
            progress: Progress::default(),
            // What the core's `get_progress` says of a store it has just started empty:
            // writable, nothing written yet (generation 0).
            storage: StorageView {
                dir: Some(dir.to_string()),
                writable: true,
                gen: 0,
                durable: 0,
                error: None,
            },
            game: None,
            changed: false,
            haptics: Vec::new(),
        }
    }

    /// The haptic kinds queued since the last call (the page vibrates them).
    pub fn take_haptics(&mut self) -> Vec<String> {
        std::mem::take(&mut self.haptics)
    }

    fn now(&self) -> u64 {
        self.clock.monotonic().as_millis() as u64
    }

    /// One command of the IPC contract, with its JSON arguments.
    pub fn dispatch(&mut self, name: &str, args: Value) -> Answer {
        let Ok(mut a) = crate::args::Args::from_json(args) else {
            return Answer::Defer;
        };
        let reply = match name {
            "get_settings" => reply(&self.progress.settings),
            "get_progress" if !self.changed => reply(&self.progress_view()),
            "levels" => {
                let Some(kind) = kind_of(&mut a) else {
                    return Answer::Defer;
                };
                let rule = self.progress.settings.rule(kind.as_str()).to_string();
                Some(crate::games::levels(
                    &FreshPlayer(&self.progress),
                    kind,
                    &rule,
                ))
            }
            "haptic" => self.haptic(&mut a),
            "open_game" => self.open_game(&mut a),
            "set_screen" => self.set_screen(&mut a),
            "pause" => self.pause_command(&mut a),
            "snapshot" => kind_of(&mut a)
                .and_then(|k| self.view(k))
                .and_then(|v| reply(&v)),
            "play" => self.play(&mut a),
            _ => None,
        };
        match reply {
            Some(v) => Answer::Reply(v),
            None => Answer::Defer,
        }
    }

    /// `get_progress` of a store that has just been started empty (and the game, if any).
    fn progress_view(&self) -> ProgressView {
        let p = &self.progress;
        let mut games = std::collections::BTreeMap::new();
        if let Some((kind, _)) = &self.game {
            if let Some(v) = self.view(*kind) {
                games.insert(kind.as_str().to_string(), v.snapshot);
            }
        }
        ProgressView {
            settings: p.settings.clone(),
            records: p.records.clone(),
            unlocked: p.unlocked.clone(),
            streaks: p.streaks.clone(),
            games,
            screen: p.screen.clone(),
            today: crate::platform::today(self.clock.as_ref()),
            notices: Vec::new(),
            storage: self.storage.clone(),
            quarantined: p.quarantine.len(),
        }
    }

    fn haptic(&mut self, a: &mut crate::args::Args) -> Option<Value> {
        let kind = crate::args::string("kind", a.take("kind"), 16).ok()?;
        Feedback::parse(&kind).ok()?;
        if !self.progress.settings.haptics {
            return Some(Value::Bool(false));
        }
        self.haptics.push(kind);
        Some(Value::Bool(true))
    }

    /// `open_game` of a shared code or game ID into a fresh store (`AppState::open_game`).
    fn open_game(&mut self, a: &mut crate::args::Args) -> Option<Value> {
        if self.game.is_some() {
            return None;
        }
        let text = crate::args::string("id", a.take("id"), crate::args::MAX_OPEN).ok()?;
        crate::args::flag("replace", a.take("replace")).ok()?;
        let (id, challenge, _) = crate::launch::resolve_open_result(&text).ok()?;
        if challenge.as_ref().is_some_and(|c| c.daily.is_some()) {
            return None;
        }
        let kind = huarong_engine::GameId::parse(&id).ok()?.kind;
        let view = with_game!(kind, G => self.open_g::<G>(&id, challenge))?;
        reply(&view)
    }

    fn open_g<G: AppGame>(
        &mut self,
        id: &str,
        challenge: Option<crate::progress::SlotChallenge>,
    ) -> Option<View> {
        let sess = crate::launch::open_session::<G>(id, None).ok()?;
        if let Some(c) = challenge.as_ref().filter(|c| !c.verified) {
            G::impossible(sess.start(), c.moves, c.outcome)
                .is_none()
                .then_some(())?;
        }
        let today = crate::platform::today(self.clock.as_ref());
        let (key, mode) = route_of(&sess, true, &today);
        if mode == Mode::Daily {
            return None;
        }
        let slot = Slot::new(key.clone(), mode, sess, self.clock.wall_ms());
        if challenge.is_some() {
            crate::challenge::set(
                &mut self.progress,
                &key,
                challenge,
                std::slice::from_ref(&key),
            );
        }
        let view = view_of(&slot, &self.progress, self.now(), None, None);
        self.progress
            .current
            .insert(G::KIND.as_str().to_string(), key);
        self.game = Some((G::KIND, Box::new(slot)));
        self.changed = true;
        Some(view)
    }

    /// `set_screen`: every game not on screen stops its clock (`AppState::set_screen`).
    fn set_screen(&mut self, a: &mut crate::args::Args) -> Option<Value> {
        let screen = crate::args::string("screen", a.take("screen"), 64).ok()?;
        if !crate::progress::valid_screen(&screen) {
            return None;
        }
        for k in Kind::ALL {
            if screen != format!("game:{}", k.as_str()) {
                self.pause(Some(k));
            }
        }
        self.progress.screen = screen;
        self.changed = true;
        Some(Value::Null)
    }

    fn pause_command(&mut self, a: &mut crate::args::Args) -> Option<Value> {
        let kind = crate::args::opt_kind(a.take("kind")).ok()?;
        self.pause(kind);
        Some(Value::Null)
    }

    /// The game's clock stops (when it is of `kind`, or of any kind).
    fn pause(&mut self, kind: Option<Kind>) {
        let now = self.now();
        if let Some((k, slot)) = &mut self.game {
            if kind.is_none_or(|want| want == *k) {
                with_game!(*k, G => {
                    if let Some(slot) = slot.downcast_mut::<Slot<G>>() {
                        slot.session.pause(now);
                        self.changed = true;
                    }
                });
            }
        }
    }

    /// `play` of a move that does not end the game (`AppState::play`).
    fn play(&mut self, a: &mut crate::args::Args) -> Option<Value> {
        let kind = kind_of(a)?;
        let mv = a.take("mv")?;
        let now = self.now();
        let (k, slot) = self.game.as_mut()?;
        if *k != kind {
            return None;
        }
        let view = with_game!(kind, G => {
            let slot = slot.downcast_mut::<Slot<G>>()?;
            play_g::<G>(slot, &self.progress, mv, now)
        })?;
        self.changed = true;
        reply(&view)
    }

    /// The game's view when it is of `kind` (`AppState::snapshot`).
    fn view(&self, kind: Kind) -> Option<View> {
        let (k, slot) = self.game.as_ref()?;
        if *k != kind {
            return None;
        }
        let now = self.now();
        with_game!(kind, G => slot
            .downcast_ref::<Slot<G>>()
            .map(|s| view_of(s, &self.progress, now, None, None)))
    }
}

/// A move on `slot` (`AppState::play_g`), unless it would end the game or the slot plays a run.
fn play_g<G: AppGame>(slot: &mut Slot<G>, p: &Progress, mv: Value, now: u64) -> Option<View> {
    if slot.run.is_some() {
        return None;
    }
    let m: G::Move = crate::args::mv(G::KIND, Some(mv)).ok()?;
    let before = slot.session.status();
    let mut next = slot.session.clone();
    let effect = next.play(&m, now).ok()?;
    if next.status() != before || before != Status::Playing {
        return None;
    }
    slot.session = next;
    let effect = serde_json::to_value(effect).ok();
    Some(view_of(slot, p, now, effect, None))
}

fn kind_of(a: &mut crate::args::Args) -> Option<Kind> {
    crate::args::kind(a.take("kind")).ok()
}

fn reply<T: Serialize>(v: &T) -> Option<Value> {
    serde_json::to_value(v).ok()
}

/// The player of a fresh store, for level lists.
struct FreshPlayer<'a>(&'a Progress);

impl Player for FreshPlayer<'_> {
    fn record(&self, key: &str) -> Option<Record> {
        self.0.records.get(key).cloned()
    }
    fn unlocked(&self, kind: Kind) -> u32 {
        self.0
            .unlocked
            .get(kind.as_str())
            .copied()
            .unwrap_or(crate::games::FIRST_UNLOCKED)
    }
    fn has_custom_picture(&self) -> bool {
        false
    }
}
