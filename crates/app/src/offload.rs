//! Searches run somewhere else than the core (a web page's search worker): the offload API.
//!
//! The native core runs a hint, a solve, the background hint proof and the analysis on threads
//! (`search.rs`, `analysis.rs`): a clone of the slot's session is searched and the result is
//! written back only while the slot's version is unchanged. A browser has no threads for that,
//! so a shell without them splits each search in three steps, with the same rules:
//!
//! 1. [`AppState::offload_begin`] on the core (the board's worker): what the command would
//!    search, as a [`Job`] — the kind, the slot and its version, the position, the session's
//!    save, the budget and the counting rule. Answers that need no search (a cached hint line,
//!    a finished game's error) come back at once as [`Begun::Reply`].
//! 2. [`run`] anywhere (the search worker): the engine search on a session restored from the
//!    job, with that side's clock and cancel flag. Pure: no state, no files.
//! 3. [`AppState::offload_finish`] on the core: the result written back exactly as the native
//!    command does (a hint counted, its line kept, the slot saved; a solve marks the game
//!    auto-solved), or `cancelled` when the slot changed meanwhile. A hint that is not optimal
//!    yet comes back with a follow-up proof job (`pending: true`); the proof's finish adopts
//!    the line and emits `Event::HintReady` (the page's `huarong-hint`), like the native app.
//!
//! Cancelling is the shell's business (a browser terminates the search worker); a job whose
//! slot moved on is refused at step 3 whatever happened, and [`AppState::offload_current`]
//! tells the shell when a running job is no longer wanted.

use crate::core::{lock, AppState};
use crate::error::{guard, AppError, AppResult};
use crate::games::{with_game, AppGame};
use crate::slots::SlotRef;
use crate::views::SolveView;
use huarong_engine::analysis::Analysis;
use huarong_engine::clock::Clock;
use huarong_engine::{Cancel, ErrorCode, GameId, Hint, Kind, SavedSession, Session, Status};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::time::Duration;

/// What a job searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// `hint`: the engine's hint within the budget.
    Hint,
    /// The background proof of a hint that was not optimal: the unbounded hint.
    Proof,
    /// `solve`: a whole solution within the budget.
    Solve,
    /// `analysis`: the optimal distance after each move.
    Analysis,
    /// The optimal length of the game's start, for the finish's stars (natively the background
    /// optimum thread): begun by [`AppState::offload_optimum`], never by a command. Its job's
    /// `board` is the start's, and it stays current across moves while the game is shown.
    Optimum,
    /// `replay`: the views and the analysis of a code's or a kept finish's moves,
    /// within the analysis budget. The job's `board` is the game ID, `session` the moves; it
    /// is no slot's, so it stays current until `cancel` of its kind or a newer search.
    Replay,
    /// `open_game` / `new_game` of a game ID whose generator is costly (a Klotski level, a
    /// number slide made to a difficulty): the generator runs there, within the
    /// opening's budget, and gives the start board; the core then opens the game on it. The
    /// job's `board` is the game ID, `session` the command's own arguments.
    Open,
    /// `preview` of a game ID whose generator is costly: the generator runs there, within the
    /// opening's budget; the job's result is the command's reply (`{id, kind, view}`). The
    /// job's `board` is the game ID.
    Preview,
}

impl Op {
    /// The command an op stands for (`hint`, `solve`, `analysis`); `None` for others.
    pub fn of_command(name: &str) -> Option<Op> {
        Some(match name {
            "hint" => Op::Hint,
            "solve" => Op::Solve,
            "analysis" => Op::Analysis,
            _ => return None,
        })
    }
}

/// One search to run elsewhere.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Job {
    pub op: Op,
    pub kind: Kind,
    /// The slot's key and version when the job began: the result is written back only onto
    /// the same slot at the same version (the proof: the same position).
    pub slot: String,
    pub version: u64,
    /// The current position (`Game::board_body`).
    pub board: String,
    /// The session's save (`Session::save`), restored by [`run`].
    pub session: Value,
    /// The search budget in ms (hint, solve).
    pub budget_ms: u64,
    /// The counting rule (analysis).
    pub rule: String,
    /// Whether the search needs the 4×4 pattern tables (a number slide of 4×4 or more in a
    /// build without them) and the core that made the job has none: the shell installs them
    /// first. A search that still finds them missing fails with `slide::TABLES_MISSING`.
    pub pdb4x4: bool,
}

