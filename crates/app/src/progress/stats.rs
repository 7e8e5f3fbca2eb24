//! The saved schema of the statistics (`Progress::stats`, see `records.rs` for the rules):
//! one scope's finishes and bests, and the bounds every loaded file is cut to.

use super::{rules_of, Progress};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

/// Finishes kept per scope.
pub const MAX_HISTORY: usize = 100;
/// Scopes kept (the one finished longest ago goes first; generated levels make one each).
pub const MAX_SCOPES: usize = 64;
/// Longest scope text accepted by `records`.
pub const MAX_SCOPE_LEN: usize = 200;

/// One finished game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct FinishEntry {
    /// Local date `YYYY-MM-DD`.
    pub date: String,
    /// Unix milliseconds of the finish (orders scopes; 0 in imported data).
    pub at_ms: u64,
    /// The move count under every rule of the game.
    pub moves: BTreeMap<String, u32>,
    pub ms: u64,
    /// The fewest moves possible under the game's default rule, where known.
    pub optimal: Option<u32>,
    pub won: bool,
    pub undo_used: bool,
    pub hints_used: u32,
    pub auto_solved: bool,
}

impl FinishEntry {
    pub fn clean(&self) -> bool {
        self.won && !self.undo_used && self.hints_used == 0 && !self.auto_solved
    }
}

/// The statistics of one scope.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct ScopeStats {
    pub plays: u32,
    pub wins: u32,
    /// Fewest moves of a clean win, per rule.
    pub best_moves: BTreeMap<String, u32>,
    pub best_ms: Option<u64>,
    pub best_ao5_ms: Option<u64>,
    pub best_ao12_ms: Option<u64>,
    /// The last 12 clean wins (oldest first), for the current averages.
    pub recent: VecDeque<FinishEntry>,
    /// The last [`MAX_HISTORY`] finishes, oldest first.
    pub history: VecDeque<FinishEntry>,
    /// Unix ms of the last finish.
    pub last_ms: u64,
}

/// The game kind a scope belongs to (`slide:4x4` → `slide`, `2048` → `2048`).
pub fn scope_kind(scope: &str) -> Option<&str> {
    let kind = scope.split(':').next()?;
    (!rules_of(kind).is_empty()).then_some(kind)
}

/// Bring statistics read from a file (perhaps hand-edited) within bounds.
pub(super) fn sanitize(p: &mut Progress) {
    p.stats
        .retain(|k, _| k.len() <= MAX_SCOPE_LEN && scope_kind(k).is_some());
    for s in p.stats.values_mut() {
        while s.history.len() > MAX_HISTORY {
            s.history.pop_front();
        }
        while s.recent.len() > 12 {
            s.recent.pop_front();
        }
    }
    bound(p, "");
}

/// Keep at most [`MAX_SCOPES`] scopes (never `keep`).
pub(crate) fn bound(p: &mut Progress, keep: &str) {
    while p.stats.len() > MAX_SCOPES {
        let victim = p
            .stats
            .iter()
            .filter(|(k, _)| k.as_str() != keep)
            .min_by_key(|(_, s)| s.last_ms)
            .map(|(k, _)| k.clone());
        match victim {
            Some(k) => {
                p.stats.remove(&k);
            }
            None => break,
        }
    }
}
