//! The player's progress on disk, through the real app (store plugin + last-good copy):
//! missing, truncated, corrupt, emptied, older-format, newer-format and half-written files,
//! and a saved game that no longer replays. The app must never start empty while a damaged
//! file holds the player's records, and must say what it did.

use huarong_core::persist::{self, Paths};
use huarong_tests::{gap_neighbours, store_old_slide_game, TempDir, TestApp};
use serde_json::{json, Value};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The won 3×3's record key: a board given as an ID has a scope of its own.
fn record() -> String {
    let scope = huarong_core::records::scope_of_id("slide:3x3:1,2,3,4,5,6,7,0,8").unwrap();
    format!("{scope}/tile")
}

/// A data folder with a won 3×3 (a record) and a 4×4 in progress (two moves, one undone).
fn played(dir: &Path) {
    let app = TestApp::start(dir, None);
    app.ok("open_game", json!({"id": "slide:3x3:1,2,3,4,5,6,7,0,8"}));
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    app.ok(
        "open_game",
        json!({"id": "slide:4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15"}),
    );
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 14}}));
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 10}}));
    app.ok("undo", json!({"kind": "slide"}));
    app.ok("set_screen", json!({"screen": "game:slide"}));
    app.close();
}

/// A fresh data folder tagged `tag` with [`played`] data, and its store paths.
fn played_dir(tag: &str) -> (TempDir, Paths) {
    let dir = TempDir::new(tag);
    played(dir.path());
    let paths = Paths::new(dir.path());
    (dir, paths)
}

fn assert_intact(app: &TestApp) {
    let p = app.ok("get_progress", json!({}));
    assert_eq!(
        p["records"][record().as_str()]["best_moves"],
        1,
        "the record survived: {p}"
    );
    assert_eq!(p["screen"], "game:slide");
    let s = app.ok("snapshot", json!({"kind": "slide"}));
    assert_eq!(
        s["snapshot"]["board"],
        "4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,0,14,15"
    );
    assert_eq!(s["snapshot"]["can_redo"], true, "the undo history survived");
}

/// Start the app on `dir`, check the played data came back ([`assert_intact`]), close it,
/// and return the start's notices.
fn restart_intact(dir: &Path) -> Vec<String> {
    let app = TestApp::start(dir, None);
    let n = notices(&app);
    assert_intact(&app);
    app.close();
    n
}

fn notices(app: &TestApp) -> Vec<String> {
    let p = app.ok("get_progress", json!({}));
    p["notices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["code"].as_str().unwrap().to_string())
        .collect()
}

fn aside(dir: &Path, tag: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().contains(tag))
        .collect();
    v.sort();
    v
}

#[test]
fn missing_files_start_fresh_and_both_copies_appear() {
    let dir = TempDir::new("persist-missing");
    let app = TestApp::start(dir.path(), None);
    assert!(notices(&app).is_empty());
    let p = app.ok("get_progress", json!({}));
    assert_eq!(p["screen"], "home");
    assert!(p["records"].as_object().unwrap().is_empty());
    app.ok(
        "new_game",
        json!({"kind": "slide", "params": "3x3", "seed": 1}),
    );
    app.close();
    let paths = Paths::new(dir.path());
    let (store, _) = persist::decode(&fs::read(&paths.store).unwrap()).unwrap();
    let (good, _) = persist::decode(&fs::read(&paths.good).unwrap()).unwrap();
    assert_eq!(store, good);
    // Games live in the journal's folder; the store keeps which slot is current.
    assert!(store.progress.games.is_empty(), "no move logs in the store");
    assert_eq!(store.progress.current["slide"], "slide:3x3");
    assert!(fs::read_dir(dir.path().join("games")).unwrap().count() > 0);
    // The primary is the store plugin's file: one "save" key holding the envelope.
    let raw: Value = serde_json::from_slice(&fs::read(&paths.store).unwrap()).unwrap();
    assert_eq!(raw.as_object().unwrap().len(), 1);
    assert_eq!(raw["save"]["schema"], huarong_core::progress::SCHEMA);
}

#[test]
fn a_truncated_or_emptied_store_file_is_kept_aside_and_the_good_copy_restored() {
    for cut in ["half", "empty", "one-byte"] {
        let (dir, paths) = played_dir("persist-trunc");
        let bytes = fs::read(&paths.store).unwrap();
        let cut_bytes = match cut {
            "half" => bytes[..bytes.len() / 2].to_vec(),
            "empty" => Vec::new(),
            _ => bytes[..1].to_vec(),
        };
        fs::write(&paths.store, &cut_bytes).unwrap();
        let n = restart_intact(dir.path());
        assert!(
            n.contains(&"restored".to_string()) && n.contains(&"kept_aside".to_string()),
            "{cut}: {n:?}"
        );
        let kept = aside(dir.path(), "huarong.json.corrupt-");
        assert_eq!(kept.len(), 1, "{cut}");
        assert_eq!(
            fs::read(&kept[0]).unwrap(),
            cut_bytes,
            "{cut}: the damaged file is kept as it was"
        );
        // Repaired: the next start is quiet.
        assert!(restart_intact(dir.path()).is_empty(), "{cut}");
    }
}

