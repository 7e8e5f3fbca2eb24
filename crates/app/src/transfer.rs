//! Progress that moves to another device, and the history out.
//!
//! `export_progress {}` writes one file, `huarong-progress-<date>.json`:
//! `{"format":"huarong-progress","version":1,"date":"<YYYY-MM-DD>","checksum":"<16 hex>","body":{…}}`,
//! compact, in that key order. The checksum is FNV-1a 64 over the whole text with its own 16
//! digits written as zeros (trailing white space left out): any one byte changed anywhere is
//! caught. The body holds the settings, the records and the statistics with their history,
//! the kept move logs, the streaks, the unlocked levels, the friends' boards (with the
//! player's own daily results: the days a streak is derived from), every slot's saved game
//! (its journal header and `SavedSession`), the slots' challenges, and the custom picture by
//! reference (its name, size and FNV-1a 64; the bytes stay on the device).
//!
//! `import_progress {data}` checks the whole file before it changes anything (another app's
//! JSON: `parse`; damaged or cut short: `corrupt_save`; a newer version: `unsupported_version`)
//! and then merges: nothing is replaced and nothing of either side is lost.
//! - A record keeps the better of each best; statistics join their histories without
//!   duplicates (a row is the same finish when every field is equal), and plays and wins
//!   count the rows both sides had once.
//! - The player's own daily results are joined, so the streak is derived from the union of
//!   the days solved; a streak's best keeps the longer. Unlocked levels: the larger count.
//! - A saved game already on this device (same game ID and move log, or a log this device's
//!   game goes on from) is skipped; the same game played further in the file takes its slot.
//!   A game in a slot that holds another game: the one played last keeps the slot, the other
//!   goes to a slot of its own (`challenge:<16 hex>`, from its game ID and log), never to a
//!   key the journal holds for a game it could not restore. Games with moves are never
//!   dropped for room (`would_replace` first, nothing changed).
//! - The friends' boards: the union, each friend's best kept.
//! - A setting is taken from the file only where this device still has the default.
//!
//! Importing the same file again changes nothing (and writes nothing).
//!
//! `export_history {format: "csv"}`: one row per finish of every history, oldest first.

use crate::core::{lock, AppState};
use crate::error::{AppError, AppResult, Code};
use crate::games::{with_game, AppGame, SlotRef};
use crate::journal::SlotData;
use crate::progress::{
    keeps_long, scope_kind, FinishEntry, Friends, Progress, Recent, Record, Replays, ScopeStats,
    Settings, SlotChallenge, Streak, LONG_RECENT, MAX_HISTORY, RECENT,
};
use crate::records::{average_ms, long_average_ms};
use huarong_engine::{ErrorCode, Kind, Status};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// The `format` of a progress file.
pub const FORMAT: &str = "huarong-progress";
/// The version this build writes and reads (a higher one is refused).
pub const VERSION: u32 = 1;
/// Largest progress file read (the progress and 64 games' move logs fit well within).
pub const MAX_TRANSFER: usize = 64 << 20;
/// The checksum's place-holder while the sum is made and checked.
const ZEROS: &str = "0000000000000000";
const SUM_KEY: &str = "\"checksum\":\"";

/// `export_progress` and `export_history`: the file's name and its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Exported {
    pub file_name: String,
    pub data: String,
}

/// `import_progress`: how many of each changed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Imported {
    /// Record scopes whose records or statistics changed.
    pub records: u32,
    /// Saved games added to a slot.
    pub games: u32,
    /// Daily streaks that changed.
    pub streaks: u32,
    /// Friends' board entries added or improved.
    pub friends: u32,
    /// Games whose unlocked levels grew.
    pub unlocked: u32,
    /// Settings taken from the file (where this device had the default).
    pub settings: u32,
}

/// One slot's game in the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameOut {
    pub key: String,
    pub header: Value,
    pub saved: Value,
}

/// A picture by reference.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct PictureRef {
    pub name: String,
    pub bytes: u64,
    pub fnv: String,
}

/// What the file holds.
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Body {
    pub challenges: BTreeMap<String, SlotChallenge>,
    pub friends: Friends,
    pub games: Vec<GameOut>,
    pub pictures: Vec<PictureRef>,
    pub records: BTreeMap<String, Record>,
    pub replays: Replays,
    pub settings: Value,
    pub stats: BTreeMap<String, ScopeStats>,
    pub streaks: BTreeMap<String, Streak>,
    pub unlocked: BTreeMap<String, u32>,
}

fn fnv(bytes: &[u8]) -> String {
    format!("{:016x}", huarong_engine::rng::fnv1a64(bytes))
}

/// The file's text for `body`, dated `date`.
pub fn encode(body: &Body, date: &str) -> AppResult<String> {
    let inner = serde_json::to_string(body)
        .map_err(|e| AppError::internal(format!("the progress does not encode: {e}")))?;
    let date: String = date
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == '-')
        .collect();
    let mut text = format!(
        "{{\"format\":\"{FORMAT}\",\"version\":{VERSION},\"date\":\"{date}\",{SUM_KEY}{ZEROS}\",\"body\":{inner}}}"
    );
    let sum = fnv(text.as_bytes());
    let at = text.find(SUM_KEY).map_or(0, |i| i + SUM_KEY.len());
    text.replace_range(at..at + ZEROS.len(), &sum);
    Ok(text)
}

