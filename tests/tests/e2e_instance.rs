//! End-to-end, single instance (desktop Linux): with a private D-Bus session bus, a second
//! launch of the app with a `huarong://play?c=<code>` link hands the link to the running app
//! and exits at once (status 0); exactly one app process remains, and it shows the linked game
//! in its challenge slot while the earlier game keeps its slot. Harness: `e2e_support`.

mod e2e_support;

use e2e_support::*;
use serde_json::{json, Value};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const FIRST: &str = "slide:3x3#1234567";
const LINKED: &str = "slide:4x4#7654321";

#[test]
fn a_second_launch_with_a_link_opens_it_in_the_running_app() {
    e2e_test("instance", async |d: &Driver| {
        // Without dbus-daemon (only allowed without HUARONG_E2E=1) there is no single instance.
        let Some(bus) = &d.bus else {
            eprintln!("\n*** SKIPPED e2e_instance: no session bus (install dbus-daemon) ***\n");
            return;
        };
        let (app, b0) = d.launch_open(FIRST).await;
        assert_eq!(b0.game, "slide", "{b0:?}");
        let played = app.tap_moves(2).await;
        assert!(played.moves >= 1, "no move was played: {played:?}");
        assert_eq!(
            d.app_pids().len(),
            1,
            "one app runs before the second launch"
        );
        let code = app.invoke("encode_code", json!({ "id": LINKED })).await;
        let code = code["code"].as_str().expect("a code").to_string();
        let link = format!("huarong://play?c={code}");

        let t0 = Instant::now();
        let mut second = Command::new(&d.app)
            .arg(&link)
            .env("DISPLAY", d.display())
            .env("GDK_BACKEND", "x11")
            .env("HUARONG_DATA_DIR", &d.data_dir)
            .env("HOME", d.data_dir.join("home"))
            .env("DBUS_SESSION_BUS_ADDRESS", &bus.address)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run the app a second time");
        let status = loop {
            if let Some(s) = second.try_wait().expect("wait for the second launch") {
                break s;
            }
            if t0.elapsed() > Duration::from_secs(20) {
                let _ = second.kill();
                let _ = second.wait();
                panic!("the second launch did not exit within 20 s (single instance is off?)");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let exit_ms = t0.elapsed().as_secs_f64() * 1000.0;
        assert!(status.success(), "the second launch exited with {status}");
        figure(&format!(
            "e2e_instance: the second launch handed its link over and exited in {exit_ms:.0} ms"
        ));

        // The running app opens the link (the board shows the linked game).
        let b = app
            .wait_js(
                "const b = document.querySelector('[data-game][data-state]'); \
                 return b && b.dataset.game === 'slide' && b.dataset.state.startsWith('4x4:') \
                 ? b.dataset.state : null;",
                15_000,
            )
            .await;
        assert!(b.is_string(), "the linked game was not shown: {b}");
        assert_eq!(d.app_pids().len(), 1, "exactly one app process remains");

        let snap = app.invoke("snapshot", json!({ "kind": "slide" })).await;
        // A share code carries the exact board, so the opened game's ID is that board's.
        let linked_id = snap["snapshot"]["id"].as_str().unwrap_or("").to_string();
        assert!(linked_id.starts_with("slide:4x4"), "{snap}");
        let games = app.invoke("list_games", json!({})).await;
        let games = games.as_array().expect("list_games is a list").clone();
        let find = |id: &str| -> Option<Value> { games.iter().find(|g| g["id"] == id).cloned() };
        let linked = find(&linked_id).unwrap_or_else(|| panic!("no slot with the link: {games:?}"));
        assert!(
            linked["slot"]
                .as_str()
                .unwrap_or("")
                .starts_with("challenge:"),
            "the link is not in a challenge slot: {linked}"
        );
        let first = find(FIRST).unwrap_or_else(|| panic!("the earlier game is gone: {games:?}"));
        assert_eq!(
            first["moves"], played.moves,
            "the earlier game lost moves: {first}"
        );
        app.quit().await;
    });
}