#[test]
fn a_corrupt_store_file_fails_its_checksum_and_the_good_copy_wins() {
    let (dir, paths) = played_dir("persist-corrupt");
    // Still valid JSON, but a record edited behind the checksum's back.
    let text = fs::read_to_string(&paths.store).unwrap();
    let tampered = text.replacen("\"best_moves\":1", "\"best_moves\":0", 1);
    assert_ne!(text, tampered);
    fs::write(&paths.store, tampered).unwrap();
    assert!(restart_intact(dir.path()).contains(&"restored".to_string()));
    // Garbage that is not JSON at all.
    fs::write(&paths.store, b"\x00\xff{{{ not json").unwrap();
    assert!(restart_intact(dir.path()).contains(&"restored".to_string()));
}

#[test]
fn a_damaged_good_copy_is_replaced_from_the_store_file() {
    let (dir, paths) = played_dir("persist-good");
    let bytes = fs::read(&paths.good).unwrap();
    fs::write(&paths.good, &bytes[..bytes.len() - 3]).unwrap();
    let n = restart_intact(dir.path());
    assert!(
        n.contains(&"kept_aside".to_string()) && !n.contains(&"restored".to_string()),
        "{n:?}"
    );
    assert!(
        persist::decode(&fs::read(&paths.good).unwrap()).is_ok(),
        "a fresh good copy was written"
    );
}

#[test]
fn both_copies_damaged_start_empty_but_keep_both_files() {
    let (dir, paths) = played_dir("persist-both");
    fs::write(&paths.store, b"{\"save\": {\"sch").unwrap();
    fs::write(&paths.good, b"").unwrap();
    let app = TestApp::start(dir.path(), None);
    let n = notices(&app);
    assert_eq!(n.iter().filter(|c| *c == "kept_aside").count(), 2, "{n:?}");
    // Both store copies are lost, but the games are in the journal: the won 3×3 game's record
    // is healed from its finished slot, and the 4×4 game in progress is still there.
    let p = app.ok("get_progress", json!({}));
    let records = p["records"].as_object().unwrap();
    assert_eq!(records.len(), 1, "only the healed record: {p}");
    assert_eq!(p["records"][record().as_str()]["best_moves"], 1, "{p}");
    let games = app.ok("list_games", json!({}));
    assert_eq!(games.as_array().map(Vec::len), Some(2), "{games}");
    app.ok("new_game", json!({"kind": "2048", "seed": 1}));
    app.close();
    // The damaged files are still there, untouched by the new saves.
    assert_eq!(
        fs::read(&aside(dir.path(), "huarong.json.corrupt-")[0]).unwrap(),
        b"{\"save\": {\"sch"
    );
    assert_eq!(aside(dir.path(), "huarong.good.json.corrupt-").len(), 1);
}

#[test]
fn a_good_copy_newer_than_the_store_file_wins_quietly() {
    // A kill between writing the good copy and the plugin's save leaves the store file one
    // save behind: the newer good copy is the state to resume, and nothing is damaged.
    let (dir, paths) = played_dir("persist-newer-good");
    let old_store = fs::read(&paths.store).unwrap();
    let app = TestApp::start(dir.path(), None);
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 13}}));
    app.close();
    fs::write(&paths.store, old_store).unwrap();
    let app = TestApp::start(dir.path(), None);
    assert!(notices(&app).is_empty(), "{:?}", notices(&app));
    let s = app.ok("snapshot", json!({"kind": "slide"}));
    assert_eq!(
        s["snapshot"]["board"],
        "4x4:1,2,3,4,5,6,7,8,9,10,11,12,0,13,14,15"
    );
    app.close();
}

