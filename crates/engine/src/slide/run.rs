//! Speedsolving runs of the number slide: a **marathon** of 5, 10, 42 or 100
//! solves of one size, and a **relay** from N×N down to 2×2, each on one timer with every
//! solve's split kept. The rules of a run are defined here once: which modes exist, the
//! puzzles a run plays (from its seed), its record scope, and tiles per second.
//!
//! Mode texts: `marathon:<count>` with a plain size as the params (`4x4`, `3x4`);
//! `relay:<N>` for N×N → (N−1)×(N−1) → … → 2×2 (its params are empty or `NxN`).
//! Record scopes: `slide:<W>x<H>/marathon:<count>` and `slide/relay:<N>`.

use super::{check_size, parse_size, MAX_SIDE, MIN_SIDE};
use crate::error::{Error, ErrorCode, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The marathon lengths offered.
pub const MARATHON_COUNTS: &[u32] = &[5, 10, 42, 100];
/// The smallest relay start (3×3 → 2×2); the largest is [`MAX_SIDE`].
pub const RELAY_MIN: usize = 3;

/// A run's kind and size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunMode {
    Marathon {
        width: usize,
        height: usize,
        count: u32,
    },
    Relay {
        from: usize,
    },
}

impl RunMode {
    /// Parse `mode` (`marathon:10`, `relay:5`) with the `new_game` params it came with.
    /// Errors name what is wrong: an unknown mode, a count not offered, a size out of range,
    /// params a run does not take (a difficulty, a picture, an exact board).
    pub fn parse(mode: &str, params: &str) -> Result<RunMode> {
        let mode = mode.trim();
        let params = params.trim();
        let (name, arg) = mode.split_once(':').ok_or_else(|| {
            Error::parse(format!(
                "mode {:?} is not `marathon:<count>` or `relay:<size>`",
                clip(mode)
            ))
        })?;
        let number = |what: &str| -> Result<u32> {
            if arg.is_empty() || arg.len() > 3 || !arg.bytes().all(|b| b.is_ascii_digit()) {
                return Err(Error::parse(format!(
                    "the {what} of mode {:?} is not a number",
                    clip(mode)
                )));
            }
            arg.parse::<u32>()
                .map_err(|_| Error::parse(format!("mode {:?}: bad number", clip(mode))))
        };
        match name {
            "marathon" => {
                let count = number("count")?;
                if !MARATHON_COUNTS.contains(&count) {
                    return Err(Error::range(format!(
                        "a marathon of {count} solves is not offered: choose 5, 10, 42 or 100"
                    )));
                }
                if params.is_empty() {
                    return Err(Error::parse(
                        "a marathon needs the board size as params (e.g. \"4x4\")",
                    ));
                }
                if params.contains(['/', ':']) {
                    return Err(Error::parse(format!(
                        "a marathon is played on a plain size; params {:?} are not one (no difficulty, picture or board)",
                        clip(params)
                    )));
                }
                let (width, height) = parse_size(params)?;
                check_size(width, height)?;
                Ok(RunMode::Marathon {
                    width,
                    height,
                    count,
                })
            }
            "relay" => {
                let from = number("size")? as usize;
                if !(RELAY_MIN..=MAX_SIDE).contains(&from) {
                    return Err(Error::range(format!(
                        "a relay starts at {RELAY_MIN}…{MAX_SIDE} (relay:{from} is out of range)"
                    )));
                }
                if !params.is_empty() && params != format!("{from}x{from}") {
                    return Err(Error::parse(format!(
                        "relay:{from} starts at {from}x{from}; params {:?} do not match (leave them out)",
                        clip(params)
                    )));
                }
                Ok(RunMode::Relay { from })
            }
            _ => Err(Error::parse(format!(
                "unknown mode {:?}: the number slide has `marathon:<count>` and `relay:<size>`",
                clip(name)
            ))),
        }
    }

    /// The mode text (`marathon:10`, `relay:5`).
    pub fn text(&self) -> String {
        match *self {
            RunMode::Marathon { count, .. } => format!("marathon:{count}"),
            RunMode::Relay { from } => format!("relay:{from}"),
        }
    }

    /// The params the mode was started with (`4x4`; a relay's start size).
    pub fn params(&self) -> String {
        match *self {
            RunMode::Marathon { width, height, .. } => format!("{width}x{height}"),
            RunMode::Relay { from } => format!("{from}x{from}"),
        }
    }

