//! Game slots (contract.md "Slots"): no open path discards another slot's game,
//! replacing needs `replace: true`, the same code resumes, the 64-slot cap and its order,
//! today's daily is never dropped, `list_games` and `resume_game`.

use huarong_engine::daily::{self, Date};
use huarong_tests::{fresh_app, gap_neighbours, store_old_slide_game, TestApp};
use serde_json::{json, Value};

const NEAR_WIN: &str = "slide:3x3:1,2,3,4,5,6,7,0,8";
const HENG_DAO_LI_MA: &str = "klotski:aCCb/aCCb/cdde/cfge/h..i";

fn today() -> Date {
    Date::parse(&huarong_tests::today()).unwrap()
}

/// A legal slide move from a snapshot's `view`: the tile left of the blank, or else right.
fn slide_move(snapshot: &Value) -> Value {
    json!({"tile": gap_neighbours(snapshot)[0]})
}

fn slots(app: &TestApp) -> Vec<Value> {
    app.ok("list_games", json!({})).as_array().unwrap().clone()
}

fn slot_keys(app: &TestApp) -> Vec<String> {
    slots(app)
        .iter()
        .map(|g| g["slot"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_new_user_story_keeps_both_2048_games() {
    let (_d, app) = fresh_app("story");
    let v = app.ok("new_game", json!({"kind": "2048", "seed": 11}));
    assert_eq!(v["snapshot"]["slot"], "2048:free");
    assert_eq!(v["snapshot"]["mode"], "free");
    let mut played = 0;
    for dir in ["left", "up", "right", "down", "left", "up"] {
        if app
            .call("play", json!({"kind": "2048", "mv": {"dir": dir}}))
            .is_ok()
        {
            played += 1;
        }
    }
    assert!(played >= 3);
    let free = app.ok("snapshot", json!({"kind": "2048"}));
    // Today's daily goes to its own slot.
    let id = daily::puzzles(today())
        .unwrap()
        .id(huarong_engine::Kind::G2048)
        .unwrap()
        .to_string();
    let d = app.ok("open_game", json!({"id": id}));
    let daily_slot = format!("2048:daily:{}", today());
    assert_eq!(d["snapshot"]["slot"], daily_slot.as_str());
    assert_eq!(d["snapshot"]["mode"], "daily");
    assert_eq!(d["snapshot"]["moves"], 0);
    let p = app.ok("get_progress", json!({}));
    assert_eq!(
        p["games"]["2048"]["slot"],
        daily_slot.as_str(),
        "the daily is current"
    );
    assert_eq!(p["today"], today().to_string());
    // Back to the first game: all of it, undo history included.
    let keys = slot_keys(&app);
    assert_eq!(keys, vec![daily_slot.clone(), "2048:free".to_string()]);
    let r = app.ok("resume_game", json!({"slot": "2048:free"}));
    assert_eq!(r["snapshot"]["board"], free["snapshot"]["board"]);
    assert_eq!(r["snapshot"]["moves"], free["snapshot"]["moves"]);
    assert_eq!(r["snapshot"]["can_undo"], true);
    let u = app.ok("undo", json!({"kind": "2048"}));
    assert_eq!(u["snapshot"]["moves"].as_u64().unwrap(), played - 1);
    let again = app.ok("redo", json!({"kind": "2048"}));
    assert_eq!(again["snapshot"]["board"], free["snapshot"]["board"]);
    // And the daily is still there.
    assert_eq!(slots(&app).len(), 2);
    let d2 = app.ok("resume_game", json!({"slot": daily_slot}));
    assert_eq!(d2["snapshot"]["id"], d["snapshot"]["id"]);
}

/// A new 2048 game of `seed` with one move played.
fn new_2048_with_a_move(app: &TestApp, seed: u64) {
    app.ok("new_game", json!({"kind": "2048", "seed": seed}));
    app.snap("play", json!({"kind": "2048", "mv": {"dir": "left"}}));
}

#[test]
fn replacing_an_unfinished_game_needs_replace_true() {
    let (_d, app) = fresh_app("replace");
    let v = app.new_game(json!({"kind": "slide", "params": "4x4", "seed": 1}));
    assert_eq!(v["slot"], "slide:4x4");
    // No moves yet: a new game replaces it silently.
    let v = app.new_game(json!({"kind": "slide", "params": "4x4", "seed": 2}));
    let first_id = v["id"].clone();
    let v = app.snap("play", json!({"kind": "slide", "mv": slide_move(&v)}));
    assert_eq!(v["moves"], 1);
    let e = app
        .call(
            "new_game",
            json!({"kind": "slide", "params": "4x4/hard", "seed": 3}),
        )
        .unwrap_err();
    assert_eq!(e["code"], "would_replace");
    let msg = e["message"].as_str().unwrap();
    assert!(msg.contains("4x4") && msg.contains("1 moves"), "{msg}");
    // Nothing changed.
    let s = app.ok("snapshot", json!({"kind": "slide"}));
    assert_eq!(s["snapshot"]["id"], first_id);
    assert_eq!(s["snapshot"]["moves"], 1);
    // Another size is another slot: no question asked, the 4x4 stays.
    let v = app.new_game(json!({"kind": "slide", "params": "3x3", "seed": 4}));
    assert_eq!(v["slot"], "slide:3x3");
    assert!(slot_keys(&app).contains(&"slide:4x4".to_string()));
    // The same goes for open_game into the 4x4's slot? A plain ID is a challenge slot,
    // so the 4x4 game is untouched.
    app.ok("open_game", json!({"id": "slide:4x4#99"}));
    let list = slots(&app);
    let four = list.iter().find(|g| g["slot"] == "slide:4x4").unwrap();
    assert_eq!(
        (four["moves"].clone(), four["id"].clone()),
        (json!(1), first_id.clone())
    );
    // Confirmed: replaced.
    for bad in [json!("yes"), json!(1)] {
        assert_eq!(
            app.err(
                "new_game",
                json!({"kind": "slide", "params": "4x4", "replace": bad})
            ),
            "bad_argument"
        );
    }
    let v = app.ok(
        "new_game",
        json!({"kind": "slide", "params": "4x4", "seed": 5, "replace": true}),
    );
    assert_eq!(v["snapshot"]["moves"], 0);
    assert_ne!(v["snapshot"]["id"], first_id);
    assert_eq!(v["snapshot"]["can_undo"], false);
    // A finished game is replaced silently.
    app.ok("open_game", json!({"id": NEAR_WIN}));
    let w = app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    assert_eq!(w["snapshot"]["status"], "won");
    let again = app.ok("open_game", json!({"id": NEAR_WIN}));
    assert_eq!(again["snapshot"]["status"], "playing");
}

#[test]
fn the_same_code_link_or_id_resumes_its_game() {
    let (_d, app) = fresh_app("resume-code");
    let id = "slide:3x3:1,2,3,4,5,6,0,7,8";
    let code = huarong_engine::code::encode(id).unwrap();
    let v = app.ok("open_game", json!({"id": code}));
    let slot = v["snapshot"]["slot"].as_str().unwrap().to_string();
    assert!(
        slot.starts_with("challenge:") && slot.len() == "challenge:".len() + 16,
        "{slot}"
    );
    assert_eq!(v["snapshot"]["mode"], "challenge");
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 7}}));
    for again in [
        code.clone(),
        huarong_engine::code::link(&code),
        id.to_string(),
    ] {
        let v = app.ok("open_game", json!({"id": again}));
        assert_eq!(v["snapshot"]["slot"], slot.as_str(), "{again}");
        assert_eq!(v["snapshot"]["moves"], 1, "{again} resumes, no reset");
        assert_eq!(v["snapshot"]["can_undo"], true);
    }
    assert_eq!(slots(&app).len(), 1);
    // Klotski classics open into their level slot.
    let v = app.ok("open_game", json!({"id": HENG_DAO_LI_MA}));
    assert_eq!(v["snapshot"]["slot"], "klotski:level:27");
    assert_eq!(v["snapshot"]["mode"], "level");
    let names: Vec<Value> = v["snapshot"]["view"]["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name_zh"].clone())
        .collect();
    assert!(
        names.contains(&json!("曹操")) && names.contains(&json!("关羽")),
        "{names:?}"
    );
    // Generated Klotski levels share one slot.
    let g = app.ok(
        "new_game",
        json!({"kind": "klotski", "params": "10-20", "seed": 3}),
    );
    assert_eq!(g["snapshot"]["slot"], "klotski:generated");
    assert_eq!(
        app.ok("snapshot", json!({"kind": "klotski"}))["snapshot"]["slot"],
        "klotski:generated"
    );
}

