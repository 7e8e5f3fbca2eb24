//! `huarong 2048 …`:
//!
//! * `move --dir left|right|up|down` reads boards from stdin, one a line, 16 tile values
//!   row-major (0 = empty, separated by commas and/or spaces), and prints for each
//!   `{"board": [16 values], "gained": N, "moved": bool}`: the slide alone, no spawn.
//! * `selfplay --games N --seed S --budget-ms M [--stop-at TILE] [--depth D] [--size WxH]`
//!   plays N games with seeds S, S+1, … (game ID `2048#s`, or `2048:WxH#s` with `--size`,
//!   3x3 … 8x8), the AI choosing every move within M ms (or at fixed depth D instead,
//!   deterministic), keeping going after the win tile. One line per game
//!   `{"seed": s, "score": N, "max_tile": N, "moves": N}`, then
//!   `{"games": N, "reached": {"2048": k, …, "131072": k}, "mean_score": x, "ms_per_move_p50": x,
//!   "ms_per_move_p95": x, "positions_per_s": x}` (`reached` counts from the size's win tile:
//!   2048, or 256 on the 3×3). `--stop-at` ends a game when that tile appears.

use crate::args::Args;
use huarong_engine::clock::Native;
use huarong_engine::g2048::ai::{self, Budget};
use huarong_engine::g2048::board::{self, Board, Dir};
use huarong_engine::g2048::{Move, G2048};
use huarong_engine::{Cancel, Game, Status};
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::io::{self, BufRead, Write};
use std::time::Instant;

const USAGE: &str = "usage: huarong 2048 move --dir left|right|up|down   < boards
       huarong 2048 selfplay --games N --seed S --budget-ms M [--stop-at TILE] [--depth D] [--size WxH]";

pub fn run(args: &[String]) -> Result<(), String> {
    match args.split_first() {
        Some((cmd, rest)) if cmd == "move" => moves(rest),
        Some((cmd, rest)) if cmd == "selfplay" => selfplay(rest),
        Some((cmd, _)) => Err(format!("unknown 2048 command {cmd:?}\n{USAGE}")),
        None => Err(USAGE.to_string()),
    }
}

#[derive(serde::Serialize)]
struct MoveOut {
    board: [u32; 16],
    gained: u32,
    moved: bool,
}

/// Sixteen tile values from one input line.
fn parse_line(line: &str) -> Result<Board, String> {
    let parts: Vec<&str> = line
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() != 16 {
        return Err(format!("expected 16 tile values, got {}", parts.len()));
    }
    G2048::parse_board(&parts.join(",")).or_else(|e| {
        // An empty board is a legal input here (it simply does not move).
        if parts.iter().all(|p| *p == "0") {
            Ok(Board::default())
        } else {
            Err(e.message)
        }
    })
}

fn moves(args: &[String]) -> Result<(), String> {
    let a = Args::parse(args, &["dir"])?;
    let dir_text = a.required("dir")?;
    let dir = Dir::parse(dir_text)
        .ok_or_else(|| format!("--dir {dir_text:?} is not left, right, up or down"))?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    move_lines(dir, io::stdin().lock(), &mut out)?;
    out.flush().map_err(|e| e.to_string())
}

