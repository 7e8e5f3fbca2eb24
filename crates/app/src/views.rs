//! What the commands return (serialised with snake_case keys, like the engine's types).

use crate::progress::Mode;
use crate::progress::{Record, Settings, Streak};
use huarong_engine::{Kind, Snapshot, Status};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// The engine's snapshot plus where the game lives in the app.
#[derive(Debug, Clone, Serialize)]
pub struct GameSnapshot {
    #[serde(flatten)]
    pub base: Snapshot,
    /// The slot key (`slide:4x4`, `klotski:level:3`, `2048:daily:2026-12-01`, `challenge:<hex>`).
    pub slot: String,
    pub mode: Mode,
    /// The sender's result to beat, `{moves, ms}`, when the game came from a code with one.
    pub challenge: Option<Value>,
    /// A speedsolving run (number slide marathon or relay): its progress; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<RunView>,
}

/// A speedsolving run as the page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct RunView {
    /// `marathon:10`, `relay:5`.
    pub mode: String,
    /// The size it was started with (`4x4`; a relay's first size).
    pub params: String,
    /// The record scope (`slide:4x4/marathon:10`, `slide/relay:5`).
    pub scope: String,
    /// The run's seed: its puzzles (the same seed, the same run).
    pub seed: u64,
    /// The solve being played, 1-based (the last one once done).
    pub solve: u32,
    /// Solves in the run.
    pub of: u32,
    /// The board size of solve `solve`.
    pub size: String,
    /// The finished solves, in order.
    pub splits: Vec<SplitView>,
    /// The run's time so far: the splits and the solve being played.
    pub elapsed_ms: u64,
    /// Every solve is done.
    pub done: bool,
}

/// One finished solve of a run.
#[derive(Debug, Clone, Serialize)]
pub struct SplitView {
    pub size: String,
    pub ms: u64,
    /// Under the player's counting rule.
    pub moves: u32,
    /// Tile moves per second.
    pub tps: Option<f64>,
}

impl std::ops::Deref for GameSnapshot {
    type Target = Snapshot;
    fn deref(&self) -> &Snapshot {
        &self.base
    }
}

/// What every game command returns.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    /// The snapshot; `moves` is counted under the player's rule (`rule`).
    pub snapshot: GameSnapshot,
    /// What the move changed, for animation (the game's own form), or null.
    pub effect: Option<Value>,
    /// Set when this call finished the game.
    pub finish: Option<Finish>,
    /// The counting rule `snapshot.moves` uses.
    pub rule: String,
    /// The same as `snapshot.challenge` (issue 16's contract names it on the View).
    pub challenge: Option<Value>,
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
    /// By the game's star rule; at most `registry::HINTED_STARS` with a hint.
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
    /// The sender's result when the game came from a code with one:
    /// `{moves, ms, name, beaten, outcome, diff_ms, score?}` (see `challenge.rs`).
    pub challenge: Option<Value>,
    /// Unix ms of the finish: with `key`'s scope, the row of `records {scope}`'s history
    /// this finish is (its last one, right after the finish).
    pub at_ms: u64,
    /// The optimum is still being searched (natively a background thread, on the web the
    /// proof worker): `optimal`, `stars` and `perfect` are not known yet and will be. When
    /// it arrives (or gives up) the finish is updated in place and the page hears the DOM
    /// event `huarong-finish` (detail: the kind); `finish {kind}` reads it. False once the
    /// verdict is final (with or without an optimum).
    pub pending: bool,
    /// Whether the game took the fewest moves possible (`moves == optimal`) without a hint,
    /// where the optimum is known: the analysis's verdict, decided here once
    /// (`registry::perfect`).
    pub perfect: Option<bool>,
    /// A daily puzzle's friends' board as this finish leaves it: `{daily, lines}`, the
    /// player's own line being this finish (moves under the default rule, time as recorded).
    pub friends: Option<FinishFriends>,
    /// Tile moves per second (games counted in tile moves: the number slide) of a finish of
    /// at least one second, else null.
    pub tps: Option<f64>,
    /// Won with help: a hint, auto-solve, or a win reached by redo (a replay of a line already
    /// played). Then `new_record` is false, `perfect` never true, `stars` at most
    /// `registry::HINTED_STARS`.
    pub assisted: bool,
    /// The one primary action for this finish, decided in `finish.rs` ([`Action`]).
    pub next: Action,
    /// Where `next` goes, when it goes to a game: see [`NextTarget`].
    pub next_target: Option<NextTarget>,
    /// The game's splits (`times.rs`): `[{name, moves, ms}]` in order, each counted from the
    /// move that did its line for good, `ms` on the game's clock (`time_ms`'s); empty for a
    /// run or a game without splits.
    pub splits: Vec<huarong_engine::splits::Split>,
    /// The finished speedsolving run with every split (its `time_ms` and `moves` are the
    /// run's), else absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<RunView>,
}

/// The one primary action of a finish (serialised kebab-case: `next-level`, `send-back`…).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    NextLevel,
    Again,
    NextDaily,
    Share,
    SendBack,
    Retry,
    Keep,
    NewRun,
    Edit,
}

/// The game a finish's `next` opens: `next-level` `{kind, id, index}`, `next-daily`
/// `{kind, id, n, of}`, `retry` `{kind, id}` (this game, again from move 0).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NextTarget {
    pub kind: String,
    pub id: String,
    /// `next-level`: the 1-based level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<u32>,
    /// `next-daily`: its place among today's dailies (1-based) and how many there are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub of: Option<u32>,
}

