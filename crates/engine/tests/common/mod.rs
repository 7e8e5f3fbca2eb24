//! Helpers shared by the number-slide integration tests (`slide_rules`, `slide_solvers`):
//! an independent reference search over explicit cell vectors, a board builder, and the
//! check of the bad-input tables (`rejects`, also used by `g2048_rules`).

#![allow(dead_code)]

pub mod rejects;

use huarong_engine::slide::{self, Board, Difficulty};
use std::collections::{HashMap, VecDeque};

/// Independent breadth-first search from the goal over explicit cell vectors: the distance of
/// every arrangement reachable from the goal (the blank last), however far.
pub fn bfs(w: usize, h: usize) -> HashMap<Vec<u8>, u8> {
    bfs_near_goal(w, h, u8::MAX)
}

/// Distances from the goal up to `depth`, by the same breadth-first search: states further than
/// `depth` moves from the goal are not listed.
pub fn bfs_near_goal(w: usize, h: usize, depth: u8) -> HashMap<Vec<u8>, u8> {
    let n = w * h;
    let mut goal: Vec<u8> = (1..n as u8).collect();
    goal.push(0);
    let mut dist = HashMap::from([(goal.clone(), 0u8)]);
    let mut q = VecDeque::from([goal]);
    while let Some(s) = q.pop_front() {
        let d = dist[&s];
        if d == depth {
            continue;
        }
        let b = s.iter().position(|&c| c == 0).unwrap();
        let (r, c) = (b / w, b % w);
        let mut next = Vec::new();
        if r > 0 {
            next.push(b - w);
        }
        if r + 1 < h {
            next.push(b + w);
        }
        if c > 0 {
            next.push(b - 1);
        }
        if c + 1 < w {
            next.push(b + 1);
        }
        for j in next {
            let mut t = s.clone();
            t.swap(b, j);
            if !dist.contains_key(&t) {
                dist.insert(t.clone(), d + 1);
                q.push_back(t);
            }
        }
    }
    dist
}

/// A `w`×`h` board from explicit cells (0 the blank).
pub fn board(w: usize, h: usize, cells: &[u8]) -> Board {
    let tiles: Vec<u16> = cells.iter().map(|&c| c as u16).collect();
    Board::new(w, h, &tiles).unwrap()
}

/// `slide::generate(w, h, difficulty, seed)` is the board `want`: a golden value (a seed is a
/// game ID, so it must never change).
pub fn assert_generates(w: usize, h: usize, difficulty: Option<Difficulty>, seed: u64, want: &str) {
    assert_eq!(
        slide::generate(w, h, difficulty, seed).unwrap().body(),
        want,
        "{w}x{h} {difficulty:?} seed {seed}"
    );
}
