//! Settings (merge and check), the screen to reopen on, and the `get_progress` view.

use crate::core::AppState;
use crate::error::{AppError, AppResult};
use crate::games::FIRST_UNLOCKED;
use crate::persist::Notice;
use crate::progress::{self, Record, Settings};
use crate::views::{ProgressView, StorageView};
use huarong_engine::Kind;
use serde_json::Value;
use std::collections::BTreeMap;

/// The settings' fields `set_settings` accepts.
const FIELDS: &[&str] = &[
    "language",
    "haptics",
    "sound",
    "theme",
    "pad",
    "rules",
    "name",
    "slide_control",
    "clock",
    "ghost",
];

impl AppState {
    pub fn settings(&self) -> Settings {
        self.store().progress.settings.clone()
    }

    /// Merge `patch` (any subset of the settings' fields) into the settings.
    pub fn set_settings(&self, patch: Value) -> AppResult<Settings> {
        let Value::Object(patch) = patch else {
            return Err(AppError::bad_argument("`settings` must be an object"));
        };
        if let Some(k) = patch.keys().find(|k| !FIELDS.contains(&k.as_str())) {
            return Err(AppError::bad_argument(format!(
                "`settings.{}` is not a setting (known: {FIELDS:?})",
                k.chars().take(40).collect::<String>()
            )));
        }
        let mut merged =
            serde_json::to_value(self.settings()).map_err(|e| AppError::internal(e.to_string()))?;
        for (k, v) in patch {
            if k == "rules" {
                let Value::Object(rules) = v else {
                    return Err(AppError::bad_argument("`settings.rules` must be an object"));
                };
                for (kind, rule) in rules {
                    merged["rules"][kind] = rule;
                }
            } else {
                merged[k] = v;
            }
        }
        let mut settings: Settings = serde_json::from_value(merged)
            .map_err(|e| AppError::bad_argument(format!("`settings`: {e}")))?;
        // The display name is kept trimmed; the checks are the codes' own.
        settings.name = huarong_engine::code::check_name(&settings.name)
            .map_err(|e| AppError::bad_argument(format!("`settings.name`: {}", e.message)))?
            .unwrap_or_default();
        settings
            .validate()
            .map_err(|e| AppError::bad_argument(format!("`settings.{e}")))?;
        let out = settings.clone();
        self.commit(|p| p.settings = settings);
        Ok(out)
    }

    /// Remember the screen; leaving a game's screen stops its clock and cancels its
    /// hint or solve.
    pub fn set_screen(&self, screen: &str) -> AppResult<()> {
        if !progress::valid_screen(screen) {
            return Err(AppError::bad_argument(format!(
                "`screen` {:?} is not a screen name (lower-case letters, digits, ':', '-', '_'; at most 40)",
                screen.chars().take(48).collect::<String>()
            )));
        }
        // A game off screen: its clock stops, its hint/solve/analysis is cancelled and its
        // background proof and optimum are parked (`search.rs`, `hide_kind`); the game on
        // screen (again: the page also sends its screen when it becomes visible) goes on.
        for k in Kind::ALL {
            if screen != format!("game:{}", k.as_str()) {
                self.pause(Some(k));
            }
        }
        let s = screen.to_string();
        self.commit(|p| p.screen = s);
        if let Some(k) = screen.strip_prefix("game:").and_then(Kind::parse) {
            self.show(k);
        }
        Ok(())
    }

    pub fn progress(&self) -> ProgressView {
        let mut games = BTreeMap::new();
        for k in Kind::ALL {
            if let Ok(v) = self.snapshot(k) {
                games.insert(k.as_str().to_string(), v.snapshot);
            }
        }
        let journal_notices = self.0.journal.take_notices();
        let journal_error = self.0.journal.error();
        let mut st = self.store();
        st.notices.extend(journal_notices);
        let mut notices = st.notices.clone();
        let error = st.writer.as_ref().and_then(|w| w.error()).or(journal_error);
        // One storage notice while a problem lasts: the journal's own `save_failed` (kept
        // until dismissed) already says it unless saving resumed after it.
        let told = notices
            .iter()
            .rev()
            .find(|n| n.code == "save_failed" || n.code == "saving_resumed")
            .is_some_and(|n| n.code == "save_failed");
        if let (Some(e), false) = (&error, told) {
            notices.push(Notice::warning(
                "save_failed",
                format!("progress could not be saved: {e}"),
            ));
        }
        ProgressView {
            settings: st.progress.settings.clone(),
            records: st.progress.records.clone(),
            unlocked: st.progress.unlocked.clone(),
            streaks: st.progress.streaks.clone(),
            games,
            screen: st.progress.screen.clone(),
            today: self.today(),
            notices,
            storage: StorageView {
                dir: st.paths.as_ref().map(|p| p.dir.display().to_string()),
                writable: st.writer.is_some(),
                gen: st.gen,
                durable: st.writer.as_ref().map_or(0, |w| w.durable()),
                error,
            },
            quarantined: st.progress.quarantine.len(),
        }
    }

    /// How many numbered levels of `kind` are open by wins (Klotski classics, in order).
    pub fn unlocked(&self, kind: Kind) -> u32 {
        self.store()
            .progress
            .unlocked
            .get(kind.as_str())
            .copied()
            .unwrap_or(FIRST_UNLOCKED)
    }

    pub fn record(&self, key: &str) -> Option<Record> {
        self.store().progress.records.get(key).cloned()
    }

    pub fn dismiss_notices(&self) {
        self.store().notices.clear();
    }
}

impl crate::games::Player for AppState {
    fn record(&self, key: &str) -> Option<Record> {
        AppState::record(self, key)
    }
    fn unlocked(&self, kind: Kind) -> u32 {
        AppState::unlocked(self, kind)
    }
    fn has_custom_picture(&self) -> bool {
        AppState::has_custom_picture(self)
    }
}

impl AppState {
    /// `levels {kind}`: the level list with the player's bests under the current rule.
    pub fn levels(&self, kind: Kind) -> AppResult<serde_json::Value> {
        let rule = self.settings().rule(kind.as_str()).to_string();
        Ok(crate::games::levels(self, kind, &rule))
    }
}
