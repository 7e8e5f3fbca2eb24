//! The optimal solver: breadth-first search over *canonical* positions (see [`super::space`]:
//! identical shapes interchangeable, mirror images one where the walls allow) in one of three
//! counts — one piece anywhere it can go, one straight slide, or one cell — all unit-cost, so
//! the first solved position reached is an optimal one. The visited set is an
//! open-addressing hash table of packed keys; the queue doubles as the list of positions,
//! with a parent index each.
//!
//! The search yields a chain of canonical keys; the moves with the board's real letters are
//! recovered by replaying from the real start, choosing at each step a move whose result
//! has the next key (a mirrored key is matched just the same).

use super::board::Board;
use super::keys::{Key, Table};
use super::space::{with_space, Model, Space, Visit, NO_SKIP};
use super::Move;
use crate::error::{Error, ErrorCode, Result};
use crate::game::Cancel;
use serde::Serialize;

use super::board::Metric;

/// Most positions one search may visit before it gives up (bounded time and memory).
pub const MAX_STATES: usize = 4_000_000;
/// Most memory one search may allocate: the capacity of its queue, parent and move arrays and
/// of its hash table, counted with the transient copies their growth makes (the bound that
/// matters: a `u64` key costs 13 bytes in the arrays and 16–32 in the half-full table, so
/// 64 MiB is about 1.5–2.3 million positions, fewer with wider keys). Beyond it a search is
/// `Unsupported`.
pub const MAX_BYTES: usize = crate::budget::MAX_BYTES;

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
/// Bounded by the thread's ambient [`Budget`](crate::budget::Budget) (64 MiB by default)
/// and `cancel`.
pub fn search(board: &Board, metric: Metric, cancel: &Cancel) -> Result<SearchResult> {
    search_with_limit(board, metric, cancel, MAX_STATES)
}

/// [`search`] within `budget` (its bytes, deadline and cancel flag).
pub fn search_within(
    board: &Board,
    metric: Metric,
    budget: &crate::budget::Budget,
) -> Result<SearchResult> {
    search_budget(board, metric, &Cancel::new(), MAX_STATES, budget, false)
}

/// [`search`] with an explicit bound on stored positions.
pub fn search_with_limit(
    board: &Board,
    metric: Metric,
    cancel: &Cancel,
    limit: usize,
) -> Result<SearchResult> {
    search_budget(
        board,
        metric,
        cancel,
        limit,
        &crate::budget::ambient(),
        false,
    )
}

/// [`search_with_limit`], optionally forcing slot keys (to test one space against the other).
#[cfg(test)]
pub(crate) fn search_in(
    board: &Board,
    metric: Metric,
    cancel: &Cancel,
    limit: usize,
    max_bytes: usize,
    force_slots: bool,
) -> Result<SearchResult> {
    let budget = crate::budget::Budget {
        max_bytes,
        ..crate::budget::ambient()
    };
    search_budget(board, metric, cancel, limit, &budget, force_slots)
}

fn search_budget(
    board: &Board,
    metric: Metric,
    cancel: &Cancel,
    limit: usize,
    budget: &crate::budget::Budget,
    force_slots: bool,
) -> Result<SearchResult> {
    searches!();
    let max_bytes = budget.max_bytes;
    let model = Model::new(board);
    with_space(
        &model,
        force_slots,
        Bfs {
            board,
            metric,
            cancel,
            limit,
            max_bytes,
            budget,
        },
    )
}

/// The positions a search stores, with their memory counted as allocated: every array's
/// capacity, and while one grows, its old and new allocation both.
struct Store<K: Key> {
    table: Table<K>,
    states: Vec<K>,
    parent: Vec<u32>,
    moved: Vec<u8>,
    max_bytes: usize,
    /// The most bytes held at once so far (growth transients included).
    peak: usize,
}

/// Bytes one stored position takes in the three arrays (key, parent index, moved anchor).
const fn per_position<K>() -> usize {
    std::mem::size_of::<K>() + 4 + 1
}

impl<K: Key> Store<K> {
    const FIRST: usize = 1 << 12;

    fn new(max_bytes: usize) -> Self {
        let mut s = Store {
            table: Table::new(),
            states: Vec::with_capacity(Self::FIRST),
            parent: Vec::with_capacity(Self::FIRST),
            moved: Vec::with_capacity(Self::FIRST),
            max_bytes,
            peak: 0,
        };
        s.peak = s.bytes();
        s
    }

    /// Bytes allocated now: capacities, not lengths.
    fn bytes(&self) -> usize {
        self.states.capacity() * std::mem::size_of::<K>()
            + self.parent.capacity() * 4
            + self.moved.capacity()
            + self.table.bytes()
    }

