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
