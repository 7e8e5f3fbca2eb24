//! The optimal solver: breadth-first search over *canonical* positions in one of three
//! counts (one piece anywhere it can go / one straight slide / one cell).
//!
//! A position is the list of anchors (top-left cells) of the pieces, grouped by *class*
//! (C alone, then every other shape) and sorted inside each class, so pieces of the same
//! shape are interchangeable: two positions that differ only by which soldier stands where
//! are one position. The list is packed into an integer key (5 bits per anchor on a 4×5
//! board: the ten standard pieces fit in 50 bits of a `u64`). On a board whose walls are
//! left-right symmetric the key of a position and of its mirror image are the same (the
//! smaller of the two), which about halves the search. The visited set is an open-addressing
//! hash table of keys; each expanded position's moves come from bit-parallel floods over a
//! `u64` mask of the anchors each piece may occupy.
//!
//! The search returns canonical keys; the moves with the real letters are recovered by
//! replaying from the real start, choosing at each step a move that leads to the next key.

use super::board::{spread, Board, Geom, GOAL};
use super::Move;
use crate::error::{Error, Result};
use crate::game::Cancel;
use serde::{Deserialize, Serialize};

/// What one move is, for counting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// One piece moves any number of cells, around corners too (the standard count).
    Piece,
    /// One piece slides any number of cells in one direction.
    Straight,
    /// One piece slides one cell.
    Unit,
}

impl Metric {
    pub const ALL: [Metric; 3] = [Metric::Piece, Metric::Straight, Metric::Unit];
    pub fn parse(s: &str) -> Option<Metric> {
        match s {
            "piece" => Some(Metric::Piece),
            "straight" => Some(Metric::Straight),
            "unit" => Some(Metric::Unit),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Metric::Piece => "piece",
            Metric::Straight => "straight",
            Metric::Unit => "unit",
        }
    }
}

/// Most positions one search may visit before it gives up (bounded memory).
pub const MAX_STATES: usize = 4_000_000;

/// An optimal solution.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SolutionInfo {
    pub metric: Metric,
    /// The moves, each one move of `metric`; `to` is the piece's new top-left cell.
    pub moves: Vec<Move>,
    /// Distinct canonical positions the search stored.
    pub states: u64,
}

impl SolutionInfo {
    /// The optimal move count.
    pub fn count(&self) -> u32 {
        self.moves.len() as u32
    }
}

/// What a search found: a solution (or none: the goal is unreachable) and its effort.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchResult {
    pub solution: Option<Vec<Move>>,
    pub states: u64,
}

/// Solve `board` optimally in `metric`. `Ok(None)` means there is no solution.
pub fn solve(board: &Board, metric: Metric, cancel: &Cancel) -> Result<Option<SolutionInfo>> {
    let r = search(board, metric, cancel)?;
    Ok(r.solution.map(|moves| SolutionInfo {
        metric,
        moves,
        states: r.states,
    }))
}

/// Solve `board` optimally in `metric`, reporting the effort even when there is no solution.
pub fn search(board: &Board, metric: Metric, cancel: &Cancel) -> Result<SearchResult> {
    search_with_limit(board, metric, cancel, MAX_STATES)
}

/// [`search`] with an explicit bound on stored positions.
pub fn search_with_limit(
    board: &Board,
    metric: Metric,
    cancel: &Cancel,
    limit: usize,
) -> Result<SearchResult> {
    let model = Model::new(board);
    match model.key_width() {
        KeyWidth::W64 => model.search::<u64>(board, metric, cancel, limit),
        KeyWidth::W128 => model.search::<u128>(board, metric, cancel, limit),
        KeyWidth::Wide => model.search::<Wide>(board, metric, cancel, limit),
    }
}

// ---------------------------------------------------------------------------------------
// Keys and the visited set.

