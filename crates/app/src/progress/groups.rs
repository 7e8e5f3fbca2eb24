//! The saved group challenges: per group (its ID in 12 hex digits) the invite and a
//! grow-only set of result lines keyed by (player name key, log hash). Pure data and its
//! bounds; `crate::groups` fills and reads them. Everything is in sorted maps and merged
//! by rules that do not depend on the order codes arrive in; the only clock reading kept is
//! each line's first sight, written once.
//!
//! Bounds: at most [`MAX_GROUPS`] groups (the one with the earliest deadline goes first: the
//! oldest finished group), at most [`MAX_LINES`] lines a group (the worst-ranked other
//! player's line goes first).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Groups kept.
pub const MAX_GROUPS: usize = 200;
/// Lines kept per group.
pub const MAX_LINES: usize = 100;

/// One result on a group's board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct GroupLine {
    // Fields in key order: the progress file's checksum form.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub assisted: bool,
    /// Wall-clock ms when this device first saw the line (never changed afterwards).
    pub first_ms: u64,
    /// A board code's line disagreed with another source of the same line (its own result
    /// code or another board code).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub flagged: bool,
    pub moves: u32,
    pub ms: u64,
    /// The shown name (checked form); lines of one key keep the least name.
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<u64>,
    /// The line's log was replayed here (it came in its own result code).
    pub verified: bool,
    /// Known only from a board code shared by this player (the least sharer's name), until
    /// the line's own result code arrives.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub won: Option<bool>,
}

/// One group challenge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Group {
    /// Unix ms.
    pub deadline_ms: u64,
    /// The game ID to play.
    pub id: String,
    /// The invite's code.
    pub invite: String,
    /// Key: `<name key>|<log hash in 12 hex digits>`.
    pub lines: BTreeMap<String, GroupLine>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// Every group, and which group each game ID is played for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Groups {
    /// Key: the group ID in 12 hex digits.
    pub groups: BTreeMap<String, Group>,
    /// Game ID → the group the player opened it for (their result code names that group).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub playing: BTreeMap<String, String>,
}

impl Groups {
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty() && self.playing.is_empty()
    }

    /// Keeps the bounds; returns the groups dropped (their titles or IDs).
    pub fn bound(&mut self) -> Vec<String> {
        let mut dropped = Vec::new();
        while self.groups.len() > MAX_GROUPS {
            let oldest = self
                .groups
                .iter()
                .min_by(|a, b| (a.1.deadline_ms, a.0).cmp(&(b.1.deadline_ms, b.0)))
                .map(|(k, _)| k.clone());
            let Some(k) = oldest else { break };
            if let Some(g) = self.groups.remove(&k) {
                dropped.push(g.title.unwrap_or(k));
            }
        }
        let live = &self.groups;
        self.playing.retain(|_, g| live.contains_key(g));
        dropped
    }
}
