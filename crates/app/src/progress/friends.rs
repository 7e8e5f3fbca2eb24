//! The saved friends' boards of the daily challenge (issue 25) and the move logs kept for
//! replays. Pure data and its bounds; `crate::friends` fills and reads them.
//!
//! Friends' boards: per daily number and game, one entry per friend name (a result code
//! without a name is the one "a friend" entry, name ""), keeping only that name's best
//! (fewer moves, or as many in less time; a verified result wins a tie). Bounds:
//! - friends' entries of days more than [`KEEP_DAYS`] before the newest day seen go (so at
//!   least 30 days are kept);
//! - at most [`MAX_PER_BOARD`] friends per board (the worst goes, or the newcomer if it is
//!   the worst) and [`MAX_FRIEND_ENTRIES`] in all (the oldest days' go first);
//! - the player's own results (`mine`, from their daily finishes) are never evicted to make
//!   room for friends; they are kept for [`KEEP_OWN_DAYS`] days.
//!
//! Replays: the packed move log (`huarong_engine::code::pack_log`) of each finish in the
//! records history, keyed by its scope and its finish time (`FinishEntry::at_ms`), at most
//! [`MAX_REPLAYS`] (the oldest finish's goes first).

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

/// Days of friends' results kept behind the newest day (at least 30).
pub const KEEP_DAYS: u32 = 45;
/// Days of the player's own daily results kept.
pub const KEEP_OWN_DAYS: u32 = 3650;
/// Friends kept on one day's board of one game.
pub const MAX_PER_BOARD: usize = 50;
/// Friends' entries kept in all.
pub const MAX_FRIEND_ENTRIES: usize = 2000;
/// Finishes whose move log is kept for replays.
pub const MAX_REPLAYS: usize = 300;
/// Longest packed log kept (characters).
pub const MAX_PACKED_LOG: usize = 20_000;

/// One result on a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct BoardResult {
    /// Under the game's default counting rule (what codes carry).
    pub moves: u32,
    pub ms: u64,
    /// Replayed from the code's move log (the player's own: always true).
    pub verified: bool,
}

impl BoardResult {
    /// Whether `self` ranks before `other`: fewer moves, less time, then verified.
    pub fn better_than(&self, other: &BoardResult) -> bool {
        (self.moves, self.ms, !self.verified) < (other.moves, other.ms, !other.verified)
    }
}

/// One day's boards: per game kind, the friends (name → best) and the player's own best.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct DayBoards {
    pub friends: BTreeMap<String, BTreeMap<String, BoardResult>>,
    pub mine: BTreeMap<String, BoardResult>,
}

/// Every day's boards, by daily number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Friends {
    pub days: BTreeMap<u32, DayBoards>,
}

/// Where the move log of one finish is kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct KeptReplay {
    // Fields in key order: the progress file's checksum form (`persist::encode`).
    /// The finish's wall time (its history entry's `at_ms`).
    pub at_ms: u64,
    /// The game ID it started from, and its moves packed (`code::pack_log`).
    pub id: String,
    pub log: String,
    /// The record scope of the finish.
    pub scope: String,
}

/// The kept move logs, oldest finish first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Replays {
    pub kept: VecDeque<KeptReplay>,
}

impl Replays {
    pub fn add(&mut self, r: KeptReplay) {
        if r.log.len() > MAX_PACKED_LOG {
            return;
        }
        self.kept
            .retain(|k| !(k.scope == r.scope && k.at_ms == r.at_ms));
        self.kept.push_back(r);
        while self.kept.len() > MAX_REPLAYS {
            self.kept.pop_front();
        }
    }
    pub fn find(&self, scope: &str, at_ms: u64) -> Option<&KeptReplay> {
        self.kept
            .iter()
            .rev()
            .find(|k| k.scope == scope && k.at_ms == at_ms)
    }
}

impl Friends {
    /// Add a friend's result to the board of `daily` and `kind` (keeping their best);
    /// `today` is today's daily number (for the bound on days).
    pub fn add_friend(&mut self, daily: u32, kind: &str, name: &str, r: BoardResult, today: u32) {
        if daily + KEEP_DAYS < today.max(self.newest()) {
            return; // older than anything kept
        }
        let board = self
            .days
            .entry(daily)
            .or_default()
            .friends
            .entry(kind.to_string())
            .or_default();
        match board.get(name) {
            Some(old) if !r.better_than(old) => {}
            _ => {
                board.insert(name.to_string(), r);
            }
        }
        while board.len() > MAX_PER_BOARD {
            let worst = board
                .iter()
                .max_by(|a, b| {
                    if a.1.better_than(b.1) {
                        std::cmp::Ordering::Less
                    } else if b.1.better_than(a.1) {
                        std::cmp::Ordering::Greater
                    } else {
                        a.0.cmp(b.0)
                    }
                })
                .map(|(k, _)| k.clone());
            match worst {
                Some(k) => board.remove(&k),
                None => break,
            };
        }
        self.bound(today);
    }

