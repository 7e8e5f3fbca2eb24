//! The real `ui/` in Debian's chromium with real touch, against the real command layer.
//!
//! Two phones (390×844 and 360×780, DPR 3, touch, mobile), each its own device: for each one
//! the app runs in this process on tauri's mock runtime with a fresh data folder (a phone
//! opening the same game ID as the other must not resume the other's slot), the test-only
//! bridge (`huarong_tests::bridge`) serves `ui/` on 127.0.0.1 under the shipped CSP and runs
//! the page's `invoke` calls on that app, and `tests/chromium/touch.mjs` (Node,
//! `playwright-core`, `executablePath` = `/usr/bin/chromium`, no downloaded browser) plays
//! every game by touch on that phone: taps, a slide run drag, a Klotski corner drag, 2048
//! swipes, vertical drags on the board, two-finger touches, undo and a win each; and the
//! tests' stand-in game (Lights Out, the engine's `stand-in` feature that this test build
//! has), whose board the page loads only with `?test-game=lights`, won by two taps.
//! Screenshots: `tests/e2e/screenshots/chromium-<phone>-*.png`; a failed scenario leaves
//! `tests/e2e/out/chromium-<phone>-FAILED-<scenario>.png`.
//!
//! A second test loads every board with the container-query declarations dropped
//! from the stylesheets (`tests/chromium/noqueries.mjs`, as iOS 15 and WebViews before Chrome 105
//! drop them): each keeps a playable size and takes a move.
//!
//! Gating as in the WebKit E2E: with `HUARONG_E2E=1` a missing node, `playwright-core`
//! (`npm ci --prefix tests/chromium`) or chromium, or a chromium that cannot start, is a
//! failure; without it the test prints a SKIPPED banner and passes.

use huarong_tests::bridge::{bridge_csp, Bridge, Call, Ended};
use huarong_tests::gate::{self, root, EXIT_NO_BROWSER, EXIT_NO_DEPS};
use huarong_tests::{TempDir, TestApp};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One phone's run (every scenario) must end within this (touch.mjs's own watchdog is 100 s).
const DEADLINE: Duration = Duration::from_secs(120);
/// The phones (touch.mjs's `HUARONG_PHONE` names).
const PHONES: [&str; 2] = ["390x844", "360x780"];

/// Skip (banner, pass) or, under `HUARONG_E2E=1`, fail.
fn skip_or_fail(why: &str) {
    gate::skip_or_fail("chromium_touch", "the Chromium touch suite", why)
}

/// How one phone's run ended.
enum Run {
    Passed,
    /// Chromium or playwright-core is unusable (the SKIPPED / failure gate decides).
    Unavailable(String),
}

/// How one driver script's run ended.
enum Driven {
    /// It passed; what the page and the script asked of the app.
    Ran(Vec<Call>),
    /// Chromium or playwright-core is unusable (the SKIPPED / failure gate decides).
    Unavailable(String),
}

/// A fresh data folder, app and bridge, and `tests/chromium/<script>` driving chromium against
/// them (`HUARONG_PHONE` = `phone` when given); panics when the script fails or overruns.
fn drive(
    root: &Path,
    node: &Path,
    chromium: &Path,
    script: &str,
    tag: &str,
    phone: Option<&str>,
) -> Driven {
    let csp = bridge_csp(&root.join("src-tauri/tauri.conf.json")).expect("the shipped CSP");
    let driver_dir = root.join("tests").join("chromium");
    let data = TempDir::new(&format!("chromium-{tag}"));
    let app = TestApp::start(data.path(), None);
    let bridge = Bridge::start(&root.join("ui"), csp).expect("start the bridge");
    let e2e = root.join("tests").join("e2e");
    let mut command = Command::new(node);
    command
        .arg(driver_dir.join(script))
        .current_dir(&driver_dir)
        .env("HUARONG_BRIDGE", bridge.url())
        .env("HUARONG_CHROMIUM", chromium)
        .env("HUARONG_SHOTS", e2e.join("screenshots"))
        .env("HUARONG_FAILED_SHOTS", e2e.join("out"))
        .stdin(Stdio::null());
    if let Some(phone) = phone {
        command.env("HUARONG_PHONE", phone);
    }
    let mut child = command.spawn().expect("start node");
    let pid = child.id();
    // The driver's exit ends the serving loop; its status comes back on a channel.
    let stopper = bridge.stopper();
    let (status_tx, status_rx) = std::sync::mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let status = child.wait();
        let _ = status_tx.send(status);
        stopper.stop("the driver exited");
    });
    let (ended, calls) = bridge.serve(&app, Instant::now() + DEADLINE);
    if let Ended::TimedOut = ended {
        // Our own child, still unreaped (its waiter has not returned), so the pid is its own.
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    let status = status_rx
        .recv()
        .expect("the driver's status")
        .expect("wait for the driver");
    waiter.join().expect("waiter thread");
    assert!(
        !matches!(ended, Ended::TimedOut),
        "{tag}: the Chromium run ({script}) took over {DEADLINE:?} and was killed"
    );
    match status.code() {
        Some(0) => {}
        Some(EXIT_NO_BROWSER) => {
            return Driven::Unavailable(format!("{} could not start", chromium.display()))
        }
        Some(EXIT_NO_DEPS) => {
            return Driven::Unavailable("playwright-core could not be loaded".into())
        }
        _ => panic!(
            "{tag}: the Chromium run ({script}) failed ({status}); see its output above and \
             tests/e2e/out/chromium-{tag}-FAILED-*.png"
        ),
    }
    app.close();
    Driven::Ran(calls)
}