    fn over(&self, bytes: usize) -> Error {
        Error::unsupported(format!(
            "search gave up after {} positions: it would hold {:.1} MB, more than its {:.1} MB",
            self.states.len(),
            bytes as f64 / (1u64 << 20) as f64,
            self.max_bytes as f64 / (1u64 << 20) as f64
        ))
    }

    /// Store `k` (reached from position `parent` by moving the piece at `anchor`) unless it
    /// is there already; true when it is new. Refuses, before allocating, any growth that
    /// would hold more than `max_bytes` at once.
    #[inline(always)]
    fn add(&mut self, k: K, parent: u32, anchor: u8) -> Result<bool> {
        if self.table.next_insert_grows() {
            // Rehashing holds the old slots and the twice as large new ones.
            let during = self.bytes() + 2 * self.table.bytes();
            if during > self.max_bytes {
                return Err(self.over(during));
            }
            self.peak = self.peak.max(during);
        }
        if !self.table.insert(k) {
            return Ok(false);
        }
        if self.states.len() == self.states.capacity() {
            // Double the three arrays by hand (exact sizes, so capacity is what is counted);
            // a reallocation may hold the old and the new block at once.
            let more = self.states.capacity().max(Self::FIRST);
            let during = self.bytes() + more * 2 * per_position::<K>();
            if during > self.max_bytes {
                return Err(self.over(during));
            }
            self.peak = self.peak.max(during);
            self.states.reserve_exact(more);
            self.parent.reserve_exact(more);
            self.moved.reserve_exact(more);
        }
        self.states.push(k);
        self.parent.push(parent);
        self.moved.push(anchor);
        self.peak = self.peak.max(self.bytes());
        Ok(true)
    }
}

#[cfg(test)]
thread_local! {
    /// The peak of the last search on this thread, for the tests.
    static PEAK: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Breadth-first search from `board` to the nearest solved position.
struct Bfs<'a> {
    board: &'a Board,
    metric: Metric,
    cancel: &'a Cancel,
    limit: usize,
    max_bytes: usize,
    budget: &'a crate::budget::Budget,
}

impl Visit for Bfs<'_> {
    type Out = Result<SearchResult>;

    fn visit<S: Space>(self, s: &S) -> Result<SearchResult> {
        let k0 = s.key_of(self.board);
        if s.is_goal(k0) {
            return Ok(SearchResult {
                solution: Some(Vec::new()),
                states: 1,
            });
        }
        let mut store = Store::<S::K>::new(self.max_bytes);
        let skips = self.metric == Metric::Piece;
        store.add(k0, u32::MAX, u8::MAX)?;
        let mut head = 0usize;
        let mut found = None;
        let mut full = None;
        while head < store.states.len() {
            if head & 1023 == 0 {
                if self.cancel.is_cancelled() {
                    return Err(Error::cancelled());
                }
                self.budget.check("the Klotski search")?;
                if store.states.len() > self.limit {
                    return Err(Error::range(format!(
                        "search gave up after {} positions (the limit is {})",
                        store.states.len(),
                        self.limit
                    )));
                }
            }
            // The anchor (in the stored key) of the piece whose move reached each position.
            // In the piece count, moving that piece again only reaches positions one move
            // from the parent, all already stored; so it is skipped.
            let skip = if skips && store.moved[head] != u8::MAX {
                store.moved[head] as u32
            } else {
                NO_SKIP
            };
            let stopped =
                s.expand(
                    store.states[head],
                    self.metric,
                    skip,
                    |k, goal, anchor| match store.add(k, head as u32, anchor as u8) {
                        Ok(true) if goal => {
                            found = Some(store.states.len() - 1);
                            true
                        }
                        Ok(_) => false,
                        Err(e) => {
                            full = Some(e);
                            true
                        }
                    },
                );
            if let Some(e) = full {
                return Err(e);
            }
            if stopped {
                break;
            }
            head += 1;
        }
        #[cfg(test)]
        PEAK.with(|p| p.set(store.peak));
        let Store { states, parent, .. } = store;
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
        let moves = replay(s, self.board, self.metric, &keys)?;
        Ok(SearchResult {
            solution: Some(moves),
            states: n_states,
        })
    }
}

