//! The player's progress: what is saved, in which layout (schema), and the migrations from
//! every earlier layout. No I/O here (see `persist.rs` for files).
//!
//! The saved file holds one key, `"save"`, whose value is
//! `{ "schema": 1, "gen": N, "checksum": "<16 hex>", "progress": Progress }`.
//! `gen` grows by one with every save; `checksum` covers schema, gen and the progress
//! (see `persist::checksum`).
//!
//! Schema history:
//! - **v0** (no `schema` key, flat top-level keys): no released build ever wrote it. It is the
//!   layout of the project's first sketch of the store (flat `settings`/`best`/`saved`/`screen`
//!   keys, one best per level without the counting rule), written down here so that the
//!   migration chain has a real first step with tests, and so that a hand-made or early
//!   development file is read instead of being dropped.
//! - **v1**: the layout of [`Progress`] below, inside the `"save"` envelope.
//! - **v2**: statistics for up to `MAX_SCOPES` scopes with histories bounded in
//!   bytes (`stats.rs`): `stats.*.recent` holds `[ms, {rule: moves}]` pairs instead of whole
//!   finish rows, finish rows leave out fields at their default, `stats.*.trimmed` and
//!   `folded` count what the bounds folded, and the file is compact JSON. A v1 file reads
//!   as it is (its recent rows read as pairs); the step only renumbers it.

mod friends;
pub mod groups;
mod migrate;
mod repair;
mod slots;
mod stats;

pub use friends::{BoardResult, DayBoards, Friends, KeptReplay, Replays};
pub use migrate::{migrate, schema_of};
pub use repair::repair_impossible;
pub use slots::{mode_of_key, Mode, SlotChallenge, SlotGhost, MAX_CHALLENGES, MAX_SLOTS};
pub(crate) use stats::bound;
pub use stats::{
    file_form, keeps_long, scope_kind, FinishEntry, FoldLog, Folded, Recent, ScopeStats, Shared,
    FULL_SCOPES, HISTORY_BYTES, LONG_RECENT, MAX_HISTORY, MAX_SCOPES, MAX_SCOPE_LEN, RECENT,
    SHORT_HISTORY,
};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The schema this build writes.
pub const SCHEMA: u32 = 2;
/// Most records kept (classic levels and sizes are few; generated levels add one each per
/// rule played): two per statistics scope.
pub const MAX_RECORDS: usize = 2 * MAX_SCOPES;
/// Most saved games kept aside because they no longer replay.
pub const MAX_QUARANTINE: usize = 8;

/// Player settings. Every field has a default, so a partial object deserializes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The game screen's clock: `on` (the default) or `off` (no timer shown, for play
    /// without time pressure).
    pub clock: String,
    /// Whether a race's ghost is shown: `on` (the default) or `off`.
    pub ghost: String,
    pub haptics: bool,
    /// `auto` (follow the system), `zh` or `en`.
    pub language: String,
    /// The player's display name in result codes: at most 16 characters,
    /// trimmed, no control characters; empty (the default) shows as "a friend".
    pub name: String,
    /// Show the 2048 direction pad.
    pub pad: bool,
    /// The move-count rule per game (see [`rules_of`]).
    pub rules: BTreeMap<String, String>,
    /// How the number slide's tiles are moved: `tap` (tap and the run-drag),
    /// `trail` (a finger drawn through tiles moves each as it reaches it) or `both`.
    pub slide_control: String,
    pub sound: bool,
    /// `system`, `light` or `dark`.
    pub theme: String,
}

impl Default for Settings {
    fn default() -> Self {
        // Each game's default counting rule (the first of its rules in the engine's registry).
        let rules = huarong_engine::Kind::ALL
            .into_iter()
            .filter_map(|k| {
                let first = huarong_engine::registry::rules(k).first()?;
                Some((k.as_str().to_string(), first.to_string()))
            })
            .collect();
        Settings {
            clock: "on".into(),
            ghost: "on".into(),
            language: "auto".into(),
            haptics: true,
            sound: true,
            theme: "system".into(),
            pad: false,
            rules,
            name: String::new(),
            slide_control: "both".into(),
        }
    }
}

