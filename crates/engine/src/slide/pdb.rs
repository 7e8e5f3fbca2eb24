//! Optimal search for the boards too big for an exact table but small enough for IDA*
//! (4×4, 3×4, 4×3, 3×5, 5×3, 2×6, 6×2): IDA* guided by additive disjoint pattern databases.
//!
//! # Pattern databases
//! The tiles are split into disjoint groups of at most six. A group's table holds, for every
//! placement of its tiles, the fewest moves *of those tiles* that bring them home, where the
//! other tiles are indistinguishable and the blank's position counts (moves of other tiles are
//! free). Because each move moves one tile of one group, the sum over the groups is an
//! admissible heuristic. A table is indexed by the partial Lehmer code of its tiles' cells
//! (`n!/(n−k)!` entries for `k` tiles on `n` cells, one byte each).
//!
//! The table is built by a breadth-first search over (placement, blank region): the blank moves
//! freely within the connected region of cells not covered by the group, so one search state
//! stands for every blank cell of a region, and only moves of group tiles cost 1.
//!
//! On square boards the search also looks the tables up for the board reflected about the
//! diagonal through the blank's goal cell (it has the same distance) and uses the larger of
//! the two values (Korf & Felner's reflection lookup). The 4×4 partition is 6-6-3:
//! {1,5,6,9,10,13} (left), {7,8,11,12,14,15} (around the blank), {2,3,4} (top row); among the
//! partitions tried it needed the fewest nodes (Korf 1–50: 13.2 M; the classic left/right
//! 6-6 blocks with the bottom row as the 3-group need about three times as many).
//!
//! The breadth-first search of a table splits the placements into buckets by the cells of
//! their first two tiles and expands a layer bucket by bucket, so the memory it touches stays
//! in cache; that makes the one-off build several times faster.
//!
//! # Memory
//! 4×4: two tables of 16·15·…·11 bytes and one of 16·15·14 (11.5 MB); 3×5 and 5×3: 7.3 MB;
//! 3×4, 4×3, 2×6, 6×2: 0.7 MB.
//! Each size's tables are built once per process, on first use.

use super::board::Board;
use crate::error::{Error, Result};
use crate::game::Cancel;
use std::borrow::Cow;
use std::sync::OnceLock;
use crate::clock::Deadline;

/// Most cells a board may have for this search (positions fit a nibble).
pub const MAX_CELLS: usize = 16;
/// Largest group of tiles.
const MAX_GROUP: usize = 6;
const UNSEEN: u8 = u8::MAX;
/// First bytes of [`PdbSet::to_bytes`].
const MAGIC: &[u8; 8] = b"HRSLPDB1";
/// Cross-bucket successors queued per bucket before they are checked anyway.
const INBOX_FLUSH: usize = 4096;

/// The sizes solved optimally by this search, in slot order.
const SIZES: [(usize, usize); 7] = [(4, 4), (3, 4), (4, 3), (3, 5), (5, 3), (2, 6), (6, 2)];

static SETS: [OnceLock<PdbSet>; 7] = [
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
];

/// Whether `w`×`h` is solved optimally by IDA* with pattern databases.
pub fn has_pdb(w: usize, h: usize) -> bool {
    SIZES.contains(&(w, h))
}

/// The 4×4 tables, as written by `huarong slide tables --size 4x4 --out …` (2.9 MB): loading
/// them takes milliseconds where building takes seconds. If they ever fail to load (a new
/// partition without regenerated data), the tables are built instead. Only with the
/// `embedded-pdb4x4` feature (on by default); without it (the web build, whose first load must
/// stay small) the bytes are handed over at run time by [`install_pdb4x4`].
#[cfg(feature = "embedded-pdb4x4")]
static EMBEDDED_4X4: &[u8] = include_bytes!("pdb4x4.bin");

/// The pattern databases of `w`×`h`, loaded or built on first use and cached for the process.
/// Without the `embedded-pdb4x4` feature the 4×4 tables are never built (seconds of work):
/// they are `None` until [`install_pdb4x4`] gave them.
pub fn pdb(w: usize, h: usize) -> Option<&'static PdbSet> {
    let slot = SIZES.iter().position(|&s| s == (w, h))?;
    #[cfg(not(feature = "embedded-pdb4x4"))]
    if (w, h) == (4, 4) {
        return SETS[slot].get();
    }
    Some(SETS[slot].get_or_init(|| {
        #[cfg(feature = "embedded-pdb4x4")]
        if (w, h) == (4, 4) {
            if let Ok(set) = PdbSet::parse(Cow::Borrowed(EMBEDDED_4X4)) {
                return set;
            }
        }
        PdbSet::build(w, h)
    }))
}

/// Install the 4×4 tables from bytes written by [`PdbSet::to_bytes`] (the file `pdb4x4.bin`
/// a web page fetches when a 4×4 search first needs it). Checked like [`PdbSet::from_bytes`];
/// `Ok` also when tables are already in place (the first ones stay).
pub fn install_pdb4x4(bytes: Vec<u8>) -> Result<()> {
    if SETS[0].get().is_some() {
        return Ok(());
    }
    let set = PdbSet::parse(Cow::Owned(bytes))?;
    if set.w != 4 || set.h != 4 {
        return Err(Error::parse("pattern database bytes: not the 4x4 tables"));
    }
    let _ = SETS[0].set(set);
    Ok(())
}

/// Whether a search of a `w`×`h` board would need the 4×4 tables that are not in place yet
/// (always false with the `embedded-pdb4x4` feature): 4×4 itself and every bigger board,
/// whose solvers finish on a 4×4 corner.
pub fn needs_pdb4x4(w: usize, h: usize) -> bool {
    !cfg!(feature = "embedded-pdb4x4") && w >= 4 && h >= 4 && SETS[0].get().is_none()
}

/// Build the pattern databases of `w`×`h` from scratch, not cached (for benchmarks and for
/// regenerating the embedded 4×4 data).
pub fn build_pdb(w: usize, h: usize) -> Option<PdbSet> {
    has_pdb(w, h).then(|| PdbSet::build(w, h))
}

