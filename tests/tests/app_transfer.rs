//! Progress that moves (`export_progress`, `import_progress`) and the history out
//! (`export_history`), through the command table: two data folders with overlapping
//! records, games, streaks and friends are exported and imported each way and both hold
//! everything of both; a second import changes nothing; a damaged, cut or newer file is
//! refused with a typed error and the folder is byte-identical after; the CSV of 30 finishes
//! reads with Python's `csv` module as the records' history.

use huarong_engine::Kind;
use huarong_tests::{daily_result_code, solve_slide, todays_slide_daily, TempDir, TestApp};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Duration;

/// Win the number slide `slide:3x3#<seed>` with the solver's line.
fn win_3x3(app: &TestApp, seed: u64) {
    let id = format!("slide:3x3#{seed}");
    app.ok("open_game", json!({ "id": id, "replace": true }));
    let (moves, _) = solve_slide(&id);
    let mut last = Value::Null;
    for mv in moves {
        last = app.ok("play", json!({ "kind": "slide", "mv": mv }));
    }
    assert_eq!(last["snapshot"]["status"], "won", "{last}");
}

/// A 4x4 number slide in progress with `n` moves (new-game slot `slide:4x4`).
fn game_in_progress(app: &TestApp, seed: u64, n: usize) -> String {
    let snap =
        app.new_game(json!({ "kind": "slide", "params": "4x4", "seed": seed, "replace": true }));
    let mut snap = snap;
    let mut last_tile = None;
    for _ in 0..n {
        let tiles = huarong_tests::gap_neighbours(&snap);
        let t = *tiles.iter().find(|t| Some(**t) != last_tile).unwrap();
        snap = app.snap("play", json!({ "kind": "slide", "mv": { "tile": t } }));
        last_tile = Some(t);
    }
    snap["id"].as_str().unwrap().to_string()
}

fn history(app: &TestApp, scope: &str) -> Vec<(Value, Value, Value)> {
    let r = app.ok("records", json!({ "scope": scope }));
    r["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["date"].clone(), e["moves"].clone(), e["ms"].clone()))
        .collect()
}

/// Every game as (game ID, moves).
fn games(app: &TestApp) -> BTreeSet<(String, u64)> {
    app.ok("list_games", json!({}))
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["id"].as_str().unwrap().to_string(),
                g["moves"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn friend_names(app: &TestApp, daily: u32) -> BTreeSet<String> {
    app.ok("friends", json!({ "daily": daily, "kind": "slide" }))
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["me"] != json!(true))
        .map(|l| l["name"].as_str().unwrap_or("").to_string())
        .collect()
}

/// Every file under `dir` with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let bytes = std::fs::read(&p).unwrap();
                out.insert(p.strip_prefix(dir).unwrap().display().to_string(), bytes);
            }
        }
    }
    out
}

fn settle(app: &TestApp) {
    assert!(app.state().flush(Duration::from_secs(20)), "saved");
}

fn import(app: &TestApp, data: &str) -> Value {
    let r = app.ok("import_progress", json!({ "data": data }));
    settle(app);
    r
}

