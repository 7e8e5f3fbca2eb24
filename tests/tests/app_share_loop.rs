//! Issue 25 through the command table: the display name, result codes (with the move log,
//! verified), `View.challenge` on the first open and on a resume, the daily's friends'
//! board (best only, 30 days, bounded, never evicting the player's own result), forged logs
//! refused, and replays from a code and from the records history that change no game and no
//! record.

use huarong_engine::code;
use huarong_tests::{daily_result_code, fresh_app, solve_slide, todays_slide_daily, TestApp};
use serde_json::{json, Value};

const NEAR_WIN: &str = "slide:3x3:1,2,3,4,5,6,7,0,8";

fn code_of(v: &Value) -> String {
    v["code"].as_str().unwrap().to_string()
}

/// A won 3×3 (one move) in `app`, and its result code.
fn won_near_win(app: &TestApp) -> Value {
    app.ok("open_game", json!({"id": NEAR_WIN, "replace": true}));
    let w = app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    assert!(!w["finish"].is_null());
    app.ok("result_code", json!({"kind": "slide"}))
}

#[test]
fn the_name_is_checked_trimmed_and_kept() {
    let (dir, app) = fresh_app("share-name");
    assert_eq!(app.ok("get_settings", json!({}))["name"], "");
    let s = app.ok("set_settings", json!({"settings": {"name": "  Mei 梅  "}}));
    assert_eq!(s["name"], "Mei 梅");
    for bad in [
        json!("a\nb"),
        json!("tab\there"),
        json!("abcdefghijklmnopq"),
        json!(5),
    ] {
        let e = app.err("set_settings", json!({"settings": {"name": bad}}));
        assert!(e.contains("bad_argument"), "{bad}: {e}");
    }
    assert_eq!(app.ok("get_settings", json!({}))["name"], "Mei 梅");
    // Sixteen characters are fine (CJK counts one a character).
    let s = app.ok(
        "set_settings",
        json!({"settings": {"name": "一二三四五六七八九十一二三四五六"}}),
    );
    assert_eq!(s["name"].as_str().unwrap().chars().count(), 16);
    app.ok("set_settings", json!({"settings": {"name": "Mei"}}));
    app.close();
    let app = TestApp::start(dir.path(), None);
    assert_eq!(app.ok("get_settings", json!({}))["name"], "Mei");
    app.close();
}

#[test]
fn a_result_code_round_trips_with_its_log_and_the_view_shows_it_at_once() {
    let (_d, app) = fresh_app("share-result");
    // Not finished: nothing to share.
    app.ok("open_game", json!({"id": NEAR_WIN}));
    assert!(app
        .err("result_code", json!({"kind": "slide"}))
        .contains("bad_argument"));
    app.ok("set_settings", json!({"settings": {"name": "Ann"}}));
    let r = won_near_win(&app);
    assert_eq!(r["replay"], true);
    let c = code_of(&r);
    assert!(c.len() <= 1200);
    assert!(r["link"].as_str().unwrap().ends_with(&c));
    let d = app.ok("decode_code", json!({"text": c}));
    assert_eq!(
        (d["name"].as_str(), d["verified"].as_bool()),
        (Some("Ann"), Some(true))
    );
    assert_eq!(d["challenge"]["moves"], 1);

    // A friend opens it: the View carries the whole result on the first open…
    let (_d2, friend) = fresh_app("share-result-friend");
    let v = friend.ok("open_game", json!({"id": c}));
    let want = |c: &Value| {
        assert_eq!(c["moves"], 1, "{c}");
        assert_eq!(c["name"], "Ann");
        assert_eq!(c["replay"], true);
        assert_eq!(c["verified"], true);
        assert!(c.get("daily").is_none(), "not a daily: {c}");
    };
    want(&v["challenge"]);
    want(&v["snapshot"]["challenge"]);
    // …and on a resume (the same code again, and `snapshot`).
    friend.ok("play", json!({"kind": "slide", "mv": {"tile": 7}}));
    let v = friend.ok("open_game", json!({"id": c}));
    assert_eq!(v["snapshot"]["moves"], 1, "resumed");
    want(&v["challenge"]);
    want(&friend.ok("snapshot", json!({"kind": "slide"}))["challenge"]);
    // Without a name: the code says none (shown as "a friend").
    let (_d3, anon) = fresh_app("share-result-anon");
    let r = won_near_win(&anon);
    let v = friend.ok("decode_code", json!({"text": code_of(&r)}));
    assert!(v["name"].is_null());
    assert_eq!(v["verified"], true);
}

