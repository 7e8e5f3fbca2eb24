//! Budgeted hints and solves (`Game::hint_within`, `slide::solve_within`), the weighted
//! searches, the 5×5 solver and the shipped hard 4×4 list. Times are never asserted: only
//! legality, that paths solve, and that `optimal` is honest.

use huarong_engine::clock::{Native, Ticking};
use huarong_engine::slide::{self, Board, Limit, Slide, Weight};
use huarong_engine::{Cancel, ErrorCode, Game, Session, Status};
use std::time::Duration;

const ISSUE_80: &str = "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1";

fn replays(b: &Board, tiles: &[u16]) -> bool {
    let mut r = b.clone();
    r.replay(tiles).is_ok() && r.is_solved()
}

/// The shipped list: (optimal length, board).
fn hard() -> Vec<(usize, Board)> {
    slide::HARD_4X4
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            (
                cols[0].parse().unwrap(),
                Board::from_text(4, 4, cols[1]).unwrap(),
            )
        })
        .collect()
}

#[test]
fn the_hard_list_is_well_formed_and_holds_the_issue_board() {
    let list = hard();
    assert!(list.len() >= 10);
    assert!(list
        .iter()
        .all(|(l, b)| (70..=80).contains(l) && b.is_solvable()));
    assert_eq!(list[0].0, 80);
    assert_eq!(list[0].1, Board::from_text(4, 4, ISSUE_80).unwrap());
    // Lengths have the parity of the board (Manhattan distance parity), a cheap check of
    // every recorded length.
    for (l, b) in &list {
        assert_eq!(*l as u32 % 2, b.manhattan() % 2, "{b:?}");
        assert!(*l as u32 >= slide::pdb(4, 4).unwrap().heuristic(b).unwrap());
    }
}

#[test]
fn a_budgeted_hint_on_the_80_move_board_is_a_legal_move_of_a_solution() {
    let g = Slide::new(Board::from_text(4, 4, ISSUE_80).unwrap()).unwrap();
    assert!(g.hint_can_improve());
    // A generous budget for a loaded machine; the optimal search needs far more.
    let h = g
        .hint_within(Duration::from_millis(400), &Native::new(), &Cancel::new())
        .unwrap();
    assert!(!h.optimal, "the 80-move proof takes about a minute");
    let mut p = g.clone();
    p.apply(&h.mv).unwrap();
    for m in &h.line {
        p.apply(m).unwrap();
    }
    assert_eq!(p.status(), Status::Won);
    assert!(p.tile_moves() >= 80);
    // solve_within: the same kind of answer, a whole path.
    let s = g
        .solve_within(Duration::from_millis(400), &Native::new(), &Cancel::new())
        .unwrap();
    assert!(!s.optimal);
    let mut p = g.clone();
    for m in &s.moves {
        p.apply(m).unwrap();
    }
    assert_eq!(p.status(), Status::Won);
}

#[test]
fn weighted_searches_solve_the_hard_boards_and_never_beat_the_optimum() {
    let cancel = Cancel::new();
    for (len, b) in hard().iter().take(6) {
        for w in [Weight::Three, Weight::Two] {
            let f = slide::solve_weighted(b, w, &Limit::NONE, &cancel)
                .unwrap()
                .expect("no limit");
            let tiles = f.tiles.unwrap();
            assert!(replays(b, &tiles), "{b:?}");
            assert!(tiles.len() >= *len, "{w:?} beat the optimum on {b:?}");
        }
    }
}

