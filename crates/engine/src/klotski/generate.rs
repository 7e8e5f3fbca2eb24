//! The level generator: new solvable layouts whose optimal piece-move count lies in a band.
//!
//! One attempt: place the piece set at random (seeded), then explore the whole set of
//! positions reachable from that layout (its *component*: moves are reversible, so every
//! position in it reaches every other) with one breadth-first search by piece moves over
//! canonical positions, keeping each position's neighbours. A second, multi-source search
//! from every solved position of the component gives every position's exact optimal count
//! (distance to the nearest solved position). A position with a count in the band is drawn
//! at random — so the count is known, not estimated — skipping the 40 classics (up to mirror).
//! If the component has none, the next attempt places the pieces again.
//!
//! Reproducible forever: all randomness comes from `rng::stream(seed, "klotski")` through
//! `rng::below`, and the searches visit positions in a fixed order. Changing anything here
//! changes every seeded Klotski level (daily challenges included).

use super::board::{Board, Geom, Piece, GOAL, MAX_SIDE, MIN_SIDE};
use super::levels::classics;
use super::solver::{IndexMap, Key, KeyWidth, Metric, Model, Slots, Wide};
use crate::error::{Error, Result};
use crate::rng::{self, RngCore};
use std::collections::HashSet;
use std::sync::OnceLock;

/// Attempts (random placements) before the generator gives up.
pub const MAX_ATTEMPTS: u32 = 400;
/// Largest component explored in one attempt; bigger ones are skipped.
pub const MAX_COMPONENT: usize = 1_500_000;

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
        let mut chars = rest.char_indices().peekable();
        while let Some((i, ch)) = chars.next() {
            let mut j = i + 1;
            while let Some(&(k, d)) = chars.peek() {
                if !d.is_ascii_digit() {
                    break;
                }
                j = k + 1;
                chars.next();
            }
            let n: u8 = rest[i + 1..j].parse().map_err(|_| bad())?;
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
    spec.check()?;
    let mut rng = rng::stream(seed, "klotski");
    for _ in 0..MAX_ATTEMPTS {
        let Some(layout) = place(spec, &mut rng) else {
            continue;
        };
        let model = Model::new(&layout);
        let found = match model.key_width() {
            KeyWidth::W64 => attempt::<u64>(&model, &layout, band, &mut rng),
            KeyWidth::W128 => attempt::<u128>(&model, &layout, band, &mut rng),
            KeyWidth::Wide => attempt::<Wide>(&model, &layout, band, &mut rng),
        };
        if let Some(board) = found {
            return Ok(board);
        }
    }
    Err(Error::range(format!(
        "found no {spec} layout needing {band} moves in {MAX_ATTEMPTS} tries; try another band"
    )))
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

fn classic_forms() -> &'static HashSet<String> {
    static FORMS: OnceLock<HashSet<String>> = OnceLock::new();
    FORMS.get_or_init(|| {
        classics()
            .iter()
            .map(|c| c.parse_board().canonical())
            .collect()
    })
}

/// One attempt from a random layout: a position of the layout's component in `band`, if any.
fn attempt<K: Key>(
    model: &Model,
    layout: &Board,
    band: Band,
    rng: &mut impl RngCore,
) -> Option<Board> {
    let (start, _) = model.slots(layout);
    let mut index = IndexMap::<K>::new();
    let mut states: Vec<K> = Vec::new();
    let mut solved: Vec<bool> = Vec::new();
    let mut edges: Vec<u32> = Vec::new();
    let mut first_edge: Vec<u32> = vec![0];
    let k0 = model.key::<K>(&start);
    index.get_or_insert(k0, 0);
    states.push(k0);
    solved.push(start[0] as u32 == model.exit);
    let mut a: Slots = [0; 64];
    let mut head = 0;
    while head < states.len() {
        if states.len() > MAX_COMPONENT {
            return None;
        }
        states[head].unpack(model.bits, &mut a[..model.n]);
        model.expand(&a, Metric::Piece, |i, t| {
            let b = model.child(&a, i, t);
            let k = model.key::<K>(&b);
            let (j, new) = index.get_or_insert(k, states.len() as u32);
            if new {
                states.push(k);
                solved.push(b[0] as u32 == model.exit);
            }
            edges.push(j);
            false
        });
        first_edge.push(edges.len() as u32);
        head += 1;
    }
    // Distance of every position to the nearest solved one.
    let mut dist = vec![u32::MAX; states.len()];
    let mut queue: Vec<u32> = (0..states.len() as u32)
        .filter(|&i| solved[i as usize])
        .collect();
    if queue.is_empty() {
        return None;
    }
    for &q in &queue {
        dist[q as usize] = 0;
    }
    let mut qh = 0;
    while qh < queue.len() {
        let s = queue[qh] as usize;
        qh += 1;
        for &t in &edges[first_edge[s] as usize..first_edge[s + 1] as usize] {
            if dist[t as usize] == u32::MAX {
                dist[t as usize] = dist[s] + 1;
                queue.push(t);
            }
        }
    }
    let mut candidates: Vec<u32> = (0..states.len() as u32)
        .filter(|&i| band.contains(dist[i as usize]))
        .collect();
    while !candidates.is_empty() {
        let pick = rng::below(rng, candidates.len() as u64) as usize;
        let mirror = rng::below(rng, 2) == 1;
        let board = decode(
            model,
            layout,
            states[candidates[pick] as usize],
            mirror && model.symmetric,
        );
        if !classic_forms().contains(&board.canonical()) {
            return Some(board);
        }
        candidates.swap_remove(pick);
    }
    None
}

/// The board of a canonical key (optionally mirrored), letters in reading order.
fn decode<K: Key>(model: &Model, layout: &Board, key: K, mirror: bool) -> Board {
    let mut a: Slots = [0; 64];
    key.unpack(model.bits, &mut a[..model.n]);
    let w = model.g.w;
    let mut placed: Vec<(u32, u8, u8, bool)> = Vec::new();
    for cl in &model.classes {
        for &x in &a[cl.start..cl.start + cl.len] {
            let x = if mirror {
                cl.mirror[x as usize] as u32
            } else {
                x as u32
            };
            placed.push((x, cl.sh as u8, cl.sw as u8, cl.start == 0));
        }
    }
    placed.sort_unstable();
    let mut next = 0;
    let pieces = placed
        .into_iter()
        .map(|(x, sh, sw, goal)| {
            let l = if goal {
                GOAL
            } else {
                next += 1;
                letter(next - 1)
            };
            Piece {
                letter: l,
                row: (x / w) as u8,
                col: (x % w) as u8,
                height: sh,
                width: sw,
            }
        })
        .collect();
    Board::new(layout.width(), layout.height(), layout.walls(), pieces)
        .expect("a reachable position of a valid layout is a valid board")
}
