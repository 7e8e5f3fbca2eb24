//! The ghost through the command table: a friend's timed result code opened gives the slot a
//! ghost (`ghost {kind}`: source, name, moves, times_ms within 10 ms of the sender's, the
//! views `replay` gives and the splits) that survives a restart; a code without times gives
//! none; `race_best` starts the board again against the player's own best kept replay; the
//! `ghost` setting is on by default and takes only on/off.

use huarong_core::{dispatch, AppState, Code};
use huarong_tests::{
    close_core as close, core_ok as ok, start_core_on_test_clock as start, TempDir,
};
use serde_json::{json, Value};

fn u64s(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not a list: {v}"))
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

const ID: &str = "slide:3x3:4,1,3,7,2,6,5,8,0";

/// Play `ID` along its optimal line, `300 + 11 i` ms apart; the recorded times (from the
/// first move) and the line.
fn solve_timed(st: &AppState) -> (Vec<u64>, Vec<Value>) {
    let (log, _) = huarong_tests::solve_slide(ID);
    ok(st, "open_game", json!({ "id": ID, "replace": true }));
    for (i, mv) in log.iter().enumerate() {
        if i > 0 {
            ok(
                st,
                "test_clock",
                json!({ "advance_ms": 300 + 11 * i as u64 }),
            );
        }
        ok(st, "play", json!({ "kind": "slide", "mv": mv }));
    }
    let own = ok(st, "splits", json!({ "kind": "slide" }));
    let t = u64s(&own["times_ms"]);
    let first = t[0];
    (t.iter().map(|x| x - first).collect(), log)
}

#[test]
fn a_friends_timed_code_gives_the_slot_a_ghost_that_survives_a_restart() {
    let sender_dir = TempDir::new("ghost-sender");
    let sender = start(sender_dir.path());
    ok(
        &sender,
        "set_settings",
        json!({ "settings": { "name": "Mei" } }),
    );
    let (times, log) = solve_timed(&sender);
    let code = ok(&sender, "result_code", json!({ "kind": "slide" }));
    assert_eq!(code["times"], "moves", "{code}");
    let replay = ok(&sender, "replay", json!({ "code": code["code"] }));
    close(sender);

    let dir = TempDir::new("ghost-friend");
    let st = start(dir.path());
    assert_eq!(ok(&st, "get_settings", json!({}))["ghost"], "on");
    let opened = ok(&st, "open_game", json!({ "id": code["code"] }));
    assert_eq!(
        opened["snapshot"]["challenge"]["ghost"], "friend",
        "{opened}"
    );
    let g = ok(&st, "ghost", json!({ "kind": "slide" }));
    assert_eq!(g["source"], "friend");
    assert_eq!(g["name"], "Mei");
    assert_eq!(g["moves"], json!(log));
    let got = u64s(&g["times_ms"]);
    assert_eq!(got.len(), times.len());
    for (a, b) in got.iter().zip(&times) {
        assert!(
            a.abs_diff(*b) <= 10,
            "ghost times {got:?} against {times:?}"
        );
    }
    assert_eq!(
        g["views"], replay["views"],
        "the ghost's views are the replay's"
    );
    assert_eq!(g["views"].as_array().unwrap().len(), log.len() + 1);
    assert!(g["splits"].is_array());
    close(st);

    // A restart keeps it (the slot's result is saved with its ghost).
    let st = start(dir.path());
    let again = ok(&st, "ghost", json!({ "kind": "slide" }));
    assert_eq!(again["times_ms"], g["times_ms"]);
    assert_eq!(again["views"], g["views"]);
    // Another game in the slot's place has none.
    ok(
        &st,
        "new_game",
        json!({ "kind": "slide", "params": "3x3", "seed": 7, "replace": true }),
    );
    assert_eq!(ok(&st, "ghost", json!({ "kind": "slide" })), Value::Null);
    close(st);
}

#[test]
fn a_code_without_times_gives_no_ghost() {
    let dir = TempDir::new("ghost-untimed");
    let st = start(dir.path());
    let (_, count) = huarong_tests::solve_slide(ID);
    let sent = ok(
        &st,
        "encode_code",
        json!({ "id": ID, "moves": count, "ms": 4_000 }),
    );
    let opened = ok(&st, "open_game", json!({ "id": sent["code"] }));
    assert!(opened["snapshot"]["challenge"].is_object(), "{opened}");
    assert!(opened["snapshot"]["challenge"].get("ghost").is_none());
    assert_eq!(ok(&st, "ghost", json!({ "kind": "slide" })), Value::Null);
    close(st);
}

#[test]
fn race_best_plays_the_board_again_against_the_players_own_best() {
    let dir = TempDir::new("ghost-best");
    let st = start(dir.path());
    // Nothing won yet: no best to race.
    ok(&st, "open_game", json!({ "id": ID, "replace": true }));
    let e = dispatch(&st, "race_best", json!({ "kind": "slide" })).unwrap_err();
    assert_eq!(e.code, Code::Engine(huarong_engine::ErrorCode::Unsupported));
    let (times, log) = solve_timed(&st);
    let v = ok(&st, "race_best", json!({ "kind": "slide" }));
    assert_eq!(v["snapshot"]["id"], ID);
    assert_eq!(v["snapshot"]["moves"], 0);
    assert_eq!(v["snapshot"]["challenge"]["ghost"], "best", "{v}");
    let (_, count) = huarong_tests::solve_slide(ID);
    assert_eq!(v["snapshot"]["challenge"]["moves"], count);
    let g = ok(&st, "ghost", json!({ "kind": "slide" }));
    assert_eq!(g["source"], "best");
    assert_eq!(g["name"], Value::Null);
    assert_eq!(g["moves"], json!(log));
    let got = u64s(&g["times_ms"]);
    for (a, b) in got.iter().zip(&times) {
        assert!(a.abs_diff(*b) <= 10, "{got:?} against {times:?}");
    }
    // Won again, slower: the finish says it against the best.
    for (i, mv) in log.iter().enumerate() {
        if i > 0 {
            ok(&st, "test_clock", json!({ "advance_ms": 900 }));
        }
        ok(&st, "play", json!({ "kind": "slide", "mv": mv }));
    }
    let f = ok(&st, "finish", json!({ "kind": "slide" }));
    assert_eq!(f["challenge"]["outcome"], "lost", "{f}");
    assert_eq!(f["challenge"]["ghost"], "best");
    close(st);
}

#[test]
fn the_ghost_setting_is_on_or_off() {
    let dir = TempDir::new("ghost-setting");
    let st = start(dir.path());
    let s = ok(
        &st,
        "set_settings",
        json!({ "settings": { "ghost": "off" } }),
    );
    assert_eq!(s["ghost"], "off");
    let e = dispatch(
        &st,
        "set_settings",
        json!({ "settings": { "ghost": "maybe" } }),
    )
    .unwrap_err();
    assert_eq!(e.code, Code::BadArgument);
    close(st);
    let st = start(dir.path());
    assert_eq!(ok(&st, "get_settings", json!({}))["ghost"], "off");
    close(st);
}

/// A Klotski solve's ghost: the board after each piece move and the sender's splits.
#[test]
fn a_klotski_ghost_has_its_boards_and_splits() {
    use huarong_engine::{Cancel, Game};
    let sender_dir = TempDir::new("ghost-klotski-sender");
    let sender = start(sender_dir.path());
    let board = huarong_engine::klotski::classic("横刀立马").unwrap().board;
    let k = huarong_engine::klotski::Klotski::parse(board).unwrap();
    let line = k.solve(&Cancel::new()).unwrap();
    let id = format!("klotski:{board}");
    ok(&sender, "open_game", json!({ "id": id, "replace": true }));
    for (i, m) in line.iter().enumerate() {
        if i > 0 {
            ok(&sender, "test_clock", json!({ "advance_ms": 400 }));
        }
        ok(&sender, "play", json!({ "kind": "klotski", "mv": m }));
    }
    let code = ok(&sender, "result_code", json!({ "kind": "klotski" }));
    assert_eq!(code["times"], "moves", "{code}");
    let replay = ok(&sender, "replay", json!({ "code": code["code"] }));
    close(sender);

    let dir = TempDir::new("ghost-klotski");
    let st = start(dir.path());
    ok(&st, "open_game", json!({ "id": code["code"] }));
    let g = ok(&st, "ghost", json!({ "kind": "klotski" }));
    assert_eq!(g["source"], "friend");
    assert_eq!(g["views"], replay["views"]);
    assert!(g["views"][0]["pieces"].is_array(), "{}", g["views"][0]);
    assert_eq!(g["counts"], replay["counts"]);
    let names: Vec<&str> = g["splits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["q3", "q2", "q1"]);
    let times = u64s(&g["times_ms"]);
    for s in g["splits"].as_array().unwrap() {
        // A split's time is its move's time from the first move.
        let n = s["moves"].as_u64().unwrap() as usize;
        let at = g["counts"]
            .as_array()
            .unwrap()
            .iter()
            .position(|c| c.as_u64() == Some(n as u64))
            .unwrap();
        assert_eq!(s["ms"].as_u64(), Some(times[at - 1]), "{s}");
    }
    close(st);
}
