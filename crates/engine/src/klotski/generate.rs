//! The level generator: new solvable layouts whose optimal piece-move count lies in a band.
//!
//! One attempt: place the piece set at random (seeded), then explore the whole set of
//! positions reachable from that layout (its *component*: moves are reversible, so every
//! position in it reaches every other) with one breadth-first search by piece moves over
//! canonical positions, keeping each position's neighbours. A second, multi-source search
//! from every solved position of the component gives every position's exact optimal count
//! (distance to the nearest solved position). A count in the band is drawn at random among
//! those the component has, then a position with that count — so the count is known, not
//! estimated — skipping the 40 classics (up to mirror), then mirrored or not at random.
//! If the component has none, the next attempt places the pieces again.
//!
//! Reproducible forever: all randomness comes from `rng::stream(seed, "klotski")` through
//! `rng::below`, and the searches visit positions in a fixed order. Changing anything here
//! changes every seeded Klotski level (daily challenges included).

use super::board::{Board, Geom, Piece, GOAL, MAX_SIDE, MIN_SIDE};
use super::keys::IndexMap;
use super::levels::classics;
use super::board::Metric;
use super::space::{with_space, Model, Space, Visit, NO_SKIP};
use crate::error::{Error, Result};
use crate::rng::{self, RngCore};
use std::collections::HashSet;
use std::sync::OnceLock;

/// Attempts (random placements) before the generator gives up.
pub const MAX_ATTEMPTS: u32 = 400;
/// Largest component explored in one attempt; bigger ones are skipped.
pub const MAX_COMPONENT: usize = 600_000;
/// Positions explored over all attempts before the generator gives up (bounds the time of
/// a hopeless request, e.g. a roomy variant whose components are all too big).
pub const MAX_EXPLORED: usize = 2_000_000;

// Memory and time: one attempt's arrays and index are charged to the thread's
// ambient `Budget` before they grow (about 60–100 bytes per position: the half-full index of
// 16-byte entries, the key, the solved flag, ~8 neighbour indices of 4 bytes, the distance
// and queue entries). An attempt whose component would exceed the bytes is skipped like one
// over `MAX_COMPONENT` (standard sets never get near either), and the run checks the
// budget's cancel flag and deadline every 1,024 positions: `Cancelled` / `Unsupported`.

/// A band of optimal piece-move counts, `min..=max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Band {
    pub min: u32,
    pub max: u32,
}

impl Band {
    pub fn new(min: u32, max: u32) -> Result<Band> {
        if min == 0 {
            return Err(Error::range("the band must start at 1 move or more"));
        }
        if min > max {
            return Err(Error::range(format!(
                "band {min}-{max} is empty (min > max)"
            )));
        }
        if min > 200 {
            return Err(Error::range(format!(
                "no layout needs {min} moves; bands start at 200 moves at most"
            )));
        }
        Ok(Band { min, max })
    }

    /// `MIN-MAX` or `MIN+` (no upper bound).
    pub fn parse(text: &str) -> Result<Band> {
        let text = text.trim();
        let num = |s: &str| {
            s.parse::<u32>().map_err(|_| {
                Error::parse(format!(
                    "band {text:?}: {s:?} is not a whole number (expected MIN-MAX or MIN+)"
                ))
            })
        };
        if let Some(min) = text.strip_suffix('+') {
            return Band::new(num(min)?, u32::MAX);
        }
        let (a, b) = text.split_once('-').ok_or_else(|| {
            Error::parse(format!("band {text:?} is not of the form MIN-MAX or MIN+"))
        })?;
        Band::new(num(a)?, num(b)?)
    }

    pub fn contains(&self, n: u32) -> bool {
        (self.min..=self.max).contains(&n)
    }
}

impl std::fmt::Display for Band {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.max == u32::MAX {
            write!(f, "{}+", self.min)
        } else {
            write!(f, "{}-{}", self.min, self.max)
        }
    }
}

/// What to generate: board size, the 2×2 `C`, `generals` 1×2 or 2×1 pieces (each
/// orientation drawn at random), `soldiers` 1×1 pieces and `walls` wall cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenSpec {
    pub width: u8,
    pub height: u8,
    pub generals: u8,
    pub soldiers: u8,
    pub walls: u8,
}

impl GenSpec {
    /// The standard set on 4×5: C, five generals, four soldiers.
    pub const fn standard() -> GenSpec {
        GenSpec {
            width: 4,
            height: 5,
            generals: 5,
            soldiers: 4,
            walls: 0,
        }
    }

