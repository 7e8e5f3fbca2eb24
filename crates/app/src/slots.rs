//! Game slots (contract.md "Slots"): every game the player started lives in a slot with a
//! stable key; each kind has one *current* slot (what `play`, `undo`, `hint`… act on).
//!
//! Keys: `slide:<W>x<H>`, `klotski:level:<n>`, `klotski:generated`, `2048:free`,
//! `<kind>:daily:<YYYY-MM-DD>`, `challenge:<FNV-1a 64 of the game ID, 16 hex>`.
//! A new game never silently replaces an unfinished game with moves (`would_replace`
//! unless `replace: true`); opening the game a slot already plays resumes it. At most
//! [`MAX_SLOTS`] slots: beyond, finished slots go first, then slots at 0 moves, oldest
//! first (never a current slot or an unfinished daily of today), with a `slot_dropped`
//! notice; a game with moves only when nothing else can go, and a new slot that would
//! drop one is `would_replace` first.

use crate::core::{lock, AppState};
use crate::error::{AppError, AppResult, Code};
use crate::games::{with_game, AppGame, Mode};
pub use crate::games::{KindMap, KindSlots, Slot, SlotRef};
use crate::persist::Notice;
pub use crate::progress::{mode_of_key, MAX_SLOTS};
use crate::views::{GameEntry, View};
use huarong_engine::{Kind, Session, Status};
use std::sync::{Arc, Mutex};

/// Longest wait for a new game to be on disk before its slot becomes current.
const POINTER_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// FNV-1a 64 of `id`, as 16 lower-case hex digits (the challenge slot of a game ID).
pub fn fnv1a64(id: &str) -> String {
    format!("{:016x}", huarong_engine::rng::fnv1a64(id.as_bytes()))
}

/// A short name of a slot's game for messages: "4x4", "klotski level 3", "2048 daily of …".
pub fn describe(key: &str) -> String {
    let parts: Vec<&str> = key.split(':').collect();
    match parts.as_slice() {
        ["challenge", _] => "challenge".into(),
        [kind, "daily", date] => format!("{kind} daily of {date}"),
        [kind, "level", n] => format!("{kind} level {n}"),
        [kind, "free"] | [kind, "generated"] => kind.to_string(),
        [_, size] => size.to_string(),
        _ => key.to_string(),
    }
}

fn would_replace(key: &str, moves: u32) -> AppError {
    AppError::new(
        Code::WouldReplace,
        format!(
            "your {} game in progress ({moves} moves) would be replaced; confirm to start anew",
            describe(key)
        ),
    )
}

/// The slot of a game: a daily puzzle of `today` or yesterday, a game's own slot
/// (a Klotski level), else a challenge slot of its ID (`opened`: `open_game`) or its new-game
/// slot. Pure: the app state and the web page's first core (`first.rs`) route with it.
pub(crate) fn route_of<G: AppGame>(
    start: &Session<G>,
    opened: bool,
    today: &str,
) -> (String, Mode) {
    if let Some(date) = crate::daily::daily_day(G::KIND, start.id(), today) {
        return (format!("{}:daily:{date}", G::KIND.as_str()), Mode::Daily);
    }
    if let Some(km) = G::open_slot(start.start()) {
        return km;
    }
    if opened {
        (
            format!("challenge:{}", fnv1a64(start.id())),
            Mode::Challenge,
        )
    } else {
        G::new_slot(start.start())
    }
}

impl AppState {
    /// The key of `kind`'s current slot.
    pub(crate) fn current_key(&self, kind: Kind) -> Option<String> {
        self.store().progress.current.get(kind.as_str()).cloned()
    }

    /// `G`'s current slot.
    pub(crate) fn current<G: AppGame>(&self) -> AppResult<SlotRef<G>> {
        let key = self
            .current_key(G::KIND)
            .ok_or_else(|| AppError::no_game(G::KIND.as_str()))?;
        G::slots(&self.0.games)
            .lock()
            .slots
            .get(&key)
            .cloned()
            .ok_or_else(|| AppError::no_game(G::KIND.as_str()))
    }