fn corrupt(why: impl std::fmt::Display) -> AppError {
    AppError::new(
        ErrorCode::CorruptSave,
        format!("the progress file is damaged or cut short ({why}); nothing was changed"),
    )
}

fn not_ours(why: &str) -> AppError {
    AppError::new(
        ErrorCode::Parse,
        format!("this is not a Huarong progress file ({why}); nothing was changed"),
    )
}

/// Check a file's text and read its body (nothing is changed here).
pub fn decode(text: &str) -> AppResult<Body> {
    if text.len() > MAX_TRANSFER {
        return Err(not_ours("larger than any progress file"));
    }
    // A byte-order mark an editor added, and white space after the file, are no part of it.
    let text = text.trim_start_matches('\u{feff}').trim_end();
    let head = format!("{{\"format\":\"{FORMAT}\"");
    let ours = text.starts_with(&head);
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) if ours => return Err(corrupt(e)),
        Err(_) => return Err(not_ours("not JSON")),
    };
    if value.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(not_ours("it has no \"format\": \"huarong-progress\""));
    }
    let version = value
        .get("version")
        .and_then(Value::as_u64)
        .ok_or_else(|| corrupt("no version number"))?;
    if version > u64::from(VERSION) {
        return Err(AppError::new(
            Code::UnsupportedVersion,
            format!(
                "the progress file was made by a newer version of Huarong (file version {version}; this one reads up to {VERSION}): update the app first; nothing was changed"
            ),
        ));
    }
    let at = text
        .find(SUM_KEY)
        .map(|i| i + SUM_KEY.len())
        .filter(|&i| text.len() >= i + ZEROS.len() && text.is_char_boundary(i + ZEROS.len()))
        .ok_or_else(|| corrupt("no checksum"))?;
    let want = &text[at..at + ZEROS.len()];
    let mut zeroed = text.as_bytes().to_vec();
    zeroed[at..at + ZEROS.len()].copy_from_slice(ZEROS.as_bytes());
    let got = fnv(&zeroed);
    if got != want {
        return Err(corrupt(format!(
            "checksum mismatch: stored {want}, computed {got}"
        )));
    }
    let body = value.get("body").cloned().unwrap_or(Value::Null);
    serde_json::from_value(body).map_err(|e| corrupt(format!("the body does not read: {e}")))
}

// ---------------------------------------------------------------------------------------
// The merge of everything but the games (pure).
// ---------------------------------------------------------------------------------------

fn min_opt<T: Ord + Copy>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

fn max_opt<T: Ord + Copy>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// The better of two records of one `<scope>/<rule>`.
fn merge_record(a: &Record, b: &Record) -> Record {
    let mut m = a.clone();
    if b.best_moves.is_some() && min_opt(a.best_moves, b.best_moves) != a.best_moves {
        m.best_moves = b.best_moves;
        m.undo_used = b.undo_used;
        m.hints_used = b.hints_used;
    }
    if b.best_time_ms.is_some() && min_opt(a.best_time_ms, b.best_time_ms) != a.best_time_ms {
        m.best_time_ms = b.best_time_ms;
        m.best_splits = b.best_splits.clone();
    }
    m.best_score = max_opt(a.best_score, b.best_score);
    m.best_tile = max_opt(a.best_tile, b.best_tile);
    m.optimal = min_opt(a.optimal, b.optimal);
    m.stars = a.stars.max(b.stars);
    m.wins = a.wins.max(b.wins);
    if b.date > a.date {
        m.date = b.date.clone();
    }
    if m.rule.is_empty() {
        m.rule = b.rule.clone();
    }
    m
}

fn row_key(e: &FinishEntry) -> String {
    serde_json::to_string(e).unwrap_or_default()
}

fn counted_win(e: &FinishEntry) -> bool {
    e.won && !e.auto_solved
}

