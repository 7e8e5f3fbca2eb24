//! `huarong slide …`: solve, generate, bench.
//!
//! - `solve --size WxH` reads puzzles from stdin, one per line (tiles separated by spaces,
//!   row-major, 0 = blank; empty lines and lines starting with `#` are skipped, and anything
//!   after a `#` is a comment). For each it prints one JSON line
//!   `{"moves": N, "optimal": bool, "solution": [tiles], "nodes": N|null, "ms": float}`
//!   or `{"error": "…"}`, and goes on. The size's tables are built once, before the first line.
//!   `--budget-ms N` (1 … 600000) solves each puzzle within about N ms (`slide::solve_within`):
//!   `optimal` is then false when the proof did not finish and the path is the best found.
//! - `generate --size WxH --count N --seed S [--difficulty easy|medium|hard|expert]` prints one
//!   board per line in the same tile form, followed by ` # optimal L` where the optimal length
//!   is known (exact-table sizes, and every board generated with a difficulty). Board `i`
//!   (0-based) is generated from seed `S + i`, so the ID of line `i` is `slide:WxH#(S+i)`
//!   (or `slide:WxH/D#(S+i)`).
//! - `bench [--korf FILE] [--big N] [--big-size WxH] [--seed S] [--verify yes|no]`: the
//!   performance figures (see the engine's `slide/README.md`).
//! - `hintbench [--budget-ms N (200)] [--random N (1000)] [--expert N (100)] [--seed S (1)]
//!   [--korf24 FILE] [--big-budget-ms N (300)]`: latency p50/p95/max of the budgeted hint
//!   (`Game::hint_within`) over the shipped hard 4×4 boards (`slide::HARD_4X4`), uniform random
//!   4×4 boards and the `expert` band, each hint checked (legal, its line solves the board);
//!   then the 5×5 length / optimum ratio and time on Korf & Taylor's 24-puzzle instances.
//! - `tables --size WxH --out FILE`: build a size's pattern databases from scratch and write
//!   them (how `crates/engine/src/slide/pdb4x4.bin` is made).

use crate::args::{self, Args};
use huarong_engine::slide::{self, Board, Difficulty};
use huarong_engine::{Cancel, Error, Game};
use serde::Serialize;
use std::io::Write;
use huarong_engine::clock::Native;
use std::time::{Duration, Instant};

pub fn run(args: &[String]) -> Result<(), String> {
    let (cmd, rest) = args
        .split_first()
        .ok_or("usage: huarong slide solve|generate|bench …")?;
    match cmd.as_str() {
        "solve" => solve(rest),
        "generate" => generate(rest),
        "bench" => bench(rest),
        "hintbench" => hintbench(rest),
        "tables" => tables(rest),
        other => Err(format!(
            "unknown slide command {other:?} (expected solve, generate, bench, hintbench or tables)"
        )),
    }
}

/// Parse the flags of a subcommand; it takes no positional arguments.
fn flags(rest: &[String], known: &[&str]) -> Result<Args, String> {
    let a = Args::parse(rest, known)?;
    if let Some(extra) = a.positional.first() {
        return Err(format!("unexpected argument {extra:?}"));
    }
    Ok(a)
}

fn size_arg(a: &Args) -> Result<(usize, usize), String> {
    let (w, h) = args::size(a.required("size")?)?;
    slide::check_size(w, h).map_err(|e| e.message)?;
    Ok((w, h))
}

#[derive(Serialize)]
struct Solved {
    moves: usize,
    optimal: bool,
    solution: Vec<u16>,
    nodes: Option<u64>,
    ms: f64,
}

fn strip_comment(line: &str) -> &str {
    line.split('#').next().unwrap_or("").trim()
}

fn solve(rest: &[String]) -> Result<(), String> {
    let a = flags(rest, &["size", "budget-ms"])?;
    let (w, h) = size_arg(&a)?;
    let budget = budget_arg(&a)?;
    // Build the size's tables first, so per-puzzle times exclude the one-off build.
    slide::prepare(w, h);
    let cancel = Cancel::new();
    args::answer_lines(
        |text| text.starts_with('#'),
        |text| {
            match solve_line(w, h, strip_comment(text), budget, &cancel) {
                Ok(s) => serde_json::to_string(&s),
                Err(e) => serde_json::to_string(&serde_json::json!({ "error": e.message })),
            }
            .map_err(|e| e.to_string())
        },
    )
}

