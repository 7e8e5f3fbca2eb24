//! Hints that answer within a budget, on the mock runtime: the hardest 4×4 boards
//! get a legal move at once, flagged not optimal, while a proof goes on in the background;
//! when the proof arrives the page is told and `hint_status` returns the optimal move.

use huarong_tests::{fresh_app, TestApp};
use serde_json::{json, Value};
use std::sync::mpsc;
use std::time::Duration;

/// The 80-move board of issue 15 (blank = 0, goal 1 … 15 with the blank bottom-right).
const HARDEST: &str = "slide:4x4:0,12,9,13,15,11,10,14,3,7,2,5,4,8,6,1";
/// Korf's instance 3 in this game's convention: 59 moves, a proof of a fraction of a second.
const KORF3: &str = "slide:4x4:1,15,10,13,0,11,4,7,12,6,5,3,14,8,9,2";

/// Play the cached hint line (`hint_status`, which counts nothing) to its end, which must win
/// the game; the game's tile moves.
fn play_line_to_win(app: &TestApp) -> u64 {
    let mut last = Value::Null;
    loop {
        let next = app.ok("hint_status", json!({ "kind": "slide" }));
        if next.is_null() {
            break;
        }
        last = app.ok("play", json!({ "kind": "slide", "mv": next["mv"] }));
    }
    assert_eq!(last["snapshot"]["status"], json!("won"), "{last}");
    tile_moves(&last)
}

fn tile_moves(view: &Value) -> u64 {
    view["snapshot"]["counters"]["tile"]
        .as_u64()
        .expect("tile counter")
}

fn hint_ready(app: &TestApp) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    let events = app.events();
    std::thread::spawn(move || {
        for e in events {
            if let huarong_core::platform::Event::HintReady(kind) = e {
                if tx.send(kind.as_str().to_string()).is_err() {
                    return;
                }
            }
        }
    });
    rx
}

/// Open `id` with a search budget no optimal search meets (the hint comes from the fast
/// solver, the proof runs behind it); the channel of the proofs' arrivals.
fn open_proving(app: &TestApp, id: &str) -> mpsc::Receiver<String> {
    let ready = hint_ready(app);
    app.state().set_search_budget(Duration::from_millis(1));
    app.ok("open_game", json!({ "id": id }));
    ready
}

#[test]
fn the_hardest_board_gets_a_legal_move_at_once_not_claimed_optimal() {
    let (_dir, app) = fresh_app("hint-hardest");
    app.ok("open_game", json!({ "id": HARDEST }));
    let hint = app.ok("hint", json!({ "kind": "slide" }));
    assert_eq!(hint["optimal"], json!(false), "{hint}");
    assert_eq!(hint["pending"], json!(true), "a proof goes on: {hint}");
    // `remaining` counts taps along the line (a tap may slide several tiles).
    let remaining = hint["remaining"].as_u64().expect("a whole line is known");
    // The hinted move is legal, and the next hint follows the same line (not optimal yet).
    let view = app.ok("play", json!({ "kind": "slide", "mv": hint["mv"] }));
    assert_eq!(view["snapshot"]["counters"]["line"], json!(1), "{view}");
    let next = app.ok("hint_status", json!({ "kind": "slide" }));
    assert_eq!(next["optimal"], json!(false), "{next}");
    assert_eq!(next["remaining"].as_u64(), Some(remaining - 1));
    // Cancelling stops the proof; the line it handed out solves the board, in no fewer tile
    // moves than the optimum (80).
    app.ok("cancel", json!({ "kind": "slide" }));
    let moves = play_line_to_win(&app);
    assert!(moves >= 80, "{moves} tile moves");
    app.close();
}

