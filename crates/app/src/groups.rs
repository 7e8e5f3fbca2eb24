//! Group challenges: an invite (a puzzle, a deadline, a title, a random group ID), result
//! codes that name the group, and a board built on this device from every code pasted
//! (`progress/groups.rs` keeps it). Commands: `group_new`, `group_open`, `group_paste`,
//! `group`, `group_code`, `groups`.
//!
//! The board is a grow-only set of lines keyed by (group, player name key, log hash); merging
//! the same codes in any order, with any repeats, gives the same stored state. Each player's
//! best line is ranked: on-time lines before late ones, verified (replayed here) before
//! claims, clean before assisted, then 2048's win and score, then fewer moves, less time.
//! A line is late when this device first saw it after the deadline; that first sight is
//! stored once, so no clock change moves a line.

use crate::core::AppState;
use crate::error::{AppError, AppResult};
use crate::progress::groups::{Group, GroupLine, Groups, MAX_LINES};
use crate::progress::Progress;
use crate::views::Notice;
use huarong_engine::code::{self, group as gc, Decoded};
use serde::Serialize;
use std::cmp::Reverse;

/// Longest text `group_paste` reads, in characters.
pub const MAX_PASTE_CHARS: usize = 20_000;
/// Most codes one paste decodes (each may replay a log or check a board): the rest are
/// counted in `skipped`.
pub const MAX_PASTE_CODES: usize = 250;
/// Shortest and longest time from now to a new group's deadline.
pub const MIN_AHEAD_MS: u64 = 3_600_000;
pub const MAX_AHEAD_MS: u64 = 14 * 86_400_000;

/// A group ID as the commands and the progress file write it: 12 hex digits.
pub fn group_key(g: u64) -> String {
    format!("{g:012x}")
}

fn parse_group(s: &str) -> AppResult<String> {
    let ok = s.len() == 12
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    if !ok {
        return Err(AppError::bad_argument(format!(
            "`group` is 12 lowercase hex digits, not {s:?}"
        )));
    }
    Ok(s.to_string())
}

/// What `group_new` answers.
#[derive(Debug, Clone, Serialize)]
pub struct NewGroup {
    pub group: String,
    pub code: String,
    pub link: String,
    /// The game ID to play.
    pub id: String,
    pub deadline_ms: u64,
    pub title: Option<String>,
}

/// One row of a group's standings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupRow {
    /// 1-based.
    pub place: usize,
    pub name: String,
    pub moves: u32,
    pub ms: u64,
    pub score: Option<u64>,
    pub won: Option<bool>,
    pub verified: bool,
    pub assisted: bool,
    pub late: bool,
    /// Known only from a board code shared by this player.
    pub via: Option<String>,
    /// Two sources of this line disagree.
    pub flagged: bool,
    /// The player's own line (their name in the settings).
    pub me: bool,
    /// Lines this player has on the board (their best is shown).
    pub lines: usize,
}

/// What `group` answers (and `group_paste`'s `board`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupView {
    pub group: String,
    pub title: Option<String>,
    /// The game ID to play.
    pub id: String,
    pub invite: String,
    pub link: String,
    pub deadline_ms: u64,
    /// Milliseconds to the deadline by this device's clock (0 once past).
    pub left_ms: u64,
    pub rows: Vec<GroupRow>,
    /// The player's own place (1-based), when they are on the board.
    pub place: Option<usize>,
    pub players: usize,
}

/// What `group_paste` answers.
#[derive(Debug, Clone, Serialize, Default)]
pub struct PasteReport {
    /// Lines new to the board (or a board code's line now verified by its own code).
    pub added: usize,
    /// Lines already here (repeats included).
    pub duplicates: usize,
    /// Codes whose checksum holds but whose content does not (a log that does not replay,
    /// a result for another puzzle than its group's).
    pub invalid: usize,
    /// Lines added now that are late.
    pub late: usize,
    /// Results of a group this device has no invite of (paste the invite too).
    pub unknown: usize,
    /// Groups new to this device.
    pub groups: usize,
    /// Codes past the most one paste decodes (`MAX_PASTE_CODES`): paste them again.
    pub skipped: usize,
    /// The board the paste added most to (else the first group it named).
    pub board: Option<GroupView>,
}

/// What `group_code` answers.
#[derive(Debug, Clone, Serialize)]
pub struct GroupCode {
    pub group: String,
    pub code: String,
    pub link: String,
    /// Lines the code carries.
    pub lines: usize,
}

