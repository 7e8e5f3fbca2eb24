//! The app's state: one `Session` per game kind, the player's progress, and the saver.
//! Everything here is plain Rust (no Tauri types), so tests and the kill-test child can drive
//! exactly what the commands drive. Commands (`commands.rs`) only parse arguments and call in.
//!
//! Locking: a kind's slot lock may be held while taking the progress lock, never the
//! reverse. Searches (hint, solve, optimum) run without any lock, on a clone of the session,
//! and write back only if the slot did not change meanwhile (`version`).

use crate::args;
use crate::error::{guard, AppError, AppResult, Code};
use crate::games::AppGame;
use crate::persist::{self, Doc, Notice, Paths, Primary, Writer};
use crate::progress::{self, Progress, Record, Settings, Streak};
use huarong_engine::{Cancel, Game, Kind, SavedSession, Session, Snapshot, Status};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Run `$body` with `$G` bound to the game type of `$kind`.
macro_rules! with_game {
    ($kind:expr, $G:ident => $body:expr) => {
        match $kind {
            Kind::Slide => {
                type $G = huarong_engine::slide::Slide;
                $body
            }
            Kind::Klotski => {
                type $G = crate::games::Klotski;
                $body
            }
            Kind::G2048 => {
                type $G = huarong_engine::g2048::G2048;
                $body
            }
        }
    };
}

/// Klotski classics open before any is solved.
pub const FIRST_UNLOCKED: u32 = 3;

/// One game kind's live state.
pub struct Slot<G: Game> {
    pub session: Option<Session<G>>,
    /// Grows with every change of `session`; a search writes back only if it is unchanged.
    version: u64,
    /// The running hint/solve search (a newer request or any change cancels it).
    search: Cancel,
    /// The background computation of the start's optimum.
    opt_search: Cancel,
    /// The fewest moves from the start under the game's default rule, once known:
    /// (game ID, moves).
    optimal: Option<(String, u32)>,
    /// This session already counted a win (undo then win again improves bests but is not a
    /// second win).
    counted_win: bool,
}

impl<G: Game> Default for Slot<G> {
    fn default() -> Self {
        Slot {
            session: None,
            version: 0,
            search: Cancel::new(),
            opt_search: Cancel::new(),
            optimal: None,
            counted_win: false,
        }
    }
}

impl<G: Game> Slot<G> {
    /// The session changed: cancel searches on the old position.
    fn touch(&mut self) {
        self.version += 1;
        self.search.cancel();
    }
    fn session(&self) -> AppResult<&Session<G>> {
        self.session
            .as_ref()
            .ok_or_else(|| AppError::no_game(G::KIND.as_str()))
    }
    fn session_mut(&mut self) -> AppResult<&mut Session<G>> {
        self.session
            .as_mut()
            .ok_or_else(|| AppError::no_game(G::KIND.as_str()))
    }
}

pub type SlotRef<G> = Arc<Mutex<Slot<G>>>;

#[derive(Default)]
pub struct Games {
    pub slide: SlotRef<huarong_engine::slide::Slide>,
    pub klotski: SlotRef<crate::games::Klotski>,
    pub g2048: SlotRef<huarong_engine::g2048::G2048>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic is caught at the boundary; the data it guarded is still consistent because
    // every mutation is done on a clone first. Never propagate poisoning.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

struct Store {
    progress: Progress,
    gen: u64,
    notices: Vec<Notice>,
    writer: Option<Writer>,
    paths: Option<Paths>,
}

struct Inner {
    epoch: Instant,
    games: Games,
    store: Mutex<Store>,
}

/// What every game command returns.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    /// The engine's snapshot; `moves` is counted under the player's rule (`rule`).
    pub snapshot: Snapshot,
    /// What the move changed, for animation (the game's own form), or null.
    pub effect: Option<Value>,
    /// Set when this call finished the game.
    pub finish: Option<Finish>,
    /// The counting rule `snapshot.moves` uses.
    pub rule: String,
}