/// Whether the 4×4 tables come from the embedded data (false if it failed to load, and
/// without the `embedded-pdb4x4` feature).
pub fn embedded_4x4_loads() -> bool {
    #[cfg(feature = "embedded-pdb4x4")]
    return PdbSet::parse(Cow::Borrowed(EMBEDDED_4X4)).is_ok();
    #[cfg(not(feature = "embedded-pdb4x4"))]
    false
}

/// Whether the databases of `w`×`h` are already built.
pub fn pdb_is_built(w: usize, h: usize) -> bool {
    SIZES
        .iter()
        .position(|&s| s == (w, h))
        .is_some_and(|slot| SETS[slot].get().is_some())
}

/// The tile groups of a `w`×`h` board. 4×4: 6-6-3, symmetric about the blank's diagonal.
/// Otherwise tiles are taken in goal order along the longer side (row-major on tall boards,
/// column-major on wide ones), six at a time, so each group is a compact block.
pub fn partition(w: usize, h: usize) -> Vec<Vec<u8>> {
    if (w, h) == (4, 4) {
        return vec![
            vec![1, 5, 6, 9, 10, 13],
            vec![7, 8, 11, 12, 14, 15],
            vec![2, 3, 4],
        ];
    }
    let n = w * h;
    let order: Vec<u8> = if h >= w {
        (1..n as u8).collect()
    } else {
        let mut v = Vec::new();
        for c in 0..w {
            for r in 0..h {
                let t = r * w + c + 1;
                if t < n {
                    v.push(t as u8);
                }
            }
        }
        v
    };
    order.chunks(MAX_GROUP).map(|c| c.to_vec()).collect()
}

struct Group {
    tiles: Vec<u8>,
    /// For each placement index, `e = min((value − md) / 2, 3)` in two bits (four per byte),
    /// where `md` is the group's Manhattan distance: the value has the parity of `md`, and
    /// `e` rarely exceeds 3 (clamping keeps the heuristic admissible).
    table: Cow<'static, [u8]>,
}

/// The 2-bit excess of placement `i`.
#[inline(always)]
fn excess(table: &[u8], i: u32) -> u8 {
    (table[(i >> 2) as usize] >> ((i & 3) * 2)) & 3
}

/// Manhattan distance of tile `t` standing on cell `c` of a board `w` wide.
fn tile_md(w: usize, t: u8, c: u8) -> u8 {
    let (g, c) = (t as usize - 1, c as usize);
    ((g % w).abs_diff(c % w) + (g / w).abs_diff(c / w)) as u8
}

/// Call `f(placement)` for every placement of `k` tiles on `n` cells, in index order.
fn for_each_placement(n: usize, k: usize, f: &mut impl FnMut(&[u8])) {
    fn walk(
        depth: usize,
        k: usize,
        n: usize,
        used: u32,
        pos: &mut [u8; MAX_GROUP],
        f: &mut impl FnMut(&[u8]),
    ) {
        if depth == k {
            f(&pos[..k]);
            return;
        }
        for p in 0..n as u8 {
            if used & (1 << p) == 0 {
                pos[depth] = p;
                walk(depth + 1, k, n, used | 1 << p, pos, f);
            }
        }
    }
    let mut pos = [0u8; MAX_GROUP];
    walk(0, k, n, 0, &mut pos, f);
}

/// Pack a group's exact table (`dist`, one byte per placement) into 2-bit excesses.
fn pack_table(w: usize, h: usize, tiles: &[u8], dist: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; dist.len().div_ceil(4)];
    let mut i = 0usize;
    for_each_placement(w * h, tiles.len(), &mut |pos| {
        let md: u32 = tiles
            .iter()
            .zip(pos)
            .map(|(&t, &c)| tile_md(w, t, c) as u32)
            .sum();
        let v = dist[i] as u32;
        debug_assert!(
            v >= md && (v - md).is_multiple_of(2),
            "a table value below the Manhattan distance"
        );
        let e = ((v.saturating_sub(md)) / 2).min(3) as u8;
        out[i >> 2] |= e << ((i & 3) * 2);
        i += 1;
    });
    out
}

impl Group {
    /// The weight of each slot's digit in the index: (n−i−1)·…·(n−k+1).
    fn weights(&self, n: usize) -> [u32; MAX_GROUP] {
        let k = self.tiles.len();
        let mut m = [0u32; MAX_GROUP];
        for (i, w) in m.iter_mut().enumerate().take(k) {
            *w = (n - k + 1..n - i).product::<usize>() as u32;
        }
        m
    }
}

/// The index of a placement of `k` distinct cells out of `n`: the mixed-radix number whose
/// digit `i` is `posᵢ` minus the earlier positions below it (a partial Lehmer code), so the
/// indices are exactly 0 … n!/(n−k)! − 1.
#[inline(always)]
fn rank(pos: &[u8], n: u32) -> u32 {
    let mut used = 0u32;
    let mut r = 0u32;
    for (i, &p) in pos.iter().enumerate() {
        let below = (used & ((1u32 << p) - 1)).count_ones();
        r = r * (n - i as u32) + (p as u32 - below);
        used |= 1 << p;
    }
    r
}

/// The pattern databases of one board size.
pub struct PdbSet {
    w: usize,
    h: usize,
    n: u32,
    groups: Vec<Group>,
    /// Group and slot of each tile (index = tile number).
    tile_group: Vec<u8>,
    tile_slot: Vec<u8>,
    /// Manhattan distance of each tile (index) on each cell.
    md: Vec<[u8; MAX_CELLS]>,
    /// Square boards: reflection about the blank's diagonal: cell map and tile map.
    mirror: Option<(Vec<u8>, Vec<u8>)>,
}

/// Neighbour lists of a `w`×`h` grid.
fn neighbours(w: usize, h: usize) -> Vec<Vec<u8>> {
    (0..w * h)
        .map(|i| {
            let (r, c) = (i / w, i % w);
            let mut v = Vec::new();
            if r > 0 {
                v.push((i - w) as u8);
            }
            if c > 0 {
                v.push((i - 1) as u8);
            }
            if c + 1 < w {
                v.push((i + 1) as u8);
            }
            if r + 1 < h {
                v.push((i + w) as u8);
            }
            v
        })
        .collect()
}