pub const LANGUAGES: &[&str] = &["auto", "zh", "en"];
pub const THEMES: &[&str] = &["system", "light", "dark"];
pub const SLIDE_CONTROLS: &[&str] = &["tap", "trail", "both"];
pub const CLOCKS: &[&str] = &["on", "off"];
pub const GHOST: &[&str] = &["on", "off"];

/// The counting rules a game offers, the default first. They name the game's counters
/// (`Snapshot::counters`), e.g. slide `tile` (each tile-step counts 1) and `line` (one slide
/// of a run counts 1); Klotski `piece` (the standard Chinese count), `straight`, `unit`.
pub fn rules_of(kind: &str) -> &'static [&'static str] {
    huarong_engine::Kind::parse(kind).map_or(&[], huarong_engine::registry::rules)
}

impl Settings {
    /// The rule in force for `kind` (the default if the stored one is unknown).
    pub fn rule(&self, kind: &str) -> &str {
        let allowed = rules_of(kind);
        match self.rules.get(kind) {
            Some(r) if allowed.contains(&r.as_str()) => r.as_str(),
            _ => allowed.first().copied().unwrap_or("moves"),
        }
    }

    /// Check every field; the message says which one is wrong.
    pub fn validate(&self) -> Result<(), String> {
        if !LANGUAGES.contains(&self.language.as_str()) {
            return Err(format!(
                "language {:?} is not one of {LANGUAGES:?}",
                self.language
            ));
        }
        if !THEMES.contains(&self.theme.as_str()) {
            return Err(format!("theme {:?} is not one of {THEMES:?}", self.theme));
        }
        if !GHOST.contains(&self.ghost.as_str()) {
            return Err(format!("ghost {:?} is not one of {GHOST:?}", self.ghost));
        }
        if !CLOCKS.contains(&self.clock.as_str()) {
            return Err(format!("clock {:?} is not one of {CLOCKS:?}", self.clock));
        }
        if !SLIDE_CONTROLS.contains(&self.slide_control.as_str()) {
            return Err(format!(
                "slide_control {:?} is not one of {SLIDE_CONTROLS:?}",
                self.slide_control
            ));
        }
        match huarong_engine::code::check_name(&self.name) {
            Ok(n) if n.as_deref().unwrap_or("") == self.name => {}
            Ok(_) => return Err("name: a name has no white space around it".into()),
            Err(e) => return Err(format!("name: {}", e.message)),
        }
        for (kind, rule) in &self.rules {
            let allowed = rules_of(kind);
            if allowed.is_empty() {
                return Err(format!("rules: unknown game {kind:?}"));
            }
            if !allowed.contains(&rule.as_str()) {
                return Err(format!("rules.{kind}: {rule:?} is not one of {allowed:?}"));
            }
        }
        Ok(())
    }
}

/// The best results for one level / size / kind under one counting rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Record {
    /// Fewest moves in a won game (not counting auto-solved games).
    pub best_moves: Option<u32>,
    /// Highest score (2048) and tile.
    pub best_score: Option<u64>,
    /// The splits of the game that set `best_time_ms` (`[{name, moves, ms}]`, `ms` on that
    /// game's clock; empty when it had none or was set before splits were kept).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub best_splits: Vec<huarong_engine::splits::Split>,
    pub best_tile: Option<u64>,
    /// Fastest won game, in milliseconds of play.
    pub best_time_ms: Option<u64>,
    /// Local date (`YYYY-MM-DD`) of the last improvement.
    pub date: String,
    pub hints_used: u32,
    /// The fewest moves possible, where known.
    pub optimal: Option<u32>,
    /// What `best_moves` counts (`tile`, `line`, `piece`, `straight`, `unit`, `moves`).
    pub rule: String,
    /// Most stars earned (0 when the level has no stars).
    pub stars: u8,
    /// Whether the game that set `best_moves` used undo / how many hints it used.
    pub undo_used: bool,
    /// Won games counted.
    pub wins: u32,
}

