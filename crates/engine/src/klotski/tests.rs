//! Unit tests of the Klotski rules, text form, counters, targets and the session laws.

use super::*;
use crate::error::ErrorCode;
use crate::session::Session;

#[path = "../../tests/common/rejects.rs"]
mod rejects;
use rejects::assert_rejects;

const HENGDAO: &str = "aCCb/aCCb/cdde/cste/u..v";

fn counts(piece: u32, straight: u32, unit: u32) -> Counts {
    Counts {
        piece,
        straight,
        unit,
    }
}

fn mv(piece: char, r: u8, c: u8) -> Move {
    Move { piece, to: (r, c) }
}

fn err(text: &str) -> Error {
    Board::parse(text).expect_err(text)
}

#[test]
fn parses_both_forms_and_prints_back() {
    let a = Board::parse("aCCbaCCbcddecsteu..v").unwrap();
    let b = Board::parse(HENGDAO).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.to_rows(), HENGDAO);
    assert_eq!(a.to_compact(), "aCCbaCCbcddecsteu..v");
    assert_eq!((a.width(), a.height()), (4, 5));
    assert_eq!(a.pieces().len(), 10);
    let c = a.goal_piece();
    assert_eq!((c.row, c.col, c.height, c.width), (0, 1, 2, 2));
    assert_eq!(a.exit(), (3, 1));
    let d = a.piece('d').unwrap();
    assert_eq!((d.row, d.col, d.height, d.width), (2, 1, 1, 2));
    assert_eq!(a.at(4, 1), '.');
    assert_eq!(a.at(3, 2), 't');
}

#[test]
fn every_classic_round_trips() {
    for cl in classics() {
        let b = cl.parse_board();
        assert_eq!(b.to_rows(), cl.board, "{}", cl.name_zh);
        assert_eq!(Board::parse(&b.to_compact()).unwrap(), b);
        assert_eq!(Board::parse(&b.to_string()).unwrap(), b);
    }
}

#[test]
fn walls_other_sizes_and_other_shapes_round_trip() {
    for text in [
        "#aCCb#/#aCCb#/#cdde#/#cste#/#u..v#",
        "abb/C../...",
        "aaaC./...../.....",
        "Cbbbb/.cccc/.dddd/xy...",
        "aaa.CC/aaa.CC/......",
        "aCCb/aCCb/cdde/cste/u..v/#..#",
        "ab.CC.de/ab.CC.de/fghhhhij/........",
    ] {
        let b = Board::parse(text);
        let b = match b {
            Ok(b) => b,
            Err(e) => panic!("{text}: {e}"),
        };
        assert_eq!(b.to_rows(), text);
        assert_eq!(Board::parse(&b.to_rows()).unwrap(), b);
    }
    let b = Board::parse("aaa.CC/aaa.CC/......").unwrap();
    let a = b.piece('a').unwrap();
    assert_eq!((a.height, a.width), (2, 3));
    assert_eq!(b.exit(), (1, 2));
    assert!(
        !b.is_wall(0, 0)
            && Board::parse("#aCCb#/#aCCb#/#cdde#/#cste#/#u..v#")
                .unwrap()
                .is_wall(4, 5)
    );
}