#[test]
fn a_forged_log_is_refused_with_bad_code() {
    let (_d, app) = fresh_app("share-forged");
    let r = won_near_win(&app);
    let c = code_of(&r);
    let mut p = code::payload_of(&c).unwrap();
    // game 0, flags, then the challenge's moves (1): claim 2 moves over a 1-move log.
    assert_eq!(p[2], 1);
    p[2] = 2;
    let forged = code::seal(&p);
    for cmd in ["open_game", "decode_code"] {
        let key = if cmd == "open_game" { "id" } else { "text" };
        let e = app.err(cmd, json!({ key: forged }));
        assert!(e.contains("bad_code"), "{cmd}: {e}");
    }
    assert!(app
        .err("replay", json!({"code": forged}))
        .contains("bad_code"));
}

#[test]
fn the_friends_board_keeps_bests_for_30_days_bounded_and_never_drops_my_own() {
    let (_d, app) = fresh_app("share-friends");
    let (n, id, sol, m) = todays_slide_daily(&app);
    app.ok("set_settings", json!({"settings": {"name": "Me"}}));
    let board = |app: &TestApp, day: u32| app.ok("friends", json!({"daily": day}));
    assert_eq!(board(&app, n), json!([]));

    // Mei's verified result, then a worse plain one: only her best stays.
    let mei = daily_result_code(&id, n, Some("Mei"), m, 80_000, Some(sol.clone()));
    let v = app.ok("open_game", json!({"id": mei}));
    assert_eq!(v["challenge"]["daily"], n);
    assert_eq!(v["challenge"]["verified"], true);
    assert_eq!(v["snapshot"]["mode"], "daily");
    app.ok(
        "open_game",
        json!({"id": daily_result_code(&id, n, Some("Mei"), m + 10, 1_000, None)}),
    );
    let b = board(&app, n);
    assert_eq!(b.as_array().unwrap().len(), 1, "{b}");
    assert_eq!(
        b[0],
        json!({"name": "Mei", "moves": m, "ms": 80_000, "ms_claimed": true, "verified": true,
            "assisted": false, "me": false, "kind": "slide", "score": null, "won": null})
    );
    // Bo claims more moves, plain; a code without a name is "a friend" (null).
    app.ok(
        "open_game",
        json!({"id": daily_result_code(&id, n, Some("Bo"), m + 4, 50_000, None)}),
    );
    let anon = daily_result_code(&id, n, None, m + 2, 1, None);
    app.ok("open_game", json!({"id": anon}));
    // A code of the daily number with another board is not that day's result: not added.
    let other = daily_result_code(
        NEAR_WIN,
        n,
        Some("Cheat"),
        1,
        1,
        Some(vec![json!({"tile": 8})]),
    );
    app.ok("open_game", json!({"id": other, "replace": true}));
    // The player's own result: solve today's daily in its slot.
    app.ok("open_game", json!({"id": id, "replace": true}));
    for mv in &sol {
        app.ok("play", json!({"kind": "slide", "mv": mv}));
    }
    let b = board(&app, n);
    let names: Vec<Value> = b
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].clone())
        .collect();
    assert_eq!(
        names,
        vec![json!("Me"), json!("Mei"), Value::Null, json!("Bo")],
        "{b}"
    );
    assert_eq!(b[0]["me"], true);
    assert_eq!(
        (b[0]["moves"].as_u64(), b[0]["verified"].as_bool()),
        (Some(m as u64), Some(true))
    );
    assert_eq!(b[3]["verified"], false);
    assert_eq!(
        app.ok("friends", json!({"daily": n, "kind": "klotski"})),
        json!([])
    );

    // Bounded: 70 more friends, as few moves as mine and faster; my own result stays.
    for i in 0..70 {
        let c = daily_result_code(&id, n, Some(&format!("f{i:02}")), m, i, None);
        app.ok("open_game", json!({"id": c}));
    }
    let b = board(&app, n);
    let lines = b.as_array().unwrap();
    assert!(lines.len() <= 51, "{}", lines.len());
    assert!(lines.iter().any(|l| l["me"] == true), "my own result stays");

    // 31 days back is kept (at least 30 days); 50 days back is not.
    for (back, kept) in [(31u32, true), (50, false)] {
        let day = n - back;
        let date = huarong_engine::daily::date_of(day).unwrap();
        let puzzles = huarong_engine::daily::puzzles(date).unwrap();
        let old_id = puzzles.id(huarong_engine::Kind::Slide).unwrap().to_string();
        let c = daily_result_code(&old_id, day, Some("Old"), 300, 1, None);
        app.ok("open_game", json!({"id": c, "replace": true}));
        assert_eq!(
            !board(&app, day).as_array().unwrap().is_empty(),
            kept,
            "{back} days"
        );
    }
    // Bad arguments are typed.
    assert!(app.err("friends", json!({})).contains("bad_argument"));
    assert!(app
        .err("friends", json!({"daily": "x"}))
        .contains("bad_argument"));
}

