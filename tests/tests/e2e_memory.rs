//! One memory bound for the app: hostile Klotski input opened in the Tauri app, as a player
//! opens it (the code screen's preview, then `open`), costs the app's process at most
//! +64 MiB over the idle app's peak resident memory (`VmHWM` of the `huarong-app` process;
//! the page's WebKit processes are not the core's). All searches share it: the 8×8 share
//! code's background optimum, the generator's preview and its opening.
//!
//! The figure is printed (`memory:` lines) and kept in docs/performance.md.

mod e2e_support;

use e2e_support::*;
use serde_json::json;
use std::time::Duration;

/// An 8×8 board with no optimum inside the search's bounds (its background optimum runs to
/// its budget).
const NO_OPTIMUM: &str = "1AYjAMMAAMMMMAAMMMMAAIIIIAAAAANrtvCw";
/// A generator ID whose search runs to its budget.
const BIG_GENERATOR: &str = "klotski:1+:8x8:g12s20#2";
/// A harmless 3×3 board and generator ID (the baseline's flow).
const SMALL_BOARD: &str = "slide:3x3:1,2,3,4,5,6,0,7,8";
const SMALL_GENERATOR: &str = "klotski:1+:4x5:g2s2#1";
/// The bound over the idle app's peak.
const BOUND_KIB: u64 = 64 * 1024;

/// A field of `/proc/<pid>/status` in KiB.
fn status_kib(pid: u32, field: &str) -> u64 {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_else(|e| panic!("/proc/{pid}/status: {e}"));
    s.lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no {field} in /proc/{pid}/status"))
}

async fn enter_code(app: &App, code: &str) {
    app.js_arg(
        "const i = document.getElementById('code-input'); i.value = arguments[0]; i.dispatchEvent(new Event('input'));",
        code,
    )
    .await;
}

/// Show the code screen as a restart would (the saved screen, the page reloaded).
async fn show_code(app: &App) {
    app.invoke("set_screen", json!({ "screen": "code" })).await;
    app.reload().await;
    app.wait_ready(15_000).await;
    app.wait_screen("code").await;
}

/// Open `code` from the code screen and look at its board for 6 s, then enter `generator`
/// there (its preview) and open it: the opening's answer (`opened` or the error's code).
async fn open_both(app: &App, code: &str, generator: &str) -> String {
    show_code(app).await;
    enter_code(app, code).await;
    app.wait_for("#code-input[data-decoded]").await;
    app.click_to("[data-action='open']", "game").await;
    app.wait_board().await;
    tokio::time::sleep(Duration::from_secs(6)).await;
    show_code(app).await;
    enter_code(app, generator).await;
    app.wait_for("#code-input[data-decoded]").await;
    let opened = app
        .c
        .execute_async(
            "const [id, done] = arguments;
             window.__TAURI__.core.invoke('open_game', { id, replace: true })
               .then(() => done('opened'), (e) => done(String(e && e.code)));",
            vec![json!(generator)],
        )
        .await
        .expect("open_game");
    opened.as_str().unwrap_or("?").to_string()
}

#[test]
fn e2e_hostile_klotski_input_stays_in_the_apps_memory_bound() {
    e2e_test(
        "e2e_hostile_klotski_input_stays_in_the_apps_memory_bound",
        async |d: &Driver| {
            let app = d.launch_home().await;
            let pids = d.app_pids();
            assert_eq!(pids.len(), 1, "one app process: {pids:?}");
            let pid = pids[0];
            tokio::time::sleep(Duration::from_secs(2)).await;
            let cold = status_kib(pid, "VmHWM:");
            // The idle app: the same screens and commands with harmless input first (the
            // code screen, a board opened from it, a preview, an opening), so that what the
            // page and the window take for showing them is in the baseline, not the searches'.
            let small = app
                .invoke("encode_code", json!({ "id": SMALL_BOARD }))
                .await;
            let small = small["code"].as_str().expect("a code").to_string();
            let small_flow = open_both(&app, &small, SMALL_GENERATOR).await;
            assert_eq!(small_flow, "opened", "the harmless generator opens");
            tokio::time::sleep(Duration::from_secs(1)).await;
            let idle = status_kib(pid, "VmHWM:");
            let idle_rss = status_kib(pid, "VmRSS:");

            // The 8×8 share code, opened from the code screen (its optimum runs behind the
            // board while the player looks at it for 6 s), then the generator ID: its
            // preview on the code screen, then its opening.
            let opened = open_both(&app, NO_OPTIMUM, BIG_GENERATOR).await;
            let after_code = status_kib(pid, "VmHWM:");
            // Whatever is left running in the background ends within its budget.
            tokio::time::sleep(Duration::from_secs(6)).await;
            let peak = status_kib(pid, "VmHWM:");
            let rss = status_kib(pid, "VmRSS:");
            figure(&format!(
                "memory: app process peak {:.1} MiB after start, {:.1} MiB idle after the same \
                 screens with harmless input (RSS {:.1}); hostile input: peak +{:.1} MiB by the \
                 generator's answer ({opened}), +{:.1} MiB 6 s later, RSS now {:.1} MiB \
                 (bound +{} MiB)",
                cold as f64 / 1024.0,
                idle as f64 / 1024.0,
                idle_rss as f64 / 1024.0,
                after_code.saturating_sub(idle) as f64 / 1024.0,
                peak.saturating_sub(idle) as f64 / 1024.0,
                rss as f64 / 1024.0,
                BOUND_KIB / 1024,
            ));
            assert!(
                peak <= idle + BOUND_KIB,
                "the app's peak RSS grew by {:.1} MiB over the idle app's {:.1} MiB, more than \
                 +{} MiB ({opened})",
                peak.saturating_sub(idle) as f64 / 1024.0,
                idle as f64 / 1024.0,
                BOUND_KIB / 1024,
            );
            assert_eq!(
                d.app_pids(),
                vec![pid],
                "the app still runs, the same process"
            );
            app.quit().await;
        },
    );
}
