//! Speedsolving runs of the number slide through the command table: marathons and
//! relays (`new_game {kind: "slide", params, mode}`), their splits, their records under the
//! run's scope, bad modes, replacing a run, a run across a restart (the journal), and TPS.
//! Each solve is played with the engine's solver (not `hint`/`solve`: those mark the game).

use huarong_engine::slide::{self, Board};
use huarong_engine::Cancel;
use huarong_tests::{fresh_app, TestApp};
use serde_json::{json, Value};

/// The tile moves that solve the board of a snapshot (the engine's solver).
fn solution(snapshot: &Value) -> Vec<u16> {
    let board = Board::parse(snapshot["board"].as_str().expect("board")).expect("a board");
    slide::solve(&board, &Cancel::new())
        .expect("a solution")
        .tiles
}

/// Play the current solve to its end; returns the last view.
fn solve_one(app: &TestApp) -> Value {
    let snap = app.ok("snapshot", json!({"kind": "slide"}))["snapshot"].clone();
    let tiles = solution(&snap);
    assert!(
        !tiles.is_empty(),
        "a run's solve is never solved at its start"
    );
    let mut last = Value::Null;
    for t in tiles {
        last = app.ok("play", json!({"kind": "slide", "mv": {"tile": t}}));
    }
    last
}

#[test]
fn a_marathon_of_five_keeps_every_split_and_records_the_run_once() {
    let (_d, app) = fresh_app("marathon");
    let s =
        app.new_game(json!({"kind": "slide", "params": "3x3", "mode": "marathon:5", "seed": 11}));
    assert_eq!(s["slot"], "slide:3x3/marathon:5");
    assert_eq!(s["run"]["mode"], "marathon:5");
    assert_eq!(s["run"]["scope"], "slide:3x3/marathon:5");
    assert_eq!(s["run"]["solve"], 1);
    assert_eq!(s["run"]["of"], 5);
    assert_eq!(s["run"]["splits"], json!([]));
    let mut ids = vec![s["id"].as_str().unwrap().to_string()];
    let mut moves = 0u64;
    for i in 1..=5u64 {
        let before = app.ok("snapshot", json!({"kind": "slide"}))["snapshot"].clone();
        moves += solution(&before).len() as u64;
        let v = solve_one(&app);
        let s = &v["snapshot"];
        assert_eq!(s["run"]["splits"].as_array().unwrap().len() as u64, i);
        if i < 5 {
            // The next solve is there at once, still playing: no finish between solves.
            assert!(v["finish"].is_null(), "solve {i}: {v}");
            assert_eq!(s["status"], "playing");
            assert_eq!(s["moves"], 0);
            assert_eq!(s["run"]["solve"], i + 1);
            assert!(
                !ids.contains(&s["id"].as_str().unwrap().to_string()),
                "a new puzzle"
            );
            ids.push(s["id"].as_str().unwrap().to_string());
        } else {
            assert_eq!(s["status"], "won");
            assert_eq!(s["run"]["done"], true);
            let f = &v["finish"];
            assert_eq!(f["key"], "slide:3x3/marathon:5/tile");
            assert_eq!(f["moves"], moves, "the run's moves: every solve's");
            let splits = f["run"]["splits"].as_array().unwrap();
            assert_eq!(splits.len(), 5);
            let sum: u64 = splits.iter().map(|x| x["ms"].as_u64().unwrap()).sum();
            assert_eq!(f["time_ms"], sum, "one timer: the splits add up to the run");
            let split_moves: u64 = splits.iter().map(|x| x["moves"].as_u64().unwrap()).sum();
            assert_eq!(split_moves, moves);
            assert!(splits.iter().all(|x| x["size"] == "3x3"));
            assert!(f["optimal"].is_null() && f["stars"].is_null() && f["pending"] == false);
            assert_eq!(f["record"]["wins"], 1);
            assert_eq!(f["record"]["best_moves"], moves);
        }
    }
    // The same seed is the same run: its puzzles are the engine's, from the seed.
    let run = huarong_engine::slide::run::Run::new(
        huarong_engine::slide::run::RunMode::parse("marathon:5", "3x3").unwrap(),
        11,
    );
    let expected: Vec<String> = (0..5).map(|i| run.id_of(i)).collect();
    assert_eq!(ids, expected);

    let r = app.ok("records", json!({"scope": "slide:3x3/marathon:5"}));
    assert_eq!(r["wins"], 1);
    assert_eq!(r["plays"], 1, "a run is one play");
    assert_eq!(r["best_moves"], moves);
    let h = &r["history"][0];
    assert_eq!(h["splits"].as_array().unwrap().len(), 5);
    assert_eq!(h["moves"], moves);
    assert!(r.get("ao50_ms").is_some() && r.get("ao100_ms").is_some());
    // The solves of a run are not single games of their size.
    let single = app.ok("records", json!({"scope": "slide:3x3"}));
    assert_eq!(single["plays"], 0);
    // The level list offers the modes.
    let levels = app.ok("levels", json!({"kind": "slide"}));
    assert_eq!(levels["modes"]["marathon"], json!([5, 10, 42, 100]));
    assert_eq!(levels["modes"]["relay"][0], 3);
    app.close();
}