/// The result of a finished game.
#[derive(Debug, Clone, Serialize)]
pub struct Finish {
    pub status: Status,
    pub rule: String,
    pub moves: u32,
    /// The fewest moves possible under `rule`, where known.
    pub optimal: Option<u32>,
    pub time_ms: u64,
    pub stars: Option<u8>,
    /// 2048: the score and the biggest tile.
    pub score: Option<u64>,
    pub best_tile: Option<u64>,
    pub undo_used: bool,
    pub hints_used: u32,
    /// False for auto-solved games: they never set records.
    pub counted: bool,
    /// True when this game improved the record (moves, time or score).
    pub new_record: bool,
    /// The record key (`<scope>/<rule>`) and the record after this game.
    pub key: String,
    pub record: Record,
    /// The daily streak after this game, when it was a daily puzzle.
    pub daily: Option<Streak>,
}

#[derive(Debug, Clone, Serialize)]
pub struct HintView {
    pub mv: Value,
    pub optimal: bool,
    /// Moves left along the hinted solution (this one included), when one is known.
    pub remaining: Option<u32>,
    /// Per-choice values (2048: the expectimax value of each direction).
    pub values: Option<Vec<(String, f64)>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SolveView {
    pub moves: Vec<Value>,
}

#[derive(Debug, Clone, Serialize)]
pub struct StorageView {
    pub dir: Option<String>,
    /// False when progress cannot be saved (see notices).
    pub writable: bool,
    /// The newest state handed to the saver and the newest known to be on disk.
    pub gen: u64,
    pub durable: u64,
    pub error: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ProgressView {
    pub settings: Settings,
    pub records: BTreeMap<String, Record>,
    pub unlocked: BTreeMap<String, u32>,
    pub streaks: BTreeMap<String, Streak>,
    /// The in-progress game of each kind (its current snapshot).
    pub games: BTreeMap<String, Snapshot>,
    /// The screen to reopen on.
    pub screen: String,
    /// Messages for the player about their data (restored file, bad `--open`, …).
    pub notices: Vec<Notice>,
    pub storage: StorageView,
    /// Saved games that no longer replay, kept in the file.
    pub quarantined: usize,
}

/// The app's state; cheap to clone (shared).
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

/// Local date `YYYY-MM-DD`.
pub fn today() -> String {
    chrono::Local::now().format("%Y-%m-%d").to_string()
}

fn moves_under(counters: &Value, rule: &str, fallback: u32) -> u32 {
    counters
        .get(rule)
        .and_then(Value::as_u64)
        .and_then(|m| u32::try_from(m).ok())
        .unwrap_or(fallback)
}

impl AppState {
    /// Open the progress in `paths` (checking and repairing the files first), restore every
    /// saved game, and start the saver with `primary` built after the check (the store
    /// plugin must not open the file before). `paths = None` runs without saving.
    pub fn open(
        paths: Option<Paths>,
        primary: impl FnOnce() -> Result<Box<dyn Primary>, String>,
    ) -> AppState {
        let (doc, mut notices, writer) = match &paths {
            None => (
                Doc {
                    gen: 0,
                    progress: Progress::default(),
                },
                Vec::new(),
                None,
            ),
            Some(p) => {
                let rec = persist::recover(p);
                let mut notices = rec.notices;
                let writer = if rec.writable {
                    match primary() {
                        Ok(prim) => Some(Writer::start(p.clone(), prim, rec.doc.gen)),
                        Err(e) => {
                            notices.push(Notice::warning(
                                "unreadable",
                                format!("the progress store could not be opened ({e}); progress will not be saved"),
                            ));
                            None
                        }
                    }
                } else {
                    None
                };
                (rec.doc, notices, writer)
            }
        };
        let mut progress = doc.progress;
        let games = Games::default();
        let saved = std::mem::take(&mut progress.games);
        let saved_count = saved.len();
        let mut kept = BTreeMap::new();
        for (kind_s, value) in saved {
            let Some(kind) = Kind::parse(&kind_s) else {
                continue;
            };
            let restored = with_game!(kind, G => restore_into::<G>(G::slot(&games), &value));
            match restored {
                Ok(()) => {
                    kept.insert(kind_s, value);
                }
                Err(e) => {
                    notices.push(Notice::warning(
                        "game_not_resumed",
                        format!("your {kind_s} game in progress could not be resumed ({}); it is kept in the save file", e.message),
                    ));
                    progress.quarantine.push(progress::Quarantined {
                        kind: kind_s,
                        reason: e.message,
                        saved: value.value(),
                    });
                }
            }
        }
        let quarantined = saved_count != kept.len();
        progress.games = kept;
        progress.sanitize();
        let gen = doc.gen;
        let state = AppState(Arc::new(Inner {
            epoch: Instant::now(),
            games,
            store: Mutex::new(Store {
                progress,
                gen,
                notices,
                writer,
                paths,
            }),
        }));
        if quarantined {
            // Write the quarantine down now, so the broken game is not retried at every start.
            state.commit(|_| {});
        }
        for kind in Kind::ALL {
            with_game!(kind, G => state.find_optimal::<G>());
        }
        state
    }

