//! The web page's storage in Debian's chromium:
//! `tests/web/storage.mjs` (Node, `playwright-core`) against the built `web/dist`. Twenty moves
//! with the eleventh's IndexedDB transaction aborted keep all twenty across a reload (the reply
//! waits for a commit that succeeds; the page shows `[data-storage-warning="failing"]`
//! meanwhile); a page without IndexedDB says it cannot save (English and Chinese); two tabs on
//! one origin: after a Web Lock steal the older tab never commits and every acknowledged move
//! of each is there after a reload; without Web Locks the second tab is read-only and says so.
//! Screenshots: `tests/e2e/screenshots/web-{en,zh}-storage-{unavailable,read-only}.png`.
//!
//! Gated like `web_chromium.rs`: with `HUARONG_E2E=1` a missing node, `playwright-core`,
//! chromium or `web/dist` is a failure; without it the test prints a SKIPPED banner and passes.

use huarong_tests::gate::{self, root};
use std::time::Duration;

/// The whole run (storage.mjs's own watchdog is 240 s).
const DEADLINE: Duration = Duration::from_secs(270);

#[test]
fn web_page_storage_loses_no_acknowledged_move_and_says_when_it_cannot_save() {
    gate::run_web_suite(
        "web_storage",
        "the web page's storage suite",
        "storage.mjs",
        DEADLINE,
        || {
            vec![(
                "HUARONG_SHOTS",
                root().join("tests/e2e/screenshots").into_os_string(),
            )]
        },
    );
}