/// What [`AppState::offload_begin`] gives.
#[derive(Debug, Clone, PartialEq)]
pub enum Begun {
    /// The command's reply, found without searching (a hint from the line the session holds),
    /// and the proof job to run next when that hint is not optimal yet.
    Reply(Value, Option<Job>),
    /// A search to run (then [`AppState::offload_finish`] with its result).
    Job(Job),
}

fn cancelled(what: &str) -> AppError {
    AppError::new(
        ErrorCode::Cancelled,
        format!("the {what} was overtaken by a newer request, a move, or leaving the game"),
    )
}

fn encode(v: &impl Serialize) -> AppResult<Value> {
    serde_json::to_value(v).map_err(|e| AppError::internal(format!("a search result: {e}")))
}

fn decode<T: serde::de::DeserializeOwned>(what: &str, v: Value) -> AppResult<T> {
    serde_json::from_value(v).map_err(|e| AppError::bad_argument(format!("{what}: {e}")))
}

/// Whether a number slide's board body (`WxH:…`, `WxH/medium`, …) is 4×4 or bigger in a build
/// without the embedded 4×4 tables, before they were installed.
fn needs_tables(kind: Kind, board: &str) -> bool {
    if kind != Kind::Slide {
        return false;
    }
    let size = board.split([':', '/', '#']).next().unwrap_or("");
    let mut it = size.split('x').map(|n| n.parse::<usize>().unwrap_or(0));
    match (it.next(), it.next()) {
        (Some(w), Some(h)) => huarong_engine::slide::needs_pdb4x4(w, h),
        _ => false,
    }
}

/// Whether opening game ID `id` runs a generator that may take seconds (a seeded Klotski
/// level; a seeded number slide made to a difficulty, whose optimum is checked), which a shell
/// without threads runs in its search worker ([`Op::Open`]).
pub fn costly_generator(id: &str) -> bool {
    let Ok(p) = GameId::parse(id) else {
        return false;
    };
    // The game's own rule, from the registry: a new game with a slow generator is offloaded too.
    p.seed.is_some() && huarong_engine::registry::costly_generator(p.kind, &p.body)
}

/// The [`Op::Preview`] job of `preview`'s arguments, when its game ID runs a costly
/// generator; `None` otherwise (the command answers on the core, errors included).
fn preview_job(args: Value) -> Option<Job> {
    let mut a = crate::args::Args::from_json(args).ok()?;
    let text = crate::args::string("id", a.take("id"), crate::args::MAX_OPEN).ok()?;
    let (id, _, _) = crate::launch::resolve_open_result(&text).ok()?;
    if !costly_generator(&id) {
        return None;
    }
    let parsed = GameId::parse(&id).ok()?;
    Some(Job {
        op: Op::Preview,
        kind: parsed.kind,
        slot: String::new(),
        version: 0,
        pdb4x4: needs_tables(parsed.kind, &parsed.body),
        board: id,
        session: Value::Null,
        budget_ms: crate::search::OPEN_TIME.as_millis() as u64,
        rule: String::new(),
    })
}

impl AppState {
    /// Step 1 for any command of a shell without threads: `None` when `name` runs nothing
    /// elsewhere now (the shell dispatches it); else the begun search (`hint`, `solve`,
    /// `analysis`, `replay`, an opening with a costly generator) or its error.
    pub fn offload_command(&self, name: &str, mut args: Value) -> Option<AppResult<Begun>> {
        if let Some(op) = Op::of_command(name) {
            let kind = crate::args::kind(args.get_mut("kind").map(Value::take));
            return Some(kind.and_then(|k| self.offload_begin(op, k)));
        }
        match name {
            "replay" => Some(self.replay_job(&args)),
            "open_game" | "new_game" => self.open_job(name, args).map(|j| Ok(Begun::Job(j))),
            "preview" => preview_job(args).map(|j| Ok(Begun::Job(j))),
            _ => None,
        }
    }

    /// The [`Op::Replay`] job of `replay`'s arguments (decoding and unpacking here: bounded).
    fn replay_job(&self, args: &Value) -> AppResult<Begun> {
        let (id, session) = self.replay_job_source(args)?;
        let parsed = GameId::parse(&id)?;
        Ok(Begun::Job(Job {
            op: Op::Replay,
            kind: parsed.kind,
            slot: String::new(),
            version: 0,
            pdb4x4: needs_tables(parsed.kind, &parsed.body),
            board: id,
            session,
            budget_ms: crate::search::ANALYSIS_TIME.as_millis() as u64,
            rule: String::new(),
        }))
    }

