//! The run kill test's child (see `tests/tests/kill_runs.rs`): the app core playing number
//! slide marathons (`marathon:5` of 3×3) through its commands until it is
//! `kill -9`ed.
//!
//! Usage: `kill_run_child <data dir> <seed>`. Protocol on stdout, one line each:
//! - `READY <state>` after start: the run as the app resumed it;
//! - `OP <json>` before each operation (`{"new": seed}` or `{"tile": n}`), with the state the
//!   app holds after it: `{"op": …, "after": <state>}`;
//! - `DONE` once that state is on disk (journal and progress flushed).
//!
//! A state is `{id, board, moves, status, splits, wins}` (`splits`: the run's finished
//! solves; `wins`: the record of `slide:3x3/marathon:5`). The state after an operation is
//! predicted with the engine before the operation is sent (a kill may land right after the
//! app wrote it), and the app's own state is checked against the prediction after it.

use huarong_engine::rng::{self, RngCore};
use huarong_engine::slide::run::{Run, RunMode};
use huarong_engine::slide::{self, Board, Move, Slide};
use huarong_engine::{Cancel, Game, GameId, Status};
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

/// The start board of game `id`.
fn start_board(id: &str) -> String {
    let p = GameId::parse(id).expect("a game ID");
    Slide::from_id(&p.body, p.seed)
        .expect("a number slide")
        .board_body()
}

/// The state `op` leaves after `now` (`seed`: the run being played), by the engine's rules.
fn predict(now: &Value, op: &Value, seed: u64) -> Value {
    let mode = RunMode::parse("marathon:5", "3x3").expect("a mode");
    if let Some(s) = op.get("new").and_then(Value::as_u64) {
        let id = Run::new(mode, s).id_of(0);
        return json!({"id": id, "board": start_board(&id), "moves": 0, "status": "playing", "splits": 0, "wins": now["wins"]});
    }
    let tile = op["tile"].as_u64().expect("tile") as u16;
    let mut g = Slide::new(Board::parse(now["board"].as_str().expect("board")).expect("a board"))
        .expect("a solvable board");
    g.apply(&Move { tile }).expect("a legal move");
    let moves = now["moves"].as_u64().unwrap_or(0) + u64::from(g.moves());
    if g.status() != Status::Won {
        return json!({"id": now["id"], "board": g.board_body(), "moves": moves, "status": "playing", "splits": now["splits"], "wins": now["wins"]});
    }
    let splits = now["splits"].as_u64().unwrap_or(0) + 1;
    if splits < 5 {
        let id = Run::new(mode, seed).id_of(splits as u32);
        return json!({"id": id, "board": start_board(&id), "moves": 0, "status": "playing", "splits": splits, "wins": now["wins"]});
    }
    let wins = now["wins"].as_u64().unwrap_or(0) + 1;
    json!({"id": now["id"], "board": g.board_body(), "moves": moves, "status": "won", "splits": splits, "wins": wins})
}

fn state(app: &TestApp) -> Value {
    let snap = app.call("snapshot", json!({"kind": "slide"})).ok();
    let p = app.ok("get_progress", json!({}));
    let wins = p["records"]["slide:3x3/marathon:5/tile"]["wins"]
        .as_u64()
        .unwrap_or(0);
    match snap {
        Some(v) => {
            let s = &v["snapshot"];
            json!({
                "id": s["id"], "board": s["board"], "moves": s["moves"], "status": s["status"],
                "splits": s["run"]["splits"].as_array().map_or(0, Vec::len),
                "wins": wins,
            })
        }
        None => json!({"id": null, "wins": wins}),
    }
}

/// The seed of the run being played (from its snapshot).
fn run_seed(app: &TestApp) -> u64 {
    app.call("snapshot", json!({"kind": "slide"}))
        .ok()
        .and_then(|v| v["snapshot"]["run"]["seed"].as_u64())
        .unwrap_or(0)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().expect("data dir"));
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut rng = rng::stream(seed, "kill-run-child");
    let app = TestApp::start(&dir, None);
    let st = app.state();
    let mut now = state(&app);
    line(format!("READY {now}"));
    loop {
        let playing = now["status"] == "playing";
        let op = if playing {
            let board = Board::parse(now["board"].as_str().expect("board")).expect("a board");
            // Mostly the solver's next tile (to finish solves and runs), sometimes any legal tap.
            if rng::below(&mut rng, 10) < 8 {
                let sol = slide::solve(&board, &Cancel::new()).expect("a solution");
                json!({"tile": sol.tiles[0]})
            } else {
                let next = board.movable();
                json!({"tile": next[rng::below(&mut rng, next.len() as u64) as usize]})
            }
        } else {
            json!({"new": rng.next_u64() >> 11})
        };
        let after = predict(&now, &op, run_seed(&app));
        line(format!("OP {}", json!({"op": op, "after": after})));
        if let Some(s) = op.get("new") {
            app.ok(
                "new_game",
                json!({"kind": "slide", "params": "3x3", "mode": "marathon:5", "seed": s, "replace": true}),
            );
        } else {
            app.ok("play", json!({"kind": "slide", "mv": op}));
        }
        now = state(&app);
        assert_eq!(now, after, "the app's state after {op} is the engine's");
        assert!(
            st.flush(Duration::from_secs(30)),
            "the saver did not confirm"
        );
        line("DONE".into());
    }
}