/// A daily-challenge streak for one game, derived from the set of days whose daily the
/// player solved (`daily.rs::streak_of`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Streak {
    /// The longest run of consecutive days solved.
    pub best: u32,
    /// The run of consecutive days ending at `last`.
    pub current: u32,
    /// Older builds' "held run" (a file from them still reads); written as 0 now.
    #[serde(skip_serializing_if = "is_zero")]
    pub held: u32,
    /// Older builds' date of the held run; written empty now.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub held_last: String,
    /// Local date (`YYYY-MM-DD`) of the newest day solved.
    pub last: String,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// An in-progress game as the engine's `SavedSession` JSON. The app saves after every move;
/// turning a long move log into JSON is left to the saver thread (`later`), so a move costs
/// the command thread (the UI's main thread) a copy of the log, not its serialisation.
/// Clones share the text, made once. In the file it is a plain JSON object.
#[derive(Clone)]
pub struct SavedGame(Arc<SavedText>);

struct SavedText {
    text: OnceLock<Arc<str>>,
    make: Mutex<Option<Box<dyn FnOnce() -> String + Send>>>,
}

impl SavedGame {
    /// A game already in JSON text form.
    pub fn from_text(text: impl Into<Arc<str>>) -> SavedGame {
        let cell = OnceLock::new();
        let _ = cell.set(text.into());
        SavedGame(Arc::new(SavedText {
            text: cell,
            make: Mutex::new(None),
        }))
    }
    /// A game whose JSON `make` writes when it is first needed (on the saver thread).
    pub fn later(make: impl FnOnce() -> String + Send + 'static) -> SavedGame {
        SavedGame(Arc::new(SavedText {
            text: OnceLock::new(),
            make: Mutex::new(Some(Box::new(make))),
        }))
    }
    pub fn from_value(v: &Value) -> SavedGame {
        SavedGame::from_text(v.to_string())
    }
    /// The JSON text (made now if it was left for later).
    pub fn text(&self) -> Arc<str> {
        self.0
            .text
            .get_or_init(|| {
                let make = self.0.make.lock().map(|mut m| m.take()).unwrap_or(None);
                make.map(|f| f()).unwrap_or_default().into()
            })
            .clone()
    }
    pub fn value(&self) -> Value {
        serde_json::from_str(&self.text()).unwrap_or(Value::Null)
    }
}

impl std::fmt::Debug for SavedGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.text.get() {
            Some(t) => write!(f, "SavedGame({} bytes)", t.len()),
            None => write!(f, "SavedGame(not yet written)"),
        }
    }
}

impl PartialEq for SavedGame {
    fn eq(&self, other: &SavedGame) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
            || self.text() == other.text()
            || self.value() == other.value()
    }
}

impl Serialize for SavedGame {
    /// Text that is not JSON (it cannot happen short of a bug) is written as `null`, which the
    /// next start sets aside as a broken game: one game is lost, never the whole progress.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.value().serialize(s)
    }
}

impl<'de> Deserialize<'de> for SavedGame {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(SavedGame::from_value(&Value::deserialize(d)?))
    }
}

/// A saved game that no longer replays (kept instead of dropped).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Quarantined {
    pub kind: String,
    pub reason: String,
    pub saved: Value,
}