/// The parts of a text that may be codes: runs of code characters starting with a version
/// character, links included (their `c=` value is such a run).
fn candidates(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .filter(|t| t.len() >= 8 && t.len() <= code::MAX_CODE_LEN)
        .filter(|t| t.starts_with(code::VERSION) || t.starts_with(code::VERSION_1))
}

/// A line of a result code.
fn line_of(d: &Decoded, now_ms: u64) -> Option<(String, GroupLine)> {
    let sent = d.sent.as_ref()?;
    let c = d.challenge?;
    let name = sent.name.clone().unwrap_or_default();
    let key = format!("{}|{}", code::name_key(&name), group_key(gc::log_hash(d)));
    Some((
        key,
        GroupLine {
            assisted: sent.assisted,
            first_ms: now_ms,
            flagged: false,
            moves: c.moves,
            ms: c.ms,
            name,
            score: sent.outcome.map(|o| o.score),
            verified: d.verified(),
            via: None,
            won: sent.outcome.map(|o| o.won),
        },
    ))
}

/// What two sources of one line are compared by (times in a board code's 10 ms steps).
fn claim(l: &GroupLine) -> (u32, u64, Option<u64>, Option<bool>, bool) {
    (
        l.moves,
        (l.ms + code::TIME_STEP_MS / 2) / code::TIME_STEP_MS,
        l.score,
        l.won,
        l.assisted,
    )
}

/// Merges one line into a group; `true` when the board learned something (a new line, or a
/// board code's line now from its own code).
fn merge(g: &mut Group, key: String, new: GroupLine) -> bool {
    let Some(e) = g.lines.get_mut(&key) else {
        g.lines.insert(key, new);
        return true;
    };
    if new.name < e.name {
        e.name = new.name.clone();
    }
    match (e.via.clone(), new.via.clone()) {
        // Its own result code after a board code's line: the code's facts, flagged if they differ.
        (Some(_), None) => {
            let flagged = e.flagged || claim(e) != claim(&new);
            let (first, name) = (e.first_ms, e.name.clone());
            *e = GroupLine {
                first_ms: first,
                flagged,
                name,
                ..new
            };
            true
        }
        (None, Some(_)) => {
            e.flagged |= claim(e) != claim(&new);
            false
        }
        (Some(a), Some(b)) => {
            if claim(e) != claim(&new) {
                e.flagged = true;
                if claim(&new) < claim(e) {
                    let (first, name, via) = (e.first_ms, e.name.clone(), e.via.clone());
                    *e = GroupLine {
                        first_ms: first,
                        name,
                        via,
                        flagged: true,
                        ..new.clone()
                    };
                }
            }
            if b < a {
                e.via = Some(b);
            }
            false
        }
        // One player's same moves sent twice with other times: the better claim stays.
        (None, None) => {
            if claim(&new) < claim(e) {
                let (first, name, flagged) = (e.first_ms, e.name.clone(), e.flagged);
                *e = GroupLine {
                    first_ms: first,
                    name,
                    flagged,
                    ..new
                };
            }
            false
        }
    }
}

/// Where a line stands, lowest first.
type Rank = (bool, bool, bool, bool, Reverse<u64>, u32, u64);

fn rank(l: &GroupLine, deadline_ms: u64) -> Rank {
    (
        l.first_ms > deadline_ms,
        !l.verified,
        l.assisted,
        !l.won.unwrap_or(false),
        Reverse(l.score.unwrap_or(0)),
        l.moves,
        l.ms,
    )
}

/// One player's place on a board: (name key, their best line's key, the line, their lines).
type Standing<'a> = (&'a str, &'a str, &'a GroupLine, usize);

/// Each player's best line, ranked.
fn standings(g: &Group) -> Vec<Standing<'_>> {
    let d = g.deadline_ms;
    let mut best: std::collections::BTreeMap<&str, (&str, &GroupLine, usize)> = Default::default();
    for (k, l) in &g.lines {
        let player = k.rsplit_once('|').map_or(k.as_str(), |(p, _)| p);
        let e = best.entry(player).or_insert((k, l, 0));
        e.2 += 1;
        if (rank(l, d), k.as_str()) < (rank(e.1, d), e.0) {
            e.0 = k;
            e.1 = l;
        }
    }
    let mut out: Vec<Standing<'_>> = best
        .into_iter()
        .map(|(p, (k, l, n))| (p, k, l, n))
        .collect();
    out.sort_by(|a, b| (rank(a.2, d), a.0).cmp(&(rank(b.2, d), b.0)));
    out
}

