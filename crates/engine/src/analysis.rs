//! Post-game analysis: from a start position and the played line, the optimal
//! distance to the goal after each of the player's moves, and the moves that did not bring
//! the goal closer.
//!
//! # What is counted
//! Distances and move numbers are under the player's counting rule, so move `k` is the `k`-th
//! move the game's counter counted, and `distances.len()` is the game's count at the end:
//! - number slide, `tile`: a tap that slides *n* tiles is *n* moves, one position after each
//!   tile; `line`: a tap is one move;
//! - Klotski: consecutive moves of one piece are one *run* (as the game counts them); a run
//!   is 1 `piece` move (0 if the piece came back), or as many `straight`/`unit` moves as the
//!   fewest that take the piece from where the run began to where it ended, one position after
//!   each along such a path.
//!
//! Only the entries after the last restart count (a restart starts the count again), which is
//! the line the finish was scored on. `lost` lists the 1-based moves after which the distance
//! was not smaller than before (under `tile` every move changes it by exactly one, so a lost
//! move is one that went away from the goal; under `piece` a move may also keep it).
//!
//! # Supported boards and cost
//! - number slide ≤ 10 cells (2×2 … 3×3, 2×5, 5×2): exact tables, `tile` and `line` (the
//!   line table is one breadth-first search over taps, built once per size and process);
//! - number slide with pattern databases (4×4, 3×4, 4×3, 3×5, 5×3, 2×6, 6×2): `tile` only, an
//!   optimal IDA* per distinct position, at most [`MAX_SEARCHED_POSITIONS`] of them;
//!   since one tile move changes the optimum by exactly one, each position after the first
//!   is one bounded search ("is there a solution one shorter?");
//! - every Klotski board the solver takes, in every metric: one search over the start's
//!   component (see `klotski::goal_distances`), at most `klotski::MAX_STATES` positions.
//!
//! Anything else is `ErrorCode::Unsupported`; every search checks the [`Cancel`] flag. The
//! engine does no threading: the app runs this off the main thread.

use crate::error::{Error, ErrorCode, Result};
use crate::game::{Cancel, Game, Kind};
use crate::id::GameId;
use crate::klotski::{self, Klotski, Metric};
use crate::session::{Entry, MAX_LOG};
use crate::slide::{self, Slide};
use serde::Serialize;
use std::collections::HashMap;

/// Most distinct positions an IDA*-analysed number slide may have (bounded work: a 4×4
/// position takes milliseconds to a second).
pub const MAX_SEARCHED_POSITIONS: usize = 2_000;
/// Most counted moves any analysis returns.
pub const MAX_MOVES: usize = 1_000_000;

/// The analysis of one played line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Analysis {
    /// The optimal number of moves from the start.
    pub optimal_start: u32,
    /// The optimal distance to the goal after move 1, move 2, ….
    pub distances: Vec<u32>,
    /// The 1-based moves after which the distance was not smaller than before.
    pub lost: Vec<u32>,
}

/// A stretch of moves `from ..= to` (1-based, inclusive) in which `lost` moves were lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Window {
    pub from: u32,
    pub to: u32,
    pub lost: u32,
}

impl Analysis {
    /// The analysis of a line whose distances are known.
    pub fn from_distances(optimal_start: u32, distances: Vec<u32>) -> Analysis {
        let mut prev = optimal_start;
        let mut lost = Vec::new();
        for (k, &d) in distances.iter().enumerate() {
            if d >= prev {
                lost.push(k as u32 + 1);
            }
            prev = d;
        }
        Analysis {
            optimal_start,
            distances,
            lost,
        }
    }

    /// Where the most moves were lost: the stretch of moves in which lost moves outnumber
    /// the others by the most (each lost move +1, each other move −1; the earliest and
    /// shortest such stretch), for a line like "moves 12–19: 6 moves lost". `None` when no
    /// move was lost.
    pub fn worst_window(&self) -> Option<Window> {
        let n = self.distances.len();
        let mut is_lost = vec![false; n];
        for &k in &self.lost {
            if let Some(x) = is_lost.get_mut(k as usize - 1) {
                *x = true;
            }
        }
        // Kadane over ±1, keeping the first maximum and the latest start that reaches it.
        let (mut best, mut best_from, mut best_to) = (0i64, 0usize, 0usize);
        let (mut run, mut run_from) = (0i64, 0usize);
        for (i, &l) in is_lost.iter().enumerate() {
            if run <= 0 {
                run = 0;
                run_from = i;
            }
            run += if l { 1 } else { -1 };
            if run > best {
                best = run;
                best_from = run_from;
                best_to = i;
            }
        }
        if best == 0 {
            return None;
        }
        // Trim leading moves that were not lost (a zero-sum prefix).
        while !is_lost[best_from] {
            best_from += 1;
        }
        let lost = is_lost[best_from..=best_to].iter().filter(|&&l| l).count() as u32;
        Some(Window {
            from: best_from as u32 + 1,
            to: best_to as u32 + 1,
            lost,
        })
    }
}