/// The cells reachable from `seed` through `free` (bit masks over the cells).
#[inline]
fn flood(seed: u32, free: u32, w: usize, not_first_col: u32, not_last_col: u32) -> u32 {
    let mut r = seed;
    loop {
        let g = (r | ((r << 1) & not_first_col) | ((r >> 1) & not_last_col) | (r << w) | (r >> w))
            & free;
        if g == r {
            return r;
        }
        r = g;
    }
}

/// Build one group's table by breadth-first search over (placement, blank region).
///
/// The placements are split into buckets by the cells of the first two tiles (the leading
/// digits of the index), and a layer is expanded bucket by bucket: a successor in the same
/// bucket is checked at once (the bucket's part of the tables stays in cache), and one in
/// another bucket is queued for that bucket and checked when its turn comes, still before
/// the next layer starts, so the search remains breadth-first.
fn build_group(w: usize, h: usize, tiles: &[u8]) -> Group {
    let dist = search_group(w, h, tiles, INBOX_FLUSH);
    Group {
        tiles: tiles.to_vec(),
        table: Cow::Owned(pack_table(w, h, tiles, &dist)),
    }
}

/// The exact table of a group: one byte per placement index.
fn search_group(w: usize, h: usize, tiles: &[u8], inbox_flush: usize) -> Vec<u8> {
    let n = w * h;
    let k = tiles.len();
    let size: usize = (n - k + 1..=n).product();
    // Index digits of the slots after the bucket key: bucket = index / bucket_len.
    let key_slots = k.min(2);
    let bucket_len: usize = (n - k + 1..=n - key_slots).product();
    let buckets = size / bucket_len;
    let nbr = neighbours(w, h);
    let full: u32 = (1u32 << n) - 1;
    let first_col: u32 = (0..h).map(|r| 1u32 << (r * w)).sum();
    let last_col: u32 = (0..h).map(|r| 1u32 << (r * w + w - 1)).sum();
    let (not_first, not_last) = (full & !first_col, full & !last_col);

    let mut dist = vec![UNSEEN; size];
    // For each placement, the free cells of the blank regions already reached.
    let mut seen = vec![0u16; size];
    // A queue entry: positions in nibbles (slot 0 lowest), blank cell in bits 24..28.
    let pack = |pos: &[u8], blank: u8| -> u32 {
        pos.iter()
            .enumerate()
            .fold((blank as u32) << 24, |a, (i, &p)| a | (p as u32) << (4 * i))
    };
    let unpack = |s: u32, pos: &mut [u8; MAX_GROUP]| -> (u8, u32) {
        let mut occ = 0u32;
        for (i, p) in pos.iter_mut().enumerate().take(k) {
            *p = ((s >> (4 * i)) & 0xF) as u8;
            occ |= 1 << *p;
        }
        ((s >> 24) as u8, occ)
    };
    let goal: Vec<u8> = tiles.iter().map(|&t| t - 1).collect();
    let goal_occ: u32 = goal.iter().map(|&p| 1u32 << p).sum();
    let region = flood(1 << (n - 1), full & !goal_occ, w, not_first, not_last);
    let gi = rank(&goal, n as u32) as usize;
    dist[gi] = 0;
    seen[gi] = region as u16;
    let mut cur: Vec<Vec<u32>> = vec![Vec::new(); buckets];
    let mut next: Vec<Vec<u32>> = vec![Vec::new(); buckets];
    // Successors in other buckets: (index << 32) | packed state.
    let mut inbox: Vec<Vec<u64>> = vec![Vec::new(); buckets];
    cur[gi / bucket_len].push(pack(&goal, (n - 1) as u8));
    let mut d: u8 = 0;
    let mut pos = [0u8; MAX_GROUP];
    // The search's view of the group with slot numbers for tiles, so `index_delta` can
    // update an index from positions indexed by slot.
    let mut weight = [0u32; MAX_GROUP];
    for (i, m) in weight.iter_mut().enumerate().take(k) {
        *m = (n - k + 1..n - i).product::<usize>() as u32;
    }
    let slots = Slots {
        tiles: [0, 1, 2, 3, 4, 5],
        k,
        weight,
        table: &[],
    };
    let mut by_slot = [0u8; MAX_CELLS];
    // Mark the state (placement `ni` = `pos`, blank on `blank`) reached at layer `layer`;
    // false if its region was reached before.
    let reach =
        |ni: usize, pos: &[u8], blank: u8, layer: u8, seen: &mut [u16], dist: &mut [u8]| -> bool {
            if seen[ni] & (1 << blank) != 0 {
                return false;
            }
            let occ: u32 = pos.iter().map(|&p| 1u32 << p).sum();
            seen[ni] |= flood(1 << blank, full & !occ, w, not_first, not_last) as u16;
            if dist[ni] == UNSEEN {
                dist[ni] = layer;
            }
            true
        };
    loop {
        let mut any = false;
        for b in 0..buckets {
            let list = std::mem::take(&mut cur[b]);
            any |= !list.is_empty();
            for &s in &list {
                let (blank, occ) = unpack(s, &mut pos);
                let index = rank(&pos[..k], n as u32) as i64;
                by_slot[..k].copy_from_slice(&pos[..k]);
                let free = full & !occ;
                let region = flood(1 << blank, free, w, not_first, not_last);
                for i in 0..k {
                    let p = pos[i];
                    for &q in &nbr[p as usize] {
                        if region & (1 << q) == 0 {
                            continue;
                        }
                        // Tile i slides from p into q; the blank ends on p.
                        let ni = (index + index_delta(&slots, i, p, q, &by_slot, w as u8)) as usize;
                        pos[i] = q;
                        if i < key_slots && ni / bucket_len != b {
                            let nb = ni / bucket_len;
                            inbox[nb].push((ni as u64) << 32 | pack(&pos[..k], p) as u64);
                            if inbox[nb].len() >= inbox_flush {
                                // Bound the memory: these are all next-layer states, so they
                                // may be checked now as well as later.
                                for &e in &inbox[nb] {
                                    let (ni, s) = ((e >> 32) as usize, e as u32);
                                    let mut tmp = [0u8; MAX_GROUP];
                                    let (blank, _) = unpack(s, &mut tmp);
                                    if reach(ni, &tmp[..k], blank, d + 1, &mut seen, &mut dist) {
                                        next[nb].push(s);
                                    }
                                }
                                inbox[nb].clear();
                            }
                        } else if reach(ni, &pos[..k], p, d + 1, &mut seen, &mut dist) {
                            next[b].push(pack(&pos[..k], p));
                        }
                        pos[i] = p;
                    }
                }
            }
            cur[b] = list;
            cur[b].clear();
        }
        if !any {
            break;
        }
        for b in 0..buckets {
            let list = std::mem::take(&mut inbox[b]);
            for &e in &list {
                let (ni, s) = ((e >> 32) as usize, e as u32);
                let (blank, _) = unpack(s, &mut pos);
                if reach(ni, &pos[..k], blank, d + 1, &mut seen, &mut dist) {
                    next[b].push(s);
                }
            }
            inbox[b] = list;
            inbox[b].clear();
        }
        std::mem::swap(&mut cur, &mut next);
        d += 1;
    }
    dist
}

