//! Every command of the app, called over the real IPC path on tauri's mock runtime, with
//! good and malformed input. (Random input: `app_props.rs`; files: `app_persist.rs`.)

use huarong_tests::{fresh_app, TempDir, TestApp};
use serde_json::{json, Value};

const NEAR_WIN: &str = "slide:3x3:1,2,3,4,5,6,7,0,8";
/// 横刀立马 in the classic file's letters.
const HENG_DAO_LI_MA: &str = "klotski:aCCb/aCCb/cdde/cfge/h..i";

#[test]
fn open_game_accepts_ids_codes_and_links_and_rejects_garbage() {
    let (_d, app) = fresh_app("open");
    let v = app.ok("open_game", json!({"id": NEAR_WIN}));
    assert_eq!(v["snapshot"]["kind"], "slide");
    assert_eq!(v["snapshot"]["board"], "3x3:1,2,3,4,5,6,7,0,8");
    assert_eq!(v["snapshot"]["moves"], 0);
    assert_eq!(v["snapshot"]["status"], "playing");
    assert!(v["effect"].is_null() && v["finish"].is_null());
    assert_eq!(v["rule"], "tile");

    let v = app.ok("open_game", json!({"id": "2048#7"}));
    assert_eq!(v["snapshot"]["kind"], "2048");
    let v2 = app.ok("open_game", json!({"id": "2048:#7"}));
    assert_eq!(
        v["snapshot"]["board"], v2["snapshot"]["board"],
        "a seed is a game ID"
    );

    let v = app.ok("open_game", json!({"id": HENG_DAO_LI_MA}));
    assert_eq!(v["snapshot"]["kind"], "klotski");

    // Share code and link.
    let code = huarong_engine::code::encode(NEAR_WIN).unwrap();
    let v = app.ok("open_game", json!({"id": code}));
    assert_eq!(v["snapshot"]["board"], "3x3:1,2,3,4,5,6,7,0,8");
    let v = app.ok(
        "open_game",
        json!({"id": huarong_engine::code::link(&code)}),
    );
    assert_eq!(v["snapshot"]["board"], "3x3:1,2,3,4,5,6,7,0,8");

    for (args, code) in [
        (json!({}), "bad_argument"),
        (json!({"id": null}), "bad_argument"),
        (json!({"id": 42}), "bad_argument"),
        (json!({"id": ["slide:3x3#1"]}), "bad_argument"),
        (json!({"id": ""}), "bad_argument"),
        (json!({"id": "   "}), "bad_argument"),
        (json!({"id": "x".repeat(5000)}), "bad_argument"),
        (json!({"id": "slide:3x3:1,2,3\n"}), "parse"),
        (json!({"id": "slide:3x3:1,2,3,4,5,6,7,8,8"}), "parse"),
        (json!({"id": "chess:e4"}), "parse"),
        (json!({"id": "slide:99x99#1"}), "out_of_range"),
        (json!({"id": "huarong://play?c=AAAA"}), "bad_code"),
        (json!({"id": "https://example.com/?c=AAAA"}), "bad_code"),
        (
            json!({"id": format!("{}?c=AAAA", huarong_engine::code::LINK_BASE)}),
            "bad_code",
        ),
        (json!({"id": "klotski:...."}), "parse"),
    ] {
        let got = app.err("open_game", args.clone());
        // Engines may classify some garbage as parse vs out_of_range; what matters is a
        // typed, stable error, never an internal one.
        assert_ne!(got, "internal", "{args}");
        if code == "bad_argument" {
            assert_eq!(got, code, "{args}");
        }
    }
    let e = app
        .call("open_game", json!({"id": "slide:3x3:1,2"}))
        .unwrap_err();
    assert!(!e["message"].as_str().unwrap().is_empty());
}