#[test]
fn a_v0_file_is_migrated_with_a_backup() {
    let dir = TempDir::new("persist-v0");
    let saved = json!({
        "version": 1, "id": "slide:3x3:1,2,3,4,0,5,7,8,6", "log": [{"t": "move", "m": {"tile": 5}}],
        "cursor": 1, "elapsed_ms": 1234
    });
    let v0 = json!({
        "settings": {"lang": "zh", "haptics": false, "theme": "dark", "slideCount": "line"},
        "best": {"slide:4x4": {"moves": 80, "ms": 61000}, "2048": {"score": 20000, "tile": 2048}},
        "saved": {"slide": saved},
        "klotskiUnlocked": 5,
        "screen": "game:slide"
    });
    let raw = serde_json::to_vec_pretty(&v0).unwrap();
    fs::write(Paths::new(dir.path()).store, &raw).unwrap();
    let app = TestApp::start(dir.path(), None);
    assert!(notices(&app).contains(&"migrated".to_string()));
    let p = app.ok("get_progress", json!({}));
    assert_eq!(p["settings"]["language"], "zh");
    assert_eq!(p["settings"]["haptics"], false);
    assert_eq!(p["settings"]["rules"]["slide"], "line");
    assert_eq!(p["records"]["slide:4x4/tile"]["best_moves"], 80);
    assert_eq!(p["records"]["2048/moves"]["best_score"], 20000);
    assert_eq!(p["unlocked"]["klotski"], 5);
    assert_eq!(p["screen"], "game:slide");
    let s = app.ok("snapshot", json!({"kind": "slide"}));
    assert_eq!(s["snapshot"]["board"], "3x3:1,2,3,4,5,0,7,8,6");
    assert_eq!(s["snapshot"]["elapsed_ms"], 1234);
    app.close();
    assert_eq!(
        fs::read(dir.path().join("huarong.schema-0.bak.json")).unwrap(),
        raw
    );
    let (doc, from) = persist::decode(&fs::read(Paths::new(dir.path()).store).unwrap()).unwrap();
    assert_eq!(
        from,
        huarong_core::progress::SCHEMA,
        "the store file is now of the current schema"
    );
    assert_eq!(doc.progress.unlocked["klotski"], 5);
}

#[test]
fn a_file_from_a_newer_app_is_kept_not_overwritten() {
    let (dir, paths) = played_dir("persist-future");
    let future = json!({"save": {"schema": 99, "gen": 1000, "checksum": "x", "progress": {}}});
    fs::write(&paths.store, serde_json::to_vec(&future).unwrap()).unwrap();
    let app = TestApp::start(dir.path(), None);
    assert!(notices(&app).contains(&"kept_aside".to_string()));
    assert_intact(&app);
    app.close();
    let kept = aside(dir.path(), "huarong.json.newer-");
    assert_eq!(kept.len(), 1);
    assert_eq!(
        serde_json::from_slice::<Value>(&fs::read(&kept[0]).unwrap()).unwrap(),
        future
    );
}

#[test]
fn a_saved_game_that_no_longer_replays_is_quarantined_not_dropped() {
    let (dir, paths) = played_dir("persist-quarantine");
    // A file of the earlier layout (one game per kind in the progress, no games folder)
    // whose game no longer replays: tile 1 is not next to the blank.
    fs::remove_dir_all(dir.path().join("games")).unwrap();
    let game = json!({"version": 1, "id": "slide:3x3:1,2,3,4,5,6,7,0,8",
        "log": [{"t": "move", "m": {"tile": 1}}], "cursor": 1, "elapsed_ms": 5});
    store_old_slide_game(dir.path(), &game, |doc| doc.progress.current.clear());
    let app = TestApp::start(dir.path(), None);
    assert!(notices(&app).contains(&"game_not_resumed".to_string()));
    let p = app.ok("get_progress", json!({}));
    assert_eq!(p["records"][record().as_str()]["best_moves"], 1);
    assert_eq!(p["quarantined"], 1);
    assert_eq!(app.err("snapshot", json!({"kind": "slide"})), "no_game");
    app.close();
    let (doc, _) = persist::decode(&fs::read(&paths.store).unwrap()).unwrap();
    assert_eq!(
        doc.progress.quarantine.len(),
        1,
        "the broken game is still in the file"
    );
}

#[test]
fn leftover_temp_files_are_ignored() {
    let dir = TempDir::new("persist-tmp");
    played(dir.path());
    fs::write(dir.path().join("huarong.good.json.tmp"), b"{\"half").unwrap();
    let app = TestApp::start(dir.path(), None);
    assert!(notices(&app).is_empty());
    assert_intact(&app);
    app.close();
    assert!(!dir.path().join("huarong.good.json.tmp").exists());
}

#[test]
fn huarong_data_dir_redirects_the_data() {
    let dir = TempDir::new("persist-env");
    // Only this test in this binary reads the variable.
    std::env::set_var(persist::ENV_DIR, dir.path());
    let launch = huarong_app_lib::Launch::from_env();
    std::env::remove_var(persist::ENV_DIR);
    assert_eq!(launch.data_dir.as_deref(), Some(dir.path()));
}

