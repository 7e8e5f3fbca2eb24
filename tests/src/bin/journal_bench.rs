//! Benchmark of the move journal through the app's real command layer: the app is
//! built with its plugins and `install` on tauri's mock runtime (as the app tests do), every
//! move is a `play` command over the IPC path, and the journal and the good copy write
//! through the app's own file layer wrapped in `fsio::sim::Counting` (`Launch::io`).
//!
//!   cargo run --release -p huarong-tests --bin journal_bench [-- --moves N --slots N --runs N --dir PATH]
//!
//! Prints, for a 10×10 number slide played `--moves` moves (default 10,000):
//! - bytes written and fsyncs per move over moves 1–1,000 and the last 1,000 (the counting
//!   file layer, and `/proc/self/io` `wchar` of the whole process as a cross-check: it also
//!   sees the store plugin's own writes of `huarong.json`), and the `play` command's
//!   p50/p95/max time in both ranges; in two modes — `coalesced` (moves as fast as they come,
//!   the writer batches them) and `durable` (after every move, wait until it is on disk: the
//!   worst case for fsyncs);
//! - start-up with a game of `--moves` moves in each of `--slots` slots (default 10; the
//!   10×10 free slot and challenge slots `slide:10x10#k`): `init_state` (what the app's setup
//!   does: check and repair the progress, open the journal, replay every slot) and the whole
//!   mock app start (build + plugins + install + webview), each up to the restored state,
//!   checked with `list_games`.

use huarong_core::fsio::{self, sim::Counting};
use huarong_engine::rng;
use huarong_tests::{gap_neighbours, TempDir, TestApp};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tauri::test::{mock_builder, mock_context, noop_assets};

const FLUSH: Duration = Duration::from_secs(60);

/// Bytes the process has handed to `write`-like calls so far (`wchar` of `/proc/self/io`);
/// `None` where the file does not exist.
fn wchar() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/io").ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix("wchar:"))
        .and_then(|v| v.trim().parse().ok())
}

/// CPU time of the calling thread so far, in ms (`/proc/thread-self/stat`, clock ticks of
/// 10 ms); `None` where it is not there.
fn thread_cpu_ms() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks * 10.0)
}