    /// The [`Op::Open`] job of `open_game` / `new_game`, when its game ID runs a costly
    /// generator; `None` otherwise (and for bad arguments: the command itself says what is
    /// wrong).
    fn open_job(&self, name: &str, args: Value) -> Option<Job> {
        let mut a = crate::args::Args::from_json(args).ok()?;
        let replace = crate::args::flag("replace", a.take("replace")).ok()?;
        let (id, session) = if name == "open_game" {
            let text = crate::args::string("id", a.take("id"), crate::args::MAX_OPEN).ok()?;
            let (id, challenge, _) = crate::launch::resolve_open_result(&text).ok()?;
            (
                id,
                json!({ "cmd": name, "replace": replace, "challenge": challenge }),
            )
        } else {
            // A speedsolving run opens plain sizes at once (runs.rs): no job.
            if a.take("mode").is_some() {
                return None;
            }
            let kind = crate::args::kind(a.take("kind")).ok()?;
            let params = crate::args::params(a.take("params")).ok()?;
            let seed = crate::args::seed(a.take("seed")).ok()?;
            let id = self.new_game_id(kind, &params, seed);
            (id, json!({ "cmd": name, "replace": replace }))
        };
        if !costly_generator(&id) {
            return None;
        }
        let parsed = GameId::parse(&id).ok()?;
        Some(Job {
            op: Op::Open,
            kind: parsed.kind,
            slot: String::new(),
            version: 0,
            pdb4x4: needs_tables(parsed.kind, &parsed.body),
            board: id,
            session,
            budget_ms: crate::search::OPEN_TIME.as_millis() as u64,
            rule: String::new(),
        })
    }

    /// Step 1: the search `op` on `kind`'s current game, or the reply when none is needed.
    pub fn offload_begin(&self, op: Op, kind: Kind) -> AppResult<Begun> {
        with_game!(kind, G => self.begin_g::<G>(op))
    }

    fn begin_g<G: AppGame>(&self, op: Op) -> AppResult<Begun> {
        if op == Op::Analysis && !G::ANALYSED {
            return Err(AppError::new(
                ErrorCode::Unsupported,
                format!("{} has no optimal distance to analyse", G::KIND.as_str()),
            ));
        }
        if matches!(
            op,
            Op::Proof | Op::Optimum | Op::Replay | Op::Open | Op::Preview
        ) {
            return Err(AppError::bad_argument(
                "a proof, an optimum, a replay or an opening is begun by what needs it",
            ));
        }
        let (slot_ref, sess, _cancel, version) = self.begin_search::<G>()?;
        if op != Op::Analysis && sess.status() != Status::Playing {
            self.end_search::<G>();
            return Err(AppError::new(ErrorCode::IllegalMove, "the game is over"));
        }
        if op == Op::Hint {
            if let Some(cached) = sess.cached_hint() {
                // The session follows a line it already holds: no search, as natively.
                let (view, proof) = self.finish_hint::<G>(&slot_ref, version, cached)?;
                if proof.is_none() {
                    self.end_search::<G>();
                }
                return Ok(Begun::Reply(view, proof));
            }
        }
        let key = lock(&slot_ref).key.clone();
        Ok(Begun::Job(self.job_of::<G>(op, key, version, &sess)))
    }

    fn job_of<G: AppGame>(&self, op: Op, slot: String, version: u64, sess: &Session<G>) -> Job {
        let board = sess.current().board_body();
        Job {
            op,
            kind: G::KIND,
            slot,
            version,
            pdb4x4: needs_tables(G::KIND, &board),
            board,
            session: serde_json::to_value(sess.save(self.now())).unwrap_or(Value::Null),
            budget_ms: lock(&self.0.search_budget).as_millis() as u64,
            rule: self.rule(G::KIND),
        }
    }

