//! The share loop both ways: result codes after a finish, the daily challenge's
//! friends' boards, and replays. The saved data and its bounds are in
//! `progress/friends.rs`; the code format in the engine's `code` module.
//!
//! - `result_code {kind}`: the current finished game of `kind` as a result code: the game,
//!   the result (moves under the game's default rule, time), the player's name, the daily
//!   number for a daily, and the move log when the whole code stays within 1,200
//!   characters (`replay: true`).
//! - Opening a result code of a daily (`open_game`) adds the sender to that day's board —
//!   only when the code's game is that daily's puzzle of its game and the name is not the
//!   player's own.
//! - `friends {daily, kind?}`: the board, best first — verified results before unverified
//!   ones, then (2048) a win before a loss and the higher score, then fewer moves, then less
//!   time: `[{name, moves, ms, ms_claimed, verified, me, kind, score, won}]`; `me`
//!   marks the player's own result (from their daily finishes; their `name` is the settings'
//!   name). `verified`: the moves were replayed from the code's log; the time never can be
//!   (`ms_claimed`: a friend's time is what their code says).
//! - A result code whose result no game can have (fewer moves than the puzzle needs, a 2048
//!   win too soon) is refused by `open_game`, and so is a result for a daily after tomorrow.
//! - `replay {code}` / `replay {history: {scope, index}}`: `{id, kind, moves, ms, views}`;
//!   `views` are the board after 0, 1, … moves (the game's own `view` form) for the page's
//!   board module. Nothing in a replay touches a game slot or a record. With times (a code
//!   that carries them, a kept finish played with them): `times_ms` (and its older name `ms`)
//!   one per move from the first move, `times` which were kept, `splits` (`times.rs`).

use crate::core::AppState;
use crate::error::{AppError, AppResult};
use crate::games::{with_game, AppGame};
use crate::progress::{BoardResult, KeptReplay, Progress, SlotChallenge};
use crate::times::line_of;
use huarong_engine::budget::{self, Budget};
use huarong_engine::code::{self, Challenge, Sender};
use huarong_engine::daily::{self, Date};
use huarong_engine::{Cancel, ErrorCode, Game, GameId, Kind, Session, Status};
use serde::Serialize;
use serde_json::Value;

/// `replay`'s `history` argument.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct HistoryAt {
    scope: String,
    index: usize,
}

/// What `result_code` returns.
#[derive(Debug, Clone, Serialize)]
pub struct ResultCode {
    pub code: String,
    pub link: String,
    /// Whether the move log is in the code.
    pub replay: bool,
    /// The result the code carries (default rule) and the daily number, if any.
    pub moves: u32,
    pub ms: u64,
    pub daily: Option<u32>,
    /// Which times the code carries: `"moves"` (every move's), `"splits"` (only the
    /// splits': the move times did not fit), or null.
    pub times: Option<&'static str>,
}

pub use crate::views::BoardLine;

/// What `replay` returns.
#[derive(Debug, Clone, Serialize)]
pub struct ReplayView {
    pub id: String,
    pub kind: String,
    pub moves: Vec<Value>,
    /// `times_ms`'s older name (the same value).
    pub ms: Option<Vec<u64>>,
    /// The time of each move in ms from the first (0), when the code or kept finish has them.
    pub times_ms: Option<Vec<u64>>,
    /// Which times there are: `"moves"`, `"splits"` (a code whose move times did not fit:
    /// only `splits` have times) or null.
    pub times: Option<&'static str>,
    /// The line's splits, `[{name, moves, ms}]` (`ms` null without times).
    pub splits: Vec<huarong_engine::splits::Split>,
    /// The board before the first move and after each one (`views.len() == moves.len() + 1`).
    pub views: Vec<Value>,
    /// The move count (the game's default rule) at each view: where the analysis chart's
    /// cursor stands (a slide tap that moves three tiles counts three).
    pub counts: Vec<u32>,
    /// The analysis of the line under the game's default rule, as `analysis` gives it
    /// (`{rule, optimal_start, distances, lost, worst}`), where the game has one; else null.
    pub analysis: Option<Value>,
}

