//! Number slide solvers: exact tables, IDA* with pattern databases, the fast reduction solver,
//! hints through the `Game` trait, cancellation, and difficulty generation on 4x4.

use huarong_engine::slide::{self, Board, Difficulty, Move, Slide};
use huarong_engine::{Cancel, ErrorCode, Game, Session, Status};

mod common;
use common::{assert_generates, bfs_near_goal, board};

fn replays(b: &Board, tiles: &[u16]) -> bool {
    let mut r = b.clone();
    r.replay(tiles).is_ok() && r.is_solved()
}

#[test]
fn table_solutions_are_optimal_and_replay() {
    let cancel = Cancel::new();
    for (w, h) in slide::TABLE_SIZES {
        for seed in 0..20 {
            let b = slide::generate(w, h, None, seed).unwrap();
            let sol = slide::solve(&b, &cancel).unwrap();
            assert!(sol.optimal, "{w}x{h}");
            assert!(replays(&b, &sol.tiles), "{w}x{h} #{seed}");
            assert_eq!(Some(sol.tiles.len() as u32), slide::optimal_length(&b));
        }
    }
}

#[test]
fn ida_star_is_optimal_near_the_goal() {
    // Every state within 13 moves of the goal on 3x4 and 4x3: IDA*'s length equals the BFS
    // distance (sampled), and the solution replays.
    let cancel = Cancel::new();
    for (w, h) in [(3, 4), (4, 3)] {
        let near = bfs_near_goal(w, h, 13);
        let mut sample: Vec<(&Vec<u8>, &u8)> = near.iter().collect();
        sample.sort();
        for (cells, &d) in sample.iter().step_by(97) {
            let b = board(w, h, cells);
            let sol = slide::solve(&b, &cancel).unwrap();
            assert!(sol.optimal);
            assert_eq!(sol.tiles.len(), d as usize, "{w}x{h} {cells:?}");
            assert!(replays(&b, &sol.tiles));
        }
    }
}

#[test]
fn ida_star_solves_every_mid_size_and_replays() {
    let cancel = Cancel::new();
    for (w, h) in [(3, 4), (4, 3), (2, 6), (6, 2)] {
        for seed in 0..4 {
            let b = slide::generate(w, h, None, seed).unwrap();
            let sol = slide::solve(&b, &cancel).unwrap();
            assert!(sol.optimal && sol.nodes.is_some());
            assert!(replays(&b, &sol.tiles), "{w}x{h} #{seed}");
            // No solution is shorter than the Manhattan distance, and parity matches.
            let md = b.manhattan() as usize;
            assert!(sol.tiles.len() >= md && (sol.tiles.len() - md).is_multiple_of(2));
        }
    }
}

fn korf(ids: &[u32]) -> Vec<(u32, usize, Board)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/korf100-1-50.tsv"
    );
    let text =
        std::fs::read_to_string(path).expect("tests/data/korf100-1-50.tsv in the repository");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("id") && !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            (
                c[0].parse().unwrap(),
                c[1].parse().unwrap(),
                Board::from_text(4, 4, c[2]).unwrap(),
            )
        })
        .filter(|(id, _, _)| ids.contains(id))
        .collect()
}

#[test]
fn embedded_4x4_tables_load_and_round_trip() {
    // The shipped tables parse (checksum, partition) and are what the search uses.
    assert!(slide::embedded_4x4_loads());
    let set = slide::pdb(4, 4).unwrap();
    assert_eq!(set.groups(), slide::partition(4, 4));
    let back = slide::PdbSet::from_bytes(&set.to_bytes()).unwrap();
    assert!(back.same_tables(set));
    // A heuristic is never above the true distance (Korf #42 is 42 moves) and is exact at 1.
    let (_, want, b) = korf(&[42]).remove(0);
    assert!(set.heuristic(&b).unwrap() as usize <= want);
    let one = Board::parse("4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15").unwrap();
    assert_eq!(set.heuristic(&one).unwrap(), 1);
}

#[test]
fn korf_easy_instances_are_solved_optimally() {
    // The quick ones of Korf 1-50 (the whole set is in `huarong slide bench`).
    let cancel = Cancel::new();
    let cases = korf(&[6, 42, 47]);
    assert_eq!(cases.len(), 3);
    for (id, want, b) in cases {
        let sol = slide::solve(&b, &cancel).unwrap();
        assert_eq!(sol.tiles.len(), want, "Korf #{id}");
        assert!(sol.optimal && replays(&b, &sol.tiles), "Korf #{id}");
    }
}