#[test]
fn two_devices_merge_each_way_and_lose_nothing() {
    let (da, db) = (TempDir::new("transfer-a"), TempDir::new("transfer-b"));
    let a = TestApp::start(da.path(), None);
    let b = TestApp::start(db.path(), None);
    let (n, daily_id, _, count) = todays_slide_daily(&a);

    // A: three wins, a game in progress, a friend, two days of the daily solved.
    for seed in [1, 2, 3] {
        win_3x3(&a, seed);
    }
    let a_game = game_in_progress(&a, 11, 1);
    let ann = daily_result_code(&daily_id, n, Some("Ann"), count + 4, 90_000, None);
    a.ok("open_game", json!({ "id": ann, "replace": true }));
    a.state().record_daily(Kind::Slide, "2026-03-01").unwrap();
    a.state().record_daily(Kind::Slide, "2026-03-02").unwrap();
    settle(&a);

    // B takes A's file first (so the two share rows), then plays on its own.
    let a_first = a.ok("export_progress", json!({}));
    assert!(a_first["file_name"]
        .as_str()
        .unwrap()
        .starts_with("huarong-progress-"));
    let got = import(&b, a_first["data"].as_str().unwrap());
    // slide:3x3 (three wins) and slide:4x4 (a play); three won games, the 4x4 and the daily.
    assert_eq!(got["records"], 2, "{got}");
    assert_eq!(got["games"], 5, "{got}");
    assert_eq!(got["friends"], 1, "{got}");
    assert_eq!(got["streaks"], 1, "{got}");
    for seed in [4, 5] {
        win_3x3(&b, seed);
    }
    // The same slot as A's game, played later on B.
    let b_game = game_in_progress(&b, 12, 2);
    let bob = daily_result_code(&daily_id, n, Some("Bob"), count + 2, 80_000, None);
    b.ok("open_game", json!({ "id": bob, "replace": true }));
    b.state().record_daily(Kind::Slide, "2026-03-03").unwrap();
    settle(&b);
    assert!(
        !games(&b).contains(&(a_game.clone(), 1)),
        "B replaced A's game"
    );

    let (ha, hb) = (history(&a, "slide:3x3"), history(&b, "slide:3x3"));
    assert_eq!((ha.len(), hb.len()), (3, 5));
    let (ga, gb) = (games(&a), games(&b));
    let fa = a.ok("export_progress", json!({}))["data"]
        .as_str()
        .unwrap()
        .to_string();
    let fb = b.ok("export_progress", json!({}))["data"]
        .as_str()
        .unwrap()
        .to_string();

    let got_a = import(&a, &fb);
    let got_b = import(&b, &fa);
    assert_eq!(got_a["records"], 2, "{got_a}");
    assert_eq!(got_a["games"], 3, "B's two wins and its 4x4 game: {got_a}");
    assert_eq!(got_a["friends"], 1, "Bob: {got_a}");
    assert_eq!(got_a["streaks"], 1, "{got_a}");
    assert_eq!(got_b["games"], 1, "A's 4x4 game back on B: {got_b}");

    for (name, app) in [("A", &a), ("B", &b)] {
        // Every finish of both, once.
        let h = history(app, "slide:3x3");
        assert_eq!(h.len(), 5, "{name}: {h:?}");
        let rows: BTreeSet<String> = h.iter().map(|r| format!("{r:?}")).collect();
        for r in ha.iter().chain(&hb) {
            assert!(rows.contains(&format!("{r:?}")), "{name} lacks {r:?}");
        }
        let rec = app.ok("records", json!({ "scope": "slide:3x3" }));
        assert_eq!(rec["wins"], 5, "{name}: {rec}");
        // Every game of both.
        let g = games(app);
        for x in ga.iter().chain(&gb) {
            assert!(g.contains(x), "{name} lacks the game {x:?}: {g:?}");
        }
        assert!(g.contains(&(a_game.clone(), 1)) && g.contains(&(b_game.clone(), 2)));
        // Both friends; the streak of the joined days.
        assert_eq!(
            friend_names(app, n),
            BTreeSet::from(["Ann".to_string(), "Bob".to_string()]),
            "{name}"
        );
        let p = app.ok("get_progress", json!({}));
        assert!(
            p["streaks"]["slide"]["best"].as_u64().unwrap() >= 3,
            "{name}: {}",
            p["streaks"]
        );
    }
    // The game played last keeps the slot on both.
    for app in [&a, &b] {
        let list = app.ok("list_games", json!({}));
        let in_slot = list
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["slot"] == "slide:4x4")
            .unwrap();
        assert_eq!(in_slot["id"], json!(b_game));
    }

    // The same file again: nothing changes, nothing is written.
    for (app, dir, file) in [(&a, &da, &fb), (&b, &db, &fa)] {
        let before = files(dir.path());
        let again = import(app, file);
        assert_eq!(
            again,
            json!({"records": 0, "games": 0, "streaks": 0, "friends": 0, "unlocked": 0, "settings": 0})
        );
        assert!(files(dir.path()) == before, "a second import wrote");
    }

    // After a restart everything is still there.
    let ga2 = games(&a);
    a.close();
    let a = TestApp::start(da.path(), None);
    assert_eq!(games(&a), ga2);
    assert_eq!(history(&a, "slide:3x3").len(), 5);
    assert_eq!(friend_names(&a, n).len(), 2);
    a.close();
    b.close();
}

