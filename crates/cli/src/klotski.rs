//! `huarong klotski …`: solve boards from stdin, generate levels, benchmark.
//!
//! - `solve [--metric piece|straight|unit]`: one board per stdin line (the 20-character 4×5
//!   form, or rows joined by `/`); empty lines and comment lines are skipped (a line starting
//!   with `#` is a comment unless it is made only of board characters, so walled boards such
//!   as `#aCCb#/…` still read). One JSON line per board:
//!   `{"solvable":bool,"moves":N|null,"solution":[{"piece":"a","to":[r,c]},…],"states":N,"ms":F}`
//!   or `{"error":"…"}`.
//! - `generate --band MIN-MAX --seed S --count N [--variant g5s4]`: N boards, the i-th from
//!   seed S+i, one JSON line each: `{"board":"…","moves":N,"id":"klotski:MIN-MAX#S+i"}`.
//!   Each board is generated within the generator budget (`bounds.rs`: 64 MiB, 20 s).
//! - `bench [--classics FILE] [--runs N]`: timings of 横刀立马, the 40 classics, the generator.

use crate::args::{self, Args};
use huarong_engine::klotski::{
    classic, classics, generate_counted, search, Band, Board, GenSpec, Metric, Move,
};
use huarong_engine::Cancel;
use serde::Serialize;
use std::io::Write;
use std::time::Instant;

pub fn run(args: &[String]) -> Result<(), String> {
    let (sub, rest) = args
        .split_first()
        .ok_or("usage: huarong klotski solve|generate|bench …")?;
    match sub.as_str() {
        "solve" => solve(rest),
        "generate" => generate(rest),
        "bench" => bench(rest),
        other => Err(format!(
            "unknown klotski command {other:?} (expected solve, generate or bench)"
        )),
    }
}

#[derive(Serialize)]
struct Solved<'a> {
    solvable: bool,
    moves: Option<usize>,
    solution: &'a [Move],
    states: u64,
    ms: f64,
}

#[derive(Serialize)]
struct Failed {
    error: String,
}

/// Milliseconds since `t`, rounded to microseconds.
fn ms_since(t: Instant) -> f64 {
    (t.elapsed().as_secs_f64() * 1e6).round() / 1e3
}

/// Parse flags, refusing stray positional arguments.
fn flags(args: &[String], known: &[&str]) -> Result<Args, String> {
    let a = Args::parse(args, known)?;
    match a.positional.first() {
        Some(p) => Err(format!("unexpected argument {p:?}")),
        None => Ok(a),
    }
}

fn is_comment(line: &str) -> bool {
    line.starts_with('#')
        && (line.chars().all(|c| c == '#')
            || line
                .chars()
                .any(|c| !(c.is_ascii_alphabetic() || c == '.' || c == '#' || c == '/')))
}

fn solve(args: &[String]) -> Result<(), String> {
    let a = flags(args, &["metric"])?;
    let metric = match a.get("metric") {
        None => Metric::Piece,
        Some(m) => Metric::parse(m)
            .ok_or_else(|| format!("--metric {m:?}: expected piece, straight or unit"))?,
    };
    args::answer_lines(is_comment, |line| {
        let t = Instant::now();
        match Board::parse(line).and_then(|b| search(&b, metric, &Cancel::new())) {
            Ok(r) => {
                let ms = ms_since(t);
                let none: Vec<Move> = Vec::new();
                serde_json::to_string(&Solved {
                    solvable: r.solution.is_some(),
                    moves: r.solution.as_ref().map(|s| s.len()),
                    solution: r.solution.as_deref().unwrap_or(&none),
                    states: r.states,
                    ms,
                })
            }
            Err(e) => serde_json::to_string(&Failed { error: e.message }),
        }
        .map_err(|e| e.to_string())
    })
}

/// Most boards one `generate` call prints.
const MAX_COUNT: u64 = 10_000;