    fn now(&self) -> u64 {
        self.0.epoch.elapsed().as_millis() as u64
    }

    fn store(&self) -> MutexGuard<'_, Store> {
        lock(&self.0.store)
    }

    /// Change the progress and hand the new state to the saver.
    fn commit(&self, f: impl FnOnce(&mut Progress)) -> u64 {
        let mut st = self.store();
        f(&mut st.progress);
        st.gen += 1;
        let doc = Doc {
            gen: st.gen,
            progress: st.progress.clone(),
        };
        if let Some(w) = &st.writer {
            w.submit(doc);
        }
        st.gen
    }

    /// Record `slot`'s session (or its absence) in the progress and save.
    fn save_game<G: AppGame>(&self, slot: &Slot<G>) -> u64 {
        self.save_game_with(slot, |_| {})
    }

    /// Record `slot`'s session and apply `more` to the progress, in one save: what belongs
    /// together (a winning move and its record, a new game and the screen showing it) is
    /// never split by a kill between two saves.
    fn save_game_with<G: AppGame>(&self, slot: &Slot<G>, more: impl FnOnce(&mut Progress)) -> u64 {
        // A copy of the session's save now; its JSON is written by the saver thread.
        let saved = slot.session.as_ref().map(|s| {
            let save = s.save(self.now());
            progress::SavedGame::later(move || serde_json::to_string(&save).unwrap_or_default())
        });
        self.commit(|p| {
            match saved {
                Some(game) => {
                    p.games.insert(G::KIND.as_str().to_string(), game);
                }
                None => {
                    p.games.remove(G::KIND.as_str());
                }
            }
            more(p);
        })
    }

    fn view<G: AppGame>(
        &self,
        sess: &Session<G>,
        effect: Option<Value>,
        finish: Option<Finish>,
    ) -> View {
        let rule = self.rule(G::KIND);
        let mut snapshot = sess.snapshot(self.now());
        snapshot.moves = moves_under(&snapshot.counters, &rule, snapshot.moves);
        View {
            snapshot,
            effect,
            finish,
            rule,
        }
    }

    fn rule(&self, kind: Kind) -> String {
        self.store()
            .progress
            .settings
            .rule(kind.as_str())
            .to_string()
    }

    // ----- game commands -----

    /// Open a game ID (or, once share codes exist, a code or link).
    pub fn open_game(&self, text: &str) -> AppResult<View> {
        let id = resolve_open(text)?;
        let parsed = huarong_engine::GameId::parse(&id)?;
        with_game!(parsed.kind, G => self.start::<G>(&id))
    }

    /// Start a new game of `kind` from generator parameters and a seed (random if none).
    pub fn new_game(&self, kind: Kind, params: &str, seed: Option<u64>) -> AppResult<View> {
        // A random seed below 2^53 survives a round trip through a JS number.
        let seed = seed.unwrap_or_else(|| rand::random::<u64>() >> 11);
        let id = format!("{}:{params}#{seed}", kind.as_str());
        with_game!(kind, G => self.start::<G>(&id))
    }