#[test]
fn optimal_is_only_claimed_for_optimal_paths() {
    // Easy boards finish their proof within the budget; the result equals the optimum.
    let cancel = Cancel::new();
    for seed in 0..5 {
        let b = slide::generate(4, 4, Some(slide::Difficulty::Medium), seed).unwrap();
        let opt = slide::solve(&b, &cancel).unwrap();
        let got = slide::solve_within(&b, Some(Duration::from_secs(30)), &Native::new(), &cancel)
            .unwrap();
        assert!(got.optimal);
        assert_eq!(got.tiles.len(), opt.tiles.len());
        assert!(replays(&b, &got.tiles));
    }
    // A node-limited optimal search that runs out reports nothing, not a path.
    let b = Board::from_text(4, 4, ISSUE_80).unwrap();
    let limit = Limit {
        deadline: None,
        nodes: Some(100_000),
    };
    assert!(slide::solve_weighted(&b, Weight::One, &limit, &cancel)
        .unwrap()
        .is_none());
}

/// Solve the `w`×`h` boards of `seeds`: each path replays (and passes `more(board, solution)`),
/// and together they are shorter than the plain reduction's.
fn assert_shorter_than_plain(
    w: usize,
    h: usize,
    seeds: std::ops::Range<u64>,
    more: impl Fn(&Board, &slide::Solution),
) {
    let cancel = Cancel::new();
    let (mut ours, mut plain) = (0usize, 0usize);
    for seed in seeds {
        let b = slide::generate(w, h, None, seed).unwrap();
        let sol = slide::solve(&b, &cancel).unwrap();
        assert!(replays(&b, &sol.tiles), "{w}x{h} seed {seed}");
        more(&b, &sol);
        ours += sol.tiles.len();
        plain += slide::solve_fast(&b, &cancel).unwrap().len();
    }
    assert!(ours < plain, "{w}x{h}: {ours} tile moves against {plain}");
}

#[test]
fn five_by_five_paths_replay_and_beat_the_plain_reduction() {
    assert_shorter_than_plain(5, 5, 0..6, |b, sol| {
        assert!(!sol.optimal);
        let budgeted = slide::solve_within(
            b,
            Some(Duration::from_millis(300)),
            &Native::new(),
            &Cancel::new(),
        )
        .unwrap();
        assert!(replays(b, &budgeted.tiles), "{} (budget)", b.body());
    });
}

#[test]
fn big_boards_replay_and_are_shorter_than_the_plain_reduction() {
    for (w, h) in [(6, 6), (7, 5), (10, 10)] {
        assert_shorter_than_plain(w, h, 0..3, |_, _| {});
    }
}

#[test]
fn a_cancelled_budgeted_search_says_so() {
    let b = Board::from_text(4, 4, ISSUE_80).unwrap();
    let cancel = Cancel::new();
    cancel.cancel();
    let e = slide::solve_within(
        &b,
        Some(Duration::from_millis(200)),
        &Native::new(),
        &cancel,
    )
    .unwrap_err();
    assert_eq!(e.code, ErrorCode::Cancelled);
}

#[test]
fn the_session_reuses_a_quick_line_and_adopts_an_optimal_proof() {
    // A medium 4x4 so that the proof is quick; the quick answer is forced by a tiny budget
    // only if the machine is slow, so both outcomes are checked for honesty.
    let b = slide::generate(4, 4, Some(slide::Difficulty::Hard), 3).unwrap();
    let id = format!("slide:{}", b.body());
    let mut s: Session<Slide> = Session::open(&id).unwrap();
    let cancel = Cancel::new();
    let quick = s
        .hint_within(Duration::from_millis(1), &Native::new(), &cancel)
        .unwrap();
    assert_eq!(s.hints_used(), 1);
    // The background proof on a copy of the position, then adopted.
    let at = s.current().board_body();
    let proof = s.current().clone().hint(&cancel).unwrap();
    assert!(proof.optimal);
    assert!(s.adopt_hint(&at, &proof));
    assert_eq!(s.hints_used(), 1, "adopting is not a hint");
    let again = s
        .hint_within(Duration::from_millis(1), &Native::new(), &cancel)
        .unwrap();
    assert!(again.optimal);
    assert_eq!(again.mv, proof.mv);
    // A proof for another position is refused.
    s.play(&again.mv, 0).unwrap();
    assert!(!s.adopt_hint(&at, &proof));
    let _ = quick;
    // solution_within solves from here.
    let sol = s
        .solution_within(Duration::from_millis(200), &Native::new(), &cancel)
        .unwrap();
    let mut g = s.current().clone();
    for m in &sol.moves {
        g.apply(m).unwrap();
    }
    assert_eq!(g.status(), Status::Won);
}