    /// `[WxH:]g<G>s<S>[w<W>]`, e.g. `g4s6` (4×5 with four generals and six soldiers) or
    /// `6x5:g6s6w2`.
    pub fn parse(text: &str) -> Result<GenSpec> {
        let bad = || {
            Error::parse(format!(
                "variant {text:?} is not of the form [WxH:]g<N>s<N>[w<N>]"
            ))
        };
        let (size, rest) = match text.split_once(':') {
            Some((s, r)) => (Some(s), r),
            None => (None, text),
        };
        let mut spec = GenSpec::standard();
        if let Some(size) = size {
            let (w, h) = size.split_once(['x', 'X']).ok_or_else(bad)?;
            spec.width = w.parse().map_err(|_| bad())?;
            spec.height = h.parse().map_err(|_| bad())?;
        }
        let mut seen = [false; 3];
        // Each part is one ASCII letter and its ASCII digits; working on bytes keeps every
        // slice at a character boundary whatever the text holds (a non-ASCII byte is `bad`).
        let bytes = rest.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let ch = bytes[i] as char;
            let digits = bytes[i + 1..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            let j = i + 1 + digits;
            if !ch.is_ascii_alphabetic() || digits == 0 {
                return Err(bad());
            }
            let n: u8 = rest[i + 1..j].parse().map_err(|_| bad())?;
            i = j;
            let slot = match ch {
                'g' => 0,
                's' => 1,
                'w' => 2,
                _ => return Err(bad()),
            };
            if seen[slot] {
                return Err(bad());
            }
            seen[slot] = true;
            match slot {
                0 => spec.generals = n,
                1 => spec.soldiers = n,
                _ => spec.walls = n,
            }
        }
        if !seen[0] || !seen[1] {
            return Err(bad());
        }
        spec.check()?;
        Ok(spec)
    }

    fn check(&self) -> Result<()> {
        let (w, h) = (self.width as usize, self.height as usize);
        if !(MIN_SIDE..=MAX_SIDE).contains(&w) || !(4..=MAX_SIDE).contains(&h) {
            return Err(Error::range(format!(
                "generated boards are {MIN_SIDE}-{MAX_SIDE} wide and 4-{MAX_SIDE} tall, not {w}×{h}"
            )));
        }
        if w % 2 != 0 {
            return Err(Error::range(format!(
                "the generator's C is 2×2 and must be centred, so the width must be even, not {w}"
            )));
        }
        let used = 4 + 2 * self.generals as usize + self.soldiers as usize + self.walls as usize;
        if used + 2 > w * h {
            return Err(Error::range(format!(
                "{} generals, {} soldiers and {} walls leave fewer than 2 empty cells on {w}×{h}",
                self.generals, self.soldiers, self.walls
            )));
        }
        if 1 + self.generals as usize + self.soldiers as usize > 52 {
            return Err(Error::range("at most 52 pieces (one letter each)"));
        }
        Ok(())
    }
}

impl std::fmt::Display for GenSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}x{}:g{}s{}",
            self.width, self.height, self.generals, self.soldiers
        )?;
        if self.walls > 0 {
            write!(f, "w{}", self.walls)?;
        }
        Ok(())
    }
}

/// A new layout of the standard piece set whose optimal piece-move count is in `min..=max`
/// (`max = u32::MAX` for no upper bound), reproducible from `seed`.
pub fn generate(min: u32, max: u32, seed: u64) -> Result<Board> {
    generate_with(&GenSpec::standard(), Band::new(min, max)?, seed)
}

/// [`generate`] for any piece set.
pub fn generate_with(spec: &GenSpec, band: Band, seed: u64) -> Result<Board> {
    generate_counted(spec, band, seed).map(|(board, _)| board)
}

/// [`generate_with`], also returning the layout's optimal piece-move count.
///
/// A run stopped by one of its bounds is `Unsupported` ("too large for this app"),
/// its message naming the bound: [`MAX_EXPLORED`] positions, [`MAX_ATTEMPTS`] layouts (with
/// how many were skipped as over [`MAX_COMPONENT`] positions or over the ambient budget's
/// bytes), or the ambient budget's deadline; `Cancelled` when its cancel flag is set.
/// `OutOfRange` is only for a spec or band outside the generator's limits.
pub fn generate_counted(spec: &GenSpec, band: Band, seed: u64) -> Result<(Board, u32)> {
    generate_bounded(spec, band, seed, MAX_ATTEMPTS, MAX_EXPLORED)
}