/// The number slide's counting rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SlideRule {
    /// Each tile that slides one cell is a move.
    Tile,
    /// Each tap is a move.
    Line,
}

impl SlideRule {
    pub fn parse(text: &str) -> Result<SlideRule> {
        match text {
            "tile" => Ok(SlideRule::Tile),
            "line" => Ok(SlideRule::Line),
            _ => Err(Error::parse(format!(
                "unknown number-slide rule {text:?} (expected tile or line)"
            ))),
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            SlideRule::Tile => "tile",
            SlideRule::Line => "line",
        }
    }
}

/// Parses a Klotski counting rule (`piece`, `straight`, `unit`).
pub fn klotski_rule(text: &str) -> Result<Metric> {
    Metric::parse(text).ok_or_else(|| {
        Error::parse(format!(
            "unknown Klotski rule {text:?} (expected piece, straight or unit)"
        ))
    })
}

/// The entries that the current count is made of: those after the last restart.
fn counted<M>(played: &[Entry<M>]) -> Result<impl Iterator<Item = &M>> {
    if played.len() > MAX_LOG {
        return Err(Error::range(format!(
            "the move log has {} entries; at most {MAX_LOG} are analysed",
            played.len()
        )));
    }
    let from = played
        .iter()
        .rposition(|e| matches!(e, Entry::Restart))
        .map_or(0, |i| i + 1);
    Ok(played[from..].iter().filter_map(|e| match e {
        Entry::Move(m) => Some(m),
        Entry::Restart => None,
    }))
}

fn too_many() -> Error {
    Error::range(format!("more than {MAX_MOVES} moves to analyse"))
}

/// The analysis of a number-slide game given by its ID (see [`slide_from`]).
pub fn slide_game(
    id: &str,
    played: &[Entry<slide::Move>],
    rule: SlideRule,
    cancel: &Cancel,
) -> Result<Analysis> {
    let parsed = GameId::parse(id)?;
    if parsed.kind != Kind::Slide {
        return Err(Error::parse(format!(
            "{id:?} is not a number-slide game ID"
        )));
    }
    let start = Slide::from_id(&parsed.body, parsed.seed)?;
    slide_from(&start, played, rule, cancel)
}