/// Two statistics of one scope joined: the bests of both, the histories without duplicates.
fn merge_scope(a: &ScopeStats, b: &ScopeStats, long: bool) -> ScopeStats {
    let mut m = a.clone();
    for (rule, &mv) in &b.best_moves {
        let e = m.best_moves.entry(rule.clone()).or_insert(mv);
        *e = (*e).min(mv);
    }
    m.best_ms = min_opt(a.best_ms, b.best_ms);
    m.best_ao5_ms = min_opt(a.best_ao5_ms, b.best_ao5_ms);
    m.best_ao12_ms = min_opt(a.best_ao12_ms, b.best_ao12_ms);
    m.best_ao50_ms = min_opt(a.best_ao50_ms, b.best_ao50_ms);
    m.best_ao100_ms = min_opt(a.best_ao100_ms, b.best_ao100_ms);
    m.best_tps_c = max_opt(a.best_tps_c, b.best_tps_c);
    m.last_ms = a.last_ms.max(b.last_ms);
    let known: HashSet<String> = a.history.iter().map(row_key).collect();
    // Rows older than this side's oldest kept row, when older rows were trimmed, may be
    // ones it already had: they are not taken again.
    let floor = (a.trimmed > 0)
        .then(|| a.history.front().map(|e| e.at_ms))
        .flatten();
    let unknown: Vec<&FinishEntry> = b
        .history
        .iter()
        .filter(|e| !known.contains(&row_key(e)))
        .collect();
    let fresh: Vec<&FinishEntry> = unknown
        .iter()
        .copied()
        .filter(|e| floor.is_none_or(|f| e.at_ms >= f))
        .collect();
    if fresh.is_empty() {
        m.plays = a.plays.max(b.plays);
        m.wins = a.wins.max(b.wins);
        return m;
    }
    // Both sides counted the rows they share: those count once.
    let common = (b.history.len() - unknown.len()) as u32;
    let common_wins = b
        .history
        .iter()
        .filter(|e| counted_win(e) && known.contains(&row_key(e)))
        .count() as u32;
    m.plays = a
        .plays
        .max(b.plays)
        .max(a.plays.saturating_add(b.plays).saturating_sub(common));
    m.wins = a
        .wins
        .max(b.wins)
        .max(a.wins.saturating_add(b.wins).saturating_sub(common_wins));
    let mut rows: Vec<FinishEntry> = a.history.iter().cloned().collect();
    rows.extend(fresh.into_iter().cloned());
    rows.sort_by_key(|e| e.at_ms);
    let cut = rows.len().saturating_sub(MAX_HISTORY);
    m.history = rows.split_off(cut).into();
    m.trimmed = a.trimmed.max(b.trimmed) + cut as u64;
    // The last clean wins again, from the joined history where it holds enough of them.
    let clean: Vec<&FinishEntry> = m.history.iter().filter(|e| e.clean()).collect();
    let newer = if b.last_ms > a.last_ms { b } else { a };
    let recent: Vec<Recent> = clean
        .iter()
        .skip(clean.len().saturating_sub(RECENT))
        .map(|e| Recent(e.ms, e.moves.clone()))
        .collect();
    if recent.len() >= a.recent.len().max(b.recent.len()) {
        m.recent = recent.into();
    } else {
        m.recent = newer.recent.clone();
    }
    m.best_ao5_ms = min_opt(m.best_ao5_ms, average_ms(&m.recent, 5));
    m.best_ao12_ms = min_opt(m.best_ao12_ms, average_ms(&m.recent, 12));
    if long {
        let times: Vec<u64> = clean
            .iter()
            .skip(clean.len().saturating_sub(LONG_RECENT))
            .map(|e| e.ms)
            .collect();
        if times.len() >= a.times.len().max(b.times.len()) {
            m.times = times.into();
        } else {
            m.times = newer.times.clone();
        }
        m.best_ao50_ms = min_opt(m.best_ao50_ms, long_average_ms(&m.times, 50));
        m.best_ao100_ms = min_opt(m.best_ao100_ms, long_average_ms(&m.times, 100));
    }
    m
}

/// Settings: a field of the file is taken where this device still has the default (one
/// level into maps: each game's counting rule on its own).
fn merge_settings(local: &mut Settings, incoming: &Value) -> u32 {
    let (Ok(Value::Object(mut mine)), Ok(Value::Object(default))) = (
        serde_json::to_value(&*local),
        serde_json::to_value(Settings::default()),
    ) else {
        return 0;
    };
    let Some(theirs) = incoming.as_object() else {
        return 0;
    };
    let mut n = 0;
    for (k, v) in theirs {
        let d = default.get(k);
        match (mine.get_mut(k), d, v) {
            (Some(Value::Object(m)), Some(Value::Object(d)), Value::Object(t)) => {
                for (k2, v2) in t {
                    if m.get(k2) == d.get(k2) && d.get(k2) != Some(v2) && m.contains_key(k2) {
                        m.insert(k2.clone(), v2.clone());
                        n += 1;
                    }
                }
            }
            (Some(m), Some(d), t) if m == d && d != t => {
                *m = t.clone();
                n += 1;
            }
            _ => {}
        }
    }
    if n == 0 {
        return 0;
    }
    match serde_json::from_value::<Settings>(Value::Object(std::mem::take(&mut mine))) {
        Ok(s) if s.validate().is_ok() => {
            *local = s;
            n
        }
        _ => 0,
    }
}

/// The daily numbers whose daily of `kind` has the player's own result.
fn own_days(f: &Friends, kind: &str) -> Vec<u32> {
    f.days
        .iter()
        .filter(|(_, b)| b.mine.contains_key(kind))
        .map(|(&n, _)| n)
        .collect()
}

