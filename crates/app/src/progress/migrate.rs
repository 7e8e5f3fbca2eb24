//! Migrations from every earlier schema to [`SCHEMA`] (the history is in the `progress`
//! module comment).

use super::{rules_of, Progress, Record, SavedGame, SCHEMA};
use serde_json::{json, Map, Value};

/// The schema of a decoded top-level file object: `save.schema`, or 0 for the flat v0 layout.
pub fn schema_of(file: &Map<String, Value>) -> Option<u32> {
    match file.get("save") {
        Some(save) => save
            .get("schema")
            .and_then(Value::as_u64)
            .and_then(|v| u32::try_from(v).ok()),
        // Without `"save"` it is v0 only if it holds what v0 files hold (or nothing): a later
        // file whose `"save"` key was damaged would otherwise read as an empty v0 save and
        // lose the player's records without a word.
        None if file.is_empty() || V0_KEYS.iter().any(|k| file.contains_key(*k)) => Some(0),
        None => None,
    }
}

/// The top-level keys of a v0 file (see [`v0_to_v1`]).
const V0_KEYS: [&str; 5] = ["settings", "best", "saved", "klotskiUnlocked", "screen"];

/// Bring an envelope of any earlier schema up to [`SCHEMA`]: one step per version, applied in
/// order. Input is the whole top-level object of the file; output is the `"save"` envelope of
/// the current schema **without** gen/checksum checks (the caller verified those for v ≥ 1).
pub fn migrate(mut file: Map<String, Value>) -> Result<(Value, u32), String> {
    let from = schema_of(&file).ok_or("the save has no readable schema number")?;
    if from > SCHEMA {
        return Err(format!(
            "written by a newer version of the app (schema {from}, this one reads up to {SCHEMA})"
        ));
    }
    let mut envelope = match from {
        0 => v0_to_v1(&file)?,
        _ => file.remove("save").ok_or("no save")?,
    };
    // v1 → v2: the same data; the statistics' recent rows read as pairs (`stats::Recent`).
    if envelope.get("schema").and_then(Value::as_u64) == Some(1) {
        envelope["schema"] = json!(2);
    }
    // Later steps go here: `if version == 2 { envelope = v2_to_v3(envelope)?; }` …
    let version = envelope.get("schema").and_then(Value::as_u64).unwrap_or(0) as u32;
    if version != SCHEMA {
        return Err(format!(
            "migration ended at schema {version}, expected {SCHEMA}"
        ));
    }
    if let Some(obj) = envelope.as_object_mut() {
        // A migrated progress must still parse as the current layout.
        let p: Progress = serde_json::from_value(obj.remove("progress").unwrap_or(json!({})))
            .map_err(|e| format!("progress does not match schema {SCHEMA}: {e}"))?;
        obj.insert(
            "progress".into(),
            serde_json::to_value(p).map_err(|e| e.to_string())?,
        );
    }
    Ok((envelope, from))
}

/// v0 → v1. v0 (see the `progress` module comment):
/// ```json
/// { "settings": { "lang": "zh", "haptics": true, "sound": true, "theme": "dark",
///                 "slideCount": "tile", "klotskiCount": "piece" },
///   "best":   { "slide:4x4": { "moves": 80, "ms": 61000 }, "klotski:1": { "moves": 81, "ms": 90000 },
///               "2048": { "score": 20000, "tile": 2048 } },
///   "saved":  { "slide": <SavedSession JSON>, … },
///   "klotskiUnlocked": 3,
///   "screen": "game:slide" }
/// ```
/// v0 bests carry no rule: they were counted under the default rule of their game, which
/// is the rule the v1 record gets. Unknown keys are ignored; wrong types become defaults.
fn v0_to_v1(file: &Map<String, Value>) -> Result<Value, String> {
    let mut p = Progress::default();
    if let Some(s) = file.get("settings").and_then(Value::as_object) {
        if let Some(l) = s.get("lang").and_then(Value::as_str) {
            p.settings.language = l.to_string();
        }
        if let Some(h) = s.get("haptics").and_then(Value::as_bool) {
            p.settings.haptics = h;
        }
        if let Some(h) = s.get("sound").and_then(Value::as_bool) {
            p.settings.sound = h;
        }
        if let Some(t) = s.get("theme").and_then(Value::as_str) {
            p.settings.theme = t.to_string();
        }
        for (key, kind) in [("slideCount", "slide"), ("klotskiCount", "klotski")] {
            if let Some(r) = s.get(key).and_then(Value::as_str) {
                p.settings.rules.insert(kind.into(), r.to_string());
            }
        }
    }
    if let Some(best) = file.get("best").and_then(Value::as_object) {
        for (scope, b) in best {
            let kind = scope.split(':').next().unwrap_or("");
            let Some(rule) = rules_of(kind).first() else {
                continue;
            };
            let num = |k: &str| b.get(k).and_then(Value::as_u64);
            let rec = Record {
                rule: rule.to_string(),
                best_moves: num("moves").and_then(|m| u32::try_from(m).ok()),
                best_time_ms: num("ms"),
                best_score: num("score"),
                best_tile: num("tile"),
                wins: 1,
                ..Record::default()
            };
            p.records.insert(format!("{scope}/{rule}"), rec);
        }
    }
    if let Some(saved) = file.get("saved").and_then(Value::as_object) {
        for (kind, s) in saved {
            if !rules_of(kind).is_empty() {
                p.games.insert(kind.clone(), SavedGame::from_value(s));
            }
        }
    }
    if let Some(n) = file.get("klotskiUnlocked").and_then(Value::as_u64) {
        p.unlocked.insert("klotski".into(), n.min(10_000) as u32);
    }
    if let Some(s) = file.get("screen").and_then(Value::as_str) {
        p.screen = s.to_string();
    }
    p.sanitize();
    Ok(json!({ "schema": 1, "progress": serde_json::to_value(p).map_err(|e| e.to_string())? }))
}