impl PdbSet {
    fn build(w: usize, h: usize) -> PdbSet {
        let groups: Vec<Group> = partition(w, h)
            .iter()
            .map(|t| build_group(w, h, t))
            .collect();
        PdbSet::from_groups(w, h, groups)
    }

    fn from_groups(w: usize, h: usize, groups: Vec<Group>) -> PdbSet {
        let n = w * h;
        let mut tile_group = vec![0u8; n];
        let mut tile_slot = vec![0u8; n];
        for (g, grp) in groups.iter().enumerate() {
            for (s, &t) in grp.tiles.iter().enumerate() {
                tile_group[t as usize] = g as u8;
                tile_slot[t as usize] = s as u8;
            }
        }
        let mut md = vec![[0u8; MAX_CELLS]; n];
        for (t, row) in md.iter_mut().enumerate().skip(1) {
            for (c, v) in row.iter_mut().enumerate().take(n) {
                *v = tile_md(w, t as u8, c as u8);
            }
        }
        let mirror = (w == h).then(|| {
            let cells: Vec<u8> = (0..n).map(|i| ((i % w) * w + i / w) as u8).collect();
            let tiles: Vec<u8> = (0..n)
                .map(|t| if t == 0 { 0 } else { cells[t - 1] + 1 })
                .collect();
            (cells, tiles)
        });
        PdbSet {
            w,
            h,
            n: n as u32,
            groups,
            tile_group,
            tile_slot,
            md,
            mirror,
        }
    }

    /// The tables in a portable byte form (what [`PdbSet::from_bytes`] reads back): a header
    /// naming the size and the groups, the packed tables, and an FNV-1a checksum.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&[self.w as u8, self.h as u8, self.groups.len() as u8]);
        for g in &self.groups {
            out.push(g.tiles.len() as u8);
            out.extend_from_slice(&g.tiles);
        }
        for g in &self.groups {
            out.extend_from_slice(&(g.table.len() as u32).to_le_bytes());
            out.extend_from_slice(&g.table);
        }
        let sum = crate::rng::fnv1a64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Read tables written by [`PdbSet::to_bytes`] (e.g. cached by the app), checking the
    /// checksum, the size and that the groups are this version's partition.
    pub fn from_bytes(bytes: &[u8]) -> Result<PdbSet> {
        Self::parse(Cow::Owned(bytes.to_vec()))
    }

    fn parse(bytes: Cow<'static, [u8]>) -> Result<PdbSet> {
        let bad = |why: &str| Error::parse(format!("pattern database bytes: {why}"));
        if bytes.len() < MAGIC.len() + 3 + 8 || &bytes[..MAGIC.len()] != MAGIC {
            return Err(bad("not a pattern database of this version"));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let sum = u64::from_le_bytes(sum.try_into().map_err(|_| bad("short"))?);
        if crate::rng::fnv1a64(body) != sum {
            return Err(bad("checksum mismatch"));
        }
        let mut at = MAGIC.len();
        let mut take = |len: usize| -> Result<std::ops::Range<usize>> {
            let r = at..at + len;
            if r.end > body.len() {
                return Err(bad("truncated"));
            }
            at = r.end;
            Ok(r)
        };
        let head = take(3)?;
        let (w, h, count) = (
            body[head.start] as usize,
            body[head.start + 1] as usize,
            body[head.start + 2] as usize,
        );
        if !has_pdb(w, h) {
            return Err(bad(&format!("no optimal search for {w}x{h}")));
        }
        let mut tiles = Vec::new();
        for _ in 0..count {
            let k = take(1)?;
            let k = body[k.start] as usize;
            tiles.push(body[take(k)?].to_vec());
        }
        if tiles != partition(w, h) {
            return Err(bad("the groups differ from this version's partition"));
        }
        let n = w * h;
        let mut ranges = Vec::new();
        for t in &tiles {
            let len = take(4)?;
            let len = u32::from_le_bytes(body[len].try_into().map_err(|_| bad("short"))?) as usize;
            let want = (n - t.len() + 1..=n).product::<usize>().div_ceil(4);
            if len != want {
                return Err(bad("a table has the wrong length"));
            }
            ranges.push(take(len)?);
        }
        if at != body.len() {
            return Err(bad("trailing bytes"));
        }
        let groups = tiles
            .into_iter()
            .zip(ranges)
            .map(|(t, r)| Group {
                tiles: t,
                table: match &bytes {
                    Cow::Borrowed(b) => Cow::Borrowed(&b[r]),
                    Cow::Owned(b) => Cow::Owned(b[r].to_vec()),
                },
            })
            .collect();
        Ok(PdbSet::from_groups(w, h, groups))
    }

    /// Whether two sets hold the same tables.
    pub fn same_tables(&self, other: &PdbSet) -> bool {
        (self.w, self.h) == (other.w, other.h)
            && self.groups.len() == other.groups.len()
            && self
                .groups
                .iter()
                .zip(&other.groups)
                .all(|(a, b)| a.tiles == b.tiles && a.table == b.table)
    }

    /// Bytes held by the tables.
    pub fn bytes(&self) -> usize {
        self.groups.iter().map(|g| g.table.len()).sum()
    }

    /// The tile groups.
    pub fn groups(&self) -> Vec<Vec<u8>> {
        self.groups.iter().map(|g| g.tiles.clone()).collect()
    }

    /// The index of group `g` when tile `t` stands on `pos[t]`.
    fn index(&self, g: usize, pos: &[u8; MAX_CELLS]) -> u32 {
        let grp = &self.groups[g];
        let mut cells = [0u8; MAX_GROUP];
        for (c, &t) in cells.iter_mut().zip(&grp.tiles) {
            *c = pos[t as usize];
        }
        rank(&cells[..grp.tiles.len()], self.n)
    }

    /// The heuristic value of `b` (a lower bound on its distance).
    pub fn heuristic(&self, b: &Board) -> Result<u32> {
        let cancel = Cancel::new();
        let s = Search::new(self, b, &cancel, None)?;
        Ok(s.h())
    }
}

/// The outcome of a bounded optimal search.
pub struct Found {
    /// The optimal solution, or `None` when it is longer than the bound asked for.
    pub tiles: Option<Vec<u16>>,
    pub nodes: u64,
}

/// A group as the search sees it: its tiles, digit weights and table.
struct Slots<'a> {
    tiles: [u8; MAX_GROUP],
    k: usize,
    weight: [u32; MAX_GROUP],
    table: &'a [u8],
}