fn to_json<G: Game>(moves: &[G::Move]) -> Vec<Value> {
    moves
        .iter()
        .filter_map(|m| serde_json::to_value(m).ok())
        .collect()
}

/// The daily number of a date.
fn number_of(date: &str) -> Option<u32> {
    daily::number(Date::parse(date).ok()?).ok()
}

/// Inside a finish's save: keep the move log of the finish (`scope`, `at_ms`) for replays,
/// and a daily's result as the player's own on that day's board (`day`: the daily it was).
#[allow(clippy::too_many_arguments)]
pub(crate) fn keep_finish<G: AppGame>(
    p: &mut Progress,
    sess: &Session<G>,
    scope: &str,
    at_ms: u64,
    day: Option<Date>,
    today: &str,
    moves: u32,
    ms: u64,
) {
    let line = line_of(sess);
    // From the session's own start: no generator runs inside the finishing move's save.
    if let Ok(log) = code::pack_log_from(sess.start(), &line) {
        let times = crate::times::line_times(sess)
            .filter(|t| t.len() == line.len())
            .map(|t| code::pack_times(&crate::times::from_first(&t)))
            .unwrap_or_default();
        p.replays.add(KeptReplay {
            scope: scope.to_string(),
            at_ms,
            id: sess.id().to_string(),
            log,
            times,
        });
    }
    if let Some(day) = day {
        if let Ok(n) = daily::number(day) {
            let outcome = <G as code::Coded>::outcome(sess.current());
            let r = BoardResult {
                assisted: sess.hints_used() > 0 || sess.undo_used(),
                moves,
                ms,
                score: outcome.map(|o| o.score),
                verified: true,
                won: outcome.map(|o| o.won),
            };
            let today = number_of(today).unwrap_or(n);
            p.friends.add_mine(n, G::KIND.as_str(), r, today);
        }
    }
}

/// Whether `id` is the daily puzzle of `kind` numbered `n`.
fn is_daily_puzzle(kind: Kind, id: &str, n: u32) -> bool {
    daily::date_of(n)
        .and_then(daily::puzzles)
        .is_ok_and(|p| p.id(kind) == Some(id))
}

/// A friend's result from a code, onto its daily's board (see the module documentation).
pub(crate) fn add_friend(p: &mut Progress, kind: Kind, c: &SlotChallenge, today: &str) {
    let Some(n) = c.daily else { return };
    if !is_daily_puzzle(kind, &c.id, n) {
        return;
    }
    // Names are kept in their checked form and compared by their skeleton (`code::name_key`):
    // a twin of the player's own name is the player.
    let Ok(name) = code::check_name(c.name.as_deref().unwrap_or("")) else {
        return;
    };
    let name = name.unwrap_or_default();
    if !name.is_empty() && code::name_key(&name) == code::name_key(&p.settings.name) {
        return;
    }
    let r = BoardResult {
        assisted: c.assisted,
        moves: c.moves,
        ms: c.ms,
        score: c.outcome.map(|o| o.score),
        verified: c.verified,
        won: c.outcome.map(|o| o.won),
    };
    let today = number_of(today).unwrap_or(n);
    p.friends.add_friend(n, kind.as_str(), &name, r, today);
}

/// The board of daily `n` (one game, or all), best first.
pub fn board(p: &Progress, n: u32, kind: Option<Kind>) -> Vec<BoardLine> {
    board_with(p, n, kind, None)
}

