//! Number slide: rules, parity, generation and game IDs (the solvers have their own file).

use huarong_engine::slide::{self, Board, Difficulty, Move, Slide};
use huarong_engine::{Cancel, ErrorCode, Game, Session, Status};
use std::collections::HashMap;

mod common;
use common::rejects::assert_rejects;
use common::{assert_generates, bfs, board};

/// Every arrangement of 0..n (Heap's algorithm).
fn for_each_perm(n: usize, mut f: impl FnMut(&[u8])) {
    let mut a: Vec<u8> = (0..n as u8).collect();
    let mut c = vec![0usize; n];
    f(&a);
    let mut i = 0;
    while i < n {
        if c[i] < i {
            if i % 2 == 0 {
                a.swap(0, i);
            } else {
                a.swap(c[i], i);
            }
            f(&a);
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
}

#[test]
fn parity_rule_matches_reachability_exhaustively() {
    for (w, h) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
        let reach = bfs(w, h);
        let n = w * h;
        let total: usize = (1..=n).product();
        assert_eq!(
            reach.len(),
            total / 2,
            "{w}x{h}: half the arrangements are reachable"
        );
        let mut count = 0usize;
        for_each_perm(n, |cells| {
            let b = board(w, h, cells);
            assert_eq!(
                b.is_solvable(),
                reach.contains_key(cells),
                "{w}x{h} {cells:?}"
            );
            count += 1;
        });
        assert_eq!(count, total);
    }
}

#[test]
fn exact_tables_agree_with_an_independent_search() {
    for (w, h) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
        let reach = bfs(w, h);
        let t = slide::table(w, h).unwrap();
        assert_eq!(t.states() as usize, reach.len());
        for (cells, &d) in &reach {
            assert_eq!(
                t.distance(&board(w, h, cells)).unwrap(),
                Some(d),
                "{w}x{h} {cells:?}"
            );
        }
    }
    let t = slide::table(3, 3).unwrap();
    assert_eq!(t.max_distance(), 31);
    let hist = t.histogram();
    assert_eq!(hist[31], 2, "exactly two 3x3 states are 31 moves away");
    assert_eq!(hist.iter().sum::<u64>(), 181_440);
}

#[test]
fn parity_rule_holds_on_every_size() {
    // Random walks from the goal stay solvable; one swap of two tiles breaks solvability.
    for w in 2..=10 {
        for h in 2..=10 {
            let mut b = Board::solved(w, h).unwrap();
            assert!(b.is_solvable() && b.is_solved());
            let mut x: u64 = (w * 31 + h) as u64;
            for _ in 0..300 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let m = b.movable();
                b.step(m[(x >> 33) as usize % m.len()]).unwrap();
                assert!(b.is_solvable(), "{w}x{h}: {b:?}");
            }
            let mut tiles = b.tiles();
            let (i, j) = if tiles[0] == 0 || tiles[1] == 0 {
                (2, 3)
            } else {
                (0, 1)
            };
            tiles.swap(i, j);
            assert!(!Board::new(w, h, &tiles).unwrap().is_solvable(), "{w}x{h}");
        }
    }
}

#[test]
fn generated_boards_are_solvable_reproducible_and_never_solved() {
    for w in 2..=10 {
        for h in 2..=10 {
            for seed in 0..8 {
                let b = slide::generate(w, h, None, seed).unwrap();
                assert!(b.is_solvable() && !b.is_solved(), "{w}x{h} #{seed}");
                assert_eq!(slide::generate(w, h, None, seed).unwrap(), b);
            }
        }
    }
    // 2x2 has 12 solvable states, 11 of them unsolved: all appear, the goal never.
    let mut seen = std::collections::HashSet::new();
    for seed in 0..500 {
        seen.insert(slide::generate(2, 2, None, seed).unwrap().body());
    }
    assert_eq!(seen.len(), 11);
}