/// A packed canonical position.
pub(crate) trait Key: Copy + Eq + Ord + std::fmt::Debug {
    /// Never the key of a position (two pieces would share an anchor).
    const EMPTY: Self;
    fn pack(a: &[u8], bits: u32) -> Self;
    fn unpack(self, bits: u32, out: &mut [u8]);
    fn hash(self) -> u64;
}

#[inline(always)]
fn mix(x: u64) -> u64 {
    let x = (x ^ (x >> 31)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^ (x >> 29)
}

impl Key for u64 {
    const EMPTY: u64 = u64::MAX;
    #[inline(always)]
    fn pack(a: &[u8], bits: u32) -> u64 {
        a.iter().rev().fold(0u64, |k, &x| (k << bits) | x as u64)
    }
    #[inline(always)]
    fn unpack(self, bits: u32, out: &mut [u8]) {
        let m = (1u64 << bits) - 1;
        for (i, o) in out.iter_mut().enumerate() {
            *o = ((self >> (bits * i as u32)) & m) as u8;
        }
    }
    #[inline(always)]
    fn hash(self) -> u64 {
        mix(self)
    }
}

impl Key for u128 {
    const EMPTY: u128 = u128::MAX;
    #[inline(always)]
    fn pack(a: &[u8], bits: u32) -> u128 {
        a.iter().rev().fold(0u128, |k, &x| (k << bits) | x as u128)
    }
    #[inline(always)]
    fn unpack(self, bits: u32, out: &mut [u8]) {
        let m = (1u128 << bits) - 1;
        for (i, o) in out.iter_mut().enumerate() {
            *o = ((self >> (bits * i as u32)) & m) as u8;
        }
    }
    #[inline(always)]
    fn hash(self) -> u64 {
        mix(self as u64 ^ mix((self >> 64) as u64))
    }
}

/// Keys of boards with very many pieces: up to 70 anchors of 6 bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Wide([u64; 7]);

impl Key for Wide {
    const EMPTY: Wide = Wide([u64::MAX; 7]);
    fn pack(a: &[u8], bits: u32) -> Wide {
        let per = (64 / bits) as usize;
        let mut w = [0u64; 7];
        for (i, &x) in a.iter().enumerate() {
            w[i / per] |= (x as u64) << (bits * (i % per) as u32);
        }
        Wide(w)
    }
    fn unpack(self, bits: u32, out: &mut [u8]) {
        let per = (64 / bits) as usize;
        let m = (1u64 << bits) - 1;
        for (i, o) in out.iter_mut().enumerate() {
            *o = ((self.0[i / per] >> (bits * (i % per) as u32)) & m) as u8;
        }
    }
    fn hash(self) -> u64 {
        self.0.iter().fold(0u64, |h, &w| mix(h ^ w))
    }
}

/// An open-addressing (linear probing) set of keys, at most half full.
pub(crate) struct Table<K: Key> {
    slots: Vec<K>,
    len: usize,
    shift: u32,
}

impl<K: Key> Table<K> {
    pub fn new() -> Self {
        Table {
            slots: vec![K::EMPTY; 1 << 12],
            len: 0,
            shift: 64 - 12,
        }
    }
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.len
    }
    /// Insert `k`; true if it was not there.
    #[inline(always)]
    pub fn insert(&mut self, k: K) -> bool {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = (k.hash() >> self.shift) as usize;
        loop {
            let s = self.slots[i];
            if s == K::EMPTY {
                self.slots[i] = k;
                self.len += 1;
                return true;
            }
            if s == k {
                return false;
            }
            i = (i + 1) & mask;
        }
    }
    fn grow(&mut self) {
        let bigger = vec![K::EMPTY; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, bigger);
        self.shift -= 1;
        self.len = 0;
        for k in old {
            if k != K::EMPTY {
                self.insert(k);
            }
        }
    }
}

/// An open-addressing map from keys to `u32` values (the generator's index of positions).
pub(crate) struct IndexMap<K: Key> {
    slots: Vec<(K, u32)>,
    len: usize,
    shift: u32,
}

