//! The saved schema of the statistics (`Progress::stats`, see `records.rs` for the rules):
//! one scope's summary and history, and the bounds every file is kept within.
//!
//! Bounds ("no statistic is dropped silently"):
//! - **Summaries** (plays, wins, bests, the best averages and the last 12 clean wins the
//!   current averages need) are kept for [`MAX_SCOPES`] scopes; a summary is a few hundred
//!   bytes. Only past that many scopes is the one finished longest ago *folded*: its plays,
//!   wins and scope count go into its game's totals (`Progress::folded`), with a notice.
//! - **Histories** (the rows of the last finishes) are bounded in total bytes: the
//!   [`FULL_SCOPES`] most recently finished scopes keep up to [`MAX_HISTORY`] rows, the next
//!   ones up to [`SHORT_HISTORY`], and all rows together at most [`HISTORY_BYTES`] (older
//!   scopes give up their rows first). Only the oldest rows of a scope are ever trimmed; each
//!   scope counts them (`trimmed`), and a notice says how many were folded.
//!
//! Sizes (5,000 scopes, every one with a full summary, histories at their byte bound): about
//! 6 MB of compact JSON; `cargo run --release -p huarong-core --example progress_bench`.

use super::{rules_of, Progress};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::cell::Cell;
use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, OnceLock};

/// Finishes kept per scope (the most recently finished scopes).
pub const MAX_HISTORY: usize = 100;
/// Finishes kept per scope once it is not among the [`FULL_SCOPES`] most recent ones.
pub const SHORT_HISTORY: usize = 12;
/// How many of the most recently finished scopes keep a full history.
pub const FULL_SCOPES: usize = 64;
/// All history rows together, in bytes of their JSON (an estimate a little above it).
pub const HISTORY_BYTES: usize = 3 << 20;
/// Scopes whose summary is kept (at least 5,000: every daily and generated board has one).
pub const MAX_SCOPES: usize = 10_000;
/// Longest scope text accepted by `records`.
pub const MAX_SCOPE_LEN: usize = 200;
/// Clean wins the current averages need.
pub const RECENT: usize = 12;
/// Clean times the long averages (ao50, ao100) need: kept for number-slide scopes only
/// (a few scopes: sizes and speedsolving modes).
pub const LONG_RECENT: usize = 100;

/// Whether a scope keeps the long averages (the number slide's).
pub fn keeps_long(scope: &str) -> bool {
    scope.starts_with("slide:") || scope.starts_with("slide/")
}

fn is_false(b: &bool) -> bool {
    !*b
}
fn is_zero32(n: &u32) -> bool {
    *n == 0
}
fn is_zero64(n: &u64) -> bool {
    *n == 0
}

/// One finished game. Fields at their default are left out of the file (compact rows).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct FinishEntry {
    /// Unix milliseconds of the finish (orders scopes; 0 in imported data).
    #[serde(skip_serializing_if = "is_zero64")]
    pub at_ms: u64,
    #[serde(skip_serializing_if = "is_false")]
    pub auto_solved: bool,
    /// Local date `YYYY-MM-DD`.
    pub date: String,
    #[serde(skip_serializing_if = "is_zero32")]
    pub hints_used: u32,
    /// The move count under every rule of the game.
    pub moves: BTreeMap<String, u32>,
    pub ms: u64,
    /// The fewest moves possible under the game's default rule, where known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optimal: Option<u32>,
    /// A speedsolving run's splits (each solve's ms, in order); empty for one game.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub splits: Vec<u64>,
    #[serde(skip_serializing_if = "is_false")]
    pub undo_used: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub won: bool,
}

impl FinishEntry {
    pub fn clean(&self) -> bool {
        self.won && !self.undo_used && self.hints_used == 0 && !self.auto_solved
    }

    /// About how many bytes the row takes in the file (never below its real size by much).
    pub fn bytes(&self) -> usize {
        let moves: usize = self.moves.keys().map(|r| r.len() + 14).sum();
        100 + self.date.len() + moves + 9 * self.splits.len()
    }
}

/// One of the last clean wins, as the averages need it: its time and its move count under
/// every rule. In the file `[ms, {"rule": moves}]`; a file of schema 1 held whole finish
/// rows here, which still read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(from = "RecentIn")]
pub struct Recent(pub u64, pub BTreeMap<String, u32>);

#[derive(Deserialize)]
#[serde(untagged)]
enum RecentIn {
    Pair(u64, BTreeMap<String, u32>),
    Row(FinishEntry),
}

impl From<RecentIn> for Recent {
    fn from(r: RecentIn) -> Recent {
        match r {
            RecentIn::Pair(ms, moves) => Recent(ms, moves),
            RecentIn::Row(e) => Recent(e.ms, e.moves),
        }
    }
}

impl Recent {
    pub fn ms(&self) -> u64 {
        self.0
    }
    pub fn moves(&self) -> &BTreeMap<String, u32> {
        &self.1
    }
}