#[test]
fn generation_is_pinned() {
    // Golden values: a seed is a game ID, so these must never change.
    assert_generates(3, 3, None, 1, GOLDEN_3X3_1);
    assert_generates(4, 4, None, 1, GOLDEN_4X4_1);
    assert_generates(3, 3, Some(Difficulty::Medium), 7, GOLDEN_3X3_MEDIUM_7);
}
const GOLDEN_3X3_1: &str = "3x3:7,8,4,2,5,3,6,1,0";
const GOLDEN_4X4_1: &str = "4x4:10,11,7,3,2,1,8,4,14,5,6,15,0,13,9,12";
const GOLDEN_3X3_MEDIUM_7: &str = "3x3:1,2,0,7,8,4,6,5,3";

#[test]
fn generation_is_uniform_on_2x3() {
    // 359 unsolved solvable states; a chi-square test over 359 × 60 draws.
    let states = 359usize;
    let per = 60usize;
    let mut counts: HashMap<String, usize> = HashMap::new();
    for seed in 0..(states * per) as u64 {
        let b = slide::generate(2, 3, None, seed).unwrap();
        *counts.entry(b.body()).or_default() += 1;
    }
    assert_eq!(
        counts.len(),
        states,
        "every unsolved solvable state is drawn"
    );
    let chi2: f64 = counts
        .values()
        .map(|&c| (c as f64 - per as f64).powi(2) / per as f64)
        .sum();
    // 358 degrees of freedom: mean 358, standard deviation ≈ 26.8; 470 is about p = 0.0001.
    assert!(
        chi2 < 470.0,
        "chi-square {chi2:.1} says the shuffle is not uniform"
    );
    assert!(chi2 > 260.0, "chi-square {chi2:.1} is suspiciously small");
}

#[test]
fn difficulty_bands_hold_on_3x3() {
    for d in Difficulty::ALL {
        let (lo, hi) = d.band(3, 3).unwrap();
        for seed in 0..20 {
            let b = slide::generate(3, 3, Some(d), seed).unwrap();
            let len = slide::optimal_length(&b).unwrap();
            assert!((lo..=hi).contains(&len), "{d:?} #{seed}: {len}");
        }
    }
    let e = slide::generate(5, 5, Some(Difficulty::Easy), 1).unwrap_err();
    assert_eq!(e.code, ErrorCode::OutOfRange);
}

#[test]
fn bad_boards_are_rejected_with_the_right_error() {
    let fail = |text: &str| {
        let e = Board::parse(text).unwrap_err();
        (e.code, e.message)
    };
    assert_rejects(
        ErrorCode::Parse,
        &[
            ("3x3:1,2,3,4,5,6,7,8", "9 cells"),
            ("3x3:1,2,3,4,5,6,7,8,0,0", "9 cells"),
            ("3x3:1,2,3,4,5,6,7,8,9", "does not exist"),
            ("3x3:1,2,3,4,5,6,7,8,8", "no blank"),
            ("3x3:1,2,3,4,5,6,7,0,0", "2 blanks"),
            (
                "3x3:1,2,3,4,5,6,7,7,0",
                "tile 7 appears 2 times; missing: 8",
            ),
            ("3x3:1,2,3,4,x,6,7,8,0", "not a tile number"),
            ("3x3:1,2,3,4,-5,6,7,8,0", "not a tile number"),
            ("3x3 1,2,3", "WxH:<tiles>"),
            ("3y3:1,2,3,4,5,6,7,8,0", "WxH"),
            ("99999999999999999999x3:1", "width"),
        ],
        fail,
    );
    assert_rejects(
        ErrorCode::OutOfRange,
        &[("1x3:1,2,0", "not supported"), ("11x2:1", "not supported")],
        fail,
    );
    // An unsolvable board is a well-formed Board but not a game.
    let b = Board::parse("3x3:2,1,3,4,5,6,7,8,0").unwrap();
    assert!(!b.is_solvable());
    assert_eq!(
        Slide::from_id("3x3:2,1,3,4,5,6,7,8,0", None)
            .unwrap_err()
            .code,
        ErrorCode::Unsolvable
    );
    assert_eq!(
        slide::solve(&b, &Cancel::new()).unwrap_err().code,
        ErrorCode::Unsolvable
    );
    // ID forms.
    assert_eq!(
        Slide::from_id("3x3", None).unwrap_err().code,
        ErrorCode::Parse
    );
    assert_eq!(
        Slide::from_id("3x3:1,2,3,4,5,6,7,0,8", Some(3))
            .unwrap_err()
            .code,
        ErrorCode::Parse
    );
    assert_eq!(
        Slide::from_id("3x3/insane", Some(3)).unwrap_err().code,
        ErrorCode::Parse
    );
    assert_eq!(
        Slide::from_id("12x3", Some(3)).unwrap_err().code,
        ErrorCode::OutOfRange
    );
    assert_eq!(
        Slide::from_id("6x6/easy", Some(3)).unwrap_err().code,
        ErrorCode::OutOfRange
    );
}

