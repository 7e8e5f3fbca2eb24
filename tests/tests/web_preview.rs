//! The number slide on the web page shows a tap at once and lets Rust count it:
//! `tests/web/preview.mjs` (Node, `playwright-core` from tests/chromium, Debian's chromium, a
//! built `web/dist`, loopback only) holds the page's `play` messages back and checks the board
//! between the tap and the answer: the tile is at its destination while `data-state` and the
//! move count wait for Rust, two taps in a row stack, and a refused move goes back.
//!
//! Gated like `web_chromium.rs`: with `HUARONG_E2E=1` anything missing is a failure; without
//! it the test prints a SKIPPED banner and passes.

use huarong_tests::gate::{self, find_in_path, root};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Exit codes of preview.mjs (common.mjs).
const EXIT_NO_BROWSER: i32 = 3;
const EXIT_NO_DEPS: i32 = 4;
/// The whole run (preview.mjs's own watchdog is 90 s).
const DEADLINE: Duration = Duration::from_secs(120);

fn skip_or_fail(why: &str) {
    gate::skip_or_fail("web_preview", "the web page's tap preview suite", why)
}

#[test]
fn a_tap_is_shown_at_once_and_counted_at_rusts_answer() {
    let root = root();
    let chromium = std::env::var_os("HUARONG_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    let mut missing = Vec::new();
    let node = find_in_path("node");
    if node.is_none() {
        missing.push("node (Node.js 20+)".to_string());
    }
    if !root
        .join("tests/chromium/node_modules/playwright-core/package.json")
        .is_file()
    {
        missing.push("playwright-core (npm ci --prefix tests/chromium)".into());
    }
    if !chromium.is_file() {
        missing.push(format!("{} (apt install chromium)", chromium.display()));
    }
    if !root.join("web/dist/index.html").is_file() {
        missing.push("web/dist (./dev.sh web build)".into());
    }
    let node = match node {
        Some(node) if missing.is_empty() => node,
        _ => return skip_or_fail(&format!("missing {}", missing.join(", "))),
    };
    let mut child = Command::new(&node)
        .arg(root.join("tests/web/preview.mjs"))
        .current_dir(&root)
        .env("HUARONG_CHROMIUM", &chromium)
        .env("HUARONG_WEB_DIST", root.join("web/dist"))
        .stdin(Stdio::null())
        .spawn()
        .expect("start node");
    let end = Instant::now() + DEADLINE;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for preview.mjs") {
            break status;
        }
        if Instant::now() > end {
            let _ = child.kill();
            let _ = child.wait();
            panic!("preview.mjs took over {DEADLINE:?} and was killed");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    match status.code() {
        Some(0) => {}
        Some(EXIT_NO_BROWSER) => skip_or_fail(&format!("{} could not start", chromium.display())),
        Some(EXIT_NO_DEPS) => skip_or_fail("playwright-core could not be loaded"),
        _ => panic!("the tap preview suite failed ({status}); see its output above"),
    }
}
