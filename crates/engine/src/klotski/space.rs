//! Positions as packed canonical keys, and their moves.
//!
//! Pieces of the same shape are interchangeable, so a position is, for each *class* of
//! pieces (C alone, then one class per other shape), the set of their anchors (top-left
//! cells). Two packings:
//!
//! - **Mask keys** (the usual case): each class is a bit field — a class of one piece holds
//!   its anchor's index, a larger class the bit mask of its anchors (one bit per cell up to
//!   the highest cell the shape can stand on). On 4×5: C 4 bits, soldiers 20, horizontal
//!   generals 19, vertical ones 16 — every standard set fits a `u64`. A move
//!   changes one field, so a child's key is the parent's key XOR a two-bit (or index) delta:
//!   no sorting, no repacking. On a board whose walls are left-right symmetric, the key of
//!   the mirror image is carried along the same way and the smaller of the two is the
//!   canonical key, so a position and its mirror image are one.
//! - **Slot keys** (boards with so many classes that masks would not fit 128 bits): the
//!   anchors sorted inside each class, packed at `⌈log2 cells⌉` bits each.
//!
//! Moves come from bit-parallel floods over a `u64` mask of the anchors a piece may occupy
//! (see [`Geom::flood`]).

use super::board::{spread, Board, Geom, Piece, GOAL};
use super::keys::{Bits, Key, Wide};
use super::board::Metric;

/// `skip` value of [`Space::expand`] that skips nothing.
pub(crate) const NO_SKIP: u32 = u32::MAX;

/// Most classes a mask key may have.
const MAX_MASK_CLASSES: usize = 16;

/// Pieces of one shape (C is a class of its own).
#[derive(Debug, Clone)]
pub(crate) struct Class {
    pub sh: u32,
    pub sw: u32,
    pub len: usize,
    /// The shape's cells anchored at cell 0.
    pub mask: u64,
    /// Anchors inside the board and off the walls.
    pub valid: u64,
    /// The anchor of the mirror image of a piece at each anchor.
    pub mirror: [u8; 64],
    /// Slot keys: the class's slots are `start..start + len`.
    pub start: usize,
    /// Mask keys: the class's field is `width` bits at `off`.
    pub off: u32,
    pub width: u32,
}

impl Class {
    /// The cells covered by pieces of this class anchored at the bits of `anchors`.
    #[inline(always)]
    fn cover(&self, anchors: u64, w: u32) -> u64 {
        let mut x = anchors;
        for dc in 1..self.sw {
            x |= anchors << dc;
        }
        let mut y = x;
        for dr in 1..self.sh {
            y |= x << (dr * w);
        }
        y
    }

    /// The anchors a piece of this class may occupy when `others` are covered.
    #[inline(always)]
    fn free(&self, others: u64, w: u32) -> u64 {
        self.valid & !spread(others, self.sh, self.sw, w)
    }
}

/// Everything a search needs to know about a board besides where the pieces stand.
#[derive(Debug, Clone)]
pub(crate) struct Model {
    pub g: Geom,
    pub classes: Vec<Class>,
    /// Number of pieces.
    pub n: usize,
    /// Bits per anchor index.
    pub bits: u32,
    /// Bits of a mask key.
    pub mask_bits: u32,
    pub symmetric: bool,
    /// C's anchor at the exit.
    pub exit: u32,
}

impl Model {
    pub fn new(board: &Board) -> Model {
        let g = board.geom();
        let cells = g.w * g.h;
        let bits = (32 - (cells - 1).leading_zeros()).max(1);
        let goal = board.goal_piece();
        let mut shapes: Vec<(u8, u8)> = board
            .pieces()
            .iter()
            .filter(|p| p.letter != GOAL)
            .map(|p| p.shape())
            .collect();
        shapes.sort_unstable();
        shapes.dedup();
        let mut all = vec![(goal.shape(), 1usize)];
        for &s in &shapes {
            let len = board
                .pieces()
                .iter()
                .filter(|p| p.letter != GOAL && p.shape() == s)
                .count();
            all.push((s, len));
        }
        let mut classes = Vec::with_capacity(all.len());
        let (mut start, mut off) = (0usize, 0u32);
        for ((sh, sw), len) in all {
            let (sh, sw) = (sh as u32, sw as u32);
            let mut mirror = [0u8; 64];
            for (a, m) in mirror.iter_mut().enumerate().take(cells as usize) {
                let (r, c) = (a as u32 / g.w, a as u32 % g.w);
                if c + sw <= g.w {
                    *m = (r * g.w + (g.w - sw - c)) as u8;
                }
            }
            // A field needs only as many bits as the highest anchor the shape can take
            // (a 2×1 piece never stands on the bottom row), so every standard 4×5 set
            // packs into 64 bits.
            let valid = g.valid_anchors(sh, sw);
            let top = 64 - valid.leading_zeros();
            let width = if len == 1 {
                (32 - top.saturating_sub(1).leading_zeros()).max(1)
            } else {
                top.max(1)
            };
            classes.push(Class {
                sh,
                sw,
                len,
                mask: g.shape_mask(sh, sw),
                valid,
                mirror,
                start,
                off,
                width,
            });
            start += len;
            off += width;
        }
        let (er, ec) = board.exit();
        Model {
            g,
            n: start,
            bits,
            mask_bits: off,
            classes,
            symmetric: board.is_mirror_symmetric(),
            exit: er as u32 * g.w + ec as u32,
        }
    }