/// Merge `b` into `p` (everything but the games); the counts of what changed.
pub fn merge(p: &mut Progress, b: &Body) -> Imported {
    let mut out = Imported::default();
    // Records and statistics, counted per scope.
    let mut scopes: BTreeSet<String> = BTreeSet::new();
    for (key, r) in &b.records {
        let merged = match p.records.get(key) {
            Some(a) => merge_record(a, r),
            None => r.clone(),
        };
        if p.records.get(key) != Some(&merged) {
            p.records.insert(key.clone(), merged);
            scopes.insert(
                key.rsplit_once('/')
                    .map_or(key.as_str(), |s| s.0)
                    .to_string(),
            );
        }
    }
    for (scope, s) in &b.stats {
        if scope_kind(scope).is_none() {
            continue;
        }
        let merged = match p.stats.get(scope) {
            Some(a) => merge_scope(a, s, keeps_long(scope)),
            None => s.clone(),
        };
        if p.stats.get(scope).map(|a| &**a) != Some(&merged) {
            p.stats.insert(scope.clone(), merged.into());
            scopes.insert(scope.clone());
        }
    }
    out.records = scopes.len() as u32;
    // The kept move logs: the union, the oldest finish's going first past the bound.
    let have: HashSet<(String, u64)> = p
        .replays
        .kept
        .iter()
        .map(|k| (k.scope.clone(), k.at_ms))
        .collect();
    let new: Vec<_> = b
        .replays
        .kept
        .iter()
        .filter(|k| !have.contains(&(k.scope.clone(), k.at_ms)))
        .cloned()
        .collect();
    if !new.is_empty() {
        let mut all: Vec<_> = p.replays.kept.drain(..).chain(new).collect();
        all.sort_by_key(|k| k.at_ms);
        for k in all {
            p.replays.add(k);
        }
    }
    // Friends' boards and the player's own daily results.
    let before_friends = p.friends.clone();
    let kinds: BTreeSet<String> = b
        .friends
        .days
        .values()
        .flat_map(|d| d.mine.keys().cloned())
        .chain(b.streaks.keys().cloned())
        .collect();
    let own_before: BTreeMap<String, Vec<u32>> = kinds
        .iter()
        .map(|k| (k.clone(), own_days(&p.friends, k)))
        .collect();
    for (n, day) in &b.friends.days {
        for (kind, board) in &day.friends {
            for (name, r) in board {
                let local = p
                    .friends
                    .days
                    .entry(*n)
                    .or_default()
                    .friends
                    .entry(kind.clone())
                    .or_default();
                let key = huarong_engine::code::name_key(name);
                let shown = local
                    .keys()
                    .find(|k| huarong_engine::code::name_key(k) == key)
                    .cloned()
                    .unwrap_or_else(|| name.clone());
                match local.get(&shown) {
                    Some(old) if !r.better_than(old) => {}
                    _ => {
                        local.insert(shown, *r);
                    }
                }
            }
        }
        for (kind, r) in &day.mine {
            let mine = &mut p.friends.days.entry(*n).or_default().mine;
            match mine.get(kind) {
                Some(old) if !r.better_than(old) => {}
                _ => {
                    mine.insert(kind.clone(), *r);
                }
            }
        }
    }
    p.friends.bound();
    if p.friends != before_friends {
        for (n, day) in &p.friends.days {
            for (kind, board) in &day.friends {
                for (name, r) in board {
                    let old = before_friends
                        .days
                        .get(n)
                        .and_then(|d| d.friends.get(kind))
                        .and_then(|b| b.get(name));
                    if old != Some(r) {
                        out.friends += 1;
                    }
                }
            }
        }
    } else {
        p.friends = before_friends;
    }
    // Streaks: derived from the joined days; the best keeps the longer.
    for kind in &kinds {
        let days = own_days(&p.friends, kind);
        let old = p.streaks.get(kind).cloned();
        let theirs = b.streaks.get(kind).map_or(0, |s| s.best);
        let mut s = match &old {
            Some(o) if own_before.get(kind) == Some(&days) => o.clone(),
            _ => crate::daily::streak_of(days),
        };
        s.best = s.best.max(old.as_ref().map_or(0, |o| o.best)).max(theirs);
        if s.best == 0 && old.is_none() {
            continue;
        }
        if old.as_ref() != Some(&s) {
            p.streaks.insert(kind.clone(), s);
            out.streaks += 1;
        }
    }
    // Unlocked levels: the larger count.
    for (kind, &n) in &b.unlocked {
        if crate::progress::rules_of(kind).is_empty() {
            continue;
        }
        let have = p.unlocked.get(kind).copied().unwrap_or(0);
        if n > have {
            p.unlocked.insert(kind.clone(), n);
            out.unlocked += 1;
        }
    }
    out.settings = merge_settings(&mut p.settings, &b.settings);
    out
}

// ---------------------------------------------------------------------------------------
// The games and the commands.
// ---------------------------------------------------------------------------------------

/// Which game a saved session is: its game ID, its move log and its cursor.
fn fingerprint(saved: &Value) -> String {
    fnv(format!(
        "{}\n{}\n{}",
        saved["id"].as_str().unwrap_or(""),
        saved["log"],
        saved["cursor"]
    )
    .as_bytes())
}

/// A slot of its own for a game that cannot have its key.
fn own_key(fp: &str, n: u32) -> String {
    let h = huarong_engine::rng::fnv1a64(format!("{fp}:{n}").as_bytes());
    format!("challenge:{h:016x}")
}

/// One game the import places.
struct Placement {
    kind: Kind,
    key: String,
    header: Value,
    saved: Value,
    /// The local game it takes the key from goes to this key first.
    moves_local_to: Option<String>,
    /// The key's challenge in the file, carried along.
    challenge: Option<SlotChallenge>,
    finished_mark: Option<String>,
    with_moves: bool,
}

/// A local slot as the import sees it.
struct Local {
    kind: Kind,
    updated_ms: u64,
    fp: String,
    with_moves: bool,
    id: String,
    log: Value,
}