struct Search<'a> {
    set: &'a PdbSet,
    groups: Vec<Slots<'a>>,
    w: u8,
    cells: [u8; MAX_CELLS],
    /// Cell of each tile, and of each tile of the reflected board.
    pos: [u8; MAX_CELLS],
    rpos: [u8; MAX_CELLS],
    blank: u8,
    nbr: [[u8; 4]; MAX_CELLS],
    nbr_len: [u8; MAX_CELLS],
    idx: [u32; 4],
    ridx: [u32; 4],
    /// Per group: its value (Manhattan distance + twice the table's excess) and its
    /// Manhattan distance, on the board and on the reflected board.
    hv: [u8; 4],
    rhv: [u8; 4],
    mdg: [u8; 4],
    rmdg: [u8; 4],
    hsum: u32,
    rhsum: u32,
    path: Vec<u8>,
    nodes: u64,
    cancel: &'a Cancel,
    cancelled: bool,
    /// Deepest bound the caller wants explored.
    max_len: Option<u32>,
    /// Work bounds: stop (as out of budget) at this deadline or after this many nodes.
    deadline: Option<Deadline<'a>>,
    node_limit: u64,
    out_of_budget: bool,
}

/// How far a bounded search may go: a deadline on the caller's clock and/or a node count.
#[derive(Debug, Clone, Copy, Default)]
pub struct Limit<'a> {
    pub deadline: Option<Deadline<'a>>,
    pub nodes: Option<u64>,
}

impl<'a> Limit<'a> {
    /// No bound at all.
    pub const NONE: Limit<'a> = Limit {
        deadline: None,
        nodes: None,
    };

    /// This limit, with a cap of `nodes` when it has no node bound.
    pub fn or_nodes(&self, nodes: u64) -> Limit<'a> {
        Limit {
            deadline: self.deadline,
            nodes: Some(self.nodes.unwrap_or(nodes)),
        }
    }

    /// Whether the deadline has passed.
    pub fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| d.passed())
    }

    /// The deadline clock's reading now (zero without a deadline: nothing is timed then).
    pub fn now(&self) -> std::time::Duration {
        self.deadline
            .map_or(std::time::Duration::ZERO, |d| d.now())
    }

    /// The part of this limit that ends at `frac` of the time left after `start` (a reading
    /// of [`Limit::now`]); the node bound is kept.
    pub fn part(&self, start: std::time::Duration, frac: f64) -> Limit<'a> {
        Limit {
            deadline: self.deadline.map(|d| d.part(start, frac)),
            nodes: self.nodes,
        }
    }
}

/// The weight `num/den` ≥ 1 put on the heuristic by [`solve_weighted`]: 1 is the optimal
/// IDA*; larger weights find a solution with far fewer nodes, at most `weight` times the
/// optimal length (and in practice much closer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weight {
    One,
    FiveFourths,
    ThreeHalves,
    Two,
    Three,
}

/// What a bounded search ended with.
enum Run {
    Found(Vec<u16>),
    TooLong,
    OutOfBudget,
}

const FOUND: u32 = u32::MAX;

/// How the index of a group changes when the tile in `slot` moves from cell `p` to the
/// adjacent cell `q` (positions of the group's tiles in `pos`, board width `w`). Only the
/// tiles whose cells lie strictly between `p` and `q` in row-major order change digits, and
/// for a sideways move there are none.
#[inline(always)]
fn index_delta(g: &Slots, slot: usize, p: u8, q: u8, pos: &[u8; MAX_CELLS], w: u8) -> i64 {
    let diff = q as i64 - p as i64;
    if diff == 1 || diff == -1 {
        return diff * g.weight[slot] as i64;
    }
    let (lo, hi, sign) = if q > p { (p, q, 1i64) } else { (q, p, -1i64) };
    debug_assert_eq!(hi - lo, w);
    let mut digit = diff;
    let mut later = 0i64;
    for j in 0..g.k {
        let c = pos[g.tiles[j] as usize];
        if j != slot && c > lo && c < hi {
            if j < slot {
                digit -= sign;
            } else {
                later += g.weight[j] as i64;
            }
        }
    }
    digit * g.weight[slot] as i64 + sign * later
}

