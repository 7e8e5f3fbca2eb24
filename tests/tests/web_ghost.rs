//! Racing a friend's ghost on the web page (`tests/web/ghost.mjs`) in Debian's chromium with
//! touch: a 3×3 played by taps a player's pause apart and shared keeps its move times in the
//! result code (`decode_code.times_ms` within 10 ms of the recorded times); opened in a fresh
//! browser, `[data-ghost]` is idle until the first move, then every 250 ms shows the sender's
//! moves timed ≤ the elapsed time (within one move) on `replay`'s board; the finish lists the
//! race split by split; a code without times shows no ghost and offers Watch. Screenshots:
//! `tests/e2e/screenshots/web-{390x844-en,360x780-zh}-light-ghost-{race,finish}.png`.
//!
//! Gated like the other browser suites: with `HUARONG_E2E=1` a missing node, chromium or
//! `web/dist` is a failure; without it the test prints a SKIPPED banner and passes.

use huarong_core::share::encode_code;
use huarong_engine::code::{self, Challenge, Extra, Sender};
use huarong_engine::{Game, GameId};
use huarong_tests::gate::{self, root};
use serde_json::json;
use std::time::Duration;

/// A 3×3 twelve single taps from solved, and those taps.
const BOARD: &str = "3x3:2,3,6,1,0,7,4,8,5";
const TAPS: [u16; 12] = [7, 5, 8, 7, 5, 6, 3, 2, 1, 4, 7, 8];

fn case() -> serde_json::Value {
    let id = format!("slide:{BOARD}");
    let share = encode_code(&id, Extra::default(), None)
        .expect("a share code")
        .code;
    let log: Vec<_> = TAPS.iter().map(|t| json!({ "tile": t })).collect();
    // An older build's result code: the log without times.
    let untimed = code::encode_result(
        &id,
        Extra::default(),
        Challenge::new(TAPS.len() as u32, 9_000).expect("a result"),
        &Sender {
            name: Some("Bo".into()),
            log: Some(log),
        },
    )
    .expect("a result code");
    // A 7×7 five taps from solved, sent with its times: the ghost is a lane.
    let mut g7 =
        huarong_engine::slide::Slide::new(huarong_engine::slide::Board::solved(7, 7).unwrap())
            .unwrap();
    for tile in [48u16, 47, 46, 39, 32] {
        g7.apply(&huarong_engine::slide::Move { tile })
            .expect("a legal tap");
    }
    let id7 = format!("slide:{}", g7.board_body());
    let taps7: Vec<u16> = vec![32, 39, 46, 47, 48];
    let times7: Vec<u64> = vec![0, 400, 800, 1_200, 1_600];
    let (lane, kept) = code::encode_result_timed(
        &id7,
        Extra::default(),
        Challenge::new(5, 1_600).expect("a result"),
        &Sender {
            name: Some("Mei".into()),
            log: Some(taps7.iter().map(|t| json!({ "tile": t })).collect()),
        },
        None,
        false,
        Some(&times7),
    )
    .expect("a timed result code");
    assert_eq!(kept, Some("moves"));
    let p = GameId::parse(&id).expect("a game ID");
    let start = huarong_engine::slide::Slide::from_id(&p.body, p.seed).expect("a number slide");
    json!({
        "board": start.board_body(),
        "share": share,
        "taps": TAPS,
        "untimed": untimed,
        "lane": { "code": lane, "board": g7.board_body(), "taps": taps7, "times": times7 },
    })
}

#[test]
fn web_ghost_races_a_friends_timed_solve() {
    gate::run_web_suite(
        "web_ghost",
        "the web page's ghost suite",
        "ghost.mjs",
        Duration::from_secs(330),
        || {
            vec![
                ("HUARONG_GHOST_CASE", case().to_string().into()),
                (
                    "HUARONG_SHOTS",
                    root().join("tests/e2e/screenshots").into_os_string(),
                ),
            ]
        },
    )
}
