//! What the browser suites (`chromium_touch.rs`, `web_chromium.rs`, `web_preview.rs`) share
//! to find their tools, to run a script of the web page's, and to skip or fail: with
//! `HUARONG_E2E=1` a missing tool is a failure, without it the suite prints a SKIPPED banner
//! and passes.

use std::ffi::OsString;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Exit codes of the Node scripts (tests/web/common.mjs, tests/chromium/touch.mjs): the
/// browser could not start; `playwright-core` could not be loaded.
pub const EXIT_NO_BROWSER: i32 = 3;
pub const EXIT_NO_DEPS: i32 = 4;

/// The workspace root (the parent of `tests/`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// Whether `HUARONG_E2E=1` makes a missing tool a failure.
pub fn required() -> bool {
    std::env::var("HUARONG_E2E").is_ok_and(|v| v == "1")
}

/// Whether `HUARONG_E2E=0` turns every browser and app-window suite off (`./dev.sh check`,
/// the fast loop): they skip with a banner, as with a missing tool.
pub fn switched_off() -> bool {
    std::env::var("HUARONG_E2E").is_ok_and(|v| v == "0")
}

/// Skip `suite` (banner, pass) or, under `HUARONG_E2E=1`, fail, saying `why`; `what` names
/// the suite in the failure ("the Chromium touch suite").
pub fn skip_or_fail(suite: &str, what: &str, why: &str) {
    if required() {
        panic!("{what} cannot run under HUARONG_E2E=1: {why}");
    }
    // Straight to the terminal: the test harness captures `eprintln!` of passing tests.
    let _ = writeln!(
        std::io::stderr(),
        "\n\
         ************************************************************************\n\
         *** SKIPPED {suite}: {why}\n\
         *** (set HUARONG_E2E=1 to make this a failure; ./dev.sh test installs it)\n\
         ************************************************************************\n"
    );
}

/// The file `name` in a directory of `PATH`.
pub fn find_in_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// node and chromium (`HUARONG_CHROMIUM`, else Debian's `/usr/bin/chromium`) with
/// `playwright-core` in tests/chromium, or why some are missing.
pub fn node_and_chromium(root: &Path) -> Result<(PathBuf, PathBuf), String> {
    let chromium = std::env::var_os("HUARONG_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    if switched_off() {
        return Err("HUARONG_E2E=0 (the fast loop runs no browser)".to_string());
    }
    let mut missing = Vec::new();
    let node = find_in_path("node");
    if node.is_none() {
        missing.push("node (Node.js 20+)".to_string());
    }
    if !root
        .join("tests/chromium/node_modules/playwright-core/package.json")
        .is_file()
    {
        missing.push("playwright-core (npm ci --prefix tests/chromium)".to_string());
    }
    if !chromium.is_file() {
        missing.push(format!("{} (apt install chromium)", chromium.display()));
    }
    match node {
        Some(node) if missing.is_empty() => Ok((node, chromium)),
        _ => Err(format!("missing {}", missing.join(", "))),
    }
}

/// Run the web page's suite `tests/web/<script>` on the built `web/dist` (node, chromium,
/// `playwright-core`; `envs()` gives its other variables, made only when it can run), killed
/// after `deadline`; with `HUARONG_SHOTS` among them, on the test clock
/// (`HUARONG_TEST_CLOCK=1`). A missing tool, a browser that cannot start or `playwright-core`
/// that cannot load skips it (or fails under `HUARONG_E2E=1`, see [`skip_or_fail`]); a failing
/// script fails the test. `suite` and `what` name it as [`skip_or_fail`] does.
pub fn run_web_suite(
    suite: &str,
    what: &str,
    script: &str,
    deadline: Duration,
    envs: impl FnOnce() -> Vec<(&'static str, OsString)>,
) {
    let root = root();
    let tools = node_and_chromium(&root).and_then(|t| {
        if root.join("web/dist/index.html").is_file() {
            Ok(t)
        } else {
            Err("missing web/dist (./dev.sh web build)".to_string())
        }
    });
    let (node, chromium) = match tools {
        Ok(t) => t,
        Err(why) => return skip_or_fail(suite, what, &why),
    };
    let envs = envs();
    // A suite that takes screenshots plays on the settable clock (tests/web/common.mjs), so
    // that its pictures show a player's times and pace.
    let shots = envs.iter().any(|(k, _)| *k == "HUARONG_SHOTS");
    let mut child = Command::new(&node)
        .arg(root.join("tests/web").join(script))
        .current_dir(&root)
        .env("HUARONG_CHROMIUM", &chromium)
        .env("HUARONG_WEB_DIST", root.join("web/dist"))
        .env("HUARONG_TEST_CLOCK", if shots { "1" } else { "0" })
        .envs(envs)
        .stdin(Stdio::null())
        .spawn()
        .expect("start node");
    let end = Instant::now() + deadline;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the web suite") {
            break status;
        }
        if Instant::now() > end {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{script} took over {deadline:?} and was killed");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    match status.code() {
        Some(0) => {}
        Some(EXIT_NO_BROWSER) => skip_or_fail(
            suite,
            what,
            &format!("{} could not start", chromium.display()),
        ),
        Some(EXIT_NO_DEPS) => skip_or_fail(suite, what, "playwright-core could not be loaded"),
        _ => panic!("{what} failed ({status}); see its output above"),
    }
}