    /// The current slot of `G` if it is still the job's slot at the job's version (an
    /// optimum: the same game, shown, whatever its moves since).
    fn same_slot<G: AppGame>(&self, job: &Job) -> Option<SlotRef<G>> {
        let slot_ref = self.current::<G>().ok()?;
        let same = {
            let slot = lock(&slot_ref);
            slot.key == job.slot
                && match job.op {
                    Op::Optimum => {
                        slot.optimal.is_none()
                            && slot.session.start().board_body() == job.board
                            && self.on_screen(G::KIND)
                    }
                    _ => slot.version == job.version,
                }
        };
        same.then_some(slot_ref)
    }

    /// The optimum to find for a shown game whose start's optimal length is not known yet,
    /// where the platform has no threads for it (the web page: the shell runs the job in a
    /// worker nobody waits for, then [`AppState::offload_finish`]). `None` when there is none.
    pub fn offload_optimum(&self) -> Option<Job> {
        Kind::ALL
            .into_iter()
            .find_map(|kind| with_game!(kind, G => self.optimum_job::<G>()))
    }

    fn optimum_job<G: AppGame>(&self) -> Option<Job> {
        if !self.on_screen(G::KIND) {
            return None;
        }
        let slot_ref = self.current::<G>().ok()?;
        let slot = lock(&slot_ref);
        if slot.optimal.is_some()
            || !G::has_optimum(slot.session.start())
            || slot.optimum_failed.as_deref() == Some(slot.session.id())
        {
            return None;
        }
        let mut job = self.job_of::<G>(Op::Optimum, slot.key.clone(), slot.version, &slot.session);
        job.board = slot.session.start().board_body();
        job.pdb4x4 = needs_tables(G::KIND, &job.board);
        job.budget_ms = crate::search::OPTIMUM_TIME.as_millis() as u64;
        Some(job)
    }

    /// Whether `job`'s result could still be written back (the shell stops a search that
    /// returns false: the player moved on).
    pub fn offload_current(&self, job: &Job) -> bool {
        // A replay and an opening belong to no slot: only `cancel` or a newer search stops them.
        if matches!(job.op, Op::Replay | Op::Open | Op::Preview) {
            return true;
        }
        with_game!(job.kind, G => self.same_slot::<G>(job).is_some())
    }

    /// Step 3: write back what [`run`] found for `job` (or fail with its error). The reply of
    /// the command, and for a hint that is not optimal yet the proof job to run next.
    pub fn offload_finish(
        &self,
        job: &Job,
        found: AppResult<Value>,
    ) -> AppResult<(Value, Option<Job>)> {
        match job.op {
            // Nothing to write back: the replay's view is the reply.
            Op::Replay | Op::Preview => return Ok((found?, None)),
            Op::Open => return self.finish_open(job, found).map(|v| (v, None)),
            _ => {}
        }
        with_game!(job.kind, G => {
            if job.op == Op::Optimum {
                return self.finish_optimum::<G>(job, found);
            }
            let r = self.finish_g::<G>(job, found);
            // As natively: the kind's background optimum may run again (none without threads).
            if !matches!(&r, Ok((_, Some(_)))) {
                self.end_search::<G>();
            }
            r
        })
    }

    /// An opening whose generator ran elsewhere: the game opened on the board it made, as
    /// the command would have opened it.
    fn finish_open(&self, job: &Job, found: AppResult<Value>) -> AppResult<Value> {
        let made = found?;
        let board = made["board"]
            .as_str()
            .ok_or_else(|| AppError::bad_argument("the opening's result has no board"))?;
        let replace = job.session["replace"].as_bool().unwrap_or(false);
        let view = if job.session["cmd"] == "new_game" {
            self.new_resolved(job.kind, &job.board, replace, Some(board))?
        } else {
            let challenge = match job.session.get("challenge") {
                None | Some(Value::Null) => None,
                Some(c) => Some(decode("the opening's result", c.clone())?),
            };
            self.open_resolved(&job.board, replace, challenge, Some(board))?
        };
        encode(&view)
    }

    /// An optimum found (or not) for the job's game: kept in the slot for the finish view, as
    /// the native thread does; one that failed (over its bytes or time, none at all, or an
    /// error of the worker other than being stopped) is not tried again for this game.
    fn finish_optimum<G: AppGame>(
        &self,
        job: &Job,
        found: AppResult<Value>,
    ) -> AppResult<(Value, Option<Job>)> {
        let Some(slot_ref) = self.same_slot::<G>(job) else {
            return Err(cancelled("optimum"));
        };
        let n = match found {
            Err(e) if e.code == crate::error::Code::Engine(ErrorCode::Cancelled) => return Err(e),
            Err(_) => None,
            Ok(v) => decode::<Option<u32>>("the optimum", v)?,
        };
        let mut slot = lock(&slot_ref);
        match n {
            // A finish waiting for it gets its verdict now (`huarong-finish`), as natively.
            Some(n) => self.optimum_known(&mut slot, n),
            None => {
                self.optimum_failed(&mut slot);
                self.save_slot(&mut slot, false);
            }
        }
        Ok((json!({ "optimal": n }), None))
    }

