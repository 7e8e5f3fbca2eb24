//! Statistics of every record scope: bests, wins and plays, averages of 5 and 12,
//! and the last [`MAX_HISTORY`] finishes. Kept in `Progress::stats` (one entry per scope, not
//! per rule: each finish stores its move count under every rule of its game, so switching the
//! counting rule shows the full statistics under the new rule at once).
//!
//! Rules (documented for the UI and the README):
//! - A finish is *clean* when it is a win without undo, without hints and not auto-solved.
//!   Only clean finishes set bests (`best_moves`, `best_ms`) and enter the averages. Every
//!   finish (won or lost, clean or not) is in `history`, marked.
//! - `wins`: won games that were not auto-solved (a game won, undone and won again counts
//!   once, like the legacy record). `plays`: games of the scope in which a first move was made.
//! - Averages (WCA-like): the last 5 (12) clean wins, the fastest and the slowest time
//!   dropped, the mean of the rest in whole milliseconds (rounded half up). `ao5_moves` /
//!   `ao12_moves` beside them are the same trimmed mean of the move counts of those games
//!   (their own fewest and most dropped), to two decimals. `null` until there are 5 (12) clean
//!   wins. `best_ao5_ms` / `best_ao12_ms` are the lowest average ever reached (under any rule,
//!   as time does not depend on it).
//! - `history` is oldest first, newest last, at most 100 entries; scopes not among the 64
//!   most recently finished keep 12, and all histories together a bounded number of bytes
//!   (`progress/stats.rs`): only the oldest rows are trimmed, never the summary, and a
//!   `stats_folded` notice says what was folded. `trimmed` counts a scope's trimmed rows.
//!
//! `records {}` without a scope lists every scope the player has (the same objects without
//! `history`), most recently finished first.

use crate::core::AppState;
use crate::error::{AppError, AppResult};
use crate::progress::{bound, rules_of, Progress};
pub use crate::progress::{
    keeps_long, scope_kind, FinishEntry, Recent, ScopeStats, LONG_RECENT, MAX_HISTORY, MAX_SCOPES,
    MAX_SCOPE_LEN, RECENT,
};

use crate::games::AppGame;
use huarong_engine::{GameId, Session};
use serde_json::{json, Value};
use std::collections::VecDeque;

/// The record scope of the game a game ID names ([`scope_of`]; builds the game: a generator
/// runs). For tests and tools.
pub fn scope_of_id(id: &str) -> AppResult<String> {
    let kind = GameId::parse(id)?.kind;
    crate::games::with_game!(kind, G => Ok(scope_of(&Session::<G>::open(id)?)))
}

/// The record scope of a session's game: a board the app dealt — a seeded game
/// ID (`slide:4x4#7`, `slide:4x4/hard#3`, a daily, `2048:#9`) or one of its levels (a Klotski
/// classic) — counts for its size or level ([`AppGame::scope`]: `slide:4x4`, `2048`); any
/// other board (an exact board from a code or a typed ID, which may be one move from solved)
/// keeps a scope of its own ([`AppGame::own_scope`]), so it never sets the size's record.
pub fn scope_of<G: AppGame>(sess: &Session<G>) -> String {
    let start = sess.start();
    // Seeded, and not an exact board given with the seed of its spawns (2048's `<board>#seed`;
    // a size before the seed, `2048:5x5#7`, is dealt).
    let dealt = GameId::parse(sess.id()).is_ok_and(|id| {
        use huarong_engine::code::Coded;
        let body = id.body.trim();
        let board_given =
            <G as Coded>::SEED_WITH_BOARD && !body.is_empty() && !<G as Coded>::seed_params(body);
        id.seed.is_some() && !board_given
    });
    if dealt || G::level_index(start).is_some() {
        G::scope(start)
    } else {
        G::own_scope(start)
    }
}

