//! Play without looking on the web page: `tests/web/a11y.mjs` (Node, `playwright-core` from
//! tests/chromium, Debian's chromium, a built `web/dist`, loopback only) plays a shuffled 3×3
//! number slide, the Klotski classic 横刀立马 and 20 moves of 2048 using only accessible names
//! and actions (role locators, `.press()` / `.click()`, never coordinates), following the
//! page's own "What next" answers. Each move gives exactly one announcement in the live region
//! within 500 ms; axe-core finds no violation of any level on those screens. Screenshots of the
//! board with a cell focused, in English and Chinese at 390×844:
//! `tests/e2e/screenshots/web-{en,zh}-a11y-{slide,klotski,2048}.png`.
//!
//! Gated like `web_chromium.rs`: with `HUARONG_E2E=1` anything missing is a failure; without
//! it the test prints a SKIPPED banner and passes.
//!
//! Beside it, ungated: the `clock` setting and the `placed` haptic through the command table.

use huarong_core::share::encode_code;
use huarong_engine::code::Extra;
use huarong_engine::klotski;
use huarong_tests::gate::{self, root};
use serde_json::json;
use std::time::Duration;

/// The whole run (a11y.mjs's own watchdog is 420 s).
const DEADLINE: Duration = Duration::from_secs(450);

/// A share code of `id` made by the app core.
fn code(id: &str) -> String {
    encode_code(id, Extra::default(), None)
        .expect("a share code")
        .code
}

#[test]
fn web_page_plays_three_games_through_the_accessibility_tree() {
    let classic = klotski::classics()
        .iter()
        .find(|c| c.name_zh == "横刀立马")
        .expect("the classic 横刀立马");
    let classic_id = classic.id();
    let optimum = classic.min_moves.expect("横刀立马's optimum");
    gate::run_web_suite(
        "web_a11y",
        "the web page's screen reader suite",
        "a11y.mjs",
        DEADLINE,
        move || {
            // The 3×3: eight blank steps from solved.
            let slide = "slide:3x3:2,4,3,1,8,5,0,7,6";
            let cases = json!({
                "slide": { "code": code(slide), "board": "3x3:2,4,3,1,8,5,0,7,6" },
                "klotski": { "code": code(&classic_id), "optimum": optimum },
                "2048": { "code": code("2048:#7") },
            });
            vec![
                ("HUARONG_A11Y_CASES", cases.to_string().into()),
                (
                    "HUARONG_SHOTS",
                    root().join("tests/e2e/screenshots").into_os_string(),
                ),
            ]
        },
    );
}

/// The clock setting through the command table: `on` by default, `off` kept across a restart
/// of the app on the same folder, anything else refused as `bad_argument` with nothing changed.
/// The `placed` haptic is a kind the `haptic` command takes.
#[test]
fn clock_setting_and_placed_haptic_through_the_command_table() {
    use huarong_tests::{fresh_app, TestApp};
    let (dir, app) = fresh_app("a11y-clock");
    assert_eq!(app.ok("get_settings", json!({}))["clock"], json!("on"));
    let s = app.ok("set_settings", json!({"settings": {"clock": "off"}}));
    assert_eq!(s["clock"], json!("off"));
    assert_eq!(
        app.err("set_settings", json!({"settings": {"clock": "slow"}})),
        "bad_argument"
    );
    assert_eq!(app.ok("get_settings", json!({}))["clock"], json!("off"));
    assert!(app.ok("haptic", json!({"kind": "placed"})).is_boolean());
    drop(app);
    let again = TestApp::start(dir.path(), None);
    assert_eq!(again.ok("get_settings", json!({}))["clock"], json!("off"));
}