#[test]
fn a_damaged_cut_or_newer_file_is_refused_and_nothing_changes() {
    let (dir, app) = huarong_tests::fresh_app("transfer-bad");
    for seed in [1, 2] {
        win_3x3(&app, seed);
    }
    game_in_progress(&app, 7, 1);
    settle(&app);
    let good = app.ok("export_progress", json!({}))["data"]
        .as_str()
        .unwrap()
        .to_string();
    // A file of another device, to be refused in every damaged form.
    let other = TempDir::new("transfer-other");
    let o = TestApp::start(other.path(), None);
    win_3x3(&o, 9);
    settle(&o);
    let theirs = o.ok("export_progress", json!({}))["data"]
        .as_str()
        .unwrap()
        .to_string();
    o.close();
    let before = files(dir.path());
    let mut flipped = theirs.clone().into_bytes();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0x04;
    let flipped = String::from_utf8(flipped).unwrap();
    let newer = theirs.replacen("\"version\":1,", "\"version\":2,", 1);
    assert_ne!(newer, theirs);
    for (what, text, code) in [
        (
            "cut short",
            theirs[..theirs.len() * 2 / 3].to_string(),
            "corrupt_save",
        ),
        (
            "the last byte cut",
            theirs[..theirs.len() - 1].to_string(),
            "corrupt_save",
        ),
        ("one byte flipped", flipped, "corrupt_save"),
        ("a newer version", newer, "unsupported_version"),
        (
            "another app's JSON",
            "{\"version\":1,\"items\":[1,2]}".to_string(),
            "parse",
        ),
        ("not JSON", "hello".to_string(), "parse"),
    ] {
        assert_eq!(
            app.err("import_progress", json!({ "data": text })),
            code,
            "{what}"
        );
        settle(&app);
        assert!(
            files(dir.path()) == before,
            "{what}: the data folder changed"
        );
    }
    // The good file still imports.
    let got = import(&app, &theirs);
    assert_eq!(got["records"], 1, "{got}");
    assert_eq!(history(&app, "slide:3x3").len(), 3);
    // And this device's own file is nothing new here.
    let own = import(&app, &good);
    assert_eq!(own["records"], 0);
    assert_eq!(own["games"], 0);
    app.close();
}

#[test]
fn thirty_finishes_read_as_csv_like_the_records() {
    let (_dir, app) = huarong_tests::fresh_app("transfer-csv");
    for seed in 1..=30 {
        win_3x3(&app, seed);
    }
    let out = app.ok("export_history", json!({ "format": "csv" }));
    assert!(out["file_name"].as_str().unwrap().ends_with(".csv"));
    let csv = out["data"].as_str().unwrap();
    let rec = app.ok("records", json!({ "scope": "slide:3x3" }));
    let hist: Vec<(u64, u64)> = rec["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["moves"].as_u64().unwrap(), e["ms"].as_u64().unwrap()))
        .collect();
    assert_eq!(hist.len(), 30);
    let script = r#"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")))
print(json.dumps([[r["game"], r["scope"], r["game_id"], int(r["moves"]), int(r["time_ms"]), r["rule"], r["result_code"]] for r in rows]))
"#;
    let path = std::env::temp_dir().join(format!("huarong-history-{}.csv", std::process::id()));
    std::fs::write(&path, csv).unwrap();
    let py = std::process::Command::new("python3")
        .args(["-c", script, path.to_str().unwrap()])
        .output()
        .expect("python3 runs");
    let _ = std::fs::remove_file(&path);
    assert!(
        py.status.success(),
        "{}",
        String::from_utf8_lossy(&py.stderr)
    );
    let rows: Vec<(String, String, String, u64, u64, String, String)> =
        serde_json::from_slice(&py.stdout).expect("python's rows");
    assert_eq!(rows.len(), 30);
    let got: Vec<(u64, u64)> = rows.iter().map(|r| (r.3, r.4)).collect();
    assert_eq!(got, hist, "moves and times as the records' history");
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(
            (r.0.as_str(), r.1.as_str(), r.5.as_str()),
            ("slide", "slide:3x3", "tile")
        );
        assert_eq!(r.2, format!("slide:3x3#{}", i + 1), "the game ID");
        assert!(!r.6.is_empty(), "a result code with the log");
    }
    // A result code of the CSV opens as a verified result.
    let decoded = app.ok("decode_code", json!({ "text": rows[0].6 }));
    assert_eq!(decoded["verified"], true, "{decoded}");
    assert_eq!(
        app.err("export_history", json!({ "format": "xlsx" })),
        "bad_argument"
    );
    app.close();
}

