use super::*;
use crate::rng::{self, RngCore};
use crate::session::Session;
use crate::slide::Move as Tap;

fn taps(tiles: &[u16]) -> Vec<Entry<Tap>> {
    tiles
        .iter()
        .map(|&t| Entry::Move(Tap { tile: t }))
        .collect()
}

#[test]
fn lost_moves_and_the_worst_window() {
    let a = Analysis::from_distances(5, vec![4, 5, 6, 5, 4, 4, 3, 2, 1, 0]);
    assert_eq!(a.lost, vec![2, 3, 6]);
    assert_eq!(
        a.worst_window(),
        Some(Window {
            from: 2,
            to: 3,
            lost: 2
        })
    );
    // Lost moves with one good move between them make one stretch.
    let a = Analysis::from_distances(3, vec![4, 5, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1, 0]);
    assert_eq!(a.lost, vec![1, 2, 4, 5, 6]);
    assert_eq!(
        a.worst_window(),
        Some(Window {
            from: 1,
            to: 6,
            lost: 5
        })
    );
    let a = Analysis::from_distances(3, vec![2, 1, 0]);
    assert!(a.lost.is_empty());
    assert_eq!(a.worst_window(), None);
    let a = Analysis::from_distances(0, vec![]);
    assert_eq!(a.worst_window(), None);
    // The earliest of equal stretches.
    let a = Analysis::from_distances(2, vec![3, 2, 1, 2, 1, 0]);
    assert_eq!(
        a.worst_window(),
        Some(Window {
            from: 1,
            to: 1,
            lost: 1
        })
    );
    assert_eq!(
        serde_json::to_value(&a).unwrap(),
        serde_json::json!({"optimal_start": 2, "distances": [3, 2, 1, 2, 1, 0], "lost": [1, 4]})
    );
}

/// Random legal taps on a board, then the rest by hints: a played line that wins.
fn random_line(id: &str, seed: u64, wander: usize) -> Session<Slide> {
    let mut s = Session::<Slide>::open(id).unwrap();
    let mut r = rng::stream(seed, "analysis-test");
    for _ in 0..wander {
        let movable = s.current().board().movable();
        let t = movable[(r.next_u64() % movable.len() as u64) as usize];
        s.play(&Tap { tile: t }, 0).unwrap();
    }
    let cancel = Cancel::new();
    while s.status() == crate::game::Status::Playing {
        let h = s.hint(&cancel).unwrap();
        s.play(&h.mv, 0).unwrap();
    }
    s
}

#[test]
fn small_slide_distances_are_the_tables_after_every_tile() {
    for (id, seed) in [("slide:3x3#4", 1), ("slide:2x5#9", 2), ("slide:2x2#3", 3)] {
        let s = random_line(id, seed, 25);
        let a = slide_from(s.start(), s.played(), SlideRule::Tile, &Cancel::new()).unwrap();
        assert_eq!(a.distances.len() as u32, s.current().tile_moves(), "{id}");
        let b = s.start().board();
        let t = slide::table(b.width(), b.height()).unwrap();
        assert_eq!(Some(a.optimal_start as u8), t.distance(b).unwrap());
        assert_eq!(a.distances.last(), Some(&0));
        // Every tile move changes the optimum by exactly one; lost = the ones that went up.
        let mut prev = a.optimal_start;
        for (k, &d) in a.distances.iter().enumerate() {
            assert_eq!(d.abs_diff(prev), 1, "{id} move {}", k + 1);
            assert_eq!(a.lost.contains(&(k as u32 + 1)), d > prev);
            prev = d;
        }
        // Line count: one entry per tap.
        let l = slide_from(s.start(), s.played(), SlideRule::Line, &Cancel::new()).unwrap();
        assert_eq!(l.distances.len() as u32, s.current().line_moves(), "{id}");
        assert_eq!(l.distances.last(), Some(&0));
        assert!(l.optimal_start <= a.optimal_start);
    }
}

