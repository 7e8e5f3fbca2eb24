//! Issue 16 on the mock runtime: a share code with the sender's result ("beat 5 moves"),
//! `encode_code`/`decode_code` with it, `View.challenge` of the opened game (kept in its
//! slot, across restarts) and `finish.challenge.beaten`.

use huarong_tests::{fresh_app, TempDir, TestApp};
use serde_json::{json, Value};

const NEAR_WIN: &str = "slide:3x3:1,2,3,4,5,6,7,0,8";

fn code_with(app: &TestApp, moves: u64, ms: u64) -> String {
    let c = app.ok(
        "encode_code",
        json!({"id": NEAR_WIN, "moves": moves, "ms": ms}),
    );
    assert!(c["code"].as_str().unwrap().len() <= 160);
    assert_eq!(
        c["link"],
        json!(huarong_engine::code::link(c["code"].as_str().unwrap()))
    );
    assert!(c["link"]
        .as_str()
        .unwrap()
        .starts_with(huarong_engine::code::LINK_BASE));
    c["code"].as_str().unwrap().to_string()
}

/// A fresh app (folder tagged `tag`) with the near-win board opened from a challenge code of
/// `moves` in `ms`; the opened game's snapshot.
fn open_challenge(tag: &str, moves: u64, ms: u64) -> (TempDir, TestApp, Value) {
    let (dir, app) = fresh_app(tag);
    let code = code_with(&app, moves, ms);
    let v = app.snap("open_game", json!({"id": code}));
    (dir, app, v)
}

#[test]
fn encode_and_decode_carry_the_result() {
    let (_dir, app) = fresh_app("chal-codes");
    let code = code_with(&app, 85, 203_400);
    let d = app.ok("decode_code", json!({"text": code}));
    assert_eq!(d["challenge"], json!({"moves": 85, "ms": 203_400}));
    assert_eq!(d["id"], NEAR_WIN);
    assert_eq!(d["kind"], "slide");
    let plain = app.ok("encode_code", json!({"id": NEAR_WIN}));
    assert_ne!(plain["code"], json!(code));
    let d = app.ok("decode_code", json!({"text": plain["code"]}));
    assert!(d["challenge"].is_null(), "{d}");
    let d = app.ok("decode_code", json!({"text": NEAR_WIN}));
    assert!(d["challenge"].is_null());
    assert!(d["picture"].is_null());
    let d = app.ok(
        "decode_code",
        json!({"text": "slide:3x3/picture:lotus:1,2,3,4,5,6,7,0,8"}),
    );
    assert_eq!(d["picture"], "lotus");

    for (args, want) in [
        (json!({"id": NEAR_WIN, "moves": 5}), "bad_argument"),
        (json!({"id": NEAR_WIN, "ms": 5}), "bad_argument"),
        (
            json!({"id": NEAR_WIN, "moves": "5", "ms": 5}),
            "bad_argument",
        ),
        (
            json!({"id": NEAR_WIN, "moves": -1, "ms": 5}),
            "bad_argument",
        ),
        (json!({"id": NEAR_WIN, "moves": 0, "ms": 5}), "out_of_range"),
        (
            json!({"id": NEAR_WIN, "moves": 5.5, "ms": 5}),
            "bad_argument",
        ),
        (
            json!({"id": NEAR_WIN, "moves": 5, "ms": 1.5}),
            "bad_argument",
        ),
        (
            json!({"id": NEAR_WIN, "moves": 1e12, "ms": 5}),
            "bad_argument",
        ),
        (
            json!({"id": NEAR_WIN, "moves": u64::MAX, "ms": u64::MAX}),
            "bad_argument",
        ),
        (
            json!({"id": NEAR_WIN, "moves": 5, "ms": -3}),
            "bad_argument",
        ),
        (
            json!({"id": NEAR_WIN, "moves": 5, "ms": 999u64 * 3600 * 1000 + 1}),
            "out_of_range",
        ),
    ] {
        assert_eq!(app.err("encode_code", args.clone()), want, "{args}");
    }
    app.close();
}