fn generate(args: &[String]) -> Result<(), String> {
    let a = flags(args, &["band", "seed", "count", "variant"])?;
    let band = Band::parse(a.required("band")?).map_err(|e| e.message)?;
    let seed: u64 = a.num("seed", None)?;
    let count: u64 = a.num("count", Some(1))?;
    if count == 0 || count > MAX_COUNT {
        return Err(format!("--count must be 1…{MAX_COUNT}"));
    }
    let spec = match a.get("variant") {
        Some(v) => GenSpec::parse(v).map_err(|e| e.message)?,
        None => GenSpec::standard(),
    };
    let params = if spec == GenSpec::standard() {
        band.to_string()
    } else {
        format!("{band}:{spec}")
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for i in 0..count {
        let s = seed.wrapping_add(i);
        let (board, moves) = crate::bounds::generating(|| generate_counted(&spec, band, s))
            .map_err(|e| e.message)?;
        let line = serde_json::json!({
            "board": board.to_rows(),
            "moves": moves,
            "id": format!("klotski:{params}#{s}"),
        });
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    if v.is_empty() {
        0.0
    } else if v.len() % 2 == 1 {
        v[v.len() / 2]
    } else {
        (v[v.len() / 2 - 1] + v[v.len() / 2]) / 2.0
    }
}

/// (name, board, optimal count) from a `klotski-classic.tsv`-style file.
fn read_classics(path: &str) -> Result<Vec<(String, String, Option<u32>)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.starts_with("name_zh") || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 3 {
            return Err(format!("{path}:{}: expected name, board, count", i + 1));
        }
        let count = match f[2].trim() {
            "-" => None,
            n => Some(
                n.parse()
                    .map_err(|_| format!("{path}:{}: bad count {n:?}", i + 1))?,
            ),
        };
        rows.push((f[0].to_string(), f[1].to_string(), count));
    }
    Ok(rows)
}