    fn start<G: AppGame>(&self, id: &str) -> AppResult<View> {
        let sess = guard("opening the game", || {
            Session::<G>::open(id).map_err(AppError::from)
        })?;
        let view = {
            let mut slot = lock(G::slot(&self.0.games));
            slot.touch();
            slot.opt_search.cancel();
            slot.optimal = None;
            slot.counted_win = false;
            slot.session = Some(sess);
            self.save_game_with(&slot, |p| p.screen = format!("game:{}", G::KIND.as_str()));
            self.view(slot.session()?, None, None)
        };
        self.find_optimal::<G>();
        Ok(view)
    }

    pub fn play(&self, kind: Kind, mv: Value) -> AppResult<View> {
        with_game!(kind, G => self.play_g::<G>(mv))
    }

    fn play_g<G: AppGame>(&self, mv: Value) -> AppResult<View> {
        let m: G::Move = args::mv(G::KIND, Some(mv))?;
        let now = self.now();
        let mut slot = lock(G::slot(&self.0.games));
        let sess = slot.session_mut()?;
        let before = sess.status();
        let effect = guard("the move", || sess.play(&m, now).map_err(AppError::from))?;
        let after = sess.status();
        slot.touch();
        let effect = serde_json::to_value(effect).ok();
        let mut finish = None;
        if after != before && after != Status::Playing {
            // The move and its record go to disk in the same save.
            let now = self.now();
            let today = today();
            self.save_game_with(&slot, |p| finish = Self::finish(&slot, p, now, &today));
            if let Some(f) = &finish {
                slot.counted_win |= f.counted && f.status == Status::Won;
            }
        } else {
            self.save_game(&slot);
        }
        Ok(self.view(slot.session()?, effect, finish))
    }

    pub fn undo(&self, kind: Kind) -> AppResult<View> {
        with_game!(kind, G => self.step::<G>(|s, now| s.undo(now).map_err(AppError::from)))
    }

    pub fn redo(&self, kind: Kind) -> AppResult<View> {
        with_game!(kind, G => self.step::<G>(|s, now| s.redo(now).map_err(AppError::from)))
    }

    pub fn restart(&self, kind: Kind) -> AppResult<View> {
        with_game!(kind, G => self.step::<G>(|s, now| {
            s.restart(now);
            Ok(())
        }))
    }

    fn step<G: AppGame>(
        &self,
        f: impl FnOnce(&mut Session<G>, u64) -> AppResult<()>,
    ) -> AppResult<View> {
        let now = self.now();
        let mut slot = lock(G::slot(&self.0.games));
        let sess = slot.session_mut()?;
        guard("the command", || f(sess, now))?;
        slot.touch();
        self.save_game(&slot);
        Ok(self.view(slot.session()?, None, None))
    }

    pub fn snapshot(&self, kind: Kind) -> AppResult<View> {
        with_game!(kind, G => {
            let slot = lock(G::slot(&self.0.games));
            Ok(self.view(slot.session()?, None, None))
        })
    }

    /// Stop the clock of `kind` (or of every game): the app went to the background or
    /// the player left the game screen. The next move starts it again.
    pub fn pause(&self, kind: Option<Kind>) {
        for k in Kind::ALL {
            if kind.is_none_or(|want| want == k) {
                with_game!(k, G => self.pause_g::<G>());
            }
        }
    }

    fn pause_g<G: AppGame>(&self) {
        let now = self.now();
        let mut slot = lock(G::slot(&self.0.games));
        if let Some(s) = slot.session.as_mut() {
            s.pause(now);
            self.save_game(&slot);
        }
    }

    // ----- searches (blocking: call from a worker thread) -----

    /// Start a search on a clone of the session; a newer one cancels this.
    fn begin_search<G: AppGame>(&self) -> AppResult<(Session<G>, Cancel, u64)> {
        let mut slot = lock(G::slot(&self.0.games));
        let sess = slot.session()?.clone();
        slot.search.cancel();
        slot.search = Cancel::new();
        Ok((sess, slot.search.clone(), slot.version))
    }

    fn stale<G2: Game>(cancel: &Cancel, version: u64, slot: &Slot<G2>) -> bool {
        cancel.is_cancelled() || slot.version != version
    }