#[test]
fn new_game_is_seeded_and_validates_arguments() {
    let (_d, app) = fresh_app("new");
    let a = app.new_game(json!({"kind": "slide", "params": "4x4", "seed": 5}));
    assert_eq!(a["id"], "slide:4x4#5");
    let b = app.new_game(json!({"kind": "slide", "params": "4x4", "seed": "5"}));
    assert_eq!(a["board"], b["board"]);
    let c = app.new_game(json!({"kind": "slide", "params": "4x4"}));
    let d = app.new_game(json!({"kind": "slide", "params": "4x4"}));
    assert_ne!(c["id"], d["id"], "no seed → a random one");
    // A random seed survives a JS number: below 2^53.
    let seed: u64 = c["id"]
        .as_str()
        .unwrap()
        .rsplit('#')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(seed < 1 << 53);
    let k = app.new_game(json!({"kind": "klotski", "params": "10-30", "seed": 3}));
    assert_eq!(k["id"], "klotski:10-30#3");
    let g = app.new_game(json!({"kind": "2048", "params": "", "seed": 9}));
    assert_eq!(g["id"], "2048:#9");
    let g2 = app.new_game(json!({"kind": "2048", "seed": 9}));
    assert_eq!(g["board"], g2["board"]);
    let big =
        app.new_game(json!({"kind": "slide", "params": "3x3", "seed": "18446744073709551615"}));
    assert_eq!(big["id"], "slide:3x3#18446744073709551615");

    for args in [
        json!({"params": "4x4"}),
        json!({"kind": "chess", "params": "4x4"}),
        json!({"kind": 2048}),
        json!({"kind": "slide", "params": "4x4#1"}),
        json!({"kind": "slide", "params": 44}),
        json!({"kind": "slide", "params": "x".repeat(100)}),
        json!({"kind": "slide", "params": "4x4", "seed": -1}),
        json!({"kind": "slide", "params": "4x4", "seed": 1.5}),
        json!({"kind": "slide", "params": "4x4", "seed": "12a"}),
        json!({"kind": "slide", "params": "4x4", "seed": {"n": 1}}),
    ] {
        assert_eq!(app.err("new_game", args.clone()), "bad_argument", "{args}");
    }
    for args in [
        json!({"kind": "slide", "params": "11x11", "seed": 1}),
        json!({"kind": "slide", "params": "1x9", "seed": 1}),
        json!({"kind": "slide", "params": "", "seed": 1}),
        json!({"kind": "klotski", "params": "90-10", "seed": 1}),
        json!({"kind": "2048", "params": "1,2,3", "seed": 1}),
    ] {
        let code = app.err("new_game", args.clone());
        assert!(code == "parse" || code == "out_of_range", "{args}: {code}");
    }
}

#[test]
fn play_undo_redo_restart_follow_the_session_laws() {
    let (_d, app) = fresh_app("play");
    assert_eq!(
        app.err("play", json!({"kind": "slide", "mv": {"tile": 1}})),
        "no_game"
    );
    assert_eq!(app.err("undo", json!({"kind": "slide"})), "no_game");
    assert_eq!(app.err("snapshot", json!({"kind": "klotski"})), "no_game");

    app.ok("open_game", json!({"id": "slide:3x3:1,2,3,4,0,6,7,5,8"}));
    assert_eq!(app.err("undo", json!({"kind": "slide"})), "nothing_to_undo");
    assert_eq!(app.err("redo", json!({"kind": "slide"})), "nothing_to_redo");
    let v = app.ok("play", json!({"kind": "slide", "mv": {"tile": 6}}));
    assert_eq!(v["snapshot"]["moves"], 1);
    assert_eq!(v["snapshot"]["can_undo"], true);
    assert!(
        v["effect"]["moved"].is_array(),
        "the effect says what moved: {v}"
    );
    assert_eq!(
        app.err("play", json!({"kind": "slide", "mv": {"tile": 1}})),
        "illegal_move"
    );
    let v = app.ok("undo", json!({"kind": "slide"}));
    assert_eq!(v["snapshot"]["board"], "3x3:1,2,3,4,0,6,7,5,8");
    assert_eq!(v["snapshot"]["can_redo"], true);
    let v = app.ok("redo", json!({"kind": "slide"}));
    assert_eq!(v["snapshot"]["board"], "3x3:1,2,3,4,6,0,7,5,8");
    // A new move after undo drops the redo branch.
    app.ok("undo", json!({"kind": "slide"}));
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 5}}));
    assert_eq!(app.err("redo", json!({"kind": "slide"})), "nothing_to_redo");
    // Restart is undoable.
    let v = app.ok("restart", json!({"kind": "slide"}));
    assert_eq!(v["snapshot"]["board"], "3x3:1,2,3,4,0,6,7,5,8");
    let v = app.ok("undo", json!({"kind": "slide"}));
    assert_eq!(v["snapshot"]["board"], "3x3:1,2,3,4,5,6,7,0,8");
    let v = app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    assert_eq!(v["snapshot"]["status"], "won");
    let f = &v["finish"];
    assert_eq!(f["status"], "won");
    assert_eq!(f["counted"], true);
    assert_eq!(f["undo_used"], true, "{f}");
    assert_eq!(
        app.err("play", json!({"kind": "slide", "mv": {"tile": 8}})),
        "illegal_move"
    );

    for mv in [
        json!(null),
        json!(8),
        json!("8"),
        json!({"tile": "8"}),
        json!({"tile": -1}),
        json!({"tile": 8, "extra": 1}),
        json!({"dir": "left"}),
        json!({"tile": 8, "pad": "x".repeat(400)}),
    ] {
        assert_eq!(
            app.err("play", json!({"kind": "slide", "mv": mv.clone()})),
            "bad_argument",
            "{mv}"
        );
    }
    assert_eq!(app.err("play", json!({"kind": "slide"})), "bad_argument");
    assert_eq!(app.err("play", json!({"mv": {"tile": 8}})), "bad_argument");
    for cmd in ["undo", "redo", "restart", "snapshot"] {
        assert_eq!(app.err(cmd, json!({})), "bad_argument", "{cmd}");
        assert_eq!(
            app.err(cmd, json!({"kind": "tetris"})),
            "bad_argument",
            "{cmd}"
        );
    }
}