/// tauri-plugin-store 2.5 saves every store it holds from its in-memory cache on
/// `RunEvent::Exit` (plugin `on_event`: `store.save()` = `fs::write`, in place, no fsync), and
/// a dropped store applies a pending auto-save (the app builds its store with auto-save
/// off). The cache only ever holds what the saver put there, after the good copy of the same
/// or a newer state was durable — so that exit save can never bring back older data, and a
/// kill in the middle of it leaves the good copy to restore from. Both are checked here by
/// running exactly the plugin's exit save after the app's own shutdown.
#[test]
fn the_plugins_exit_save_never_brings_back_older_data() {
    use tauri_plugin_store::StoreExt;
    let dir = TempDir::new("persist-exit-save");
    let paths = Paths::new(dir.path());
    let app = TestApp::shell(dir.path(), None);
    for screen in ["settings", "levels:klotski", "game:slide"] {
        app.ok("set_screen", json!({ "screen": screen }));
    }
    let st = app.state();
    assert!(st.flush(std::time::Duration::from_secs(20)));
    st.shutdown();
    // What the plugin does on exit, after our shutdown.
    let store = app
        .tauri()
        .get_store(&paths.store)
        .expect("the app's store is open");
    store.save().expect("exit save");
    let exit_bytes = fs::read(&paths.store).unwrap();
    drop(store);
    drop(app);
    let app = TestApp::start(dir.path(), None);
    assert_eq!(app.ok("get_progress", json!({}))["screen"], "game:slide");
    assert!(notices(&app).is_empty(), "{:?}", notices(&app));
    app.close();
    // A kill half-way through the exit save: the good copy restores the newest state.
    fs::write(&paths.store, &exit_bytes[..exit_bytes.len() / 2]).unwrap();
    let app = TestApp::start(dir.path(), None);
    assert_eq!(app.ok("get_progress", json!({}))["screen"], "game:slide");
    assert!(
        notices(&app).contains(&"restored".to_string()),
        "{:?}",
        notices(&app)
    );
    app.close();
}

/// A tile next to the gap of the slide in `view` (walking round the gap with `i`).
fn a_neighbour_of_the_gap(view: &Value, i: usize) -> u64 {
    let next = gap_neighbours(&view["snapshot"]);
    next[i % next.len()]
}

fn file_id(p: &Path) -> (u64, std::time::SystemTime, u64) {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(p).unwrap();
    (m.ino(), m.modified().unwrap(), m.len())
}

fn folder_bytes(p: &Path) -> u64 {
    std::fs::read_dir(p)
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum()
}

/// Issue 13 at the command layer: after a game's first move, a move through `play` writes
/// its journal record and nothing else — neither progress file is rewritten, and the games
/// folder grows by a few hundred bytes per move on a 10×10 board, not by the game's size.
#[test]
fn a_move_writes_its_journal_record_and_nothing_else() {
    let d = TempDir::new("per-move");
    let app = TestApp::start(d.path(), None);
    let mut v = app.ok(
        "new_game",
        json!({"kind": "slide", "params": "10x10", "seed": 3}),
    );
    // The first move counts a play (a progress write); the rest must not write it.
    v = app.ok(
        "play",
        json!({"kind": "slide", "mv": {"tile": a_neighbour_of_the_gap(&v, 0)}}),
    );
    assert!(app.state().flush(Duration::from_secs(10)), "saved");
    let store = d.path().join(huarong_core::persist::STORE_FILE);
    let good = d.path().join(huarong_core::persist::GOOD_FILE);
    let games = d.path().join(huarong_core::journal::GAMES_DIR);
    let (store0, good0, games0) = (file_id(&store), file_id(&good), folder_bytes(&games));
    const MOVES: usize = 400;
    for i in 1..=MOVES {
        v = app.ok(
            "play",
            json!({"kind": "slide", "mv": {"tile": a_neighbour_of_the_gap(&v, i * 7)}}),
        );
        assert_eq!(v["snapshot"]["status"], "playing");
    }
    assert!(app.state().flush(Duration::from_secs(10)), "saved");
    assert_eq!(
        file_id(&store),
        store0,
        "the store file was rewritten by a move"
    );
    assert_eq!(
        file_id(&good),
        good0,
        "the good copy was rewritten by a move"
    );
    let grown = folder_bytes(&games).saturating_sub(games0);
    let per_move = grown / MOVES as u64;
    eprintln!(
        "10×10: the games folder grew {grown} bytes over {MOVES} moves ({per_move} per move)"
    );
    assert!(per_move < 400, "{per_move} bytes per move");
    assert!(grown > 0, "the moves were journalled");
    app.close();
}