    fn finish_g<G: AppGame>(
        &self,
        job: &Job,
        found: AppResult<Value>,
    ) -> AppResult<(Value, Option<Job>)> {
        let what = match job.op {
            Op::Hint => "hint",
            Op::Proof => "hint proof",
            Op::Solve => "solver",
            Op::Analysis => "analysis",
            Op::Optimum => "optimum",
            Op::Replay => "replay",
            Op::Open => "opening",
            Op::Preview => "preview",
        };
        let found = found?;
        let Some(slot_ref) = self.same_slot::<G>(job) else {
            return Err(cancelled(what));
        };
        match job.op {
            Op::Hint => {
                let hint: Hint<G::Move> = decode("the hint", found)?;
                self.finish_hint::<G>(&slot_ref, job.version, hint)
            }
            Op::Proof => {
                let hint: Hint<G::Move> = decode("the proof", found)?;
                let adopted = lock(&slot_ref).session.adopt_hint(&job.board, &hint);
                if adopted {
                    self.hint_ready(G::KIND);
                }
                Ok((Value::Bool(adopted), None))
            }
            Op::Solve => {
                let moves: Vec<G::Move> = decode("the solution", found)?;
                let mut slot = lock(&slot_ref);
                // Asking for the whole solution marks the game: it will not set records.
                slot.session.mark_auto_solved();
                let stamp = self.stamp();
                slot.touch(stamp);
                self.save_slot(&mut slot, false);
                let view = SolveView {
                    moves: moves
                        .iter()
                        .filter_map(|m| serde_json::to_value(m).ok())
                        .collect(),
                };
                Ok((encode(&view)?, None))
            }
            Op::Optimum => self.finish_optimum::<G>(job, Ok(found)),
            Op::Replay | Op::Open | Op::Preview => Err(AppError::internal("written back above")),
            Op::Analysis => {
                let a = analysis_of(found)?;
                self.analysed_optimum(&mut lock(&slot_ref), &job.rule, a.optimal_start);
                let tps = self.tps_now(&lock(&slot_ref));
                let worst = a.worst_window().map(|w| crate::analysis::worst_view(&a, w));
                Ok((
                    json!({
                        "kind": G::KIND,
                        "rule": job.rule,
                        "optimal_start": a.optimal_start,
                        "distances": a.distances,
                        "lost": a.lost,
                        "worst": worst,
                        "tps": tps,
                    }),
                    None,
                ))
            }
        }
    }

    /// A hint found for the slot at `version`: counted and kept as `hint` does natively; a
    /// proof job when it is not optimal and a proof could improve it.
    fn finish_hint<G: AppGame>(
        &self,
        slot_ref: &SlotRef<G>,
        version: u64,
        found: Hint<G::Move>,
    ) -> AppResult<(Value, Option<Job>)> {
        let mut slot = lock(slot_ref);
        if slot.version != version {
            return Err(cancelled("hint"));
        }
        let hint = slot.session.hint_found(found).map_err(AppError::from)?;
        let stamp = self.stamp();
        slot.touch(stamp);
        self.save_slot(&mut slot, false);
        let pending = !hint.optimal && slot.session.current().hint_can_improve();
        let proof = pending.then(|| {
            let mut job =
                self.job_of::<G>(Op::Proof, slot.key.clone(), slot.version, &slot.session);
            job.budget_ms = 0;
            job
        });
        Ok((encode(&crate::search::hint_view(&hint, pending))?, proof))
    }
}

/// The analysis from its JSON (the engine's `Analysis` is only serialised).
fn analysis_of(v: Value) -> AppResult<Analysis> {
    #[derive(Deserialize)]
    struct A {
        optimal_start: u32,
        distances: Vec<u32>,
        lost: Vec<u32>,
    }
    let a: A = decode("the analysis", v)?;
    Ok(Analysis {
        optimal_start: a.optimal_start,
        distances: a.distances,
        lost: a.lost,
    })
}

