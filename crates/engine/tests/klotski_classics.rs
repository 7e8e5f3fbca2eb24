//! The 40 classics: the level data agrees with `tests/data/klotski-classic.tsv`, the
//! solver finds each file count, and every solution replays to the goal.

use huarong_engine::klotski::{classic, classics, search, solve, Board, Klotski, Metric, Move};
use huarong_engine::{Cancel, Game, Status};

const TSV: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/klotski-classic.tsv"
);

/// (name, 20-character board, optimal count) from the reference file.
fn reference() -> Vec<(String, String, Option<u32>)> {
    let text = std::fs::read_to_string(TSV).unwrap_or_else(|e| panic!("{TSV}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("name_zh") && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[1].to_string(), f[2].parse().ok())
        })
        .collect()
}

/// Replay `moves` and check each is one move of `metric`; returns the final game.
fn replay(board: &str, moves: &[Move], metric: Metric) -> Klotski {
    let mut k = Klotski::parse(board).unwrap();
    for m in moves {
        assert_eq!(k.status(), Status::Playing, "moves after the win");
        let from = k.board().piece(m.piece).unwrap().pos();
        let effect = k.apply(m).unwrap_or_else(|e| panic!("{board}: {m:?}: {e}"));
        let (dr, dc) = (from.0.abs_diff(m.to.0), from.1.abs_diff(m.to.1));
        match metric {
            Metric::Unit => assert_eq!(dr + dc, 1, "{m:?} is not a one-cell slide"),
            Metric::Straight => {
                assert!(dr == 0 || dc == 0, "{m:?} is not straight");
                assert_eq!(
                    effect.path.len() as u8 - 1,
                    dr + dc,
                    "{m:?} is blocked on the way"
                );
            }
            Metric::Piece => {}
        }
    }
    k
}

#[test]
fn level_data_matches_the_file() {
    let file = reference();
    assert_eq!(file.len(), 40);
    assert_eq!(classics().len(), 40);
    for (name, board, count) in &file {
        let c = classic(name).unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!(c.board.replace('/', ""), *board, "{name}");
        assert_eq!(c.min_moves, *count, "{name}");
        assert!(!c.name_en.is_empty() && c.name_en.is_ascii());
        assert_eq!(c.stars.is_some(), count.is_some());
    }
    // Ordered by difficulty, numbered 1..=40, the unsolvable one last.
    for (i, c) in classics().iter().enumerate() {
        assert_eq!(c.index as usize, i + 1);
    }
    let counts: Vec<u32> = classics().iter().filter_map(|c| c.min_moves).collect();
    assert_eq!(counts.len(), 39);
    assert!(counts.windows(2).all(|w| w[0] <= w[1]));
    assert_eq!(classics()[39].name_zh, "走投无路");
    let s = classics()[0].stars.unwrap();
    assert!(
        s.three >= 22
            && s.two > s.three
            && s.earned(22) == 3
            && s.earned(s.two) == 2
            && s.earned(s.two + 1) == 1
    );
}

#[test]
fn hengdao_lima_is_81_90_116() {
    let c = classic("横刀立马").unwrap();
    for (metric, want) in [
        (Metric::Piece, 81),
        (Metric::Straight, 90),
        (Metric::Unit, 116),
    ] {
        let info = solve(&c.parse_board(), metric, &Cancel::new())
            .unwrap()
            .unwrap();
        assert_eq!(info.count(), want, "{metric:?}");
        assert!(info.states > 1000);
        let k = replay(c.board, &info.moves, metric);
        assert_eq!(k.status(), Status::Won);
    }
}

#[test]
fn every_classic_solves_to_the_file_count_and_replays() {
    for c in classics() {
        let board = c.parse_board();
        let r = search(&board, Metric::Piece, &Cancel::new()).unwrap();
        match (&r.solution, c.min_moves) {
            (Some(moves), Some(want)) => {
                assert_eq!(moves.len() as u32, want, "{}", c.name_zh);
                let k = replay(c.board, moves, Metric::Piece);
                assert_eq!(k.status(), Status::Won, "{}", c.name_zh);
                assert_eq!(k.moves(), want, "{}", c.name_zh);
            }
            (None, None) => assert!(r.states > 100, "走投无路 explored its whole component"),
            (got, want) => panic!(
                "{}: solver {:?} vs file {want:?}",
                c.name_zh,
                got.as_ref().map(|m| m.len())
            ),
        }
    }
}

#[test]
fn the_other_counts_replay_too() {
    for name in ["峰回路转", "前呼后拥", "近在咫尺", "四面楚歌"] {
        let c = classic(name).unwrap();
        let piece = solve(&c.parse_board(), Metric::Piece, &Cancel::new())
            .unwrap()
            .unwrap()
            .count();
        let mut last = piece;
        for metric in [Metric::Straight, Metric::Unit] {
            let info = solve(&c.parse_board(), metric, &Cancel::new())
                .unwrap()
                .unwrap();
            assert!(
                info.count() >= last,
                "{name}: {metric:?} {} < {last}",
                info.count()
            );
            last = info.count();
            assert_eq!(replay(c.board, &info.moves, metric).status(), Status::Won);
        }
    }
    // The guide's figures for the hardest layout.
    let b = classic("峰回路转").unwrap().parse_board();
    let counts: Vec<u32> = [Metric::Straight, Metric::Unit]
        .iter()
        .map(|&m| solve(&b, m, &Cancel::new()).unwrap().unwrap().count())
        .collect();
    assert_eq!(counts, vec![150, 179]);
}

#[test]
fn hints_lead_to_the_goal_in_the_optimal_count() {
    let c = classic("兵临曹营").unwrap();
    let mut k = Klotski::parse(c.board).unwrap();
    let mut n = 0;
    while k.status() == Status::Playing {
        let h = k.hint(&Cancel::new()).unwrap();
        assert!(h.optimal);
        assert_eq!(h.line.len() as u32, c.min_moves.unwrap() - n - 1);
        k.apply(&h.mv).unwrap();
        n += 1;
    }
    assert_eq!(n, c.min_moves.unwrap());
    assert_eq!(k.moves(), n);
}

#[test]
fn solved_and_tiny_boards() {
    let b = Board::parse("aCCb/aCCb/s..t/u..v").unwrap();
    let info = solve(&b, Metric::Unit, &Cancel::new()).unwrap().unwrap();
    assert_eq!(info.count(), 2);
    let won = Board::parse("s..t/aCCb/aCCb").unwrap();
    assert_eq!(
        solve(&won, Metric::Piece, &Cancel::new())
            .unwrap()
            .unwrap()
            .count(),
        0
    );
    // C walled in for good.
    let stuck = Board::parse("aCCb/aCCb/#dd#/....").unwrap();
    assert!(solve(&stuck, Metric::Piece, &Cancel::new())
        .unwrap()
        .is_none());
}