#[test]
fn the_opened_game_shows_the_result_and_the_finish_compares() {
    let (_d, app, v) = open_challenge("chal-open", 5, 60_000);
    assert_eq!(
        v["challenge"],
        json!({"moves": 5, "ms": 60_000, "name": null, "replay": false, "verified": false})
    );
    assert_eq!(v["mode"], "challenge");
    let view = app.ok("snapshot", json!({"kind": "slide"}));
    assert_eq!(
        view["challenge"],
        json!({"moves": 5, "ms": 60_000, "name": null, "replay": false, "verified": false}),
        "on the View too, as the contract names it"
    );
    let slot = v["slot"].as_str().unwrap().to_string();
    assert!(slot.starts_with("challenge:"), "{slot}");
    let s = app.ok("snapshot", json!({"kind": "slide"}));
    assert_eq!(
        s["snapshot"]["challenge"],
        json!({"moves": 5, "ms": 60_000, "name": null, "replay": false, "verified": false})
    );
    let p = app.ok("get_progress", json!({}));
    assert_eq!(p["games"]["slide"]["challenge"]["moves"], 5);
    let w = app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    assert_eq!(
        w["finish"]["challenge"],
        json!({"moves": 5, "ms": 60_000, "name": null, "beaten": true,
               "outcome": "beaten", "diff_ms": -60_000}),
        "1 move beats 5"
    );
    assert_eq!(w["snapshot"]["challenge"]["moves"], 5);

    // 1 move in 0 ms cannot be beaten by 1 move: as many moves in the same tenth tie it.
    let hard = code_with(&app, 1, 0);
    let v = app.ok("open_game", json!({"id": hard}));
    assert_eq!(
        v["snapshot"]["challenge"],
        json!({"moves": 1, "ms": 0, "name": null, "replay": false, "verified": false})
    );
    let w = app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    assert_eq!(w["finish"]["challenge"]["beaten"], false);
    assert_eq!(w["finish"]["challenge"]["outcome"], "tied");

    // The same ID without a result is that puzzle tried again (the finish's `retry`): the
    // result to beat stays.
    let v = app.ok("open_game", json!({"id": NEAR_WIN}));
    assert_eq!(v["snapshot"]["challenge"]["moves"], 1, "{v}");
    let w = app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    assert_eq!(w["finish"]["challenge"]["outcome"], "tied");
    // A game started with new_game never has one.
    let v = app.ok(
        "new_game",
        json!({"kind": "slide", "params": "3x3", "seed": 2}),
    );
    assert!(v["snapshot"]["challenge"].is_null());
    app.close();
}

#[test]
fn the_result_is_part_of_the_challenge_slot() {
    let (dir, app, _) = open_challenge("chal-slot", 7, 1_000);
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 7}}));
    // Another game of the kind becomes current; resuming the slot brings the result back.
    app.ok(
        "new_game",
        json!({"kind": "slide", "params": "4x4", "seed": 1}),
    );
    let games = app.ok("list_games", json!({}));
    let slot = games
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["mode"] == "challenge")
        .unwrap()["slot"]
        .clone();
    let v = app.ok("resume_game", json!({"slot": slot}));
    assert_eq!(
        v["snapshot"]["challenge"],
        json!({"moves": 7, "ms": 1_000, "name": null, "replay": false, "verified": false})
    );
    // Opening the plain ID of the same unfinished game resumes it and keeps the result.
    let v = app.ok("open_game", json!({"id": NEAR_WIN}));
    assert_eq!(v["snapshot"]["moves"], 1);
    assert_eq!(v["snapshot"]["challenge"]["moves"], 7);
    app.close();

    // Across a restart.
    let app = TestApp::start(dir.path(), None);
    let v = app.ok("snapshot", json!({"kind": "slide"}));
    assert_eq!(
        v["snapshot"]["challenge"],
        json!({"moves": 7, "ms": 1_000, "name": null, "replay": false, "verified": false}),
        "{v}"
    );
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 7}}));
    let w = app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    let c: &Value = &w["finish"]["challenge"];
    assert_eq!(c["moves"], 7);
    assert_eq!(c["beaten"], true, "3 moves beat 7: {c}");
    app.close();
}

/// The card of a won challenge: `beat` is the friend's result that was beaten (the card's code
/// carries the player's own); a `beat` the result does not beat, or malformed, is refused.
#[test]
fn a_card_says_which_challenge_was_beaten() {
    let (_dir, app) = fresh_app("chal-card");
    let own = code_with(&app, 1, 400);
    let card = |beat: Value| {
        let mut c = json!({"code": own, "lang": "en", "moves": 1, "seconds": 0});
        if !beat.is_null() {
            c["beat"] = beat;
        }
        json!({ "card": c })
    };
    let plain = app.ok("card_image", card(Value::Null));
    let beaten = app.ok("card_image", card(json!({"moves": 5, "ms": 60_000})));
    assert_ne!(plain, beaten, "the beaten line is drawn");
    for (beat, want) in [
        (json!({"moves": 0, "ms": 5}), "out_of_range"),
        (json!({"moves": 5}), "bad_argument"),
        (json!({"moves": 5, "ms": 5, "x": 1}), "bad_argument"),
        (json!({"moves": -5, "ms": 5}), "bad_argument"),
        (json!("5"), "bad_argument"),
    ] {
        assert_eq!(app.err("card_image", card(beat.clone())), want, "{beat}");
    }
    let more =
        json!({"card": {"code": own, "moves": 9, "seconds": 1, "beat": {"moves": 5, "ms": 9_000}}});
    assert_eq!(
        app.err("card_image", more),
        "out_of_range",
        "9 moves beat no 5"
    );
    app.close();
}