    pub fn hint(&self, kind: Kind) -> AppResult<HintView> {
        with_game!(kind, G => self.hint_g::<G>())
    }

    fn hint_g<G: AppGame>(&self) -> AppResult<HintView> {
        let (mut sess, cancel, version) = self.begin_search::<G>()?;
        let hint = guard("the hint", || sess.hint(&cancel).map_err(AppError::from))?;
        let mut slot = lock(G::slot(&self.0.games));
        if Self::stale(&cancel, version, &slot) {
            return Err(AppError::new(
                Code::Cancelled,
                "the hint was overtaken by a newer request or a move",
            ));
        }
        // The clone carries the hint line (for reuse) and the hints count.
        slot.session = Some(sess);
        slot.touch();
        self.save_game(&slot);
        let remaining = (!hint.line.is_empty() || hint.optimal).then(|| hint.line.len() as u32 + 1);
        Ok(HintView {
            mv: serde_json::to_value(&hint.mv).unwrap_or(Value::Null),
            optimal: hint.optimal,
            remaining: if hint.values.is_some() && hint.line.is_empty() {
                None
            } else {
                remaining
            },
            values: hint.values,
        })
    }

    pub fn solve(&self, kind: Kind) -> AppResult<SolveView> {
        with_game!(kind, G => self.solve_g::<G>())
    }

    fn solve_g<G: AppGame>(&self) -> AppResult<SolveView> {
        let (sess, cancel, version) = self.begin_search::<G>()?;
        if sess.status() != Status::Playing {
            return Err(AppError::new(Code::IllegalMove, "the game is over"));
        }
        let moves = guard("the solver", || {
            sess.solution(&cancel).map_err(AppError::from)
        })?;
        let mut slot = lock(G::slot(&self.0.games));
        if Self::stale(&cancel, version, &slot) {
            return Err(AppError::new(
                Code::Cancelled,
                "the solver was overtaken by a newer request or a move",
            ));
        }
        // Asking for the whole solution marks the game: it will not set records.
        slot.session_mut()?.mark_auto_solved();
        slot.touch();
        self.save_game(&slot);
        Ok(SolveView {
            moves: moves
                .iter()
                .filter_map(|m| serde_json::to_value(m).ok())
                .collect(),
        })
    }

    /// Compute the start's optimum in the background when the game can and it is cheap
    /// enough; kept in the slot for `finish`.
    fn find_optimal<G: AppGame>(&self) {
        let (start, id, cancel) = {
            let mut slot = lock(G::slot(&self.0.games));
            let Some(sess) = slot.session.as_ref() else {
                return;
            };
            if slot.optimal.as_ref().is_some_and(|(i, _)| i == sess.id()) {
                return;
            }
            if !G::has_optimum(sess.start()) {
                return;
            }
            let (start, id) = (sess.start().clone(), sess.id().to_string());
            slot.opt_search.cancel();
            slot.opt_search = Cancel::new();
            (start, id, slot.opt_search.clone())
        };
        let slot = G::slot(&self.0.games).clone();
        let _ = std::thread::Builder::new()
            .name("huarong-optimum".into())
            .spawn(move || {
                background_priority();
                let found = guard("the optimum", || Ok(G::optimum(&start, &cancel)))
                    .ok()
                    .flatten();
                if let Some(n) = found {
                    let mut s = lock(&slot);
                    if !cancel.is_cancelled() && s.session.as_ref().is_some_and(|x| x.id() == id) {
                        s.optimal = Some((id, n));
                    }
                }
            });
    }