/// One output line per non-blank input line; the first bad line is an error naming it.
fn move_lines(dir: Dir, input: impl BufRead, out: &mut impl Write) -> Result<(), String> {
    let t = board::tables();
    for (n, line) in input.lines().enumerate() {
        let line = line.map_err(|e| format!("reading stdin: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let b = parse_line(&line).map_err(|e| format!("line {}: {e}", n + 1))?;
        let next = t.slide(b, dir);
        let rec = MoveOut {
            board: board::to_values(next),
            gained: t.gain(b, dir),
            moved: next != b,
        };
        let json = serde_json::to_string(&rec).map_err(|e| e.to_string())?;
        writeln!(out, "{json}").map_err(|e| e.to_string())?;
    }
    Ok(())
}

#[derive(serde::Serialize)]
struct GameOut {
    seed: u64,
    score: u64,
    max_tile: u32,
    moves: u32,
}

/// `{"2048": k, "4096": k, …}` in tile order.
struct Reached(Vec<(u32, u32)>);

impl Serialize for Reached {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (tile, k) in &self.0 {
            m.serialize_entry(&tile.to_string(), k)?;
        }
        m.end()
    }
}

#[derive(serde::Serialize)]
struct Summary {
    games: u64,
    reached: Reached,
    mean_score: f64,
    ms_per_move_p50: f64,
    ms_per_move_p95: f64,
    positions_per_s: f64,
}

const REPORTED: [u32; 10] = [256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072];

/// The tiles `reached` counts on a board of side `side`: from its win tile up.
fn reported(side: u8) -> Vec<u32> {
    let win = huarong_engine::registry::g2048_win_tile(side).unwrap_or(2048);
    REPORTED.iter().copied().filter(|&t| t >= win).collect()
}

/// `--size WxH`: a square side 3 … 8 (the engine's own check and message).
fn parse_size(text: &str) -> Result<u8, String> {
    huarong_engine::g2048::parse_side(text).map_err(|e| format!("--size: {}", e.message))
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (p * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn selfplay(args: &[String]) -> Result<(), String> {
    let a = Args::parse(args, &["games", "seed", "budget-ms", "stop-at", "depth", "size"])?;
    let side = match a.get("size") {
        Some(t) => parse_size(t)?,
        None => 4,
    };
    let games: u64 = a.num("games", None)?;
    let seed: u64 = a.num("seed", None)?;
    if !(1..=100_000).contains(&games) {
        return Err(format!("--games {games} is out of range 1…100000"));
    }
    if seed.checked_add(games - 1).is_none() {
        return Err("--seed plus --games overflows 64 bits".into());
    }
    if a.get("depth").is_some() && a.get("budget-ms").is_some() {
        return Err("give --budget-ms or --depth, not both".into());
    }
    let clock = Native::new();
    let budget = match a.get("depth") {
        Some(_) => {
            let d: u8 = a.num("depth", None)?;
            if !(1..=ai::MAX_DEPTH).contains(&d) {
                return Err(format!("--depth {d} is out of range 1…{}", ai::MAX_DEPTH));
            }
            Budget::Depth(d)
        }
        None => {
            let ms: u64 = a.num("budget-ms", None)?;
            if !(1..=600_000).contains(&ms) {
                return Err(format!("--budget-ms {ms} is out of range 1…600000"));
            }
            Budget::Millis(ms, &clock)
        }
    };
    let stop_at: Option<u32> = match a.get("stop-at") {
        None => None,
        Some(_) => {
            let v: u32 = a.num("stop-at", None)?;
            if board::exponent(v).is_none_or(|e| e < 2) {
                return Err(format!("--stop-at {v} is not a tile value 4…131072"));
            }
            Some(v)
        }
    };
    let (wall, cpu_start) = (Instant::now(), thread_cpu_s());
    let mut out = io::stdout().lock();
    let (positions, mut cpu_ms) = play_games(side, seed, games, budget, stop_at, &mut out)?;
    cpu_ms.sort_by(f64::total_cmp);
    // On a shared machine wall-clock rates understate the search; where Linux reports this
    // thread's CPU time, add the rate per CPU second on stderr (stdout keeps its fixed form).
    if let (Some(cpu0), Some(cpu1)) = (cpu_start, thread_cpu_s()) {
        let cpu = cpu1 - cpu0;
        if cpu > 0.0 {
            eprintln!(
                "{{\"cpu_s\": {cpu:.2}, \"wall_s\": {:.2}, \"positions\": {positions}, \"positions_per_cpu_s\": {:.0}, \"cpu_ms_per_move_p50\": {}, \"cpu_ms_per_move_p95\": {}}}",
                wall.elapsed().as_secs_f64(),
                positions as f64 / cpu,
                round3(percentile(&cpu_ms, 0.5)),
                round3(percentile(&cpu_ms, 0.95)),
            );
        }
    }
    Ok(())
}

/// Play the games, writing one line each and the summary; returns the positions searched
/// and each move's CPU time in ms where Linux reports it (`/proc/thread-self/schedstat`: the
/// time this thread ran, in ns; on a busy machine a move's wall time also counts the time the
/// thread waited for a core).
fn play_games(
    side: u8,
    seed: u64,
    games: u64,
    budget: Budget<'_>,
    stop_at: Option<u32>,
    out: &mut impl Write,
) -> Result<(u64, Vec<f64>), String> {
    let cancel = Cancel::new();
    let mut times_ms: Vec<f64> = Vec::new();
    let mut cpu_ms: Vec<f64> = Vec::new();
    let (mut positions, mut search_s) = (0u64, 0f64);
    let tiles = reported(side);
    let mut reached = vec![0u32; tiles.len()];
    let mut score_sum = 0f64;
    for s in seed..seed + games {
        let mut g = G2048::new_sized(side, s).map_err(|e| e.message)?;
        loop {
            if stop_at.is_some_and(|t| g.max_tile() >= t) {
                break;
            }
            match g.status() {
                Status::Lost => break,
                Status::Won => {
                    g.apply(&Move::KeepGoing).map_err(|e| e.to_string())?;
                    continue;
                }
                Status::Playing => {}
            }
            let t0 = Instant::now();
            let run0 = thread_run_ns();
            let choice = g
                .best_move(budget, &cancel)
                .ok_or("the AI found no move on a position that is not over")?;
            let took = t0.elapsed().as_secs_f64();
            if let (Some(a), Some(b)) = (run0, thread_run_ns()) {
                cpu_ms.push(b.saturating_sub(a) as f64 / 1e6);
            }
            times_ms.push(took * 1000.0);
            search_s += took;
            positions += choice.positions;
            g.apply(&Move::Slide(choice.dir))
                .map_err(|e| e.to_string())?;
        }
        for (k, &tile) in tiles.iter().enumerate() {
            reached[k] += (g.max_tile() >= tile) as u32;
        }
        score_sum += g.score() as f64;
        let rec = GameOut {
            seed: s,
            score: g.score(),
            max_tile: g.max_tile(),
            moves: g.moves(),
        };
        writeln!(
            out,
            "{}",
            serde_json::to_string(&rec).map_err(|e| e.to_string())?
        )
        .map_err(|e| e.to_string())?;
        out.flush().map_err(|e| e.to_string())?;
    }
    times_ms.sort_by(f64::total_cmp);
    let summary = Summary {
        games,
        reached: Reached(tiles.iter().zip(reached).map(|(&t, k)| (t, k)).collect()),
        mean_score: round3(score_sum / games as f64),
        ms_per_move_p50: round3(percentile(&times_ms, 0.5)),
        ms_per_move_p95: round3(percentile(&times_ms, 0.95)),
        positions_per_s: if search_s > 0.0 {
            (positions as f64 / search_s).round()
        } else {
            0.0
        },
    };
    writeln!(
        out,
        "{}",
        serde_json::to_string(&summary).map_err(|e| e.to_string())?
    )
    .map_err(|e| e.to_string())?;
    Ok((positions, cpu_ms))
}

/// The time this thread has run on a CPU, in ns (`/proc/thread-self/schedstat`, Linux).
fn thread_run_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// This thread's user + system CPU time in seconds, from Linux's `/proc/thread-self/stat`
/// (clock ticks of 1/100 s); `None` where that file does not exist.
fn thread_cpu_s() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let after_name = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) as f64 / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_lines_with_commas_or_spaces() {
        let b = parse_line("2,2,0,0, 0 0 0 0 0 0 0 0 0 0 0 4").unwrap();
        assert_eq!(board::to_values(b)[0], 2);
        assert_eq!(board::to_values(b)[15], 4);
        assert_eq!(parse_line(&["0"; 16].join(",")).unwrap(), Board::default());
        let big = parse_line("131072 65536 32768 0 0 0 0 0 0 0 0 0 0 0 0 2").unwrap();
        assert_eq!(board::to_values(big)[..3], [131072, 65536, 32768]);
        assert!(parse_line("2,2").unwrap_err().contains("got 2"));
        assert!(parse_line(&["3"; 16].join(","))
            .unwrap_err()
            .contains("power of two"));
    }

    #[test]
    fn move_prints_one_line_per_board() {
        let input = "2,2,2,2,0,0,0,0,0,0,0,0,0,0,0,0\n\n2 2 4 0 0 0 0 0 0 0 0 0 0 0 0 0\n\
                     2,4,8,16,0,0,0,0,0,0,0,0,0,0,0,0\n";
        let mut out = Vec::new();
        move_lines(Dir::Left, input.as_bytes(), &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"board\":[4,4,0,0,0,0,0,0,0,0,0,0,0,0,0,0],\"gained\":8,\"moved\":true}\n\
             {\"board\":[4,4,0,0,0,0,0,0,0,0,0,0,0,0,0,0],\"gained\":4,\"moved\":true}\n\
             {\"board\":[2,4,8,16,0,0,0,0,0,0,0,0,0,0,0,0],\"gained\":0,\"moved\":false}\n"
        );
        let mut out = Vec::new();
        move_lines(
            Dir::Up,
            "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2\n".as_bytes(),
            &mut out,
        )
        .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["board"][3], 2);
        // Full rules: two 32,768s make 65,536, two 65,536s 131,072.
        let mut out = Vec::new();
        move_lines(
            Dir::Left,
            "32768,32768,65536,65536,0,0,0,0,0,0,0,0,0,0,0,0\n".as_bytes(),
            &mut out,
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"board\":[65536,131072,0,0,0,0,0,0,0,0,0,0,0,0,0,0],\"gained\":196608,\"moved\":true}\n"
        );
        assert_eq!(v["moved"], true);
        let err = move_lines(
            Dir::Up,
            "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2\n1,2\n".as_bytes(),
            &mut Vec::new(),
        );
        assert!(err.unwrap_err().starts_with("line 2: expected 16"));
    }

    #[test]
    fn selfplay_lines_have_the_issue_form_and_depth_mode_repeats() {
        let run = || {
            let mut out = Vec::new();
            play_games(4, 7, 2, Budget::Depth(1), Some(256), &mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        let (a, b) = (run(), run());
        let lines: Vec<&str> = a.lines().collect();
        assert_eq!(lines.len(), 3);
        for (i, line) in lines[..2].iter().enumerate() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let keys: Vec<&str> = line.split('"').skip(1).step_by(2).collect();
            assert_eq!(keys, ["seed", "score", "max_tile", "moves"]);
            assert_eq!(v["seed"], 7 + i as u64);
            assert_eq!(v["max_tile"], 256, "stops at the tile");
        }
        let sum: serde_json::Value = serde_json::from_str(lines[2]).unwrap();
        assert_eq!(sum["games"], 2);
        assert_eq!(sum["reached"]["2048"], 0);
        for k in [
            "mean_score",
            "ms_per_move_p50",
            "ms_per_move_p95",
            "positions_per_s",
        ] {
            assert!(sum[k].is_number(), "{k}");
        }
        // Depth mode is deterministic: the same games again.
        assert_eq!(
            a.lines().take(2).collect::<Vec<_>>(),
            b.lines().take(2).collect::<Vec<_>>()
        );
    }

    #[test]
    fn selfplay_plays_other_sizes_and_counts_from_their_win_tile() {
        let mut out = Vec::new();
        play_games(5, 1, 1, Budget::Depth(1), Some(128), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let game: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
        assert_eq!(game["max_tile"], 128);
        let sum: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
        assert_eq!(sum["reached"]["2048"], 0);
        assert!(sum["reached"].get("256").is_none());
        let mut out = Vec::new();
        play_games(3, 1, 1, Budget::Depth(2), None, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.lines().nth(1).unwrap().contains(r#""reached":{"256":"#),
            "{text}"
        );
        assert_eq!(parse_size("5x5"), Ok(5));
        assert_eq!(parse_size("4x4"), Ok(4));
        for bad in ["9x9", "5x4", "2x2", "five", "2,0,0,0,0,0,0,0,2"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn summary_keeps_the_issue_key_order() {
        let s = Summary {
            games: 2,
            reached: Reached(vec![(2048, 2), (4096, 1)]),
            mean_score: 1.5,
            ms_per_move_p50: 2.0,
            ms_per_move_p95: 3.0,
            positions_per_s: 4.0,
        };
        assert_eq!(
            serde_json::to_string(&s).unwrap(),
            r#"{"games":2,"reached":{"2048":2,"4096":1},"mean_score":1.5,"ms_per_move_p50":2.0,"ms_per_move_p95":3.0,"positions_per_s":4.0}"#
        );
        assert_eq!(percentile(&[1.0, 2.0, 3.0], 0.5), 2.0);
    }
}