/// `--budget-ms N` (1 … 600000), if given.
fn budget_arg(a: &Args) -> Result<Option<Duration>, String> {
    let Some(text) = a.get("budget-ms") else {
        return Ok(None);
    };
    let ms: u64 = text
        .parse()
        .map_err(|_| format!("--budget-ms {text:?} is not a whole number of milliseconds"))?;
    if !(1..=600_000).contains(&ms) {
        return Err(format!("--budget-ms {ms} is out of range (1 … 600000)"));
    }
    Ok(Some(Duration::from_millis(ms)))
}

fn solve_line(
    w: usize,
    h: usize,
    text: &str,
    budget: Option<Duration>,
    cancel: &Cancel,
) -> Result<Solved, Error> {
    let board = Board::from_text(w, h, text)?;
    let t = Instant::now();
    let sol = slide::solve_within(&board, budget, &Native::new(), cancel)?;
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    Ok(Solved {
        moves: sol.tiles.len(),
        optimal: sol.optimal,
        solution: sol.tiles,
        nodes: sol.nodes,
        ms,
    })
}

fn generate(rest: &[String]) -> Result<(), String> {
    let a = flags(rest, &["size", "count", "seed", "difficulty"])?;
    let (w, h) = size_arg(&a)?;
    let count: u64 = a.num("count", Some(1))?;
    if count > 100_000 {
        return Err(format!("--count {count} is too many (at most 100000)"));
    }
    let seed: u64 = a.num("seed", None)?;
    let diff = a
        .get("difficulty")
        .map(Difficulty::parse)
        .transpose()
        .map_err(|e| e.message)?;
    if let Some(d) = diff {
        if d.band(w, h).is_none() {
            return Err(format!(
                "difficulty levels exist for 3x3 and 4x4 boards only, not {w}x{h}"
            ));
        }
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for i in 0..count {
        let s = seed.wrapping_add(i);
        let (b, len) = slide::generate_with_length(w, h, diff, s).map_err(|e| e.message)?;
        let line = match len {
            Some(l) => format!("{} # optimal {l}", b.join(" ")),
            None => b.join(" "),
        };
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn tables(rest: &[String]) -> Result<(), String> {
    let a = flags(rest, &["size", "out"])?;
    let (w, h) = size_arg(&a)?;
    let out = a.required("out")?;
    let t = Instant::now();
    let set = slide::build_pdb(w, h).ok_or(format!("{w}x{h} has no pattern databases"))?;
    let bytes = set.to_bytes();
    std::fs::write(out, &bytes).map_err(|e| format!("writing {out}: {e}"))?;
    eprintln!(
        "{w}x{h}: groups {:?}, built in {:.1} s, {} bytes written to {out}",
        set.groups(),
        t.elapsed().as_secs_f64(),
        bytes.len()
    );
    Ok(())
}

// ---------------------------------------------------------------------------------------
// bench

fn mb(bytes: usize) -> f64 {
    bytes as f64 / 1_000_000.0
}

fn bench(rest: &[String]) -> Result<(), String> {
    let a = flags(rest, &["korf", "big", "big-size", "seed", "verify"])?;
    let verify = match a.get("verify").unwrap_or("yes") {
        "yes" => true,
        "no" => false,
        v => return Err(format!("--verify {v:?}: expected yes or no")),
    };
    let korf = a
        .get("korf")
        .unwrap_or("tests/data/korf100-1-50.tsv")
        .to_string();
    let big: usize = a.num("big", Some(100))?;
    let (bw, bh) = args::size(a.get("big-size").unwrap_or("10x10"))?;
    slide::check_size(bw, bh).map_err(|e| e.message)?;
    let seed: u64 = a.num("seed", Some(1))?;
    let mut failures = 0;
    failures += bench_3x3();
    failures += bench_korf(&korf)?;
    failures += bench_big(bw, bh, big, seed);
    if verify {
        failures += bench_build_4x4();
    }
    if let Some(kb) = peak_rss_kb() {
        println!(
            "peak memory of this run (VmHWM): {:.1} MB",
            kb as f64 / 1000.0
        );
    }
    if failures > 0 {
        return Err(format!("{failures} check(s) failed"));
    }
    println!("all checks passed");
    Ok(())
}

/// 3×3: build the exact table and check every state's distance against its neighbours: the
/// goal is 0, neighbours differ by exactly 1, and every other state has a neighbour one
/// closer — which holds only for the true distance.
fn bench_3x3() -> usize {
    println!("== 3x3 exact table");
    // Five fresh builds: the machine may be busy, so report the fastest and the median.
    let mut builds: Vec<f64> = (0..5)
        .map(|_| {
            let t0 = Instant::now();
            let t = slide::build_table(3, 3).expect("3x3 table");
            let ms = t0.elapsed().as_secs_f64() * 1000.0;
            drop(t);
            ms
        })
        .collect();
    builds.sort_by(f64::total_cmp);
    let t = slide::table(3, 3).expect("3x3 table");
    let hist = t.histogram();
    println!(
        "build {:.1} ms (fastest of 5; median {:.1} ms), {} states, {:.2} MB, max distance {}, states at 31: {}",
        builds[0],
        builds[2],
        t.states(),
        mb(t.bytes()),
        t.max_distance(),
        hist.get(31).copied().unwrap_or(0)
    );
    println!("distance histogram: {hist:?}");
    let t0 = Instant::now();
    let mut checked = 0u64;
    let mut bad = 0u64;
    let mut cells: Vec<u16> = (0..9).collect();
    permute(&mut cells, 0, &mut |c| {
        let b = Board::new(3, 3, c).expect("a permutation");
        let d = t.distance(&b).expect("3x3");
        if b.is_solvable() != d.is_some() {
            bad += 1;
            return;
        }
        let Some(d) = d else { return };
        checked += 1;
        let mut closer = false;
        for tile in b.movable() {
            let mut nb = b.clone();
            nb.step(tile).expect("movable");
            let nd = t.distance(&nb).expect("3x3").unwrap_or(u8::MAX);
            if nd.abs_diff(d) != 1 {
                bad += 1;
            }
            closer |= nd + 1 == d;
        }
        if d == 0 && !b.is_solved() || d > 0 && !closer {
            bad += 1;
        }
    });
    let ok = bad == 0 && checked == 181_440 && t.max_distance() == 31 && hist.get(31) == Some(&2);
    println!(
        "whole-space check: {checked} solvable states, {bad} inconsistencies, {:.0} ms: {}",
        t0.elapsed().as_secs_f64() * 1000.0,
        if ok { "OK" } else { "FAILED" }
    );
    usize::from(!ok)
}

/// The process's peak resident memory, where the system reports it (Linux).
fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn permute(a: &mut Vec<u16>, k: usize, f: &mut impl FnMut(&[u16])) {
    if k == a.len() {
        f(a);
        return;
    }
    for i in k..a.len() {
        a.swap(k, i);
        permute(a, k + 1, f);
        a.swap(k, i);
    }
}

/// The instance lines of a tab-separated `id, length, tiles` file (blank lines, `#` comments
/// and the `id` header passed over), each with its three columns, in file order.
fn instance_rows<'a>(
    path: &'a str,
    text: &'a str,
) -> impl Iterator<Item = Result<(&'a str, Vec<&'a str>), String>> + 'a {
    text.lines()
        .map(str::trim)
        .filter(|line| !(line.is_empty() || line.starts_with('#') || line.starts_with("id")))
        .map(move |line| {
            let cols: Vec<&str> = line.split('\t').collect();
            if cols.len() != 3 {
                return Err(format!("bad line in {path}: {line:?}"));
            }
            Ok((line, cols))
        })
}

fn bench_korf(path: &str) -> Result<usize, String> {
    println!("== Korf's 15-puzzle instances ({path})");
    let text = std::fs::read_to_string(path).map_err(|e| format!("reading {path}: {e}"))?;
    let mut instances = Vec::new();
    for row in instance_rows(path, &text) {
        let (line, cols) = row?;
        let id: u32 = cols[0].parse().map_err(|_| format!("bad id in {line:?}"))?;
        let len: usize = cols[1]
            .parse()
            .map_err(|_| format!("bad length in {line:?}"))?;
        let b =
            Board::from_text(4, 4, cols[2]).map_err(|e| format!("instance {id}: {}", e.message))?;
        instances.push((id, len, b));
    }
    if instances.is_empty() {
        println!("no instances in {path}: skipped");
        return Ok(0);
    }
    let start = Instant::now();
    let built_before = slide::pdb_is_built(4, 4);
    let set = slide::pdb(4, 4).expect("4x4 databases");
    let build = start.elapsed();
    println!(
        "pattern databases {:?}: {:.2} MB, {} in {:.0} ms{}",
        set.groups(),
        mb(set.bytes()),
        if slide::embedded_4x4_loads() {
            "loaded from the embedded data"
        } else {
            "built"
        },
        build.as_secs_f64() * 1000.0,
        if built_before { " (already there)" } else { "" }
    );
    println!(
        "{:>3} {:>4} {:>4} {:>7} {:>12} {:>9}",
        "id", "want", "got", "optimal", "nodes", "ms"
    );
    let cancel = Cancel::new();
    let (mut nodes, mut bad, mut total_len) = (0u64, 0usize, 0usize);
    for (id, want, b) in &instances {
        let t = Instant::now();
        let sol = slide::solve(b, &cancel).map_err(|e| format!("instance {id}: {}", e.message))?;
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        let mut r = b.clone();
        let replays = r.replay(&sol.tiles).is_ok() && r.is_solved();
        let ok = sol.tiles.len() == *want && sol.optimal && replays;
        bad += usize::from(!ok);
        nodes += sol.nodes.unwrap_or(0);
        total_len += sol.tiles.len();
        println!(
            "{id:>3} {want:>4} {:>4} {:>7} {:>12} {ms:>9.1}{}",
            sol.tiles.len(),
            sol.optimal,
            sol.nodes.unwrap_or(0),
            if ok { "" } else { "  MISMATCH" }
        );
    }
    let total = start.elapsed();
    println!(
        "Korf {} instances: total {:.2} s including the tables ({:.2} s search), {} nodes, total length {}, {} mismatches: {}",
        instances.len(),
        total.as_secs_f64(),
        (total - build).as_secs_f64(),
        nodes,
        total_len,
        bad,
        if bad == 0 { "OK" } else { "FAILED" }
    );
    Ok(usize::from(bad > 0))
}

/// Build the 4×4 tables from scratch and check them against the ones the Korf run used.
fn bench_build_4x4() -> usize {
    println!("== 4x4 pattern databases built from scratch");
    let t = Instant::now();
    let fresh = slide::build_pdb(4, 4).expect("4x4");
    let secs = t.elapsed().as_secs_f64();
    let used = slide::pdb(4, 4).expect("4x4");
    let same = fresh.same_tables(used);
    println!(
        "build {secs:.2} s, {:.2} MB; equal to the tables in use ({}): {}",
        mb(fresh.bytes()),
        if slide::embedded_4x4_loads() {
            "embedded"
        } else {
            "built at run time"
        },
        if same { "OK" } else { "FAILED" }
    );
    usize::from(!same)
}

fn bench_big(w: usize, h: usize, count: usize, seed: u64) -> usize {
    if count == 0 {
        return 0;
    }
    println!("== {w}x{h} random boards ({count}, seeds {seed}…)");
    let cancel = Cancel::new();
    let (mut times, mut lens) = (Vec::new(), Vec::new());
    let mut bad = 0;
    for i in 0..count as u64 {
        let b = match slide::generate(w, h, None, seed.wrapping_add(i)) {
            Ok(b) => b,
            Err(e) => {
                println!("generate: {e}");
                return 1;
            }
        };
        let t = Instant::now();
        let sol = slide::solve(&b, &cancel);
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        match sol {
            Ok(sol) => {
                let mut r = b.clone();
                if r.replay(&sol.tiles).is_err() || !r.is_solved() {
                    bad += 1;
                }
                times.push(ms);
                lens.push(sol.tiles.len() as f64);
            }
            Err(e) => {
                println!("seed {}: {e}", seed.wrapping_add(i));
                bad += 1;
            }
        }
    }
    if times.is_empty() {
        println!("no board was solved: FAILED");
        return 1;
    }
    let stats = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let median = if v.len() % 2 == 1 {
            v[v.len() / 2]
        } else {
            (v[v.len() / 2 - 1] + v[v.len() / 2]) / 2.0
        };
        (
            median,
            v.iter().sum::<f64>() / v.len().max(1) as f64,
            v.first().copied().unwrap_or(0.0),
            v.last().copied().unwrap_or(0.0),
        )
    };
    let (tmed, tmean, _, tmax) = stats(&mut times);
    let (lmed, lmean, lmin, lmax) = stats(&mut lens);
    println!("time ms: median {tmed:.2}, mean {tmean:.2}, max {tmax:.2}");
    println!("tile moves: median {lmed:.0}, mean {lmean:.1}, min {lmin:.0}, max {lmax:.0}");
    println!(
        "every solution replays to the goal: {}",
        if bad == 0 { "OK" } else { "FAILED" }
    );
    usize::from(bad > 0)
}