    /// The record scope: `slide:4x4/marathon:10`, `slide/relay:5`.
    pub fn scope(&self) -> String {
        match *self {
            RunMode::Marathon {
                width,
                height,
                count,
            } => format!("slide:{width}x{height}/marathon:{count}"),
            RunMode::Relay { from } => format!("slide/relay:{from}"),
        }
    }

    /// How many solves the run has.
    pub fn solves(&self) -> u32 {
        match *self {
            RunMode::Marathon { count, .. } => count,
            RunMode::Relay { from } => (from + 1 - MIN_SIDE) as u32,
        }
    }

    /// The board size of solve `i` (0-based).
    pub fn size_of(&self, i: u32) -> (usize, usize) {
        match *self {
            RunMode::Marathon { width, height, .. } => (width, height),
            RunMode::Relay { from } => {
                let s = from.saturating_sub(i as usize).max(MIN_SIDE);
                (s, s)
            }
        }
    }
}

/// Whether a record scope is a run's (its scope names a mode).
pub fn is_run_scope(scope: &str) -> bool {
    scope.contains("/marathon:") || scope.starts_with("slide/relay:")
}

fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

/// One finished solve of a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Split {
    /// The solve's game ID.
    pub id: String,
    /// Its time (its own clock: from the previous solve's end, or the run's first move).
    pub ms: u64,
    /// Its move count under every counting rule of the slide.
    pub moves: BTreeMap<String, u32>,
    /// Undo, hints or the auto-solver used in it (the run is then not clean).
    #[serde(default)]
    pub undo_used: bool,
    #[serde(default)]
    pub hints_used: u32,
    #[serde(default)]
    pub auto_solved: bool,
}

/// A run in progress or done: its mode, seed and the splits so far. Saved with its slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    mode: RunMode,
    seed: u64,
    splits: Vec<Split>,
}

/// A run as saved (`{mode, params, seed, splits}`), checked when read back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedRun {
    pub mode: String,
    pub params: String,
    pub seed: u64,
    pub splits: Vec<Split>,
}

impl Run {
    /// A new run of `mode` from `seed` (a seed is the run forever: the same puzzles).
    pub fn new(mode: RunMode, seed: u64) -> Run {
        Run {
            mode,
            seed,
            splits: Vec::new(),
        }
    }

    pub fn mode(&self) -> RunMode {
        self.mode
    }
    pub fn seed(&self) -> u64 {
        self.seed
    }
    pub fn splits(&self) -> &[Split] {
        &self.splits
    }
    /// Solves in the run.
    pub fn solves(&self) -> u32 {
        self.mode.solves()
    }
    /// Whether every solve is done.
    pub fn done(&self) -> bool {
        self.splits.len() as u32 >= self.solves()
    }

    /// The game ID of solve `i` (0-based): `slide:<W>x<H>#<seed>`, its seed drawn from the
    /// run's seed in a stream of its own (below 2^53, so it survives a JS number).
    pub fn id_of(&self, i: u32) -> String {
        let (w, h) = self.mode.size_of(i);
        let mut rng = crate::rng::stream(self.seed, &format!("slide-run:{i}"));
        let seed = crate::rng::RngCore::next_u64(&mut rng) >> 11;
        format!("slide:{w}x{h}#{seed}")
    }

    /// The game ID of the solve being played (`None` once the run is done).
    pub fn current_id(&self) -> Option<String> {
        (!self.done()).then(|| self.id_of(self.splits.len() as u32))
    }

    /// Add the split of the solve being played; refused when `split.id` is not that solve
    /// or the run is done.
    pub fn add(&mut self, split: Split) -> Result<()> {
        match self.current_id() {
            Some(id) if id == split.id => {
                self.splits.push(split);
                Ok(())
            }
            Some(id) => Err(Error::illegal(format!(
                "solve {} of the run is {id}, not {}",
                self.splits.len() + 1,
                clip(&split.id)
            ))),
            None => Err(Error::illegal("the run is already done")),
        }
    }

    /// The time of the finished solves.
    pub fn splits_ms(&self) -> u64 {
        self.splits.iter().map(|s| s.ms).sum()
    }

    /// The finished solves' moves under `rule`.
    pub fn splits_moves(&self, rule: &str) -> u32 {
        self.splits
            .iter()
            .map(|s| s.moves.get(rule).copied().unwrap_or(0))
            .sum()
    }

    /// Whether no solve used undo, hints or the auto-solver.
    pub fn clean(&self) -> bool {
        self.splits
            .iter()
            .all(|s| !s.undo_used && s.hints_used == 0 && !s.auto_solved)
    }

