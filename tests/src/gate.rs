//! What the browser suites (`chromium_touch.rs`, `web_chromium.rs`) share to find their tools
//! and to skip or fail: with `HUARONG_E2E=1` a missing tool is a failure, without it the
//! suite prints a SKIPPED banner and passes.

use std::io::Write as _;
use std::path::{Path, PathBuf};

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