    /// The player's own result of `daily` and `kind` (keeping their best).
    pub fn add_mine(&mut self, daily: u32, kind: &str, r: BoardResult, today: u32) {
        let mine = &mut self.days.entry(daily).or_default().mine;
        match mine.get(kind) {
            Some(old) if !r.better_than(old) => {}
            _ => {
                mine.insert(kind.to_string(), r);
            }
        }
        self.bound(today);
    }

    fn newest(&self) -> u32 {
        self.days.keys().next_back().copied().unwrap_or(0)
    }

    /// Apply the bounds (see the module documentation); never drops an own result younger
    /// than [`KEEP_OWN_DAYS`].
    pub fn bound(&mut self, today: u32) {
        let newest = today.max(self.newest());
        for (&day, b) in self.days.iter_mut() {
            if day + KEEP_DAYS < newest {
                b.friends.clear();
            }
            if day + KEEP_OWN_DAYS < newest {
                b.mine.clear();
            }
        }
        let mut total: usize = self.entries();
        // The oldest days' friends go first.
        let days: Vec<u32> = self.days.keys().copied().collect();
        for day in days {
            if total <= MAX_FRIEND_ENTRIES {
                break;
            }
            if let Some(b) = self.days.get_mut(&day) {
                for board in b.friends.values_mut() {
                    while total > MAX_FRIEND_ENTRIES {
                        if board.pop_last().is_none() {
                            break;
                        }
                        total -= 1;
                    }
                }
                b.friends.retain(|_, v| !v.is_empty());
            }
        }
        self.days
            .retain(|_, b| !(b.friends.is_empty() && b.mine.is_empty()));
    }

    /// Friends' entries in all.
    pub fn entries(&self) -> usize {
        self.days
            .values()
            .flat_map(|b| b.friends.values())
            .map(|m| m.len())
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(moves: u32, ms: u64, verified: bool) -> BoardResult {
        BoardResult {
            moves,
            ms,
            verified,
        }
    }

    #[test]
    fn old_files_load_without_the_new_fields() {
        let old = serde_json::json!({
            "settings": {"language": "en"},
            "challenges": {"challenge:0123456789abcdef": {"id": "slide:3x3:1,2,3,4,5,6,7,0,8", "moves": 5, "ms": 9}},
        });
        let p: crate::progress::Progress = serde_json::from_value(old).unwrap();
        assert_eq!(p.settings.name, "");
        assert!(p.friends.days.is_empty() && p.replays.kept.is_empty());
        let c = &p.challenges["challenge:0123456789abcdef"];
        assert_eq!(
            (c.name.as_deref(), c.daily, c.replay, c.verified),
            (None, None, false, false)
        );
        // And a bad name in a hand-edited file is cleared, not kept.
        let mut p = p;
        p.settings.name = "a\nb".into();
        p.sanitize();
        assert_eq!(p.settings.name, "");
    }

    #[test]
    fn best_only_per_name_and_bounded() {
        let mut f = Friends::default();
        f.add_friend(100, "slide", "Mei", r(40, 9_000, false), 100);
        f.add_friend(100, "slide", "Mei", r(45, 1_000, true), 100);
        f.add_friend(100, "slide", "Mei", r(40, 8_000, false), 100);
        assert_eq!(f.days[&100].friends["slide"]["Mei"], r(40, 8_000, false));
        f.add_friend(100, "slide", "Mei", r(40, 8_000, true), 100);
        assert!(
            f.days[&100].friends["slide"]["Mei"].verified,
            "verified wins a tie"
        );
        for i in 0..80 {
            f.add_friend(100, "slide", &format!("f{i}"), r(50 + i, 1, false), 100);
        }
        assert_eq!(f.days[&100].friends["slide"].len(), MAX_PER_BOARD);
        assert!(f.days[&100].friends["slide"].contains_key("Mei"));
        f.add_mine(100, "slide", r(99, 1, true), 100);
        // 60 days later: the friends of day 100 are gone, the player's own result stays.
        f.add_friend(160, "slide", "Bo", r(1, 1, false), 160);
        assert!(f.days[&100].friends.is_empty());
        assert_eq!(f.days[&100].mine["slide"].moves, 99);
        // Too old to be added.
        f.add_friend(100, "slide", "Old", r(1, 1, false), 160);
        assert!(!f.days[&100].friends.contains_key("slide"));
    }
}
