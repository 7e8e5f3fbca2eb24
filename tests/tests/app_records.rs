//! Issue 16 on the mock runtime: `records` statistics (bests of clean wins only, wins and
//! plays, averages of 5 and 12, history capped at 100) and picture puzzles (levels, slots,
//! record scope, the player's own picture).

use huarong_tests::{fresh_app, gap_neighbours, TempDir, TestApp};
use serde_json::{json, Value};

const NEAR_WIN: &str = "slide:3x3:1,2,3,4,5,6,7,0,8";

/// NEAR_WIN's record scope: a board given as an ID, not dealt by the app, has a scope of its
/// own, never its size's.
fn scope() -> String {
    huarong_core::records::scope_of_id(NEAR_WIN).unwrap()
}

fn app(tag: &str) -> (TempDir, TestApp) {
    let dir = TempDir::new(tag);
    let app = TestApp::start(dir.path(), None);
    (dir, app)
}

fn win_near(app: &TestApp) -> Value {
    app.ok("open_game", json!({"id": NEAR_WIN, "replace": true}));
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}))
}

fn records(app: &TestApp, scope: &str) -> Value {
    app.ok("records", json!({"scope": scope}))
}

/// The WCA-like average of the last `n` clean times in `history` (what the app must say).
fn expected_average(history: &[Value], n: usize) -> Option<u64> {
    let clean: Vec<u64> = history
        .iter()
        .filter(|e| e["clean"] == true)
        .map(|e| e["ms"].as_u64().unwrap())
        .collect();
    if clean.len() < n {
        return None;
    }
    let mut last = clean[clean.len() - n..].to_vec();
    last.sort_unstable();
    let mid = &last[1..n - 1];
    let k = mid.len() as u64;
    Some((2 * mid.iter().sum::<u64>() + k) / (2 * k))
}

#[test]
fn a_scope_never_played_is_all_nulls_and_bad_scopes_are_refused() {
    let (_d, app) = app("rec-empty");
    let r = records(&app, "slide:4x4");
    for k in [
        "best_moves",
        "best_ms",
        "ao5_ms",
        "ao12_ms",
        "best_ao5_ms",
        "best_ao12_ms",
    ] {
        assert!(r[k].is_null(), "{k}: {r}");
    }
    assert_eq!(r["wins"], 0);
    assert_eq!(r["plays"], 0);
    assert_eq!(r["rule"], "tile");
    assert_eq!(r["scope"], "slide:4x4");
    assert_eq!(r["history"], json!([]));
    assert_eq!(app.ok("records", json!({})), json!([]), "no scopes yet");
    for bad in [
        json!("chess:1"),
        json!(""),
        json!(7),
        json!("x".repeat(500)),
    ] {
        assert_eq!(
            app.err("records", json!({"scope": bad})),
            "bad_argument",
            "{bad}"
        );
    }
}

