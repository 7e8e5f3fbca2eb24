//! The kill test's child (see `tests/tests/kill_persist.rs`): the real app (plugins, commands,
//! persistence: checked store file, atomic last-good copy, background saver) on tauri's mock
//! runtime, playing number-slide games through its IPC commands until it is `kill -9`ed.
//!
//! Usage: `kill_child <data dir> <seed> [whole]`: with `whole`, every progress save writes
//! the copies whole (no change log), so kills land in the store file's in-place write.
//! Protocol on stdout, one line each:
//! - `READY <json>` after start: the resumed slide game (`id`, `board`, `moves`, `status`),
//!   the record of 3×2 (`wins`, `best`), and the notice codes;
//! - `OP <json>` before each operation: `{"new": "<game id>"}` or `{"tile": n}`;
//! - `DONE` once that operation's state is on disk (the saver confirmed it).
//!
//! The child waits for `DONE` before the next operation (a player's pace), so a kill may
//! lose at most the one operation in flight.

use huarong_engine::rng::{self, RngCore};
use huarong_engine::slide::Board;
use huarong_tests::TestApp;
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

fn line(s: String) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{s}");
    let _ = out.flush();
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().expect("data dir"));
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let whole = args.next().is_some_and(|a| a == "whole");
    let mut rng = rng::stream(seed, "kill-child");

    let app = TestApp::start(&dir, None);
    let state = app.state();
    if whole {
        state.set_log_bound(Some(0));
    }
    let progress = app.ok("get_progress", json!({}));
    let game = app.call("snapshot", json!({"kind": "slide"})).ok();
    let record = &progress["records"]["slide:3x2/tile"];
    // The resumed line's move times (null when one was lost).
    let times = game
        .as_ref()
        .and_then(|_| app.call("splits", json!({"kind": "slide"})).ok())
        .map(|s| s["times_ms"].clone());
    line(format!(
        "READY {}",
        json!({
            "id": game.as_ref().map(|g| g["snapshot"]["id"].clone()),
            "board": game.as_ref().map(|g| g["snapshot"]["board"].clone()),
            "moves": game.as_ref().map(|g| g["snapshot"]["moves"].clone()),
            "status": game.as_ref().map(|g| g["snapshot"]["status"].clone()),
            "wins": record["wins"].as_u64().unwrap_or(0),
            "best": record["best_moves"].clone(),
            "times_ms": times,
            "notices": progress["notices"].as_array().map(|n| n.iter().map(|x| x["code"].clone()).collect::<Vec<Value>>()),
        })
    ));

    let mut status = game
        .as_ref()
        .map(|g| g["snapshot"]["status"].as_str().unwrap_or("").to_string());
    let mut board = game
        .as_ref()
        .and_then(|g| g["snapshot"]["board"].as_str().map(str::to_string));
    loop {
        let op = match (&status, &board) {
            (Some(s), Some(b)) if s == "playing" => {
                // Mostly follow the hint (to win and set records), sometimes a random tap.
                // A hint given marks the game as helped (`hinted`): its win sets no best.
                if rng::below(&mut rng, 10) < 7 {
                    match app.call("hint", json!({"kind": "slide"})) {
                        Ok(h) => json!({"tile": h["mv"]["tile"], "hinted": true}),
                        // Asked is used, answered or not (the session counts the asking).
                        Err(_) => {
                            let mut op = random_tap(b, &mut rng);
                            op["hinted"] = json!(true);
                            op
                        }
                    }
                } else {
                    random_tap(b, &mut rng)
                }
            }
            _ => json!({"new": format!("slide:3x2#{}", rng.next_u64() >> 11)}),
        };
        line(format!("OP {op}"));
        let view = if let Some(id) = op.get("new") {
            app.ok("open_game", json!({"id": id}))
        } else {
            app.ok("play", json!({"kind": "slide", "mv": {"tile": op["tile"]}}))
        };
        status = view["snapshot"]["status"].as_str().map(str::to_string);
        board = view["snapshot"]["board"].as_str().map(str::to_string);
        assert!(
            state.flush(Duration::from_secs(30)),
            "the saver did not confirm"
        );
        line("DONE".into());
    }
}

/// A tile next to the blank of a `WxH:<tiles>` board.
fn random_tap(board: &str, rng: &mut impl RngCore) -> Value {
    let next = Board::parse(board).expect("board body").movable();
    json!({"tile": next[rng::below(rng, next.len() as u64) as usize]})
}