/// Whether move log `a` is the start of move log `b` (the same game, played on in `b`).
fn is_prefix(a: &Value, b: &Value) -> bool {
    match (a.as_array(), b.as_array()) {
        (Some(a), Some(b)) => a.len() <= b.len() && a.iter().zip(b).all(|(x, y)| x == y),
        _ => false,
    }
}

impl AppState {
    fn slot_values<G: AppGame>(&self, out: &mut Vec<(String, Value, Value, bool)>) {
        let refs: Vec<SlotRef<G>> = G::slots(&self.0.games)
            .lock()
            .slots
            .values()
            .cloned()
            .collect();
        let now = self.now();
        for r in refs {
            let slot = lock(&r);
            let saved = serde_json::to_value(slot.session.save(now)).unwrap_or_default();
            out.push((
                slot.key.clone(),
                crate::slots::slot_header(&slot),
                saved,
                slot.would_lose(),
            ));
        }
    }

    /// Every slot: key, header, saved session, whether it has moves to lose.
    fn all_slots(&self) -> Vec<(String, Value, Value, bool)> {
        let mut out = Vec::new();
        for kind in Kind::ALL {
            with_game!(kind, G => self.slot_values::<G>(&mut out));
        }
        out
    }

    /// `export_progress {}`.
    pub fn export_progress(&self) -> AppResult<Exported> {
        let games: Vec<GameOut> = self
            .all_slots()
            .into_iter()
            .map(|(key, header, saved, _)| GameOut { key, header, saved })
            .collect();
        let pictures = self.picture_refs();
        let body = {
            let st = self.store();
            let p = &st.progress;
            Body {
                challenges: p.challenges.clone(),
                friends: p.friends.clone(),
                games,
                pictures,
                records: p.records.clone(),
                replays: p.replays.clone(),
                settings: serde_json::to_value(&p.settings).unwrap_or(Value::Null),
                stats: p
                    .stats
                    .iter()
                    .map(|(k, s)| (k.clone(), (**s).clone()))
                    .collect(),
                streaks: p.streaks.clone(),
                unlocked: p.unlocked.clone(),
            }
        };
        let date = self.today();
        Ok(Exported {
            file_name: format!("huarong-progress-{date}.json"),
            data: encode(&body, &date)?,
        })
    }

    /// The custom picture, by reference.
    fn picture_refs(&self) -> Vec<PictureRef> {
        let Some(dir) = self.store().paths.as_ref().map(|p| p.dir.join("pictures")) else {
            return Vec::new();
        };
        let io = self.platform().io.clone();
        let Ok(mut names) = io.list(&dir) else {
            return Vec::new();
        };
        names.sort();
        names
            .into_iter()
            .filter(|n| n.starts_with("custom."))
            .filter_map(|n| {
                let bytes = io.read(&dir.join(&n), 1 << 20).ok()?;
                Some(PictureRef {
                    bytes: bytes.len() as u64,
                    fnv: fnv(&bytes),
                    name: n,
                })
            })
            .collect()
    }

    /// Check that a saved game restores; its kind.
    fn check_game(&self, g: &GameOut) -> AppResult<Kind> {
        let kind = g.header["kind"]
            .as_str()
            .and_then(Kind::parse)
            .or_else(|| {
                let id = g.saved["id"].as_str()?;
                huarong_engine::GameId::parse(id).ok().map(|i| i.kind)
            })
            .ok_or_else(|| corrupt(format!("the game in slot {:?} names no game", g.key)))?;
        if crate::slots::mode_of_key(&g.key).is_none() {
            return Err(corrupt(format!("{:?} is no slot", g.key)));
        }
        with_game!(kind, G => {
            let bounds = self.budget(&huarong_engine::Cancel::new(), crate::search::OPEN_TIME);
            self.bounded(crate::search_gate::Urgency::Foreground, bounds, || {
                crate::state::restore_session::<G>(&g.saved).map(|_| ())
            })
        })
        .map_err(|e| {
            corrupt(format!(
                "the game in slot {} does not resume: {}",
                g.key, e.message
            ))
        })?;
        Ok(kind)
    }

