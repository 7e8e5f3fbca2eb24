//! Benchmark of the move journal (issue 13) on the real file system, through `Journal` and the
//! engine `Session` directly (what a move command does: play, take the delta, append).
//!
//!   cargo run --release -p huarong-tests --bin journal_bench [-- --moves N --dir PATH]
//!
//! Prints, for a 10×10 number slide: bytes written and fsyncs per move (moves 1–1,000 and
//! 9,001–10,000), the move's p50/p95 time in both ranges, in two modes — `coalesced` (moves as
//! fast as they come, the writer batches) and `durable` (every move waits until it is on disk:
//! the worst case for fsyncs) — and the start-up time with a 10,000-move game in each of 10
//! slots (opening the journal, and opening + replaying every session).

use huarong_app_lib::fsio::{self, sim::Counting};
use huarong_app_lib::journal::Journal;
use huarong_engine::slide::{Move, Slide};
use huarong_engine::{SavedSession, Session};
use serde_json::json;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn percentile(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

/// Play `moves` random moves into slot `key`; per-move (bytes, fsyncs, µs).
fn play(
    j: &Journal,
    counting: &Counting,
    key: &str,
    moves: usize,
    seed: u64,
    durable: bool,
) -> Vec<(u64, u64, f64)> {
    let mut s = Session::<Slide>::open(&format!("slide:10x10#{seed}")).expect("open");
    j.put(
        key,
        json!({"moves": 0}),
        serde_json::to_value(s.save(0)).unwrap(),
    );
    assert!(j.flush(Duration::from_secs(30)));
    let _ = s.take_delta(0);
    let mut rng = Rng(seed | 1);
    let mut last = None;
    let mut out = Vec::with_capacity(moves);
    for i in 0..moves {
        let (b0, f0) = counting.totals();
        let t = Instant::now();
        let movable = s.current().board().movable();
        let mut tile = movable[(rng.next() % movable.len() as u64) as usize];
        if Some(tile) == last && movable.len() > 1 {
            tile = movable[(movable.iter().position(|&m| m == tile).unwrap() + 1) % movable.len()];
        }
        last = Some(tile);
        s.play(&Move { tile }, i as u64 * 300).expect("legal");
        let d = serde_json::to_value(s.take_delta(i as u64 * 300)).unwrap();
        j.append(key, json!({"moves": i + 1, "updated_ms": i * 300}), d);
        let us = t.elapsed().as_secs_f64() * 1e6;
        if durable {
            assert!(j.flush(Duration::from_secs(30)), "{:?}", j.error());
        }
        let (b1, f1) = counting.totals();
        out.push((b1 - b0, f1 - f0, us));
    }
    assert!(j.flush(Duration::from_secs(60)), "{:?}", j.error());
    out
}

fn report(mode: &str, per: &[(u64, u64, f64)], counting_total: (u64, u64)) {
    let n = per.len();
    for (lo, hi) in [(0, 1000.min(n)), (n.saturating_sub(1000), n)] {
        let part = &per[lo..hi];
        let bytes: u64 = part.iter().map(|p| p.0).sum();
        let syncs: u64 = part.iter().map(|p| p.1).sum();
        let mut t: Vec<f64> = part.iter().map(|p| p.2).collect();
        let p50 = percentile(&mut t, 0.5);
        let p95 = percentile(&mut t, 0.95);
        println!(
            "{mode:9} moves {:>5}-{:<5}: {:>7.1} bytes/move, {:.3} fsyncs/move, move p50 {:>6.1} µs, p95 {:>6.1} µs",
            lo + 1,
            hi,
            bytes as f64 / part.len() as f64,
            syncs as f64 / part.len() as f64,
            p50,
            p95
        );
    }
    println!(
        "{mode:9} total: {} bytes, {} fsyncs (incl. the writer's tail)",
        counting_total.0, counting_total.1
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut moves = 10_000usize;
    let mut dir: Option<PathBuf> = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--moves" => moves = args.next().and_then(|v| v.parse().ok()).unwrap_or(moves),
            "--dir" => dir = args.next().map(PathBuf::from),
            _ => {
                eprintln!("usage: journal_bench [--moves N] [--dir PATH]");
                std::process::exit(2);
            }
        }
    }
    let base = dir.unwrap_or_else(|| {
        std::env::temp_dir().join(format!("huarong-jbench-{}", std::process::id()))
    });
    let _ = std::fs::remove_dir_all(&base);
    println!(
        "journal_bench: 10x10 number slide, {moves} moves, folder {}",
        base.display()
    );
    for (mode, durable) in [("coalesced", false), ("durable", true)] {
        let d = base.join(mode);
        let counting = Counting::new(fsio::real());
        let (j, _, _) = Journal::open(&d, Arc::new(counting.clone()));
        let per = play(&j, &counting, "slide:10x10", moves, 7, durable);
        j.shutdown();
        report(mode, &per, counting.totals());
    }
    // Start-up: 10 slots with a game of `moves` moves each (coalesced writes to build them).
    let d = base.join("startup");
    {
        let counting = Counting::new(fsio::real());
        let (j, _, _) = Journal::open(&d, Arc::new(counting.clone()));
        for k in 0..10u64 {
            play(
                &j,
                &counting,
                &format!("slide:bench{k}"),
                moves,
                100 + k,
                false,
            );
        }
        j.shutdown();
    }
    let files: u64 = std::fs::read_dir(d.join("games"))
        .map(|r| {
            r.flatten()
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0);
    let mut open_ms = Vec::new();
    let mut restore_ms = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let (j, slots, notices) = Journal::open(&d, fsio::real());
        let opened = t.elapsed();
        assert_eq!(slots.len(), 10, "{notices:?}");
        for s in &slots {
            let saved: SavedSession<Move> = serde_json::from_value(s.saved.clone()).unwrap();
            let sess = Session::<Slide>::restore(&saved).expect("restore");
            assert_eq!(sess.played().len(), moves);
        }
        let restored = t.elapsed();
        j.shutdown();
        open_ms.push(opened.as_secs_f64() * 1e3);
        restore_ms.push(restored.as_secs_f64() * 1e3);
    }
    println!(
        "start-up, 10 slots x {moves} moves ({files} bytes on disk): journal open median {:.1} ms (max {:.1}); open + replay every session median {:.1} ms (max {:.1})",
        percentile(&mut open_ms.clone(), 0.5),
        open_ms.iter().cloned().fold(0.0, f64::max),
        percentile(&mut restore_ms.clone(), 0.5),
        restore_ms.iter().cloned().fold(0.0, f64::max),
    );
    let _ = std::fs::remove_dir_all(&base);
}
