//! The one generic session for every game (the "middle" of guide §1): the list of states
//! for undo/redo (a move after an undo drops the redo branch; restart is itself an undoable
//! entry), the move log, the clock, hint caching, and save/restore by replaying the log.
//!
//! Time is passed in as milliseconds by the caller (`now_ms`); the engine reads no clock.
//!
//! Every log entry keeps its time: the session's elapsed clock when it was played (the first
//! move of a game is at 0, the clock runs from it), `None` where unknown (a save from before
//! times were kept). An undone entry keeps its time while it waits on the redo branch; a redo
//! gives it the redo's time; a new move after an undo drops the branch with its times.

use crate::error::{Error, ErrorCode, Result};
use crate::game::{Cancel, Game, Hint, Kind, Status};
use crate::id::GameId;
use serde::{Deserialize, Serialize};

/// Version of [`SavedSession`]'s layout.
pub const SAVE_VERSION: u32 = 1;
/// Longest move log a saved session may hold (bounded replay work).
pub const MAX_LOG: usize = 200_000;

/// One entry of the move log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", content = "m", rename_all = "snake_case")]
pub enum Entry<M> {
    Move(M),
    Restart,
}

/// Everything needed to bring a session back exactly: the game ID it started from, the
/// whole log (including a redo branch), where the player stood in it, and the clock.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound(deserialize = "M: serde::de::DeserializeOwned"))]
pub struct SavedSession<M> {
    pub version: u32,
    pub id: String,
    pub log: Vec<Entry<M>>,
    pub cursor: usize,
    pub elapsed_ms: u64,
    #[serde(default)]
    pub undo_used: bool,
    #[serde(default)]
    pub hints_used: u32,
    #[serde(default)]
    pub auto_solved: bool,
    #[serde(default = "yes")]
    pub undo_allowed: bool,
    /// The time of each log entry (ms on the session's elapsed clock), `null` where unknown;
    /// empty in a save from before times were kept (all unknown), else as long as `log`.
    #[serde(default)]
    pub times: Vec<Option<u64>>,
}

fn yes() -> bool {
    true
}

/// What changed in a session since the last [`Session::take_delta`] (or `restore`): the log
/// is cut back to `keep` entries, then `add` is appended; the other fields are the new values.
/// Small for a move (one entry), so a journal can store one per change (O(1) bytes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound(deserialize = "M: serde::de::DeserializeOwned"))]
pub struct SessionDelta<M> {
    pub keep: usize,
    pub add: Vec<Entry<M>>,
    pub cursor: usize,
    pub elapsed_ms: u64,
    pub undo_used: bool,
    pub hints_used: u32,
    pub auto_solved: bool,
    pub undo_allowed: bool,
    /// The times of `add`'s entries (empty in a delta from before times were kept: unknown).
    #[serde(default)]
    pub add_times: Vec<Option<u64>>,
    /// Entries below `keep` whose time changed (a redo), as `[index, ms]`.
    #[serde(default)]
    pub retimed: Vec<(usize, Option<u64>)>,
}

impl<M> SavedSession<M> {
    /// The time of each log entry, `None` where unknown (an old save has none).
    pub fn entry_times(&self) -> Vec<Option<u64>> {
        let mut t = self.times.clone();
        t.resize(self.log.len(), None);
        t
    }

    /// Bring this save forward by one delta. Checked: a delta that does not fit (cuts past
    /// the end, a cursor past the new end, a log over [`MAX_LOG`]) is `CorruptSave` and
    /// changes nothing.
    pub fn apply(&mut self, d: SessionDelta<M>) -> Result<()> {
        let corrupt = |why: String| Error::new(ErrorCode::CorruptSave, why);
        if d.keep > self.log.len() {
            return Err(corrupt(format!(
                "delta keeps {} entries of a {}-entry log",
                d.keep,
                self.log.len()
            )));
        }
        let len = d.keep.saturating_add(d.add.len());
        if len > MAX_LOG {
            return Err(corrupt(format!("move log of {len} entries is too long")));
        }
        if d.cursor > len {
            return Err(corrupt(format!(
                "cursor {} is past the end of a {len}-entry log",
                d.cursor
            )));
        }
        if !d.add_times.is_empty() && d.add_times.len() != d.add.len() {
            return Err(corrupt(format!(
                "delta has {} times for {} entries",
                d.add_times.len(),
                d.add.len()
            )));
        }
        if let Some((i, _)) = d.retimed.iter().find(|(i, _)| *i >= d.keep) {
            return Err(corrupt(format!(
                "delta retimes entry {i} past its kept part"
            )));
        }
        let mut times = self.entry_times();
        times.truncate(d.keep);
        for (i, t) in d.retimed {
            times[i] = t;
        }
        times.extend(d.add_times);
        times.resize(len, None);
        self.times = times;
        self.log.truncate(d.keep);
        self.log.extend(d.add);
        self.cursor = d.cursor;
        self.elapsed_ms = d.elapsed_ms;
        self.undo_used = d.undo_used;
        self.hints_used = d.hints_used;
        self.auto_solved = d.auto_solved;
        self.undo_allowed = d.undo_allowed;
        Ok(())
    }
}