/// [`board`] with the player's own line of game `this.0` being `this.1` (a finish's own
/// result, which the board shows even when the player's best of the day is another one).
pub(crate) fn board_with(
    p: &Progress,
    n: u32,
    kind: Option<Kind>,
    this: Option<(Kind, BoardResult)>,
) -> Vec<BoardLine> {
    let empty = crate::progress::DayBoards::default();
    let day = match p.friends.days.get(&n) {
        Some(day) => day,
        None if this.is_some() => &empty,
        None => return Vec::new(),
    };
    let wanted = |k: &str| kind.is_none_or(|want| want.as_str() == k);
    let own_name = (!p.settings.name.is_empty()).then(|| p.settings.name.clone());
    let own_key = code::name_key(&p.settings.name);
    let mut lines: Vec<(BoardResult, BoardLine)> = Vec::new();
    for (k, friends) in day.friends.iter().filter(|(k, _)| wanted(k)) {
        // A friend's line under a twin of the player's own name (kept before the name was
        // set) is not shown beside the player's.
        let others = friends
            .iter()
            .filter(|(n, _)| n.is_empty() || own_key.is_empty() || code::name_key(n) != own_key);
        for (name, r) in others {
            lines.push((
                *r,
                BoardLine {
                    name: (!name.is_empty()).then(|| name.clone()),
                    moves: r.moves,
                    ms: r.ms,
                    ms_claimed: true,
                    verified: r.verified,
                    assisted: r.assisted,
                    me: false,
                    kind: k.clone(),
                    score: r.score,
                    won: r.won,
                },
            ));
        }
    }
    let mut mine = day.mine.clone();
    if let Some((k, r)) = this {
        mine.insert(k.as_str().to_string(), r);
    }
    for (k, r) in mine.iter().filter(|(k, _)| wanted(k)) {
        lines.push((
            *r,
            BoardLine {
                name: own_name.clone(),
                moves: r.moves,
                ms: r.ms,
                ms_claimed: false,
                verified: r.verified,
                assisted: r.assisted,
                me: true,
                kind: k.clone(),
                score: r.score,
                won: r.won,
            },
        ));
    }
    lines.sort_by(|a, b| {
        a.1.kind
            .cmp(&b.1.kind)
            .then(a.0.rank().cmp(&b.0.rank()))
            .then(b.1.me.cmp(&a.1.me))
            .then(a.1.name.cmp(&b.1.name))
    });
    lines.into_iter().map(|(_, l)| l).collect()
}

/// Where the player's line stands on a board of one game (`lines` as [`board_with`] gives
/// them): ranked by the board's order with times at the precision shown (tenths), so lines
/// equal as shown share the better rank. `None` when the player has no line.
pub(crate) fn place(lines: &[BoardLine]) -> Option<crate::views::Place> {
    let key = |l: &BoardLine| {
        (
            l.assisted,
            !l.verified,
            !l.won.unwrap_or(false),
            std::cmp::Reverse(l.score.unwrap_or(0)),
            l.moves,
            l.ms / 100,
        )
    };
    let me = lines.iter().find(|l| l.me)?;
    let mine = key(me);
    let above = lines.iter().filter(|l| key(l) < mine).count();
    let beat = lines.iter().filter(|l| !l.me && key(l) > mine).count();
    let n = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
    Some(crate::views::Place {
        rank: n(above + 1),
        of: n(lines.len()),
        beat: n(beat),
    })
}

/// A replay's `cancelled` error.
fn replay_cancelled() -> AppError {
    AppError::new(
        ErrorCode::Cancelled,
        "the replay was cancelled or overtaken by a newer one",
    )
}