impl<'a> Search<'a> {
    fn new(set: &'a PdbSet, b: &Board, cancel: &'a Cancel, max_len: Option<u32>) -> Result<Self> {
        b.expect_size(set.w, set.h, "search")?;
        let n = b.len();
        let mut cells = [0u8; MAX_CELLS];
        cells[..n].copy_from_slice(b.cells());
        let mut pos = [0u8; MAX_CELLS];
        for (i, &t) in b.cells().iter().enumerate() {
            pos[t as usize] = i as u8;
        }
        let mut rpos = [0u8; MAX_CELLS];
        if let Some((mc, mt)) = &set.mirror {
            // In the reflected board tile mt[t] stands on cell mc[pos[t]].
            for t in 0..n {
                rpos[mt[t] as usize] = mc[pos[t] as usize];
            }
        }
        let groups = set
            .groups
            .iter()
            .map(|g| {
                let mut tiles = [0u8; MAX_GROUP];
                tiles[..g.tiles.len()].copy_from_slice(&g.tiles);
                Slots {
                    tiles,
                    k: g.tiles.len(),
                    weight: g.weights(n),
                    table: &g.table,
                }
            })
            .collect();
        let mut nbr = [[0u8; 4]; MAX_CELLS];
        let mut nbr_len = [0u8; MAX_CELLS];
        for (i, v) in neighbours(set.w, set.h).into_iter().enumerate() {
            nbr[i][..v.len()].copy_from_slice(&v);
            nbr_len[i] = v.len() as u8;
        }
        let mut s = Search {
            set,
            groups,
            w: set.w as u8,
            cells,
            pos,
            rpos,
            blank: b.blank() as u8,
            nbr,
            nbr_len,
            idx: [0; 4],
            ridx: [0; 4],
            hv: [0; 4],
            rhv: [0; 4],
            mdg: [0; 4],
            rmdg: [0; 4],
            hsum: 0,
            rhsum: 0,
            path: Vec::new(),
            nodes: 0,
            cancel,
            cancelled: false,
            max_len,
            deadline: None,
            node_limit: u64::MAX,
            out_of_budget: false,
        };
        for g in 0..set.groups.len() {
            // Group g's index, Manhattan sum and heuristic with the tiles at `pos`.
            let start = |pos: &[u8; MAX_CELLS]| {
                let idx = set.index(g, pos);
                let md: u8 = set.groups[g]
                    .tiles
                    .iter()
                    .map(|&t| set.md[t as usize][pos[t as usize] as usize])
                    .sum();
                (idx, md, md + 2 * excess(&set.groups[g].table, idx))
            };
            (s.idx[g], s.mdg[g], s.hv[g]) = start(&s.pos);
            s.hsum += s.hv[g] as u32;
            if set.mirror.is_some() {
                (s.ridx[g], s.rmdg[g], s.rhv[g]) = start(&s.rpos);
                s.rhsum += s.rhv[g] as u32;
            }
        }
        Ok(s)
    }

    fn h(&self) -> u32 {
        self.hsum.max(self.rhsum)
    }

    /// Depth-first search below `g` moves with the cost bound `bound`; returns `FOUND` or
    /// the smallest f-value that exceeded the bound. The f-value is `WD·g + WN·h` (the
    /// heuristic weighted by `WN/WD`; `1/1` is the optimal search).
    fn dfs<const WN: u32, const WD: u32>(&mut self, g: u32, bound: u32, prev: u8) -> u32 {
        self.nodes += 1;
        if self.nodes & 0xFFF == 0 {
            if self.cancel.is_cancelled() {
                self.cancelled = true;
                return FOUND;
            }
            if self.nodes >= self.node_limit || self.deadline.is_some_and(|d| d.passed()) {
                self.out_of_budget = true;
                return FOUND;
            }
        }
        if self.hsum == 0 {
            return FOUND;
        }
        let set = self.set;
        let b = self.blank;
        let mut min = u32::MAX - 1;
        for k in 0..self.nbr_len[b as usize] as usize {
            let q = self.nbr[b as usize][k];
            if q == prev {
                continue;
            }
            // The tile on q slides into the blank on b.
            let t = self.cells[q as usize] as usize;
            let gi = set.tile_group[t] as usize;
            let grp = &self.groups[gi];
            let slot = set.tile_slot[t] as usize;
            let ni = (self.idx[gi] as i64 + index_delta(grp, slot, q, b, &self.pos, self.w)) as u32;
            let nmd = self.mdg[gi] + set.md[t][b as usize] - set.md[t][q as usize];
            let nv = nmd + 2 * excess(grp.table, ni);
            let nh = self.hsum - self.hv[gi] as u32 + nv as u32;
            let f = WD * (g + 1) + WN * nh;
            if f > bound {
                // Pruned by the direct lookup alone: no need for the reflected one.
                min = min.min(f);
                continue;
            }
            let (mut rg, mut ri, mut rv, mut nrh, mut tm, mut rb, mut nrmd) =
                (0usize, 0u32, 0u8, 0u32, 0usize, 0u8, 0u8);
            if let Some((mc, mt)) = &set.mirror {
                tm = mt[t] as usize;
                rg = set.tile_group[tm] as usize;
                let rgrp = &self.groups[rg];
                let rslot = set.tile_slot[tm] as usize;
                rb = mc[b as usize];
                let rq = mc[q as usize];
                ri = (self.ridx[rg] as i64 + index_delta(rgrp, rslot, rq, rb, &self.rpos, self.w))
                    as u32;
                nrmd = self.rmdg[rg] + set.md[tm][rb as usize] - set.md[tm][rq as usize];
                rv = nrmd + 2 * excess(rgrp.table, ri);
                nrh = self.rhsum - self.rhv[rg] as u32 + rv as u32;
                let f = WD * (g + 1) + WN * nrh;
                if f > bound {
                    min = min.min(f);
                    continue;
                }
            }
            // Play the move.
            let (oi, ov, ohs, omd) = (self.idx[gi], self.hv[gi], self.hsum, self.mdg[gi]);
            let (ori, orv, orhs, ormd) = (self.ridx[rg], self.rhv[rg], self.rhsum, self.rmdg[rg]);
            self.idx[gi] = ni;
            self.hv[gi] = nv;
            self.mdg[gi] = nmd;
            self.hsum = nh;
            self.pos[t] = b;
            if set.mirror.is_some() {
                self.ridx[rg] = ri;
                self.rhv[rg] = rv;
                self.rmdg[rg] = nrmd;
                self.rhsum = nrh;
                self.rpos[tm] = rb;
            }
            self.cells[b as usize] = t as u8;
            self.cells[q as usize] = 0;
            self.blank = q;
            self.path.push(t as u8);
            let r = self.dfs::<WN, WD>(g + 1, bound, b);
            if r == FOUND {
                return FOUND;
            }
            min = min.min(r);
            self.path.pop();
            self.blank = b;
            self.cells[q as usize] = t as u8;
            self.cells[b as usize] = 0;
            self.pos[t] = q;
            self.idx[gi] = oi;
            self.hv[gi] = ov;
            self.mdg[gi] = omd;
            self.hsum = ohs;
            if let Some((mc, _)) = &set.mirror {
                self.rpos[tm] = mc[q as usize];
                self.ridx[rg] = ori;
                self.rhv[rg] = orv;
                self.rmdg[rg] = ormd;
                self.rhsum = orhs;
            }
        }
        min
    }