/// The line table agrees with a plain breadth-first search over `Board::slide` taps.
#[test]
fn line_table_matches_a_plain_search() {
    use std::collections::{HashMap, VecDeque};
    for (w, h) in [(2, 2), (2, 3), (3, 2), (2, 4)] {
        let goal = slide::Board::solved(w, h).unwrap();
        let mut dist: HashMap<slide::Board, u32> = HashMap::from([(goal.clone(), 0)]);
        let mut q = VecDeque::from([goal]);
        while let Some(b) = q.pop_front() {
            let d = dist[&b];
            for t in 1..(w * h) as u16 {
                let mut c = b.clone();
                if c.slide(t).is_ok() && !dist.contains_key(&c) {
                    dist.insert(c.clone(), d + 1);
                    q.push_back(c);
                }
            }
        }
        let table = line_table(w, h).unwrap();
        assert_eq!(dist.len(), (1..=w * h).product::<usize>() / 2);
        for (b, d) in &dist {
            assert_eq!(table.distance(b).unwrap(), *d, "{w}x{h} {}", b.body());
        }
        assert_eq!(table.max_distance(), *dist.values().max().unwrap());
    }
    // 3×3: the line optimum is never above the tile optimum, and is at least a third of it
    // (a tap moves at most two tiles).
    let t = slide::table(3, 3).unwrap();
    let l = line_table(3, 3).unwrap();
    let mut r = rng::stream(5, "line-3x3");
    for _ in 0..200 {
        let b = slide::generate(3, 3, None, r.next_u64()).unwrap();
        let (dt, dl) = (
            t.distance(&b).unwrap().unwrap() as u32,
            l.distance(&b).unwrap(),
        );
        assert!(dl <= dt && dt <= 2 * dl, "{} {dt} {dl}", b.body());
    }
}

#[test]
fn four_by_four_distances_match_full_optimal_searches() {
    let s = random_line("slide:4x4/easy#3", 7, 6);
    let a = slide_from(s.start(), s.played(), SlideRule::Tile, &Cancel::new()).unwrap();
    assert_eq!(a.distances.len() as u32, s.current().tile_moves());
    // Replay the tile moves and solve each position from scratch.
    let mut b = s.start().board().clone();
    let full = |b: &slide::Board| {
        slide::solve_optimal(b, &Cancel::new(), None)
            .unwrap()
            .tiles
            .unwrap()
            .len() as u32
    };
    assert_eq!(a.optimal_start, full(&b));
    let mut k = 0;
    for e in s.played() {
        let Entry::Move(m) = e else { continue };
        for mv in b.clone().slide(m.tile).unwrap() {
            b.step(mv.tile).unwrap();
            assert_eq!(a.distances[k], full(&b), "move {}", k + 1);
            k += 1;
        }
    }
    assert_eq!(k, a.distances.len());
    assert!(!a.lost.is_empty(), "the random taps lost moves");
    // By ID as well.
    let by_id = slide_game(s.id(), s.played(), SlideRule::Tile, &Cancel::new()).unwrap();
    assert_eq!(by_id, a);
}

#[test]
fn only_the_line_after_the_last_restart_counts() {
    let start = Slide::from_id("3x3:1,2,3,4,5,6,0,7,8", None).unwrap();
    let mut log = taps(&[4, 1]);
    log.push(Entry::Restart);
    log.extend(taps(&[8]));
    let a = slide_from(&start, &log, SlideRule::Tile, &Cancel::new()).unwrap();
    assert_eq!(
        a,
        Analysis {
            optimal_start: 2,
            distances: vec![1, 0],
            lost: vec![]
        }
    );
    let a = slide_from(&start, &log[..2], SlideRule::Tile, &Cancel::new()).unwrap();
    assert_eq!(a.distances, vec![3, 4]);
    assert_eq!(a.lost, vec![1, 2]);
    assert_eq!(
        a.worst_window(),
        Some(Window {
            from: 1,
            to: 2,
            lost: 2
        })
    );
}

#[test]
fn bad_logs_unsupported_boards_and_cancel_are_typed_errors() {
    let start = Slide::from_id("3x3:1,2,3,4,5,6,0,7,8", None).unwrap();
    let e = slide_from(&start, &taps(&[5]), SlideRule::Tile, &Cancel::new()).unwrap_err();
    assert_eq!(e.code, ErrorCode::IllegalMove);
    for (id, rule) in [
        ("slide:5x5#1", SlideRule::Tile),
        ("slide:4x4#1", SlideRule::Line),
        ("slide:10x10#1", SlideRule::Tile),
    ] {
        let e = slide_game(id, &[], rule, &Cancel::new()).unwrap_err();
        assert_eq!(e.code, ErrorCode::Unsupported, "{id}");
    }
    let cancel = Cancel::new();
    cancel.cancel();
    let e = slide_game("slide:4x4#1", &taps(&[15]), SlideRule::Tile, &cancel).unwrap_err();
    assert_eq!(e.code, ErrorCode::Cancelled);
    let e = klotski_game(
        "klotski:aCCb/aCCb/cdde/cste/u..v",
        &[],
        Metric::Piece,
        &cancel,
    )
    .unwrap_err();
    assert_eq!(e.code, ErrorCode::Cancelled);
    assert_eq!(
        slide_game(
            "klotski:aCCb/aCCb/cdde/cste/u..v",
            &[],
            SlideRule::Tile,
            &Cancel::new()
        )
        .unwrap_err()
        .code,
        ErrorCode::Parse
    );
    assert_eq!(
        SlideRule::parse("tiles").unwrap_err().code,
        ErrorCode::Parse
    );
    assert_eq!(klotski_rule("pieces").unwrap_err().code, ErrorCode::Parse);
    let e = klotski_game(
        "klotski:aCCb/aCCb/cdde/cste/u..v",
        &[Entry::Move(klotski::Move {
            piece: 'z',
            to: (0, 0),
        })],
        Metric::Piece,
        &Cancel::new(),
    )
    .unwrap_err();
    assert_eq!(e.code, ErrorCode::IllegalMove);
}