/// What the UI renders; the same shape for every game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Snapshot {
    pub kind: Kind,
    /// The game ID this session started from.
    pub id: String,
    /// The current board in game-ID body form (`data-state`).
    pub board: String,
    /// Moves under the game's counting rule.
    pub moves: u32,
    /// All counters the game keeps.
    pub counters: serde_json::Value,
    /// The board as structured data (`Game::view`).
    pub view: serde_json::Value,
    pub status: Status,
    pub can_undo: bool,
    pub can_redo: bool,
    pub elapsed_ms: u64,
    pub undo_used: bool,
    pub hints_used: u32,
    pub auto_solved: bool,
}

#[derive(Debug, Clone)]
pub struct Session<G: Game> {
    id: String,
    start: G,
    /// `states[0]` is the start; `states[i]` is the position after `log[i - 1]`.
    states: Vec<G>,
    log: Vec<Entry<G::Move>>,
    /// The time of each `log` entry (see the module documentation).
    times: Vec<Option<u64>>,
    /// Entries below `synced` retimed by a redo since the last `take_delta`.
    retimed: Vec<(usize, Option<u64>)>,
    cursor: usize,
    elapsed_ms: u64,
    running_since: Option<u64>,
    undo_used: bool,
    hints_used: u32,
    auto_solved: bool,
    undo_allowed: bool,
    /// The rest of the last solution handed out as a hint, from the current position.
    line: Vec<G::Move>,
    line_optimal: bool,
    /// The current position was reached by `redo` (not by a move, undo or restart): a finish
    /// reached so replays a line already played. Not saved (a restored session is `false`).
    redone: bool,
    /// Length of the log prefix unchanged since the last `take_delta`/`restore`.
    synced: usize,
}

impl<G: Game> Session<G> {
    /// Start a session from a game ID string of this game's kind.
    pub fn open(id: &str) -> Result<Self> {
        let parsed = GameId::parse(id)?;
        if parsed.kind != G::KIND {
            return Err(Error::parse(format!(
                "game ID is for {}, not {}",
                parsed.kind.as_str(),
                G::KIND.as_str()
            )));
        }
        let game = G::from_id(&parsed.body, parsed.seed)?;
        Ok(Self::with_game(parsed.to_string(), game))
    }

    /// Start a session from a game already built; `id` must rebuild the same game.
    pub fn with_game(id: String, game: G) -> Self {
        Session {
            id,
            start: game.clone(),
            states: vec![game],
            log: Vec::new(),
            times: Vec::new(),
            retimed: Vec::new(),
            cursor: 0,
            elapsed_ms: 0,
            running_since: None,
            undo_used: false,
            hints_used: 0,
            auto_solved: false,
            undo_allowed: true,
            line: Vec::new(),
            line_optimal: false,
            redone: false,
            synced: 0,
        }
    }

    pub fn id(&self) -> &str {
        &self.id
    }
    pub fn current(&self) -> &G {
        &self.states[self.cursor]
    }
    pub fn start(&self) -> &G {
        &self.start
    }
    pub fn status(&self) -> Status {
        self.current().status()
    }
    /// The entries from the start up to the current position (what was actually played).
    pub fn played(&self) -> &[Entry<G::Move>] {
        &self.log[..self.cursor]
    }
    /// The time of each entry of [`Session::played`] (ms on the session's elapsed clock; the
    /// game's first move is at 0), `None` where unknown (restored from an old save).
    pub fn played_times(&self) -> &[Option<u64>] {
        &self.times[..self.cursor]
    }
    pub fn can_undo(&self) -> bool {
        self.undo_allowed && self.cursor > 0
    }
    pub fn can_redo(&self) -> bool {
        self.undo_allowed && self.cursor < self.log.len()
    }
    pub fn set_undo_allowed(&mut self, allowed: bool) {
        self.undo_allowed = allowed;
    }
    pub fn undo_used(&self) -> bool {
        self.undo_used
    }
    pub fn hints_used(&self) -> u32 {
        self.hints_used
    }
    pub fn auto_solved(&self) -> bool {
        self.auto_solved
    }
    /// Whether the current position was reached by `redo` (see the field).
    pub fn redone(&self) -> bool {
        self.redone
    }
    /// Mark that the machine played (auto-solve); records should not count this game.
    pub fn mark_auto_solved(&mut self) {
        self.auto_solved = true;
    }