#[test]
fn klotski_drag_targets_moves_and_a_classic_win_unlocks_the_next() {
    let (_d, app) = fresh_app("klotski");
    assert_eq!(app.err("klotski_targets", json!({"piece": "a"})), "no_game");
    let levels = app.ok("levels", json!({"kind": "klotski"}));
    let list = levels["levels"].as_array().unwrap();
    assert_eq!(list.len(), 40);
    // Levels 1-3 of the difficulty order, plus the best-known classics, are open from the start.
    let open: Vec<&str> = list
        .iter()
        .filter(|l| l["unlocked"] == true)
        .map(|l| l["name_zh"].as_str().unwrap())
        .collect();
    assert_eq!(
        open.len(),
        3 + huarong_core::games::OPEN_FROM_START.len(),
        "{open:?}"
    );
    for name in ["横刀立马", "指挥若定", "将拥曹营", "齐头并进", "兵分三路"] {
        assert!(
            open.contains(&name),
            "{name} is open from the start: {open:?}"
        );
    }
    assert!(list[..3].iter().all(|l| l["unlocked"] == true));
    let first = &list[0];
    assert!(first["name_zh"].as_str().unwrap().chars().count() >= 2);
    assert!(first["stars"]["three"].as_u64().unwrap() >= first["optimal"].as_u64().unwrap());

    // Solve level 1 by following the hints: optimal moves, three stars, level 4 unlocks.
    let optimal = first["optimal"].as_u64().unwrap();
    app.ok("open_game", json!({"id": first["id"]}));
    let t = app.ok("klotski_targets", json!({"piece": "C"}));
    assert!(t.is_array());
    for bad in [json!("CC"), json!("1"), json!(7), json!(null)] {
        assert_eq!(
            app.err("klotski_targets", json!({"piece": bad.clone()})),
            "bad_argument",
            "{bad}"
        );
    }
    assert_eq!(
        app.err("klotski_targets", json!({"piece": "Z"})),
        "illegal_move"
    );
    let mut last = Value::Null;
    for _ in 0..200 {
        let h = app.ok("hint", json!({"kind": "klotski"}));
        assert_eq!(h["optimal"], true);
        // The hinted move is among the piece's drag targets.
        let targets = app.ok("klotski_targets", json!({"piece": h["mv"]["piece"]}));
        assert!(
            targets
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t["to"] == h["mv"]["to"]),
            "{h} not in {targets}"
        );
        last = app.ok("play", json!({"kind": "klotski", "mv": h["mv"]}));
        if last["snapshot"]["status"] == "won" {
            break;
        }
    }
    let f = &last["finish"];
    assert_eq!(f["moves"], optimal, "{f}");
    assert_eq!(f["optimal"], optimal);
    // Won along hints: one star and no "perfect" (registry::with_hints), still a win, but an
    // assisted one: no record.
    assert_eq!(f["stars"], 1);
    assert_eq!(f["perfect"], false);
    assert_eq!(
        (&f["assisted"], &f["new_record"]),
        (&json!(true), &json!(false))
    );
    assert_eq!(f["record"]["best_moves"], Value::Null, "{f}");
    assert_eq!(f["record"]["wins"], 1, "{f}");
    let levels = app.ok("levels", json!({"kind": "klotski"}));
    assert_eq!(levels["levels"][0]["best"]["wins"], 1);
    assert_eq!(levels["levels"][0]["best"]["stars"], 1);
    assert_eq!(
        levels["levels"][3]["unlocked"], false,
        "levels 1-3 start open; winning level 1 opens nothing new"
    );
    assert_eq!(levels["unlocked"], 3);
    // Klotski moves in JSON form; illegal ones are typed.
    app.ok("open_game", json!({"id": HENG_DAO_LI_MA}));
    assert_eq!(
        app.err(
            "play",
            json!({"kind": "klotski", "mv": {"piece": "C", "to": [3, 1]}})
        ),
        "illegal_move"
    );
    assert_eq!(
        app.err(
            "play",
            json!({"kind": "klotski", "mv": {"piece": "C", "to": [300, 1]}})
        ),
        "bad_argument"
    );
    assert_eq!(
        app.err("play", json!({"kind": "klotski", "mv": {"piece": "C"}})),
        "bad_argument"
    );
    let v = app.ok(
        "play",
        json!({"kind": "klotski", "mv": {"piece": "h", "to": [4, 1]}}),
    );
    assert_eq!(v["snapshot"]["moves"], 1);
    assert_eq!(v["snapshot"]["counters"]["unit"], 1);
}