    /// Settle a finished game in `p`: records, unlocks; and the finish view. Runs inside
    /// the save of the move (so it must not take the progress lock itself).
    fn finish<G: AppGame>(
        slot: &Slot<G>,
        p: &mut Progress,
        now: u64,
        date: &str,
    ) -> Option<Finish> {
        let sess = slot.session.as_ref()?;
        let g = sess.current();
        let rule = p.settings.rule(G::KIND.as_str()).to_string();
        let default_rule = progress::rules_of(G::KIND.as_str())
            .first()
            .copied()
            .unwrap_or("");
        let status = sess.status();
        let moves = moves_under(&g.counters(), &rule, g.moves());
        let optimal = if rule == default_rule {
            slot.optimal
                .as_ref()
                .filter(|(id, _)| id == sess.id())
                .map(|(_, n)| *n)
                .or_else(|| G::quick_optimum(sess.start()))
        } else {
            None
        };
        let won = status == Status::Won;
        let stars = if won {
            G::stars(sess.start(), &rule, moves, optimal)
        } else {
            None
        };
        let time_ms = sess.elapsed_ms(now);
        let (score, best_tile) = (G::score(g), G::best_tile(g));
        let counted = !sess.auto_solved();
        let key = format!("{}/{rule}", G::scope(sess.start()));
        let level = G::level_index(sess.start());
        let mut new_record = false;
        let record = {
            let r = p.records.entry(key.clone()).or_default();
            r.rule = rule.clone();
            if optimal.is_some() {
                r.optimal = optimal;
            }
            if counted {
                let mut better = false;
                if won {
                    if !slot.counted_win {
                        r.wins += 1;
                    }
                    if r.best_moves.is_none_or(|b| moves < b) {
                        r.best_moves = Some(moves);
                        r.undo_used = sess.undo_used();
                        r.hints_used = sess.hints_used();
                        better = true;
                    }
                    if r.best_time_ms.is_none_or(|b| time_ms < b) {
                        r.best_time_ms = Some(time_ms);
                        better = true;
                    }
                    r.stars = r.stars.max(stars.unwrap_or(0));
                    if let Some(i) = level {
                        let open = p
                            .unlocked
                            .entry(G::KIND.as_str().into())
                            .or_insert(FIRST_UNLOCKED);
                        *open = (*open).max(i + 1);
                    }
                }
                if let Some(s) = score {
                    if r.best_score.is_none_or(|b| s > b) {
                        r.best_score = Some(s);
                        better = true;
                    }
                }
                if let Some(t) = best_tile {
                    if r.best_tile.is_none_or(|b| t > b) {
                        r.best_tile = Some(t);
                    }
                }
                if better {
                    r.date = date.to_string();
                }
                new_record = better;
            }
            r.clone()
        };
        // A daily puzzle solved (2048: played to its end) extends the streak.
        let daily = (counted && (won || G::KIND == Kind::G2048))
            .then(|| daily_day(G::KIND, sess.id()))
            .flatten()
            .map(|day| apply_daily(p, G::KIND, day));
        p.sanitize();
        Some(Finish {
            daily,
            status,
            rule,
            moves,
            optimal,
            time_ms,
            stars,
            score,
            best_tile,
            undo_used: sess.undo_used(),
            hints_used: sess.hints_used(),
            counted,
            new_record,
            key,
            record,
        })
    }

    /// Where a Klotski piece can go in one move (with the path to each place).
    pub fn klotski_targets(&self, piece: char) -> AppResult<Value> {
        let slot = lock(&self.0.games.klotski);
        let sess = slot.session()?;
        let targets = guard("the drag targets", || {
            sess.current().targets(piece).map_err(AppError::from)
        })?;
        serde_json::to_value(targets).map_err(|e| AppError::internal(e.to_string()))
    }

    // ----- settings, progress, screen -----

    pub fn settings(&self) -> Settings {
        self.store().progress.settings.clone()
    }