    /// Time played so far, in milliseconds.
    pub fn elapsed_ms(&self, now_ms: u64) -> u64 {
        self.elapsed_ms
            .saturating_add(self.running_since.map_or(0, |t| now_ms.saturating_sub(t)))
    }

    /// Stop the clock (app sent to background); the next move starts it again.
    pub fn pause(&mut self, now_ms: u64) {
        self.elapsed_ms = self.elapsed_ms(now_ms);
        self.running_since = None;
    }

    /// Start the clock now, before the first move (the next solve of a speedsolving run:
    /// one timer for the whole run).
    pub fn start_clock(&mut self, now_ms: u64) {
        self.tick(now_ms);
    }

    fn tick(&mut self, now_ms: u64) {
        self.pause(now_ms);
        if self.status() == Status::Playing {
            self.running_since = Some(now_ms);
        }
    }

    fn push(&mut self, entry: Entry<G::Move>, state: G, time: Option<u64>) {
        self.log.truncate(self.cursor);
        self.times.truncate(self.cursor);
        self.states.truncate(self.cursor + 1);
        self.synced = self.synced.min(self.cursor);
        self.retimed.retain(|(i, _)| *i < self.cursor);
        self.log.push(entry);
        self.times.push(time);
        self.states.push(state);
        self.cursor += 1;
    }

    /// Whether one more entry fits in the log at the current position ([`MAX_LOG`]).
    fn has_room(&self) -> bool {
        self.cursor < MAX_LOG
    }

    fn full() -> Error {
        Error::range(format!(
            "this game has reached the limit of {MAX_LOG} moves; restart or start a new game"
        ))
    }

    /// Play a move. Illegal moves change nothing and return the rules' error; a move past
    /// the log limit ([`MAX_LOG`]) is `OutOfRange` and changes nothing.
    pub fn play(&mut self, mv: &G::Move, now_ms: u64) -> Result<G::Effect> {
        if !self.current().accepts(mv) {
            return Err(Error::illegal(
                "the game is over; undo or restart to play on",
            ));
        }
        if !self.has_room() {
            return Err(Self::full());
        }
        let mut next = self.current().clone();
        let effect = next.apply(mv)?;
        let at = self.elapsed_ms(now_ms);
        self.push(Entry::Move(mv.clone()), next, Some(at));
        self.redone = false;
        if self.line.first() == Some(mv) {
            self.line.remove(0);
        } else {
            self.line.clear();
        }
        self.tick(now_ms);
        Ok(effect)
    }

    pub fn undo(&mut self, now_ms: u64) -> Result<()> {
        if !self.undo_allowed {
            return Err(Error::unsupported("undo is switched off for this game"));
        }
        if self.cursor == 0 {
            return Err(Error::new(ErrorCode::NothingToUndo, "nothing to undo"));
        }
        self.cursor -= 1;
        self.undo_used = true;
        self.redone = false;
        self.line.clear();
        self.tick(now_ms);
        Ok(())
    }

    pub fn redo(&mut self, now_ms: u64) -> Result<()> {
        if !self.undo_allowed {
            return Err(Error::unsupported("redo is switched off for this game"));
        }
        if self.cursor >= self.log.len() {
            return Err(Error::new(ErrorCode::NothingToRedo, "nothing to redo"));
        }
        let at = Some(self.elapsed_ms(now_ms));
        self.times[self.cursor] = at;
        if self.cursor < self.synced {
            self.retimed.push((self.cursor, at));
        }
        self.cursor += 1;
        self.redone = true;
        self.line.clear();
        self.tick(now_ms);
        Ok(())
    }

    /// Back to the start position, as an undoable entry. A restart at the start is a no-op.
    /// At the log limit ([`MAX_LOG`]) there is no room for the entry: the restart then starts
    /// the log afresh (the undo history is dropped; clock and flags are kept).
    pub fn restart(&mut self, now_ms: u64) {
        if self.cursor == 0 {
            return;
        }
        let start = self.start.clone();
        self.redone = false;
        if !self.has_room() {
            self.log.clear();
            self.times.clear();
            self.retimed.clear();
            self.states.truncate(1);
            self.cursor = 0;
            self.synced = 0;
            self.line.clear();
            self.tick(now_ms);
            return;
        }
        let at = self.elapsed_ms(now_ms);
        self.push(Entry::Restart, start, Some(at));
        self.line.clear();
        self.tick(now_ms);
    }

    /// The next move of a solution from here. While the player follows the last solution
    /// handed out, the rest of it is reused without searching again.
    pub fn hint(&mut self, cancel: &Cancel) -> Result<Hint<G::Move>> {
        self.hint_by(|g| g.hint(cancel))
    }