    /// The class of a piece.
    pub fn class_of(&self, p: &Piece) -> usize {
        if p.letter == GOAL {
            return 0;
        }
        (1..self.classes.len())
            .find(|&c| {
                (self.classes[c].sh, self.classes[c].sw) == (p.height as u32, p.width as u32)
            })
            .unwrap_or(0)
    }

    fn anchor(&self, p: &Piece) -> u32 {
        p.row as u32 * self.g.w + p.col as u32
    }

    /// A board with pieces at `placements` ((class, anchor) pairs), optionally mirrored,
    /// lettered in reading order (a, b, …; C for the goal piece), on `template`'s walls.
    pub fn board_of(&self, template: &Board, placements: &[(usize, u32)], mirror: bool) -> Board {
        const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABDEFGHIJKLMNOPQRSTUVWXYZ";
        let mut placed: Vec<(u32, usize)> = placements
            .iter()
            .map(|&(c, a)| {
                (
                    if mirror {
                        self.classes[c].mirror[a as usize] as u32
                    } else {
                        a
                    },
                    c,
                )
            })
            .collect();
        placed.sort_unstable();
        let mut next = 0;
        let pieces = placed
            .into_iter()
            .map(|(a, c)| {
                let letter = if c == 0 {
                    GOAL
                } else {
                    next += 1;
                    LETTERS[(next - 1).min(LETTERS.len() - 1)] as char
                };
                let cl = &self.classes[c];
                Piece {
                    letter,
                    row: (a / self.g.w) as u8,
                    col: (a % self.g.w) as u8,
                    height: cl.sh as u8,
                    width: cl.sw as u8,
                }
            })
            .collect();
        Board::new(
            template.width(),
            template.height(),
            template.walls(),
            pieces,
        )
        .expect("a position of a valid board is a valid board")
    }
}

/// The positions of one board, packed as keys of type `K`.
pub(crate) trait Space {
    type K: Key;
    fn model(&self) -> &Model;
    /// The canonical key of a board's position.
    fn key_of(&self, board: &Board) -> Self::K;
    /// Whether C is at the exit.
    fn is_goal(&self, k: Self::K) -> bool;
    /// Call `f(canonical key of the child, child is solved, anchor of the moved piece in
    /// the child's key)` for every move of `metric` from the position `k`, except moves of
    /// the piece anchored at `skip` (`NO_SKIP` for none); stop as soon as `f` returns true.
    /// Returns whether it stopped.
    fn expand(
        &self,
        k: Self::K,
        metric: Metric,
        skip: u32,
        f: impl FnMut(Self::K, bool, u32) -> bool,
    ) -> bool;
    /// The (class, anchor) of every piece of position `k`.
    fn placements(&self, k: Self::K) -> Vec<(usize, u32)>;
}

/// Something to run with whichever [`Space`] suits a board.
pub(crate) trait Visit {
    type Out;
    fn visit<S: Space>(self, space: &S) -> Self::Out;
}

/// Run `v` with the mask space if the keys fit 128 bits (unless `force_slots`), else the
/// slot space.
pub(crate) fn with_space<V: Visit>(m: &Model, force_slots: bool, v: V) -> V::Out {
    if !force_slots && m.classes.len() <= MAX_MASK_CLASSES {
        if m.mask_bits <= 64 {
            return v.visit(&MaskSpace::<u64> {
                m,
                _k: std::marker::PhantomData,
            });
        }
        if m.mask_bits <= 128 {
            return v.visit(&MaskSpace::<u128> {
                m,
                _k: std::marker::PhantomData,
            });
        }
    }
    match m.n as u32 * m.bits {
        0..=64 => v.visit(&SlotSpace::<u64> {
            m,
            _k: std::marker::PhantomData,
        }),
        65..=128 => v.visit(&SlotSpace::<u128> {
            m,
            _k: std::marker::PhantomData,
        }),
        _ => v.visit(&SlotSpace::<Wide> {
            m,
            _k: std::marker::PhantomData,
        }),
    }
}