/// Everything saved about the player (schema 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Progress {
    /// The sender's result of a game opened from a code, per slot key (`challenge.rs`).
    pub challenges: BTreeMap<String, SlotChallenge>,
    /// The current slot of each kind (`kind` → slot key).
    pub current: BTreeMap<String, String>,
    /// What the last change folded, for its notice (`stats_folded`); never saved.
    #[serde(skip)]
    pub fold_log: FoldLog,
    /// Per game, what the statistics' bounds folded (scopes past `MAX_SCOPES`, history rows).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub folded: BTreeMap<String, Folded>,
    /// The daily challenge's friends' boards (`friends.rs`).
    pub friends: Friends,
    /// The in-progress game of each kind: the engine's `SavedSession` JSON (game ID, whole
    /// move log including the redo branch, cursor, clock).
    pub games: BTreeMap<String, SavedGame>,
    /// The group challenges (`groups.rs`); not written while there are none.
    #[serde(skip_serializing_if = "groups::Groups::is_empty")]
    pub groups: groups::Groups,
    pub quarantine: Vec<Quarantined>,
    /// Key: `<scope>/<rule>`, scope = `klotski:<level>` / `slide:<W>x<H>` / `2048`.
    pub records: BTreeMap<String, Record>,
    /// Move logs of finished games, for replays (`friends.rs`).
    pub replays: Replays,
    /// The screen the player was on (`home`, `game:<kind>`, …).
    pub screen: String,
    pub settings: Settings,
    /// Per slot, the finished game whose record is in `records` (`<game ID>@<moves in the
    /// log>`): a finished game found in the journal without it gets its record at start.
    pub settled: BTreeMap<String, String>,
    /// Statistics per record scope (`records.rs`).
    pub stats: BTreeMap<String, Shared<ScopeStats>>,
    /// Daily streaks per game.
    pub streaks: BTreeMap<String, Streak>,
    /// Per game, how many of its numbered levels are open (Klotski classics).
    pub unlocked: BTreeMap<String, u32>,
}

impl Default for Progress {
    fn default() -> Self {
        Progress {
            settings: Settings::default(),
            records: BTreeMap::new(),
            unlocked: BTreeMap::new(),
            streaks: BTreeMap::new(),
            games: BTreeMap::new(),
            screen: "home".into(),
            current: BTreeMap::new(),
            settled: BTreeMap::new(),
            quarantine: Vec::new(),
            stats: BTreeMap::new(),
            challenges: BTreeMap::new(),
            friends: Friends::default(),
            groups: groups::Groups::default(),
            replays: Replays::default(),
            folded: BTreeMap::new(),
            fold_log: FoldLog::default(),
        }
    }
}

impl Progress {
    /// Repair what a hand-edited or migrated file may hold out of range (never fails).
    pub fn sanitize(&mut self) {
        if self.settings.validate().is_err() {
            let d = Settings::default();
            if !LANGUAGES.contains(&self.settings.language.as_str()) {
                self.settings.language = d.language;
            }
            if !THEMES.contains(&self.settings.theme.as_str()) {
                self.settings.theme = d.theme;
            }
            if !SLIDE_CONTROLS.contains(&self.settings.slide_control.as_str()) {
                self.settings.slide_control = d.slide_control;
            }
            self.settings
                .rules
                .retain(|k, r| rules_of(k).contains(&r.as_str()));
            for (kind, rule) in d.rules {
                self.settings.rules.entry(kind).or_insert(rule);
            }
            // A name in its checked form (an older build's file may hold format characters:
            // they are dropped); one that is no name is the default.
            self.settings.name = match huarong_engine::code::check_name(&self.settings.name) {
                Ok(n) => n.unwrap_or_default(),
                Err(_) => d.name,
            };
        }
        if !valid_screen(&self.screen) {
            self.screen = "home".into();
        }
        self.games.retain(|k, _| !rules_of(k).is_empty());
        while self.settled.len() > 4 * MAX_SLOTS {
            let first = self.settled.keys().next().cloned();
            if let Some(k) = first {
                self.settled.remove(&k);
            }
        }
        self.current
            .retain(|k, v| !rules_of(k).is_empty() && mode_of_key(v).is_some());
        if self.records.len() > MAX_RECORDS {
            // Drop the oldest generated-level records first (classics and sizes are few), then
            // the oldest of the rest: one sort, linear in the number of records.
            let generated = |k: &str| k.contains('#') || k.matches(':').count() > 1;
            let mut order: Vec<(bool, String, String)> = self
                .records
                .iter()
                .map(|(k, r)| (!generated(k), r.date.clone(), k.clone()))
                .collect();
            order.sort();
            let extra = self.records.len() - MAX_RECORDS;
            for (_, _, k) in order.into_iter().take(extra) {
                self.records.remove(&k);
                self.fold_log.records.push(k);
            }
        }
        stats::sanitize(self);
        self.friends.sanitize_names();
        self.friends.bound();
        self.groups.bound();
        while self.replays.kept.len() > friends::MAX_REPLAYS {
            self.replays.kept.pop_front();
        }
        while self.challenges.len() > MAX_CHALLENGES {
            self.challenges.pop_first();
        }
        if self.quarantine.len() > MAX_QUARANTINE {
            let extra = self.quarantine.len() - MAX_QUARANTINE;
            self.quarantine.drain(..extra);
        }
    }
}