    fn run<const WN: u32, const WD: u32>(&mut self) -> Result<Run> {
        let mut bound = WN * self.h();
        loop {
            // With weight 1 the bound is a lower bound on the length.
            if WN == WD && self.max_len.is_some_and(|m| bound > m) {
                return Ok(Run::TooLong);
            }
            let r = self.dfs::<WN, WD>(0, bound, u8::MAX);
            if self.cancelled {
                return Err(Error::cancelled());
            }
            if self.out_of_budget {
                return Ok(Run::OutOfBudget);
            }
            if r == FOUND {
                return Ok(Run::Found(self.path.iter().map(|&t| t as u16).collect()));
            }
            bound = r;
        }
    }

    fn run_weighted(&mut self, weight: Weight) -> Result<Run> {
        match weight {
            Weight::One => self.run::<1, 1>(),
            Weight::FiveFourths => self.run::<5, 4>(),
            Weight::ThreeHalves => self.run::<3, 2>(),
            Weight::Two => self.run::<2, 1>(),
            Weight::Three => self.run::<3, 1>(),
        }
    }
}

/// The message of [`tables_missing`]: a shell without the embedded 4×4 tables recognises it,
/// installs them ([`install_pdb4x4`]) and asks again.
pub const TABLES_MISSING: &str = "the 4x4 pattern tables are not installed";

/// `Unsupported` because the 4×4 tables were left out of this build and not installed yet.
pub(crate) fn tables_missing() -> Error {
    Error::unsupported(TABLES_MISSING)
}

/// The pattern databases of `b`'s size (built on first use); `Unsupported` for other sizes,
/// and [`tables_missing`] for 4×4 in a build without them before they were installed.
fn pdb_for(b: &Board) -> Result<&'static PdbSet> {
    let (w, h) = (b.width(), b.height());
    if (w, h) == (4, 4) && needs_pdb4x4(4, 4) {
        return Err(tables_missing());
    }
    pdb(w, h).ok_or_else(|| Error::unsupported(format!("no optimal search for {w}x{h} boards")))
}

/// An optimal solution of `b` (which must be solvable), or `None` if it needs more than
/// `max_len` moves. Builds the size's tables on first use.
pub fn solve_optimal(b: &Board, cancel: &Cancel, max_len: Option<u32>) -> Result<Found> {
    searches!();
    let set = pdb_for(b)?;
    let mut s = Search::new(set, b, cancel, max_len)?;
    let tiles = match s.run::<1, 1>()? {
        Run::Found(t) => Some(t),
        Run::TooLong => None,
        Run::OutOfBudget => return Err(Error::cancelled()),
    };
    Ok(Found {
        tiles,
        nodes: s.nodes,
    })
}

/// [`solve_optimal`] that also stops at `deadline` (an analysis's IDA* runs under
/// its budget's deadline, not only between searches): `Ok(None)` when the deadline passed
/// first, `Cancelled` when `cancel` was set.
pub fn solve_optimal_until(
    b: &Board,
    cancel: &Cancel,
    max_len: Option<u32>,
    deadline: Option<Deadline<'_>>,
) -> Result<Option<Found>> {
    let set = pdb_for(b)?;
    let mut s = Search::new(set, b, cancel, max_len)?;
    s.deadline = deadline;
    let tiles = match s.run::<1, 1>()? {
        Run::Found(t) => Some(t),
        Run::TooLong => None,
        Run::OutOfBudget => return Ok(None),
    };
    Ok(Some(Found {
        tiles,
        nodes: s.nodes,
    }))
}

/// A bounded search of `b` (which must be solvable) with the heuristic weighted by `weight`:
/// `Ok(Some(found))` with a solution (optimal when `weight` is [`Weight::One`]), `Ok(None)`
/// when `limit` ran out first. Builds the size's tables on first use.
pub fn solve_weighted(
    b: &Board,
    weight: Weight,
    limit: &Limit,
    cancel: &Cancel,
) -> Result<Option<Found>> {
    searches!();
    let set = pdb_for(b)?;
    if b.is_solved() {
        return Ok(Some(Found {
            tiles: Some(Vec::new()),
            nodes: 0,
        }));
    }
    let mut s = Search::new(set, b, cancel, None)?;
    s.deadline = limit.deadline;
    s.node_limit = limit.nodes.unwrap_or(u64::MAX);
    Ok(match s.run_weighted(weight)? {
        Run::Found(t) => Some(Found {
            tiles: Some(t),
            nodes: s.nodes,
        }),
        Run::TooLong | Run::OutOfBudget => None,
    })
}

#[cfg(test)]
mod tests {

    /// The 4×4 tables handed over at run time (the web build, `--no-default-features`):
    /// missing before (a typed error, never a build), in place after; bad bytes refused. With
    /// the embedded tables (the default) installing is a no-op.
    #[test]
    fn the_4x4_tables_install_at_run_time() {
        let b = Board::parse("4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15").unwrap();
        if cfg!(feature = "embedded-pdb4x4") {
            assert!(!needs_pdb4x4(4, 4));
        } else if pdb(4, 4).is_none() {
            assert!(needs_pdb4x4(4, 4) && needs_pdb4x4(5, 5) && !needs_pdb4x4(3, 4));
            let e = solve_optimal(&b, &Cancel::new(), None)
                .err()
                .expect("no tables: an error");
            assert_eq!(e.message, TABLES_MISSING);
            assert!(install_pdb4x4(b"HRSLPDB1 not tables".to_vec()).is_err());
        }
        let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/src/slide/pdb4x4.bin"))
            .expect("the 4x4 tables file");
        install_pdb4x4(bytes).expect("the shipped tables install");
        assert!(!needs_pdb4x4(4, 4));
        let found = solve_optimal(&b, &Cancel::new(), None).unwrap();
        assert_eq!(found.tiles.map(|t| t.len()), Some(1));
    }
    use super::*;
    use std::collections::{HashMap, VecDeque};

