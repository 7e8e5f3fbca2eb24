//! `huarong analyse <game-id> (--moves <json log> | --wander N [--seed S]) [--rule R]`:
//! the post-game analysis of a played line, as one JSON line
//! `{"optimal_start": N, "distances": [...], "lost": [...], "worst": {"from", "to", "lost"}|null,
//!   "rule": R, "entries": N, "ms": float}`.
//!
//! - `--moves`: a JSON array (or `@file` holding one) of the session's log entries
//!   (`{"t":"move","m":{"tile":3}}`, `{"t":"restart"}`) or of bare moves (`{"tile":3}`,
//!   `{"piece":"a","to":[r,c]}`).
//! - `--wander N`: for measuring, the line is made here: N random legal moves (seeded by
//!   `--seed`, default 1; Klotski never moves one piece twice in a row), then the game's own
//!   hints to the finish.
//! - `--rule`: slide `tile` (default) or `line`; Klotski `piece` (default), `straight`, `unit`.
//!
//! `ms` is the analysis alone (not parsing, not making the line). Errors exit 1 with the
//! engine's code and message (`unsupported` for a board the analysis cannot take).

use crate::args::Args;
use huarong_engine::analysis::{self, Analysis};
use huarong_engine::game::{Cancel, Game, Status};
use huarong_engine::klotski::{self, Klotski};
use huarong_engine::rng::{self, RngCore};
use huarong_engine::session::{Entry, Session};
use huarong_engine::slide::{self, Slide};
use huarong_engine::{GameId, Kind};
use serde::de::DeserializeOwned;
use std::time::Instant;

/// Longest `--wander`.
const MAX_WANDER: u64 = 10_000;

pub fn run(args: &[String]) -> Result<(), String> {
    let a = Args::parse(args, &["moves", "wander", "seed", "rule"])?;
    let id = match a.positional.as_slice() {
        [id] => id.clone(),
        _ => {
            return Err(
                "usage: huarong analyse <game-id> (--moves <json log> | --wander N \
                        [--seed S]) [--rule R]"
                    .into(),
            )
        }
    };
    let parsed = GameId::parse(&id).map_err(|e| e.to_string())?;
    let cancel = Cancel::new();
    let (result, rule, entries, ms) = match parsed.kind {
        Kind::Slide => {
            let rule = analysis::SlideRule::parse(a.get("rule").unwrap_or("tile"))
                .map_err(|e| e.to_string())?;
            let s = line::<Slide>(&a, &id, |s, r| {
                let movable = s.current().board().movable();
                Some(slide::Move {
                    tile: movable[(r.next_u64() % movable.len() as u64) as usize],
                })
            })?;
            let t = Instant::now();
            let res = analysis::slide_from(s.start(), s.played(), rule, &cancel);
            (res, rule.as_str(), s.played().len(), t.elapsed())
        }
        Kind::Klotski => {
            let metric = analysis::klotski_rule(a.get("rule").unwrap_or("piece"))
                .map_err(|e| e.to_string())?;
            let s = line::<Klotski>(&a, &id, |s, r| {
                let b = s.current().board();
                let last = match s.played().last() {
                    Some(Entry::Move(m)) => m.piece,
                    _ => ' ',
                };
                let options: Vec<klotski::Move> = b
                    .pieces()
                    .iter()
                    .filter(|p| p.letter != last)
                    .flat_map(|p| {
                        let letter = p.letter;
                        b.targets(letter)
                            .unwrap_or_default()
                            .into_iter()
                            .map(move |t| klotski::Move {
                                piece: letter,
                                to: t.to,
                            })
                    })
                    .collect();
                (!options.is_empty())
                    .then(|| options[(r.next_u64() % options.len() as u64) as usize])
            })?;
            let t = Instant::now();
            let res = analysis::klotski_from(s.start(), s.played(), metric, &cancel);
            (res, metric.as_str(), s.played().len(), t.elapsed())
        }
        // Games without a post-game analysis (2048).
        other => {
            return Err(format!(
                "unsupported: {} has no post-game analysis",
                other.as_str()
            ))
        }
    };
    let a: Analysis = result.map_err(|e| e.to_string())?;
    let line = serde_json::json!({
        "optimal_start": a.optimal_start,
        "distances": a.distances,
        "lost": a.lost,
        "worst": a.worst_window(),
        "rule": rule,
        "entries": entries,
        "ms": (ms.as_secs_f64() * 1e5).round() / 100.0,
    });
    println!("{line}");
    Ok(())
}

/// The played line: parsed from `--moves`, or made by `--wander` (random moves from
/// `pick`, then hints to the finish).
fn line<G: Game>(
    a: &Args,
    id: &str,
    pick: impl Fn(&Session<G>, &mut rng::ChaCha8Rng) -> Option<G::Move>,
) -> Result<Session<G>, String> {
    // A generated ID is generated within the command line's generator budget.
    let mut s = crate::bounds::generating(|| Session::<G>::open(id)).map_err(|e| e.to_string())?;
    match (a.get("moves"), a.get("wander")) {
        (Some(text), None) => {
            for e in parse_log::<G::Move>(text)? {
                match e {
                    Entry::Move(m) => {
                        s.play(&m, 0).map_err(|e| e.to_string())?;
                    }
                    Entry::Restart => s.restart(0),
                }
            }
        }
        (None, Some(n)) => {
            let n: u64 = n
                .parse()
                .ok()
                .filter(|&n| n <= MAX_WANDER)
                .ok_or_else(|| format!("--wander {n:?} is not a number 0…{MAX_WANDER}"))?;
            let seed: u64 = a.num("seed", Some(1))?;
            let mut r = rng::stream(seed, "cli-analyse");
            for _ in 0..n {
                if s.status() != Status::Playing {
                    break;
                }
                if let Some(m) = pick(&s, &mut r) {
                    s.play(&m, 0).map_err(|e| e.to_string())?;
                }
            }
            let cancel = Cancel::new();
            while s.status() == Status::Playing {
                let h = s.hint(&cancel).map_err(|e| e.to_string())?;
                s.play(&h.mv, 0).map_err(|e| e.to_string())?;
            }
        }
        _ => return Err("give exactly one of --moves <json log> and --wander N".into()),
    }
    Ok(s)
}

/// A JSON array of log entries or bare moves (or `@file` holding one).
fn parse_log<M: DeserializeOwned>(text: &str) -> Result<Vec<Entry<M>>, String> {
    let owned;
    let json = match text.strip_prefix('@') {
        Some(path) => {
            owned =
                std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            owned.as_str()
        }
        None => text,
    };
    let items: Vec<serde_json::Value> =
        serde_json::from_str(json).map_err(|e| format!("--moves is not a JSON array: {e}"))?;
    if items.len() > huarong_engine::session::MAX_LOG {
        return Err(format!(
            "--moves has {} entries; at most {} are accepted",
            items.len(),
            huarong_engine::session::MAX_LOG
        ));
    }
    items
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            let entry = if v.get("t").is_some() {
                serde_json::from_value::<Entry<M>>(v)
            } else {
                serde_json::from_value::<M>(v).map(Entry::Move)
            };
            entry.map_err(|e| format!("--moves entry {}: {e}", i + 1))
        })
        .collect()
}
