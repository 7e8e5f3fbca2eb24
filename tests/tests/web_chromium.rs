//! The web page (`web/dist`, issue 22) in Debian's chromium with touch: `tests/web/web.mjs`
//! (Node, `playwright-core` from tests/chromium, no downloaded browser) serves the built site on
//! a free loopback port and, at 390×844 in English and in Chinese, opens a friend's shared link
//! (`?c=<code>`, the codes made here by the app core), plays it to a win by touch, checks the
//! finish's share card and "Get the app", reloads and finds the record and a half-played game,
//! asks for hints through the search worker (the 4×4 tables fetched only for the 4×4 one),
//! checks that no request left the origin, and plays offline after the first visit. Issue 25
//! on the page: two friends' result codes for today's daily (one with its move log, so
//! verified) fill the friends' board on home and in the daily's finish, the verified one's
//! replay plays, pauses and steps, the board survives a reload (IndexedDB), and a long game's
//! share card is the tall one whose QR code (read with zbarimg, where it is installed) holds
//! the whole shared link. Screenshots: `tests/e2e/screenshots/web-{en,zh}-{shared,finish,
//! offline,friends-home,friends-finish,replay}.png`, and the card `web-{en,zh}-card-long.png`.
//!
//! Gated like `chromium_touch.rs`: with `HUARONG_E2E=1` a missing node, `playwright-core`,
//! chromium or `web/dist` (`./dev.sh web build`; `./dev.sh test` builds it first) is a failure;
//! without it the test prints a SKIPPED banner and passes.

use huarong_core::share::encode_code;
use huarong_engine::code::{self, Challenge, Extra, Sender};
use huarong_engine::{daily, Cancel, Game, GameId};
use huarong_tests::gate::{self, find_in_path, root};
use serde_json::json;
use std::time::Duration;

/// The whole run (web.mjs's own watchdog is 300 s).
const DEADLINE: Duration = Duration::from_secs(330);

/// A share code of `id` made by the app core (as the finish's share does).
fn code(id: &str, challenge: Option<(u32, u64)>) -> String {
    let challenge = challenge.map(|(moves, ms)| Challenge::new(moves, ms).expect("a challenge"));
    encode_code(id, Extra::default(), challenge)
        .expect("a share code")
        .code
}

/// Issue 25: the daily number slide of the day `offset` days from today (UTC, as the test's
/// headless chromium keeps it; the days beside it cover a page whose date differs), with its
/// solution and two friends' result codes: Mei's carries her move log (the solution after one
/// tap and its undo, so verified and behind an optimal solve), Bo's only his claim. `states`:
/// Mei's board after each of her moves.
fn friends_day(offset: i64) -> serde_json::Value {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("a clock after 1970")
        .as_millis() as i64;
    let day = daily::puzzles(daily::local_date(now + offset * 86_400_000)).expect("a daily");
    let id = day
        .puzzles
        .iter()
        .find(|(k, _)| k.as_str() == "slide")
        .map(|(_, id)| id.clone())
        .expect("a daily number slide");
    let p = GameId::parse(&id).expect("the daily's ID");
    let start = huarong_engine::slide::Slide::from_id(&p.body, p.seed).expect("the daily");
    let solution = start.solve(&Cancel::new()).expect("its solution");
    let first = solution[0];
    let mut log = vec![first, first];
    log.extend(solution.iter().copied());
    let mut g = start.clone();
    let mut states = vec![g.board_body()];
    for m in &log {
        g.apply(m).expect("a legal move");
        states.push(g.board_body());
    }
    let extra = Extra {
        daily: Some(day.number),
        classic: None,
    };
    let result = |name: &str, moves: u32, ms: u64, log: Option<Vec<serde_json::Value>>| {
        code::encode_result(
            &id,
            extra,
            Challenge::new(moves, ms).expect("a result"),
            &Sender {
                name: Some(name.into()),
                log,
            },
        )
        .expect("a result code")
    };
    let log_json: Vec<_> = log.iter().map(|m| json!(m)).collect();
    let mei = result("Mei", g.moves(), 95_200, Some(log_json));
    let bo = result("Bo", g.moves() + 10, 64_000, None);
    json!({
        "number": day.number,
        "id": id,
        "start": start.board_body(),
        "solution": solution,
        "mei": mei,
        "bo": bo,
        "states": states,
    })
}

#[test]
fn web_page_plays_a_shared_link_keeps_it_and_works_offline() {
    gate::run_web_suite(
        "web_chromium",
        "the web page's Chromium suite",
        "web.mjs",
        DEADLINE,
        || {
            let codes = codes();
            let mut envs = vec![
                ("HUARONG_WEB_CODES", codes.to_string().into()),
                (
                    "HUARONG_SHOTS",
                    root().join("tests/e2e/screenshots").into_os_string(),
                ),
            ];
            envs.extend(find_in_path("zbarimg").map(|z| ("HUARONG_ZBARIMG", z.into_os_string())));
            envs
        },
    );
}

/// The codes web.mjs plays (`HUARONG_WEB_CODES`), made by the app core.
fn codes() -> serde_json::Value {
    // A win in two taps carrying a friend's result to beat; a game to leave half played; the
    // hard 4×4 board (80 moves) whose hint needs the 4×4 tables.
    let hard = "0,12,9,13,15,11,10,14,3,7,2,5,4,8,6,1";
    json!({
        "win": {
            "code": code("slide:3x3:1,2,3,4,5,6,0,7,8", Some((5, 30_000))),
            "board": "3x3:1,2,3,4,5,6,0,7,8",
            "taps": [7, 8],
        },
        "half": {
            "code": code("slide:3x3:1,2,3,0,5,6,4,7,8", None),
            "board": "3x3:1,2,3,0,5,6,4,7,8",
            "taps": [4, 7],
        },
        "hard": {
            "code": code(&format!("slide:4x4:{hard}"), None),
            "board": format!("4x4:{hard}"),
        },
        "friends": [friends_day(-1), friends_day(0), friends_day(1)],
        "link_base": code::LINK_BASE,
    })
}
