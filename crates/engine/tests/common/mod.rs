//! Helpers shared by the number-slide integration tests (`slide_rules`, `slide_solvers`):
//! an independent reference search over explicit cell vectors, and a board builder.

#![allow(dead_code)]

use huarong_engine::slide::Board;
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