/// The views of a replay of `moves` from the game `id` (each move checked legal in turn) and
/// its analysis. Runs under the thread's ambient budget (the caller's: [`ANALYSIS_TIME`] on
/// its clock, 64 MiB, the kind's replay flag), which also bounds a generator the ID runs;
/// `cancelled` as soon as `cancel` is set.
///
/// [`ANALYSIS_TIME`]: crate::search::ANALYSIS_TIME
fn replay_views<G: AppGame>(
    id: &str,
    moves: &[Value],
    times: Option<&code::Times>,
    cancel: &Cancel,
) -> AppResult<ReplayView> {
    let parsed = GameId::parse(id)?;
    let start = G::from_id(&parsed.body, parsed.seed).map_err(|e| match e.code {
        ErrorCode::Cancelled => replay_cancelled(),
        _ => AppError::from(e),
    })?;
    let mut g = start.clone();
    let mut views = vec![g.view(&start)];
    let mut counts = vec![g.moves()];
    let mut out = Vec::with_capacity(moves.len());
    let mut line = Vec::with_capacity(moves.len());
    for (i, v) in moves.iter().enumerate() {
        if i % 256 == 0 && cancel.is_cancelled() {
            return Err(replay_cancelled());
        }
        let m: G::Move = serde_json::from_value(v.clone())
            .map_err(|e| AppError::bad_argument(format!("move {} of the replay: {e}", i + 1)))?;
        if !g.accepts(&m) || g.apply(&m).is_err() {
            return Err(AppError::new(
                ErrorCode::BadCode,
                format!("move {} of the replay is not legal", i + 1),
            ));
        }
        views.push(g.view(&start));
        counts.push(g.moves());
        out.push(v.clone());
        line.push(m);
    }
    let analysis = analyse_line::<G>(id, &start, &line, cancel)?;
    let timed = crate::times::line_times_of(&start, &out, times, cancel);
    Ok(ReplayView {
        id: id.to_string(),
        kind: G::KIND.as_str().to_string(),
        analysis,
        moves: out,
        ms: timed.times_ms.clone(),
        times_ms: timed.times_ms,
        times: timed.times,
        splits: timed.splits,
        views,
        counts,
    })
}

/// The analysis chart's data of a replayed line (a throw-away session on the start already
/// built: no generator runs again): null when the game has no analysis or the search gives
/// up (past its budget's time or bytes: `unsupported`); `cancelled` when `cancel` is set.
fn analyse_line<G: AppGame>(
    id: &str,
    start: &G,
    line: &[G::Move],
    cancel: &Cancel,
) -> AppResult<Option<Value>> {
    if !G::ANALYSED {
        return Ok(None);
    }
    let mut sess = Session::<G>::with_game(id.to_string(), start.clone());
    for m in line {
        if sess.play(m, 0).is_err() {
            return Ok(None);
        }
    }
    let Some(rule) = huarong_engine::registry::rules(G::KIND).first().copied() else {
        return Ok(None);
    };
    let found = crate::error::guard("the replay's analysis", || {
        G::analyse(&sess, rule, cancel).map_err(AppError::from)
    });
    if cancel.is_cancelled() {
        return Err(replay_cancelled());
    }
    let Ok(a) = found else { return Ok(None) };
    let worst = a.worst_window().map(|w| crate::analysis::worst_view(&a, w));
    Ok(Some(serde_json::json!({
        "rule": rule,
        "optimal_start": a.optimal_start,
        "distances": a.distances,
        "lost": a.lost,
        "worst": worst,
    })))
}

/// A replay of `moves` from `id` as `replay` answers it, within [`ANALYSIS_TIME`] on `clock`
/// and 64 MiB, stopped by `cancel`: the native command (on its worker thread) and the web's
/// search worker (`offload::run`) both run it.
///
/// [`ANALYSIS_TIME`]: crate::search::ANALYSIS_TIME
pub fn replay_within(
    id: &str,
    moves: &[Value],
    times: Option<&code::Times>,
    clock: std::sync::Arc<dyn huarong_engine::clock::Clock>,
    cancel: &Cancel,
) -> AppResult<ReplayView> {
    let kind = GameId::parse(id)?.kind;
    let bounds =
        Budget::new(budget::MAX_BYTES, cancel.clone()).within(clock, crate::search::ANALYSIS_TIME);
    budget::scoped(bounds, || {
        crate::error::guard(
            "the replay",
            || with_game!(kind, G => replay_views::<G>(id, moves, times, cancel)),
        )
    })
}