#[test]
fn undo_hints_and_auto_solve_are_marked_and_never_set_bests() {
    let (_d, app) = app("rec-marked");
    // Undo: a win, but not a best.
    app.ok("open_game", json!({"id": NEAR_WIN}));
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 7}}));
    app.ok("undo", json!({"kind": "slide"}));
    let v = app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    assert_eq!(v["finish"]["undo_used"], true);
    let r = records(&app, &scope());
    assert!(r["best_moves"].is_null() && r["best_ms"].is_null(), "{r}");
    assert_eq!(r["wins"], 1);
    assert_eq!(r["plays"], 1);
    assert_eq!(r["history"][0]["undo_used"], true);
    assert_eq!(r["history"][0]["moves"], 1);
    assert_eq!(r["history"][0]["optimal"], 1);
    assert_eq!(r["history"][0]["clean"], false);
    // A hint.
    app.ok("open_game", json!({"id": NEAR_WIN}));
    let h = app.ok("hint", json!({"kind": "slide"}));
    app.ok("play", json!({"kind": "slide", "mv": h["mv"]}));
    let r = records(&app, &scope());
    assert!(r["best_moves"].is_null(), "{r}");
    assert_eq!(r["history"][1]["hints_used"], 1);
    assert_eq!(r["wins"], 2);
    // Auto-solved: history only, not a win.
    app.ok("open_game", json!({"id": NEAR_WIN}));
    let s = app.ok("solve", json!({"kind": "slide"}));
    for mv in s["moves"].as_array().unwrap() {
        app.ok("play", json!({"kind": "slide", "mv": mv}));
    }
    let r = records(&app, &scope());
    assert_eq!(r["history"][2]["auto_solved"], true);
    assert_eq!(r["wins"], 2, "auto-solved is not a win");
    assert!(r["best_moves"].is_null());
    // A clean win sets the bests.
    let v = win_near(&app);
    let ms = v["finish"]["time_ms"].as_u64().unwrap();
    let r = records(&app, &scope());
    assert_eq!(r["best_moves"], 1);
    assert_eq!(r["best_ms"], ms);
    assert_eq!(r["wins"], 3);
    assert_eq!(r["plays"], 4);
    assert_eq!(r["history"].as_array().unwrap().len(), 4, "newest last");
    assert_eq!(r["history"][3]["clean"], true);
    assert!(r["ao5_ms"].is_null(), "one clean win is no average");
    // The legacy record is still there.
    let p = app.ok("get_progress", json!({}));
    assert_eq!(p["records"][format!("{}/tile", scope())]["wins"], 3);
    assert!(
        p["records"].get("slide:3x3/tile").is_none(),
        "not the size's record"
    );
    // The list of scopes.
    let all = app.ok("records", json!({}));
    assert_eq!(all.as_array().unwrap().len(), 1);
    assert_eq!(all[0]["scope"], scope());
    assert_eq!(all[0]["kind"], "slide");
    assert!(all[0].get("history").is_none());
}

#[test]
fn averages_history_cap_and_rules() {
    let (_d, app) = app("rec-avg");
    let mut times = Vec::new();
    for i in 0..105 {
        let v = win_near(&app);
        times.push(v["finish"]["time_ms"].as_u64().unwrap());
        if i == 4 || i == 11 {
            let r = records(&app, &scope());
            let h = r["history"].as_array().unwrap();
            assert_eq!(r["ao5_ms"].as_u64(), expected_average(h, 5), "{r}");
            assert_eq!(r["ao12_ms"].as_u64(), expected_average(h, 12), "{r}");
        }
    }
    let r = records(&app, &scope());
    let h = r["history"].as_array().unwrap();
    assert_eq!(h.len(), 100, "the last 100 finishes");
    assert_eq!(
        h.last().unwrap()["ms"].as_u64().unwrap(),
        *times.last().unwrap()
    );
    assert_eq!(h[0]["ms"].as_u64().unwrap(), times[5], "oldest dropped");
    assert_eq!(r["wins"], 105);
    assert_eq!(r["plays"], 105);
    assert_eq!(r["ao5_ms"].as_u64(), expected_average(h, 5));
    assert_eq!(r["ao12_ms"].as_u64(), expected_average(h, 12));
    assert_eq!(r["ao5_moves"], 1.0);
    assert!(r["best_ao5_ms"].as_u64().unwrap() <= r["ao5_ms"].as_u64().unwrap());
    assert!(r["best_ao12_ms"].as_u64().unwrap() <= r["ao12_ms"].as_u64().unwrap());
    assert_eq!(r["best_ms"], *times.iter().min().unwrap());

    // Under the line rule, moves are counted per tap: one tap of two tiles is one move.
    app.ok(
        "set_settings",
        json!({"settings": {"rules": {"slide": "line"}}}),
    );
    let two = "slide:3x3:1,2,3,4,5,6,0,7,8";
    app.ok("open_game", json!({"id": two, "replace": true}));
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    let two_scope = huarong_core::records::scope_of_id(two).unwrap();
    let r = records(&app, &two_scope);
    assert_eq!(r["rule"], "line");
    assert_eq!(r["history"].as_array().unwrap().last().unwrap()["moves"], 1);
    assert!(
        r["history"].as_array().unwrap().last().unwrap()["optimal"].is_null(),
        "the optimum is known under the default rule only"
    );
    app.ok(
        "set_settings",
        json!({"settings": {"rules": {"slide": "tile"}}}),
    );
    let r = records(&app, &two_scope);
    assert_eq!(r["history"].as_array().unwrap().last().unwrap()["moves"], 2);
}