    /// A new slot (restoring: no checks, no save).
    pub(crate) fn insert_slot<G: AppGame>(&self, key: String, mode: Mode, session: Session<G>) {
        let slot = Slot::new(key.clone(), mode, session, self.stamp());
        G::slots(&self.0.games)
            .lock()
            .slots
            .insert(key, Arc::new(Mutex::new(slot)));
    }

    /// The slot `open_game` puts a plain game ID in (not a code: see `launch.rs`).
    pub(crate) fn route_id<G: AppGame>(&self, start: &Session<G>, opened: bool) -> (String, Mode) {
        route_of(start, opened, &self.today())
    }

    /// Put `sess` into slot `key` and make it its kind's current slot. An unfinished game
    /// with moves there is replaced only with `replace`; with `resume`, a slot already
    /// playing the same game ID is resumed instead.
    pub(crate) fn place<G: AppGame>(
        &self,
        key: String,
        mode: Mode,
        sess: Session<G>,
        replace: bool,
        resume: bool,
        run: Option<huarong_engine::slide::run::Run>,
    ) -> AppResult<View> {
        let stamp = self.stamp();
        // The clock of the game that stops being current stops.
        self.pause_g::<G>();
        let existing = G::slots(&self.0.games).lock().slots.get(&key).cloned();
        let slot_ref = match existing {
            Some(slot_ref) => {
                {
                    let mut slot = lock(&slot_ref);
                    let same = slot.session.id() == sess.id();
                    if resume && same && slot.session.status() == Status::Playing {
                        drop(slot);
                        return self.resume_slot::<G>(&slot_ref);
                    }
                    if slot.would_lose() && !replace {
                        let moves = self.view(&slot, None, None).snapshot.moves;
                        return Err(would_replace(&key, moves));
                    }
                    slot.touch(stamp);
                    slot.mode = mode;
                    slot.set_session(sess);
                    slot.run = run;
                }
                slot_ref
            }
            None => {
                if !replace {
                    self.cap_check(&key)?;
                }
                // A game the journal holds but the app could not restore (a newer app's
                // save, a generator past its bound) occupies its key: it is replaced only
                // when confirmed, and its files are kept aside, never overwritten.
                if self.0.journal.holds(&key) {
                    if !replace {
                        return Err(AppError::new(
                            Code::WouldReplace,
                            format!(
                                "your {} game that could not be resumed is kept in the games folder; confirm to start anew (its file stays there, set aside)",
                                describe(&key)
                            ),
                        ));
                    }
                    self.0.journal.set_aside(&key);
                    self.notice(Notice::info(
                        "kept_aside",
                        format!(
                            "your {} game that could not be resumed stays in the games folder as a file set aside",
                            describe(&key)
                        ),
                    ));
                }
                self.insert_slot(key.clone(), mode, sess);
                let slot_ref = G::slots(&self.0.games)
                    .lock()
                    .slots
                    .get(&key)
                    .cloned()
                    .ok_or_else(|| AppError::internal("the new slot vanished"))?;
                lock(&slot_ref).run = run;
                slot_ref
            }
        };
        // Make room first, while the current slots are still the old ones: a kill at any
        // point leaves the previous current game intact.
        self.enforce_cap(&key);
        self.save_slot(&mut lock(&slot_ref), true);
        // The journal and the progress store are written by two threads. The store must
        // not name a slot the journal does not hold yet: after a kill the start would fall
        // back to the newest slot, which may be an orphan of an earlier interrupted open
        // (newer than the game that was current). So the pointer follows the game.
        // A journal that cannot write reports it itself (`save_failed`); the game is still
        // made current (in memory) so the player can play on.
        let _ = self.0.journal.flush(POINTER_WAIT);
        self.leave_current::<G>(&key);
        let view = {
            let slot = lock(&slot_ref);
            self.set_current(G::KIND, &key);
            self.view(&slot, None, None)
        };
        self.find_optimal::<G>(&slot_ref);
        Ok(view)
    }

