//! A friend's shared board is playable on the web page before the app core has arrived (issue
//! 34): `tests/web/first.mjs` (Node, `playwright-core` from tests/chromium, Debian's chromium, a
//! built `web/dist`, loopback only) holds the board's wasm back, plays four moves on the first
//! core (crates/web-first), releases it, and checks that the core replays every command with the
//! same replies and stores the moves (a reload resumes them), and that a winning move waits for
//! the core.
//!
//! Gated like `web_chromium.rs`: with `HUARONG_E2E=1` anything missing is a failure; without
//! it the test prints a SKIPPED banner and passes.

use std::time::Duration;

/// The whole run (first.mjs's own watchdog is 150 s).
const DEADLINE: Duration = Duration::from_secs(180);

#[test]
fn a_shared_board_is_played_before_the_core_and_kept_by_it() {
    huarong_tests::gate::run_web_suite(
        "web_first",
        "the web page's first core suite",
        "first.mjs",
        DEADLINE,
        Vec::new,
    );
}
