//! The core on a platform without threads (what a browser worker is): every command through
//! the command table, the writers stepped after each one, the files in memory. A game won
//! there is durable: a power loss right after the winning move keeps the win's record and the
//! finished game.

use huarong_core::fsio::sim::{Loss, Sim};
use huarong_core::persist::{InPlaceIo, Paths, Primary};
use huarong_core::platform::{NoThreads, Platform};
use huarong_core::{dispatch, AppState};
use serde_json::{json, Value};
use std::path::Path;
use std::sync::Arc;

fn open(sim: &Sim) -> AppState {
    let mut platform = Platform::headless().with_io(sim.io());
    platform.tasks = Arc::new(NoThreads);
    let paths = Paths::new(Path::new("/data"));
    let (io, store) = (sim.io(), paths.store.clone());
    AppState::open(Some(paths), platform, move || {
        Ok(Box::new(InPlaceIo(io, store)) as Box<dyn Primary>)
    })
}

fn call(st: &AppState, name: &str, args: Value) -> Value {
    let r = dispatch(st, name, args.clone());
    st.step();
    r.unwrap_or_else(|e| panic!("{name}({args}): {e:?}"))
}

#[test]
fn a_win_without_threads_is_durable_at_once() {
    let sim = Sim::new();
    let st = open(&sim);
    // One move from solved: 1 2 3 / 4 5 6 / 7 _ 8, as the app deals it (seed 245000), so that
    // its record is the 3×3's (an exact board's has a scope of its own).
    call(&st, "open_game", json!({"id": "slide:3x3#245000"}));
    let hint = call(&st, "hint", json!({"kind": "slide"}));
    assert_eq!(
        hint["pending"], false,
        "no background proof without threads: {hint}"
    );
    let won = call(&st, "play", json!({"kind": "slide", "mv": hint["mv"]}));
    assert_eq!(won["snapshot"]["status"], "won", "{won}");
    // No flush, no shutdown: the power goes off right after the reply.
    let after = sim.power_loss(Loss::Clean);
    let again = open(&after);
    let p = call(&again, "get_progress", json!({}));
    // Won with the hint's help: a win, but no best (an assisted finish sets no record).
    assert_eq!(p["records"]["slide:3x3/tile"]["wins"], 1, "{p}");
    assert!(
        p["records"]["slide:3x3/tile"]["best_moves"].is_null(),
        "{p}"
    );
    assert_eq!(p["games"]["slide"]["status"], "won", "{p}");
    let r = call(&again, "records", json!({"scope": "slide:3x3"}));
    assert_eq!(r["wins"], 1, "{r}");
}

#[test]
fn a_failing_disk_without_threads_retries_after_its_back_off_and_loses_nothing() {
    use huarong_core::fsio::sim::{Fault, Op};
    let sim = Sim::new();
    let st = open(&sim);
    call(&st, "new_game", json!({"kind": "2048", "seed": 7}));
    sim.fail_all(Op::Write, Fault::Eio);
    for dir in ["left", "up", "right", "down"] {
        let _ = dispatch(&st, "play", json!({"kind": "2048", "mv": {"dir": dir}}));
        st.step();
    }
    let notices = call(&st, "get_progress", json!({}))["notices"].clone();
    assert!(
        notices
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["code"] == "save_failed"),
        "{notices}"
    );
    sim.heal();
    // The retry waits for its back-off on the platform's clock; `flush` writes at once once
    // it is due.
    std::thread::sleep(std::time::Duration::from_millis(120));
    assert!(st.flush(std::time::Duration::from_secs(1)));
    let moves = call(&st, "snapshot", json!({"kind": "2048"}))["snapshot"]["moves"].clone();
    let again = open(&sim.power_loss(Loss::Clean));
    let v = call(&again, "snapshot", json!({"kind": "2048"}));
    assert_eq!(v["snapshot"]["moves"], moves, "{v}");
}