#[test]
fn bad_boards_say_what_is_wrong() {
    let fail = |text: &str| {
        let e = err(text);
        (e.code, e.message)
    };
    assert_rejects(
        ErrorCode::Parse,
        &[
            ("", "empty"),
            ("aCCb/aCCb/cdde/cste/u..", "ragged"),
            ("aCCb/aCCb/cdde/cste/u..vv", "ragged"),
            ("aCCb/aCCb//cste/u..v", "row 3 is empty"),
            (
                "aCCb/aCCb/cdde/csté/u..v",
                "unknown character 'é' at row 4, column 4",
            ),
            ("aCCb/aCCb/cdde/cs3e/u..v", "unknown character '3'"),
            ("aCCb/aCCb/cdde/cste/a..v", "piece 'a' is split"),
            (
                "aCCb/aCCb/cdde/cdte/u..v",
                "piece 'd' is not a filled rectangle",
            ),
            ("aBBb/aBBb/cdde/cste/u..v", "no piece C"),
            ("aCCbaCCbcddecsteu..", "20-character"),
            ("aCC../aCC../...../...../.....", "centred"),
            ("aCCb/aCCb/cdde/cste/u##v", "wall blocks the exit"),
        ],
        fail,
    );
    assert_rejects(
        ErrorCode::OutOfRange,
        &[
            ("aC/aC/../..", "width is 2"),
            ("aCCb/aCCb", "height is 2"),
            ("aCCbxxxxx/aCCbxxxxx/.........", "width is 9"),
        ],
        fail,
    );
    let long = "a".repeat(500);
    assert_eq!(err(&long).code, ErrorCode::OutOfRange);
}