#[test]
fn list_games_is_most_recent_first_with_every_field() {
    let (_d, app) = fresh_app("list");
    app.ok("new_game", json!({"kind": "2048", "seed": 1}));
    app.ok("open_game", json!({"id": NEAR_WIN}));
    app.ok(
        "new_game",
        json!({"kind": "slide", "params": "3x3", "seed": 1}),
    );
    // Playing an older slot makes it the most recent.
    app.ok("resume_game", json!({"slot": "2048:free"}));
    assert!(app
        .ok("play", json!({"kind": "2048", "mv": {"dir": "left"}}))
        .get("snapshot")
        .is_some());
    let list = slots(&app);
    assert_eq!(list.len(), 3);
    assert_eq!(list[0]["slot"], "2048:free", "{list:?}");
    assert_eq!(list[1]["slot"], "slide:3x3");
    let stamps: Vec<u64> = list
        .iter()
        .map(|g| g["updated_ms"].as_u64().unwrap())
        .collect();
    assert!(stamps.windows(2).all(|w| w[0] > w[1]), "{stamps:?}");
    for g in &list {
        for f in [
            "slot",
            "kind",
            "id",
            "moves",
            "status",
            "elapsed_ms",
            "updated_ms",
            "mode",
        ] {
            assert!(!g[f].is_null(), "{f} in {g}");
        }
    }
    assert_eq!(list[2]["kind"], "slide");
    assert_eq!(list[2]["mode"], "challenge");
    assert_eq!(list[2]["id"], NEAR_WIN);
    // Moves are counted under the player's rule.
    let v = app.ok("resume_game", json!({"slot": list[2]["slot"]}));
    assert_eq!(v["snapshot"]["slot"], list[2]["slot"]);
    assert_eq!(
        app.err("resume_game", json!({"slot": "slide:9x9"})),
        "no_game"
    );
    assert_eq!(app.err("resume_game", json!({})), "bad_argument");
    assert_eq!(app.err("resume_game", json!({"slot": 3})), "bad_argument");
}