/// [`generate_counted`] with its bounds on layouts tried and positions explored given.
pub(crate) fn generate_bounded(
    spec: &GenSpec,
    band: Band,
    seed: u64,
    max_attempts: u32,
    max_explored: usize,
) -> Result<(Board, u32)> {
    searches!();
    spec.check()?;
    let budget = crate::budget::ambient();
    let mut rng = rng::stream(seed, "klotski");
    let mut run = Run {
        explored: 0,
        max_explored,
        too_big: 0,
        too_heavy: 0,
    };
    for _ in 0..max_attempts {
        let Some(layout) = place(spec, &mut rng) else {
            continue;
        };
        let model = Model::new(&layout);
        let attempt = Attempt {
            layout: &layout,
            band,
            rng: &mut rng,
            run: &mut run,
            budget: &budget,
        };
        if let Some(found) = with_space(&model, false, attempt)? {
            return Ok(found);
        }
        if run.explored > max_explored {
            return Err(Error::unsupported(format!(
                "gave up generating a {spec} layout needing {band} moves: it explored {} \
                 positions, more than its bound of {max_explored}{} (fewer empty cells make \
                 smaller searches)",
                run.explored,
                run.skipped(&budget)
            )));
        }
    }
    Err(Error::unsupported(format!(
        "found no {spec} layout needing {band} moves in {max_attempts} tries, its bound of \
         layouts{}; try another band",
        run.skipped(&budget)
    )))
}

/// What a generator run used of its bounds, over all attempts.
struct Run {
    /// Positions explored.
    explored: usize,
    max_explored: usize,
    /// Layouts skipped because their component is over [`MAX_COMPONENT`] positions.
    too_big: u32,
    /// Layouts skipped because their search would hold more than the budget's bytes.
    too_heavy: u32,
}

impl Run {
    /// The skipped layouts for a message: `""` when none were.
    fn skipped(&self, budget: &crate::budget::Budget) -> String {
        let mut parts = Vec::new();
        if self.too_heavy > 0 {
            parts.push(format!(
                "{} over the {:.1} MB memory bound",
                self.too_heavy,
                budget.max_bytes as f64 / (1u64 << 20) as f64
            ));
        }
        if self.too_big > 0 {
            parts.push(format!("{} over {MAX_COMPONENT} positions", self.too_big));
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!("; layouts skipped: {}", parts.join(", "))
        }
    }
}

/// A uniformly drawn set bit of `mask` (which must not be empty).
fn pick_bit(rng: &mut impl RngCore, mask: u64) -> u32 {
    let k = rng::below(rng, mask.count_ones() as u64);
    let mut m = mask;
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros()
}

/// Random walls and pieces (C not at the exit); `None` if something did not fit.
fn place(spec: &GenSpec, rng: &mut impl RngCore) -> Option<Board> {
    let (w, h) = (spec.width as u32, spec.height as u32);
    let exit = (h - 2) * w + (w - 2) / 2;
    let bare = Geom::new(w, h, 0);
    let exit_cells = bare.shape_mask(2, 2) << exit;
    let mut walls = 0u64;
    for _ in 0..spec.walls {
        let free = super::board::all_cells(w, h) & !walls & !exit_cells;
        if free == 0 {
            return None;
        }
        walls |= 1u64 << pick_bit(rng, free);
    }
    let g = Geom::new(w, h, walls);
    let mut occ = walls;
    let mut pieces = Vec::new();
    let mut put =
        |sh: u32, sw: u32, letter: char, not: u64, rng: &mut dyn RngCore, occ: &mut u64| {
            let free = g.valid_anchors(sh, sw) & !super::board::spread(*occ, sh, sw, w) & !not;
            if free == 0 {
                return false;
            }
            let mut r = rng;
            let a = pick_bit(&mut r, free);
            *occ |= g.shape_mask(sh, sw) << a;
            pieces.push(Piece {
                letter,
                row: (a / w) as u8,
                col: (a % w) as u8,
                height: sh as u8,
                width: sw as u8,
            });
            true
        };
    if !put(2, 2, GOAL, 1u64 << exit, rng, &mut occ) {
        return None;
    }
    for i in 0..spec.generals {
        let vertical = rng::below(rng, 2) == 0;
        let (sh, sw) = if vertical { (2, 1) } else { (1, 2) };
        if !put(sh, sw, letter(i as usize), 0, rng, &mut occ) {
            return None;
        }
    }
    for i in 0..spec.soldiers {
        if !put(1, 1, letter((spec.generals + i) as usize), 0, rng, &mut occ) {
            return None;
        }
    }
    Board::new(w as usize, h as usize, walls, pieces).ok()
}