fn bench(args: &[String]) -> Result<(), String> {
    let a = flags(args, &["classics", "runs", "seeds"])?;
    let runs: usize = a.num("runs", Some(9))?;
    let seeds: u64 = a.num("seeds", Some(15))?;
    if runs == 0 || runs > 1000 || seeds == 0 || seeds > 1000 {
        return Err("--runs and --seeds must be 1…1000".into());
    }
    let cancel = Cancel::new();
    let fmt_opt = |c: Option<u32>| c.map_or("-".to_string(), |c| c.to_string());

    println!("# huarong klotski bench (one thread; times in ms, median of {runs} runs)");
    println!("## 横刀立马 (Blade Across the Saddle)");
    let hengdao = classic("横刀立马")
        .ok_or("横刀立马 is missing")?
        .parse_board();
    for metric in Metric::ALL {
        let mut times = Vec::new();
        let mut last = None;
        for _ in 0..runs {
            let t = Instant::now();
            let r = search(&hengdao, metric, &cancel).map_err(|e| e.message)?;
            times.push(ms_since(t));
            last = Some(r);
        }
        let r = last.ok_or("no run")?;
        println!(
            "{:<8} moves {:>3}  states {:>6}  median {:>7.2} ms  best {:>7.2} ms",
            metric.as_str(),
            fmt_opt(r.solution.as_ref().map(|s| s.len() as u32)),
            r.states,
            median(&mut times.clone()),
            times.iter().cloned().fold(f64::INFINITY, f64::min)
        );
    }

    println!("## the 40 classics, piece moves");
    let list: Vec<(String, String, Option<u32>)> = match a.get("classics") {
        Some(path) => read_classics(path)?,
        None => classics()
            .iter()
            .map(|c| (c.name_zh.to_string(), c.board.to_string(), c.min_moves))
            .collect(),
    };
    let source = a.get("classics").unwrap_or("the engine's level data");
    let (mut sum_best, mut sum_median) = (0.0, 0.0);
    let mut total_states = 0u64;
    let mut mismatches = 0;
    for (name, board, want) in &list {
        let b = Board::parse(board).map_err(|e| format!("{name}: {}", e.message))?;
        let mut times = Vec::new();
        let mut last = None;
        for _ in 0..runs {
            let t = Instant::now();
            let r = search(&b, Metric::Piece, &cancel).map_err(|e| e.message)?;
            times.push(ms_since(t));
            last = Some(r);
        }
        let r = last.ok_or("no run")?;
        let got = r.solution.as_ref().map(|s| s.len() as u32);
        let ok = got == *want;
        if !ok {
            mismatches += 1;
        }
        let best = times.iter().cloned().fold(f64::INFINITY, f64::min);
        let med = median(&mut times);
        sum_best += best;
        sum_median += med;
        total_states += r.states;
        println!(
            "{}{} moves {:>3} (file {:>3}) {}  states {:>6}  best {:>6.2} ms  median {:>6.2} ms",
            name,
            " ".repeat(12usize.saturating_sub(2 * name.chars().count())),
            fmt_opt(got),
            fmt_opt(*want),
            if ok { "ok " } else { "BAD" },
            r.states,
            best,
            med
        );
    }
    println!(
        "total: {} layouts, {} mismatches against {source}; {} states; \
         {:.1} ms (sum of bests), {:.1} ms (sum of medians)",
        list.len(),
        mismatches,
        total_states,
        sum_best,
        sum_median
    );

    println!("## generator, standard set, {seeds} seeds per band");
    for band in ["10-30", "30-60", "60-90", "90+"] {
        let band = Band::parse(band).map_err(|e| e.message)?;
        let mut times = Vec::new();
        let mut counts = Vec::new();
        for s in 0..seeds {
            let t = Instant::now();
            let (_, moves) =
                generate_counted(&GenSpec::standard(), band, s).map_err(|e| e.message)?;
            times.push(ms_since(t));
            counts.push(moves);
        }
        let worst = times.iter().cloned().fold(0.0, f64::max);
        let best = times.iter().cloned().fold(f64::INFINITY, f64::min);
        println!(
            "{:<6} median {:>6.1} ms  best {:>6.1} ms  worst {:>6.1} ms  optimal counts {}…{}",
            band.to_string(),
            median(&mut times),
            best,
            worst,
            counts.iter().min().unwrap_or(&0),
            counts.iter().max().unwrap_or(&0)
        );
    }
    if mismatches > 0 {
        return Err(format!("{mismatches} classic counts differ from {source}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_lines_and_walled_boards() {
        assert!(is_comment("# The 40 classic layouts"));
        assert!(is_comment("#"));
        assert!(is_comment("#\tname"));
        assert!(!is_comment("#aCCb#/#aCCb#/#cdde#/#cste#/#u..v#"));
    }

    #[test]
    fn solve_lines_have_the_agreed_form() {
        let b = Board::parse("aCCb/aCCb/s..t/u..v").unwrap();
        let r = search(&b, Metric::Piece, &Cancel::new()).unwrap();
        let line = serde_json::to_string(&Solved {
            solvable: true,
            moves: r.solution.as_ref().map(|s| s.len()),
            solution: r.solution.as_deref().unwrap_or(&[]),
            states: r.states,
            ms: 0.5,
        })
        .unwrap();
        assert_eq!(
            line,
            r#"{"solvable":true,"moves":1,"solution":[{"piece":"C","to":[2,1]}],"states":3,"ms":0.5}"#
        );
        let none = serde_json::to_string(&Solved {
            solvable: false,
            moves: None,
            solution: &[],
            states: 7,
            ms: 1.25,
        })
        .unwrap();
        assert_eq!(
            none,
            r#"{"solvable":false,"moves":null,"solution":[],"states":7,"ms":1.25}"#
        );
    }

    #[test]
    fn classic_files_read() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/data/klotski-classic.tsv"
        );
        let rows = read_classics(path).unwrap();
        assert_eq!(rows.len(), 40);
        assert_eq!(
            rows[0],
            ("横刀立马".into(), "aCCbaCCbcddecsteu..v".into(), Some(81))
        );
        assert!(rows.iter().any(|r| r.2.is_none()));
        assert!(read_classics("/nonexistent/file.tsv").is_err());
    }
}