/// The trimmed mean of `xs`: 5 % of the values rounded up dropped at each end (one for
/// ao5 and ao12, 3 for ao50, 5 for ao100), or `None` below 3 values.
fn trimmed(xs: &[u64]) -> Option<(u64, u64)> {
    if xs.len() < 3 {
        return None;
    }
    let cut = xs.len().div_ceil(20);
    let mut v = xs.to_vec();
    v.sort_unstable();
    let mid = &v[cut..v.len() - cut];
    let sum: u64 = mid.iter().sum();
    Some((sum, mid.len() as u64))
}

/// Average of the last `n` clean times (WCA-like, see the module documentation).
pub fn average_ms(recent: &VecDeque<Recent>, n: usize) -> Option<u64> {
    if recent.len() < n {
        return None;
    }
    let times: Vec<u64> = recent
        .iter()
        .skip(recent.len() - n)
        .map(Recent::ms)
        .collect();
    trimmed(&times).map(|(sum, k)| (2 * sum + k) / (2 * k))
}

/// Average of the last `n` clean times of a scope that keeps the long list (ao50, ao100).
pub fn long_average_ms(times: &VecDeque<u64>, n: usize) -> Option<u64> {
    if times.len() < n {
        return None;
    }
    let last: Vec<u64> = times.iter().skip(times.len() - n).copied().collect();
    trimmed(&last).map(|(sum, k)| (2 * sum + k) / (2 * k))
}

/// The shortest finish that shows a TPS: under a second the number says nothing a player
/// could reach.
pub const MIN_TPS_MS: u64 = 1_000;

/// Tile moves per second of a finish (games counted in tile moves), to two decimals; `None`
/// under [`MIN_TPS_MS`].
pub fn tps_of(e: &FinishEntry) -> Option<f64> {
    e.moves
        .get("tile")
        .filter(|_| e.ms >= MIN_TPS_MS)
        .and_then(|&t| huarong_engine::slide::run::tps(t, e.ms))
}

/// The same trimmed mean of the move counts under `rule`, to two decimals.
pub fn average_moves(recent: &VecDeque<Recent>, n: usize, rule: &str) -> Option<f64> {
    if recent.len() < n {
        return None;
    }
    let moves: Vec<u64> = recent
        .iter()
        .skip(recent.len() - n)
        .filter_map(|e| e.moves().get(rule).map(|&m| m as u64))
        .collect();
    if moves.len() < n {
        return None;
    }
    trimmed(&moves).map(|(sum, k)| (sum as f64 * 100.0 / k as f64).round() / 100.0)
}