/// One phone: every touch scenario of touch.mjs, then the checks of what that page asked of
/// the app.
fn run_phone(root: &Path, node: &Path, chromium: &Path, phone: &str) -> Run {
    let calls = match drive(root, node, chromium, "touch.mjs", phone, Some(phone)) {
        Driven::Ran(calls) => calls,
        Driven::Unavailable(why) => return Run::Unavailable(why),
    };
    // What the page asked of the real command layer: every answer typed, none internal.
    let count = |cmd: &str| calls.iter().filter(|c| c.cmd == cmd).count();
    for c in &calls {
        if let Err(code) = &c.result {
            assert!(
                !matches!(code.as_str(), "internal" | "bad_argument" | "untyped"),
                "{phone}: {}({}) answered {code}: the UI sent something the app rejects",
                c.cmd,
                c.args
            );
        }
    }
    let failed_plays: Vec<_> = calls
        .iter()
        .filter(|c| c.cmd == "play" && c.result.is_err())
        .map(|c| format!("{} → {:?}", c.args, c.result))
        .collect();
    assert!(
        failed_plays.is_empty(),
        "{phone}: every touch move was legal: {failed_plays:?}"
    );
    // Slide 3 + the run, Klotski 2 + the win, 2048 2 + the win, the tests' stand-in 2 (undo
    // is `undo`).
    assert_eq!(count("play"), 12, "{phone}: play calls: {calls:#?}");
    let lights = calls
        .iter()
        .filter(|c| c.cmd == "play" && c.args["kind"] == "lights")
        .count();
    assert_eq!(lights, 2, "{phone}: the stand-in's plays");
    assert_eq!(count("undo"), 3, "{phone}: undo calls");
    assert!(
        count("klotski_targets") >= 3,
        "{phone}: klotski_targets calls"
    );
    assert!(
        count("get_progress") >= 7,
        "{phone}: one start-up per scenario"
    );
    Run::Passed
}

#[test]
fn chromium_touch_plays_every_game() {
    let root = root();
    let (node, chromium) = match gate::node_and_chromium(&root) {
        Ok(t) => t,
        Err(why) => return skip_or_fail(&why),
    };
    for phone in PHONES {
        if let Run::Unavailable(why) = run_phone(&root, &node, &chromium, phone) {
            return skip_or_fail(&why);
        }
    }
}

/// Every board with the container-query declarations dropped from the stylesheets (as
/// iOS 15 and WebViews before Chrome 105 drop them) keeps a playable size, at least 280 px wide
/// at 390×844, and takes a move by touch; with the fallbacks dropped too it collapses (the
/// control that shows the run reproduces such an engine). `tests/chromium/noqueries.mjs`.
#[test]
fn chromium_boards_keep_their_size_without_container_queries() {
    let root = root();
    let (node, chromium) = match gate::node_and_chromium(&root) {
        Ok(t) => t,
        Err(why) => return skip_or_fail(&why),
    };
    let calls = match drive(&root, &node, &chromium, "noqueries.mjs", "noqueries", None) {
        Driven::Ran(calls) => calls,
        Driven::Unavailable(why) => return skip_or_fail(&why),
    };
    for c in &calls {
        assert!(
            c.result.is_ok(),
            "{}({}) answered {:?}: the boards without container queries sent something the app rejects",
            c.cmd,
            c.args,
            c.result
        );
    }
    // One move on each of the four boards (a tap, a tap, a drag, a swipe).
    let plays = calls.iter().filter(|c| c.cmd == "play").count();
    assert_eq!(plays, 4, "play calls: {calls:#?}");
}