/// Keeps a group within [`MAX_LINES`]: the worst other player's worst line goes.
fn bound_lines(g: &mut Group, me: &str) {
    while g.lines.len() > MAX_LINES {
        let d = g.deadline_ms;
        let worst = g
            .lines
            .iter()
            .filter(|(k, _)| !k.starts_with(&format!("{me}|")) || me.is_empty())
            .max_by(|a, b| (rank(a.1, d), a.0).cmp(&(rank(b.1, d), b.0)))
            .map(|(k, _)| k.clone());
        match worst {
            Some(k) => {
                g.lines.remove(&k);
            }
            None => break,
        }
    }
}

fn view(key: &str, g: &Group, me: &str, now_ms: u64) -> GroupView {
    let rows: Vec<GroupRow> = standings(g)
        .into_iter()
        .enumerate()
        .map(|(i, (player, _, l, n))| GroupRow {
            place: i + 1,
            name: l.name.clone(),
            moves: l.moves,
            ms: l.ms,
            score: l.score,
            won: l.won,
            verified: l.verified,
            assisted: l.assisted,
            late: l.first_ms > g.deadline_ms,
            via: l.via.clone(),
            flagged: l.flagged,
            me: !me.is_empty() && player == me,
            lines: n,
        })
        .collect();
    GroupView {
        group: key.to_string(),
        title: g.title.clone(),
        id: g.id.clone(),
        link: code::link(&g.invite),
        invite: g.invite.clone(),
        deadline_ms: g.deadline_ms,
        left_ms: g.deadline_ms.saturating_sub(now_ms),
        place: rows.iter().find(|r| r.me).map(|r| r.place),
        players: rows.len(),
        rows,
    }
}

/// Adds an invite's group (a new one, or the same invite again); `true` when new. Two
/// invites of one ID keep the least code's facts (an ID made twice is no real case).
fn add_invite(gs: &mut Groups, inv: &gc::Invite) -> bool {
    let key = group_key(inv.group);
    let fresh = !gs.groups.contains_key(&key);
    let g = gs.groups.entry(key).or_default();
    if fresh || inv.code < g.invite {
        g.deadline_ms = inv.deadline_ms;
        g.id = inv.id.clone();
        g.invite = inv.code.clone();
        g.title = inv.title.clone();
    }
    fresh
}

/// The group codes and group results a text holds, decoded and checked.
#[derive(Default)]
pub(crate) struct Found {
    invites: Vec<gc::Invite>,
    boards: Vec<gc::Board>,
    results: Vec<(u64, Decoded)>,
    invalid: usize,
    skipped: usize,
}

/// Finds every group code and group result in `text` (any other code is passed over
/// undecoded; a group code or result whose checksum holds and whose content does not — a log
/// that does not replay — is counted invalid).
pub(crate) fn read(text: &str) -> Found {
    let mut f = Found::default();
    let mut decoded = 0usize;
    for t in candidates(text) {
        // Only group codes and results naming a group are decoded, and at most so many.
        let group = gc::group_of(t);
        let is_group = gc::is_group_code(t);
        if group.is_none() && !is_group {
            continue;
        }
        if decoded >= MAX_PASTE_CODES {
            f.skipped += 1;
            continue;
        }
        decoded += 1;
        if is_group {
            match gc::decode_group(t) {
                Ok(gc::GroupCode::Invite(i)) => f.invites.push(i),
                Ok(gc::GroupCode::Board(b)) => f.boards.push(b),
                Err(_) => f.invalid += 1,
            }
            continue;
        }
        match code::decode_full(t) {
            Ok(d) => match d.sent.as_ref().and_then(|s| s.group) {
                Some(g) => f.results.push((g, d)),
                None => f.invalid += 1,
            },
            Err(_) => f.invalid += 1,
        }
    }
    f
}

