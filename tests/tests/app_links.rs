//! Issue 22, links: the share link is `<LINK_BASE>?c=<code>` (an https address set in one
//! place, `huarong_engine::code::LINK_BASE`), and the app opens it and the first form,
//! `huarong://play?c=<code>`, alike: from the command line, from `open_game` and
//! `decode_code`, as a deep link while it runs and from a second launch. A link to another
//! site, or garbage, is a typed error that changes nothing. The mobile link settings
//! (`src-tauri/tauri.conf.json`, the committed AndroidManifest.xml) follow the same base.

use huarong_engine::code::{self, LINK_BASE, SCHEME_LINK_PREFIX};
use huarong_tests::{fresh_app, TempDir, TestApp};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Duration;

const NEAR_WIN: &str = "slide:3x3:1,2,3,4,5,6,7,0,8";

/// A code of each game (one with the sender's result) and the kind it opens.
fn codes() -> Vec<(String, &'static str)> {
    vec![
        (code::encode(NEAR_WIN).unwrap(), "slide"),
        (
            code::encode_challenge(
                "klotski:aCCb/aCCb/cdde/cfge/h..i",
                code::Challenge::new(90, 61_000).unwrap(),
            )
            .unwrap(),
            "klotski",
        ),
        (code::encode("2048#9").unwrap(), "2048"),
    ]
}

fn scheme_link(code: &str) -> String {
    format!("{SCHEME_LINK_PREFIX}{code}")
}

#[test]
fn both_link_forms_open_the_same_game() {
    let (_d, app) = fresh_app("links-both");
    for (c, kind) in codes() {
        let web = code::link(&c);
        assert_eq!(web, format!("{LINK_BASE}?c={c}"));
        let info = app.ok("encode_code", json!({"id": code::decode(&c).unwrap()}));
        assert!(
            info["link"].as_str().unwrap().starts_with(LINK_BASE),
            "{info}"
        );
        let mut seen: Vec<Value> = Vec::new();
        for text in [scheme_link(&c), web.clone(), c.clone()] {
            let v = app.ok("open_game", json!({"id": text, "replace": true}));
            let s = &v["snapshot"];
            assert_eq!(s["kind"], kind, "{text}: {v}");
            assert_eq!(s["moves"], 0, "{text}");
            seen.push(json!([s["board"], s["challenge"]]));
            let d = app.ok("decode_code", json!({"text": text}));
            assert_eq!(d["id"], json!(code::decode(&c).unwrap()), "{text}");
        }
        assert!(seen.windows(2).all(|w| w[0] == w[1]), "{kind}: {seen:?}");
        if kind == "klotski" {
            let ch = &seen[0][1];
            assert_eq!(
                (&ch["moves"], &ch["ms"]),
                (&json!(90), &json!(61_000)),
                "{ch}"
            );
        }
    }
}

#[test]
fn a_link_elsewhere_or_garbage_is_a_typed_error_and_changes_nothing() {
    let (_d, app) = fresh_app("links-bad");
    app.ok("open_game", json!({"id": "slide:3x3:4,1,2,5,0,3,7,8,6"}));
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 1}}));
    // The game as the player left it (its clock runs on: compare without it).
    let game = || {
        let mut s = app.ok("snapshot", json!({"kind": "slide"}))["snapshot"].take();
        s.as_object_mut().unwrap().remove("elapsed_ms");
        s
    };
    let before = game();
    let saved = || {
        let mut p = app.ok("get_progress", json!({}));
        for g in p["games"].as_object_mut().unwrap().values_mut() {
            g.as_object_mut().unwrap().remove("elapsed_ms");
        }
        (p["screen"].take(), p["games"].take())
    };
    let progress = saved();
    let c = code::encode(NEAR_WIN).unwrap();
    let host = code::link_host();
    let cases = [
        (format!("https://example.com/?c={c}"), "bad_code"),
        (format!("https://{host}.example.com/?c={c}"), "bad_code"),
        (format!("https://{host}:8443/?c={c}"), "bad_code"),
        (format!("https://{host}/records?c={c}"), "bad_code"),
        (format!("http://{host}/?c={c}"), "bad_code"),
        (format!("{LINK_BASE}?x={c}"), "bad_code"),
        (format!("{LINK_BASE}?c="), "bad_code"),
        (format!("{LINK_BASE}?c={}", &c[..c.len() - 2]), "bad_code"),
        ("huarong://other?c=2AAAA".to_string(), "bad_code"),
        (format!("{LINK_BASE}?c={}", "x".repeat(500)), "bad_code"),
        (
            format!("{LINK_BASE}?c={}", "x".repeat(3000)),
            "bad_argument",
        ),
        (format!("{LINK_BASE}?c=\u{7}{c}"), "bad_argument"),
        ("https://".to_string(), "bad_code"),
    ];
    for (bad, want) in &cases {
        assert_eq!(
            app.err("open_game", json!({"id": bad, "replace": true})),
            *want,
            "{bad}"
        );
        let got = app.err("decode_code", json!({"text": bad}));
        assert!(got == "bad_code" || got == "bad_argument", "{bad}: {got}");
    }
    assert_eq!(game(), before);
    assert_eq!(saved(), progress);
}