#[test]
fn a_relay_from_three_goes_down_to_two_and_has_its_own_scope() {
    let (_d, app) = fresh_app("relay");
    let s = app.new_game(json!({"kind": "slide", "mode": "relay:3", "seed": 5}));
    assert_eq!(s["slot"], "slide:relay:3");
    assert_eq!(s["view"]["w"], 3);
    assert_eq!(s["run"]["of"], 2);
    let v = solve_one(&app);
    assert_eq!(v["snapshot"]["view"]["w"], 2, "then 2×2");
    assert_eq!(v["snapshot"]["run"]["size"], "2x2");
    assert_eq!(v["snapshot"]["run"]["solve"], 2);
    let v = solve_one(&app);
    let f = &v["finish"];
    assert_eq!(f["key"], "slide/relay:3/tile");
    let sizes: Vec<&str> = f["run"]["splits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["size"].as_str().unwrap())
        .collect();
    assert_eq!(sizes, ["3x3", "2x2"]);
    let r = app.ok("records", json!({"scope": "slide/relay:3"}));
    assert_eq!(r["wins"], 1);
    assert_eq!(r["history"][0]["splits"].as_array().unwrap().len(), 2);
    let all = app.ok("records", json!({}));
    assert!(all
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x["scope"] == "slide/relay:3" && x["kind"] == "slide"));
    app.close();
}

#[test]
fn bad_modes_are_refused_with_what_is_wrong() {
    let (_d, app) = fresh_app("badmode");
    let cases = [
        (
            json!({"kind": "slide", "params": "4x4", "mode": "marathon:7"}),
            "not offered",
        ),
        (
            json!({"kind": "slide", "params": "", "mode": "marathon:5"}),
            "board size",
        ),
        (
            json!({"kind": "slide", "params": "4x4/hard", "mode": "marathon:5"}),
            "plain size",
        ),
        (
            json!({"kind": "slide", "params": "12x12", "mode": "marathon:5"}),
            "not supported",
        ),
        (
            json!({"kind": "slide", "params": "4x4", "mode": "relay:5"}),
            "do not match",
        ),
        (json!({"kind": "slide", "mode": "relay:1"}), "out of range"),
        (
            json!({"kind": "slide", "params": "4x4", "mode": "sprint:5"}),
            "unknown mode",
        ),
        (
            json!({"kind": "slide", "params": "4x4", "mode": "marathon"}),
            "marathon:<count>",
        ),
        (
            json!({"kind": "2048", "mode": "marathon:5"}),
            "number slide",
        ),
        (
            json!({"kind": "slide", "params": "4x4", "mode": 5}),
            "`mode`",
        ),
    ];
    for (args, says) in cases {
        let e = app.call("new_game", args.clone()).unwrap_err();
        assert_eq!(e["code"], "bad_argument", "{args}: {e}");
        let msg = e["message"].as_str().unwrap();
        assert!(msg.contains(says), "{args}: {msg:?} should say {says:?}");
    }
    // Nothing was started.
    assert_eq!(app.err("snapshot", json!({"kind": "slide"})), "no_game");
    app.close();
}