/// The analysis of the number-slide line `played` (a `Session`'s `played()` entries) from
/// `start`, under `rule`. Illegal moves are `IllegalMove`; unsupported sizes and rules
/// `Unsupported` (see the module documentation).
pub fn slide_from(
    start: &Slide,
    played: &[Entry<slide::Move>],
    rule: SlideRule,
    cancel: &Cancel,
) -> Result<Analysis> {
    searches!();
    let b0 = start.board().clone();
    let (w, h) = (b0.width(), b0.height());
    let exact = slide::has_table(w, h);
    if !exact && (rule == SlideRule::Line || !slide::has_pdb(w, h)) {
        return Err(Error::unsupported(format!(
            "post-game analysis of {w}x{h} boards under the {} count is not available",
            rule.as_str()
        )));
    }
    let budget = crate::budget::ambient();
    let unsolvable = || Error::unsolvable("the number-slide start cannot reach the goal");
    let dist = |b: &slide::Board| -> Result<u32> {
        match rule {
            SlideRule::Tile => slide::table(w, h)
                .ok_or_else(unsolvable)?
                .distance(b)?
                .map(u32::from)
                .ok_or_else(unsolvable),
            SlideRule::Line => line_table(w, h).ok_or_else(unsolvable)?.distance(b),
        }
    };
    // Walk the line once. Exact tables: each position's distance at once (nothing stored but
    // the distances). Pattern-database sizes: each position as an index into the distinct
    // positions, refused *before any search* once they are more than the searches may take
    // (a 10,000-move game used to search 2,000 positions, ~33 s, and then fail).
    let mut seen: HashMap<slide::Board, u32> = HashMap::new();
    let mut order: Vec<u32> = Vec::new();
    let mut distances: Vec<u32> = Vec::new();
    let mut b = b0.clone();
    if !exact {
        seen.insert(b0.clone(), 0);
    }
    let mut record = |b: &slide::Board| -> Result<()> {
        if exact {
            distances.push(dist(b)?);
        } else {
            let next = seen.len() as u32;
            let i = *seen.entry(b.clone()).or_insert(next);
            if seen.len() > MAX_SEARCHED_POSITIONS {
                return Err(Error::unsupported(format!(
                    "the game visited more than {MAX_SEARCHED_POSITIONS} positions; \
                     longer {w}x{h} games are not analysed"
                )));
            }
            order.push(i);
        }
        if distances.len() + order.len() > MAX_MOVES {
            return Err(too_many());
        }
        Ok(())
    };
    for (n, mv) in counted(played)?.enumerate() {
        if n & 255 == 0 {
            budget.check("the analysis")?;
        }
        if cancel.is_cancelled() {
            return Err(Error::cancelled());
        }
        match rule {
            SlideRule::Line => {
                b.slide(mv.tile)?;
                record(&b)?;
            }
            SlideRule::Tile => {
                let moved = b.clone().slide(mv.tile)?;
                for m in moved {
                    b.step(m.tile)?;
                    record(&b)?;
                }
            }
        }
    }
    if exact {
        return Ok(Analysis::from_distances(dist(&b0)?, distances));
    }
    // Pattern-database sizes, tile count: one bounded IDA* per distinct position, each under
    // the budget's deadline and the cancel flag (the 80-move 4×4's first search
    // alone takes about 100 s; it stops at the deadline, `unsupported`, or within a few
    // thousand nodes of a cancel).
    let optimal = |p: &slide::Board, max_len: Option<u32>| -> Result<Option<u32>> {
        budget.check("the analysis of this game")?;
        match slide::solve_optimal_until(p, cancel, max_len, budget.deadline())? {
            Some(found) => Ok(found.tiles.map(|t| t.len() as u32)),
            None => {
                budget.check("the analysis of this game")?;
                Err(Error::unsupported(
                    "the analysis of this game ran out of its time budget",
                ))
            }
        }
    };
    let mut distinct: Vec<Option<&slide::Board>> = vec![None; seen.len()];
    for (p, &j) in &seen {
        distinct[j as usize] = Some(p);
    }
    let start_d = optimal(&b0, None)?.ok_or_else(unsolvable)?;
    let mut known: Vec<Option<u32>> = vec![None; seen.len()];
    known[0] = Some(start_d);
    let mut prev = start_d;
    let mut distances = Vec::with_capacity(order.len());
    for i in order {
        let d = match known[i as usize] {
            Some(d) => d,
            None => {
                let p = distinct[i as usize].ok_or_else(unsolvable)?;
                // A neighbour of a position at distance `prev` is at prev − 1 or prev + 1.
                let d = if prev == 0 {
                    1
                } else if optimal(p, Some(prev - 1))?.is_some() {
                    prev - 1
                } else {
                    prev + 1
                };
                known[i as usize] = Some(d);
                d
            }
        };
        distances.push(d);
        prev = d;
    }
    Ok(Analysis::from_distances(start_d, distances))
}

/// The analysis of a Klotski game given by its ID (see [`klotski_from`]).
pub fn klotski_game(
    id: &str,
    played: &[Entry<klotski::Move>],
    metric: Metric,
    cancel: &Cancel,
) -> Result<Analysis> {
    let parsed = GameId::parse(id)?;
    if parsed.kind != Kind::Klotski {
        return Err(Error::parse(format!("{id:?} is not a Klotski game ID")));
    }
    let start = Klotski::from_id(&parsed.body, parsed.seed)?;
    klotski_from(&start, played, metric, cancel)
}