/// Step 2: run `job`'s search on `clock` (deadlines) until done or `cancel`; its result as
/// JSON for [`AppState::offload_finish`]. Errors are the engine's (typed), never a panic.
pub fn run(job: &Job, clock: std::sync::Arc<dyn Clock>, cancel: &Cancel) -> AppResult<Value> {
    match job.op {
        Op::Replay => {
            let (moves, times) = crate::friends::replay_job_parts(&job.session)?;
            encode(&crate::friends::replay_within(
                &job.board,
                &moves,
                times.as_ref(),
                clock,
                cancel,
            )?)
        }
        Op::Open => with_game!(job.kind, G => open_g::<G>(job, clock, cancel)),
        Op::Preview => {
            let bounds = huarong_engine::budget::Budget::new(
                huarong_engine::budget::MAX_BYTES,
                cancel.clone(),
            )
            .within(clock, crate::search::OPEN_TIME);
            huarong_engine::budget::scoped(bounds, || {
                guard("the generator", || crate::launch::preview_view(&job.board))
            })
        }
        _ => with_game!(job.kind, G => run_g::<G>(job, clock, cancel)),
    }
}

/// [`Op::Open`]: the game ID's generator within the opening's budget (`OPEN_TIME`, 64 MiB),
/// its start board as `{"board": body}`.
fn open_g<G: AppGame>(
    job: &Job,
    clock: std::sync::Arc<dyn Clock>,
    cancel: &Cancel,
) -> AppResult<Value> {
    let parsed = GameId::parse(&job.board)?;
    if parsed.kind != G::KIND {
        return Err(AppError::bad_argument(
            "the job's game ID is of another game",
        ));
    }
    let bounds =
        huarong_engine::budget::Budget::new(huarong_engine::budget::MAX_BYTES, cancel.clone())
            .within(clock, crate::search::OPEN_TIME);
    let start = huarong_engine::budget::scoped(bounds, || {
        guard("the generator", || {
            G::from_id(&parsed.body, parsed.seed).map_err(AppError::from)
        })
    })?;
    Ok(json!({ "board": start.board_body() }))
}

fn run_g<G: AppGame>(
    job: &Job,
    clock: std::sync::Arc<dyn Clock>,
    cancel: &Cancel,
) -> AppResult<Value> {
    let saved: SavedSession<G::Move> = decode("the session", job.session.clone())?;
    let sess = Session::<G>::restore(&saved).map_err(AppError::from)?;
    let budget = Duration::from_millis(job.budget_ms);
    guard("the search", || match job.op {
        Op::Hint => encode(
            &sess
                .current()
                .hint_within(budget, clock.as_ref(), cancel)
                .map_err(AppError::from)?,
        ),
        // Bounded as natively: 64 MiB and `PROOF_TIME` (a worker of its own, stopped when the
        // game leaves the screen, so its time is all running time).
        Op::Proof => encode(
            &huarong_engine::budget::scoped(
                huarong_engine::budget::Budget::new(
                    huarong_engine::budget::MAX_BYTES,
                    cancel.clone(),
                )
                .within(clock.clone(), crate::search::PROOF_TIME),
                || sess.current().hint(cancel),
            )
            .map_err(AppError::from)?,
        ),
        Op::Solve => encode(
            &sess
                .solution_within(budget, clock.as_ref(), cancel)
                .map_err(AppError::from)?
                .moves,
        ),
        Op::Analysis => encode(&G::analyse(&sess, &job.rule, cancel).map_err(AppError::from)?),
        // Its bytes bounded as natively (its time: the shell stops the worker when the game
        // leaves the screen).
        Op::Replay | Op::Open | Op::Preview => Err(AppError::internal("run above")),
        // Bounded as natively: 64 MiB and `OPTIMUM_TIME` (a worker nobody else uses, stopped
        // when the game leaves the screen, so its time is running time). Past it: none, and
        // a finish waiting for it becomes final without stars.
        Op::Optimum => encode(&huarong_engine::budget::scoped(
            huarong_engine::budget::Budget::new(huarong_engine::budget::MAX_BYTES, cancel.clone())
                .within(clock.clone(), crate::search::OPTIMUM_TIME),
            || G::optimum(sess.start(), cancel),
        )),
    })
}