/// The friends' board of a daily finish (see [`Finish::friends`]).
#[derive(Debug, Clone, Serialize)]
pub struct FinishFriends {
    /// The daily's number.
    pub daily: u32,
    /// Best first, as `friends {daily, kind}` orders them.
    pub lines: Vec<BoardLine>,
    /// The player's place on the whole board; null without a line of their own.
    pub place: Option<Place>,
}

/// Where the player's line stands on a friends' board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Place {
    /// 1-based; lines equal at the precision shown share the better rank.
    pub rank: u32,
    /// Lines on the board (the player's included).
    pub of: u32,
    /// Friends' lines ranked below the player's.
    pub beat: u32,
}

/// One line of a friends' board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoardLine {
    /// Null for a friend without a name ("a friend"), and for the player without one.
    pub name: Option<String>,
    pub moves: u32,
    pub ms: u64,
    /// The time is the sender's claim: nothing checks it (every friend's line; the player's
    /// own time is the app's).
    pub ms_claimed: bool,
    /// The moves were replayed from the code's move log (never the time).
    pub verified: bool,
    /// The result was helped (hints, undo): marked, and ranked after clean results.
    #[serde(default)]
    pub assisted: bool,
    pub me: bool,
    pub kind: String,
    /// 2048: the score and whether the 2048 tile was made (null for other games, and for a
    /// 2048 result that did not say).
    pub score: Option<u64>,
    pub won: Option<bool>,
}

#[derive(Debug, Clone, Serialize)]
pub struct HintView {
    pub mv: Value,
    pub optimal: bool,
    /// Moves left along the hinted solution (this one included), when one is known.
    pub remaining: Option<u32>,
    /// Per-choice values (2048: the expectimax value of each direction).
    pub values: Option<Vec<(String, f64)>>,
    /// Not optimal yet, and a proof runs in the background: when it arrives the page hears
    /// the DOM event `huarong-hint` (detail: the kind) and reads it with `hint_status`.
    pub pending: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct SolveView {
    pub moves: Vec<Value>,
}

/// One entry of `list_games`.
#[derive(Debug, Clone, Serialize)]
pub struct GameEntry {
    pub slot: String,
    pub kind: Kind,
    pub id: String,
    /// Under the player's counting rule.
    pub moves: u32,
    pub status: Status,
    pub elapsed_ms: u64,
    /// Unix milliseconds of the last change.
    pub updated_ms: u64,
    pub mode: Mode,
    /// Whether the game can go on (playing, or 2048 before "keep going"): the slot cap
    /// drops finished games first.
    #[serde(skip)]
    pub unfinished: bool,
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
    /// The current game of each kind (its snapshot).
    pub games: BTreeMap<String, GameSnapshot>,
    /// The screen to reopen on.
    pub screen: String,
    /// The local date (`YYYY-MM-DD`) as Rust sees it: the one "today" of the app.
    pub today: String,
    /// Messages for the player about their data (restored file, bad `--open`, …).
    pub notices: Vec<Notice>,
    pub storage: StorageView,
    /// Saved games that no longer replay, kept in the file.
    pub quarantined: usize,
}

/// A message for the player about their saved data (shown by the UI, see `get_progress`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Notice {
    /// `warning` (something was wrong and was repaired) or `info`.
    pub level: String,
    /// Stable: `restored`, `kept_aside`, `migrated`, `unreadable`, `save_failed`, `bad_open`, …
    pub code: String,
    pub message: String,
}

impl Notice {
    pub fn warning(code: &str, message: impl Into<String>) -> Notice {
        Notice {
            level: "warning".into(),
            code: code.into(),
            message: message.into(),
        }
    }
    pub fn info(code: &str, message: impl Into<String>) -> Notice {
        Notice {
            level: "info".into(),
            code: code.into(),
            message: message.into(),
        }
    }
}

/// The help a game had, kept with it wherever it goes (finish, records, splits of a run).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Marks {
    pub undo_used: bool,
    pub hints_used: u32,
    pub auto_solved: bool,
}

impl Marks {
    pub(crate) fn of_session<G: huarong_engine::Game>(sess: &huarong_engine::Session<G>) -> Marks {
        Marks {
            undo_used: sess.undo_used(),
            hints_used: sess.hints_used(),
            auto_solved: sess.auto_solved(),
        }
    }

    pub(crate) fn of_split(s: &huarong_engine::slide::run::Split) -> Marks {
        Marks {
            undo_used: s.undo_used,
            hints_used: s.hints_used,
            auto_solved: s.auto_solved,
        }
    }

    /// A run's: any of its solves' (hints added up).
    pub(crate) fn of_run(r: &huarong_engine::slide::run::Run) -> Marks {
        r.splits().iter().fold(Marks::default(), |a, s| {
            let s = Marks::of_split(s);
            Marks {
                undo_used: a.undo_used || s.undo_used,
                hints_used: a.hints_used.saturating_add(s.hints_used),
                auto_solved: a.auto_solved || s.auto_solved,
            }
        })
    }

    /// Won with help (a hint, the auto-solver, or a win reached by redo, `redone`): no
    /// record, no "perfect", at most the hinted stars.
    pub(crate) fn assisted(self, redone: bool) -> bool {
        self.hints_used > 0 || self.auto_solved || redone
    }
}

/// `perfect`: the fewest moves possible, without a hint, and not assisted.
pub(crate) fn perfect_of(min: u32, moves: u32, hints: u32, assisted: bool) -> bool {
    !assisted && huarong_engine::registry::perfect(min, moves, hints)
}