#[test]
fn a_web_link_on_the_command_line_opens_its_game() {
    let c = code::encode(NEAR_WIN).unwrap();
    for link in [code::link(&c), scheme_link(&c)] {
        // What `Launch::from_env` makes of a bare link argument.
        let open = huarong_core::args::open_from_args(["huarong-app".to_string(), link.clone()]);
        assert_eq!(open.as_deref(), Some(link.as_str()));
        let d = TempDir::new("links-argv");
        let app = TestApp::start(d.path(), open.as_deref());
        let p = app.ok("get_progress", json!({}));
        assert_eq!(p["screen"], "game:slide", "{link}: {p}");
        let v = app.ok("snapshot", json!({"kind": "slide"}));
        assert_eq!(v["snapshot"]["board"], "3x3:1,2,3,4,5,6,7,0,8", "{link}");
        app.close();
    }
    // A link to another site on the command line: home, with a notice saying why.
    let d = TempDir::new("links-argv-bad");
    let app = TestApp::start(d.path(), Some(&format!("https://example.com/?c={c}")));
    let p = app.ok("get_progress", json!({}));
    assert_eq!(p["screen"], "home", "{p}");
    let n = p["notices"].as_array().unwrap();
    assert!(
        n.iter()
            .any(|n| n["code"] == "bad_open"
                && n["message"].as_str().unwrap().contains("example.com")),
        "{n:?}"
    );
    app.close();
}

#[test]
fn the_shell_opens_both_forms_while_running() {
    use tauri::Emitter;
    let d = TempDir::new("links-shell");
    let app = TestApp::shell(d.path(), None);
    let slide = code::encode(NEAR_WIN).unwrap();
    let klotski = code::encode("klotski:aCCb/aCCb/cdde/cfge/h..i").unwrap();
    // Phones (App Links, Universal Links) and macOS: the deep-link plugin hands the URL over.
    app.tauri()
        .emit("deep-link://new-url", vec![scheme_link(&klotski)])
        .expect("emit");
    assert!(app.state().wait_links(1, Duration::from_secs(30)));
    assert_eq!(app.ok("get_progress", json!({}))["screen"], "game:klotski");
    // A second launch on Linux or Windows with the web link as its one argument (the
    // deep-link plugin only takes `huarong://` ones; the single-instance hand-over opens it).
    huarong_app_lib::second_instance(
        app.tauri().handle(),
        vec!["huarong-app".into(), code::link(&slide)],
    );
    assert!(app.state().wait_links(2, Duration::from_secs(30)));
    let p = app.ok("get_progress", json!({}));
    assert_eq!(p["screen"], "game:slide", "{p}");
    let v = app.ok("snapshot", json!({"kind": "slide"}));
    assert_eq!(v["snapshot"]["board"], "3x3:1,2,3,4,5,6,7,0,8");
}

fn repo_file(rel: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The App Link / Universal Link entry and the custom scheme in tauri.conf.json are the link
/// base's (check.py checks the same, and the rest of the mobile files, with a self-test).
#[test]
fn the_mobile_link_settings_follow_link_base() {
    let conf: Value = serde_json::from_str(&repo_file("src-tauri/tauri.conf.json")).unwrap();
    let dl = &conf["plugins"]["deep-link"];
    let mobile = dl["mobile"].as_array().expect("plugins.deep-link.mobile");
    let web: Vec<&Value> = mobile
        .iter()
        .filter(|d| d["scheme"] == json!(["https"]))
        .collect();
    assert_eq!(web.len(), 1, "one https entry: {mobile:?}");
    assert_eq!(web[0]["host"], code::link_host());
    assert_eq!(web[0]["path"], json!([code::link_path()]));
    assert_eq!(web[0]["appLink"], true);
    assert!(mobile
        .iter()
        .any(|d| d["scheme"] == json!(["huarong"]) && d["appLink"] == false));
    assert_eq!(dl["desktop"]["schemes"], json!(["huarong"]));
    let manifest = repo_file("src-tauri/gen/android/app/src/main/AndroidManifest.xml");
    let filter = manifest
        .split("<intent-filter ")
        .find(|f| f.starts_with("android:autoVerify=\"true\""))
        .expect("an autoVerify intent filter");
    let filter = &filter[..filter.find("</intent-filter>").unwrap()];
    for data in [
        "<data android:scheme=\"https\" />".to_string(),
        format!("<data android:host=\"{}\" />", code::link_host()),
        format!("<data android:path=\"{}\" />", code::link_path()),
    ] {
        assert!(filter.contains(&data), "{data} not in {filter}");
    }
}
