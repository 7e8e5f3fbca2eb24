//! Every game of the engine's list through the whole Tauri shell (tauri's mock runtime, the
//! real invoke path), the tests' stand-in (Lights Out) among them: a list of the games kept
//! anywhere in the core or the shell that forgot one fails here. For each game: its level
//! list, a game started from its first level, its default rule, a hint played and undone, its
//! slot, and the game back after a restart.

use huarong_engine::{registry, Kind};
use huarong_tests::{TempDir, TestApp};
use serde_json::{json, Value};

/// Starts the first level `levels` lists: by its generator parameters, or by its game ID.
fn start_first_level(app: &TestApp, kind: Kind, levels: &Value) -> Value {
    let first = &levels["levels"][0];
    let view = if let Some(params) = first["params"].as_str() {
        app.ok(
            "new_game",
            json!({"kind": kind.as_str(), "params": params, "seed": 1}),
        )
    } else {
        let id = first["id"]
            .as_str()
            .unwrap_or_else(|| panic!("{kind:?}: {first}"));
        app.ok("open_game", json!({ "id": id }))
    };
    view["snapshot"].clone()
}

#[test]
fn every_game_of_the_engines_list_is_played_through_the_shell() {
    assert!(
        Kind::ALL.iter().any(|k| k.is_stand_in()),
        "the tests build the engine with its stand-in"
    );
    let dir = TempDir::new("every-game");
    let app = TestApp::shell(dir.path(), None);
    let settings = app.ok("get_settings", json!({}));
    let mut ids = Vec::new();
    for kind in Kind::ALL {
        let name = kind.as_str();
        assert_eq!(
            settings["rules"][name],
            registry::rules(kind)[0],
            "{name}: its default rule"
        );
        let levels = app.ok("levels", json!({ "kind": name }));
        assert_eq!(levels["kind"], name, "{levels}");
        let snap = start_first_level(&app, kind, &levels);
        assert_eq!(
            (snap["kind"].as_str(), snap["moves"].as_u64()),
            (Some(name), Some(0))
        );
        assert!(!snap["view"].is_null(), "{name}: the board as data");
        let hint = app.ok("hint", json!({ "kind": name }));
        let played = app.ok("play", json!({ "kind": name, "mv": hint["mv"] }));
        assert!(
            played["snapshot"]["moves"].as_u64() >= Some(1),
            "{name}: {played}"
        );
        let undone = app.ok("undo", json!({ "kind": name }));
        assert_eq!(undone["snapshot"]["moves"], 0, "{name}");
        ids.push((name, snap["id"].clone()));
    }
    let slots = app.ok("list_games", json!({}));
    for (name, id) in &ids {
        assert!(
            slots
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["kind"] == *name && s["id"] == *id),
            "{name}: its slot in {slots}"
        );
    }
    app.close();
    // Every game is back after a restart (its slot, its board).
    let again = TestApp::shell(dir.path(), None);
    for (name, id) in &ids {
        let snap = again.ok("snapshot", json!({ "kind": name }));
        assert_eq!(&snap["snapshot"]["id"], id, "{name}");
    }
    again.close();
}