/// Merges what a paste found into the stored groups (pure: `now_ms` is the first-sight time
/// of every line it adds). Returns the report without its board, and the group it touched
/// most.
pub(crate) fn merge_found(
    gs: &mut Groups,
    found: Found,
    now_ms: u64,
    me: &str,
) -> (PasteReport, Option<String>) {
    let Found {
        invites,
        boards,
        results,
        invalid,
        skipped,
    } = found;
    let mut rep = PasteReport {
        invalid,
        skipped,
        ..PasteReport::default()
    };
    // Groups first, so a paste's order never matters.
    let mut touched: std::collections::BTreeMap<String, usize> = Default::default();
    for inv in invites.iter().chain(boards.iter().map(|b| &b.invite)) {
        if add_invite(gs, inv) {
            rep.groups += 1;
        }
        touched.entry(group_key(inv.group)).or_default();
    }
    let count = |rep: &mut PasteReport, g: &Group, key: &str, learned: bool| {
        if learned {
            rep.added += 1;
            if g.lines.get(key).is_some_and(|l| l.first_ms > g.deadline_ms) {
                rep.late += 1;
            }
        } else {
            rep.duplicates += 1;
        }
    };
    for (gid, d) in results {
        let key = group_key(gid);
        let Some(g) = gs.groups.get_mut(&key) else {
            rep.unknown += 1;
            continue;
        };
        let Some((lk, line)) = line_of(&d, now_ms).filter(|_| d.id == g.id) else {
            rep.invalid += 1;
            continue;
        };
        let learned = merge(g, lk.clone(), line);
        count(&mut rep, g, &lk, learned);
        *touched.entry(key).or_default() += 1;
    }
    for b in boards {
        let key = group_key(b.invite.group);
        let Some(g) = gs.groups.get_mut(&key) else {
            continue;
        };
        if b.invite.id != g.id {
            rep.invalid += 1;
            continue;
        }
        let sharer = b.sharer.clone().unwrap_or_default();
        for l in &b.lines {
            let lk = format!("{}|{}", code::name_key(&l.name), group_key(l.log_hash));
            let line = GroupLine {
                assisted: l.assisted,
                first_ms: now_ms,
                flagged: false,
                moves: l.moves,
                ms: l.ms,
                name: l.name.clone(),
                score: l.outcome.map(|o| o.score),
                verified: false,
                via: Some(sharer.clone()),
                won: l.outcome.map(|o| o.won),
            };
            let learned = merge(g, lk.clone(), line);
            count(&mut rep, g, &lk, learned);
            *touched.entry(key.clone()).or_default() += 1;
        }
    }
    for k in touched.keys() {
        if let Some(g) = gs.groups.get_mut(k) {
            bound_lines(g, me);
        }
    }
    let most = touched
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
        .map(|(k, _)| k.clone());
    (rep, most)
}

impl AppState {
    fn me(&self) -> String {
        code::name_key(&self.store().progress.settings.name)
    }

    /// Commits `f` to the progress and tells the player of groups the bound dropped.
    fn commit_groups<T>(&self, f: impl FnOnce(&mut Progress) -> T) -> T {
        let mut out = None;
        let mut dropped = Vec::new();
        self.commit(|p| {
            out = Some(f(p));
            dropped = p.groups.bound();
        });
        if !dropped.is_empty() {
            let mut st = self.store();
            st.notices.retain(|n| n.code != "groups_dropped");
            st.notices.push(Notice::info(
                "groups_dropped",
                format!(
                    "{} finished group challenge(s) were removed to keep at most {}: {}",
                    dropped.len(),
                    crate::progress::groups::MAX_GROUPS,
                    dropped.join(", ")
                ),
            ));
        }
        match out {
            Some(v) => v,
            None => unreachable!("commit runs its change"),
        }
    }

    /// `group_new {id, title?, deadline_ms}`.
    pub fn group_new(
        &self,
        id: &str,
        title: Option<&str>,
        deadline_ms: u64,
    ) -> AppResult<NewGroup> {
        let now = self.wall_ms();
        if deadline_ms < now.saturating_add(MIN_AHEAD_MS)
            || deadline_ms > now.saturating_add(MAX_AHEAD_MS)
        {
            return Err(AppError::bad_argument(
                "`deadline_ms` must be 1 hour to 14 days from now",
            ));
        }
        let game = code::resolve(id)?;
        let group = ((self.platform().seed)() & gc::MAX_GROUP).max(1);
        let inv = gc::encode_invite(&game, code::Extra::default(), group, deadline_ms, title)
            .map_err(|e| AppError::bad_argument(e.message))?;
        let key = group_key(group);
        self.commit_groups(|p| {
            add_invite(&mut p.groups, &inv);
            p.groups.playing.insert(inv.id.clone(), key.clone());
        });
        Ok(NewGroup {
            group: key,
            link: code::link(&inv.code),
            code: inv.code,
            id: inv.id,
            deadline_ms: inv.deadline_ms,
            title: inv.title,
        })
    }