/// Call `f(target anchor)` for every move of `metric` of a piece at `x` whose free anchors
/// are `free`; stop when `f` returns true.
#[inline(always)]
fn targets(g: &Geom, x: u32, free: u64, metric: Metric, mut f: impl FnMut(u32) -> bool) -> bool {
    let bit = 1u64 << x;
    let near = g.step(bit, free);
    if near == 0 {
        return false;
    }
    match metric {
        Metric::Unit | Metric::Piece => {
            let mut t = if metric == Metric::Unit {
                near
            } else {
                g.flood(bit | near, free) & !bit
            };
            while t != 0 {
                if f(t.trailing_zeros()) {
                    return true;
                }
                t &= t - 1;
            }
        }
        Metric::Straight => {
            for d in 0..4 {
                let mut b = x;
                while let Some(nb) = g.neighbour(b, d) {
                    if free >> nb & 1 == 0 {
                        break;
                    }
                    b = nb;
                    if f(b) {
                        return true;
                    }
                }
            }
        }
    }
    false
}

// ---------------------------------------------------------------------------------------
// Mask keys.

pub(crate) struct MaskSpace<'a, K> {
    m: &'a Model,
    _k: std::marker::PhantomData<K>,
}

impl<K: Bits> MaskSpace<'_, K> {
    /// The class masks of key `k`.
    #[inline(always)]
    fn masks(&self, k: K) -> [u64; MAX_MASK_CLASSES] {
        let mut masks = [0u64; MAX_MASK_CLASSES];
        for (c, cl) in self.m.classes.iter().enumerate() {
            let f = k.extract(cl.off, cl.width);
            masks[c] = if cl.len == 1 { 1u64 << f } else { f };
        }
        masks
    }

    /// The key of class masks, optionally of their mirror image.
    #[inline(always)]
    fn pack(&self, masks: &[u64], mirror: bool) -> K {
        let mut k = K::ZERO;
        for (c, cl) in self.m.classes.iter().enumerate() {
            let mut v = masks[c];
            if mirror {
                let mut mv = 0u64;
                while v != 0 {
                    mv |= 1u64 << cl.mirror[v.trailing_zeros() as usize];
                    v &= v - 1;
                }
                v = mv;
            }
            let f = if cl.len == 1 {
                v.trailing_zeros() as u64
            } else {
                v
            };
            k = k | K::field(f, cl.off);
        }
        k
    }

    fn canonical(&self, masks: &[u64]) -> K {
        let k = self.pack(masks, false);
        if self.m.symmetric {
            k.min(self.pack(masks, true))
        } else {
            k
        }
    }
}

impl<K: Bits> Space for MaskSpace<'_, K> {
    type K = K;
    fn model(&self) -> &Model {
        self.m
    }

    fn key_of(&self, board: &Board) -> K {
        let mut masks = [0u64; MAX_MASK_CLASSES];
        for p in board.pieces() {
            masks[self.m.class_of(p)] |= 1u64 << self.m.anchor(p);
        }
        self.canonical(&masks)
    }

    #[inline(always)]
    fn is_goal(&self, k: K) -> bool {
        k.extract(self.m.classes[0].off, self.m.classes[0].width) == self.m.exit as u64
    }

    #[inline(always)]
    fn expand(
        &self,
        k: K,
        metric: Metric,
        skip: u32,
        mut f: impl FnMut(K, bool, u32) -> bool,
    ) -> bool {
        let m = self.m;
        let g = &m.g;
        let masks = self.masks(k);
        let mk = if m.symmetric {
            self.pack(&masks, true)
        } else {
            K::ZERO
        };
        let mut occ = 0u64;
        for (c, cl) in m.classes.iter().enumerate() {
            occ |= cl.cover(masks[c], g.w);
        }
        // A child is solved if C moves to the exit, or if C is there and another piece moves.
        let solved = masks[0] == 1u64 << m.exit;
        for (c, cl) in m.classes.iter().enumerate() {
            let mut rest = masks[c];
            while rest != 0 {
                let x = rest.trailing_zeros();
                rest &= rest - 1;
                if x == skip {
                    continue;
                }
                let free = cl.free(occ ^ (cl.mask << x), g.w);
                let mx = cl.mirror[x as usize] as u32;
                let stop = targets(g, x, free, metric, |t| {
                    let mt = cl.mirror[t as usize] as u32;
                    let (d, dm) = if cl.len == 1 {
                        ((x ^ t) as u64, (mx ^ mt) as u64)
                    } else {
                        ((1u64 << x) | (1u64 << t), (1u64 << mx) | (1u64 << mt))
                    };
                    let child = k ^ K::field(d, cl.off);
                    let goal = if c == 0 { t == m.exit } else { solved };
                    if m.symmetric {
                        let mirrored = mk ^ K::field(dm, cl.off);
                        if mirrored < child {
                            return f(mirrored, goal, mt);
                        }
                    }
                    f(child, goal, t)
                });
                if stop {
                    return true;
                }
            }
        }
        false
    }

    fn placements(&self, k: K) -> Vec<(usize, u32)> {
        let masks = self.masks(k);
        let mut out = Vec::with_capacity(self.m.n);
        for (c, &mask) in masks.iter().enumerate().take(self.m.classes.len()) {
            let mut v = mask;
            while v != 0 {
                out.push((c, v.trailing_zeros()));
                v &= v - 1;
            }
        }
        out
    }
}