    /// A hint counted as used: the rest of the cached line if there is one, else what `ask`
    /// answers for the current position, whose line (if any) is cached.
    fn hint_by(&mut self, ask: impl FnOnce(&G) -> Result<Hint<G::Move>>) -> Result<Hint<G::Move>> {
        if self.status() != Status::Playing {
            return Err(Error::illegal("the game is over"));
        }
        self.hints_used = self.hints_used.saturating_add(1);
        if let Some(cached) = self.cached_hint() {
            return Ok(cached);
        }
        let hint = ask(self.current())?;
        if !hint.line.is_empty() || hint.values.is_none() {
            self.keep_line(&hint);
        }
        Ok(hint)
    }

    /// A whole solution from the current position (the caller plays it with `play`).
    pub fn solution(&self, cancel: &Cancel) -> Result<Vec<G::Move>> {
        self.current().solve(cancel)
    }

    /// [`Session::hint`] within about `budget`: a cached line is reused as by `hint`;
    /// otherwise [`Game::hint_within`] answers (maybe `optimal: false`) and its line is kept.
    /// When the answer is not optimal and [`Game::hint_can_improve`] holds, the caller may
    /// run [`Game::hint`] on a clone of [`Session::current`] in the background and hand the
    /// result to [`Session::adopt_hint`].
    pub fn hint_within(
        &mut self,
        budget: std::time::Duration,
        clock: &dyn crate::clock::Clock,
        cancel: &Cancel,
    ) -> Result<Hint<G::Move>> {
        self.hint_by(|g| g.hint_within(budget, clock, cancel))
    }

    /// [`Session::hint_within`] with the search done elsewhere (a web page's search worker ran
    /// [`Game::hint_within`] on a copy of this position and handed back `found`): counted as a
    /// hint used, a cached line is reused as by `hint`, otherwise `found` is the answer and its
    /// line is kept.
    pub fn hint_found(&mut self, found: Hint<G::Move>) -> Result<Hint<G::Move>> {
        self.hint_by(|_| Ok(found))
    }

    /// Adopt a hint computed elsewhere (a background proof) for the position whose
    /// [`Game::board_body`] is `board`: if the session still stands there and the hint is
    /// optimal, its line replaces the cached one (later hints reuse it, flagged optimal).
    /// Returns whether it was adopted; does not count as a hint used.
    pub fn adopt_hint(&mut self, board: &str, hint: &Hint<G::Move>) -> bool {
        if !hint.optimal || self.status() != Status::Playing || self.current().board_body() != board
        {
            return false;
        }
        self.keep_line(hint);
        true
    }

    /// Cache `hint`'s move and the rest of its line as the line from the current position.
    fn keep_line(&mut self, hint: &Hint<G::Move>) {
        self.line = std::iter::once(hint.mv.clone())
            .chain(hint.line.iter().cloned())
            .collect();
        self.line_optimal = hint.optimal;
    }

    /// The hint the session already holds for the current position (the head of its cached
    /// line), without searching and without counting a hint; `None` when it holds none.
    pub fn cached_hint(&self) -> Option<Hint<G::Move>> {
        let mv = self.line.first()?;
        Some(Hint {
            mv: mv.clone(),
            optimal: self.line_optimal,
            line: self.line[1..].to_vec(),
            values: None,
        })
    }

    /// [`Session::solution`] within about `budget` ([`Game::solve_within`]).
    pub fn solution_within(
        &self,
        budget: std::time::Duration,
        clock: &dyn crate::clock::Clock,
        cancel: &Cancel,
    ) -> Result<crate::game::Solved<G::Move>> {
        self.current().solve_within(budget, clock, cancel)
    }

    pub fn snapshot(&self, now_ms: u64) -> Snapshot {
        let g = self.current();
        Snapshot {
            kind: G::KIND,
            id: self.id.clone(),
            board: g.board_body(),
            moves: g.moves(),
            counters: g.counters(),
            view: g.view(&self.start),
            status: g.status(),
            can_undo: self.can_undo(),
            can_redo: self.can_redo(),
            elapsed_ms: self.elapsed_ms(now_ms),
            undo_used: self.undo_used,
            hints_used: self.hints_used,
            auto_solved: self.auto_solved,
        }
    }

    pub fn save(&self, now_ms: u64) -> SavedSession<G::Move> {
        SavedSession {
            version: SAVE_VERSION,
            id: self.id.clone(),
            log: self.log.clone(),
            cursor: self.cursor,
            elapsed_ms: self.elapsed_ms(now_ms),
            undo_used: self.undo_used,
            hints_used: self.hints_used,
            auto_solved: self.auto_solved,
            undo_allowed: self.undo_allowed,
            times: self.times.clone(),
        }
    }