/// The moves and times of a replay job's `session` ([`AppState::replay_job_source`]).
pub fn replay_job_parts(session: &Value) -> AppResult<(Vec<Value>, Option<code::Times>)> {
    let bad = |e: serde_json::Error| AppError::internal(format!("the replay's moves: {e}"));
    if let Some(list) = session.as_array() {
        return Ok((list.clone(), None));
    }
    let moves: Vec<Value> =
        serde_json::from_value(session.get("moves").cloned().unwrap_or_default()).map_err(bad)?;
    let t = session.get("times");
    let list = |k: &str| -> AppResult<Option<Vec<u64>>> {
        t.and_then(|t| t.get(k))
            .map(|v| serde_json::from_value(v.clone()).map_err(bad))
            .transpose()
    };
    let times = match (list("moves")?, list("splits")?) {
        (Some(m), _) => Some(code::Times::Moves(m)),
        (None, Some(s)) => Some(code::Times::Splits(s)),
        _ => None,
    };
    Ok((moves, times))
}

fn no_log(what: &str) -> AppError {
    AppError::new(
        ErrorCode::Unsupported,
        format!("{what} carries no move log to replay"),
    )
}

impl AppState {
    /// `friends {daily, kind?}`.
    pub fn friends(&self, daily: u32, kind: Option<Kind>) -> Vec<BoardLine> {
        board(&self.store().progress, daily, kind)
    }

    /// `result_code {kind}`.
    pub fn result_code(&self, kind: Kind) -> AppResult<ResultCode> {
        with_game!(kind, G => self.result_code_g::<G>())
    }

    fn result_code_g<G: AppGame>(&self) -> AppResult<ResultCode> {
        let slot = self.current::<G>()?;
        let (id, line, times, moves, ms, undo_used, assisted) = {
            let s = crate::core::lock(&slot);
            let sess = &s.session;
            let finished = match sess.status() {
                Status::Won => true,
                Status::Lost => G::DAILY_ON_END,
                Status::Playing => false,
            };
            if !finished || sess.played().is_empty() {
                return Err(AppError::bad_argument(format!(
                    "the current {} game is not finished: there is no result to share",
                    G::KIND.as_str()
                )));
            }
            // A game the solver played is no result of the player's (refused here, not
            // only hidden by the page).
            if sess.auto_solved() {
                return Err(AppError::bad_argument(format!(
                    "the current {} game was solved by the app: there is no result to share",
                    G::KIND.as_str()
                )));
            }
            let g = sess.current();
            (
                sess.id().to_string(),
                line_of(sess),
                crate::times::line_times(sess),
                g.moves(),
                sess.elapsed_ms(self.now()),
                sess.undo_used(),
                sess.undo_used() || sess.hints_used() > 0,
            )
        };
        let today = self.today();
        let day = crate::daily::daily_day(G::KIND, &id, &today).and_then(|d| daily::number(d).ok());
        let extra = code::Extra {
            daily: day,
            classic: None,
        };
        let challenge = Challenge::new(moves, ms)?;
        let name = self.store().progress.settings.name.clone();
        let name = (!name.is_empty()).then_some(name);
        let with_log = Sender {
            name: name.clone(),
            log: Some(to_json::<G>(&line)),
        };
        // 2048: the score and won or lost travel with the result.
        let outcome = {
            let s = crate::core::lock(&slot);
            <G as code::Coded>::outcome(s.session.current())
        };
        // 2048's undo restores the spawn sequence: a game with undo replays whatever it tried,
        // so its result carries no log (never "verified").
        let sendable = !(undo_used && G::KIND == Kind::G2048);
        let times = times.filter(|t| t.len() == line.len());
        let logged = sendable
            .then(|| {
                code::encode_result_timed(
                    &id,
                    extra,
                    challenge,
                    &with_log,
                    outcome,
                    assisted,
                    times.as_deref(),
                )
                .ok()
            })
            .flatten();
        let (c, replay, kept) = match logged {
            Some((c, kept)) => (c, true, kept),
            // Too long (or a line the code cannot carry): the result without its log.
            None => (
                code::encode_result_assisted(
                    &id,
                    extra,
                    challenge,
                    &Sender { name, log: None },
                    outcome,
                    assisted,
                )?,
                false,
                None,
            ),
        };
        // A game opened for a group challenge: the code names the group.
        let c = self.group_result(&id, c);
        Ok(ResultCode {
            link: code::link(&c),
            code: c,
            replay,
            moves,
            ms,
            daily: day,
            times: kept,
        })
    }