    /// Merge `patch` (any subset of the settings' fields) into the settings.
    pub fn set_settings(&self, patch: Value) -> AppResult<Settings> {
        let Value::Object(patch) = patch else {
            return Err(AppError::bad_argument("`settings` must be an object"));
        };
        const FIELDS: &[&str] = &["language", "haptics", "sound", "theme", "rules"];
        if let Some(k) = patch.keys().find(|k| !FIELDS.contains(&k.as_str())) {
            return Err(AppError::bad_argument(format!(
                "`settings.{}` is not a setting (known: {FIELDS:?})",
                k.chars().take(40).collect::<String>()
            )));
        }
        let mut merged =
            serde_json::to_value(self.settings()).map_err(|e| AppError::internal(e.to_string()))?;
        for (k, v) in patch {
            if k == "rules" {
                let Value::Object(rules) = v else {
                    return Err(AppError::bad_argument("`settings.rules` must be an object"));
                };
                for (kind, rule) in rules {
                    merged["rules"][kind] = rule;
                }
            } else {
                merged[k] = v;
            }
        }
        let settings: Settings = serde_json::from_value(merged)
            .map_err(|e| AppError::bad_argument(format!("`settings`: {e}")))?;
        settings
            .validate()
            .map_err(|e| AppError::bad_argument(format!("`settings.{e}")))?;
        let out = settings.clone();
        self.commit(|p| p.settings = settings);
        Ok(out)
    }

    pub fn set_screen(&self, screen: &str) -> AppResult<()> {
        if !progress::valid_screen(screen) {
            return Err(AppError::bad_argument(format!(
                "`screen` {:?} is not a screen name (lower-case letters, digits, ':', '-', '_'; at most 40)",
                screen.chars().take(48).collect::<String>()
            )));
        }
        // Clocks run only on a game's own screen.
        for k in Kind::ALL {
            if screen != format!("game:{}", k.as_str()) {
                self.pause(Some(k));
            }
        }
        let s = screen.to_string();
        self.commit(|p| p.screen = s);
        Ok(())
    }

    pub fn progress(&self) -> ProgressView {
        let mut games = BTreeMap::new();
        for k in Kind::ALL {
            if let Ok(v) = self.snapshot(k) {
                games.insert(k.as_str().to_string(), v.snapshot);
            }
        }
        let st = self.store();
        let mut notices = st.notices.clone();
        let error = st.writer.as_ref().and_then(Writer::error);
        if let Some(e) = &error {
            notices.push(Notice::warning(
                "save_failed",
                format!("progress could not be saved: {e}"),
            ));
        }
        ProgressView {
            settings: st.progress.settings.clone(),
            records: st.progress.records.clone(),
            unlocked: st.progress.unlocked.clone(),
            streaks: st.progress.streaks.clone(),
            games,
            screen: st.progress.screen.clone(),
            notices,
            storage: StorageView {
                dir: st.paths.as_ref().map(|p| p.dir.display().to_string()),
                writable: st.writer.is_some(),
                gen: st.gen,
                durable: st.writer.as_ref().map_or(0, Writer::durable),
                error,
            },
            quarantined: st.progress.quarantine.len(),
        }
    }

    /// How many Klotski classics are open, records by key, for `levels`.
    pub fn unlocked(&self, kind: Kind) -> u32 {
        self.store()
            .progress
            .unlocked
            .get(kind.as_str())
            .copied()
            .unwrap_or(FIRST_UNLOCKED)
    }

    pub fn record(&self, key: &str) -> Option<Record> {
        self.store().progress.records.get(key).cloned()
    }

    pub fn dismiss_notices(&self) {
        self.store().notices.clear();
    }

    pub fn notice(&self, n: Notice) {
        self.store().notices.push(n);
    }

    /// The player solved `kind`'s daily puzzle of `date` (`YYYY-MM-DD`): extend the streak
    /// (consecutive days), or start a new one. Solving the same day twice changes nothing.
    pub fn record_daily(&self, kind: Kind, date: &str) -> AppResult<Streak> {
        let day = huarong_engine::daily::Date::parse(date)
            .map_err(|e| AppError::bad_argument(format!("date {date:?}: {}", e.message)))?;
        let mut out = Streak::default();
        self.commit(|p| out = apply_daily(p, kind, day));
        Ok(out)
    }

    /// Apply a launch request (`--open`): open the game and show it, or show home with a
    /// notice if it is not a valid game. No request: the saved screen stays.
    pub fn launch(&self, open: Option<&str>) {
        let Some(text) = open else { return };
        match self.open_game(text) {
            Ok(_) => {}
            Err(e) => {
                let shown: String = text.chars().take(80).collect();
                self.notice(Notice::warning(
                    "bad_open",
                    format!("could not open {shown:?}: {}", e.message),
                ));
                self.commit(|p| p.screen = "home".into());
            }
        }
    }