#[test]
fn a_run_in_progress_is_not_replaced_without_asking() {
    let (_d, app) = fresh_app("runreplace");
    app.new_game(json!({"kind": "slide", "params": "3x3", "mode": "marathon:5", "seed": 3}));
    // A run is played forward: no undo, in the first solve or the next.
    let s = app.ok("snapshot", json!({"kind": "slide"}))["snapshot"].clone();
    let v = app.ok(
        "play",
        json!({"kind": "slide", "mv": {"tile": solution(&s)[0]}}),
    );
    assert_eq!(v["snapshot"]["can_undo"], false);
    assert!(app.call("undo", json!({"kind": "slide"})).is_err());
    solve_one(&app);
    let s = app.ok("snapshot", json!({"kind": "slide"}))["snapshot"].clone();
    let v = app.ok(
        "play",
        json!({"kind": "slide", "mv": {"tile": solution(&s)[0]}}),
    );
    assert_eq!(v["snapshot"]["can_undo"], false);
    // Between two solves (no move in the current one) the run still has something to lose.
    let args = json!({"kind": "slide", "params": "3x3", "mode": "marathon:5", "seed": 4});
    assert_eq!(app.err("new_game", args.clone()), "would_replace");
    let mut again = args;
    again["replace"] = json!(true);
    let s = app.new_game(again);
    assert_eq!(s["run"]["splits"], json!([]));
    // A free game of the size lives in its own slot beside the run.
    let free = app.new_game(json!({"kind": "slide", "params": "3x3", "seed": 9}));
    assert_eq!(free["slot"], "slide:3x3");
    assert!(free.get("run").is_none());
    app.close();
}

#[test]
fn a_run_comes_back_after_a_restart_from_the_journal() {
    let (dir, app) = fresh_app("runrestart");
    app.new_game(json!({"kind": "slide", "params": "3x3", "mode": "marathon:5", "seed": 21}));
    solve_one(&app);
    solve_one(&app);
    // Two moves into the third solve.
    let s = app.ok("snapshot", json!({"kind": "slide"}))["snapshot"].clone();
    let tiles = solution(&s);
    for t in &tiles[..2] {
        app.ok("play", json!({"kind": "slide", "mv": {"tile": t}}));
    }
    let before = app.ok("snapshot", json!({"kind": "slide"}))["snapshot"].clone();
    app.close();

    let app = TestApp::start(dir.path(), None);
    let after = app.ok("snapshot", json!({"kind": "slide"}))["snapshot"].clone();
    for k in ["id", "board", "moves", "slot"] {
        assert_eq!(after[k], before[k], "{k}");
    }
    assert_eq!(after["run"]["splits"], before["run"]["splits"]);
    assert_eq!(after["run"]["solve"], 3);
    for t in &tiles[2..] {
        app.ok("play", json!({"kind": "slide", "mv": {"tile": t}}));
    }
    solve_one(&app);
    let v = solve_one(&app);
    assert_eq!(v["finish"]["run"]["splits"].as_array().unwrap().len(), 5);
    assert_eq!(v["finish"]["record"]["wins"], 1);
    app.close();
}

#[test]
fn every_slide_finish_has_its_tiles_per_second() {
    let (_d, app) = fresh_app("tps");
    app.ok("open_game", json!({"id": "slide:3x3:1,2,3,4,5,6,0,7,8"}));
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 7}}));
    // The clock runs from the first move: wait until it has measured a second (a finish
    // under a second shows no TPS).
    while app.ok("snapshot", json!({"kind": "slide"}))["snapshot"]["elapsed_ms"]
        .as_u64()
        .unwrap()
        < 1_000
    {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let v = app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    let f = &v["finish"];
    let ms = f["time_ms"].as_u64().unwrap();
    assert!(ms >= 1_000);
    let want = (2.0 * 100_000.0 / ms as f64).round() / 100.0;
    assert_eq!(f["tps"].as_f64(), Some(want), "2 tile moves in {ms} ms");
    // An exact board keeps a scope of its own: the finish's.
    let key = f["key"].as_str().unwrap();
    let scope = key.strip_suffix("/tile").expect("the tile rule's key");
    let r = app.ok("records", json!({"scope": scope}));
    assert_eq!(r["history"][0]["tps"], f["tps"]);
    assert_eq!(r["best_tps"], f["tps"]);
    // The analysis of the game says its TPS too.
    let a = app.ok("analysis", json!({"kind": "slide"}));
    assert!(a["tps"].as_f64().is_some(), "{a}");
    app.close();
}