#[test]
fn a_background_proof_upgrades_the_hint_to_optimal() {
    let (_dir, app) = fresh_app("hint-proof");
    // Even a 4×4 search of 59 moves does not meet the budget.
    let ready = open_proving(&app, KORF3);
    assert_eq!(
        app.ok("hint_status", json!({ "kind": "slide" })),
        Value::Null
    );
    let hint = app.ok("hint", json!({ "kind": "slide" }));
    assert_eq!(hint["optimal"], json!(false), "{hint}");
    assert_eq!(hint["pending"], json!(true), "{hint}");
    let kind = ready
        .recv_timeout(Duration::from_secs(300))
        .expect("the proof arrives");
    assert_eq!(kind, "slide");
    let proven = app.ok("hint_status", json!({ "kind": "slide" }));
    assert_eq!(proven["optimal"], json!(true), "{proven}");
    assert_eq!(proven["pending"], json!(false));
    let taps = proven["remaining"].as_u64().expect("a proven line");
    // Reading it counted no hint; asking again along the proven line is optimal at once.
    let snap = app.ok("snapshot", json!({ "kind": "slide" }));
    assert_eq!(snap["snapshot"]["hints_used"], json!(1));
    app.ok("play", json!({ "kind": "slide", "mv": proven["mv"] }));
    let again = app.ok("hint", json!({ "kind": "slide" }));
    assert_eq!(again["optimal"], json!(true), "{again}");
    assert_eq!(again["remaining"].as_u64(), Some(taps - 1));
    // The proven line is optimal: it solves the board in Korf's 59 tile moves.
    assert_eq!(play_line_to_win(&app), 59);
    app.close();
}

#[test]
fn a_move_cancels_the_proof_and_no_upgrade_arrives_for_an_old_position() {
    let (_dir, app) = fresh_app("hint-cancel");
    let ready = open_proving(&app, HARDEST);
    let hint = app.ok("hint", json!({ "kind": "slide" }));
    assert_eq!(hint["pending"], json!(true));
    app.ok("play", json!({ "kind": "slide", "mv": hint["mv"] }));
    // Undo back to the hinted position: a cancelled proof never reports, even if it had
    // been near its end, so the cached line stays the fast one.
    app.ok("undo", json!({ "kind": "slide" }));
    assert!(ready.recv_timeout(Duration::from_millis(300)).is_err());
    let status = app.ok("hint_status", json!({ "kind": "slide" }));
    assert_eq!(status, Value::Null, "undo drops the cached line: {status}");
    app.close();
}

#[test]
fn auto_solve_starts_within_the_budget_on_the_hardest_board() {
    let (_dir, app) = fresh_app("solve-hardest");
    app.ok("open_game", json!({ "id": HARDEST }));
    let solved = app.ok("solve", json!({ "kind": "slide" }));
    let moves = solved["moves"].as_array().expect("moves");
    // The path really solves the board.
    let mut last = Value::Null;
    for mv in moves {
        last = app.ok("play", json!({ "kind": "slide", "mv": mv }));
    }
    assert_eq!(last["snapshot"]["status"], json!("won"));
    assert_eq!(last["snapshot"]["auto_solved"], json!(true));
    assert!(tile_moves(&last) >= 80, "{} tile moves", tile_moves(&last));
    app.close();
}

/// The whole story of issue 15's "done when" on the 80-move board, with the default budget:
/// the first hint answers within the budget (not claimed optimal), the proof goes on in the
/// background and the hint becomes optimal: a line of exactly 80 tile moves. The proof is an
/// optimal IDA* of ~667 M nodes (one to two minutes), so this runs on demand:
/// `cargo test -p huarong-tests --test app_hints -- --ignored --nocapture` (the engine is optimised in test builds)
#[test]
#[ignore = "one to two minutes of CPU; run on demand"]
fn the_hardest_board_is_proven_optimal_in_the_background() {
    let (_dir, app) = fresh_app("hint-hardest-proof");
    let ready = hint_ready(&app);
    app.ok("open_game", json!({ "id": HARDEST }));
    let asked = std::time::Instant::now();
    let hint = app.ok("hint", json!({ "kind": "slide" }));
    let answered = asked.elapsed();
    assert_eq!(hint["optimal"], json!(false), "{hint}");
    assert_eq!(hint["pending"], json!(true), "{hint}");
    let kind = ready
        .recv_timeout(Duration::from_secs(1800))
        .expect("the proof arrives");
    let proven_after = asked.elapsed();
    assert_eq!(kind, "slide");
    let proven = app.ok("hint_status", json!({ "kind": "slide" }));
    assert_eq!(proven["optimal"], json!(true), "{proven}");
    assert_eq!(proven["pending"], json!(false), "{proven}");
    let tiles = play_line_to_win(&app);
    eprintln!(
        "80-move board: first hint in {} ms (optimal: false), proven optimal after {:.1} s, line {tiles} tile moves",
        answered.as_millis(),
        proven_after.as_secs_f64()
    );
    assert_eq!(tiles, 80, "the proven line is optimal");
    app.close();
}
