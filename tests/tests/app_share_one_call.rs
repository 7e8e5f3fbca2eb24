//! `share {kind, lang, theme}`: the finish shares with one call, and everything shared comes from
//! the slot's own finish (the page sends no moves, times, stars or verdicts). Checked through
//! the command table with a share sheet that keeps what it is handed: the card is byte for byte
//! the card crate's rendering of the finish, the result code carries the finish's moves and
//! time, and a result field sent along changes nothing.

use huarong_card::{CardSpec, Lang, Theme};
use huarong_core::platform::{Share, ShareOutcome};
use huarong_engine::code::{self, Challenge, Extra};
use huarong_tests::{solve_slide, TempDir, TestApp};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};

/// A share sheet that keeps every card.
#[derive(Default)]
struct Kept(Mutex<Vec<(Vec<u8>, String)>>);

impl Share for Kept {
    fn share_png(&self, png: &[u8], name: &str) -> huarong_core::error::AppResult<ShareOutcome> {
        self.0
            .lock()
            .unwrap()
            .push((png.to_vec(), name.to_string()));
        Ok(ShareOutcome {
            saved: Some(format!("/kept/{name}")),
            file: None,
            shared: None,
        })
    }
}

fn app(tag: &str) -> (TempDir, TestApp, Arc<Kept>) {
    let dir = TempDir::new(tag);
    let kept = Arc::new(Kept::default());
    let app = TestApp::start_with_share(dir.path(), kept.clone());
    (dir, app, kept)
}

const START: &str = "slide:3x3:4,1,3,7,2,6,0,5,8";

/// Play `START` to the win from a friend's code with `to_beat`; the finishing View.
fn win_challenge(app: &TestApp, to_beat: Challenge) -> Value {
    let c = code::encode_full(START, Extra::default(), Some(to_beat)).expect("a share code");
    app.ok("open_game", json!({ "id": c }));
    let (line, _) = solve_slide(START);
    let mut last = Value::Null;
    for mv in &line {
        last = app.ok("play", json!({"kind": "slide", "mv": mv}));
    }
    assert_eq!(last["snapshot"]["status"], "won", "{last}");
    last
}

#[test]
fn one_call_shares_the_finish_as_rust_recorded_it() {
    let (_d, app, kept) = app("share-one");
    let won = win_challenge(&app, Challenge::new(30, 600_000).unwrap());
    let f = &won["finish"];
    let moves = won["snapshot"]["counters"]["tile"].as_u64().unwrap() as u32;
    let ms = f["time_ms"].as_u64().unwrap();
    assert_eq!(f["challenge"]["beaten"], true, "{f}");

    // A result field sent along is not an argument: it changes nothing.
    let shared = app.ok(
        "share",
        json!({"kind": "slide", "lang": "en", "theme": "dark", "moves": 1, "ms": 5}),
    );
    let result = &shared["result"];
    assert_eq!(result["moves"], moves, "{shared}");
    assert_eq!(result["ms"], ms, "{shared}");
    assert_eq!(shared["link"], result["link"]);
    let link = shared["link"].as_str().unwrap();
    let text = shared["text"].as_str().unwrap();
    assert!(text.ends_with(link), "the text ends with the link: {text}");
    assert!(text.contains(&moves.to_string()), "{text}");
    assert_eq!(
        shared["card"]["saved"]
            .as_str()
            .map(|s| s.starts_with("/kept/")),
        Some(true)
    );

    // The result code says what the finish said.
    let decoded = app.ok("decode_code", json!({ "text": result["code"] }));
    assert_eq!(
        decoded["challenge"],
        json!({"moves": moves, "ms": ms}),
        "{decoded}"
    );
    assert_eq!(decoded["verified"], true, "{decoded}");
    // The share code of the start carries the same result to beat.
    let plain = app.ok("decode_code", json!({ "text": shared["code"]["code"] }));
    assert_eq!(
        plain["challenge"],
        json!({"moves": moves, "ms": ms}),
        "{plain}"
    );

    // The card is the card crate's rendering of this finish, byte for byte.
    let spec = CardSpec {
        code: result["code"].as_str().unwrap().to_string(),
        lang: Lang::En,
        theme: Theme::Dark,
        moves,
        seconds: ms / 1000,
        ms: Some(ms),
        name: None,
        friends_beaten: None,
        optimum: f["optimal"].as_u64().map(|o| o as u32),
        stars: f["stars"].as_u64().map(|s| s as u8),
        score: None,
        best_tile: None,
        date: None,
        picture: None,
        own_photo: false,
        beat: Some(Challenge::new(30, 600_000).unwrap()),
        board: Some(won["snapshot"]["board"].as_str().unwrap().to_string()),
    };
    let cards = kept.0.lock().unwrap();
    assert_eq!(cards.len(), 1, "one card shared");
    assert_eq!(
        cards[0].0,
        huarong_card::render(&spec).unwrap(),
        "the card shows the finish"
    );
    assert!(cards[0].1.starts_with("huarong-") && cards[0].1.ends_with(".png"));
}

#[test]
fn share_refuses_what_has_no_result_and_says_why() {
    let (_d, app, kept) = app("share-refuse");
    // No game of the kind yet, then a game in progress: nothing to share.
    assert!(app.call("share", json!({"kind": "slide"})).is_err());
    app.ok("open_game", json!({ "id": START }));
    let err = app
        .call("share", json!({"kind": "slide", "lang": "en"}))
        .expect_err("a game in progress has nothing to share");
    assert_eq!(err["code"], "bad_argument", "{err}");
    assert!(
        err["message"]
            .as_str()
            .unwrap_or("")
            .contains("not finished"),
        "{err}"
    );
    // A language or theme the card cannot speak is a bad argument.
    let (line, _) = solve_slide(START);
    for mv in &line {
        app.ok("play", json!({"kind": "slide", "mv": mv}));
    }
    for bad in [
        json!({"kind": "slide", "lang": "fr"}),
        json!({"kind": "slide", "theme": "sepia"}),
    ] {
        assert_eq!(app.err("share", bad), "bad_argument");
    }
    assert!(
        kept.0.lock().unwrap().is_empty(),
        "nothing shared by a refused call"
    );
    // The won game shares (a plain finish: no friend to beat on the card).
    let shared = app.ok("share", json!({"kind": "slide", "lang": "zh"}));
    assert!(shared["result"]["code"].is_string(), "{shared}");
    assert_eq!(kept.0.lock().unwrap().len(), 1);
}

#[test]
fn an_auto_solved_game_shares_the_puzzle_without_a_result() {
    let (_d, app, _kept) = app("share-solved");
    app.ok("open_game", json!({ "id": START }));
    let solved = app.ok("solve", json!({"kind": "slide"}));
    for mv in solved["moves"].as_array().unwrap() {
        app.ok("play", json!({"kind": "slide", "mv": mv}));
    }
    let shared = app.ok("share", json!({"kind": "slide", "lang": "en"}));
    assert!(
        shared["result"].is_null(),
        "a machine's solve is no result: {shared}"
    );
    let plain = app.ok("decode_code", json!({ "text": shared["code"]["code"] }));
    assert!(plain["challenge"].is_null(), "{plain}");
    assert_eq!(shared["link"], shared["code"]["link"]);
}
