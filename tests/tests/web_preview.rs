//! The number slide on the web page shows a tap at once and lets Rust count it:
//! `tests/web/preview.mjs` (Node, `playwright-core` from tests/chromium, Debian's chromium, a
//! built `web/dist`, loopback only) holds the page's `play` messages back and checks the board
//! between the tap and the answer: the tile is at its destination while `data-state` and the
//! move count wait for Rust, two taps in a row stack, and a refused move goes back.
//!
//! Gated like `web_chromium.rs`: with `HUARONG_E2E=1` anything missing is a failure; without
//! it the test prints a SKIPPED banner and passes.

use std::time::Duration;

/// The whole run (preview.mjs's own watchdog is 90 s).
const DEADLINE: Duration = Duration::from_secs(120);

#[test]
fn a_tap_is_shown_at_once_and_counted_at_rusts_answer() {
    huarong_tests::gate::run_web_suite(
        "web_preview",
        "the web page's tap preview suite",
        "preview.mjs",
        DEADLINE,
        Vec::new,
    );
}