fn percentile(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

/// A legal move of the current 10×10 game shown in `snap`, drawn from `r` (not the tile
/// just moved, when there is a choice, so the walk goes somewhere).
fn next_tile(snap: &Value, draw: &mut impl FnMut(u64) -> u64, last: Option<u64>) -> u64 {
    let mut options = gap_neighbours(snap);
    if options.len() > 1 {
        options.retain(|&t| Some(t) != last);
    }
    options[draw(options.len() as u64) as usize]
}

/// Play `moves` moves with the `play` command into the current number-slide game shown in
/// `snap`; returns each move's time (µs) and calls `at(i)` before move `i` (0-based) for the
/// range bookkeeping.
fn play_moves(
    app: &TestApp,
    mut snap: Value,
    moves: usize,
    seed: u64,
    durable: bool,
    mut at: impl FnMut(usize, &TestApp),
) -> Vec<f64> {
    let mut r = rng::stream(seed, "journal_bench");
    let mut draw = |n| rng::below(&mut r, n);
    let mut last = None;
    let mut times = Vec::with_capacity(moves);
    for i in 0..moves {
        at(i, app);
        let tile = next_tile(&snap, &mut draw, last);
        last = Some(tile);
        let t = Instant::now();
        let v = app.call("play", json!({"kind": "slide", "mv": {"tile": tile}}));
        times.push(t.elapsed().as_secs_f64() * 1e6);
        let v = v.unwrap_or_else(|e| panic!("move {} failed: {e}", i + 1));
        snap = v["snapshot"].clone();
        assert_eq!(
            snap["status"], "playing",
            "the random walk solved the board"
        );
        if durable {
            assert!(app.state().flush(FLUSH), "move {} not saved", i + 1);
        }
    }
    at(moves, app);
    times
}

/// One measured range of moves `[lo, hi)`: counters at its start and end.
struct Range {
    lo: usize,
    hi: usize,
    start: Option<(u64, u64, Option<u64>)>,
    end: Option<(u64, u64, Option<u64>)>,
}

fn measure_game(base: &Path, mode: &str, moves: usize, durable: bool) {
    let dir = base.join(mode);
    std::fs::create_dir_all(&dir).expect("bench folder");
    let counting = Counting::new(fsio::real());
    let app = TestApp::start_with_io(&dir, None, Some(Arc::new(counting.clone())));
    let v = app.ok(
        "new_game",
        json!({"kind": "slide", "params": "10x10", "seed": 7}),
    );
    assert!(app.state().flush(FLUSH), "the new game was not saved");
    let first = 1000.min(moves);
    let mut ranges = vec![Range {
        lo: 0,
        hi: first,
        start: None,
        end: None,
    }];
    if moves > first {
        ranges.push(Range {
            lo: moves - first.min(moves - first),
            hi: moves,
            start: None,
            end: None,
        });
    }
    // At a range's edge everything handed over is made durable first, so the range is
    // charged exactly the writes of its own moves (the writer's lag is not moved across).
    let times = play_moves(&app, v["snapshot"].clone(), moves, 7, durable, |i, app| {
        if ranges.iter().any(|r| r.lo == i || r.hi == i) {
            assert!(app.state().flush(FLUSH), "not saved at move {i}");
            let (b, f) = counting.totals();
            let w = wchar();
            for r in ranges.iter_mut() {
                if r.lo == i {
                    r.start = Some((b, f, w));
                }
                if r.hi == i {
                    r.end = Some((b, f, w));
                }
            }
        }
    });
    for r in &ranges {
        let (Some((b0, f0, w0)), Some((b1, f1, w1))) = (r.start, r.end) else {
            continue;
        };
        let n = (r.hi - r.lo) as f64;
        let mut t = times[r.lo..r.hi].to_vec();
        let p50 = percentile(&mut t, 0.5);
        let p95 = percentile(&mut t, 0.95);
        let max = t.iter().cloned().fold(0.0, f64::max);
        let wchar = match (w0, w1) {
            (Some(a), Some(b)) => format!("{:.1}", (b - a) as f64 / n),
            _ => "n/a".into(),
        };
        println!(
            "{mode:9} moves {:>5}-{:<5}: {:>6.1} bytes/move (wchar {wchar}), {:.4} fsyncs/move, play p50 {:>6.1} µs, p95 {:>6.1} µs, max {:>7.1} µs",
            r.lo + 1,
            r.hi,
            (b1 - b0) as f64 / n,
            (f1 - f0) as f64 / n,
            p50,
            p95,
            max
        );
    }
    let on_disk = folder_bytes(&dir.join(huarong_core::journal::GAMES_DIR));
    println!(
        "{mode:9} total: {} bytes and {} fsyncs through the file layer; games folder now {on_disk} bytes",
        counting.totals().0,
        counting.totals().1
    );
    app.close();
}

fn folder_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|r| {
            r.flatten()
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// `slots` games of `moves` moves each, played through the commands into `dir`.
fn build_slots(dir: &Path, slots: usize, moves: usize) {
    let app = TestApp::start(dir, None);
    for k in 0..slots {
        let v = if k == 0 {
            app.ok(
                "new_game",
                json!({"kind": "slide", "params": "10x10", "seed": 100}),
            )
        } else {
            app.ok(
                "open_game",
                json!({"id": format!("slide:10x10#{}", 100 + k)}),
            )
        };
        play_moves(
            &app,
            v["snapshot"].clone(),
            moves,
            100 + k as u64,
            false,
            |_, _| {},
        );
    }
    app.close();
}

/// Check that `list_games` (as JSON) shows every slot restored with all its moves.
fn check_restored(games: &Value, slots: usize, moves: usize) {
    let games = games.as_array().expect("a list of games");
    assert_eq!(games.len(), slots, "slots restored");
    for g in games {
        assert_eq!(g["moves"], moves, "moves restored in {}", g["slot"]);
    }
}

fn measure_startup(base: &Path, slots: usize, moves: usize, runs: usize) {
    let dir = base.join("startup");
    std::fs::create_dir_all(&dir).expect("bench folder");
    let t = Instant::now();
    build_slots(&dir, slots, moves);
    let built = t.elapsed().as_secs_f64();
    let files = folder_bytes(&dir.join(huarong_core::journal::GAMES_DIR));
    let mut init_ms = Vec::new();
    let mut init_cpu = Vec::new();
    let mut whole_ms = Vec::new();
    let mut journal_ms = Vec::new();
    for _ in 0..runs {
        // The journal alone: read and check every slot's files, apply the records.
        let t = Instant::now();
        let (j, data, _) = huarong_core::journal::Journal::open(&dir, fsio::real());
        journal_ms.push(t.elapsed().as_secs_f64() * 1e3);
        assert_eq!(data.len(), slots);
        j.shutdown();
        // The setup path alone, on a built mock app.
        let app = huarong_app_lib::builder(mock_builder())
            .build(mock_context(noop_assets()))
            .expect("build the app on the mock runtime");
        let launch = huarong_app_lib::Launch {
            data_dir: Some(dir.clone()),
            ..Default::default()
        };
        let (t, cpu) = (Instant::now(), thread_cpu_ms());
        let state = huarong_app_lib::init_state(app.handle(), &launch);
        let games = serde_json::to_value(state.list_games()).expect("game entries");
        init_ms.push(t.elapsed().as_secs_f64() * 1e3);
        if let (Some(a), Some(b)) = (cpu, thread_cpu_ms()) {
            init_cpu.push(b - a);
        }
        check_restored(&games, slots, moves);
        state.shutdown();
        drop(app);
        // The whole start of the app on the mock runtime, up to a restored state.
        let t = Instant::now();
        let app = TestApp::start(&dir, None);
        let games = app.ok("list_games", json!({}));
        whole_ms.push(t.elapsed().as_secs_f64() * 1e3);
        check_restored(&games, slots, moves);
        app.close();
    }
    let max = |v: &[f64]| v.iter().cloned().fold(0.0, f64::max);
    println!(
        "start-up, {slots} slots x {moves} moves ({files} bytes in the games folder, built through the commands in {built:.1} s), {runs} runs:"
    );
    println!(
        "  journal open alone (read + check the files, apply the records): median {:.1} ms, max {:.1} ms",
        percentile(&mut journal_ms.clone(), 0.5),
        max(&journal_ms)
    );
    let cpu = if init_cpu.is_empty() {
        "n/a".to_string()
    } else {
        format!("{:.0} ms", percentile(&mut init_cpu.clone(), 0.5))
    };
    println!(
        "  init_state (check the progress, open the journal, replay every slot) + list_games: median {:.1} ms (CPU of the thread {cpu}), max {:.1} ms",
        percentile(&mut init_ms.clone(), 0.5),
        max(&init_ms)
    );
    println!(
        "  whole mock app start (build, plugins, install, webview) + list_games over IPC: median {:.1} ms, max {:.1} ms",
        percentile(&mut whole_ms.clone(), 0.5),
        max(&whole_ms)
    );
}

fn usage() -> ! {
    eprintln!("usage: journal_bench [--moves 1-100000] [--slots 1-60] [--runs 1-100] [--dir PATH]");
    std::process::exit(2)
}

/// A number argument in `lo..=hi`.
fn num(v: Option<String>, lo: usize, hi: usize) -> usize {
    match v.and_then(|v| v.parse().ok()) {
        Some(n) if (lo..=hi).contains(&n) => n,
        _ => usage(),
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut moves, mut slots, mut runs) = (10_000usize, 10usize, 5usize);
    let mut dir: Option<PathBuf> = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--moves" => moves = num(args.next(), 1, 100_000),
            "--slots" => slots = num(args.next(), 1, 60),
            "--runs" => runs = num(args.next(), 1, 100),
            "--dir" => dir = Some(args.next().map(PathBuf::from).unwrap_or_else(|| usage())),
            _ => usage(),
        }
    }
    let tmp;
    let base = match dir {
        Some(d) => d,
        None => {
            tmp = TempDir::new("jbench");
            tmp.path().to_path_buf()
        }
    };
    println!(
        "journal_bench: 10x10 number slide through the play command, {moves} moves, folder {}",
        base.display()
    );
    measure_game(&base, "coalesced", moves, false);
    measure_game(&base, "durable", moves, true);
    measure_startup(&base, slots, moves, runs);
}
