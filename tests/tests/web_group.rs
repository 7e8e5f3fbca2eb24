//! A group challenge (擂台) on the web page (`tests/web/group.mjs`) in Debian's chromium with
//! touch: one page starts a group from a finish ("Start a group challenge"); three other
//! browser contexts open the invite (`[data-screen="group"]`), play by taps and make their
//! result codes; a fourth pastes one chat text holding all three ("Paste the chat"), and the
//! group screen's standings are `group {group}`'s rows in its order. Screenshots:
//! `tests/e2e/screenshots/web-{390x844,360x780}-{zh,en}-{light,dark}-group.png`.
//!
//! Gated like the other browser suites: with `HUARONG_E2E=1` a missing node, chromium or
//! `web/dist` is a failure; without it the test prints a SKIPPED banner and passes.

use huarong_core::share::encode_code;
use huarong_engine::code::Extra;
use huarong_engine::{Game, GameId};
use huarong_tests::gate::{self, root};
use serde_json::json;
use std::time::Duration;

/// A 3×3 twelve single taps from solved, and those taps.
const BOARD: &str = "3x3:2,3,6,1,0,7,4,8,5";
const TAPS: [u16; 12] = [7, 5, 8, 7, 5, 6, 3, 2, 1, 4, 7, 8];

fn case() -> serde_json::Value {
    let id = format!("slide:{BOARD}");
    let share = encode_code(&id, Extra::default(), None)
        .expect("a share code")
        .code;
    let p = GameId::parse(&id).expect("a game ID");
    let start = huarong_engine::slide::Slide::from_id(&p.body, p.seed).expect("a number slide");
    json!({ "board": start.board_body(), "share": share, "taps": TAPS })
}

#[test]
fn web_group_ranks_a_pasted_chat() {
    gate::run_web_suite(
        "web_group",
        "the web page's group challenge suite",
        "group.mjs",
        Duration::from_secs(300),
        || {
            vec![
                ("HUARONG_GROUP_CASE", case().to_string().into()),
                (
                    "HUARONG_SHOTS",
                    root().join("tests/e2e/screenshots").into_os_string(),
                ),
            ]
        },
    )
}