/// The statistics of one scope: its summary, then its history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct ScopeStats {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_ao100_ms: Option<u64>,
    pub best_ao12_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_ao50_ms: Option<u64>,
    pub best_ao5_ms: Option<u64>,
    /// Fewest moves of a clean win, per rule.
    pub best_moves: BTreeMap<String, u32>,
    pub best_ms: Option<u64>,
    /// The most tile moves per second of a clean win, in hundredths (number slide).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_tps_c: Option<u32>,
    /// The last finishes, oldest first (at most [`MAX_HISTORY`]; fewer for older scopes).
    pub history: VecDeque<FinishEntry>,
    /// Unix ms of the last finish.
    pub last_ms: u64,
    pub plays: u32,
    /// The last [`RECENT`] clean wins (oldest first), for the current averages: part of the
    /// summary, never trimmed with the history.
    pub recent: VecDeque<Recent>,
    /// The last [`LONG_RECENT`] clean times (oldest first) of a scope that
    /// [`keeps_long`], for ao50 and ao100.
    #[serde(skip_serializing_if = "VecDeque::is_empty")]
    pub times: VecDeque<u64>,
    /// History rows trimmed by the bounds (their finishes stay counted in the summary).
    #[serde(skip_serializing_if = "is_zero64")]
    pub trimmed: u64,
    pub wins: u32,
}

/// What the statistics of scopes folded past [`MAX_SCOPES`] leave of them, per game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Folded {
    pub plays: u64,
    /// History rows trimmed in all (this game's scopes, folded or not).
    pub rows: u64,
    pub scopes: u64,
    pub wins: u64,
}

/// What a bound folded in one change, for the notice (not saved: always equal).
#[derive(Debug, Clone, Default)]
pub struct FoldLog {
    pub scopes: Vec<String>,
    /// Level records (`<scope>/<rule>`) past `MAX_RECORDS`.
    pub records: Vec<String>,
    pub rows: u64,
    pub row_scopes: usize,
}

impl PartialEq for FoldLog {
    fn eq(&self, _: &FoldLog) -> bool {
        true
    }
}

impl FoldLog {
    pub fn is_empty(&self) -> bool {
        self.scopes.is_empty() && self.records.is_empty() && self.rows == 0
    }

    /// The notice's message (`stats_folded`).
    pub fn message(&self) -> String {
        let mut parts = Vec::new();
        if self.rows > 0 {
            parts.push(format!(
                "the oldest {} finish rows of {} puzzles played longer ago were folded into their totals (their bests, wins and averages are kept; the most recently played {FULL_SCOPES} keep {MAX_HISTORY} rows, older ones {SHORT_HISTORY}, {} MB in all)",
                self.rows,
                self.row_scopes,
                HISTORY_BYTES >> 20
            ));
        }
        if !self.scopes.is_empty() {
            let names: Vec<&str> = self.scopes.iter().take(3).map(String::as_str).collect();
            parts.push(format!(
                "the statistics of {} puzzles finished longest ago ({}{}) were folded into their game's totals: at most {MAX_SCOPES} puzzles keep their own",
                self.scopes.len(),
                names.join(", "),
                if self.scopes.len() > 3 { ", …" } else { "" }
            ));
        }
        if !self.records.is_empty() {
            parts.push(format!(
                "{} level records set longest ago were dropped: at most {} are kept",
                self.records.len(),
                super::MAX_RECORDS
            ));
        }
        parts.join("; ")
    }
}

/// A scope's statistics as the progress holds them: shared between the progress and the
/// copies handed to the saver (a commit copies 5,000 scopes by reference; a change copies
/// the one scope it changes).
///
/// Each one also keeps its compact JSON text once the file encoder has made it
/// ([`file_form`]): a save re-serialises only the scopes changed since the last one, and
/// copies the text of the others (at 5,000 scopes they are most of the file). Any mutable
/// access drops the text, so it is never stale; other serialisations (views) never use it.
pub struct Shared<T>(Arc<Held<T>>);

struct Held<T> {
    value: T,
    text: OnceLock<Box<RawValue>>,
}

impl<T: Clone> Clone for Held<T> {
    /// The copy `make_mut` makes before a change: the text is not carried over.
    fn clone(&self) -> Held<T> {
        Held {
            value: self.value.clone(),
            text: OnceLock::new(),
        }
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Shared<T> {
        Shared(self.0.clone())
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Shared").field(&self.0.value).finish()
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Shared<T>) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.value == other.0.value
    }
}

impl<T: Eq> Eq for Shared<T> {}

impl<T: Default> Default for Shared<T> {
    fn default() -> Shared<T> {
        Shared::from(T::default())
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0.value
    }
}

impl<T: Clone> std::ops::DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut T {
        let held = Arc::make_mut(&mut self.0);
        // About to change: the text made of the old value goes.
        held.text.take();
        &mut held.value
    }
}

impl<T> From<T> for Shared<T> {
    fn from(value: T) -> Shared<T> {
        Shared(Arc::new(Held {
            value,
            text: OnceLock::new(),
        }))
    }
}