    /// Make `slot_ref` its kind's current slot and show it.
    fn resume_slot<G: AppGame>(&self, slot_ref: &SlotRef<G>) -> AppResult<View> {
        self.pause_g::<G>();
        let key = lock(slot_ref).key.clone();
        self.leave_current::<G>(&key);
        let view = {
            let slot = lock(slot_ref);
            self.set_current(G::KIND, &slot.key);
            self.view(&slot, None, None)
        };
        self.find_optimal::<G>(slot_ref);
        Ok(view)
    }

    /// `resume_game`: the slot's game, undo history included, now its kind's current game.
    pub fn resume_game(&self, key: &str) -> AppResult<View> {
        for kind in Kind::ALL {
            let found = with_game!(kind, G => {
                let s = G::slots(&self.0.games).lock().slots.get(key).cloned();
                s.map(|s| self.resume_slot::<G>(&s))
            });
            if let Some(v) = found {
                return v;
            }
        }
        Err(AppError::new(
            Code::NoGame,
            format!(
                "there is no game in slot {:?}",
                key.chars().take(80).collect::<String>()
            ),
        ))
    }

    /// `list_games`: every slot, most recently played first.
    pub fn list_games(&self) -> Vec<GameEntry> {
        let mut out = Vec::new();
        for kind in Kind::ALL {
            with_game!(kind, G => {
                let refs: Vec<SlotRef<G>> =
                    G::slots(&self.0.games).lock().slots.values().cloned().collect();
                for r in refs {
                    let slot = lock(&r);
                    let v = self.view(&slot, None, None);
                    out.push(GameEntry {
                        slot: slot.key.clone(),
                        kind,
                        id: v.snapshot.id.clone(),
                        moves: v.snapshot.moves,
                        status: v.snapshot.status,
                        elapsed_ms: v.snapshot.elapsed_ms,
                        updated_ms: slot.updated_ms,
                        mode: slot.mode,
                        unfinished: slot.unfinished(),
                    });
                }
            });
        }
        out.sort_by(|a, b| b.updated_ms.cmp(&a.updated_ms).then(a.slot.cmp(&b.slot)));
        out
    }

