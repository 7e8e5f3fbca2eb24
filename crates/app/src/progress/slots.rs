//! The saved schema of game slots: how a slot's game was started, and what a slot key says.

use huarong_engine::Kind;
use serde::{Deserialize, Serialize};

/// Most slots kept.
pub const MAX_SLOTS: usize = 64;

/// Most slot challenges kept (two per slot).
pub const MAX_CHALLENGES: usize = 2 * MAX_SLOTS;

/// How a slot's game was started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Free,
    Level,
    Daily,
    Challenge,
}

/// The mode a slot key stands for (`None`: not a slot key).
pub fn mode_of_key(key: &str) -> Option<Mode> {
    let mut parts = key.split(':');
    let first = parts.next()?;
    let second = parts.next();
    if first == "challenge" {
        return second
            .filter(|h| h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit()))
            .map(|_| Mode::Challenge);
    }
    Kind::parse(first)?;
    match second? {
        "daily" => Some(Mode::Daily),
        "level" => Some(Mode::Level),
        _ => Some(Mode::Free),
    }
}

/// The result to beat in one slot, for the game `id`; a result code's sender
/// adds their name, the daily number, and whether the move log came with it (then it was
/// replayed: verified).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlotChallenge {
    // Fields in key order: the progress file's checksum form (`persist::encode`).
    /// The sender was helped (hints, undo): the code says so.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub assisted: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub daily: Option<u32>,
    /// The run a ghost plays beside the game (a friend's timed log, or the player's own best);
    /// absent in saves from before ghosts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ghost: Option<SlotGhost>,
    pub id: String,
    pub moves: u32,
    pub ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The result's outcome besides its moves (2048: score, won), when the code
    /// carried one or its log gave it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<huarong_engine::code::Outcome>,
    #[serde(default)]
    pub replay: bool,
    #[serde(default)]
    pub verified: bool,
}

/// What a slot keeps for its ghost: a timed move log and where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlotGhost {
    // Fields in key order: the progress file's checksum form (`persist::encode`).
    /// The game ID the log is packed against (`code::pack_log`).
    pub id: String,
    /// The moves, packed.
    pub log: String,
    /// `friend` (a result code's log and times) or `best` (the player's own kept replay).
    pub source: String,
    /// One time per move from the first (`code::pack_times`).
    pub times: String,
}
