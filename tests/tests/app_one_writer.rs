//! One writer per data folder. Two apps on one real folder (a second
//! launch the single-instance plugin could not hand over): the second one writes nothing
//! there, says so, shows the saved settings and records (read only), and every move of the
//! first one survives the second one's start-up, checkpoint and exit.

use huarong_tests::{TempDir, TestApp};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// Every file under `dir` with its bytes (the lock file aside: it stays empty).
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                let name = p.strip_prefix(dir).unwrap().display().to_string();
                out.insert(name, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn play_some(app: &TestApp, n: usize) {
    for _ in 0..n {
        let s = app.snap("snapshot", json!({"kind": "slide"}));
        let tile = huarong_tests::gap_neighbours(&s)[0];
        app.ok("play", json!({"kind": "slide", "mv": {"tile": tile}}));
    }
}

#[test]
fn a_second_app_on_the_folder_is_read_only_and_the_first_ones_moves_survive() {
    let dir = TempDir::new("one-writer");
    let first = TestApp::start(dir.path(), None);
    first.ok(
        "set_settings",
        json!({"settings": {"theme": "dark", "name": "Mei"}}),
    );
    first.new_game(json!({"kind": "slide", "params": "4x4", "seed": 7}));
    play_some(&first, 5);
    let st = first.state();
    assert!(st.flush(Duration::from_secs(10)));
    assert!(!st.read_only());
    let before = files(dir.path());
    assert!(
        before.keys().any(|k| k.ends_with(".jnl")),
        "{:?}",
        before.keys()
    );

    // The second app, with a request of its own.
    let second = TestApp::start(dir.path(), Some("slide:3x3#5"));
    // A seeded ID is generated on a task of its own (bounded work): wait until the
    // request is open.
    let t0 = std::time::Instant::now();
    let p = loop {
        let p = second.ok("get_progress", json!({}));
        if !p["games"]["slide"]["id"].is_null() || t0.elapsed() > Duration::from_secs(20) {
            break p;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let codes: Vec<&Value> = p["notices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| &n["code"])
        .collect();
    assert!(codes.contains(&&json!("read_only")), "{p}");
    assert!(second.state().read_only());
    assert_eq!(p["storage"]["writable"], false, "{p}");
    // It shows what the first one saved: the player's settings.
    let s = second.ok("get_settings", json!({}));
    assert_eq!(
        (&s["theme"], &s["name"]),
        (&json!("dark"), &json!("Mei")),
        "{s}"
    );
    // Its request is open (in memory), and playing it, a checkpoint (focus lost) and its
    // exit write nothing.
    assert_eq!(p["games"]["slide"]["id"], "slide:3x3#5", "{p}");
    play_some(&second, 3);
    second.state().pause(None);
    second.state().checkpoint();
    second.state().shutdown();
    assert_eq!(
        files(dir.path()),
        before,
        "the second app changed the first one's files"
    );

    // The first app goes on; every one of its moves is there at the next start.
    play_some(&first, 4);
    let moves = first.snap("snapshot", json!({"kind": "slide"}))["moves"].clone();
    first.close();
    let again = TestApp::start(dir.path(), None);
    assert!(
        !again.state().read_only(),
        "the lock went with the first app"
    );
    let s = again.snap("snapshot", json!({"kind": "slide"}));
    assert_eq!(s["moves"], moves, "{s}");
    assert_eq!(s["id"], "slide:4x4#7", "{s}");
    again.close();
}