#[test]
fn replays_from_history_and_from_a_code_change_no_game_and_no_record() {
    let (_d, app) = fresh_app("share-replay");
    let id = "slide:3x3:4,1,3,7,2,6,5,8,0";
    let (sol, _) = solve_slide(id);
    app.ok("open_game", json!({"id": id}));
    for mv in &sol {
        app.ok("play", json!({"kind": "slide", "mv": mv}));
    }
    let r = app.ok("result_code", json!({"kind": "slide"}));
    assert_eq!(r["replay"], true);
    // An exact board (not dealt by the app) has a record scope of its own.
    let scope = huarong_core::records::scope_of_id(id).unwrap();
    let records = app.ok("records", json!({ "scope": scope }));
    let last = records["history"].as_array().unwrap().len() - 1;
    assert_eq!(records["history"][last]["replay"], true, "{records}");
    // A game in progress elsewhere, to see it untouched.
    app.ok("new_game", json!({"kind": "2048", "params": "", "seed": 3}));
    let before = (
        app.ok("list_games", json!({})),
        app.ok("records", json!({})),
        app.ok("snapshot", json!({"kind": "slide"})),
        app.ok("snapshot", json!({"kind": "2048"})),
    );
    let h = app.ok(
        "replay",
        json!({"history": {"scope": scope, "index": last}}),
    );
    assert_eq!(h["id"], id);
    assert_eq!(h["moves"], json!(sol));
    // A kept finish keeps its move times (`ms` is `times_ms`'s older name).
    assert_eq!(
        h["times_ms"].as_array().map(Vec::len),
        Some(sol.len()),
        "{h}"
    );
    assert_eq!(h["ms"], h["times_ms"]);
    let views = h["views"].as_array().unwrap();
    assert_eq!(views.len(), sol.len() + 1);
    assert_eq!(
        views.last().unwrap()["tiles"],
        json!([1, 2, 3, 4, 5, 6, 7, 8, 0])
    );
    // The chart counts tile moves (a tap of a run counts each tile): `counts` says where.
    let counts = h["counts"].as_array().unwrap();
    assert_eq!(counts.len(), sol.len() + 1);
    let total = counts.last().unwrap().as_u64().unwrap() as usize;
    assert_eq!(
        h["analysis"]["distances"].as_array().unwrap().len(),
        total,
        "{h}"
    );
    let c = app.ok("replay", json!({"code": r["code"]}));
    assert_eq!(c["moves"], json!(sol));
    assert_eq!(c["kind"], "slide");
    let after = (
        app.ok("list_games", json!({})),
        app.ok("records", json!({})),
        app.ok("snapshot", json!({"kind": "slide"})),
        app.ok("snapshot", json!({"kind": "2048"})),
    );
    let strip = |v: &Value| {
        let mut v = v.clone();
        // The clock of the current games' snapshots is read at each call.
        for s in [&mut v] {
            if let Some(o) = s.get_mut("snapshot").and_then(Value::as_object_mut) {
                o.remove("elapsed_ms");
            }
        }
        v
    };
    assert_eq!(before.0, after.0);
    assert_eq!(before.1, after.1);
    assert_eq!(strip(&before.2), strip(&after.2));
    assert_eq!(strip(&before.3), strip(&after.3));
    // Errors: a plain code has no log; an index out of the history; both or neither.
    let plain = app.ok("encode_code", json!({"id": id}));
    assert!(app
        .err("replay", json!({"code": plain["code"]}))
        .contains("unsupported"));
    assert!(app
        .err("replay", json!({"history": {"scope": scope, "index": 99}}))
        .contains("bad_argument"));
    assert!(app.err("replay", json!({})).contains("bad_argument"));
    assert!(app
        .err(
            "replay",
            json!({"code": "x", "history": {"scope": "slide:3x3", "index": 0}})
        )
        .contains("bad_argument"));
    assert!(app
        .err("replay", json!({"history": {"scope": "nope", "index": 0}}))
        .contains("bad_argument"));
}