/// Fields of records and streaks that are `u32` / `u8` (everything else numeric is `u64`).
const U32_FIELDS: &[&str] = &[
    "best_moves",
    "hints_used",
    "optimal",
    "wins",
    "current",
    "best",
];
const U8_FIELDS: &[&str] = &["stars"];

/// Make every counter in a decoded `progress` value fit its type before it is parsed, so a
/// huge, negative or fractional number saturates instead of failing the whole file (which
/// would lose the player's records). Linear in the size of the value; touches only the
/// numbers directly inside `records.*` and `streaks.*`.
pub fn clamp_counters(progress: &mut Value) {
    for table in ["records", "streaks"] {
        let Some(entries) = progress.get_mut(table).and_then(Value::as_object_mut) else {
            continue;
        };
        for entry in entries.values_mut() {
            let Some(fields) = entry.as_object_mut() else {
                continue;
            };
            for (name, v) in fields.iter_mut() {
                let Value::Number(n) = v else {
                    continue;
                };
                let max = if U8_FIELDS.contains(&name.as_str()) {
                    u8::MAX as u64
                } else if U32_FIELDS.contains(&name.as_str()) {
                    u32::MAX as u64
                } else {
                    u64::MAX
                };
                let x = saturate_u64(n).min(max);
                if n.as_u64() != Some(x) {
                    *v = Value::from(x);
                }
            }
        }
    }
}

/// A JSON number as a `u64`: negatives are 0, fractions are cut, anything larger is `u64::MAX`.
pub fn saturate_u64(n: &serde_json::Number) -> u64 {
    if let Some(u) = n.as_u64() {
        return u;
    }
    if n.as_i64().is_some() {
        return 0;
    }
    match n.as_f64() {
        Some(f) if f.is_nan() || f <= 0.0 => 0,
        Some(f) if f >= u64::MAX as f64 => u64::MAX,
        Some(f) => f as u64,
        None => u64::MAX,
    }
}

/// A screen name: `home`, `settings`, `game:<kind>`, `levels:<kind>`, … — lower-case ASCII
/// letters, digits, `:`, `-`, `_`, at most 40 characters.
pub fn valid_screen(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 40
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-_:".contains(&b))
        && s.as_bytes()[0].is_ascii_lowercase()
}

/// The count under `rule` from a game's counters (the game's own count when absent).
pub fn moves_under(counters: &Value, rule: &str, fallback: u32) -> u32 {
    counters
        .get(rule)
        .and_then(Value::as_u64)
        .and_then(|m| u32::try_from(m).ok())
        .unwrap_or(fallback)
}

#[cfg(test)]
mod tests;