#[test]
fn targets_follow_corners() {
    let k = Klotski::parse(HENGDAO).unwrap();
    let s = k.targets('s').unwrap();
    assert_eq!(
        s,
        vec![
            Target {
                to: (4, 1),
                path: vec![(3, 1), (4, 1)]
            },
            Target {
                to: (4, 2),
                path: vec![(3, 1), (4, 1), (4, 2)]
            },
        ]
    );
    let u = k.targets('u').unwrap();
    assert_eq!(
        u.iter().map(|t| t.to).collect::<Vec<_>>(),
        vec![(4, 1), (4, 2)]
    );
    assert!(k.targets('C').unwrap().is_empty());
    assert!(k.targets('a').unwrap().is_empty());
    assert_eq!(k.targets('z').unwrap_err().code, ErrorCode::IllegalMove);
    let json = serde_json::to_string(&s[1]).unwrap();
    assert_eq!(json, r#"{"to":[4,2],"path":[[3,1],[4,1],[4,2]]}"#);
}

#[test]
fn moves_and_effects_serialize_in_the_agreed_form() {
    let m: Move = serde_json::from_str(r#"{"piece":"a","to":[3,1]}"#).unwrap();
    assert_eq!(m, mv('a', 3, 1));
    assert_eq!(
        serde_json::to_string(&m).unwrap(),
        r#"{"piece":"a","to":[3,1]}"#
    );
    let mut k = Klotski::parse(HENGDAO).unwrap();
    let e = k.apply(&mv('s', 4, 2)).unwrap();
    assert_eq!(
        serde_json::to_value(&e).unwrap(),
        serde_json::json!({"piece": "s", "from": [3, 1], "to": [4, 2], "path": [[3, 1], [4, 1], [4, 2]]})
    );
    assert_eq!(
        k.counters(),
        serde_json::json!({"piece": 1, "straight": 2, "unit": 2})
    );
    assert_eq!(k.board_body(), "aCCb/aCCb/cdde/c.te/u.sv");
}

#[test]
fn illegal_moves_change_nothing() {
    let mut k = Klotski::parse(HENGDAO).unwrap();
    let before = k.clone();
    for (m, needle) in [
        (mv('z', 4, 1), "no piece"),
        (mv('s', 3, 1), "already"),
        (mv('s', 9, 1), "off the"),
        (mv('s', 2, 1), "cannot reach"),
        (mv('C', 1, 1), "cannot reach"),
        (mv('d', 4, 1), "cannot reach"),
    ] {
        let e = k.apply(&m).unwrap_err();
        assert_eq!(e.code, ErrorCode::IllegalMove);
        assert!(e.message.contains(needle), "{m:?}: {}", e.message);
        assert_eq!(k, before);
    }
}

#[test]
fn counters_merge_runs_of_one_piece() {
    let mut k = Klotski::parse(HENGDAO).unwrap();
    k.apply(&mv('s', 4, 1)).unwrap();
    assert_eq!(k.counts(), counts(1, 1, 1));
    // The same piece again: still one move, measured from where the run began.
    k.apply(&mv('s', 4, 2)).unwrap();
    assert_eq!(k.counts(), counts(1, 2, 2));
    // Another piece starts a new run.
    k.apply(&mv('t', 3, 1)).unwrap();
    assert_eq!(k.counts(), counts(2, 3, 3));
    k.apply(&mv('t', 4, 1)).unwrap();
    assert_eq!(k.counts(), counts(2, 4, 4));
    // t back where its run began: the run is void.
    k.apply(&mv('t', 3, 2)).unwrap();
    assert_eq!(k.counts(), counts(1, 2, 2));
    assert_eq!(k.moves(), 1);
}

#[test]
fn straight_count_is_the_fewest_slides() {
    // A soldier in an empty corridor: down 2 then right 2 is two slides but four cells.
    let mut k = Klotski::parse("s...CC/....CC/......").unwrap();
    k.apply(&mv('s', 2, 2)).unwrap();
    assert_eq!(k.counts(), counts(1, 2, 4));
    // Continuing the run straight on costs no extra slide.
    k.apply(&mv('s', 2, 3)).unwrap();
    assert_eq!(k.counts(), counts(1, 2, 5));
}

#[test]
fn the_goal_ends_the_game() {
    let mut k = Klotski::parse("aCCb/aCCb/s..t/....").unwrap();
    assert_eq!(k.status(), Status::Playing);
    let e = k.apply(&mv('C', 2, 1)).unwrap();
    assert_eq!(e.path, vec![(0, 1), (1, 1), (2, 1)]);
    assert_eq!(k.status(), Status::Won);
    assert_eq!(
        k.apply(&mv('s', 3, 0)).unwrap_err().code,
        ErrorCode::IllegalMove
    );
    assert!(k.targets('s').unwrap().is_empty());
    assert_eq!(
        k.hint(&Cancel::new()).unwrap_err().code,
        ErrorCode::IllegalMove
    );
    assert!(k.solve(&Cancel::new()).unwrap().is_empty());
}

#[test]
fn hint_is_the_first_move_of_an_optimal_solution() {
    let k = Klotski::parse("aCCb/aCCb/s..t/u..v").unwrap();
    let h = k.hint(&Cancel::new()).unwrap();
    assert!(h.optimal);
    assert_eq!(h.mv, mv('C', 2, 1));
    assert!(h.line.is_empty());
    let nowhere = classic("走投无路").unwrap();
    let k = Klotski::parse(nowhere.board).unwrap();
    let e = k.hint(&Cancel::new()).unwrap_err();
    assert_eq!(e.code, ErrorCode::Unsolvable);
    assert!(e.message.contains("no solution"));
}

#[test]
fn cancelled_search_reports_cancelled() {
    let c = Cancel::new();
    c.cancel();
    let k = Klotski::parse(HENGDAO).unwrap();
    assert_eq!(k.solve(&c).unwrap_err().code, ErrorCode::Cancelled);
}

#[test]
fn game_ids_with_walls_and_seeds() {
    let s = Session::<Klotski>::open("klotski:#aCCb#/#aCCb#/#cdde#/#cste#/#u..v#").unwrap();
    assert_eq!(
        s.current().board_body(),
        "#aCCb#/#aCCb#/#cdde#/#cste#/#u..v#"
    );
    assert_eq!(s.current().board().walls().count_ones(), 10);
    let s = Session::<Klotski>::open("klotski:aCCbaCCbcddecsteu..v").unwrap();
    assert_eq!(s.current().board_body(), HENGDAO);
    let e = Session::<Klotski>::open("klotski:60-90").unwrap_err();
    assert!(e.message.contains("no seed"), "{e}");
    assert_eq!(
        Session::<Klotski>::open("klotski:90-60#1")
            .unwrap_err()
            .code,
        ErrorCode::OutOfRange
    );
    assert_eq!(
        Session::<Klotski>::open("klotski:x-60#1").unwrap_err().code,
        ErrorCode::Parse
    );
    let a = Session::<Klotski>::open("klotski:10-30#7").unwrap();
    let b = Session::<Klotski>::open("klotski:10-30#7").unwrap();
    assert_eq!(a.current(), b.current());
    assert_eq!(a.current().counts(), Counts::default());
}

#[test]
fn session_laws_with_klotski() {
    let mut s = Session::<Klotski>::open(&format!("klotski:{HENGDAO}")).unwrap();
    s.play(&mv('s', 4, 1), 0).unwrap();
    s.play(&mv('s', 4, 2), 10).unwrap();
    assert_eq!(s.snapshot(10).moves, 1);
    s.play(&mv('t', 3, 1), 20).unwrap();
    assert_eq!(s.snapshot(20).moves, 2);
    // Undo restores the counters and the run: s moved twice is still one move.
    s.undo(30).unwrap();
    assert_eq!(s.current().counts(), counts(1, 2, 2));
    s.undo(40).unwrap();
    assert_eq!(s.current().counts(), counts(1, 1, 1));
    // After the undo, s is still the last piece moved: moving it again merges.
    s.play(&mv('s', 4, 2), 50).unwrap();
    assert_eq!(s.current().counts(), counts(1, 2, 2));
    assert!(!s.can_redo());
    s.play(&mv('u', 4, 1), 60).unwrap();
    assert_eq!(s.current().counts(), counts(2, 3, 3));
    // Restart is undoable and goes back to zero.
    s.restart(70);
    assert_eq!(s.current().counts(), Counts::default());
    assert_eq!(s.current().board_body(), HENGDAO);
    s.undo(80).unwrap();
    assert_eq!(s.current().counts().piece, 2);
    // Save and restore by replay gives the same game, counters and run included.
    let saved = s.save(90);
    let json = serde_json::to_string(&saved).unwrap();
    let back: crate::session::SavedSession<Move> = serde_json::from_str(&json).unwrap();
    let r = Session::<Klotski>::restore(&back).unwrap();
    assert_eq!(r.current(), s.current());
    assert_eq!(r.snapshot(90), s.snapshot(90));
    // An illegal move in a save is caught.
    let mut bad = saved.clone();
    bad.log.push(crate::session::Entry::Move(mv('a', 4, 1)));
    assert_eq!(
        Session::<Klotski>::restore(&bad).unwrap_err().code,
        ErrorCode::CorruptSave
    );
    // Hints follow the session's line.
    let mut s = Session::<Klotski>::open("klotski:aCCb/aCCb/s..t/u..v").unwrap();
    let h = s.hint(&Cancel::new()).unwrap();
    s.play(&h.mv, 100).unwrap();
    assert_eq!(s.status(), Status::Won);
    assert_eq!(
        s.snapshot(100).counters,
        serde_json::json!({"piece": 1, "straight": 1, "unit": 2})
    );
}

#[test]
fn playing_an_optimal_solution_scores_its_count() {
    let k = Klotski::parse(HENGDAO).unwrap();
    for (metric, want) in [
        (Metric::Piece, 81),
        (Metric::Straight, 90),
        (Metric::Unit, 116),
    ] {
        let info = k.solve_in(metric, &Cancel::new()).unwrap().unwrap();
        assert_eq!(info.count(), want, "{metric:?}");
        let mut g = k.clone();
        for m in &info.moves {
            assert_eq!(g.status(), Status::Playing);
            g.apply(m).unwrap();
        }
        assert_eq!(g.status(), Status::Won);
        let c = g.counts();
        let got = match metric {
            Metric::Piece => c.piece,
            Metric::Straight => c.straight,
            Metric::Unit => c.unit,
        };
        assert_eq!(got, want, "{metric:?}: {c:?}");
        assert!(c.piece >= 81 && c.straight >= 90 && c.unit >= 116, "{c:?}");
    }
}