impl<K: Key> IndexMap<K> {
    pub fn new() -> Self {
        IndexMap {
            slots: vec![(K::EMPTY, 0); 1 << 12],
            len: 0,
            shift: 64 - 12,
        }
    }
    /// The value of `k`, inserting `v` first if `k` is new; the flag says whether it was new.
    #[inline(always)]
    pub fn get_or_insert(&mut self, k: K, v: u32) -> (u32, bool) {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = (k.hash() >> self.shift) as usize;
        loop {
            let s = self.slots[i];
            if s.0 == K::EMPTY {
                self.slots[i] = (k, v);
                self.len += 1;
                return (v, true);
            }
            if s.0 == k {
                return (s.1, false);
            }
            i = (i + 1) & mask;
        }
    }
    #[cfg(test)]
    pub fn get(&self, k: K) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = (k.hash() >> self.shift) as usize;
        loop {
            let s = self.slots[i];
            if s.0 == K::EMPTY {
                return None;
            }
            if s.0 == k {
                return Some(s.1);
            }
            i = (i + 1) & mask;
        }
    }
    fn grow(&mut self) {
        let bigger = vec![(K::EMPTY, 0); self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, bigger);
        self.shift -= 1;
        self.len = 0;
        for (k, v) in old {
            if k != K::EMPTY {
                self.get_or_insert(k, v);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// The model: classes of interchangeable pieces.

/// Pieces of one shape (C is a class of its own), stored in slots `start..start + len`.
#[derive(Debug, Clone)]
pub(crate) struct Class {
    pub start: usize,
    pub len: usize,
    pub sh: u32,
    pub sw: u32,
    /// The shape's cells anchored at cell 0.
    pub mask: u64,
    /// Anchors inside the board and off the walls.
    pub valid: u64,
    /// The anchor of the mirror image of a piece at each anchor.
    pub mirror: [u8; 64],
}

pub(crate) enum KeyWidth {
    W64,
    W128,
    Wide,
}

/// Everything a search needs to know about a board besides the pieces' places.
#[derive(Debug, Clone)]
pub(crate) struct Model {
    pub g: Geom,
    /// Number of pieces (slots).
    pub n: usize,
    /// Bits per anchor in a key.
    pub bits: u32,
    pub slot_class: Vec<u8>,
    pub classes: Vec<Class>,
    pub symmetric: bool,
    /// C's anchor at the exit.
    pub exit: u32,
}

/// A position as slots: anchors (and the letters that stand there, for replay).
pub(crate) type Slots = [u8; 64];

impl Model {
    pub fn new(board: &Board) -> Model {
        let g = board.geom();
        let goal = board.goal_piece();
        let mut shapes: Vec<(u8, u8)> = board
            .pieces()
            .iter()
            .filter(|p| p.letter != GOAL)
            .map(|p| p.shape())
            .collect();
        shapes.sort_unstable();
        shapes.dedup();
        let mut classes = Vec::new();
        let mut slot_class = Vec::new();
        let mut push = |sh: u8, sw: u8, len: usize, classes: &mut Vec<Class>| {
            let (sh, sw) = (sh as u32, sw as u32);
            let valid = g.valid_anchors(sh, sw);
            let mut mirror = [0u8; 64];
            for (a, m) in mirror.iter_mut().enumerate().take((g.w * g.h) as usize) {
                let (r, c) = (a as u32 / g.w, a as u32 % g.w);
                if c + sw <= g.w {
                    *m = (r * g.w + (g.w - sw - c)) as u8;
                }
            }
            let start = slot_class.len();
            slot_class.extend(std::iter::repeat(classes.len() as u8).take(len));
            classes.push(Class {
                start,
                len,
                sh,
                sw,
                mask: g.shape_mask(sh, sw),
                valid,
                mirror,
            });
        };
        push(goal.height, goal.width, 1, &mut classes);
        for &(sh, sw) in &shapes {
            let len = board
                .pieces()
                .iter()
                .filter(|p| p.letter != GOAL && p.shape() == (sh, sw))
                .count();
            push(sh, sw, len, &mut classes);
        }
        let cells = g.w * g.h;
        let bits = (32 - (cells - 1).leading_zeros()).max(1);
        let (er, ec) = board.exit();
        Model {
            g,
            n: slot_class.len(),
            bits,
            slot_class,
            classes,
            symmetric: board.is_mirror_symmetric(),
            exit: er as u32 * g.w + ec as u32,
        }
    }

    pub fn key_width(&self) -> KeyWidth {
        match self.n as u32 * self.bits {
            0..=64 => KeyWidth::W64,
            65..=128 => KeyWidth::W128,
            _ => KeyWidth::Wide,
        }
    }

    /// The slots of `board`: anchors sorted inside each class, with the letters alongside.
    pub fn slots(&self, board: &Board) -> (Slots, [char; 64]) {
        let mut a = [0u8; 64];
        let mut letters = [' '; 64];
        let goal = board.goal_piece();
        a[0] = (goal.row as u32 * self.g.w + goal.col as u32) as u8;
        letters[0] = GOAL;
        for cl in &self.classes[1..] {
            let mut v: Vec<(u8, char)> = board
                .pieces()
                .iter()
                .filter(|p| p.letter != GOAL && p.shape() == (cl.sh as u8, cl.sw as u8))
                .map(|p| ((p.row as u32 * self.g.w + p.col as u32) as u8, p.letter))
                .collect();
            v.sort_unstable();
            for (j, (anchor, letter)) in v.into_iter().enumerate() {
                a[cl.start + j] = anchor;
                letters[cl.start + j] = letter;
            }
        }
        (a, letters)
    }

    /// The canonical key of slots `a` (sorted inside each class).
    #[inline(always)]
    pub fn key<K: Key>(&self, a: &[u8]) -> K {
        let k = K::pack(&a[..self.n], self.bits);
        if !self.symmetric {
            return k;
        }
        let mut m = [0u8; 64];
        for cl in &self.classes {
            let s = &mut m[cl.start..cl.start + cl.len];
            for (j, x) in s.iter_mut().enumerate() {
                *x = cl.mirror[a[cl.start + j] as usize];
            }
            insertion_sort(s);
        }
        k.min(K::pack(&m[..self.n], self.bits))
    }

    /// Slots `a` with the piece in slot `i` moved to `t`, re-sorted inside its class.
    #[inline(always)]
    pub fn child(&self, a: &Slots, i: usize, t: u32) -> Slots {
        let mut b = *a;
        b[i] = t as u8;
        let cl = &self.classes[self.slot_class[i] as usize];
        let mut j = i;
        while j > cl.start && b[j - 1] > b[j] {
            b.swap(j - 1, j);
            j -= 1;
        }
        while j + 1 < cl.start + cl.len && b[j + 1] < b[j] {
            b.swap(j, j + 1);
            j += 1;
        }
        b
    }

    /// Cells covered by the pieces of `a`.
    #[inline(always)]
    pub fn occupancy(&self, a: &[u8]) -> u64 {
        let mut occ = 0u64;
        for cl in &self.classes {
            for &x in &a[cl.start..cl.start + cl.len] {
                occ |= cl.mask << x;
            }
        }
        occ
    }

    /// Call `f(slot, new anchor)` for every move of `metric` from `a`; stop when `f` says so.
    /// Returns whether it was stopped.
    #[inline(always)]
    pub fn expand(&self, a: &[u8], metric: Metric, mut f: impl FnMut(usize, u32) -> bool) -> bool {
        let g = &self.g;
        let occ = self.occupancy(a);
        for cl in &self.classes {
            for (i, &x) in a.iter().enumerate().take(cl.start + cl.len).skip(cl.start) {
                let own = cl.mask << x;
                let bit = 1u64 << x;
                let free = cl.valid & !spread(occ ^ own, cl.sh, cl.sw, g.w);
                let near = g.step(bit, free);
                if near == 0 {
                    continue;
                }
                match metric {
                    Metric::Unit => {
                        let mut t = near;
                        while t != 0 {
                            if f(i, t.trailing_zeros()) {
                                return true;
                            }
                            t &= t - 1;
                        }
                    }
                    Metric::Piece => {
                        let mut t = g.flood(bit | near, free) & !bit;
                        while t != 0 {
                            if f(i, t.trailing_zeros()) {
                                return true;
                            }
                            t &= t - 1;
                        }
                    }
                    Metric::Straight => {
                        for d in 0..4 {
                            let mut b = x as u32;
                            while let Some(nb) = g.neighbour(b, d) {
                                if free >> nb & 1 == 0 {
                                    break;
                                }
                                b = nb;
                                if f(i, b) {
                                    return true;
                                }
                            }
                        }
                    }
                }
            }
        }
        false
    }

    fn search<K: Key>(
        &self,
        board: &Board,
        metric: Metric,
        cancel: &Cancel,
        limit: usize,
    ) -> Result<SearchResult> {
        let (start, _) = self.slots(board);
        if start[0] as u32 == self.exit {
            return Ok(SearchResult {
                solution: Some(Vec::new()),
                states: 1,
            });
        }
        let mut table = Table::<K>::new();
        let mut states: Vec<K> = Vec::with_capacity(1 << 12);
        let mut parent: Vec<u32> = Vec::with_capacity(1 << 12);
        let k0 = self.key::<K>(&start);
        table.insert(k0);
        states.push(k0);
        parent.push(u32::MAX);
        let mut head = 0usize;
        let mut found = None;
        let mut a: Slots = [0; 64];
        while head < states.len() {
            if head & 1023 == 0 && cancel.is_cancelled() {
                return Err(Error::cancelled());
            }
            if states.len() > limit {
                return Err(Error::range(format!(
                    "search gave up after {} positions (the limit is {limit})",
                    states.len()
                )));
            }
            states[head].unpack(self.bits, &mut a[..self.n]);
            let stopped = self.expand(&a, metric, |i, t| {
                let b = self.child(&a, i, t);
                let k = self.key::<K>(&b);
                if table.insert(k) {
                    states.push(k);
                    parent.push(head as u32);
                    if i == 0 && t == self.exit {
                        found = Some(states.len() - 1);
                        return true;
                    }
                }
                false
            });
            if stopped {
                break;
            }
            head += 1;
        }
        let n_states = states.len() as u64;
        let Some(mut j) = found else {
            return Ok(SearchResult {
                solution: None,
                states: n_states,
            });
        };
        let mut keys = vec![states[j]];
        while parent[j] != u32::MAX {
            j = parent[j] as usize;
            keys.push(states[j]);
        }
        keys.reverse();
        let moves = self.replay(board, metric, &keys)?;
        Ok(SearchResult {
            solution: Some(moves),
            states: n_states,
        })
    }

    /// The real moves (with the board's letters) that follow a chain of canonical keys.
    fn replay<K: Key>(&self, board: &Board, metric: Metric, keys: &[K]) -> Result<Vec<Move>> {
        let mut cur = board.clone();
        let mut moves = Vec::with_capacity(keys.len().saturating_sub(1));
        for next in &keys[1..] {
            let (a, letters) = self.slots(&cur);
            let mut step = None;
            self.expand(&a, metric, |i, t| {
                if self.key::<K>(&self.child(&a, i, t)) == *next {
                    step = Some((letters[i], t));
                    return true;
                }
                false
            });
            let (letter, t) = step.ok_or_else(|| {
                Error::new(
                    crate::ErrorCode::Unsolvable,
                    "internal: solution chain broken",
                )
            })?;
            let to = ((t / self.g.w) as u8, (t % self.g.w) as u8);
            let i = cur
                .pieces()
                .iter()
                .position(|p| p.letter == letter)
                .unwrap_or(0);
            cur.set_pos(i, to);
            moves.push(Move { piece: letter, to });
        }
        Ok(moves)
    }
}

#[inline(always)]
fn insertion_sort(s: &mut [u8]) {
    for i in 1..s.len() {
        let mut j = i;
        while j > 0 && s[j - 1] > s[j] {
            s.swap(j - 1, j);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(b: &str) -> (u64, Model) {
        let board = Board::parse(b).unwrap();
        let m = Model::new(&board);
        let (a, _) = m.slots(&board);
        (m.key::<u64>(&a), m)
    }

    #[test]
    fn identical_shapes_are_interchangeable() {
        // Swap the soldiers s and u, and the generals a and b (same shape).
        let (k1, _) = key("aCCbaCCbcddecsteu..v");
        let (k2, _) = key("bCCa/bCCa/cdde/cute/s..v");
        assert_eq!(k1, k2);
        // Letters renamed entirely: the same position.
        let (k3, _) = key("xCCyxCCyzwwezsteu..v");
        assert_eq!(k1, k3);
    }

    #[test]
    fn different_shapes_differ() {
        // A horizontal general and two soldiers swapped with a vertical general and two soldiers.
        let (k1, _) = key("aCCbaCCbcddecsteu..v");
        let (k2, _) = key("aCCb/aCCb/cdse/cdte/u..v");
        assert_ne!(k1, k2);
        // Moving one soldier changes the position.
        let (k3, _) = key("aCCbaCCbcddecste.u.v");
        assert_ne!(k1, k3);
    }

    #[test]
    fn mirror_images_share_a_key_only_on_symmetric_boards() {
        let (k1, m) = key("aCCbaCCbcddecsteu..v");
        assert!(m.symmetric);
        // Left-right mirror of the above (d moves, s/t swap sides).
        let (k2, _) = key("bCCabCCaeddcetscv..u");
        assert_eq!(k1, k2);
        // The same on a 6-wide board; then with a wall in one corner, which breaks the symmetry.
        let (k3, _) = key(".aCCb./.aCCb./.cdde./.cste./u...v.");
        let (k4, _) = key(".bCCa./.bCCa./.eddc./.etsc./.v...u");
        assert_eq!(k3, k4);
        let (k3, m3) = key("#aCCb./.aCCb./.cdde./.cste./u...v.");
        assert!(!m3.symmetric);
        let (k4, _) = key("#bCCa./.bCCa./.eddc./.etsc./.v...u");
        assert_ne!(k3, k4);
    }

    #[test]
    fn keys_round_trip_through_packing() {
        let board = Board::parse("aCCbaCCbcddecsteu..v").unwrap();
        let m = Model::new(&board);
        let (a, _) = m.slots(&board);
        // Every bit width a board can need (3×3 = 4 bits … 8×8 = 6 bits).
        for bits in [5u32, 6] {
            let k = u64::pack(&a[..m.n], bits);
            let mut out = [0u8; 64];
            k.unpack(bits, &mut out[..m.n]);
            assert_eq!(out[..m.n], a[..m.n]);
            let k = u128::pack(&a[..m.n], bits);
            k.unpack(bits, &mut out[..m.n]);
            assert_eq!(out[..m.n], a[..m.n]);
            let k = Wide::pack(&a[..m.n], bits);
            k.unpack(bits, &mut out[..m.n]);
            assert_eq!(out[..m.n], a[..m.n]);
        }
    }

    #[test]
    fn table_sets_and_maps() {
        let mut t = Table::<u64>::new();
        for i in 0..10_000u64 {
            assert!(t.insert(i * 7919));
        }
        for i in 0..10_000u64 {
            assert!(!t.insert(i * 7919));
        }
        assert_eq!(t.len(), 10_000);
        let mut m = IndexMap::<u128>::new();
        for i in 0..5000u128 {
            assert_eq!(m.get_or_insert(i << 70, i as u32), (i as u32, true));
        }
        assert_eq!(m.get(7 << 70), Some(7));
        assert_eq!(m.get(5001 << 70), None);
        assert_eq!(m.get_or_insert(7 << 70, 99), (7, false));
    }
}