fn min_opt(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

impl ScopeStats {
    /// Add one finish; `new_win` is false when this game already counted its win.
    pub fn add(&mut self, e: FinishEntry, new_win: bool) {
        self.add_to(e, new_win, false);
    }

    /// Add one finish; `long`: the scope keeps the long averages ([`keeps_long`]).
    pub fn add_to(&mut self, e: FinishEntry, new_win: bool, long: bool) {
        if e.won && !e.auto_solved && new_win {
            self.wins = self.wins.saturating_add(1);
        }
        if e.clean() {
            for (rule, &m) in &e.moves {
                let b = self.best_moves.entry(rule.clone()).or_insert(m);
                *b = (*b).min(m);
            }
            self.best_ms = min_opt(self.best_ms, Some(e.ms));
            self.recent.push_back(Recent(e.ms, e.moves.clone()));
            while self.recent.len() > RECENT {
                self.recent.pop_front();
            }
            self.best_ao5_ms = min_opt(self.best_ao5_ms, average_ms(&self.recent, 5));
            self.best_ao12_ms = min_opt(self.best_ao12_ms, average_ms(&self.recent, 12));
            if long {
                self.times.push_back(e.ms);
                while self.times.len() > LONG_RECENT {
                    self.times.pop_front();
                }
                self.best_ao50_ms = min_opt(self.best_ao50_ms, long_average_ms(&self.times, 50));
                self.best_ao100_ms = min_opt(self.best_ao100_ms, long_average_ms(&self.times, 100));
            }
            if let Some(t) = tps_of(&e) {
                let c = (t * 100.0).round() as u32;
                self.best_tps_c = Some(self.best_tps_c.map_or(c, |b| b.max(c)));
            }
        }
        self.last_ms = self.last_ms.max(e.at_ms);
        self.history.push_back(e);
        while self.history.len() > MAX_HISTORY {
            self.history.pop_front();
            self.trimmed += 1;
        }
    }

    /// The `records` view under `rule` (`history` left out when `with_history` is false).
    pub fn view(&self, scope: &str, rule: &str, with_history: bool) -> Value {
        let mut v = json!({
            "scope": scope,
            "rule": rule,
            "best_moves": self.best_moves.get(rule),
            "best_ms": self.best_ms,
            "wins": self.wins,
            "plays": self.plays,
            "ao5_ms": average_ms(&self.recent, 5),
            "ao12_ms": average_ms(&self.recent, 12),
            "ao5_moves": average_moves(&self.recent, 5, rule),
            "ao12_moves": average_moves(&self.recent, 12, rule),
            "best_ao5_ms": self.best_ao5_ms,
            "best_ao12_ms": self.best_ao12_ms,
            "ao50_ms": long_average_ms(&self.times, 50),
            "ao100_ms": long_average_ms(&self.times, 100),
            "best_ao50_ms": self.best_ao50_ms,
            "best_ao100_ms": self.best_ao100_ms,
            "best_tps": self.best_tps_c.map(|c| c as f64 / 100.0),
            "last_ms": self.last_ms,
            "trimmed": self.trimmed,
        });
        if with_history {
            let default_rule = scope_kind(scope).and_then(|k| rules_of(k).first().copied());
            let history: Vec<Value> = self
                .history
                .iter()
                .map(|e| {
                    json!({
                        "date": e.date,
                        "moves": e.moves.get(rule),
                        "ms": e.ms,
                        // The optimum is known under the default rule only.
                        "optimal": if default_rule == Some(rule) { e.optimal } else { None },
                        "won": e.won,
                        "undo_used": e.undo_used,
                        "hints_used": e.hints_used,
                        "auto_solved": e.auto_solved,
                        "clean": e.clean(),
                        "tps": tps_of(e),
                        "splits": e.splits,
                    })
                })
                .collect();
            v["history"] = Value::Array(history);
        }
        v
    }
}

/// Record a finish of `scope` in `p` (inside the save of the finishing move).
pub(crate) fn add_finish(p: &mut Progress, scope: &str, e: FinishEntry, new_win: bool) {
    p.stats
        .entry(scope.to_string())
        .or_default()
        .add_to(e, new_win, keeps_long(scope));
    bound(p, scope);
}

/// A game of `scope` got its first move.
pub(crate) fn add_play(p: &mut Progress, scope: &str) {
    let s = p.stats.entry(scope.to_string()).or_default();
    s.plays = s.plays.saturating_add(1);
    bound(p, scope);
}

impl AppState {
    /// `records {scope}`: the statistics of one scope under the player's rule for its game
    /// (a scope never played has zeros and nulls); `None`: every scope, without history.
    pub fn records(&self, scope: Option<&str>) -> AppResult<Value> {
        let st = self.store();
        let p = &st.progress;
        match scope {
            Some(scope) => {
                let kind = scope_kind(scope).ok_or_else(|| {
                    AppError::bad_argument(format!(
                        "`scope` {:?} is not a record scope (slide:4x4, klotski:<board>, 2048, …)",
                        scope.chars().take(60).collect::<String>()
                    ))
                })?;
                let rule = p.settings.rule(kind).to_string();
                let empty = ScopeStats::default();
                Ok(p.stats
                    .get(scope)
                    .map_or(&empty, |s| &**s)
                    .view(scope, &rule, true))
            }
            None => {
                let mut all: Vec<(&String, &ScopeStats)> =
                    p.stats.iter().map(|(k, s)| (k, &**s)).collect();
                all.sort_by(|a, b| b.1.last_ms.cmp(&a.1.last_ms).then(a.0.cmp(b.0)));
                let list = all
                    .into_iter()
                    .filter_map(|(scope, s)| {
                        let kind = scope_kind(scope)?;
                        let mut v = s.view(scope, p.settings.rule(kind), false);
                        v["kind"] = json!(kind);
                        Some(v)
                    })
                    .collect();
                Ok(Value::Array(list))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn win(ms: u64, moves: u32) -> FinishEntry {
        FinishEntry {
            ms,
            moves: BTreeMap::from([("tile".to_string(), moves)]),
            won: true,
            ..FinishEntry::default()
        }
    }

    #[test]
    fn averages_drop_the_best_and_the_worst() {
        let mut s = ScopeStats::default();
        for (ms, m) in [(10_000, 30), (12_000, 20), (9_000, 25), (20_000, 40)] {
            s.add(win(ms, m), true);
        }
        assert_eq!(average_ms(&s.recent, 5), None);
        s.add(win(11_001, 22), true);
        // 9000 and 20000 dropped: (10000 + 12000 + 11001) / 3 = 11000.33 → 11000.
        assert_eq!(average_ms(&s.recent, 5), Some(11_000));
        // moves 20 and 40 dropped: (30 + 25 + 22) / 3 = 25.67.
        assert_eq!(average_moves(&s.recent, 5, "tile"), Some(25.67));
        assert_eq!(s.best_ao5_ms, Some(11_000));
        s.add(win(50_000, 90), true);
        // 9000 and 50000 dropped: (12000 + 20000 + 11001) / 3 = 14333.67 → 14334.
        assert_eq!(average_ms(&s.recent, 5), Some(14_334));
        assert_eq!(s.best_ao5_ms, Some(11_000), "the best stays");
    }

    #[test]
    fn marked_finishes_are_history_only() {
        let mut s = ScopeStats::default();
        let mut e = win(1_000, 3);
        e.hints_used = 1;
        s.add(e, true);
        assert_eq!(s.best_ms, None);
        assert_eq!(s.wins, 1);
        assert_eq!(s.history.len(), 1);
        let mut e = win(1_000, 3);
        e.auto_solved = true;
        s.add(e, true);
        assert_eq!(s.wins, 1, "auto-solved is no win");
        for i in 0..150 {
            s.add(win(2_000 + i, 5), true);
        }
        assert_eq!(s.history.len(), MAX_HISTORY);
        assert_eq!(s.history.back().unwrap().ms, 2_149, "newest last");
        assert_eq!(s.recent.len(), 12);
    }

    #[test]
    fn long_averages_trim_five_percent_at_each_end() {
        let mut s = ScopeStats::default();
        // 1..=49 s: no ao50 yet.
        for i in 1..=49u64 {
            s.add_to(win(i * 1_000, 10), true, true);
        }
        assert_eq!(long_average_ms(&s.times, 50), None);
        // A 50th of 1,000 s: the 3 fastest and the 3 slowest are dropped.
        s.add_to(win(1_000_000, 10), true, true);
        // Kept: 4..=47 s (the slowest three are 48, 49 and 1,000 s): mean 25.5 s.
        assert_eq!(long_average_ms(&s.times, 50), Some(25_500));
        assert_eq!(s.best_ao50_ms, Some(25_500));
        for i in 0..50u64 {
            s.add_to(win(60_000 + i, 10), true, true);
        }
        assert_eq!(s.times.len(), LONG_RECENT);
        assert!(long_average_ms(&s.times, 100).is_some());
        for _ in 0..20 {
            s.add_to(win(5_000, 10), true, true);
        }
        assert_eq!(s.times.len(), LONG_RECENT, "at most 100 kept");
        // Marked finishes never enter them, and scopes without the long list have none.
        let mut other = ScopeStats::default();
        for i in 0..60u64 {
            other.add(win(1_000 + i, 5), true);
        }
        assert!(other.times.is_empty());
        assert_eq!(long_average_ms(&other.times, 50), None);
        // TPS: 10 tile moves in 5 s is 2.00; the best is kept in hundredths.
        assert_eq!(s.best_tps_c, Some(1_000), "10 moves in 1 s");
        assert_eq!(tps_of(&win(5_000, 10)), Some(2.0));
    }
}
