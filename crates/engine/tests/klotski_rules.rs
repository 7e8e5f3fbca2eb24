//! Klotski rules against a naive reference: every move the engine accepts is legal, every
//! move it refuses is illegal, and targets are exactly the reachable places.

use huarong_engine::klotski::{classics, Board, Klotski, Move};
use huarong_engine::rng::{self, RngCore};
use huarong_engine::{Game, Status};
use std::collections::{BTreeSet, VecDeque};

/// The board as a grid of characters.
fn grid(b: &Board) -> Vec<Vec<char>> {
    (0..b.height())
        .map(|r| (0..b.width()).map(|c| b.at(r, c)).collect())
        .collect()
}

/// Naively: the top-left cells piece `l` can reach by one-cell steps with the others fixed,
/// with their step counts.
fn reachable(g: &[Vec<char>], l: char) -> Vec<((u8, u8), u32)> {
    let cells: Vec<(usize, usize)> = (0..g.len())
        .flat_map(|r| (0..g[0].len()).map(move |c| (r, c)))
        .filter(|&(r, c)| g[r][c] == l)
        .collect();
    if cells.is_empty() {
        return Vec::new();
    }
    let r0 = cells.iter().map(|p| p.0).min().unwrap();
    let c0 = cells.iter().map(|p| p.1).min().unwrap();
    let h = cells.iter().map(|p| p.0).max().unwrap() - r0 + 1;
    let w = cells.iter().map(|p| p.1).max().unwrap() - c0 + 1;
    let fits = |r: i32, c: i32| {
        if r < 0 || c < 0 || r as usize + h > g.len() || c as usize + w > g[0].len() {
            return false;
        }
        (0..h).all(|dr| {
            (0..w).all(|dc| {
                matches!(g[r as usize + dr][c as usize + dc], '.')
                    || g[r as usize + dr][c as usize + dc] == l
            })
        })
    };
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let mut q = VecDeque::from([((r0 as i32, c0 as i32), 0u32)]);
    seen.insert((r0 as i32, c0 as i32));
    while let Some(((r, c), d)) = q.pop_front() {
        if d > 0 {
            out.push(((r as u8, c as u8), d));
        }
        for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            let n = (r + dr, c + dc);
            if fits(n.0, n.1) && seen.insert(n) {
                q.push_back((n, d + 1));
            }
        }
    }
    out
}

fn letters(b: &Board) -> Vec<char> {
    b.pieces().iter().map(|p| p.letter).collect()
}

#[test]
fn accepted_moves_are_exactly_the_legal_ones() {
    let mut rng = rng::stream(1, "test");
    let mut boards: Vec<String> = classics().iter().map(|c| c.board.to_string()).collect();
    boards.push("#aCCb#/#aCCb#/#cdde#/#cste#/#u..v#".into());
    boards.push("ab..CC../ab..CC../cdeeff.g/hhh....g/........".into());
    boards.push("aaa.CC/aaa.CC/b.c...".into());
    let mut accepted = 0;
    for text in &boards {
        let mut k = Klotski::parse(text).unwrap();
        for _ in 0..300 {
            if k.status() == Status::Won {
                break;
            }
            let b = k.board().clone();
            let g = grid(&b);
            let ls = letters(&b);
            // Half the time a real target, half the time any cell at all.
            let l = ls[rng::below(&mut rng, ls.len() as u64) as usize];
            let legal = reachable(&g, l);
            let to = if !legal.is_empty() && rng.next_u32().is_multiple_of(2) {
                legal[rng::below(&mut rng, legal.len() as u64) as usize].0
            } else {
                (
                    rng::below(&mut rng, b.height() as u64 + 1) as u8,
                    rng::below(&mut rng, b.width() as u64 + 1) as u8,
                )
            };
            let naive = legal.iter().find(|(p, _)| *p == to);
            // Targets agree with the naive reachable set, and each path is a real path.
            let targets = k.targets(l).unwrap();
            let tset: BTreeSet<(u8, u8)> = targets.iter().map(|t| t.to).collect();
            let nset: BTreeSet<(u8, u8)> = legal.iter().map(|x| x.0).collect();
            assert_eq!(tset, nset, "{text} piece {l}");
            for t in &targets {
                let want = legal.iter().find(|x| x.0 == t.to).unwrap().1;
                assert_eq!(t.path.len() as u32 - 1, want, "path is a shortest one");
                assert_eq!(t.path[0], b.piece(l).unwrap().pos());
                for w in t.path.windows(2) {
                    assert_eq!(w[0].0.abs_diff(w[1].0) + w[0].1.abs_diff(w[1].1), 1);
                }
            }
            let before = k.clone();
            match k.apply(&Move { piece: l, to }) {
                Ok(effect) => {
                    accepted += 1;
                    let (_, cells) = naive
                        .unwrap_or_else(|| panic!("engine accepted illegal {l}->{to:?} on {b}"));
                    assert_eq!(effect.path.len() as u32 - 1, *cells);
                    assert_eq!(k.board().piece(l).unwrap().pos(), to);
                    // Nothing else moved.
                    for p in b.pieces().iter().filter(|p| p.letter != l) {
                        assert_eq!(k.board().piece(p.letter), Some(p));
                    }
                }
                Err(_) => {
                    assert!(naive.is_none(), "engine refused legal {l}->{to:?} on {b}");
                    assert_eq!(k, before);
                }
            }
        }
    }
    assert!(accepted > 1000, "only {accepted} moves were accepted");
}