    /// The slot the cap drops next from `games` (never `keep`, a kind's current slot or
    /// today's unfinished daily): what loses nothing first — finished games, then games at 0
    /// moves — oldest first; a game with moves only when nothing else can go. With whether
    /// it has moves to lose.
    fn cap_victim<'a>(&self, games: &'a [GameEntry], keep: &str) -> Option<(&'a GameEntry, bool)> {
        let today = self.today();
        let current: Vec<String> = Kind::ALL
            .iter()
            .filter_map(|k| self.current_key(*k))
            .collect();
        let protected = |g: &GameEntry| {
            g.slot == keep
                || current.contains(&g.slot)
                || (g.mode == Mode::Daily && g.unfinished && g.slot.ends_with(&today))
        };
        let tier = |g: &GameEntry| match (g.unfinished, g.moves) {
            (false, _) => 0u8,
            (true, 0) => 1,
            (true, _) => 2,
        };
        games
            .iter()
            .filter(|g| !protected(g))
            .min_by_key(|g| (tier(g), g.updated_ms, g.slot.clone()))
            .map(|g| (g, tier(g) == 2))
    }

    /// A new slot `key` would make the cap drop a game with moves: the player is asked first
    /// (`would_replace`, naming that game), never told after.
    fn cap_check(&self, key: &str) -> AppResult<()> {
        let games = self.list_games();
        if games.len() < MAX_SLOTS {
            return Ok(());
        }
        match self.cap_victim(&games, key) {
            Some((v, true)) => Err(AppError::new(
                Code::WouldReplace,
                format!(
                    "at most {MAX_SLOTS} games are kept: your unfinished {} game ({} moves) would be removed; confirm to go on",
                    describe(&v.slot),
                    v.moves
                ),
            )),
            _ => Ok(()),
        }
    }

    /// Drop slots beyond [`MAX_SLOTS`] (never `keep`, the one just placed), in the order of
    /// [`AppState::cap_victim`].
    pub(crate) fn enforce_cap(&self, keep: &str) {
        loop {
            let games = self.list_games();
            if games.len() <= MAX_SLOTS {
                return;
            }
            let Some((v, _)) = self.cap_victim(&games, keep) else {
                return;
            };
            self.remove_slot(v.kind, &v.slot);
            let what = if v.unfinished {
                format!("unfinished ({} moves)", v.moves)
            } else {
                "finished".to_string()
            };
            self.notice(Notice::info(
                "slot_dropped",
                format!(
                    "your {what} {} game ({}) was removed: at most {MAX_SLOTS} games are kept",
                    describe(&v.slot),
                    v.id.chars().take(60).collect::<String>()
                ),
            ));
        }
    }

    fn remove_slot(&self, kind: Kind, key: &str) {
        with_game!(kind, G => {
            let removed = G::slots(&self.0.games).lock().slots.remove(key);
            if let Some(r) = removed {
                lock(&r).search.cancel();
            }
        });
        self.0.journal.remove(key);
        // The store forgets the slot's settled mark only once the journal forgot the slot:
        // a finished slot without its mark is recorded again at the next start (a win
        // counted twice after a kill).
        let _ = self.0.journal.flush(POINTER_WAIT);
        let k = kind.as_str().to_string();
        let key = key.to_string();
        self.commit(|p| {
            if p.current.get(&k) == Some(&key) {
                p.current.remove(&k);
            }
            p.settled.remove(&key);
        });
    }

    /// Hand `slot`'s change to the journal: a delta (O(1) bytes for a move), or with
    /// `full` the whole session (a new game in the slot, a finished game).
    pub(crate) fn save_slot<G: AppGame>(&self, slot: &mut Slot<G>, full: bool) {
        let now = self.now();
        let header = slot_header(slot);
        let journal = &self.0.journal;
        let delta = slot.session.take_delta(now);
        if full {
            let saved = serde_json::to_value(slot.session.save(now)).unwrap_or_default();
            journal.put(&slot.key, header, saved);
        } else {
            journal.append(
                &slot.key,
                header,
                serde_json::to_value(delta).unwrap_or_default(),
            );
        }
    }

    /// Make `key` the current slot of `kind` and show its game (in the progress store).
    pub(crate) fn set_current(&self, kind: Kind, key: &str) {
        let key = key.to_string();
        self.commit(|p| {
            p.current.insert(kind.as_str().into(), key);
            p.screen = format!("game:{}", kind.as_str());
        });
    }
}

/// The journal header of a slot: how its game was started and what was counted of it.
pub(crate) fn slot_header<G: AppGame>(slot: &Slot<G>) -> serde_json::Value {
    serde_json::json!({
        "kind": G::KIND.as_str(),
        "mode": slot.mode,
        "updated_ms": slot.updated_ms,
        "counted_win": slot.counted_win,
        "finish_date": slot.finish_date,
        "counted_before": slot.counted_before,
        "optimum_failed": slot.optimum_failed,
        "run": slot.run.as_ref().map(|r| r.save()),
        "origin": slot.from_editor.then_some("editor"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_the_reference_values() {
        // FNV-1a 64 test vectors.
        assert_eq!(fnv1a64(""), "cbf29ce484222325");
        assert_eq!(fnv1a64("a"), "af63dc4c8601ec8c");
        assert_eq!(fnv1a64("foobar"), "85944171f73967e8");
    }

    #[test]
    fn keys_have_modes() {
        assert_eq!(mode_of_key("slide:4x4"), Some(Mode::Free));
        assert_eq!(mode_of_key("klotski:level:3"), Some(Mode::Level));
        assert_eq!(mode_of_key("2048:daily:2026-12-01"), Some(Mode::Daily));
        assert_eq!(
            mode_of_key("challenge:0123456789abcdef"),
            Some(Mode::Challenge)
        );
        assert_eq!(mode_of_key("challenge:xyz"), None);
        assert_eq!(mode_of_key("chess:free"), None);
        assert_eq!(describe("slide:4x4"), "4x4");
        assert_eq!(describe("klotski:level:3"), "klotski level 3");
    }
}