    /// What changed since the last `take_delta` (or `restore`, or the start): see
    /// [`SessionDelta`]. `save` does not move this mark (it takes `&self`); a delta applied to
    /// any save taken after the previous `take_delta` still gives exactly the current save.
    pub fn take_delta(&mut self, now_ms: u64) -> SessionDelta<G::Move> {
        let keep = self.synced.min(self.log.len());
        self.synced = self.log.len();
        let retimed = std::mem::take(&mut self.retimed)
            .into_iter()
            .filter(|(i, _)| *i < keep)
            .collect();
        SessionDelta {
            retimed,
            add_times: self.times[keep..].to_vec(),
            keep,
            add: self.log[keep..].to_vec(),
            cursor: self.cursor,
            elapsed_ms: self.elapsed_ms(now_ms),
            undo_used: self.undo_used,
            hints_used: self.hints_used,
            auto_solved: self.auto_solved,
            undo_allowed: self.undo_allowed,
        }
    }

    /// Rebuild a session by replaying a saved log. Anything that does not replay exactly
    /// is `ErrorCode::CorruptSave` with the reason; nothing is half-restored.
    pub fn restore(saved: &SavedSession<G::Move>) -> Result<Self> {
        let corrupt = |why: String| Error::new(ErrorCode::CorruptSave, why);
        if saved.version == 0 || saved.version > SAVE_VERSION {
            return Err(corrupt(format!("unknown save version {}", saved.version)));
        }
        if saved.log.len() > MAX_LOG {
            return Err(corrupt(format!(
                "move log of {} entries is too long",
                saved.log.len()
            )));
        }
        if !saved.times.is_empty() && saved.times.len() != saved.log.len() {
            return Err(corrupt(format!(
                "{} times for a {}-entry log",
                saved.times.len(),
                saved.log.len()
            )));
        }
        if saved.cursor > saved.log.len() {
            return Err(corrupt(format!(
                "cursor {} is past the end of a {}-entry log",
                saved.cursor,
                saved.log.len()
            )));
        }
        let mut s =
            Self::open(&saved.id).map_err(|e| corrupt(format!("bad game ID: {}", e.message)))?;
        let times = saved.entry_times();
        for (i, entry) in saved.log.iter().enumerate() {
            let next = match entry {
                Entry::Move(mv) => {
                    let mut next = s.current().clone();
                    if !next.accepts(mv) {
                        return Err(corrupt(format!("entry {i} plays after the game ended")));
                    }
                    next.apply(mv).map_err(|e| {
                        corrupt(format!("entry {i} does not replay: {}", e.message))
                    })?;
                    next
                }
                Entry::Restart => s.start.clone(),
            };
            s.push(entry.clone(), next, times[i]);
        }
        s.cursor = saved.cursor;
        s.elapsed_ms = saved.elapsed_ms;
        s.running_since = None;
        s.undo_used = saved.undo_used;
        s.hints_used = saved.hints_used;
        s.auto_solved = saved.auto_solved;
        s.undo_allowed = saved.undo_allowed;
        s.synced = s.log.len();
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Hint;

    /// A toy game for the session laws: a counter that must reach a target; moves add 1 or 2.
    #[derive(Debug, Clone, PartialEq)]
    struct Count {
        at: u32,
        target: u32,
        moves: u32,
    }

    impl Game for Count {
        const KIND: Kind = Kind::Slide;
        type Move = u32;
        type Effect = u32;
        fn from_id(body: &str, _seed: Option<u64>) -> Result<Self> {
            let target = body.parse().map_err(|_| Error::parse("not a number"))?;
            Ok(Count {
                at: 0,
                target,
                moves: 0,
            })
        }
        fn board_body(&self) -> String {
            format!("{}/{}", self.at, self.target)
        }
        fn apply(&mut self, mv: &u32) -> Result<u32> {
            if !(1..=2).contains(mv) || self.at + mv > self.target {
                return Err(Error::illegal("bad step"));
            }
            self.at += mv;
            self.moves += 1;
            Ok(self.at)
        }
        fn status(&self) -> Status {
            Status::won_if(self.at == self.target)
        }
        fn moves(&self) -> u32 {
            self.moves
        }
        fn counters(&self) -> serde_json::Value {
            serde_json::json!({ "moves": self.moves })
        }
        fn hint(&self, _c: &Cancel) -> Result<Hint<u32>> {
            let mut line = Vec::new();
            let mut at = self.at;
            while at < self.target {
                let step = if self.target - at >= 2 { 2 } else { 1 };
                line.push(step);
                at += step;
            }
            Ok(Hint {
                mv: line[0],
                optimal: true,
                line: line[1..].to_vec(),
                values: None,
            })
        }
        fn solve(&self, c: &Cancel) -> Result<Vec<u32>> {
            let h = self.hint(c)?;
            Ok(std::iter::once(h.mv).chain(h.line).collect())
        }
    }

    fn s() -> Session<Count> {
        Session::open("slide:9").unwrap()
    }

    #[test]
    fn undo_redo_restart_laws() {
        let mut s = s();
        assert!(!s.can_undo() && !s.can_redo());
        s.play(&1, 0).unwrap();
        s.play(&2, 10).unwrap();
        assert_eq!(s.current().at, 3);
        s.undo(20).unwrap();
        assert_eq!(s.current().at, 1);
        assert!(s.can_redo());
        s.redo(30).unwrap();
        assert_eq!(s.current().at, 3);
        assert!(s.redone(), "reached by redo");
        // A new move after undo drops the redo branch.
        s.undo(40).unwrap();
        assert!(!s.redone());
        s.play(&1, 50).unwrap();
        assert_eq!(s.current().at, 2);
        assert!(!s.can_redo() && !s.redone());
        // Restart is undoable.
        s.restart(60);
        assert_eq!(s.current().at, 0);
        s.undo(70).unwrap();
        assert_eq!(s.current().at, 2);
        assert!(s.undo_used());
        // Illegal moves change nothing.
        let before = s.save(80);
        assert_eq!(s.play(&5, 80).unwrap_err().code, ErrorCode::IllegalMove);
        assert_eq!(s.save(80), before);
        assert_eq!(s.undo(0).map(|_| ()), Ok(()));
        assert_eq!(s.undo(0).map(|_| ()), Ok(()));
        assert_eq!(s.undo(0).unwrap_err().code, ErrorCode::NothingToUndo);
    }

    #[test]
    fn a_win_reached_by_redo_says_so() {
        let mut s = s();
        for t in 0..4 {
            s.play(&2, t).unwrap();
        }
        s.play(&1, 5).unwrap();
        assert_eq!(s.status(), Status::Won);
        assert!(!s.redone(), "won by a move");
        // Undo only, then the same line again by redo: the win is a replay.
        for t in 0..5 {
            s.undo(10 + t).unwrap();
        }
        for t in 0..5 {
            s.redo(20 + t).unwrap();
        }
        assert_eq!(s.status(), Status::Won);
        assert!(s.redone());
        // Not saved: a restored session starts afresh.
        assert!(!Session::<Count>::restore(&s.save(30)).unwrap().redone());
        s.restart(40);
        assert!(!s.redone());
    }

    #[test]
    fn save_restore_round_trip_including_redo_branch() {
        let mut s = s();
        s.play(&2, 0).unwrap();
        s.play(&2, 1000).unwrap();
        s.restart(2000);
        s.play(&1, 2500).unwrap();
        s.undo(3000).unwrap();
        let saved = s.save(3000);
        let json = serde_json::to_string(&saved).unwrap();
        let back: SavedSession<u32> = serde_json::from_str(&json).unwrap();
        let r = Session::<Count>::restore(&back).unwrap();
        assert_eq!(r.save(3000), saved);
        assert_eq!(r.current(), s.current());
        assert_eq!(r.snapshot(3000).elapsed_ms, 3000);
        assert!(r.can_redo());
    }

    #[test]
    fn restore_rejects_bad_saves() {
        let mut s = s();
        s.play(&2, 0).unwrap();
        let mut bad = s.save(0);
        bad.log.push(Entry::Move(7));
        assert_eq!(
            Session::<Count>::restore(&bad).unwrap_err().code,
            ErrorCode::CorruptSave
        );
        let mut bad = s.save(0);
        bad.cursor = 9;
        assert_eq!(
            Session::<Count>::restore(&bad).unwrap_err().code,
            ErrorCode::CorruptSave
        );
        let mut bad = s.save(0);
        bad.version = 99;
        assert_eq!(
            Session::<Count>::restore(&bad).unwrap_err().code,
            ErrorCode::CorruptSave
        );
        let mut bad = s.save(0);
        bad.id = "2048:garbage".into();
        assert_eq!(
            Session::<Count>::restore(&bad).unwrap_err().code,
            ErrorCode::CorruptSave
        );
    }

    #[test]
    fn clock_runs_only_while_playing() {
        let mut s = s();
        assert_eq!(s.elapsed_ms(5000), 0);
        s.play(&2, 1000).unwrap();
        assert_eq!(s.elapsed_ms(4000), 3000);
        s.pause(4000);
        assert_eq!(s.elapsed_ms(9000), 3000);
        for (i, m) in [2, 2, 2, 1].iter().enumerate() {
            s.play(m, 10_000 + i as u64 * 1000).unwrap();
        }
        assert_eq!(s.status(), Status::Won);
        let t = s.elapsed_ms(13_000);
        assert_eq!(s.elapsed_ms(99_000), t, "clock stops at the win");
        assert_eq!(s.play(&1, 99_000).unwrap_err().code, ErrorCode::IllegalMove);
    }

    #[test]
    fn hint_line_is_reused_while_followed() {
        let mut s = s();
        let h = s.hint(&Cancel::new()).unwrap();
        assert_eq!(h.mv, 2);
        s.play(&2, 0).unwrap();
        let h2 = s.hint(&Cancel::new()).unwrap();
        assert_eq!(h2.line.len(), h.line.len() - 1);
        s.play(&1, 0).unwrap(); // off the line
        assert!(s.line.is_empty());
        assert_eq!(s.hints_used(), 2);
    }

    /// Every change, carried as deltas from a save, rebuilds exactly the session's save.
    #[test]
    fn deltas_replay_to_the_same_save() {
        let mut s = Session::<Count>::open("slide:1000").unwrap();
        let mut base = s.save(0);
        let mut rng = 12345u64;
        for step in 0..400u64 {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            match (rng >> 33) % 6 {
                0..=2 => {
                    let _ = s.play(&(1 + ((rng >> 40) % 2) as u32), step * 10);
                }
                3 => {
                    let _ = s.undo(step * 10);
                }
                4 => {
                    let _ = s.redo(step * 10);
                }
                _ => s.restart(step * 10),
            }
            if step % 3 == 0 {
                let d = s.take_delta(step * 10 + 5);
                assert!(d.add.len() <= s.save(0).log.len());
                let json = serde_json::to_string(&d).unwrap();
                base.apply(serde_json::from_str(&json).unwrap()).unwrap();
                assert_eq!(base, s.save(step * 10 + 5), "step {step}");
            }
        }
        // A single move is a one-entry delta.
        let _ = s.take_delta(0);
        s.play(&1, 2).unwrap();
        s.undo(3).unwrap();
        s.play(&2, 4).unwrap();
        let d = s.take_delta(5);
        assert_eq!(d.add.len(), 1);
        assert_eq!(d.keep, s.save(5).log.len() - 1);
        // The same delta over the JSON form (what the journal does).
        let mut generic: SavedSession<serde_json::Value> =
            serde_json::from_value(serde_json::to_value(&base).unwrap()).unwrap();
        let d2: SessionDelta<serde_json::Value> =
            serde_json::from_value(serde_json::to_value(&d).unwrap()).unwrap();
        base.apply(d).unwrap();
        generic.apply(d2).unwrap();
        assert_eq!(
            serde_json::to_value(&generic).unwrap(),
            serde_json::to_value(&base).unwrap()
        );
        // After restore the mark is at the end: no entries are sent again.
        let mut r = Session::<Count>::restore(&base).unwrap();
        let d = r.take_delta(9);
        assert!(d.add.is_empty());
        assert_eq!(d.keep, base.log.len());
    }

    #[test]
    fn apply_rejects_deltas_that_do_not_fit() {
        let mut s = s();
        s.play(&1, 0).unwrap();
        let mut base = s.save(0);
        let before = base.clone();
        let mut d = s.take_delta(0);
        d.keep = 5;
        assert_eq!(
            base.apply(d.clone()).unwrap_err().code,
            ErrorCode::CorruptSave
        );
        d.keep = 0;
        d.cursor = 7;
        assert_eq!(
            base.apply(d.clone()).unwrap_err().code,
            ErrorCode::CorruptSave
        );
        d.cursor = 0;
        d.add = vec![Entry::Move(1); MAX_LOG + 1];
        assert_eq!(base.apply(d).unwrap_err().code, ErrorCode::CorruptSave);
        assert_eq!(base, before, "a rejected delta changes nothing");
    }

    /// The log limit holds during play with a clear `out_of_range` error; restart still works.
    #[test]
    fn log_limit_is_enforced_during_play() {
        let mut s = Session::<Count>::open("slide:1000000").unwrap();
        for _ in 0..MAX_LOG {
            s.play(&1, 0).unwrap();
        }
        let e = s.play(&1, 0).unwrap_err();
        assert_eq!(e.code, ErrorCode::OutOfRange);
        assert!(e.message.contains("limit"), "{}", e.message);
        assert_eq!(s.save(0).log.len(), MAX_LOG);
        // Undo then play replaces the redo entry: still within the limit.
        s.undo(0).unwrap();
        s.play(&2, 0).unwrap();
        assert_eq!(s.save(0).log.len(), MAX_LOG);
        s.restart(0);
        assert_eq!(s.current().at, 0);
        assert_eq!(
            s.save(0).log.len(),
            0,
            "restart at the limit starts the log afresh"
        );
        let d = s.take_delta(0);
        assert_eq!((d.keep, d.add.len()), (0, 0));
        s.play(&1, 0).unwrap();
        assert!(Session::<Count>::restore(&s.save(0)).is_ok());
    }

    /// Each entry keeps its time on the elapsed clock through undo, redo, restart, pause,
    /// save/restore and deltas; an old save without times restores with unknown times.
    #[test]
    fn moves_keep_their_times() {
        let mut s = s();
        s.play(&1, 5_000).unwrap(); // the clock starts at the first move: 0
        s.play(&2, 5_400).unwrap();
        s.play(&1, 6_000).unwrap();
        assert_eq!(s.played_times(), [Some(0), Some(400), Some(1_000)]);
        s.undo(6_500).unwrap();
        assert_eq!(s.played_times(), [Some(0), Some(400)]);
        s.pause(7_000);
        // A redo gets the redo's time (the pause stopped the clock at 2,000).
        s.redo(60_000).unwrap();
        assert_eq!(s.played_times(), [Some(0), Some(400), Some(2_000)]);
        // An undone move's time goes with it when a new move replaces it.
        s.undo(60_100).unwrap();
        s.play(&2, 60_300).unwrap();
        assert_eq!(s.played_times(), [Some(0), Some(400), Some(2_300)]);
        s.restart(61_000);
        s.play(&2, 61_500).unwrap();
        assert_eq!(
            s.played_times(),
            [Some(0), Some(400), Some(2_300), Some(3_000), Some(3_500)]
        );
        // Save and restore keep them, over JSON too.
        let saved = s.save(62_000);
        let back: SavedSession<u32> =
            serde_json::from_str(&serde_json::to_string(&saved).unwrap()).unwrap();
        let r = Session::<Count>::restore(&back).unwrap();
        assert_eq!(r.played_times(), s.played_times());
        assert_eq!(r.save(62_000), saved);
        // A save from before times were kept: no `times` field, all unknown.
        let mut old = serde_json::to_value(&saved).unwrap();
        old.as_object_mut().unwrap().remove("times");
        let old: SavedSession<u32> = serde_json::from_value(old).unwrap();
        let mut r = Session::<Count>::restore(&old).unwrap();
        assert_eq!(r.played_times(), [None; 5]);
        r.play(&1, 100).unwrap();
        assert_eq!(
            r.played_times()[5],
            Some(4_000),
            "the clock goes on from the save"
        );
        // Times of the wrong length are a corrupt save.
        let mut bad = saved.clone();
        bad.times.pop();
        assert_eq!(
            Session::<Count>::restore(&bad).unwrap_err().code,
            ErrorCode::CorruptSave
        );
    }

    /// A redo's new time reaches a save through the deltas, though the entry was sent before.
    #[test]
    fn a_redo_retimes_through_deltas() {
        let mut s = s();
        let mut base = s.save(0);
        s.play(&1, 0).unwrap();
        s.play(&1, 100).unwrap();
        base.apply(s.take_delta(100)).unwrap();
        s.undo(200).unwrap();
        s.redo(900).unwrap();
        let d = s.take_delta(900);
        assert!(d.add.is_empty(), "no entry sent again");
        assert_eq!(d.retimed, vec![(1, Some(900))]);
        base.apply(d).unwrap();
        assert_eq!(base, s.save(900));
        // A delta from before times were kept (no time fields) still applies: unknown times.
        let mut old = s.clone();
        old.play(&2, 1_000).unwrap();
        let mut v = serde_json::to_value(old.take_delta(1_000)).unwrap();
        v.as_object_mut().unwrap().remove("add_times");
        v.as_object_mut().unwrap().remove("retimed");
        base.apply(serde_json::from_value(v).unwrap()).unwrap();
        assert_eq!(base.times, vec![Some(0), Some(900), None]);
    }

    /// Counters from a hostile save saturate instead of overflowing.
    #[test]
    fn clock_and_hint_counters_saturate() {
        let mut s = s();
        s.play(&1, 0).unwrap();
        let mut saved = s.save(0);
        saved.elapsed_ms = u64::MAX - 5;
        saved.hints_used = u32::MAX;
        let mut r = Session::<Count>::restore(&saved).unwrap();
        r.play(&1, 0).unwrap();
        r.pause(1_000_000);
        assert_eq!(r.elapsed_ms(2_000_000), u64::MAX);
        r.play(&1, 3_000_000).unwrap();
        assert_eq!(r.elapsed_ms(u64::MAX), u64::MAX);
        r.hint(&Cancel::new()).unwrap();
        assert_eq!(r.hints_used(), u32::MAX);
    }
}