    /// `replay {code}` / `replay {history: {scope, index}}` (`args` holds the one given): the
    /// move log a result code carries (replayed while decoding), or a kept finish's.
    pub fn replay(&self, args: &Value) -> AppResult<ReplayView> {
        // Without the engine's searches (the web page's board wasm) a replay runs as a search
        // job (`offload`, `Op::Replay`); the command itself is left out of that build.
        if !cfg!(feature = "search") {
            return Err(AppError::not_in_build("the replay command"));
        }
        let (id, moves, times) = self.replay_source_timed(args)?;
        self.replay_run(&id, &moves, times.as_ref())
    }

    /// [`AppState::replay_source`] as an offload job carries it: the moves, or with times
    /// `{moves, times: {moves|splits: [ms…]}}` (read back by [`replay_job_parts`]).
    pub fn replay_job_source(&self, args: &Value) -> AppResult<(String, Value)> {
        let (id, moves, times) = self.replay_source_timed(args)?;
        let session = match times {
            None => Value::Array(moves),
            Some(t) => {
                let (key, list) = match t {
                    code::Times::Moves(l) => ("moves", l),
                    code::Times::Splits(l) => ("splits", l),
                };
                serde_json::json!({ "moves": moves, "times": { key: list } })
            }
        };
        Ok((id, session))
    }

    /// What a replay shows, from a code or a history entry (`args` as `replay` takes them):
    /// the game ID and its moves. Decoding replays a code's log (bounded by its length); a
    /// kept finish's log is unpacked. No analysis runs here.
    pub fn replay_source(&self, args: &Value) -> AppResult<(String, Vec<Value>)> {
        self.replay_source_timed(args)
            .map(|(id, moves, _)| (id, moves))
    }

    /// [`AppState::replay_source`] with the times the code or the kept finish has.
    pub fn replay_source_timed(
        &self,
        args: &Value,
    ) -> AppResult<(String, Vec<Value>, Option<code::Times>)> {
        let code = args.get("code").filter(|v| !v.is_null());
        let history = args.get("history").filter(|v| !v.is_null());
        match (code, history) {
            (Some(c), None) => {
                let text = crate::args::string("code", Some(c.clone()), crate::args::MAX_OPEN)?;
                let t = text.trim();
                if code::is_game_id(t) {
                    return Err(no_log("a game ID"));
                }
                let d = crate::error::guard("reading the code", || {
                    code::decode_full(t).map_err(AppError::from)
                })?;
                let log = d.log().ok_or_else(|| no_log("this code"))?.to_vec();
                let times = d.sent.and_then(|s| s.times);
                Ok((d.id, log, times))
            }
            (None, Some(h)) => {
                let at: HistoryAt = crate::args::json("history", Some(h.clone()), 1024)?;
                let kept = self.kept_replay(&at.scope, at.index)?;
                let moves = code::unpack_log(&kept.id, &kept.log)?;
                let times = (!kept.times.is_empty())
                    .then(|| code::unpack_times(&kept.times).ok())
                    .flatten()
                    .filter(|t| t.len() == moves.len())
                    .map(code::Times::Moves);
                Ok((kept.id, moves, times))
            }
            _ => Err(AppError::bad_argument(
                "give exactly one of `code` and `history: {scope, index}`",
            )),
        }
    }

