//! The saved friends' boards of the daily challenge and the move logs kept for
//! replays. Pure data and its bounds; `crate::friends` fills and reads them.
//!
//! Friends' boards: per daily number and game, one entry per friend name (a result code
//! without a name is the one "a friend" entry, name ""; names are kept in their checked
//! form, without format characters), keeping only that name's best by the board's order
//! ([`BoardResult::rank`]: verified first, then a 2048 win, a higher score, fewer moves, less
//! time). Bounds, by what the boards hold and never by the wall clock (a clock set ahead and
//! back must delete nothing):
//! - a friend's result is taken only for a day from [`KEEP_DAYS`] before today to tomorrow
//!   (admission; nothing stored is judged by today's date);
//! - friends' entries are kept for the newest [`FRIEND_DAYS`] days that hold any, at most
//!   [`MAX_PER_BOARD`] friends per board (the worst goes, or the newcomer if it is the worst)
//!   and [`MAX_FRIEND_ENTRIES`] in all (the oldest days' go first);
//! - the player's own results (`mine`, from their daily finishes) are never evicted to make
//!   room for friends; they are kept for the newest [`KEEP_OWN_DAYS`] days that hold any.
//!
//! Replays: the packed move log (`huarong_engine::code::pack_log`) of each finish in the
//! records history, keyed by its scope and its finish time (`FinishEntry::at_ms`), at most
//! [`MAX_REPLAYS`] (the oldest finish's goes first).

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

/// How far before today a friend's result is still taken (days).
pub const KEEP_DAYS: u32 = 45;
/// Days holding friends' results kept: the newest that hold any (the admission window, from
/// [`KEEP_DAYS`] before today to tomorrow, is one day more).
pub const FRIEND_DAYS: usize = KEEP_DAYS as usize + 2;
/// Days holding the player's own daily results kept: the newest that hold any.
pub const KEEP_OWN_DAYS: usize = 3650;
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
    // Fields in key order: the progress file's checksum form (`persist::encode`).
    /// Helped to (hints, undo): marked on the board and ranked after clean results. Not
    /// written when false (older files' form).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub assisted: bool,
    /// Under the game's default counting rule (what codes carry).
    pub moves: u32,
    pub ms: u64,
    /// 2048's score, when the result carried it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<u64>,
    /// The moves were replayed from the code's move log (the player's own: always true).
    /// The time never is: it is the sender's claim.
    pub verified: bool,
    /// 2048: whether the 2048 tile was made, when the result carried it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub won: Option<bool>,
}

impl BoardResult {
    /// Where a result stands on its board, lowest first: clean before assisted, verified
    /// before unverified, then a 2048 win before a loss and a higher score before a lower one, then
    /// fewer moves, then less time.
    pub fn rank(&self) -> (bool, bool, bool, std::cmp::Reverse<u64>, u32, u64) {
        (
            self.assisted,
            !self.verified,
            !self.won.unwrap_or(false),
            std::cmp::Reverse(self.score.unwrap_or(0)),
            self.moves,
            self.ms,
        )
    }