// ---------------------------------------------------------------------------------------
// hintbench

/// Latency distribution of the budgeted hint (`Game::hint_within`, what the app calls) and
/// the 5×5 path quality.
fn hintbench(rest: &[String]) -> Result<(), String> {
    let a = flags(
        rest,
        &[
            "budget-ms",
            "random",
            "expert",
            "seed",
            "korf24",
            "big-budget-ms",
        ],
    )?;
    let budget = budget_arg(&a)?.unwrap_or(Duration::from_millis(200));
    let random: usize = a.num("random", Some(1000))?;
    let expert: usize = a.num("expert", Some(100))?;
    if random > 100_000 || expert > 10_000 {
        return Err("--random is at most 100000 and --expert at most 10000".into());
    }
    let seed: u64 = a.num("seed", Some(1))?;
    let big_ms: u64 = a.num("big-budget-ms", Some(300))?;
    if !(1..=600_000).contains(&big_ms) {
        return Err(format!(
            "--big-budget-ms {big_ms} is out of range (1 … 600000)"
        ));
    }
    let korf24 = a
        .get("korf24")
        .unwrap_or("tests/data/korf24-1-25.tsv")
        .to_string();
    slide::prepare(4, 4);
    let mut failures = 0;
    println!("budget {} ms per hint", budget.as_millis());

    let mut hard = Vec::new();
    for (i, line) in slide::HARD_4X4.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let len: usize = cols[0]
            .parse()
            .map_err(|_| format!("hard list line {}: bad length", i + 1))?;
        let b = Board::from_text(4, 4, cols.get(1).copied().unwrap_or(""))
            .map_err(|e| format!("hard list line {}: {}", i + 1, e.message))?;
        hard.push((b, Some(len)));
    }
    failures += hint_latency("shipped hard 4x4 (70-80 moves)", &hard, budget);

    let boards: Vec<(Board, Option<usize>)> = (0..random as u64)
        .map(|i| slide::generate(4, 4, None, seed.wrapping_add(i)).map(|b| (b, None)))
        .collect::<Result<_, _>>()
        .map_err(|e| e.message)?;
    failures += hint_latency(&format!("uniform random 4x4 ({random})"), &boards, budget);

    let boards: Vec<(Board, Option<usize>)> = (0..expert as u64)
        .map(|i| {
            slide::generate(4, 4, Some(Difficulty::Expert), seed.wrapping_add(i)).map(|b| (b, None))
        })
        .collect::<Result<_, _>>()
        .map_err(|e| e.message)?;
    failures += hint_latency(&format!("4x4 expert band ({expert})"), &boards, budget);

    failures += bench_5x5(&korf24, Duration::from_millis(big_ms))?;
    if failures > 0 {
        return Err(format!("{failures} check(s) failed"));
    }
    println!("all checks passed");
    Ok(())
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Time `Slide::hint_within` on each board and check the answer: a legal first tap whose
/// line solves the board (and, with a known optimum, an optimal flag only on an optimal line).
fn hint_latency(name: &str, boards: &[(Board, Option<usize>)], budget: Duration) -> usize {
    println!("== hint latency: {name}");
    let cancel = Cancel::new();
    let (mut times, mut bad, mut optimal, mut ratio) = (Vec::new(), 0usize, 0usize, Vec::new());
    for (b, len) in boards {
        let game = match slide::Slide::new(b.clone()) {
            Ok(g) => g,
            Err(e) => {
                println!("{}: {}", b.join(" "), e.message);
                bad += 1;
                continue;
            }
        };
        let t = Instant::now();
        let hint = game.hint_within(budget, &Native::new(), &cancel);
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        let ok = hint.as_ref().is_ok_and(|h| {
            let mut g = game.clone();
            let legal = std::iter::once(&h.mv)
                .chain(&h.line)
                .all(|m| g.apply(m).is_ok());
            let tiles = g.tile_moves() as usize;
            let honest = match len {
                Some(l) => !h.optimal || tiles == *l,
                None => true,
            };
            if let Some(l) = len {
                ratio.push(tiles as f64 / *l as f64);
            }
            legal && g.board().is_solved() && honest
        });
        optimal += usize::from(hint.as_ref().is_ok_and(|h| h.optimal));
        if !ok {
            println!("{}: bad hint {:?}", b.join(" "), hint.map(|h| h.mv));
            bad += 1;
        }
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{} boards: p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms; optimal {}/{}{}",
        times.len(),
        percentile(&times, 0.5),
        percentile(&times, 0.95),
        times.last().copied().unwrap_or(0.0),
        optimal,
        times.len(),
        if ratio.is_empty() {
            String::new()
        } else {
            format!(
                "; hinted line / optimum: mean {:.3}, max {:.3}",
                ratio.iter().sum::<f64>() / ratio.len() as f64,
                ratio.iter().copied().fold(0.0, f64::max)
            )
        }
    );
    println!(
        "every hint is a legal tap whose line solves the board: {}",
        if bad == 0 { "OK" } else { "FAILED" }
    );
    usize::from(bad > 0)
}