#[test]
fn at_most_64_slots_finished_first_then_empty_never_todays_daily() {
    let (_d, app) = fresh_app("cap");
    // An unfinished free game with a move, today's daily with a move, a finished challenge.
    new_2048_with_a_move(&app, 5);
    // Another 2048 game becomes current (a kind's current slot is never dropped).
    app.ok("open_game", json!({"id": "2048#77"}));
    let d = app.ok(
        "open_game",
        json!({"id": daily::puzzles(today()).unwrap().id(huarong_engine::Kind::Slide).unwrap()}),
    );
    let daily_slot = d["snapshot"]["slot"].as_str().unwrap().to_string();
    app.ok(
        "play",
        json!({"kind": "slide", "mv": slide_move(&d["snapshot"])}),
    );
    app.ok("open_game", json!({"id": NEAR_WIN}));
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    let won_slot = slot_keys(&app)[0].clone();
    for i in 0..60 {
        app.ok("open_game", json!({"id": format!("slide:3x3#{i}")}));
    }
    assert_eq!(slots(&app).len(), 64);
    app.ok("dismiss_notices", json!({}));
    // The 65th: the finished game goes first, though the 2048 game is older.
    app.ok("open_game", json!({"id": "slide:3x3#1000"}));
    let keys = slot_keys(&app);
    assert_eq!(keys.len(), 64);
    assert!(!keys.contains(&won_slot), "the finished game was dropped");
    assert!(keys.contains(&"2048:free".to_string()));
    let p = app.ok("get_progress", json!({}));
    let dropped: Vec<&Value> = p["notices"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["code"] == "slot_dropped")
        .collect();
    assert_eq!(dropped.len(), 1, "{:?}", p["notices"]);
    assert_eq!(dropped[0]["level"], "info");
    assert!(dropped[0]["message"].as_str().unwrap().contains("finished"));
    // The 66th: the oldest game at 0 moves, not the older free-play game with a move.
    let oldest_empty = slots(&app)
        .iter()
        .rev()
        .find(|g| g["moves"] == 0 && g["kind"] == "slide")
        .map(|g| g["slot"].as_str().unwrap().to_string())
        .unwrap();
    app.ok("open_game", json!({"id": "slide:3x3#1001"}));
    let keys = slot_keys(&app);
    assert!(keys.contains(&"2048:free".to_string()));
    assert!(!keys.contains(&oldest_empty));
    let current_2048 = app.ok("snapshot", json!({"kind": "2048"}))["snapshot"]["slot"].clone();
    // Beyond: the oldest other slot; today's unfinished daily and the current slots stay.
    let list = slots(&app);
    let oldest_challenge = list
        .iter()
        .rev()
        .find(|g| g["kind"] == "slide" && g["mode"] == "challenge")
        .map(|g| g["slot"].as_str().unwrap().to_string())
        .unwrap();
    for i in 0..5 {
        app.ok(
            "open_game",
            json!({"id": format!("slide:3x3#{}", 2000 + i)}),
        );
        let keys = slot_keys(&app);
        assert_eq!(keys.len(), 64);
        assert!(keys.contains(&daily_slot), "today's daily is never dropped");
        assert!(
            keys.iter().any(|k| json!(k) == current_2048),
            "nor a current slot"
        );
    }
    assert!(!slot_keys(&app).contains(&oldest_challenge));
}