    /// `group_open {code}`: an invite or board code (or link) is kept, its puzzle is what the
    /// player's next result code for that game names; answers the group's view.
    pub fn group_open(&self, text: &str) -> AppResult<GroupView> {
        let now = self.wall_ms();
        let me = self.me();
        let (inv, board_text) = match gc::decode_group(text.trim())? {
            gc::GroupCode::Invite(i) => (i, None),
            gc::GroupCode::Board(b) => (b.invite.clone(), Some(text.trim().to_string())),
        };
        let found = board_text.as_deref().map(read);
        let key = group_key(inv.group);
        self.commit_groups(|p| {
            add_invite(&mut p.groups, &inv);
            if let Some(f) = found {
                merge_found(&mut p.groups, f, now, &me);
            }
            p.groups.playing.insert(inv.id.clone(), key.clone());
        });
        self.group(&key)
    }

    /// `group_paste {text}`.
    pub fn group_paste(&self, text: &str) -> AppResult<PasteReport> {
        let n = text.chars().count();
        if n > MAX_PASTE_CHARS {
            return Err(AppError::bad_argument(format!(
                "`text` is {n} characters; at most {MAX_PASTE_CHARS} are read"
            )));
        }
        let now = self.wall_ms();
        let me = self.me();
        // Decoding (replays) happens outside the store's lock; the merge is one commit.
        let found = read(text);
        let (mut rep, most) = self.commit_groups(|p| merge_found(&mut p.groups, found, now, &me));
        if let Some(k) = most {
            rep.board = self.group(&k).ok();
        }
        Ok(rep)
    }

    /// The stored groups as the progress file writes them (for tests and the CLI).
    pub fn groups_saved(&self) -> AppResult<String> {
        serde_json::to_string(&self.store().progress.groups)
            .map_err(|e| AppError::internal(format!("the groups do not encode: {e}")))
    }

    /// `group {group}`.
    pub fn group(&self, group: &str) -> AppResult<GroupView> {
        let key = parse_group(group)?;
        let me = self.me();
        let now = self.wall_ms();
        let st = self.store();
        let g = st.progress.groups.groups.get(&key).ok_or_else(|| {
            AppError::bad_argument(format!("no group challenge {key} on this device"))
        })?;
        Ok(view(&key, g, &me, now))
    }

    /// `groups`: every group kept, the latest deadline first.
    pub fn groups(&self) -> Vec<GroupView> {
        let me = self.me();
        let now = self.wall_ms();
        let st = self.store();
        let mut out: Vec<GroupView> = st
            .progress
            .groups
            .groups
            .iter()
            .map(|(k, g)| view(k, g, &me, now))
            .collect();
        out.sort_by(|a, b| {
            (Reverse(a.deadline_ms), &a.group).cmp(&(Reverse(b.deadline_ms), &b.group))
        });
        out
    }

    /// `group_code {group}`: the board code (the invite and the best lines, at most 20).
    pub fn group_code(&self, group: &str) -> AppResult<GroupCode> {
        let key = parse_group(group)?;
        let (inv, lines, sharer) = {
            let st = self.store();
            let g = st.progress.groups.groups.get(&key).ok_or_else(|| {
                AppError::bad_argument(format!("no group challenge {key} on this device"))
            })?;
            let inv = match gc::decode_group(&g.invite)? {
                gc::GroupCode::Invite(i) => i,
                gc::GroupCode::Board(b) => b.invite,
            };
            let lines: Vec<gc::Line> = standings(g)
                .into_iter()
                .take(gc::MAX_BOARD_LINES)
                .map(|(_, k, l, _)| gc::Line {
                    name: l.name.clone(),
                    moves: l.moves,
                    ms: l.ms,
                    verified: l.verified,
                    assisted: l.assisted,
                    outcome: l.score.map(|score| code::Outcome {
                        score,
                        won: l.won.unwrap_or(false),
                    }),
                    log_hash: k
                        .rsplit_once('|')
                        .and_then(|(_, h)| u64::from_str_radix(h, 16).ok())
                        .unwrap_or(1),
                })
                .collect();
            let name = st.progress.settings.name.clone();
            (inv, lines, (!name.is_empty()).then_some(name))
        };
        let (c, n) = gc::encode_board(&inv, sharer.as_deref(), &lines)?;
        Ok(GroupCode {
            group: key,
            link: code::link(&c),
            code: c,
            lines: n,
        })
    }