    /// Wait until everything handed to the saver is on disk (false on timeout or when
    /// progress cannot be saved).
    pub fn flush(&self, timeout: Duration) -> bool {
        let (gen, writer_ok) = {
            let st = self.store();
            (st.gen, st.writer.is_some())
        };
        if !writer_ok {
            return false;
        }
        let deadline = Instant::now() + timeout;
        loop {
            let st = self.store();
            let Some(w) = &st.writer else { return false };
            if w.durable() >= gen {
                return true;
            }
            drop(st);
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// The newest gen handed to the saver.
    pub fn gen(&self) -> u64 {
        self.store().gen
    }

    /// Stop the saver after writing what is pending (app exit).
    pub fn shutdown(&self) {
        let w = self.store().writer.take();
        if let Some(mut w) = w {
            w.stop();
        }
    }
}

/// Extend `kind`'s daily streak with a solve of the puzzle of `day` (the engine's rule:
/// consecutive days grow it, a gap restarts it, an older day changes nothing).
fn apply_daily(p: &mut Progress, kind: Kind, day: huarong_engine::daily::Date) -> Streak {
    use huarong_engine::daily::{self, Date};
    let s = p.streaks.entry(kind.as_str().to_string()).or_default();
    let previous = Date::parse(&s.last).ok().map(|d| (d, s.current));
    let (last, count) = daily::streak(previous, day);
    s.last = last.to_string();
    s.current = count;
    s.best = s.best.max(count);
    s.clone()
}

/// If `id` is the daily puzzle of `kind` for today or yesterday (a game begun before
/// midnight), that day.
fn daily_day(kind: Kind, id: &str) -> Option<huarong_engine::daily::Date> {
    use huarong_engine::daily::{self, Date};
    let today = Date::parse(&today()).ok()?;
    [today, Date::from_days(today.days() - 1)]
        .into_iter()
        .find(|d| {
            daily::puzzles(*d).is_ok_and(|p| {
                let want = match kind {
                    Kind::Slide => p.slide,
                    Kind::Klotski => p.klotski,
                    Kind::G2048 => p.g2048,
                };
                want == id
            })
        })
}

/// Make the calling thread yield to the UI: the optimum search for the finish screen can
/// keep a core busy for a second or more after a game opens, and on a 2-core phone the
/// webview's main thread must not wait for it. (Linux and Android: a thread is a task with
/// its own nice value. Elsewhere the thread keeps the default priority.)
fn background_priority() {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    // SAFETY: plain system calls on the current thread, no pointers involved.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, 10);
    }
}

fn restore_into<G: AppGame>(slot: &SlotRef<G>, value: &progress::SavedGame) -> AppResult<()> {
    let saved: SavedSession<G::Move> = serde_json::from_str(&value.text()).map_err(|e| {
        AppError::new(
            Code::CorruptSave,
            format!("the saved game does not parse: {e}"),
        )
    })?;
    let sess = guard("resuming the game", || {
        Session::<G>::restore(&saved).map_err(AppError::from)
    })?;
    lock(slot).session = Some(sess);
    Ok(())
}

/// Turn what the player or the command line gave (a game ID, a share code, or a
/// `huarong://play?c=` link) into a game ID. Bounded and checked before any decoding.
pub fn resolve_open(text: &str) -> AppResult<String> {
    let t = text.trim();
    if t.is_empty() {
        return Err(AppError::bad_argument(
            "nothing to open: the game ID is empty",
        ));
    }
    if t.len() > args::MAX_OPEN {
        return Err(AppError::bad_argument(format!(
            "{} bytes is too long for a game ID, code or link (at most {})",
            t.len(),
            args::MAX_OPEN
        )));
    }
    if t.chars().any(|c| c.is_control()) {
        return Err(AppError::bad_argument(
            "the game ID contains control characters",
        ));
    }
    guard("reading the game ID or code", || {
        huarong_engine::code::resolve(t).map_err(AppError::from)
    })
}