/// `export_progress {share: true}` hands the same file to the platform's share service (the
/// desktop saves it beside the cards; phones open the share sheet with it).
#[test]
fn the_export_goes_through_the_share_path() {
    let dir = TempDir::new("transfer-share");
    let out = TempDir::new("transfer-share-out");
    let share = std::sync::Arc::new(huarong_core::platform::native::SaveTo {
        dir: out.path().to_path_buf(),
    });
    let app = TestApp::start_with_share(dir.path(), share);
    win_3x3(&app, 1);
    let r = app.ok("export_progress", json!({ "share": true }));
    let saved = r["share"]["saved"].as_str().expect("a saved file");
    assert!(saved.ends_with(".json"), "{saved}");
    assert_eq!(
        std::fs::read_to_string(saved).unwrap(),
        r["data"].as_str().unwrap()
    );
    assert_eq!(
        Path::new(saved).file_name().unwrap().to_str().unwrap(),
        r["file_name"].as_str().unwrap()
    );
    // The history's CSV goes the same way.
    let csv = app.ok("export_history", json!({ "format": "csv", "share": true }));
    let saved = csv["share"]["saved"].as_str().expect("a saved CSV");
    assert!(saved.ends_with(".csv"), "{saved}");
    assert_eq!(
        std::fs::read_to_string(saved).unwrap(),
        csv["data"].as_str().unwrap()
    );
    // Without a share service the export still answers; sharing is refused, typed.
    let (_d, plain) = huarong_tests::fresh_app("transfer-noshare");
    assert_eq!(
        plain.err("export_progress", json!({ "share": true })),
        "share_failed"
    );
    plain.close();
    app.close();
}

/// More unfinished games than the slots hold together: refused (`would_replace`) before
/// anything changes; no game with moves is dropped for room.
#[test]
fn unfinished_games_past_the_slot_cap_are_refused_whole() {
    let (da, a) = huarong_tests::fresh_app("transfer-cap-a");
    let (_db, b) = huarong_tests::fresh_app("transfer-cap-b");
    let one_move = |app: &TestApp, seed: u64| {
        let id = format!("slide:3x3#{seed}");
        let v = app.ok("open_game", json!({ "id": id }));
        let t = huarong_tests::gap_neighbours(&v["snapshot"])[0];
        app.ok("play", json!({ "kind": "slide", "mv": { "tile": t } }));
    };
    for seed in 100..133 {
        one_move(&a, seed);
    }
    for seed in 200..233 {
        one_move(&b, seed);
    }
    settle(&a);
    settle(&b);
    let file = b.ok("export_progress", json!({}))["data"]
        .as_str()
        .unwrap()
        .to_string();
    let before = files(da.path());
    let games_before = games(&a);
    assert_eq!(
        a.err("import_progress", json!({ "data": file })),
        "would_replace"
    );
    settle(&a);
    assert!(files(da.path()) == before, "the data folder changed");
    assert_eq!(games(&a), games_before);
    a.close();
    b.close();
}

/// The same game played on after a move to another device: back home the longer game takes
/// its slot (the shorter one is its start: nothing is lost), and no extra slot is made.
#[test]
fn a_game_played_on_elsewhere_comes_back_as_one_game() {
    let (_da, a) = huarong_tests::fresh_app("transfer-on-a");
    let (_db, b) = huarong_tests::fresh_app("transfer-on-b");
    let id = game_in_progress(&a, 21, 1);
    settle(&a);
    let fa = a.ok("export_progress", json!({}))["data"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(import(&b, &fa)["games"], 1);
    b.ok("resume_game", json!({ "slot": "slide:4x4" }));
    let mut snap = b.snap("snapshot", json!({ "kind": "slide" }));
    assert_eq!(snap["moves"], 1);
    for _ in 0..2 {
        let back = snap["view"]["last"].clone();
        let t = *huarong_tests::gap_neighbours(&snap)
            .iter()
            .find(|t| json!(t) != back)
            .unwrap();
        snap = b.snap("play", json!({ "kind": "slide", "mv": { "tile": t } }));
    }
    assert_eq!(snap["moves"], 3);
    settle(&b);
    let fb = b.ok("export_progress", json!({}))["data"]
        .as_str()
        .unwrap()
        .to_string();
    let got = import(&a, &fb);
    assert_eq!(got["games"], 1, "{got}");
    let list = a.ok("list_games", json!({}));
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 1, "one game, not two: {list:?}");
    assert_eq!(
        (list[0]["id"].as_str().unwrap(), list[0]["moves"].as_u64()),
        (id.as_str(), Some(3))
    );
    // Home again: nothing new for either side.
    let fa = a.ok("export_progress", json!({}))["data"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(import(&b, &fa)["games"], 0);
    a.close();
    b.close();
}