/// A budgeted solve of `b` under a clock that reads `step` later at every look.
fn under_ticking(b: &Board, step: Duration) -> (slide::Solution, u64) {
    let clock = Ticking::new(step);
    let sol =
        slide::solve_within(b, Some(Duration::from_millis(200)), &clock, &Cancel::new()).unwrap();
    (sol, clock.reads())
}

#[test]
fn the_deadline_is_read_on_the_injected_clock() {
    // The 80-move board's proof needs hundreds of millions of nodes. Under a clock that
    // advances 1 ms per look (one look every few thousand nodes), the 200 ms budget is spent
    // after about 200 looks whatever the machine's speed: the answer is a path (not proved
    // optimal), the same every run, found with at most a few thousand nodes per look; a
    // clock that advances 20 µs per look lets the same budget search ten times longer.
    let b = Board::from_text(4, 4, ISSUE_80).unwrap();
    let (coarse, reads) = under_ticking(&b, Duration::from_millis(1));
    assert!(!coarse.optimal);
    assert!(replays(&b, &coarse.tiles));
    let (again, reads_again) = under_ticking(&b, Duration::from_millis(1));
    assert_eq!(
        (&again.tiles, again.nodes, reads_again),
        (&coarse.tiles, coarse.nodes, reads)
    );
    // The budget less its 15 ms margin is 185 looks; a few more end the searches.
    assert!((150..=215).contains(&reads), "{reads} looks at the clock");
    let nodes = coarse.nodes.unwrap();
    assert!(nodes <= reads * 4096, "{nodes} nodes in {reads} looks");
    let (fine, fine_reads) = under_ticking(&b, Duration::from_micros(20));
    assert!(fine_reads > 10 * reads, "{fine_reads} looks");
    assert!(fine.nodes.unwrap() > 10 * nodes);
    assert!(fine.tiles.len() <= coarse.tiles.len() || !fine.optimal);
    assert!(replays(&b, &fine.tiles));
}

/// The unbounded hint (the app's background proof) stops at the deadline of the thread's
/// ambient budget with `unsupported`; without one it would search for about a minute.
#[test]
fn the_optimal_hint_stops_at_the_ambient_deadline() {
    use huarong_engine::budget::{self, Budget};
    use std::sync::Arc;
    let g = Slide::new(Board::from_text(4, 4, ISSUE_80).unwrap()).unwrap();
    // A clock that advances with every look at it: the deadline is a count of polls.
    let clock = Arc::new(Ticking::new(Duration::from_millis(1)));
    let bounds = Budget::default().within(clock.clone(), Duration::from_millis(200));
    let e = budget::scoped(bounds, || g.hint(&Cancel::new())).unwrap_err();
    assert_eq!(e.code, ErrorCode::Unsupported, "{e}");
    assert!(e.message.contains("time budget"), "{}", e.message);
    assert!(clock.reads() >= 200, "it stopped before its deadline");
    // The auto-solve of the same board too, and outside the scope nothing is bounded: a
    // board that proves at once is still optimal.
    let bounds = Budget::default().within(clock.clone(), Duration::from_millis(200));
    let e = budget::scoped(bounds, || g.solve(&Cancel::new())).unwrap_err();
    assert_eq!(e.code, ErrorCode::Unsupported, "{e}");
    let easy = Slide::new(Board::from_text(4, 4, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15").unwrap())
        .unwrap();
    assert!(easy.hint(&Cancel::new()).unwrap().optimal);
}