impl<T> Shared<T> {
    /// Whether the file encoder's text of this value is kept (tests).
    pub fn has_text(&self) -> bool {
        self.0.text.get().is_some()
    }
}

impl<T: Serialize> Serialize for Shared<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if !FILE_FORM.with(Cell::get) {
            return self.0.value.serialize(s);
        }
        if let Some(text) = self.0.text.get() {
            return text.serialize(s);
        }
        // The same compact text `serde_json::to_writer` writes for the value in place.
        match serde_json::value::to_raw_value(&self.0.value) {
            Ok(text) => self.0.text.get_or_init(|| text).serialize(s),
            Err(_) => self.0.value.serialize(s),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Shared<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(Shared::from)
    }
}

thread_local! {
    /// Set while [`file_form`] runs on this thread.
    static FILE_FORM: Cell<bool> = const { Cell::new(false) };
}

/// Run `f` (a `serde_json` serialisation into compact text: the progress file's) with every
/// [`Shared`] value written as its kept text, made now where it is missing. Only for
/// `serde_json`'s compact serializer: the text is written into its output as it is.
pub fn file_form<R>(f: impl FnOnce() -> R) -> R {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            FILE_FORM.with(|c| c.set(self.0));
        }
    }
    let _reset = Reset(FILE_FORM.with(|c| c.replace(true)));
    f()
}

/// The game kind a scope belongs to (`slide:4x4` → `slide`, `2048` → `2048`).
pub fn scope_kind(scope: &str) -> Option<&str> {
    // `slide:4x4`, `klotski:<board>`, `2048`, and a relay's `slide/relay:5`.
    let kind = scope.split([':', '/']).next()?;
    (!rules_of(kind).is_empty()).then_some(kind)
}

/// Bring statistics read from a file (perhaps hand-edited) within bounds.
pub(super) fn sanitize(p: &mut Progress) {
    p.stats
        .retain(|k, _| k.len() <= MAX_SCOPE_LEN && scope_kind(k).is_some());
    for s in p.stats.values_mut() {
        while s.recent.len() > RECENT {
            s.recent.pop_front();
        }
        while s.times.len() > LONG_RECENT {
            s.times.pop_front();
        }
    }
    bound(p, "");
}

/// Keep the statistics within their bounds (module comment); never touches `keep`'s
/// summary. What was folded is logged in `p.fold_log` for the notice.
pub(crate) fn bound(p: &mut Progress, keep: &str) {
    if p.stats.len() > MAX_SCOPES {
        // Oldest first (one sort), never `keep`.
        let mut order: Vec<(u64, String)> = p
            .stats
            .iter()
            .filter(|(k, _)| k.as_str() != keep)
            .map(|(k, s)| (s.last_ms, k.clone()))
            .collect();
        order.sort();
        let extra = p.stats.len() - MAX_SCOPES;
        for (_, k) in order.into_iter().take(extra) {
            if let Some(s) = p.stats.remove(&k) {
                let kind = scope_kind(&k).unwrap_or("").to_string();
                let f = p.folded.entry(kind).or_default();
                f.scopes += 1;
                f.plays += u64::from(s.plays);
                f.wins += u64::from(s.wins);
                p.fold_log.scopes.push(k);
            }
        }
    }
    // Histories: most recent scope first, each up to its tier's length and the byte budget.
    // (No key is copied: this runs inside every finishing move's save.)
    let mut order: Vec<(&String, &mut Shared<ScopeStats>)> = p.stats.iter_mut().collect();
    order.sort_by(|a, b| b.1.last_ms.cmp(&a.1.last_ms).then(a.0.cmp(b.0)));
    let mut budget = HISTORY_BYTES;
    let mut trimmed_scopes = 0;
    for (rank, (key, s)) in order.into_iter().enumerate() {
        let cap = if rank < FULL_SCOPES || key == keep {
            MAX_HISTORY
        } else {
            SHORT_HISTORY
        };
        // Newest rows first, as long as they fit.
        let mut keep_rows = 0;
        for e in s.history.iter().rev().take(cap) {
            let b = e.bytes();
            if b > budget {
                break;
            }
            budget -= b;
            keep_rows += 1;
        }
        let cut = s.history.len() - keep_rows;
        if cut > 0 {
            s.history.drain(..cut);
            s.trimmed += cut as u64;
            let kind = scope_kind(key).unwrap_or("");
            match p.folded.get_mut(kind) {
                Some(f) => f.rows += cut as u64,
                None => {
                    let f = p.folded.entry(kind.to_string()).or_default();
                    f.rows = cut as u64;
                }
            }
            // The per-scope length a recent scope always had is no fold worth a notice.
            if !(cap == MAX_HISTORY && keep_rows == MAX_HISTORY) {
                p.fold_log.rows += cut as u64;
                trimmed_scopes += 1;
            }
        }
    }
    p.fold_log.row_scopes += trimmed_scopes;
}