    /// Replay `moves` from `id` here (a worker thread: the command is `off_main`) as the
    /// kind's replay: within [`ANALYSIS_TIME`](crate::search::ANALYSIS_TIME) on the platform's
    /// clock; `cancel {kind}` or a newer replay of the kind stops it (`cancelled`).
    fn replay_run(
        &self,
        id: &str,
        moves: &[Value],
        times: Option<&code::Times>,
    ) -> AppResult<ReplayView> {
        let kind = GameId::parse(id)?.kind;
        let cancel = Cancel::new();
        with_game!(kind, G => {
            let mut kinds = G::slots(&self.0.games).lock();
            kinds.replay.cancel();
            kinds.replay = cancel.clone();
        });
        self.gated(&cancel, || {
            replay_within(id, moves, times, self.budget_clock(), &cancel)
        })
    }

    /// The kept move log of history entry `index` of `scope`.
    fn kept_replay(&self, scope: &str, index: usize) -> AppResult<KeptReplay> {
        let kept = {
            let st = self.store();
            let p = &st.progress;
            let stats = p.stats.get(scope).ok_or_else(|| {
                AppError::bad_argument(format!(
                    "`history.scope` {:?} has no history",
                    scope.chars().take(60).collect::<String>()
                ))
            })?;
            let e = stats.history.get(index).ok_or_else(|| {
                AppError::bad_argument(format!(
                    "`history.index` {index} is not in the history ({} finishes)",
                    stats.history.len()
                ))
            })?;
            p.replays.find(scope, e.at_ms).cloned()
        };
        kept.ok_or_else(|| no_log("this finish (its log is no longer kept)"))
    }

    /// Whether the history entries of `scope` can be replayed, oldest first.
    pub fn replayable(&self, scope: &str) -> Vec<bool> {
        let st = self.store();
        let p = &st.progress;
        p.stats.get(scope).map_or_else(Vec::new, |s| {
            s.history
                .iter()
                .map(|e| p.replays.find(scope, e.at_ms).is_some())
                .collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::views::Place;

    fn line(me: bool, moves: u32, ms: u64) -> BoardLine {
        BoardLine {
            assisted: false,
            name: (!me).then(|| format!("f{moves}")),
            moves,
            ms,
            ms_claimed: !me,
            verified: true,
            me,
            kind: "slide".into(),
            score: None,
            won: None,
        }
    }

    #[test]
    fn the_place_is_on_the_whole_board() {
        let p = |lines: &[BoardLine]| place(lines);
        // Beat two of three friends, whichever link was opened.
        let lines = [
            line(false, 40, 9_000),
            line(true, 52, 41_200),
            line(false, 71, 5_000),
            line(false, 60, 1_000),
        ];
        assert_eq!(
            p(&lines),
            Some(Place {
                rank: 2,
                of: 4,
                beat: 2
            })
        );
        // Equal at the precision shown: the better rank shared, nobody beaten by it.
        let lines = [line(false, 52, 41_250), line(true, 52, 41_200)];
        assert_eq!(
            p(&lines),
            Some(Place {
                rank: 1,
                of: 2,
                beat: 0
            })
        );
        // Alone on the board; no line of one's own.
        assert_eq!(
            p(&[line(true, 9, 1)]),
            Some(Place {
                rank: 1,
                of: 1,
                beat: 0
            })
        );
        assert_eq!(p(&[line(false, 9, 1)]), None);
        // 2048: the tile, then the score.
        let g = |me: bool, won: bool, score: u64| BoardLine {
            assisted: false,
            won: Some(won),
            score: Some(score),
            kind: "2048".into(),
            ..line(me, 900, 1)
        };
        let lines = [
            g(false, true, 100),
            g(true, false, 9_000),
            g(false, false, 8_000),
        ];
        assert_eq!(
            p(&lines),
            Some(Place {
                rank: 2,
                of: 3,
                beat: 1
            })
        );
    }
}
