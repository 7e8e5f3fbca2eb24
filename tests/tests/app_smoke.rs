use huarong_tests::{TempDir, TestApp};
use serde_json::json;

#[test]
fn open_play_win_and_resume() {
    let dir = TempDir::new("smoke");
    let app = TestApp::start(dir.path(), Some("slide:3x3:1,2,3,4,5,6,7,0,8"));
    let v = app.ok("snapshot", json!({"kind": "slide"}));
    assert_eq!(v["snapshot"]["board"], "3x3:1,2,3,4,5,6,7,0,8");
    let v = app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    assert_eq!(v["snapshot"]["status"], "won");
    assert_eq!(v["snapshot"]["moves"], 1);
    assert!(v["finish"].is_object(), "{v}");
    println!("{v:#}");
    app.close();
}

#[test]
fn klotski_targets_and_move() {
    let dir = TempDir::new("smoke-k");
    let app = TestApp::start(dir.path(), None);
    let v = app.ok(
        "open_game",
        json!({"id": "klotski:bCCc/bCCc/deef/dghf/i..j"}),
    );
    println!("{v:#}");
    let t = app.ok("klotski_targets", json!({"piece": "g"}));
    println!("{t}");
    let lv = app.ok("levels", json!({"kind": "klotski"}));
    assert_eq!(
        lv["levels"].as_array().map(Vec::len),
        Some(40),
        "the 40 classics"
    );
    println!("{}", lv.to_string().chars().take(400).collect::<String>());
    app.close();
}
