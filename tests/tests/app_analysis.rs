//! Issue 16 on the mock runtime: `analysis {kind}` of the current game, from its move log,
//! under the player's counting rule; `unsupported` where no optimum can be had.

use huarong_tests::{TempDir, TestApp};
use serde_json::json;

fn app(tag: &str) -> (TempDir, TestApp) {
    let dir = TempDir::new(tag);
    let app = TestApp::start(dir.path(), None);
    (dir, app)
}

#[test]
fn a_known_3x3_game_has_exact_distances_and_lost_moves() {
    let (_d, app) = app("ana-3x3");
    assert_eq!(app.err("analysis", json!({"kind": "slide"})), "no_game");
    app.ok("open_game", json!({"id": "slide:3x3:1,2,3,4,5,6,7,0,8"}));
    let a = app.ok("analysis", json!({"kind": "slide"}));
    assert_eq!(a["optimal_start"], 1);
    assert_eq!(a["distances"], json!([]));
    assert!(a["worst"].is_null());
    // Away (7 slides right: distance 2), back (1), home (0).
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 7}}));
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 7}}));
    let a = app.ok("analysis", json!({"kind": "slide"}));
    assert_eq!(a["distances"], json!([2, 1]), "at any time: {a}");
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    let a = app.ok("analysis", json!({"kind": "slide"}));
    assert_eq!(a["rule"], "tile");
    assert_eq!(a["optimal_start"], 1);
    assert_eq!(a["distances"], json!([2, 1, 0]));
    assert_eq!(a["lost"], json!([1]));
    // Move 1 went away; it and the move that took it back cost 2 moves (3 played, optimum 1).
    assert_eq!(
        a["worst"],
        json!({"from": 1, "to": 1, "lost": 2, "lost_moves": 1})
    );

    // One tap that slides two tiles: two tile moves, one line move.
    app.ok("open_game", json!({"id": "slide:3x3:1,2,3,4,5,6,0,7,8"}));
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    let a = app.ok("analysis", json!({"kind": "slide"}));
    assert_eq!(a["optimal_start"], 2);
    assert_eq!(a["distances"], json!([1, 0]));
    assert_eq!(a["lost"], json!([]));
    app.ok(
        "set_settings",
        json!({"settings": {"rules": {"slide": "line"}}}),
    );
    let a = app.ok("analysis", json!({"kind": "slide"}));
    assert_eq!(a["rule"], "line");
    assert_eq!(a["optimal_start"], 1);
    assert_eq!(a["distances"], json!([0]));
}

/// A 12-move 3×3 board played with a detour of three moves away and three back, a hint and
/// an undone move: the analysis sees the counted line only (18 moves), and the worst stretch
/// is the detour, costing 6 moves (18 played, optimum 12).
#[test]
fn a_detour_is_the_worst_stretch_and_costs_what_it_lost() {
    let (_d, app) = app("ana-detour");
    app.ok("open_game", json!({"id": "slide:3x3:0,7,3,2,1,5,8,4,6"}));
    let tap = |t: u32| app.ok("play", json!({"kind": "slide", "mv": {"tile": t}}));
    for t in [2, 1, 7, 2] {
        tap(t);
    }
    for t in [2, 7, 4, 4, 7, 2] {
        tap(t); // three away, three back
    }
    let h = app.ok("hint", json!({"kind": "slide"}));
    assert_eq!(h["mv"], json!({"tile": 1}), "the only optimal move: {h}");
    tap(1);
    tap(7);
    tap(4);
    tap(6); // away, then undone: not in the counted line
    app.ok("undo", json!({"kind": "slide"}));
    for t in [8, 7, 4, 5, 6] {
        tap(t);
    }
    let s = app.ok("snapshot", json!({"kind": "slide"}));
    assert_eq!(s["snapshot"]["status"], "won", "{s}");
    assert_eq!(s["snapshot"]["moves"], 18);
    let a = app.ok("analysis", json!({"kind": "slide"}));
    assert_eq!(a["optimal_start"], 12);
    assert_eq!(
        a["distances"],
        json!([11, 10, 9, 8, 9, 10, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0])
    );
    assert_eq!(a["lost"], json!([5, 6, 7]));
    assert_eq!(
        a["worst"],
        json!({"from": 5, "to": 7, "lost": 6, "lost_moves": 3}),
        "\"moves 5–7: 6 moves lost\""
    );
}

#[test]
fn unsupported_boards_and_games_say_so() {
    let (_d, app) = app("ana-unsupported");
    app.ok(
        "new_game",
        json!({"kind": "slide", "params": "10x10", "seed": 1}),
    );
    assert_eq!(app.err("analysis", json!({"kind": "slide"})), "unsupported");
    app.ok(
        "new_game",
        json!({"kind": "slide", "params": "4x4", "seed": 1}),
    );
    app.ok(
        "set_settings",
        json!({"settings": {"rules": {"slide": "line"}}}),
    );
    assert_eq!(
        app.err("analysis", json!({"kind": "slide"})),
        "unsupported",
        "4x4 under the line count"
    );
    app.ok("new_game", json!({"kind": "2048", "seed": 1}));
    assert_eq!(app.err("analysis", json!({"kind": "2048"})), "unsupported");
    for bad in [json!({}), json!({"kind": "chess"}), json!({"kind": 1})] {
        assert_eq!(app.err("analysis", bad.clone()), "bad_argument", "{bad}");
    }
    // `cancel` with nothing running is fine.
    app.ok("cancel", json!({"kind": "slide"}));
}

#[test]
fn klotski_is_analysed_from_the_log() {
    let (_d, app) = app("ana-klotski");
    // 横刀立马, 81 piece moves.
    app.ok(
        "open_game",
        json!({"id": "klotski:aCCb/aCCb/cdde/cfge/h..i"}),
    );
    let h = app.ok("hint", json!({"kind": "klotski"}));
    app.ok("play", json!({"kind": "klotski", "mv": h["mv"]}));
    let a = app.ok("analysis", json!({"kind": "klotski"}));
    assert_eq!(a["rule"], "piece");
    assert_eq!(a["optimal_start"], 81);
    assert_eq!(
        a["distances"],
        json!([80]),
        "an optimal hint brings the goal closer"
    );
    assert_eq!(a["lost"], json!([]));
}