/// The real moves (with the board's letters) that follow a chain of canonical keys: at each
/// step, a move of `metric` whose resulting position has the next key.
fn replay<S: Space>(s: &S, board: &Board, metric: Metric, keys: &[S::K]) -> Result<Vec<Move>> {
    let mut cur = board.clone();
    let mut moves = Vec::with_capacity(keys.len().saturating_sub(1));
    for next in &keys[1..] {
        let mut step = None;
        'pieces: for i in 0..cur.pieces().len() {
            for to in cur.moves_of(i, metric) {
                let mut b = cur.clone();
                b.set_pos(i, to);
                if s.key_of(&b) == *next {
                    step = Some((i, to));
                    break 'pieces;
                }
            }
        }
        let (i, to) = step.ok_or_else(|| {
            Error::new(
                ErrorCode::Unsolvable,
                "internal error: the solution does not replay",
            )
        })?;
        moves.push(Move {
            piece: cur.pieces()[i].letter,
            to,
        });
        cur.set_pos(i, to);
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_and_slot_keys_find_the_same_counts() {
        for (text, want) in [
            ("aCCb/aCCb/cdde/cste/u..v", [81, 90, 116]),
            ("sCCt/uCCv/abbc/adec/.de.", [34, 0, 0]),
        ] {
            let b = Board::parse(text).unwrap();
            for (metric, &want) in Metric::ALL.iter().zip(&want) {
                let a =
                    search_in(&b, *metric, &Cancel::new(), MAX_STATES, MAX_BYTES, false).unwrap();
                let s =
                    search_in(&b, *metric, &Cancel::new(), MAX_STATES, MAX_BYTES, true).unwrap();
                let (na, ns) = (a.solution.unwrap().len(), s.solution.unwrap().len());
                assert_eq!(na, ns, "{text} {metric:?}");
                assert_eq!(a.states, s.states, "the same canonical positions");
                if want > 0 {
                    assert_eq!(na, want);
                }
            }
        }
    }

    #[test]
    fn the_state_limit_is_an_error() {
        let b = Board::parse("aCCb/aCCb/cdde/cste/u..v").unwrap();
        let e = search_with_limit(&b, Metric::Piece, &Cancel::new(), 2000).unwrap_err();
        assert_eq!(e.code, ErrorCode::OutOfRange);
    }

    #[test]
    fn a_small_memory_cap_is_a_typed_error_before_it_is_passed() {
        let b = Board::parse("aCCb/aCCb/cdde/cste/u..v").unwrap();
        // 11,974 positions; the first doubling of the arrays (at 4,096) is refused.
        let cap = 3 << 16;
        let e = search_in(&b, Metric::Piece, &Cancel::new(), MAX_STATES, cap, false).unwrap_err();
        assert_eq!(e.code, ErrorCode::Unsupported);
        assert!(e.message.contains("more than its 0.2 MB"), "{}", e.message);
        // With room, the same search finishes, and its peak (growth included) stayed under.
        let r = search_in(
            &b,
            Metric::Piece,
            &Cancel::new(),
            MAX_STATES,
            64 << 20,
            false,
        )
        .unwrap();
        let peak = PEAK.with(|p| p.get());
        assert!(
            peak <= 64 << 20 && peak > r.states as usize * 13,
            "peak {peak}"
        );
    }

    #[test]
    fn store_counts_capacity_and_growth() {
        fn check<K: Key>(make: impl Fn(u64) -> K) {
            let mut st = Store::<K>::new(usize::MAX);
            let mut last_peak = st.peak;
            for i in 0..100_000u64 {
                let before = st.bytes();
                let grows = st.table.next_insert_grows() || st.states.len() == st.states.capacity();
                assert!(st.add(make(i), 0, 0).unwrap());
                assert!(!st.add(make(i), 0, 0).unwrap(), "a key is stored once");
                let want = st.states.capacity() * std::mem::size_of::<K>()
                    + st.parent.capacity() * 4
                    + st.moved.capacity()
                    + st.table.bytes();
                assert_eq!(st.bytes(), want);
                assert!(st.bytes() >= st.states.len() * per_position::<K>());
                if grows {
                    // A growth held old and new blocks at once: more than before and after.
                    assert!(st.peak > before.max(st.bytes()) || st.peak > last_peak);
                }
                assert!(st.peak >= st.bytes());
                last_peak = st.peak;
            }
            // 100,000 keys: the table has 2^18 slots (at most half full), the arrays 2^17.
            assert_eq!(st.table.bytes(), (1 << 18) * std::mem::size_of::<K>());
            assert_eq!(st.states.capacity(), 1 << 17);
            // Its last growth (table 2^17 → 2^18 slots) held 3 × 2^17 slots at once.
            assert!(st.peak >= 3 * (1 << 17) * std::mem::size_of::<K>());
        }
        check::<u64>(|i| i * 7 + 1);
        check::<u128>(|i| (i as u128) << 70 | 5);
        // The same adds under a cap just below that peak stop with a typed error.
        let mut st = Store::<u64>::new(3 << 20);
        let mut n = 0u64;
        let err = loop {
            match st.add(n, 0, 0) {
                Ok(_) => n += 1,
                Err(e) => break e,
            }
        };
        assert_eq!(err.code, ErrorCode::Unsupported);
        assert!(st.peak <= 3 << 20);
    }
}