#[test]
fn hints_solve_and_the_2048_ai() {
    let (_d, app) = fresh_app("hint");
    app.ok("open_game", json!({"id": "slide:3x3:1,2,3,4,5,6,0,7,8"}));
    let h = app.ok("hint", json!({"kind": "slide"}));
    assert_eq!(h["optimal"], true);
    assert_eq!(
        h["remaining"], 1,
        "one tap on 8 slides 7 and 8 together: {h}"
    );
    assert_eq!(h["mv"]["tile"], 8);
    let v = app.ok("play", json!({"kind": "slide", "mv": h["mv"]}));
    assert_eq!(v["snapshot"]["status"], "won");
    assert_eq!(v["finish"]["hints_used"], 1);
    assert_eq!(app.err("hint", json!({"kind": "slide"})), "illegal_move");

    // solve: the moves replay to the goal; the game is marked and sets no record.
    app.ok(
        "new_game",
        json!({"kind": "slide", "params": "3x3", "seed": 11}),
    );
    let s = app.ok("solve", json!({"kind": "slide"}));
    let moves = s["moves"].as_array().unwrap().clone();
    assert!(!moves.is_empty());
    let mut last = Value::Null;
    for m in &moves {
        last = app.ok("play", json!({"kind": "slide", "mv": m}));
    }
    assert_eq!(last["snapshot"]["status"], "won");
    assert_eq!(last["snapshot"]["auto_solved"], true);
    assert_eq!(last["finish"]["counted"], false);
    assert_eq!(last["finish"]["new_record"], false);

    app.ok("new_game", json!({"kind": "2048", "seed": 1}));
    let h = app.ok("hint", json!({"kind": "2048"}));
    assert!(h["mv"]["dir"].is_string(), "{h}");
    assert!(h["values"].is_array(), "{h}");
    assert_eq!(app.err("solve", json!({"kind": "2048"})), "unsupported");
    assert_eq!(app.err("hint", json!({"kind": "klotski"})), "no_game");
    assert_eq!(app.err("hint", json!({"kind": 1})), "bad_argument");
}

#[test]
fn a_move_or_a_newer_request_cancels_a_running_hint() {
    use huarong_core::Code;
    use huarong_engine::{ErrorCode, Kind};
    let (_d, app) = fresh_app("cancel");
    // The 2048 AI searches for up to 150 ms. Search durations vary, so each race is run
    // several times: a result is always either a hint or `cancelled`, and overlapping
    // requests do get cancelled.
    app.ok("new_game", json!({"kind": "2048", "seed": 8}));
    let (mut by_move, mut by_request) = (0, 0);
    for _ in 0..12 {
        let st = app.state();
        let search = std::thread::spawn(move || st.hint(Kind::G2048));
        std::thread::sleep(std::time::Duration::from_millis(2));
        let moved = ["left", "up", "right", "down"].iter().any(|d| {
            app.call("play", json!({"kind": "2048", "mv": {"dir": d}}))
                .is_ok()
        });
        assert!(moved);
        match search.join().unwrap() {
            Ok(_) => {}
            Err(e) if e.code == Code::Engine(ErrorCode::Cancelled) => by_move += 1,
            Err(e) => panic!("{e}"),
        }
        let (st1, st2) = (app.state(), app.state());
        let first = std::thread::spawn(move || st1.hint(Kind::G2048));
        std::thread::sleep(std::time::Duration::from_millis(2));
        let second = std::thread::spawn(move || st2.hint(Kind::G2048));
        let (a, b) = (first.join().unwrap(), second.join().unwrap());
        assert!(
            a.is_ok() || b.is_ok(),
            "the newest request completes: {a:?} {b:?}"
        );
        for r in [a, b] {
            match r {
                Ok(_) => {}
                Err(e) if e.code == Code::Engine(ErrorCode::Cancelled) => by_request += 1,
                Err(e) => panic!("{e}"),
            }
        }
    }
    assert!(by_move > 0, "no hint was ever overtaken by a move");
    assert!(by_request > 0, "no hint was ever overtaken by a newer one");
}