// ---------------------------------------------------------------------------------------
// Slot keys.

pub(crate) struct SlotSpace<'a, K> {
    m: &'a Model,
    _k: std::marker::PhantomData<K>,
}

type Slots = [u8; 64];

impl<K: Key> SlotSpace<'_, K> {
    /// The canonical key of slots `a` (sorted inside each class), and whether it is the
    /// key of the mirror image.
    fn key(&self, a: &[u8]) -> (K, bool) {
        let m = self.m;
        let k = K::pack(&a[..m.n], m.bits);
        if !m.symmetric {
            return (k, false);
        }
        let mut b = [0u8; 64];
        for cl in &m.classes {
            let s = &mut b[cl.start..cl.start + cl.len];
            for (j, x) in s.iter_mut().enumerate() {
                *x = cl.mirror[a[cl.start + j] as usize];
            }
            s.sort_unstable();
        }
        let mk = K::pack(&b[..m.n], m.bits);
        if mk < k {
            (mk, true)
        } else {
            (k, false)
        }
    }
}

impl<K: Key> Space for SlotSpace<'_, K> {
    type K = K;
    fn model(&self) -> &Model {
        self.m
    }

    fn key_of(&self, board: &Board) -> K {
        let m = self.m;
        let mut a: Slots = [0; 64];
        let mut fill = vec![0usize; m.classes.len()];
        for p in board.pieces() {
            let c = m.class_of(p);
            a[m.classes[c].start + fill[c]] = m.anchor(p) as u8;
            fill[c] += 1;
        }
        for cl in &m.classes {
            a[cl.start..cl.start + cl.len].sort_unstable();
        }
        self.key(&a).0
    }

    fn is_goal(&self, k: K) -> bool {
        let mut c = [0u8; 1];
        k.unpack(self.m.bits, &mut c);
        c[0] as u32 == self.m.exit
    }

    fn expand(
        &self,
        k: K,
        metric: Metric,
        skip: u32,
        mut f: impl FnMut(K, bool, u32) -> bool,
    ) -> bool {
        let m = self.m;
        let g = &m.g;
        let mut a: Slots = [0; 64];
        k.unpack(m.bits, &mut a[..m.n]);
        let mut occ = 0u64;
        for cl in &m.classes {
            for &x in &a[cl.start..cl.start + cl.len] {
                occ |= cl.mask << x;
            }
        }
        for (c, cl) in m.classes.iter().enumerate() {
            for i in cl.start..cl.start + cl.len {
                let x = a[i] as u32;
                if x == skip {
                    continue;
                }
                let free = cl.free(occ ^ (cl.mask << x), g.w);
                let stop = targets(g, x, free, metric, |t| {
                    let mut b = a;
                    b[i] = t as u8;
                    b[cl.start..cl.start + cl.len].sort_unstable();
                    let (key, mirrored) = self.key(&b);
                    let moved = if mirrored {
                        cl.mirror[t as usize] as u32
                    } else {
                        t
                    };
                    f(
                        key,
                        if c == 0 {
                            t == m.exit
                        } else {
                            a[0] as u32 == m.exit
                        },
                        moved,
                    )
                });
                if stop {
                    return true;
                }
            }
        }
        false
    }

    fn placements(&self, k: K) -> Vec<(usize, u32)> {
        let m = self.m;
        let mut a: Slots = [0; 64];
        k.unpack(m.bits, &mut a[..m.n]);
        let mut out = Vec::with_capacity(m.n);
        for (c, cl) in m.classes.iter().enumerate() {
            for &x in &a[cl.start..cl.start + cl.len] {
                out.push((c, x as u32));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys of two boards (same piece set) in both spaces: (mask equal, slot equal).
    fn same(a: &str, b: &str) -> (bool, bool) {
        let (a, b) = (Board::parse(a).unwrap(), Board::parse(b).unwrap());
        let m = Model::new(&a);
        struct Eq<'a>(&'a Board, &'a Board);
        impl Visit for Eq<'_> {
            type Out = bool;
            fn visit<S: Space>(self, s: &S) -> bool {
                s.key_of(self.0) == s.key_of(self.1)
            }
        }
        (
            with_space(&m, false, Eq(&a, &b)),
            with_space(&m, true, Eq(&a, &b)),
        )
    }

    #[test]
    fn identical_shapes_are_interchangeable() {
        // Swap the soldiers s and u, and the generals a and b (same shape).
        assert_eq!(
            same("aCCb/aCCb/cdde/cste/u..v", "bCCa/bCCa/cdde/cute/s..v"),
            (true, true)
        );
        // Letters renamed entirely.
        assert_eq!(
            same("aCCb/aCCb/cdde/cste/u..v", "xCCy/xCCy/zwwe/zste/u..v"),
            (true, true)
        );
    }

    #[test]
    fn different_shapes_or_places_differ() {
        // The same cells covered by other shapes (a vertical general and two soldiers in
        // place of a horizontal general and two soldiers): a different position.
        let a = Board::parse("aCCb/aCCb/cdde/cste/u..v").unwrap();
        let b = Board::parse("aCCb/aCCb/cdse/cdte/u..v").unwrap();
        assert_ne!(a.canonical(), b.canonical());
        // One soldier moved.
        assert_eq!(
            same("aCCb/aCCb/cdde/cste/u..v", "aCCb/aCCb/cdde/cste/.u.v"),
            (false, false)
        );
        // C and a 2×2 general swapped: C is never interchangeable.
        assert_eq!(
            same("CCaa/CCaa/..../..bb", "aaCC/aaCC/..../bb.."),
            (true, true)
        ); // mirror
        assert_eq!(
            same("CCaa/CCaa/bb../....", "aaCC/aaCC/bb../...."),
            (false, false)
        );
    }

    #[test]
    fn mirror_images_are_one_only_on_symmetric_boards() {
        assert_eq!(
            same("aCCb/aCCb/cdde/cste/u..v", "bCCa/bCCa/eddc/etsc/v..u"),
            (true, true)
        );
        assert_eq!(
            same(
                ".aCCb./.aCCb./.cdde./.cste./u...v.",
                ".bCCa./.bCCa./.eddc./.etsc./.v...u"
            ),
            (true, true)
        );
        // A wall in one corner breaks the symmetry.
        assert_eq!(
            same(
                "#aCCb./.aCCb./.cdde./.cste./u...v.",
                "#bCCa./.bCCa./.eddc./.etsc./.v...u"
            ),
            (false, false)
        );
    }

    #[test]
    fn both_spaces_expand_to_the_same_children() {
        struct Kids<'a>(&'a Board, Metric);
        impl Visit for Kids<'_> {
            type Out = Vec<Vec<(usize, u32)>>;
            fn visit<S: Space>(self, s: &S) -> Self::Out {
                let mut v = Vec::new();
                s.expand(s.key_of(self.0), self.1, NO_SKIP, |k, goal, _| {
                    assert_eq!(goal, s.is_goal(k), "the solved flag of a child");
                    let mut p = s.placements(k);
                    p.sort_unstable();
                    v.push(p);
                    false
                });
                v.sort();
                v
            }
        }
        for text in [
            "aCCb/aCCb/cdde/cste/u..v",
            "sCCt/uCCv/a.bb/a.cc/ddee",
            "#aCCb./.aCCb./.cdde./.cste./u...v.",
            "a..b/a..b/sCCt/uCCv",
            "a..b/aCCb/sCCt/u..v",
        ] {
            let b = Board::parse(text).unwrap();
            let m = Model::new(&b);
            for metric in Metric::ALL {
                // Canonical representatives may be mirror images of each other, so compare
                // each child up to mirroring.
                let norm = |v: Vec<Vec<(usize, u32)>>| -> Vec<String> {
                    let mut s: Vec<String> = v
                        .iter()
                        .map(|p| m.board_of(&b, p, false).canonical())
                        .collect();
                    s.sort();
                    s
                };
                let a = norm(with_space(&m, false, Kids(&b, metric)));
                let c = norm(with_space(&m, true, Kids(&b, metric)));
                assert_eq!(a, c, "{text} {metric:?}");
                assert!(!a.is_empty());
            }
        }
    }
}