/// Korf & Taylor's 24-puzzle instances (goal blank top-left, tile t on cell t), turned 180°
/// and relabelled t → 25 − t into this game's goal (an isomorphism: same optimal length).
fn bench_5x5(path: &str, budget: Duration) -> Result<usize, String> {
    println!(
        "== 5x5: Korf & Taylor's instances ({path}), budget {} ms",
        budget.as_millis()
    );
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            println!("reading {path}: {e}: skipped");
            return Ok(0);
        }
    };
    let cancel = Cancel::new();
    let (mut ratios, mut times, mut bad) = (Vec::new(), Vec::new(), 0usize);
    for row in instance_rows(path, &text) {
        let (line, cols) = row?;
        let opt: usize = cols[1]
            .parse()
            .map_err(|_| format!("bad length in {line:?}"))?;
        let orig: Vec<u16> = cols[2]
            .split_whitespace()
            .map(|t| t.parse::<u16>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("bad tiles in {line:?}"))?;
        let ours: Vec<u16> = orig
            .iter()
            .rev()
            .map(|&t| if t == 0 { 0 } else { 25u16.saturating_sub(t) })
            .collect();
        let b = Board::new(5, 5, &ours).map_err(|e| format!("{}: {}", cols[0], e.message))?;
        let t = Instant::now();
        let sol = slide::solve_within(&b, Some(budget), &Native::new(), &cancel)
            .map_err(|e| format!("instance {}: {}", cols[0], e.message))?;
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        let mut r = b.clone();
        if r.replay(&sol.tiles).is_err() || !r.is_solved() || sol.tiles.len() < opt {
            bad += 1;
        }
        println!(
            "{:>3} optimal {opt:>3} got {:>4} ratio {:.3} {ms:>7.1} ms",
            cols[0],
            sol.tiles.len(),
            sol.tiles.len() as f64 / opt as f64
        );
        ratios.push(sol.tiles.len() as f64 / opt as f64);
        times.push(ms);
    }
    if ratios.is_empty() {
        println!("no instances: skipped");
        return Ok(0);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{} instances: length / optimum mean {:.3} (max {:.3}); time p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms",
        ratios.len(),
        ratios.iter().sum::<f64>() / ratios.len() as f64,
        ratios.iter().copied().fold(0.0, f64::max),
        percentile(&times, 0.5),
        percentile(&times, 0.95),
        times.last().copied().unwrap_or(0.0)
    );
    println!(
        "every path replays to the goal: {}",
        if bad == 0 { "OK" } else { "FAILED" }
    );
    Ok(usize::from(bad > 0))
}