/// The analysis of the Klotski line `played` from `start`, in `metric`.
pub fn klotski_from(
    start: &Klotski,
    played: &[Entry<klotski::Move>],
    metric: Metric,
    cancel: &Cancel,
) -> Result<Analysis> {
    searches!();
    let budget = crate::budget::ambient();
    let per_board =
        std::mem::size_of::<klotski::Board>() + std::mem::size_of_val(start.board().pieces());
    let mut game = start.clone();
    let mut positions: Vec<klotski::Board> = Vec::new();
    // The run in progress: the piece's letter and index, and the board when it began.
    let mut run: Option<(char, usize, klotski::Board)> = None;
    let close = |run: &Option<(char, usize, klotski::Board)>,
                 now: &klotski::Board,
                 out: &mut Vec<klotski::Board>| {
        if let Some((_, i, before)) = run {
            let to = now.pieces()[*i].pos();
            out.extend(klotski::run_positions(before, *i, to, metric));
        }
    };
    for mv in counted(played)? {
        if cancel.is_cancelled() {
            return Err(Error::cancelled());
        }
        if run.as_ref().is_none_or(|r| r.0 != mv.piece) {
            close(&run, game.board(), &mut positions);
            let i = game
                .board()
                .pieces()
                .iter()
                .position(|p| p.letter == mv.piece)
                .ok_or_else(|| {
                    Error::illegal(format!("there is no piece {:?} on the board", mv.piece))
                })?;
            run = Some((mv.piece, i, game.board().clone()));
        }
        game.apply(mv)?;
        if positions.len() > MAX_MOVES {
            return Err(too_many());
        }
        // The boards of the line are held too: a quarter of the memory bound at most.
        if positions.len() * per_board > budget.max_bytes / 4 {
            return Err(Error::unsupported(format!(
                "this Klotski game is too long to analyse ({} positions)",
                positions.len()
            )));
        }
    }
    close(&run, game.board(), &mut positions);
    positions.push(start.board().clone());
    let found = klotski::goal_distances(
        start.board(),
        &positions,
        metric,
        cancel,
        klotski::MAX_STATES,
    )
    .map_err(|e| match e.code {
        ErrorCode::OutOfRange | ErrorCode::Unsupported => Error::unsupported(format!(
            "this Klotski board is too large to analyse ({})",
            e.message
        )),
        _ => e,
    })?;
    let mut distances = found
        .into_iter()
        .map(|d| d.ok_or_else(|| Error::unsolvable("C cannot reach the exit from the start")))
        .collect::<Result<Vec<u32>>>()?;
    let start_d = distances.pop().unwrap_or(0);
    Ok(Analysis::from_distances(start_d, distances))
}

/// Exact distances under the `line` count (one tap = one move) for boards of at most 10
/// cells: one breadth-first search from the goal over taps, indexed by the Lehmer rank of
/// the arrangement (blank included; `n!` bytes, the unreachable parity unused).
pub struct LineTable {
    w: usize,
    h: usize,
    dist: Vec<u8>,
}

const UNSEEN: u8 = u8::MAX;

/// The line count has an exact table for the same sizes as the step count.
static LINE_TABLES: slide::SizeCache<LineTable, 8> = slide::SizeCache::new(slide::TABLE_SIZES);

/// The line-count table of `w`×`h` (≤ 10 cells), built on first use and kept.
pub fn line_table(w: usize, h: usize) -> Option<&'static LineTable> {
    LINE_TABLES.get_or_init(w, h, || LineTable::build(w, h))
}

fn rank(cells: &[u8]) -> usize {
    let n = cells.len();
    let mut r = 0usize;
    for i in 0..n {
        let smaller = cells[i + 1..].iter().filter(|&&c| c < cells[i]).count();
        r = r * (n - i) + smaller;
    }
    r
}

impl LineTable {
    fn build(w: usize, h: usize) -> LineTable {
        let n = w * h;
        let total: usize = (1..=n).product();
        let mut dist = vec![UNSEEN; total];
        let goal: Vec<u8> = (1..n as u8).chain([0]).collect();
        dist[rank(&goal)] = 0;
        let mut frontier = vec![goal];
        let mut d = 0u8;
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for cells in &frontier {
                let blank = cells.iter().position(|&c| c == 0).unwrap_or(0);
                let (br, bc) = (blank / w, blank % w);
                let targets = (0..w)
                    .map(|c| br * w + c)
                    .chain((0..h).map(|r| r * w + bc))
                    .filter(|&t| t != blank);
                for t in targets {
                    let mut c = cells.clone();
                    // Slide the tiles between t and the blank one cell toward the blank.
                    let step: isize = if t / w == br {
                        if t > blank {
                            1
                        } else {
                            -1
                        }
                    } else if t > blank {
                        w as isize
                    } else {
                        -(w as isize)
                    };
                    let mut at = blank;
                    while at != t {
                        let from = (at as isize + step) as usize;
                        c[at] = c[from];
                        at = from;
                    }
                    c[t] = 0;
                    let r = rank(&c);
                    if dist[r] == UNSEEN {
                        dist[r] = d + 1;
                        next.push(c);
                    }
                }
            }
            frontier = next;
            d += 1;
        }
        LineTable { w, h, dist }
    }

    /// The fewest taps from `b` to the goal.
    pub fn distance(&self, b: &slide::Board) -> Result<u32> {
        if (b.width(), b.height()) != (self.w, self.h) {
            return Err(Error::range("the board is not of this table's size"));
        }
        match self.dist[rank(b.cells())] {
            UNSEEN => Err(Error::unsolvable(
                "the number-slide board cannot reach the goal",
            )),
            d => Ok(d as u32),
        }
    }

    /// The largest distance in the table.
    pub fn max_distance(&self) -> u32 {
        self.dist
            .iter()
            .filter(|&&d| d != UNSEEN)
            .max()
            .copied()
            .unwrap_or(0) as u32
    }
}

#[cfg(test)]
mod tests;