    #[test]
    fn partitions_cover_every_tile_once() {
        for &(w, h) in &SIZES {
            let mut all: Vec<u8> = partition(w, h).concat();
            all.sort_unstable();
            assert_eq!(all, (1..(w * h) as u8).collect::<Vec<_>>(), "{w}x{h}");
            assert!(partition(w, h).iter().all(|g| g.len() <= MAX_GROUP));
        }
    }

    /// A plain 0-1 breadth-first search over (placement, blank cell): the definition of a
    /// group's table, without regions or buckets.
    fn brute_force(w: usize, h: usize, tiles: &[u8]) -> HashMap<Vec<u8>, u8> {
        let n = w * h;
        let nbr = neighbours(w, h);
        let goal: Vec<u8> = tiles.iter().map(|&t| t - 1).collect();
        let mut dist: HashMap<(Vec<u8>, u8), u8> = HashMap::new();
        let mut dq = VecDeque::from([(goal, (n - 1) as u8, 0u8)]);
        while let Some((pos, b, d)) = dq.pop_front() {
            if dist.get(&(pos.clone(), b)).is_some_and(|&o| o <= d) {
                continue;
            }
            dist.insert((pos.clone(), b), d);
            for &q in &nbr[b as usize] {
                match pos.iter().position(|&p| p == q) {
                    Some(i) => {
                        let mut np = pos.clone();
                        np[i] = b;
                        dq.push_back((np, q, d + 1));
                    }
                    None => dq.push_front((pos.clone(), q, d)),
                }
            }
        }
        let mut best: HashMap<Vec<u8>, u8> = HashMap::new();
        for ((pos, _), d) in dist {
            let e = best.entry(pos).or_insert(d);
            *e = (*e).min(d);
        }
        best
    }

    #[test]
    fn group_tables_match_a_plain_search() {
        for (w, h, tiles) in [
            (3, 3, vec![1u8, 2, 3]),
            (3, 4, vec![11u8, 8, 7, 10]),
            (4, 3, vec![1u8, 5, 9, 6]),
        ] {
            let n = w * h;
            let want = brute_force(w, h, &tiles);
            for flush in [1, INBOX_FLUSH] {
                let dist = search_group(w, h, &tiles, flush);
                assert_eq!(
                    want.len(),
                    dist.len(),
                    "{w}x{h} {tiles:?}: every placement is reachable"
                );
                for (pos, &d) in &want {
                    assert_eq!(
                        dist[rank(pos, n as u32) as usize],
                        d,
                        "{w}x{h} {tiles:?} {pos:?}"
                    );
                }
            }
            // The packed form holds min(excess, 3) over the Manhattan distance.
            let g = build_group(w, h, &tiles);
            for (pos, &d) in &want {
                let md: u8 = tiles.iter().zip(pos).map(|(&t, &c)| tile_md(w, t, c)).sum();
                let e = excess(&g.table, rank(pos, n as u32));
                assert_eq!(e, ((d - md) / 2).min(3), "{w}x{h} {tiles:?} {pos:?}");
            }
        }
    }

    #[test]
    fn tables_round_trip_through_bytes() {
        let set = pdb(3, 4).unwrap();
        let bytes = set.to_bytes();
        let back = PdbSet::from_bytes(&bytes).unwrap();
        assert!(back.same_tables(set));
        let b = crate::slide::generate(3, 4, None, 5).unwrap();
        assert_eq!(back.heuristic(&b).unwrap(), set.heuristic(&b).unwrap());
        // Any damage is caught.
        for at in [0, 9, bytes.len() / 2, bytes.len() - 1] {
            let mut bad = bytes.clone();
            bad[at] ^= 0x10;
            assert!(PdbSet::from_bytes(&bad).is_err(), "byte {at}");
        }
        assert!(PdbSet::from_bytes(&bytes[..bytes.len() - 3]).is_err());
        assert!(PdbSet::from_bytes(b"").is_err());
    }

    #[test]
    fn index_delta_agrees_with_rank() {
        let (w, n) = (4u8, 16u32);
        let tiles = [0u8, 1, 2, 3, 4, 5];
        let mut weight = [0u32; MAX_GROUP];
        for (i, m) in weight.iter_mut().enumerate() {
            *m = (11..16 - i as u32).product();
        }
        let g = Slots {
            tiles,
            k: 6,
            weight,
            table: &[],
        };
        let nbr = neighbours(4, 4);
        let mut x = 99u64;
        let mut rnd = |m: usize| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) as usize % m
        };
        for _ in 0..20_000 {
            let mut cells: Vec<u8> = (0..16).collect();
            for i in (1..16).rev() {
                cells.swap(i, rnd(i + 1));
            }
            let mut pos = [0u8; MAX_CELLS];
            pos[..6].copy_from_slice(&cells[..6]);
            let slot = rnd(6);
            let p = pos[slot];
            let free: Vec<u8> = nbr[p as usize]
                .iter()
                .copied()
                .filter(|q| !pos[..6].contains(q))
                .collect();
            if free.is_empty() {
                continue;
            }
            let q = free[rnd(free.len())];
            let before = rank(&pos[..6], n) as i64;
            let delta = index_delta(&g, slot, p, q, &pos, w);
            pos[slot] = q;
            assert_eq!(before + delta, rank(&pos[..6], n) as i64);
        }
    }

    #[test]
    fn heuristic_is_admissible_near_the_goal_on_3x4() {
        // Never above the length of a random walk from the goal, and exact after one move.
        let set = pdb(3, 4).unwrap();
        let mut b = Board::solved(3, 4).unwrap();
        b.step(11).unwrap();
        assert_eq!(set.heuristic(&b).unwrap(), 1);
        let mut x = 12345u64;
        for len in 1..40u32 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = b.movable();
            b.step(m[(x >> 33) as usize % m.len()]).unwrap();
            let h = set.heuristic(&b).unwrap();
            assert!(h <= len + 1, "h {h} > walk length {}", len + 1);
        }
    }
}