    /// Whether `self` ranks before `other` ([`BoardResult::rank`]).
    pub fn better_than(&self, other: &BoardResult) -> bool {
        self.rank() < other.rank()
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
    /// The time of each move from the first (`code::pack_times`); empty when not known.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub times: String,
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
    /// `today` is today's daily number: a day more than [`KEEP_DAYS`] before it is not taken,
    /// and one after tomorrow is refused (no one can have played it).
    pub fn add_friend(&mut self, daily: u32, kind: &str, name: &str, r: BoardResult, today: u32) {
        if daily.saturating_add(KEEP_DAYS) < today || daily > today.saturating_add(1) {
            return;
        }
        let board = self
            .days
            .entry(daily)
            .or_default()
            .friends
            .entry(kind.to_string())
            .or_default();
        // A twin of a name on the board (same skeleton) is that player: their first-seen name
        // stays the one shown.
        let key = huarong_engine::code::name_key(name);
        let shown = board
            .keys()
            .find(|n| huarong_engine::code::name_key(n) == key)
            .cloned()
            .unwrap_or_else(|| name.to_string());
        match board.get(&shown) {
            Some(old) if !r.better_than(old) => {}
            _ => {
                board.insert(shown, r);
            }
        }
        while board.len() > MAX_PER_BOARD {
            let worst = board
                .iter()
                .max_by(|a, b| a.1.rank().cmp(&b.1.rank()).then(a.0.cmp(b.0)))
                .map(|(k, _)| k.clone());
            match worst {
                Some(k) => board.remove(&k),
                None => break,
            };
        }
        self.bound();
    }

    /// The player's own result of `daily` and `kind` (keeping their best). `_today` is not
    /// used: what is kept does not depend on the clock.
    pub fn add_mine(&mut self, daily: u32, kind: &str, r: BoardResult, _today: u32) {
        let mine = &mut self.days.entry(daily).or_default().mine;
        match mine.get(kind) {
            Some(old) if !r.better_than(old) => {}
            _ => {
                mine.insert(kind.to_string(), r);
            }
        }
        self.bound();
    }

    /// Apply the bounds (see the module documentation): by the days stored and their
    /// counts, never by today's date, so a clock moved any distance deletes nothing.
    pub fn bound(&mut self) {
        let with_friends = self.days.values().filter(|b| !b.friends.is_empty()).count();
        let with_mine = self.days.values().filter(|b| !b.mine.is_empty()).count();
        let (mut drop_friends, mut drop_mine) = (
            with_friends.saturating_sub(FRIEND_DAYS),
            with_mine.saturating_sub(KEEP_OWN_DAYS),
        );
        // Oldest days first.
        for b in self.days.values_mut() {
            if drop_friends == 0 && drop_mine == 0 {
                break;
            }
            if drop_friends > 0 && !b.friends.is_empty() {
                b.friends.clear();
                drop_friends -= 1;
            }
            if drop_mine > 0 && !b.mine.is_empty() {
                b.mine.clear();
                drop_mine -= 1;
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

    /// Friends' names in their checked form (an older build's file may hold "Alice\u{200B}"
    /// beside "Alice", or "Jose\u{301}" beside "José"): invisible characters dropped, NFC,
    /// twins (one [`name_key`](huarong_engine::code::name_key)) merged to their best under the
    /// first of their names; a name that is no name any more is dropped.
    pub fn sanitize_names(&mut self) {
        use huarong_engine::code::{check_name, name_key};
        for b in self.days.values_mut() {
            for board in b.friends.values_mut() {
                let keys: std::collections::BTreeSet<String> =
                    board.keys().map(|n| name_key(n)).collect();
                if keys.len() == board.len()
                    && board
                        .keys()
                        .all(|n| check_name(n).is_ok_and(|c| c.as_deref().unwrap_or("") == n))
                {
                    continue;
                }
                let old = std::mem::take(board);
                let mut shown: BTreeMap<String, String> = BTreeMap::new();
                for (name, r) in old {
                    let Ok(clean) = check_name(&name) else {
                        continue;
                    };
                    let clean = clean.unwrap_or_default();
                    let name = shown.entry(name_key(&clean)).or_insert(clean).clone();
                    match board.get(&name) {
                        Some(kept) if !r.better_than(kept) => {}
                        _ => {
                            board.insert(name, r);
                        }
                    }
                }
            }
        }
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
            ..Default::default()
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
        f.add_friend(100, "slide", "Mei", r(40, 8_000, false), 100);
        assert_eq!(f.days[&100].friends["slide"]["Mei"], r(40, 8_000, false));
        // A verified result ranks above any unverified one.
        f.add_friend(100, "slide", "Mei", r(45, 1_000, true), 100);
        assert_eq!(f.days[&100].friends["slide"]["Mei"], r(45, 1_000, true));
        f.add_friend(100, "slide", "Mei", r(30, 1_000, false), 100);
        assert_eq!(f.days[&100].friends["slide"]["Mei"], r(45, 1_000, true));
        f.add_friend(100, "slide", "Mei", r(40, 8_000, true), 100);
        assert_eq!(f.days[&100].friends["slide"]["Mei"], r(40, 8_000, true));
        for i in 0..80 {
            f.add_friend(100, "slide", &format!("f{i}"), r(50 + i, 1, false), 100);
        }
        assert_eq!(f.days[&100].friends["slide"].len(), MAX_PER_BOARD);
        assert!(f.days[&100].friends["slide"].contains_key("Mei"));
        f.add_mine(100, "slide", r(99, 1, true), 100);
        // 60 days later: a friend of that day is still kept (no clock decides), a new one
        // for day 100 is too old to be taken.
        f.add_friend(160, "slide", "Bo", r(1, 1, false), 160);
        assert!(f.days[&100].friends["slide"].contains_key("Mei"));
        f.add_friend(100, "slide", "Old", r(1, 1, false), 160);
        assert!(!f.days[&100].friends["slide"].contains_key("Old"));
        // Friends of more than FRIEND_DAYS days: the oldest days' go; own results stay.
        for day in 161..161 + FRIEND_DAYS as u32 {
            f.add_friend(day, "slide", "Bo", r(1, 1, false), day);
        }
        assert!(f.days[&100].friends.is_empty());
        assert_eq!(f.days[&100].mine["slide"].moves, 99);
        assert_eq!(
            f.days.values().filter(|b| !b.friends.is_empty()).count(),
            FRIEND_DAYS
        );
        // Own results: the newest KEEP_OWN_DAYS days.
        for day in 1000..1000 + KEEP_OWN_DAYS as u32 {
            f.add_mine(day, "slide", r(1, 1, true), 0);
        }
        assert!(!f.days.contains_key(&100));
        assert_eq!(
            f.days.values().filter(|b| !b.mine.is_empty()).count(),
            KEEP_OWN_DAYS
        );
    }
}