#[test]
fn snapshots_carry_the_board_as_data() {
    let (_d, app) = fresh_app("view");
    let v = app.ok("open_game", json!({"id": NEAR_WIN}));
    assert_eq!(
        v["snapshot"]["view"],
        json!({"w": 3, "h": 3, "tiles": [1, 2, 3, 4, 5, 6, 7, 0, 8]})
    );
    let v = app.ok(
        "open_game",
        json!({"id": "2048:2,0,0,0,0,4,0,0,0,0,0,0,0,0,0,8"}),
    );
    assert_eq!(v["snapshot"]["view"]["size"], 4);
    assert_eq!(v["snapshot"]["view"]["cells"][0], 2);
    assert_eq!(v["snapshot"]["view"]["cells"][15], 8);
    let v = app.ok("open_game", json!({"id": HENG_DAO_LI_MA}));
    let view = &v["snapshot"]["view"];
    assert_eq!((view["w"].clone(), view["h"].clone()), (json!(4), json!(5)));
    assert_eq!(view["pieces"].as_array().unwrap().len(), 10);
    assert_eq!(view["exit"], json!({"r": 3, "c": 1, "h": 2, "w": 2}));
    let s = app.ok("set_settings", json!({"settings": {"pad": true}}));
    assert_eq!(s["pad"], true);
    assert_eq!(app.ok("get_settings", json!({}))["pad"], true);
    assert_eq!(
        app.err("set_settings", json!({"settings": {"pad": "on"}})),
        "bad_argument"
    );
}

#[test]
fn every_slot_survives_a_restart_with_its_undo_history() {
    let (dir, app) = fresh_app("slots-restart");
    new_2048_with_a_move(&app, 3);
    app.ok("open_game", json!({"id": "slide:3x3:1,2,3,4,5,6,0,7,8"}));
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 7}}));
    let v = app.ok(
        "new_game",
        json!({"kind": "slide", "params": "4x4", "seed": 1}),
    );
    app.ok(
        "play",
        json!({"kind": "slide", "mv": slide_move(&v["snapshot"])}),
    );
    let before = slots(&app);
    assert_eq!(before.len(), 3);
    app.close();
    let app = TestApp::start(dir.path(), None);
    let after = slots(&app);
    let strip = |l: &[Value]| -> Vec<Value> {
        l.iter()
            .map(|g| {
                json!([
                    g["slot"],
                    g["id"],
                    g["moves"],
                    g["status"],
                    g["updated_ms"],
                    g["mode"]
                ])
            })
            .collect()
    };
    assert_eq!(strip(&after), strip(&before));
    assert_eq!(
        app.ok("snapshot", json!({"kind": "slide"}))["snapshot"]["slot"],
        "slide:4x4"
    );
    let r = app.ok("resume_game", json!({"slot": before[1]["slot"]}));
    assert_eq!(r["snapshot"]["can_undo"], true);
    let u = app.ok("undo", json!({"kind": "slide"}));
    assert_eq!(u["snapshot"]["board"], "3x3:1,2,3,4,5,6,0,7,8");
    app.close();
}

#[test]
fn games_of_the_earlier_one_per_kind_layout_become_slots() {
    use huarong_core::persist::{self, Paths};
    let (dir, app) = fresh_app("slots-import");
    app.ok("set_screen", json!({"screen": "home"}));
    app.close();
    let paths = Paths::new(dir.path());
    let game = json!({"version": 1, "id": "slide:3x3:1,2,3,4,5,6,0,7,8",
        "log": [{"t": "move", "m": {"tile": 7}}], "cursor": 1, "elapsed_ms": 5});
    store_old_slide_game(dir.path(), &game, |_| {});
    let app = TestApp::start(dir.path(), None);
    let list = slots(&app);
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["slot"], "slide:3x3");
    assert_eq!(list[0]["moves"], 1);
    assert_eq!(
        app.ok("snapshot", json!({"kind": "slide"}))["snapshot"]["can_undo"],
        true
    );
    app.close();
    let doc = persist::latest(&paths, &huarong_core::fsio::Real).unwrap();
    assert!(doc.progress.games.is_empty(), "imported, not kept twice");
    // And it is still there on the next start (from the journal).
    let app = TestApp::start(dir.path(), None);
    assert_eq!(slots(&app).len(), 1);
    app.close();
}
