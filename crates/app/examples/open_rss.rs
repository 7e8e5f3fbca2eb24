//! RSS growth of opening one game ID through the app core, as the app
//! opens it: `open_game` on a worker thread of its own (the Tauri shell's blocking pool).
//!
//! `cargo run --release -p huarong-core --example open_rss -- 'klotski:1+:8x8:g12s20#2'`
//!
//! Prints the time, the answer, and the process's resident memory before, at its peak
//! (`VmHWM`) and after (Linux `/proc/self/status`).

use huarong_core::{AppState, Platform};
use std::time::Instant;

fn status_kb(field: &str) -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

fn main() {
    let id = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "klotski:1+:8x8:g12s20#2".into());
    let st = AppState::open(None, Platform::headless(), || Err("no store".into()));
    // Start-up done (its tables and threads): the baseline.
    let _ = huarong_core::dispatch(&st, "get_progress", serde_json::json!({}));
    let before = status_kb("VmRSS:");
    let hwm_before = status_kb("VmHWM:");
    let t = Instant::now();
    // `--engine`: the engine's generator alone on the thread, without the app's 5 s (its
    // other bounds: 64 MiB counted, 2,000,000 positions), as a fast machine runs it whole.
    let engine = std::env::args().any(|a| a == "--engine");
    let worker = {
        let st = st.clone();
        let id = id.clone();
        std::thread::spawn(move || {
            if engine {
                huarong_engine::Session::<huarong_engine::klotski::Klotski>::open(&id)
                    .map(|s| serde_json::json!({ "snapshot": { "board": s.id() } }))
                    .map_err(huarong_core::AppError::from)
            } else {
                huarong_core::dispatch(&st, "open_game", serde_json::json!({ "id": id }))
            }
        })
    };
    let r = worker.join().expect("the worker");
    let el = t.elapsed();
    let peak = status_kb("VmHWM:");
    let after = status_kb("VmRSS:");
    let answer = match &r {
        Ok(v) => format!("opened {}", v["snapshot"]["board"]),
        Err(e) => format!("{}: {}", e.code.as_str(), e.message),
    };
    println!("{id}: {answer}");
    println!(
        "{:.2} s; RSS {:.1} MiB before, peak {:.1} MiB (+{:.1} MiB), {:.1} MiB after (+{:.1} MiB)",
        el.as_secs_f64(),
        before as f64 / 1024.0,
        peak.max(hwm_before) as f64 / 1024.0,
        peak.saturating_sub(before) as f64 / 1024.0,
        after as f64 / 1024.0,
        after.saturating_sub(before) as f64 / 1024.0,
    );
}
