//! The web page refuses to start its core inside a frame (`web/src/boot.js`, `top !== self`):
//! `tests/web/frame.mjs` (Node, `playwright-core`) against the built `web/dist` frames the page
//! and checks that no core worker starts there and the player's own tab keeps its Web Lock.
//!
//! Gated like `web_chromium.rs`: with `HUARONG_E2E=1` a missing node, `playwright-core`,
//! chromium or `web/dist` is a failure; without it the test prints a SKIPPED banner and passes.

use huarong_tests::gate;
use std::time::Duration;

/// The whole run (frame.mjs's own watchdog is 120 s).
const DEADLINE: Duration = Duration::from_secs(150);

#[test]
fn a_framed_web_page_does_not_start_its_core() {
    gate::run_web_suite(
        "web_frame",
        "the web page's framing suite",
        "frame.mjs",
        DEADLINE,
        Vec::new,
    );
}