#[test]
fn settings_rules_screens_progress_haptics_and_notices() {
    let (dir, app) = fresh_app("settings");
    let s = app.ok("get_settings", json!({}));
    assert_eq!(s["rules"]["slide"], "tile");
    assert_eq!(s["haptics"], true);
    let s = app.ok(
        "set_settings",
        json!({"settings": {"theme": "dark", "rules": {"slide": "line"}}}),
    );
    assert_eq!(s["theme"], "dark");
    assert_eq!(s["rules"]["slide"], "line");
    assert_eq!(
        s["rules"]["klotski"], "piece",
        "a partial change keeps the rest"
    );
    for bad in [
        json!(null),
        json!("dark"),
        json!({"theme": "neon"}),
        json!({"colour": "red"}),
        json!({"haptics": "yes"}),
        json!({"rules": {"slide": "piece"}}),
        json!({"rules": {"chess": "tile"}}),
        json!({"rules": "tile"}),
        json!({"language": "x".repeat(5000)}),
    ] {
        assert_eq!(
            app.err("set_settings", json!({"settings": bad.clone()})),
            "bad_argument",
            "{bad}"
        );
    }
    assert_eq!(app.err("set_settings", json!({})), "bad_argument");
    assert_eq!(
        app.ok("get_settings", json!({}))["theme"],
        "dark",
        "a refused change changes nothing"
    );

    // The line rule counts one slide of a run as one move.
    app.ok("open_game", json!({"id": "slide:3x3:1,2,3,4,5,6,0,7,8"}));
    let v = app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    assert_eq!(v["rule"], "line");
    assert_eq!(v["snapshot"]["moves"], 1);
    assert_eq!(v["snapshot"]["counters"]["tile"], 2);
    // A board given as an ID (not dealt by the app) keeps a scope of its own.
    let own = huarong_core::records::scope_of_id("slide:3x3:1,2,3,4,5,6,0,7,8").unwrap();
    assert!(own.starts_with("slide:3x3/board:"), "{own}");
    assert_eq!(v["finish"]["key"], format!("{own}/line"));

    app.ok("set_screen", json!({"screen": "levels:klotski"}));
    for bad in [
        json!("Levels"),
        json!(""),
        json!("a b"),
        json!(3),
        json!("x".repeat(100)),
    ] {
        assert_eq!(
            app.err("set_screen", json!({"screen": bad.clone()})),
            "bad_argument",
            "{bad}"
        );
    }
    let p = app.ok("get_progress", json!({}));
    assert_eq!(p["screen"], "levels:klotski");
    assert_eq!(
        p["records"][format!("{own}/line").as_str()]["best_moves"],
        1
    );
    assert!(
        p["records"].get("slide:3x3/line").is_none(),
        "not the size's record"
    );
    assert_eq!(p["games"]["slide"]["status"], "won");
    assert_eq!(p["storage"]["writable"], true);
    assert_eq!(p["storage"]["dir"], dir.path().display().to_string());
    assert!(p["notices"].as_array().unwrap().is_empty());

    for k in huarong_core::platform::FEEDBACK_KINDS {
        assert_eq!(app.ok("haptic", json!({"kind": k})), true, "{k}");
    }
    for bad in [json!("explode"), json!(1), json!(null)] {
        assert_eq!(
            app.err("haptic", json!({"kind": bad.clone()})),
            "bad_argument",
            "{bad}"
        );
    }
    app.ok("set_settings", json!({"settings": {"haptics": false}}));
    assert_eq!(
        app.ok("haptic", json!({"kind": "win"})),
        false,
        "the setting is honoured"
    );

    app.ok("pause", json!({}));
    app.ok("pause", json!({"kind": "slide"}));
    assert_eq!(app.err("pause", json!({"kind": "x"})), "bad_argument");
    app.state()
        .notice(huarong_core::persist::Notice::info("test", "hello"));
    assert_eq!(
        app.ok("get_progress", json!({}))["notices"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    app.ok("dismiss_notices", json!({}));
    assert!(app.ok("get_progress", json!({}))["notices"]
        .as_array()
        .unwrap()
        .is_empty());

    let lv = app.ok("levels", json!({"kind": "slide"}));
    assert!(lv["levels"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l["size"] == "4x4"));
    let lv = app.ok("levels", json!({"kind": "2048"}));
    assert_eq!(lv["levels"][0]["params"], "");
    assert_eq!(app.err("levels", json!({})), "bad_argument");
}

#[test]
fn records_keep_the_best_and_say_what_they_used() {
    let (_d, app) = fresh_app("records");
    let solve_by_hints = |app: &TestApp| {
        for _ in 0..100 {
            let h = app.ok("hint", json!({"kind": "slide"}));
            let v = app.ok("play", json!({"kind": "slide", "mv": h["mv"]}));
            if v["snapshot"]["status"] == "won" {
                return v;
            }
        }
        panic!("no win");
    };
    let s = app.new_game(json!({"kind": "slide", "params": "3x3", "seed": 4}));
    let first = solve_by_hints(&app);
    let f = &first["finish"];
    // Won with hints: a win, no record.
    assert_eq!(f["new_record"], false);
    assert_eq!(f["record"]["best_moves"], Value::Null, "{f}");
    assert_eq!(
        f["optimal"], f["moves"],
        "hints follow an optimal line: {f}"
    );
    // An optimal line shown by hints earns one star (registry::with_hints).
    assert_eq!(f["stars"], 1);
    // The same line found alone sets the record.
    app.ok(
        "new_game",
        json!({"kind": "slide", "params": "3x3", "seed": 4}),
    );
    let (line, _) = huarong_tests::solve_slide(s["id"].as_str().unwrap());
    let mut alone = Value::Null;
    for mv in &line {
        alone = app.ok("play", json!({"kind": "slide", "mv": mv}));
    }
    let f = &alone["finish"];
    assert_eq!(f["new_record"], true, "{f}");
    let best = f["moves"].as_u64().unwrap();
    assert_eq!(f["record"]["best_moves"].as_u64(), Some(best));
    // A worse game (a detour first) does not beat it.
    app.ok(
        "new_game",
        json!({"kind": "slide", "params": "3x3", "seed": 4}),
    );
    let b = app.ok("snapshot", json!({"kind": "slide"}))["snapshot"]["board"]
        .as_str()
        .unwrap()
        .to_string();
    let cells: Vec<u32> = b
        .split(':')
        .nth(1)
        .unwrap()
        .split(',')
        .map(|t| t.parse().unwrap())
        .collect();
    let blank = cells.iter().position(|&c| c == 0).unwrap();
    let neighbour = if blank % 3 > 0 {
        cells[blank - 1]
    } else {
        cells[blank + 1]
    };
    app.ok("play", json!({"kind": "slide", "mv": {"tile": neighbour}}));
    app.ok("play", json!({"kind": "slide", "mv": {"tile": neighbour}}));
    let second = solve_by_hints(&app);
    let f = &second["finish"];
    assert_eq!(f["moves"].as_u64().unwrap(), best + 2);
    assert_eq!(f["record"]["best_moves"].as_u64().unwrap(), best);
    assert_eq!(f["record"]["wins"], 3);
    assert_eq!(f["record"]["rule"], "tile");

    // 2048: the score and the biggest tile are the record.
    app.ok(
        "open_game",
        json!({"id": "2048:2,2,4,8,16,32,64,128,256,512,1024,2,4,8,16,32#1"}),
    );
    let v = app.ok("play", json!({"kind": "2048", "mv": {"dir": "left"}}));
    assert!(
        v["snapshot"]["counters"]["score"].as_u64().unwrap() >= 4,
        "{v}"
    );
}

#[test]
fn open_on_the_command_line() {
    let dir = TempDir::new("launch");
    let app = TestApp::start(dir.path(), Some(NEAR_WIN));
    let p = app.ok("get_progress", json!({}));
    assert_eq!(p["screen"], "game:slide");
    assert_eq!(p["games"]["slide"]["board"], "3x3:1,2,3,4,5,6,7,0,8");
    let v = app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    assert_eq!(
        (
            v["snapshot"]["status"].clone(),
            v["snapshot"]["moves"].clone()
        ),
        (json!("won"), json!(1))
    );
    app.close();

    // An invalid --open shows home with a notice; the saved games stay.
    for bad in [
        "slide:3x3:9,9,9",
        "",
        "huarong://play?c=%%%",
        "https://example.com/?c=%%%",
        &"z".repeat(3000),
    ] {
        let app = TestApp::start(dir.path(), Some(bad));
        let p = app.ok("get_progress", json!({}));
        assert_eq!(p["screen"], "home", "{bad}");
        let n = p["notices"].as_array().unwrap();
        assert!(n.iter().any(|n| n["code"] == "bad_open"), "{bad}: {n:?}");
        assert_eq!(
            p["games"]["slide"]["board"], "3x3:1,2,3,4,5,6,7,8,0",
            "{bad}"
        );
        app.close();
    }
    // A share code works on the command line too.
    let code = huarong_engine::code::encode("klotski:aCCb/aCCb/cdde/cfge/h..i").unwrap();
    let app = TestApp::start(dir.path(), Some(&code));
    let p = app.ok("get_progress", json!({}));
    assert_eq!(p["screen"], "game:klotski");
    app.close();
}

#[test]
fn a_killed_app_reopens_on_the_same_screen_game_and_history() {
    let (dir, app) = fresh_app("resume");
    app.ok("open_game", json!({"id": "slide:3x3:4,1,2,5,0,3,7,8,6"}));
    for t in [1, 2, 3] {
        app.ok("play", json!({"kind": "slide", "mv": {"tile": t}}));
    }
    app.ok("undo", json!({"kind": "slide"}));
    app.ok("new_game", json!({"kind": "2048", "seed": 3}));
    app.ok("play", json!({"kind": "2048", "mv": {"dir": "up"}}));
    app.ok("set_screen", json!({"screen": "game:slide"}));
    let before = app.ok("snapshot", json!({"kind": "slide"}));
    let before_2048 = app.ok("snapshot", json!({"kind": "2048"}));
    app.close();

    let app = TestApp::start(dir.path(), None);
    let p = app.ok("get_progress", json!({}));
    assert_eq!(p["screen"], "game:slide");
    let after = app.ok("snapshot", json!({"kind": "slide"}));
    for k in ["id", "board", "moves", "can_undo", "can_redo", "undo_used"] {
        assert_eq!(after["snapshot"][k], before["snapshot"][k], "{k}");
    }
    assert_eq!(
        app.ok("snapshot", json!({"kind": "2048"}))["snapshot"]["board"],
        before_2048["snapshot"]["board"]
    );
    // The undo history came back too: redo the undone move, then undo to the start.
    app.ok("redo", json!({"kind": "slide"}));
    for _ in 0..3 {
        app.ok("undo", json!({"kind": "slide"}));
    }
    let v = app.ok("snapshot", json!({"kind": "slide"}));
    assert_eq!(v["snapshot"]["board"], "3x3:4,1,2,5,0,3,7,8,6");
    assert_eq!(app.err("undo", json!({"kind": "slide"})), "nothing_to_undo");
    // 2048 continues with the same spawns as before the restart.
    let cont = app.ok("play", json!({"kind": "2048", "mv": {"dir": "left"}}));
    app.close();
    let dir2 = TempDir::new("resume2");
    let twin = TestApp::start(dir2.path(), None);
    twin.ok("new_game", json!({"kind": "2048", "seed": 3}));
    twin.ok("play", json!({"kind": "2048", "mv": {"dir": "up"}}));
    let twin_cont = twin.ok("play", json!({"kind": "2048", "mv": {"dir": "left"}}));
    assert_eq!(cont["snapshot"]["board"], twin_cont["snapshot"]["board"]);
    twin.close();
}

#[test]
fn a_win_counts_once_per_game_and_daily_streaks_count_consecutive_days() {
    let (_d, app) = fresh_app("once");
    app.ok("open_game", json!({"id": NEAR_WIN}));
    let v = app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    assert_eq!(v["finish"]["record"]["wins"], 1);
    app.ok("undo", json!({"kind": "slide"}));
    let v = app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    assert_eq!(
        v["finish"]["record"]["wins"], 1,
        "undo and win again is the same game"
    );
    app.ok("open_game", json!({"id": NEAR_WIN}));
    let v = app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    assert_eq!(v["finish"]["record"]["wins"], 2, "a new game counts");

    let st = app.state();
    let k = huarong_engine::Kind::Klotski;
    assert_eq!(st.record_daily(k, "2026-02-27").unwrap().current, 1);
    assert_eq!(
        st.record_daily(k, "2026-02-27").unwrap().current,
        1,
        "same day twice"
    );
    assert_eq!(st.record_daily(k, "2026-02-28").unwrap().current, 2);
    assert_eq!(
        st.record_daily(k, "2026-03-01").unwrap().current,
        3,
        "across a month end"
    );
    let s = st.record_daily(k, "2026-03-05").unwrap();
    assert_eq!(
        (s.current, s.best),
        (1, 3),
        "a gap restarts the streak, the best stays"
    );
    assert!(st.record_daily(k, "2026-13-01").is_err());
    let p = app.ok("get_progress", json!({}));
    assert_eq!(p["streaks"]["klotski"]["best"], 3);
}

#[test]
fn solving_a_daily_puzzle_extends_its_streak() {
    use huarong_engine::daily::{self, Date};
    let (_d, app) = fresh_app("daily");
    let today = chrono_today();
    let id = daily::puzzles(Date::parse(&today).unwrap())
        .unwrap()
        .id(huarong_engine::Kind::Klotski)
        .unwrap()
        .to_string();
    app.ok("open_game", json!({"id": id}));
    let mut last = Value::Null;
    for _ in 0..300 {
        let h = app.ok("hint", json!({"kind": "klotski"}));
        last = app.ok("play", json!({"kind": "klotski", "mv": h["mv"]}));
        if last["snapshot"]["status"] == "won" {
            break;
        }
    }
    assert_eq!(last["finish"]["daily"]["current"], 1, "{}", last["finish"]);
    assert_eq!(last["finish"]["daily"]["last"], today.as_str());
    let p = app.ok("get_progress", json!({}));
    assert_eq!(p["streaks"]["klotski"]["last"], today.as_str());
    // An ordinary game is not a daily.
    app.ok("open_game", json!({"id": NEAR_WIN}));
    let v = app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    assert!(v["finish"]["daily"].is_null());
}

/// The local date the app uses (`YYYY-MM-DD`).
fn chrono_today() -> String {
    huarong_tests::today()
}

#[test]
fn the_sharing_commands_are_registered() {
    let (_d, app) = fresh_app("share");
    let c = app.ok("encode_code", json!({"id": NEAR_WIN}));
    let back = app.ok("decode_code", json!({"text": c["link"]}));
    assert_eq!(back["id"], NEAR_WIN);
    // Rust decides today (no arguments): the same date as `get_progress().today`.
    let d = app.ok("daily_info", json!({}));
    assert!(d["slide"].is_string(), "{d}");
    let today = app.ok("get_progress", json!({}))["today"].clone();
    let again = app.ok("daily_info", json!({}))["date"].clone();
    assert!(d["date"] == today || again == today, "{d} {today}");
    assert!(
        d["next_in_ms"].as_u64().is_some_and(|ms| ms <= 86_400_000),
        "{d}"
    );
    assert_eq!(app.err("decode_code", json!({"text": 5})), "bad_argument");
}

/// A deep link that arrives while the app runs (what the deep-link plugin reports on phones
/// and macOS) opens its game and makes it the saved screen; a bad one leaves a notice that
/// says why and sends the player home; nothing already saved is lost.
#[test]
fn deep_link_while_running_opens_the_game_or_explains() {
    use tauri::Emitter;
    let d = TempDir::new("deeplink");
    let app = TestApp::shell(d.path(), None);
    app.ok("open_game", json!({"id": "2048#5"}));
    app.ok("play", json!({"kind": "2048", "mv": {"dir": "left"}}));

    let code = huarong_engine::code::encode(NEAR_WIN).unwrap();
    let link = huarong_engine::code::link(&code);
    app.tauri()
        .emit("deep-link://new-url", vec![link.clone()])
        .expect("emit");
    // The link is opened on a worker thread, never on the thread that delivered it.
    assert!(app
        .state()
        .wait_links(1, std::time::Duration::from_secs(30)));
    let v = app.ok("snapshot", json!({"kind": "slide"}));
    assert_eq!(v["snapshot"]["board"], "3x3:1,2,3,4,5,6,7,0,8");
    let p = app.ok("get_progress", json!({}));
    assert_eq!(p["screen"], "game:slide", "{p}");
    let v = app.ok("snapshot", json!({"kind": "2048"}));
    assert_eq!(
        v["snapshot"]["moves"], 1,
        "the 2048 game in progress is kept"
    );

    // A damaged link: one character of the code changed.
    let mut bad = link.into_bytes();
    let last = bad.len() - 1;
    bad[last] = if bad[last] == b'A' { b'B' } else { b'A' };
    let bad = String::from_utf8(bad).unwrap();
    app.tauri()
        .emit("deep-link://new-url", vec![bad])
        .expect("emit");
    assert!(app
        .state()
        .wait_links(2, std::time::Duration::from_secs(30)));
    let p = app.ok("get_progress", json!({}));
    assert_eq!(p["screen"], "home", "{p}");
    let notices = p["notices"].as_array().expect("notices");
    let n = notices.last().expect("a notice");
    assert_eq!(n["code"], "bad_open", "{n}");
    assert!(
        n["message"].as_str().unwrap().contains("could not open"),
        "{n}"
    );
    let v = app.ok("snapshot", json!({"kind": "slide"}));
    assert_eq!(
        v["snapshot"]["board"], "3x3:1,2,3,4,5,6,7,0,8",
        "the opened game is still there"
    );
}

/// `preview` draws a start board without opening it: today's daily puzzles (a
/// seeded number slide and a generated Klotski), a classic by its ID, a share code; nothing
/// is stored (no slot, no current game), and bad input is a typed error.
#[test]
fn preview_gives_the_start_board_without_opening_it() {
    let (_d, app) = fresh_app("preview");
    let d = app.ok("daily_info", json!({}));
    let slide = app.ok("preview", json!({"id": d["slide"]}));
    assert_eq!(slide["kind"], "slide");
    let tiles = slide["view"]["tiles"].as_array().expect("tiles");
    assert_eq!(
        tiles.len() as u64,
        slide["view"]["w"].as_u64().unwrap() * slide["view"]["h"].as_u64().unwrap()
    );
    let opened = app.ok("open_game", json!({"id": d["slide"]}));
    assert_eq!(
        opened["snapshot"]["view"], slide["view"],
        "the preview is the board the daily opens with"
    );
    let k = app.ok("preview", json!({"id": d["klotski"]}));
    assert_eq!(k["kind"], "klotski");
    assert!(
        k["view"]["pieces"]
            .as_array()
            .is_some_and(|p| p.iter().any(|p| p["role"] == "cao")),
        "{k}"
    );
    let classic = "klotski:sCCt/uCCv/.aa./bcde/bcde";
    let code = app.ok("encode_code", json!({"id": classic}));
    let by_code = app.ok("preview", json!({"id": code["code"]}));
    assert_eq!(
        by_code["view"],
        app.ok("preview", json!({"id": classic}))["view"]
    );
    let games = app.ok("list_games", json!({}));
    assert!(
        games
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["kind"] != "klotski"),
        "a preview opens nothing: {games}"
    );
    assert_eq!(app.err("preview", json!({"id": 5})), "bad_argument");
    assert_ne!(
        app.err("preview", json!({"id": "klotski:not a board"})),
        "internal"
    );
}