    /// Where each new game of the file goes.
    fn plan_games(&self, body: &Body) -> AppResult<Vec<Placement>> {
        if body.games.len() > crate::slots::MAX_SLOTS {
            return Err(corrupt(format!(
                "{} games: no device keeps more than {}",
                body.games.len(),
                crate::slots::MAX_SLOTS
            )));
        }
        let mut local: BTreeMap<String, Local> = BTreeMap::new();
        for (key, header, saved, with_moves) in self.all_slots() {
            let kind = header["kind"].as_str().and_then(Kind::parse);
            if let Some(kind) = kind {
                local.insert(
                    key,
                    Local {
                        kind,
                        updated_ms: header["updated_ms"].as_u64().unwrap_or(0),
                        fp: fingerprint(&saved),
                        with_moves,
                        id: saved["id"].as_str().unwrap_or("").to_string(),
                        log: saved["log"].clone(),
                    },
                );
            }
        }
        let mut seen: HashSet<String> = local.values().map(|l| l.fp.clone()).collect();
        let mut taken: HashSet<String> = local.keys().cloned().collect();
        let mut plan = Vec::new();
        let mut replaced: HashSet<String> = HashSet::new();
        for g in &body.games {
            let kind = self.check_game(g)?;
            let fp = fingerprint(&g.saved);
            if !seen.insert(fp.clone()) {
                continue;
            }
            // A key the journal holds for a game it could not restore is not free either.
            let free = |taken: &HashSet<String>| {
                (0..)
                    .map(|n| own_key(&fp, n))
                    .find(|k| !taken.contains(k) && !self.0.journal.holds(k))
            };
            let updated = g.header["updated_ms"].as_u64().unwrap_or(0);
            let gid = g.saved["id"].as_str().unwrap_or("");
            let same_game = |l: &Local| l.kind == kind && l.id == gid;
            let (key, moves_local_to) = match local.get(&g.key) {
                None if !taken.contains(&g.key) && !self.0.journal.holds(&g.key) => {
                    (g.key.clone(), None)
                }
                // The same game, played further here: nothing new.
                Some(l) if same_game(l) && is_prefix(&g.saved["log"], &l.log) => continue,
                // The same game, played further in the file: it takes the slot (the moves
                // here are the start of its log: nothing is lost).
                Some(l) if same_game(l) && is_prefix(&l.log, &g.saved["log"]) => {
                    replaced.insert(g.key.clone());
                    (g.key.clone(), None)
                }
                Some(l) if l.kind == kind && updated > l.updated_ms => {
                    let to = free(&taken).unwrap_or_default();
                    (g.key.clone(), Some((to, l.fp.clone())))
                }
                _ => (free(&taken).unwrap_or_default(), None),
            };
            taken.insert(key.clone());
            if let Some((to, _)) = &moves_local_to {
                taken.insert(to.clone());
            }
            let finished = g.saved["log"].as_array().is_some_and(|l| !l.is_empty());
            let status_playing = with_game!(kind, G => {
                crate::state::restore_session::<G>(&g.saved)
                    .map(|s| (s.status() == Status::Playing, s.played().len(), s.id().to_string()))
            })?;
            let (playing, played, id) = status_playing;
            plan.push(Placement {
                kind,
                key,
                header: g.header.clone(),
                saved: g.saved.clone(),
                moves_local_to: moves_local_to.map(|(to, _)| to),
                challenge: body.challenges.get(&g.key).cloned(),
                finished_mark: (!playing && finished).then(|| format!("{id}@{played}")),
                with_moves: playing && played > 0,
            });
        }
        // Room: games with moves are never dropped for it.
        let with_moves = local
            .iter()
            .filter(|(k, l)| l.with_moves && !replaced.contains(*k))
            .count()
            + plan.iter().filter(|p| p.with_moves).count();
        if with_moves > crate::slots::MAX_SLOTS {
            return Err(AppError::new(
                Code::WouldReplace,
                format!(
                    "at most {} games are kept: with this file's, {with_moves} unfinished games would have to fit; finish or remove some first (nothing was changed)",
                    crate::slots::MAX_SLOTS
                ),
            ));
        }
        Ok(plan)
    }

    fn place_game<G: AppGame>(&self, pl: &Placement) -> AppResult<()> {
        if let Some(to) = &pl.moves_local_to {
            // The local game of the key goes to a slot of its own: the same game, moved.
            let old = G::slots(&self.0.games).lock().slots.get(&pl.key).cloned();
            if let Some(old) = old {
                let (header, saved) = {
                    let s = lock(&old);
                    s.search.cancel();
                    (
                        crate::slots::slot_header(&s),
                        serde_json::to_value(s.session.save(self.now())).unwrap_or_default(),
                    )
                };
                let moved = SlotData {
                    key: to.clone(),
                    header,
                    saved,
                };
                self.restore_slot(&moved)?;
                if let Some(r) = G::slots(&self.0.games).lock().slots.get(to).cloned() {
                    self.save_slot(&mut lock(&r), true);
                }
                let (from, to, kind) = (pl.key.clone(), to.clone(), G::KIND.as_str().to_string());
                self.commit(|p| {
                    if let Some(m) = p.settled.remove(&from) {
                        p.settled.insert(to.clone(), m);
                    }
                    if let Some(c) = p.challenges.remove(&from) {
                        p.challenges.insert(to.clone(), c);
                    }
                    if p.current.get(&kind) == Some(&from) {
                        p.current.insert(kind, to);
                    }
                });
            }
        }
        // A game the file's replaces (its own start): its searches stop.
        let old = G::slots(&self.0.games).lock().slots.get(&pl.key).cloned();
        if let Some(old) = old {
            lock(&old).search.cancel();
        }
        let data = SlotData {
            key: pl.key.clone(),
            header: pl.header.clone(),
            saved: pl.saved.clone(),
        };
        self.restore_slot(&data)?;
        if let Some(r) = G::slots(&self.0.games).lock().slots.get(&pl.key).cloned() {
            self.save_slot(&mut lock(&r), true);
        }
        let (key, mark, challenge) = (
            pl.key.clone(),
            pl.finished_mark.clone(),
            pl.challenge.clone(),
        );
        self.commit(|p| {
            // The file's records hold this game's finish: it is not recorded again.
            match mark {
                Some(m) => {
                    p.settled.insert(key.clone(), m);
                }
                None => {
                    p.settled.remove(&key);
                }
            }
            if let Some(c) = challenge {
                p.challenges.entry(key).or_insert(c);
            }
        });
        Ok(())
    }

