//! Kill test of speedsolving runs: the app core playing number-slide marathons
//! (`kill_run_child`) is `kill -9`ed at random moments, 60 times by default
//! (`HUARONG_RUN_KILLS` overrides). Every restart must resume exactly the last confirmed
//! state — the solve being played, its board and moves, the run's finished splits, the
//! run's record — or that state after the one operation in flight, never anything else.

use huarong_engine::rng::{self, RngCore};
use huarong_tests::TempDir;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

#[test]
fn a_killed_run_resumes_its_solve_and_splits() {
    let kills: usize = std::env::var("HUARONG_RUN_KILLS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let dir = TempDir::new("killrun");
    let exe = env!("CARGO_BIN_EXE_kill_run_child");
    let mut rng = rng::stream(20261204, "kill-run-parent");
    // The last confirmed state, and the state the operation in flight would leave.
    let mut confirmed: Option<Value> = None;
    let mut inflight: Option<Value> = None;
    let (mut kept, mut lost, mut ops, mut splits_seen, mut runs_won) = (0, 0, 0, 0, 0);
    for i in 0..kills {
        let mut child = Command::new(exe)
            .arg(dir.path())
            .arg(i.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn the child");
        let out = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        let reader = std::thread::spawn(move || {
            for l in BufReader::new(out).lines().map_while(Result::ok) {
                let _ = tx.send(l);
            }
        });
        // Wait for READY and then for 0-3 confirmed operations (so every child plays, however
        // busy the machine), then kill 0-8 ms later: inside an operation or between two.
        let confirmations = rng::below(&mut rng, 4) as usize;
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut lines: Vec<String> = Vec::new();
        let (mut ready, mut done) = (false, 0);
        while !(ready && done >= confirmations) {
            let Ok(l) = rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) else {
                panic!("kill {i}: the child stopped talking:\n{}", lines.join("\n"));
            };
            ready |= l.starts_with("READY ");
            done += usize::from(ready && l == "DONE");
            lines.push(l);
        }
        std::thread::sleep(Duration::from_micros(rng.next_u64() % 8_000));
        let _ = child.kill();
        let _ = child.wait();
        let _ = reader.join();
        lines.extend(rx.try_iter());
        for l in &lines {
            if let Some(j) = l.strip_prefix("READY ") {
                let ready: Value = serde_json::from_str(j).expect("READY json");
                // Before any confirmed operation the folder holds no game.
                let base = confirmed
                    .clone()
                    .unwrap_or_else(|| serde_json::json!({"id": null, "wins": 0}));
                let f = inflight.take();
                if ready == base {
                    if f.is_some() {
                        lost += 1;
                    }
                    confirmed = Some(base);
                } else if f.as_ref() == Some(&ready) {
                    kept += 1;
                    splits_seen = splits_seen.max(ready["splits"].as_u64().unwrap_or(0));
                    runs_won = runs_won.max(ready["wins"].as_u64().unwrap_or(0));
                    confirmed = f;
                } else {
                    panic!("kill {i}: resumed {ready}\nconfirmed {base}\nin flight {f:?}");
                }
            } else if let Some(j) = l.strip_prefix("OP ") {
                let op: Value = serde_json::from_str(j).expect("OP json");
                inflight = Some(op["after"].clone());
                ops += 1;
            } else if l == "DONE" {
                let after = inflight.take().expect("DONE follows an OP");
                splits_seen = splits_seen.max(after["splits"].as_u64().unwrap_or(0));
                runs_won = runs_won.max(after["wins"].as_u64().unwrap_or(0));
                confirmed = Some(after);
            }
        }
    }
    println!(
        "run kill test: {kills} kills, {ops} operations; in flight at a kill: {kept} kept, {lost} lost; \
         up to {splits_seen} splits in a run, {runs_won} runs won"
    );
    assert!(splits_seen >= 2, "runs got past their first solves");
}