/// The `i`-th piece letter: a–z, then A–Z without C.
fn letter(i: usize) -> char {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABDEFGHIJKLMNOPQRSTUVWXYZ";
    LETTERS[i.min(LETTERS.len() - 1)] as char
}

/// The canonical forms of the classic layouts (up to lettering and mirroring).
pub(super) fn classic_forms() -> &'static HashSet<String> {
    static FORMS: OnceLock<HashSet<String>> = OnceLock::new();
    FORMS.get_or_init(|| {
        classics()
            .iter()
            .map(|c| c.parse_board().canonical())
            .collect()
    })
}

/// One attempt from a random layout: a position of the layout's component in the band (and
/// its optimal count), if there is one.
struct Attempt<'a, R> {
    layout: &'a Board,
    band: Band,
    rng: &'a mut R,
    /// Positions explored and layouts skipped so far, over all attempts.
    run: &'a mut Run,
    budget: &'a crate::budget::Budget,
}

impl<R: RngCore> Visit for Attempt<'_, R> {
    type Out = Result<Option<(Board, u32)>>;

    fn visit<S: Space>(self, s: &S) -> Result<Option<(Board, u32)>> {
        let rng = self.rng;
        let mut meter = crate::budget::Meter::new(self.budget.max_bytes);
        // The whole component, with each position's neighbours (compressed rows).
        let mut index = IndexMap::<S::K>::new();
        let mut states: Vec<S::K> = Vec::new();
        let mut solved: Vec<bool> = Vec::new();
        let mut edges: Vec<u32> = Vec::new();
        let mut first_edge: Vec<u32> = Vec::new();
        let k0 = s.key_of(self.layout);
        let mut fits = meter.charge(index.bytes()).is_ok()
            && meter.push(&mut first_edge, 0).is_ok()
            && meter.push(&mut states, k0).is_ok()
            && meter.push(&mut solved, s.is_goal(k0)).is_ok();
        index.get_or_insert(k0, 0);
        let mut head = 0;
        while fits && head < states.len() {
            if head & 1023 == 0 {
                self.budget.check("the Klotski generator")?;
            }
            if states.len() > MAX_COMPONENT || self.run.explored + states.len() > self.run.max_explored
            {
                if states.len() > MAX_COMPONENT {
                    self.run.too_big += 1;
                }
                self.run.explored += states.len();
                return Ok(None);
            }
            s.expand(states[head], Metric::Piece, NO_SKIP, |k, goal, _| {
                let r = index
                    .get_or_insert_metered(k, states.len() as u32, &mut meter)
                    .and_then(|(j, new)| {
                        if new {
                            meter.push(&mut states, k)?;
                            meter.push(&mut solved, goal)?;
                        }
                        meter.push(&mut edges, j)
                    });
                fits = r.is_ok();
                !fits
            });
            fits = fits && meter.push(&mut first_edge, edges.len() as u32).is_ok();
            head += 1;
        }
        // Every position's distance to the nearest solved one (the distances and the queue
        // are one u32 per position each).
        fits = fits && meter.charge(states.len() * 8).is_ok();
        self.run.explored += states.len();
        if !fits {
            // Too large for the memory bound: skipped like a component over MAX_COMPONENT.
            self.run.too_heavy += 1;
            return Ok(None);
        }
        let mut dist = vec![u32::MAX; states.len()];
        let mut queue: Vec<u32> = (0..states.len() as u32)
            .filter(|&i| solved[i as usize])
            .collect();
        for &q in &queue {
            dist[q as usize] = 0;
        }
        let mut qh = 0;
        while qh < queue.len() {
            let i = queue[qh] as usize;
            qh += 1;
            for &t in &edges[first_edge[i] as usize..first_edge[i + 1] as usize] {
                if dist[t as usize] == u32::MAX {
                    dist[t as usize] = dist[i] + 1;
                    queue.push(t);
                }
            }
        }
        // Draw the count first (uniformly among the counts in the band this component
        // has), then a position with that count, so the whole band is used evenly rather than
        // mostly its most common counts.
        let mut by_count: std::collections::BTreeMap<u32, Vec<u32>> = Default::default();
        for (i, &d) in dist.iter().enumerate() {
            if d != u32::MAX && self.band.contains(d) {
                by_count.entry(d).or_default().push(i as u32);
            }
        }
        let mut counts: Vec<u32> = by_count.keys().copied().collect();
        while !counts.is_empty() {
            let ci = rng::below(rng, counts.len() as u64) as usize;
            let Some(group) = by_count.get_mut(&counts[ci]) else {
                return Ok(None);
            };
            let pick = rng::below(rng, group.len() as u64) as usize;
            let mirror = rng::below(rng, 2) == 1 && s.model().symmetric;
            let chosen = group[pick] as usize;
            let board = s
                .model()
                .board_of(self.layout, &s.placements(states[chosen]), mirror);
            if !classic_forms().contains(&board.canonical()) {
                return Ok(Some((board, dist[chosen])));
            }
            group.swap_remove(pick);
            if group.is_empty() {
                counts.swap_remove(ci);
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;

    /// A run stopped by its bound on positions or on layouts is `unsupported` (too large
    /// for the app), its message naming the bound; `out_of_range` is for specs and bands.
    #[test]
    fn a_generator_stopped_by_its_bounds_is_unsupported_and_says_which() {
        let big = GenSpec::parse("8x8:g12s20").unwrap();
        let band = Band::parse("1+").unwrap();
        let e = generate_bounded(&big, band, 2, MAX_ATTEMPTS, 20_000).unwrap_err();
        assert_eq!(e.code, ErrorCode::Unsupported, "{e}");
        assert!(
            e.message.contains("more than its bound of 20000"),
            "{}",
            e.message
        );
        // Layouts over the memory bound are named (a 1 MB budget: every 8×8 layout).
        let tight = crate::budget::Budget::new(1 << 20, crate::Cancel::new());
        let e = crate::budget::scoped(tight, || {
            generate_bounded(&big, band, 2, MAX_ATTEMPTS, 200_000)
        })
        .unwrap_err();
        assert_eq!(e.code, ErrorCode::Unsupported, "{e}");
        assert!(
            e.message.contains("over the 1.0 MB memory bound"),
            "{}",
            e.message
        );
        // No small 4×4 layout needs 150 moves: the attempts run out.
        let small = GenSpec::parse("4x4:g3s3").unwrap();
        let e = generate_bounded(&small, Band::parse("150+").unwrap(), 1, 5, MAX_EXPLORED)
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::Unsupported, "{e}");
        assert!(e.message.contains("in 5 tries"), "{}", e.message);
        // A spec outside the generator's limits stays out of range.
        let wide = GenSpec {
            width: 10,
            ..GenSpec::standard()
        };
        let e = generate_bounded(&wide, band, 1, MAX_ATTEMPTS, MAX_EXPLORED).unwrap_err();
        assert_eq!(e.code, ErrorCode::OutOfRange, "{e}");
    }

    #[test]
    fn gen_spec_parse_takes_any_text_without_panicking() {
        assert_eq!(GenSpec::parse("g5s4").unwrap(), GenSpec::standard());
        let s = GenSpec::parse("6x5:g6s6w2").unwrap();
        assert_eq!((s.width, s.height, s.walls), (6, 5, 2));
        // Multi-byte characters anywhere, digits after them, empty parts, huge numbers.
        for text in [
            "é",
            "é1",
            "gé",
            "g1é",
            "g5s4é",
            "g5s4w1é9",
            "ég5s4",
            "g5ü4",
            "6x5:é",
            "é:g5s4",
            "g",
            "g5s",
            "",
            "g999s4",
            "g5s4g5",
            "x5:g5s4",
            "6x:g5s4",
            "g5 s4",
            "s4g5w",
        ] {
            let err = GenSpec::parse(text).unwrap_err();
            assert!(
                matches!(err.code, ErrorCode::Parse | ErrorCode::OutOfRange),
                "{text:?}: {err:?}"
            );
        }
        assert_eq!(GenSpec::parse("é").unwrap_err().code, ErrorCode::Parse);
        // The ID: opening it and encoding it are typed parse errors.
        let id = "klotski:10-30:é#1";
        let open = crate::session::Session::<super::super::Klotski>::open(id);
        assert_eq!(open.unwrap_err().code, ErrorCode::Parse);
        let err = crate::code::encode(id).unwrap_err();
        assert_eq!(err.code, ErrorCode::Parse);
        assert!(err.message.contains("variant \"é\""), "{}", err.message);
    }
}