    /// `import_progress {data}`: check the whole file, then merge it (module comment).
    pub fn import_progress(&self, data: &str) -> AppResult<Imported> {
        let body = decode(data)?;
        let plan = self.plan_games(&body)?;
        // The merge on a copy first: nothing is written when nothing changes.
        let (mut out, changed) = {
            let st = self.store();
            let mut p = st.progress.clone();
            let out = merge(&mut p, &body);
            p.sanitize();
            (out, p != st.progress)
        };
        for pl in &plan {
            with_game!(pl.kind, G => self.place_game::<G>(pl))?;
            out.games += 1;
        }
        if !plan.is_empty() {
            self.enforce_cap("");
        }
        if changed {
            // Within every bound of the progress (records, scopes, histories, boards).
            self.commit(|p| {
                merge(p, &body);
                p.sanitize();
            });
        }
        Ok(out)
    }

    /// `export_history {format}`: every finish of every history as CSV (`csv`, the only
    /// format), oldest first.
    pub fn export_history(&self, format: &str) -> AppResult<Exported> {
        if format != "csv" {
            return Err(AppError::bad_argument(format!(
                "`format` {:?}: only \"csv\"",
                format.chars().take(20).collect::<String>()
            )));
        }
        let date = self.today();
        let st = self.store();
        let p = &st.progress;
        let mut rows: Vec<(u64, &str, &String, &FinishEntry)> = Vec::new();
        for (scope, s) in &p.stats {
            let Some(kind) = scope_kind(scope) else {
                continue;
            };
            for e in &s.history {
                rows.push((e.at_ms, kind, scope, e));
            }
        }
        rows.sort_by(|a, b| (a.0, &a.3.date, a.2).cmp(&(b.0, &b.3.date, b.2)));
        let mut out = String::from(
            "date,finished_at_utc,game,scope,game_id,moves,rule,time_ms,time_s,hints,undo,won,clean,auto_solved,optimal,result_code\n",
        );
        for (at_ms, kind, scope, e) in rows {
            let rule = p.settings.rule(kind);
            let kept = p.replays.find(scope, at_ms).filter(|_| at_ms > 0);
            let moves = e.moves.get(rule).map(u32::to_string).unwrap_or_default();
            let code = kept
                .and_then(|k| result_code_of(kind, k, e, &p.settings.name))
                .unwrap_or_default();
            let fields = [
                e.date.clone(),
                utc(at_ms),
                kind.to_string(),
                scope.clone(),
                kept.map(|k| k.id.clone()).unwrap_or_default(),
                moves,
                rule.to_string(),
                e.ms.to_string(),
                format!("{}.{:03}", e.ms / 1000, e.ms % 1000),
                e.hints_used.to_string(),
                e.undo_used.to_string(),
                e.won.to_string(),
                e.clean().to_string(),
                e.auto_solved.to_string(),
                e.optimal.map(|o| o.to_string()).unwrap_or_default(),
                code,
            ];
            let line: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
            out.push_str(&line.join(","));
            out.push('\n');
        }
        Ok(Exported {
            file_name: format!("huarong-history-{date}.csv"),
            data: out,
        })
    }
}

/// The result code of a kept finish, with its move log (the receiver replays it: verified)
/// and its move times where kept; `None` when the code cannot be made.
fn result_code_of(
    kind: &str,
    k: &crate::progress::KeptReplay,
    e: &FinishEntry,
    name: &str,
) -> Option<String> {
    use huarong_engine::code;
    if e.auto_solved {
        return None;
    }
    let rule = crate::progress::rules_of(kind).first()?;
    let moves = *e.moves.get(*rule)?;
    let log = code::unpack_log(&k.id, &k.log).ok()?;
    let times = (!k.times.is_empty())
        .then(|| code::unpack_times(&k.times).ok())
        .flatten()
        .filter(|t| t.len() == log.len());
    let challenge = code::Challenge::new(moves, e.ms).ok()?;
    let extra = code::Extra {
        daily: None,
        classic: None,
    };
    let sender = code::Sender {
        name: (!name.is_empty()).then(|| name.to_string()),
        log: Some(log),
    };
    let assisted = e.undo_used || e.hints_used > 0;
    code::encode_result_timed(
        &k.id,
        extra,
        challenge,
        &sender,
        None,
        assisted,
        times.as_deref(),
    )
    .ok()
    .map(|(c, _)| c)
}

/// A Unix time in ms as `YYYY-MM-DDTHH:MM:SSZ` (empty for 0: not known).
fn utc(ms: u64) -> String {
    if ms == 0 {
        return String::new();
    }
    let secs = ms / 1000;
    let day = huarong_engine::daily::Date::from_days((secs / 86_400) as i64);
    let s = secs % 86_400;
    format!("{day}T{:02}:{:02}:{:02}Z", s / 3600, s / 60 % 60, s % 60)
}

