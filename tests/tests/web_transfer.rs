//! Progress that moves and the history out on the web page: `tests/web/transfer.mjs` (Node,
//! `playwright-core` from tests/chromium, Debian's chromium, a built `web/dist`, loopback
//! only) exports the progress of one browser profile from the settings as a download, picks
//! the file in another profile's settings (merged; again: nothing new; a damaged copy
//! refused) and downloads the records' CSV. Screenshots of the settings' section in English
//! and Chinese: `tests/e2e/screenshots/web-transfer-{en,zh}.png`.
//!
//! Gated like `web_chromium.rs`: with `HUARONG_E2E=1` anything missing is a failure; without
//! it the test prints a SKIPPED banner and passes.

use huarong_engine::{Cancel, Game, GameId};
use serde_json::json;
use std::time::Duration;

/// The whole run (transfer.mjs's own watchdog is 240 s).
const DEADLINE: Duration = Duration::from_secs(270);

/// `slide:3x3#<seed>` and the solver's moves.
fn win(seed: u64) -> serde_json::Value {
    let id = format!("slide:3x3#{seed}");
    let p = GameId::parse(&id).expect("a game ID");
    let g = huarong_engine::slide::Slide::from_id(&p.body, p.seed).expect("a number slide");
    let moves = g.solve(&Cancel::new()).expect("a solution");
    json!({ "id": id, "moves": moves })
}

#[test]
fn progress_moves_between_browser_profiles_and_the_history_downloads() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the repository")
        .to_path_buf();
    huarong_tests::gate::run_web_suite(
        "web_transfer",
        "the web page's progress transfer suite",
        "transfer.mjs",
        DEADLINE,
        move || {
            vec![
                (
                    "HUARONG_TRANSFER_CASE",
                    json!({ "wins": [win(1), win(2), win(3)] })
                        .to_string()
                        .into(),
                ),
                (
                    "HUARONG_SHOTS",
                    root.join("tests/e2e/screenshots").into_os_string(),
                ),
            ]
        },
    );
}
