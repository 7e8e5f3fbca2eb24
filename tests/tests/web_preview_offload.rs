//! A `preview` of a game ID whose generator is costly runs in the web page's search worker,
//! never on the board's: `tests/web/preview-offload.mjs` (Node, `playwright-core` from
//! tests/chromium, Debian's chromium, a built `web/dist`, loopback only) previews
//! `klotski:1+:8x8:g12s20#2` with a 3×3 number slide on the board, as the code screen does, and
//! checks that every `snapshot` sent meanwhile is answered within 100 ms, that a search worker
//! was busy with it and is let go once it answered, that the board worker's wasm memory does not
//! grow, and that the page's renderer RSS is back near its value before.
//!
//! Gated like `web_chromium.rs`: with `HUARONG_E2E=1` anything missing is a failure; without
//! it the test prints a SKIPPED banner and passes.

use std::time::Duration;

/// The whole run (preview-offload.mjs's own watchdog is 150 s).
const DEADLINE: Duration = Duration::from_secs(180);

#[test]
fn a_costly_preview_leaves_the_web_board_answering_and_its_memory_as_it_was() {
    huarong_tests::gate::run_web_suite(
        "web_preview_offload",
        "the web page's preview offload suite",
        "preview-offload.mjs",
        DEADLINE,
        Vec::new,
    );
}