const HENGDAO: &str = "klotski:aCCb/aCCb/cdde/cste/u..v";

#[test]
fn klotski_optimal_play_never_loses_a_move() {
    let start = Klotski::from_id("aCCb/aCCb/cdde/cste/u..v", None).unwrap();
    let sol = start
        .solve_in(Metric::Piece, &Cancel::new())
        .unwrap()
        .unwrap();
    let log: Vec<_> = sol.moves.iter().map(|&m| Entry::Move(m)).collect();
    let a = klotski_from(&start, &log, Metric::Piece, &Cancel::new()).unwrap();
    assert_eq!(a.optimal_start, 81);
    assert_eq!(a.distances, (0..81).rev().collect::<Vec<u32>>());
    assert!(a.lost.is_empty());
    // The same line under the other counts: as many entries as the counters, ending at 0,
    // and every counted step changes the distance by at most one.
    let mut g = start.clone();
    for m in &sol.moves {
        g.apply(m).unwrap();
    }
    for (metric, count, optimum) in [
        (Metric::Straight, g.counts().straight, 90),
        (Metric::Unit, g.counts().unit, 116),
    ] {
        let a = klotski_from(&start, &log, metric, &Cancel::new()).unwrap();
        assert_eq!(a.optimal_start, optimum, "{metric:?}");
        assert_eq!(a.distances.len() as u32, count, "{metric:?}");
        assert_eq!(a.distances.last(), Some(&0));
        let mut prev = a.optimal_start;
        for &d in &a.distances {
            assert!(d.abs_diff(prev) <= 1, "{metric:?}");
            prev = d;
        }
    }
}

#[test]
fn klotski_detours_are_lost_and_distances_match_the_solver() {
    let mut s = Session::<Klotski>::open(HENGDAO).unwrap();
    let cancel = Cancel::new();
    // Wander: random legal moves (never the same piece twice in a row), then hints.
    let mut r = rng::stream(11, "klotski-analysis");
    let mut last = ' ';
    let mut checked = Vec::new();
    for _ in 0..12 {
        let b = s.current().board().clone();
        let mut options = Vec::new();
        for p in b.pieces() {
            if p.letter == last {
                continue;
            }
            for t in b.targets(p.letter).unwrap() {
                options.push(klotski::Move {
                    piece: p.letter,
                    to: t.to,
                });
            }
        }
        let mv = options[(r.next_u64() % options.len() as u64) as usize];
        last = mv.piece;
        s.play(&mv, 0).unwrap();
        checked.push(s.current().board().clone());
    }
    while s.status() == crate::game::Status::Playing {
        let h = s.hint(&cancel).unwrap();
        s.play(&h.mv, 0).unwrap();
    }
    let a = klotski_from(s.start(), s.played(), Metric::Piece, &cancel).unwrap();
    assert_eq!(a.distances.len() as u32, s.current().counts().piece);
    for (k, b) in checked.iter().enumerate() {
        let want = klotski::solve(b, Metric::Piece, &cancel)
            .unwrap()
            .unwrap()
            .count();
        assert_eq!(a.distances[k], want, "after move {}", k + 1);
    }
    let by_id = klotski_game(HENGDAO, s.played(), Metric::Piece, &cancel).unwrap();
    assert_eq!(by_id, a);
    // A run (one piece twice in a row) is one piece move.
    let start = Klotski::from_id("aCCb/aCCb/cdde/cste/u..v", None).unwrap();
    let log = vec![
        Entry::Move(klotski::Move {
            piece: 'u',
            to: (4, 1),
        }),
        Entry::Move(klotski::Move {
            piece: 'u',
            to: (4, 2),
        }),
    ];
    let a = klotski_from(&start, &log, Metric::Piece, &cancel).unwrap();
    assert_eq!(a.distances.len(), 1);
    let a = klotski_from(&start, &log, Metric::Unit, &cancel).unwrap();
    assert_eq!(a.distances.len(), 2);
}