#[test]
fn records_survive_a_restart() {
    let (dir, app) = fresh_app("rec-restart");
    win_near(&app);
    let before = records(&app, &scope());
    app.close();
    let app = TestApp::start(dir.path(), None);
    assert_eq!(records(&app, &scope()), before);
    app.close();
}

#[test]
fn pictures_are_levels_with_their_own_slot_and_scope() {
    let (_d, app) = app("pictures");
    let l = app.ok("levels", json!({"kind": "slide"}));
    let pics = l["pictures"].as_array().unwrap();
    assert!(pics.len() >= 3, "{l}");
    let lotus = pics.iter().find(|p| p["name"] == "lotus").unwrap();
    assert_eq!(lotus["params"], "3x3/picture:lotus");
    assert_eq!(lotus["name_zh"], "荷塘");
    assert_eq!(lotus["slot"], "slide:3x3/picture");
    assert!(lotus["best"].is_null());
    assert!(l["levels"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["scope"].is_string()));

    let v = app.new_game(json!({"kind": "slide", "params": "3x3/picture:lotus", "seed": 1}));
    assert_eq!(v["slot"], "slide:3x3/picture");
    assert_eq!(v["id"], "slide:3x3/picture:lotus#1");
    // The number game of the same size is another slot.
    let n = app.new_game(json!({"kind": "slide", "params": "3x3", "seed": 1}));
    assert_eq!(n["slot"], "slide:3x3");
    // Picture puzzles are square: a typed error, never an internal one.
    let e = app.err(
        "new_game",
        json!({"kind": "slide", "params": "3x4/picture:lotus"}),
    );
    assert!(e == "parse" || e == "out_of_range", "{e}");

    // A picture puzzle the app dealt (`v`, seeded) counts for the pictures' scope.
    app.ok("resume_game", json!({"slot": "slide:3x3/picture"}));
    let id = v["id"].as_str().unwrap();
    let p = huarong_engine::GameId::parse(id).unwrap();
    let mut g =
        <huarong_engine::slide::Slide as huarong_engine::Game>::from_id(&p.body, p.seed).unwrap();
    let mut w = Value::Null;
    for mv in huarong_engine::Game::solve(&g.clone(), &huarong_engine::Cancel::new()).unwrap() {
        huarong_engine::Game::apply(&mut g, &mv).unwrap();
        w = app.ok("play", json!({"kind": "slide", "mv": mv}));
    }
    assert_eq!(w["finish"]["key"], "slide:3x3/picture/tile");
    let best = w["finish"]["moves"].clone();
    assert_eq!(records(&app, "slide:3x3/picture")["wins"], 1);
    // One given as an ID keeps a scope of its own.
    app.ok(
        "open_game",
        json!({"id": "slide:3x3/picture:lotus:1,2,3,4,5,6,7,0,8"}),
    );
    let w = app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    let key = w["finish"]["key"].as_str().unwrap();
    assert!(key.starts_with("slide:3x3/picture/board:"), "{key}");
    assert_eq!(records(&app, "slide:3x3/picture")["wins"], 1);
    assert_eq!(
        records(&app, "slide:3x3")["wins"],
        0,
        "picture games are their own scope"
    );
    let l = app.ok("levels", json!({"kind": "slide"}));
    let lotus = l["pictures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "lotus")
        .unwrap()
        .clone();
    assert_eq!(lotus["best"]["best_moves"], best);
}

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0";

fn b64(bytes: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for c in bytes.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            if i <= c.len() {
                s.push(T[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

#[test]
fn the_players_picture_is_validated_stored_and_loaded() {
    let (dir, app) = fresh_app("own-picture");
    assert_eq!(app.ok("load_picture", json!({})), Value::Null);
    let url = format!("data:image/png;base64,{}", b64(PNG));
    let saved = app.ok("save_picture", json!({"data": url}));
    assert_eq!(saved["format"], "png");
    assert_eq!(saved["bytes"], PNG.len());
    assert!(dir.path().join("pictures/custom.png").is_file());
    assert_eq!(app.ok("load_picture", json!({})), json!(url));
    let l = app.ok("levels", json!({"kind": "slide"}));
    assert!(l["pictures"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["custom"] == true && p["params"] == "3x3/picture:custom"));

    let jpeg = [0xffu8, 0xd8, 0xff, 0xe0, 0, 16, b'J', b'F', b'I', b'F'];
    let big = {
        let mut b = PNG.to_vec();
        b.resize(600 * 1024, 0);
        b
    };
    for bad in [
        json!({}),
        json!({"data": 5}),
        json!({"data": format!("data:image/gif;base64,{}", b64(b"GIF89a...."))}),
        json!({"data": b64(b"GIF89a....")}),
        json!({"data": format!("data:image/jpeg;base64,{}", b64(PNG))}),
        json!({"data": "data:image/png;base64,@@@@"}),
        json!({"data": "data:image/png,plain"}),
        json!({"data": b64(&big)}),
        json!({"data": ""}),
    ] {
        assert_eq!(
            app.err("save_picture", bad.clone()),
            "bad_argument",
            "{bad}"
        );
    }
    assert_eq!(
        app.ok("load_picture", json!({})),
        json!(url),
        "a refused picture changes nothing"
    );
    // Bare base64 works too; a new format replaces the old file.
    app.ok("save_picture", json!({"data": b64(&jpeg)}));
    assert!(!dir.path().join("pictures/custom.png").exists());
    assert_eq!(
        app.ok("load_picture", json!({})),
        json!(format!("data:image/jpeg;base64,{}", b64(&jpeg)))
    );
    app.close();
}

/// The share card of a picture puzzle draws its tiles from the picture the UI sends (a PNG,
/// here a card image, which is one); anything else is a typed error.
#[test]
fn a_picture_puzzles_card_takes_its_picture() {
    let (_d, app) = app("pic-card");
    let code = app.ok(
        "encode_code",
        json!({"id": "slide:3x3/picture:lotus:4,1,3,7,2,6,5,8,0"}),
    )["code"]
        .clone();
    let card = |picture: Option<Value>| {
        let mut c = json!({"code": code, "lang": "en", "moves": 12, "seconds": 40});
        if let Some(p) = picture {
            c["picture"] = p;
        }
        json!({ "card": c })
    };
    let plain = app.ok("card_image", card(None));
    let png = plain.as_str().unwrap();
    assert!(png.starts_with("data:image/png;base64,"));
    let with = app.ok("card_image", card(Some(plain.clone())));
    assert!(with.as_str().unwrap().starts_with("data:image/png;base64,"));
    assert_ne!(with, plain, "the tiles show the picture");
    // Bare base64 is taken too.
    let bare = png.trim_start_matches("data:image/png;base64,");
    assert_eq!(app.ok("card_image", card(Some(json!(bare)))), with);

    let jpeg = [0xffu8, 0xd8, 0xff, 0xe0, 0, 16, b'J', b'F', b'I', b'F'];
    let not_png = format!("data:image/png;base64,{}", b64(b"not a png at all"));
    let cut = format!("data:image/png;base64,{}", &bare[..200]);
    for (bad, want) in [
        (json!(b64(&jpeg)), "bad_argument"),
        (json!(not_png), "bad_argument"),
        (json!(cut), "parse"),
        (json!(7), "bad_argument"),
        (json!("x".repeat(400 * 1024)), "bad_argument"),
    ] {
        assert_eq!(app.err("card_image", card(Some(bad.clone()))), want);
    }
    // A number game's card takes no picture.
    let number =
        app.ok("encode_code", json!({"id": "slide:3x3:4,1,3,7,2,6,5,8,0"}))["code"].clone();
    let args = json!({"card": {"code": number, "moves": 1, "seconds": 1, "picture": plain}});
    assert_eq!(app.err("card_image", args), "parse");
}

/// Every picture plays at 3×3 to 6×6, each size its own slot and record scope; a bad picture
/// name or size is a typed error, never an internal one, and changes no game.
#[test]
fn pictures_play_at_every_side_and_bad_names_are_refused() {
    let (_d, app) = app("pic-sides");
    for n in 3..=6 {
        let v = app.new_game(
            json!({"kind": "slide", "params": format!("{n}x{n}/picture:koi"), "seed": 3}),
        );
        assert_eq!(v["slot"], format!("slide:{n}x{n}/picture"));
        assert_eq!(v["id"], format!("slide:{n}x{n}/picture:koi#3"));
    }
    let before = app.ok("snapshot", json!({"kind": "slide"}));
    for bad in [
        "3x3/picture:../etc",
        "3x3/picture:a/b",
        "3x3/picture:",
        "3x3/picture:Lotus",
        "3x3/picture:a b",
        "2x2/picture:lotus",
        "7x7/picture:lotus",
        "3x3/picture:lotus/picture:koi",
    ] {
        let e = app.err(
            "new_game",
            json!({"kind": "slide", "params": bad, "replace": true}),
        );
        assert!(
            ["parse", "out_of_range", "bad_argument"].contains(&e.as_str()),
            "{bad}: {e}"
        );
        let id = format!("slide:{bad}:1,2,3,4,5,6,7,0,8");
        let e = app.err("open_game", json!({"id": id, "replace": true}));
        assert!(
            ["parse", "out_of_range", "bad_argument", "bad_code"].contains(&e.as_str()),
            "{id}: {e}"
        );
    }
    assert_eq!(app.ok("snapshot", json!({"kind": "slide"})), before);
}

/// Klotski's scope is its start board, under its own rule; 2048's is `2048`; a number-slide
/// daily counts in its size's scope.
#[test]
fn klotski_2048_and_daily_scopes() {
    let (_d, app) = app("rec-scopes");
    let id = "klotski:a..b/a..b/cCCe/cCCe/h..i";
    app.ok("open_game", json!({ "id": id }));
    let w = app.ok(
        "play",
        json!({"kind": "klotski", "mv": {"piece": "C", "to": [3, 1]}}),
    );
    assert_eq!(w["snapshot"]["status"], "won", "{w}");
    let scope = w["finish"]["key"]
        .as_str()
        .unwrap()
        .rsplit_once('/')
        .unwrap()
        .0
        .to_string();
    assert!(scope.starts_with("klotski:"), "{scope}");
    let r = records(&app, &scope);
    assert_eq!(r["rule"], "piece");
    assert_eq!(r["best_moves"], 1);
    assert_eq!(r["wins"], 1);
    assert_eq!(r["history"][0]["moves"], 1);
    let r = records(&app, "2048");
    assert_eq!(r["rule"], "moves");
    assert_eq!(r["plays"], 0);
    assert!(r["best_ms"].is_null());

    let daily = app.ok("daily_info", json!({}));
    let v = app.snap("open_game", json!({ "id": daily["slide"] }));
    assert_eq!(v["mode"], "daily");
    let tile = gap_neighbours(&v)[0];
    app.ok("play", json!({"kind": "slide", "mv": {"tile": tile}}));
    assert_eq!(records(&app, "slide:4x4")["plays"], 1, "the daily is a 4×4");
}
