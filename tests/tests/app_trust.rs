//! Issue 23 on the core: records no code can forge, streaks that follow the game's own
//! finish, migration that keeps the old games until the journal holds them, and 2048's
//! "keep going" as an unfinished game.

use huarong_tests::{fresh_app, journal_slide, TempDir, TestApp};
use serde_json::{json, Value};

/// A solved 4×4 as a share code (issue 23's repro).
const SOLVED_CODE: &str = "1AEQBRlYG-hkTO2Ii";
const SOLVED_3X3: &str = "slide:3x3:1,2,3,4,5,6,7,8,0";

fn notices(app: &TestApp) -> Vec<Value> {
    app.ok("get_progress", json!({}))["notices"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[test]
fn a_start_already_solved_or_won_opens_nothing() {
    let (_d, app) = fresh_app("trust-solved");
    for text in [
        SOLVED_CODE.to_string(),
        SOLVED_3X3.to_string(),
        format!("huarong://play?c={SOLVED_CODE}"),
        // A 2048 board already at 131,072 (won from the start).
        "2048:131072,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2".to_string(),
    ] {
        assert_eq!(
            app.err("open_game", json!({"id": text, "replace": true})),
            "already_solved",
            "{text}"
        );
    }
    assert!(app
        .ok("list_games", json!({}))
        .as_array()
        .unwrap()
        .is_empty());
    let r = app.ok("records", json!({"scope": "slide:4x4"}));
    assert!(r["best_moves"].is_null(), "{r}");
    let r = app.ok("records", json!({"scope": "2048"}));
    assert_eq!(r["wins"], 0, "{r}");
    // A link at launch: home with a notice, nothing opened.
    let dir = TempDir::new("trust-solved-launch");
    let app = TestApp::start(dir.path(), Some(SOLVED_CODE));
    assert!(app
        .ok("list_games", json!({}))
        .as_array()
        .unwrap()
        .is_empty());
    assert!(
        notices(&app)
            .iter()
            .any(|n| n["message"].as_str().unwrap().contains("already solved")),
        "{:?}",
        notices(&app)
    );
    app.close();
}

#[test]
fn a_finish_no_move_made_is_never_settled() {
    // A journal of an older version holding a slot whose start was solved.
    let dir = TempDir::new("trust-nomove");
    {
        let paths = huarong_core::persist::Paths::new(dir.path());
        let (j, _, _) =
            huarong_core::journal::Journal::open(&paths.dir, huarong_core::fsio::real());
        journal_slide(&j, SOLVED_3X3, json!({"kind": "slide", "mode": "free"}));
        j.shutdown();
    }
    let app = TestApp::start(dir.path(), None);
    let r = app.ok("records", json!({"scope": "slide:3x3"}));
    assert!(r["best_moves"].is_null(), "{r}");
    assert_eq!(r["wins"], 0, "{r}");
    let p = app.ok("get_progress", json!({}));
    assert!(
        p["records"]
            .as_object()
            .is_none_or(|m| !m.keys().any(|k| k.starts_with("slide:3x3"))),
        "{p}"
    );
    app.close();
}

#[test]
fn an_impossible_record_in_the_file_is_repaired_at_load_with_a_notice() {
    let (dir, app) = fresh_app("trust-repair");
    // A real win first, so the file has a good copy and true statistics.
    app.ok(
        "open_game",
        json!({"id": "slide:3x3:1,2,3,4,5,6,7,0,8", "replace": true}),
    );
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    app.close();
    {
        use huarong_core::persist::{self, Doc, Paths};
        let paths = Paths::new(dir.path());
        let read = std::fs::read(&paths.good).expect("the good copy");
        let (mut doc, _): (Doc, u32) = persist::decode(&read).expect("a valid good copy");
        let p = &mut doc.progress;
        let r = p.records.entry("slide:4x4/tile".into()).or_default();
        r.rule = "tile".into();
        r.best_moves = Some(0);
        r.best_time_ms = Some(0);
        r.wins = 1;
        let r = p.records.entry("2048/moves".into()).or_default();
        r.best_tile = Some(131_072);
        r.best_score = Some(0);
        doc.gen += 1;
        for path in [&paths.good, &paths.store] {
            std::fs::write(path, persist::encode(&doc)).expect("write a store copy");
        }
    }
    let app = TestApp::start(dir.path(), None);
    let p = app.ok("get_progress", json!({}));
    let r = &p["records"]["slide:4x4/tile"];
    assert!(
        r["best_moves"].is_null() && r["best_time_ms"].is_null(),
        "{r}"
    );
    assert_eq!(r["wins"], 0, "{r}");
    assert!(p["records"]["2048/moves"]["best_tile"].is_null(), "{p}");
    // The real record is untouched.
    assert_eq!(p["records"]["slide:3x3/tile"]["best_moves"], 1, "{p}");
    let n = notices(&app);
    assert!(n.iter().any(|n| n["code"] == "records_repaired"), "{n:?}");
    app.close();
    // Repaired once, and saved: no notice the next time.
    let app = TestApp::start(dir.path(), None);
    assert!(
        !notices(&app)
            .iter()
            .any(|n| n["code"] == "records_repaired"),
        "{:?}",
        notices(&app)
    );
    app.close();
}