#[test]
fn the_fast_solver_solves_every_size() {
    let cancel = Cancel::new();
    for w in 2..=10 {
        for h in 2..=10 {
            for seed in 0..3 {
                let b = slide::generate(w, h, None, seed).unwrap();
                let tiles = slide::solve_fast(&b, &cancel).unwrap();
                assert!(replays(&b, &tiles), "{w}x{h} #{seed}");
            }
        }
    }
    // Large boards go to it through `solve`, flagged not optimal.
    let b = slide::generate(10, 10, None, 7).unwrap();
    let sol = slide::solve(&b, &cancel).unwrap();
    assert!(!sol.optimal && replays(&b, &sol.tiles));
    // Already solved: nothing to do.
    let s = Board::solved(9, 7).unwrap();
    assert!(slide::solve_fast(&s, &cancel).unwrap().is_empty());
}

#[test]
fn cancelled_searches_stop_with_the_cancelled_error() {
    let cancel = Cancel::new();
    cancel.cancel();
    for (w, h) in [(4, 4), (10, 10), (3, 3)] {
        let b = slide::generate(w, h, None, 1).unwrap();
        assert_eq!(
            slide::solve(&b, &cancel).unwrap_err().code,
            ErrorCode::Cancelled,
            "{w}x{h}"
        );
    }
    let b = slide::generate(8, 8, None, 1).unwrap();
    assert_eq!(
        slide::solve_fast(&b, &cancel).unwrap_err().code,
        ErrorCode::Cancelled
    );
    // Cancelling a running 4x4 search from another thread (instance 3: 59 moves).
    let (_, _, b) = korf(&[3]).remove(0);
    let c2 = Cancel::new();
    let c3 = c2.clone();
    slide::pdb(4, 4);
    let t = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(5));
        c3.cancel();
    });
    let r = slide::solve(&b, &c2);
    t.join().unwrap();
    // Either it finished within 5 ms (a fast machine) or it was cancelled.
    match r {
        Ok(sol) => assert_eq!(sol.tiles.len(), 59),
        Err(e) => assert_eq!(e.code, ErrorCode::Cancelled),
    }
}

#[test]
fn hints_lead_to_the_goal_on_every_solver() {
    let cancel = Cancel::new();
    for id in [
        "slide:3x3#11",
        "slide:3x4#2",
        "slide:7x5#3",
        "slide:10x10#4",
    ] {
        let mut s: Session<Slide> = Session::open(id).unwrap();
        let first = s.hint(&cancel).unwrap();
        let full = s.solution(&cancel).unwrap();
        assert_eq!(full[0], first.mv, "{id}: the hint starts the solution");
        assert_eq!(full.len(), first.line.len() + 1, "{id}");
        let mut played = 0;
        while s.status() == Status::Playing {
            let h = s.hint(&cancel).unwrap();
            s.play(&h.mv, 0).unwrap();
            played += 1;
            assert!(played <= full.len(), "{id}: hints do not converge");
        }
        // Tile moves counted by the game equal the single-tile solution length.
        let start = Slide::from_id(
            id.split_once(':').unwrap().1.split('#').next().unwrap(),
            id.split('#').nth(1).map(|x| x.parse().unwrap()),
        )
        .unwrap();
        let sol = slide::solve(start.board(), &cancel).unwrap();
        assert_eq!(s.current().moves() as usize, sol.tiles.len(), "{id}");
        assert_eq!(s.current().line_moves() as usize, full.len(), "{id}");
    }
    // Solving from the goal is refused with a clear error by the game, not a panic.
    let won = Slide::from_id("2x2:1,2,3,0", None).unwrap();
    assert_eq!(won.hint(&cancel).unwrap_err().code, ErrorCode::IllegalMove);
    assert!(won.solve(&cancel).unwrap().is_empty());
    let _ = Move { tile: 1 };
}

#[test]
fn four_by_four_difficulty_bands_hold() {
    let cancel = Cancel::new();
    for d in [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard] {
        let (lo, hi) = d.band(4, 4).unwrap();
        for seed in 0..2 {
            let (b, len) = slide::generate_with_length(4, 4, Some(d), seed).unwrap();
            let sol = slide::solve(&b, &cancel).unwrap();
            assert_eq!(Some(sol.tiles.len() as u32), len);
            assert!(
                (lo..=hi).contains(&(sol.tiles.len() as u32)),
                "{d:?} #{seed}: {}",
                sol.tiles.len()
            );
        }
    }
    // Expert: at least 51 moves (the band's top is the 4x4 maximum, 80).
    let b = slide::generate(4, 4, Some(Difficulty::Expert), 0).unwrap();
    let sol = slide::solve(&b, &cancel).unwrap();
    assert!(sol.tiles.len() >= 51, "{}", sol.tiles.len());
    assert_eq!(
        slide::generate_with_length(4, 4, Some(Difficulty::Expert), 0).unwrap(),
        (b, Some(sol.tiles.len() as u32))
    );
    // The daily challenge uses 4x4 medium: pinned forever.
    assert_generates(4, 4, Some(Difficulty::Medium), 1, GOLDEN_4X4_MEDIUM_1);
}
const GOLDEN_4X4_MEDIUM_1: &str = "4x4:1,15,5,4,13,9,2,10,0,11,7,6,14,12,8,3";