    /// A result code opened with `open_game`: when it names a group kept here, its line joins
    /// that board (anything else is left alone).
    pub(crate) fn group_seen(&self, text: &str) {
        let Ok(d) = code::decode_full(text.trim()) else {
            return;
        };
        let Some(g) = d.sent.as_ref().and_then(|s| s.group) else {
            return;
        };
        if !self
            .store()
            .progress
            .groups
            .groups
            .contains_key(&group_key(g))
        {
            return;
        }
        let now = self.wall_ms();
        let me = self.me();
        let found = Found {
            results: vec![(g, d)],
            ..Found::default()
        };
        self.commit_groups(|p| merge_found(&mut p.groups, found, now, &me));
    }

    /// A finished game's result code for the group its game was opened for: the code names
    /// the group, and the player's own line joins the board. Any other code is unchanged.
    pub(crate) fn group_result(&self, id: &str, c: String) -> String {
        let Some(key) = self.store().progress.groups.playing.get(id).cloned() else {
            return c;
        };
        let Ok(g) = u64::from_str_radix(&key, 16) else {
            return c;
        };
        match gc::with_group(&c, g) {
            Ok(named) => {
                let now = self.wall_ms();
                let me = self.me();
                let found = read(&named);
                self.commit_groups(|p| merge_found(&mut p.groups, found, now, &me));
                named
            }
            Err(_) => c,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(moves: u32, ms: u64, verified: bool, score: Option<u64>, first_ms: u64) -> GroupLine {
        GroupLine {
            moves,
            ms,
            verified,
            score,
            won: score.map(|_| false),
            first_ms,
            name: String::new(),
            ..GroupLine::default()
        }
    }

    fn board(lines: &[(&str, GroupLine)]) -> Group {
        Group {
            deadline_ms: 1_000,
            lines: lines
                .iter()
                .enumerate()
                .map(|(i, (p, l))| (format!("{p}|{i:012x}"), l.clone()))
                .collect(),
            ..Group::default()
        }
    }

    fn order(g: &Group) -> Vec<&str> {
        standings(g).into_iter().map(|s| s.0).collect()
    }

    #[test]
    fn ranks_verified_before_claims_on_time_before_late_and_2048_by_score() {
        let g = board(&[
            ("claim", line(3, 1, false, None, 0)),
            ("slow", line(9, 9_000, true, None, 0)),
            ("late", line(2, 1, true, None, 2_000)),
            ("fast", line(9, 1_000, true, None, 0)),
        ]);
        assert_eq!(order(&g), ["fast", "slow", "claim", "late"]);
        // 2048: the higher score first, whatever the moves.
        let g = board(&[
            ("a", line(100, 1, true, Some(900), 0)),
            ("b", line(400, 1, true, Some(5_000), 0)),
        ]);
        assert_eq!(order(&g), ["b", "a"]);
        // A player's best line stands for them.
        let g = board(&[
            ("a", line(20, 1, true, None, 0)),
            ("a", line(10, 1, true, None, 0)),
        ]);
        assert_eq!(standings(&g)[0].2.moves, 10);
        assert_eq!(standings(&g)[0].3, 2);
    }

    #[test]
    fn board_lines_merge_the_same_in_either_order() {
        let via = |s: &str, moves| GroupLine {
            via: Some(s.into()),
            ..line(moves, 5_000, false, None, 7)
        };
        let own = line(8, 5_000, true, None, 7);
        let sources = [via("Bo", 8), via("Al", 9), own];
        let mut seen = Vec::new();
        for perm in [
            [0, 1, 2],
            [2, 1, 0],
            [1, 2, 0],
            [0, 2, 1],
            [1, 0, 2],
            [2, 0, 1],
        ] {
            let mut g = Group::default();
            for i in perm {
                merge(&mut g, "k|1".into(), sources[i].clone());
            }
            seen.push(g);
        }
        assert!(seen.iter().all(|g| g == &seen[0]), "{seen:?}");
        let l = &seen[0].lines["k|1"];
        assert!(l.verified && l.flagged && l.via.is_none() && l.moves == 8);
    }
}