#[test]
fn ids_round_trip_through_the_board_body() {
    for id in ["3x3", "4x4", "10x10", "2x7", "3x3/hard"] {
        let g = Slide::from_id(id, Some(99)).unwrap();
        let back = Slide::from_id(&g.board_body(), None).unwrap();
        assert_eq!(back.board(), g.board(), "{id}");
    }
    let g = Slide::from_id("3x3:1,2,3,4,5,6,7,8,0", None).unwrap();
    assert_eq!(g.status(), Status::Won);
}

#[test]
fn session_laws_hold_for_the_slide() {
    let mut s: Session<Slide> = Session::open("slide:3x3:1,2,3,4,0,5,7,8,6").unwrap();
    assert_eq!(s.current().moves(), 0);
    s.play(&Move { tile: 5 }, 0).unwrap();
    assert_eq!(s.current().board_body(), "3x3:1,2,3,4,5,0,7,8,6");
    s.play(&Move { tile: 4 }, 10).unwrap(); // slides 5 and 4 back: two tile moves, one line move
    assert_eq!(s.current().board_body(), "3x3:1,2,3,0,4,5,7,8,6");
    assert_eq!(
        s.snapshot(10).counters,
        serde_json::json!({"tile": 3, "line": 2})
    );
    s.undo(20).unwrap();
    assert_eq!(s.current().board_body(), "3x3:1,2,3,4,5,0,7,8,6");
    s.redo(30).unwrap();
    assert_eq!(s.current().board_body(), "3x3:1,2,3,0,4,5,7,8,6");
    s.restart(40);
    assert_eq!(s.current().board_body(), "3x3:1,2,3,4,0,5,7,8,6");
    assert_eq!(s.current().moves(), 0);
    s.undo(50).unwrap();
    assert_eq!(s.current().board_body(), "3x3:1,2,3,0,4,5,7,8,6");
    // An illegal move changes nothing.
    let before = s.save(60);
    assert_eq!(
        s.play(&Move { tile: 9 }, 60).unwrap_err().code,
        ErrorCode::IllegalMove
    );
    assert_eq!(s.save(60), before);
    // Save, restore by replay.
    let json = serde_json::to_string(&s.save(70)).unwrap();
    let back: huarong_engine::SavedSession<Move> = serde_json::from_str(&json).unwrap();
    let r = Session::<Slide>::restore(&back).unwrap();
    assert_eq!(r.current(), s.current());
    assert!(r.can_redo());
    // Hints: follow the line to the win; each hint is the next cached move.
    let mut s: Session<Slide> = Session::open("slide:3x3#5").unwrap();
    let cancel = Cancel::new();
    let first = s.hint(&cancel).unwrap();
    assert!(first.optimal);
    let mut expected = first.line.clone();
    s.play(&first.mv, 0).unwrap();
    while s.status() == Status::Playing {
        let h = s.hint(&cancel).unwrap();
        assert_eq!(h.mv, expected.remove(0));
        s.play(&h.mv, 0).unwrap();
    }
    assert!(expected.is_empty());
    assert_eq!(s.status(), Status::Won);
    assert_eq!(
        s.play(&Move { tile: 1 }, 0).unwrap_err().code,
        ErrorCode::IllegalMove
    );
}