/// One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break, with
/// quotes doubled. A field a spreadsheet would read as a formula gets a leading `'`.
pub fn csv_field(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '@']) || (s.starts_with('-') && s.parse::<f64>().is_err()) {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_round_trips_and_any_one_byte_changed_is_refused() {
        let mut body = Body::default();
        body.unlocked.insert("klotski".into(), 5);
        let text = encode(&body, "2026-12-08").unwrap();
        assert!(text.starts_with("{\"format\":\"huarong-progress\",\"version\":1,"));
        assert_eq!(decode(&text).unwrap().unlocked["klotski"], 5);
        assert_eq!(decode(&format!("{text}\n")).unwrap().unlocked["klotski"], 5);
        for i in 0..text.len() {
            let mut b = text.clone().into_bytes();
            b[i] ^= 0x01;
            let Ok(t) = String::from_utf8(b) else {
                continue;
            };
            let e = decode(&t).unwrap_err();
            assert!(
                matches!(
                    e.code,
                    Code::Engine(ErrorCode::CorruptSave) | Code::Engine(ErrorCode::Parse)
                ),
                "byte {i}: {e}"
            );
        }
        for cut in [1, text.len() / 2, text.len() - 1] {
            let e = decode(&text[..cut]).unwrap_err();
            assert!(e.code != Code::Internal, "{e}");
        }
        assert_eq!(
            decode(&text[..text.len() - 1]).unwrap_err().code,
            Code::Engine(ErrorCode::CorruptSave)
        );
        let newer = text.replace("\"version\":1,", "\"version\":2,");
        assert_eq!(decode(&newer).unwrap_err().code, Code::UnsupportedVersion);
        assert_eq!(
            decode("{\"name\":\"x\"}").unwrap_err().code,
            Code::Engine(ErrorCode::Parse)
        );
    }

    #[test]
    fn csv_fields_are_quoted_where_needed() {
        assert_eq!(csv_field("slide:4x4"), "slide:4x4");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("=1+1"), "'=1+1");
        assert_eq!(csv_field("-5"), "-5");
    }

    fn row(at_ms: u64, ms: u64, moves: u32) -> FinishEntry {
        FinishEntry {
            at_ms,
            date: "2026-12-01".into(),
            moves: BTreeMap::from([("tile".to_string(), moves)]),
            ms,
            won: true,
            ..FinishEntry::default()
        }
    }

    #[test]
    fn scopes_join_their_histories_once() {
        let mut a = ScopeStats::default();
        let mut b = ScopeStats::default();
        for i in 0..5 {
            a.add(row(i, 1000 + i, 30), true);
            a.plays += 1;
        }
        for i in 3..8 {
            b.add(row(i, 1000 + i, 30), true);
            b.plays += 1;
        }
        let m = merge_scope(&a, &b, true);
        assert_eq!(m.history.len(), 8);
        assert_eq!(m.wins, 8);
        assert_eq!(m.plays, 8);
        assert_eq!(
            merge_scope(&m, &b, true),
            m,
            "a second time changes nothing"
        );
        assert_eq!(merge_scope(&b, &a, true).history, m.history);
    }

    #[test]
    fn records_unlocks_settings_and_streaks_merge_to_the_better_and_the_union() {
        use crate::progress::BoardResult;
        let day = |d: &str| {
            huarong_engine::daily::number(huarong_engine::daily::Date::parse(d).unwrap()).unwrap()
        };
        let mut a = Progress::default();
        let mut b = Body::default();
        a.records.insert(
            "slide:3x3/tile".into(),
            Record {
                best_moves: Some(20),
                best_time_ms: Some(9_000),
                rule: "tile".into(),
                wins: 3,
                ..Record::default()
            },
        );
        b.records.insert(
            "slide:3x3/tile".into(),
            Record {
                best_moves: Some(18),
                undo_used: true,
                best_time_ms: Some(12_000),
                rule: "tile".into(),
                wins: 2,
                ..Record::default()
            },
        );
        a.unlocked.insert("klotski".into(), 5);
        b.unlocked.insert("klotski".into(), 9);
        a.settings.theme = "dark".into();
        b.settings =
            serde_json::json!({"theme": "light", "language": "zh", "rules": {"slide": "line"}});
        for d in ["2026-03-01", "2026-03-02"] {
            a.friends
                .add_mine(day(d), "slide", BoardResult::default(), day(d));
        }
        for d in ["2026-03-03", "2026-03-04"] {
            b.friends
                .days
                .entry(day(d))
                .or_default()
                .mine
                .insert("slide".into(), BoardResult::default());
        }
        b.streaks.insert(
            "slide".into(),
            Streak {
                best: 2,
                current: 2,
                ..Streak::default()
            },
        );
        let out = merge(&mut a, &b);
        let r = &a.records["slide:3x3/tile"];
        assert_eq!(
            (r.best_moves, r.undo_used, r.best_time_ms, r.wins),
            (Some(18), true, Some(9_000), 3)
        );
        assert_eq!(a.unlocked["klotski"], 9);
        // The theme set here stays; the defaults here take the file's.
        assert_eq!(a.settings.theme, "dark");
        assert_eq!(a.settings.language, "zh");
        assert_eq!(a.settings.rule("slide"), "line");
        // Four days in a row once joined.
        assert_eq!(
            (a.streaks["slide"].best, a.streaks["slide"].current),
            (4, 4)
        );
        assert_eq!(
            (out.records, out.unlocked, out.settings, out.streaks),
            (1, 1, 2, 1)
        );
        let again = merge(&mut a, &b);
        assert_eq!(again, Imported::default(), "a second merge changes nothing");
    }
}