    pub fn save(&self) -> SavedRun {
        SavedRun {
            mode: self.mode.text(),
            params: self.mode.params(),
            seed: self.seed,
            splits: self.splits.clone(),
        }
    }

    /// A saved run back, checked: its mode parses and every split is its solve.
    pub fn restore(saved: &SavedRun) -> Result<Run> {
        let mode = RunMode::parse(&saved.mode, &saved.params)?;
        let mut run = Run::new(mode, saved.seed);
        for s in &saved.splits {
            run.add(s.clone())
                .map_err(|e| {
                    Error::new(
                        ErrorCode::CorruptSave,
                        format!("a saved run does not replay: {}", e.message),
                    )
                })?;
        }
        Ok(run)
    }
}

/// Tile moves per second, to two decimals (`None` without time).
pub fn tps(tile_moves: u32, ms: u64) -> Option<f64> {
    (ms > 0).then(|| (tile_moves as f64 * 100_000.0 / ms as f64).round() / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse_and_name_their_scopes() {
        let m = RunMode::parse("marathon:10", "4x4").unwrap();
        assert_eq!(m.scope(), "slide:4x4/marathon:10");
        assert_eq!(m.solves(), 10);
        assert_eq!(m.size_of(9), (4, 4));
        let r = RunMode::parse("relay:5", "").unwrap();
        assert_eq!(r.scope(), "slide/relay:5");
        assert_eq!(r.solves(), 4);
        let sizes: Vec<_> = (0..4).map(|i| r.size_of(i)).collect();
        assert_eq!(sizes, vec![(5, 5), (4, 4), (3, 3), (2, 2)]);
        assert_eq!(RunMode::parse("relay:3", "3x3").unwrap().solves(), 2);
        assert!(is_run_scope("slide:4x4/marathon:10"));
        assert!(is_run_scope("slide/relay:5"));
        assert!(!is_run_scope("slide:4x4"));
    }

    #[test]
    fn bad_modes_say_what_is_wrong() {
        let cases = [
            ("marathon:7", "4x4", "not offered"),
            ("marathon:10", "", "needs the board size"),
            ("marathon:10", "4x4/hard", "plain size"),
            ("marathon:10", "11x11", "not supported"),
            ("marathon:x", "4x4", "not a number"),
            ("relay:2", "", "out of range"),
            ("relay:11", "", "out of range"),
            ("relay:5", "4x4", "do not match"),
            ("sprint:5", "4x4", "unknown mode"),
            ("marathon", "4x4", "is not `marathon"),
        ];
        for (mode, params, says) in cases {
            let e = RunMode::parse(mode, params).unwrap_err();
            assert!(e.message.contains(says), "{mode} {params}: {}", e.message);
        }
    }

    #[test]
    fn a_run_plays_its_solves_in_order_and_round_trips() {
        let mut run = Run::new(RunMode::parse("relay:3", "").unwrap(), 42);
        let first = run.current_id().unwrap();
        assert!(first.starts_with("slide:3x3#"));
        assert_eq!(first, Run::new(run.mode(), 42).id_of(0), "seeded");
        let split = |id: String, ms| Split {
            id,
            ms,
            moves: BTreeMap::from([("tile".into(), 20), ("line".into(), 12)]),
            undo_used: false,
            hints_used: 0,
            auto_solved: false,
        };
        assert!(run.add(split("slide:3x3#1".into(), 5)).is_err());
        run.add(split(first, 5_000)).unwrap();
        assert!(run.current_id().unwrap().starts_with("slide:2x2#"));
        let saved = serde_json::to_value(run.save()).unwrap();
        let back = Run::restore(&serde_json::from_value(saved).unwrap()).unwrap();
        assert_eq!(back, run);
        let id = run.current_id().unwrap();
        run.add(split(id, 1_000)).unwrap();
        assert!(run.done());
        assert_eq!(run.splits_ms(), 6_000);
        assert_eq!(run.splits_moves("tile"), 40);
        let mut bad = run.save();
        bad.splits[0].id = "slide:3x3#7".into();
        assert!(Run::restore(&bad).is_err());
    }

    #[test]
    fn tps_is_tile_moves_per_second() {
        assert_eq!(tps(30, 10_000), Some(3.0));
        assert_eq!(tps(10, 3_000), Some(3.33));
        assert_eq!(tps(5, 0), None);
    }
}
