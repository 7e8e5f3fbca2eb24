//! Timed moves and splits through the command table: each move's time kept by the session,
//! the journal (across a restart) and the kept replay; result codes that carry the times
//! (`times_ms` within 10 ms, a 150-move 4×4 in at most 600 characters); old codes without
//! times; the splits of the number slide (row by row and in fringes), Klotski and 2048 in
//! `finish`, `analysis`, `splits`, `replay` and the records' best.

use huarong_core::AppState;
use huarong_engine::slide::{Board, Move as Tap, Slide};
use huarong_engine::{code, Cancel, Game};
use huarong_tests::{
    close_core as close, core_ok as ok, start_core_on_test_clock as start, TempDir,
};
use serde_json::{json, Value};
use std::sync::Arc;

fn wait(st: &AppState, ms: u64) {
    ok(st, "test_clock", json!({ "advance_ms": ms }));
}

fn names(splits: &Value) -> Vec<String> {
    splits
        .as_array()
        .unwrap_or_else(|| panic!("no splits: {splits}"))
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect()
}

fn u64s(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not a list: {v}"))
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

/// A W×H start scrambled from solved by the blank's walk (U, D, L, R), and the taps that undo
/// it (the last part of the walk is solved first).
fn undo_walk(w: usize, h: usize, walk: &str) -> (String, Vec<u16>) {
    let mut g = Slide::new(Board::solved(w, h).unwrap()).unwrap();
    let mut taps = Vec::new();
    for d in walk.chars().filter(|c| !c.is_whitespace()) {
        let cells = g.board().cells().to_vec();
        let at = cells.iter().position(|&c| c == 0).unwrap();
        let (r, c) = ((at / w) as isize, (at % w) as isize);
        let (r, c) = match d {
            'U' => (r - 1, c),
            'D' => (r + 1, c),
            'L' => (r, c - 1),
            _ => (r, c + 1),
        };
        let tile = cells[r as usize * w + c as usize] as u16;
        g.apply(&Tap { tile }).unwrap();
        taps.push(tile);
    }
    taps.reverse();
    (format!("slide:{}", g.board_body()), taps)
}

/// Open `id` and tap `taps`, `gap_ms` apart on the test clock; the last answer.
fn play_taps(st: &AppState, id: &str, taps: &[u16], gap_ms: u64) -> Value {
    ok(st, "open_game", json!({ "id": id, "replace": true }));
    let mut last = Value::Null;
    for (i, t) in taps.iter().enumerate() {
        if i > 0 {
            wait(st, gap_ms);
        }
        last = ok(st, "play", json!({ "kind": "slide", "mv": { "tile": t } }));
    }
    last
}

/// A 3×3 played by taps about 300 ms apart, shared: the code's `times_ms` are the recorded
/// times within 10 ms, and replays from the code and from the history say the same.
#[test]
fn a_timed_solve_travels_in_its_result_code() {
    let dir = TempDir::new("times-code");
    let st = start(dir.path());
    let id = "slide:3x3:4,1,3,7,2,6,5,8,0";
    let (log, _) = huarong_tests::solve_slide(id);
    ok(&st, "open_game", json!({ "id": id, "replace": true }));
    wait(&st, 5_000); // before the first move: not counted
    let mut won = Value::Null;
    for (i, mv) in log.iter().enumerate() {
        if i > 0 {
            wait(&st, 300 + 7 * i as u64);
        }
        won = ok(&st, "play", json!({ "kind": "slide", "mv": mv }));
    }
    let finish = &won["finish"];
    assert!(!finish.is_null(), "{won}");
    // The session's own times (the game's clock: the first move at 0).
    let own = ok(&st, "splits", json!({ "kind": "slide" }));
    let recorded = u64s(&own["times_ms"]);
    assert_eq!(recorded.len(), log.len());
    assert_eq!(recorded[0], 0);
    for (i, w) in recorded.windows(2).enumerate() {
        let gap = 300 + 7 * (i as u64 + 1);
        assert!(
            w[1] - w[0] >= gap && w[1] - w[0] < gap + 200,
            "{recorded:?}"
        );
    }
    // The finish's splits: the 3×3's top row and left column, with their times.
    assert_eq!(names(&finish["splits"]), names(&own["splits"]));
    assert!(!names(&finish["splits"]).is_empty(), "{finish}");
    for s in finish["splits"].as_array().unwrap() {
        let moves = s["moves"].as_u64().unwrap() as usize;
        assert!(s["ms"].as_u64().unwrap() <= *recorded.last().unwrap());
        assert!(moves >= 1);
    }
    let rc = ok(&st, "result_code", json!({ "kind": "slide" }));
    assert_eq!(rc["times"], "moves", "{rc}");
    assert_eq!(rc["replay"], true);
    let c = rc["code"].as_str().unwrap().to_string();
    let d = ok(&st, "decode_code", json!({ "text": c }));
    assert_eq!(d["times"], "moves");
    assert_eq!(d["verified"], true, "the moves are verified by replay");
    let got = u64s(&d["times_ms"]);
    assert_eq!(got.len(), recorded.len());
    for (g, r) in got.iter().zip(&recorded) {
        assert!(g.abs_diff(*r) <= 10, "{got:?} vs {recorded:?}");
    }
    assert_eq!(names(&d["splits"]), names(&finish["splits"]));
    // `replay {code}`: the same times, and the splits with theirs.
    let r = ok(&st, "replay", json!({ "code": c }));
    assert_eq!(u64s(&r["times_ms"]), got);
    assert_eq!(r["ms"], r["times_ms"]);
    assert_eq!(r["times"], "moves");
    assert_eq!(names(&r["splits"]), names(&finish["splits"]));
    // A shell without threads (the web) runs the replay as a job: it carries the times.
    let job = match st.offload_command("replay", json!({ "code": c })) {
        Some(Ok(huarong_core::offload::Begun::Job(j))) => j,
        other => panic!("{other:?}"),
    };
    let job: huarong_core::offload::Job =
        serde_json::from_value(serde_json::to_value(&job).unwrap()).unwrap();
    let found = huarong_core::offload::run(
        &job,
        Arc::new(huarong_engine::clock::Native::new()),
        &Cancel::new(),
    );
    let (web, _) = st.offload_finish(&job, found).unwrap();
    assert_eq!(u64s(&web["times_ms"]), got, "{web}");
    assert_eq!(names(&web["splits"]), names(&finish["splits"]));
    // The history keeps the times with the kept replay.
    let scope = finish["key"]
        .as_str()
        .unwrap()
        .rsplit_once('/')
        .unwrap()
        .0
        .to_string();
    let rec = ok(&st, "records", json!({ "scope": scope }));
    assert_eq!(
        names(&rec["best_splits"]),
        names(&finish["splits"]),
        "{rec}"
    );
    let hist = rec["history"].as_array().unwrap();
    let last = hist.last().unwrap();
    let kept = u64s(&last["times_ms"]);
    for (k, r) in kept.iter().zip(&recorded) {
        assert!(k.abs_diff(*r) <= 5, "{kept:?} vs {recorded:?}");
    }
    let idx = hist.len() - 1;
    let r = ok(
        &st,
        "replay",
        json!({ "history": { "scope": scope, "index": idx } }),
    );
    assert_eq!(u64s(&r["times_ms"]), kept);
    // The records' best keeps the splits of the game that set the best time.
    assert_eq!(
        names(&finish["record"]["best_splits"]),
        names(&finish["splits"])
    );
    close(st);
}

/// An undone move's time goes with it, a redo takes the redo's time, and the times survive
/// a restart of the app (the journal); a restart of the game starts a new line.
#[test]
fn undo_redo_and_a_restart_of_the_app_keep_the_times() {
    let dir = TempDir::new("times-undo");
    let st = start(dir.path());
    let (id, taps) = undo_walk(4, 4, "LLLURRRD UULLLDRRRD UUULLLDRRRDD");
    ok(&st, "open_game", json!({ "id": id, "replace": true }));
    ok(
        &st,
        "play",
        json!({ "kind": "slide", "mv": { "tile": taps[0] } }),
    );
    wait(&st, 1_000);
    ok(
        &st,
        "play",
        json!({ "kind": "slide", "mv": { "tile": taps[1] } }),
    );
    wait(&st, 1_000);
    ok(
        &st,
        "play",
        json!({ "kind": "slide", "mv": { "tile": taps[2] } }),
    );
    wait(&st, 500);
    ok(&st, "undo", json!({ "kind": "slide" }));
    let t = u64s(&ok(&st, "splits", json!({ "kind": "slide" }))["times_ms"]);
    assert_eq!(t.len(), 2, "the undone move's time went with it");
    wait(&st, 4_000);
    ok(&st, "redo", json!({ "kind": "slide" }));
    let t = u64s(&ok(&st, "splits", json!({ "kind": "slide" }))["times_ms"]);
    assert!(t[1] >= 1_000 && t[1] < 1_400, "{t:?}");
    assert!(t[2] >= 6_500 && t[2] < 7_200, "the redo's time: {t:?}");
    close(st);
    let st = start(dir.path());
    let back = u64s(&ok(&st, "splits", json!({ "kind": "slide" }))["times_ms"]);
    assert_eq!(back, t, "the journal kept the times");
    // A restart of the game: the line starts again; its moves go on on the game's clock.
    ok(&st, "restart", json!({ "kind": "slide" }));
    assert_eq!(
        ok(&st, "splits", json!({ "kind": "slide" }))["times_ms"],
        json!([])
    );
    close(st);
}

/// A 4×4 solved row by row and one solved in fringes: the split names in order in `finish`,
/// `analysis` and `splits`; times rise with the moves.
#[test]
fn the_number_slide_splits_row_by_row_and_in_fringes() {
    let dir = TempDir::new("times-splits");
    let st = start(dir.path());
    for (walk, want) in [
        (
            "LLLURRRD UULLLDRRRD UUULLLDRRRDD",
            ["row1", "row2", "col1", "col2"],
        ),
        (
            "LLURRD UULLDRRD LLLUURDD UUULDRDD",
            ["row1", "col1", "row2", "col2"],
        ),
    ] {
        let (id, taps) = undo_walk(4, 4, walk);
        let won = play_taps(&st, &id, &taps, 250);
        let f = &won["finish"];
        assert_eq!(names(&f["splits"]), want, "finish of {walk}");
        let ms: Vec<u64> = f["splits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["ms"].as_u64().unwrap())
            .collect();
        assert!(ms.windows(2).all(|w| w[0] <= w[1]), "{ms:?}");
        assert!(ms[0] >= 250, "{ms:?}");
        assert_eq!(
            names(&ok(&st, "splits", json!({ "kind": "slide" }))["splits"]),
            want
        );
        let a = ok(&st, "analysis", json!({ "kind": "slide" }));
        assert_eq!(names(&a["splits"]), want, "analysis of {walk}");
    }
    close(st);
}

/// A line done, broken and done again: during play (`live`) it splits when first done; the
/// finish counts it from when it was done for good.
#[test]
fn live_splits_count_from_first_done_and_the_finish_from_done_for_good() {
    let dir = TempDir::new("times-live");
    let st = start(dir.path());
    let (id, taps) = undo_walk(3, 3, "UULL");
    let t3 = taps[2];
    let line = [taps[0], taps[1], t3, t3, t3, taps[3]];
    let won = play_taps(&st, &id, &line, 500);
    let at = |v: &Value| -> Vec<(String, u64)> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["name"].as_str().unwrap().to_string(),
                    s["moves"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    let s = |n: &str, m: u64| (n.to_string(), m);
    assert_eq!(at(&won["finish"]["splits"]), [s("col1", 1), s("row1", 5)]);
    let now = ok(&st, "splits", json!({ "kind": "slide" }));
    assert_eq!(at(&now["live"]), [s("col1", 1), s("row1", 3)]);
    assert_eq!(at(&now["splits"]), at(&won["finish"]["splits"]));
    let ms = now["live"][1]["ms"].as_u64().unwrap();
    assert!((1_000..1_200).contains(&ms), "{now}");
    close(st);
}

/// Klotski splits at ¾, ½, ¼ of the start's distance along an optimal solve; 2048 at its
/// first 512 (256 was on the board at the start).
#[test]
fn klotski_and_2048_split() {
    let dir = TempDir::new("times-klotski");
    let st = start(dir.path());
    let board = huarong_engine::klotski::classic("横刀立马").unwrap().board;
    let k = huarong_engine::klotski::Klotski::parse(board).unwrap();
    let line = k.solve(&Cancel::new()).unwrap();
    ok(
        &st,
        "open_game",
        json!({ "id": format!("klotski:{board}"), "replace": true }),
    );
    let mut won = Value::Null;
    for m in &line {
        wait(&st, 400);
        won = ok(&st, "play", json!({ "kind": "klotski", "mv": m }));
    }
    let f = &won["finish"];
    assert_eq!(names(&f["splits"]), ["q3", "q2", "q1"], "{f}");
    let total = f["moves"].as_u64().unwrap();
    let moves: Vec<u64> = f["splits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["moves"].as_u64().unwrap())
        .collect();
    assert_eq!(
        moves,
        [total - total * 3 / 4, total - total / 2, total - total / 4]
    );
    let a = ok(&st, "analysis", json!({ "kind": "klotski" }));
    assert_eq!(names(&a["splits"]), ["q3", "q2", "q1"]);
    ok(
        &st,
        "open_game",
        json!({ "id": "2048:128,128,0,0,256,0,0,0,0,0,0,0,0,0,0,0#1", "replace": true }),
    );
    ok(
        &st,
        "play",
        json!({ "kind": "2048", "mv": { "dir": "left" } }),
    );
    wait(&st, 700);
    ok(
        &st,
        "play",
        json!({ "kind": "2048", "mv": { "dir": "up" } }),
    );
    let s = ok(&st, "splits", json!({ "kind": "2048" }));
    assert_eq!(names(&s["splits"]), ["tile512"], "{s}");
    assert_eq!(s["splits"][0]["moves"], 2);
    let ms = s["splits"][0]["ms"].as_u64().unwrap();
    assert!((700..900).contains(&ms), "{s}");
    close(st);
}

/// A 4×4 with a 150-move log played by hand-paced taps: its result code carries every
/// move's time and is at most 600 characters.
#[test]
fn a_150_move_4x4_result_code_is_at_most_600_characters() {
    let dir = TempDir::new("times-150");
    let st = start(dir.path());
    // A walk of 20 from solved, a wander of 65 and back, then the walk undone: 150 taps.
    let mut g = Slide::new(Board::solved(4, 4).unwrap()).unwrap();
    let mut seed = 99u64;
    let mut walk = |g: &mut Slide, k: usize| {
        let mut taps: Vec<u16> = Vec::new();
        while taps.len() < k {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = g.board().movable();
            let t = m[((seed >> 33) % m.len() as u64) as usize];
            if taps.last() == Some(&t) {
                continue;
            }
            g.apply(&Tap { tile: t }).unwrap();
            taps.push(t);
        }
        taps
    };
    let a = walk(&mut g, 20);
    let id = format!("slide:{}", g.board_body());
    let b = walk(&mut g, 65);
    let taps: Vec<u16> = b
        .iter()
        .chain(b.iter().rev())
        .chain(a.iter().rev())
        .copied()
        .collect();
    assert_eq!(taps.len(), 150);
    let won = play_taps(&st, &id, &taps, 420);
    assert!(!won["finish"].is_null());
    let rc = ok(&st, "result_code", json!({ "kind": "slide" }));
    let c = rc["code"].as_str().unwrap();
    assert_eq!(rc["times"], "moves");
    assert!(c.len() <= 600, "{} characters", c.len());
    let d = ok(&st, "decode_code", json!({ "text": c }));
    assert_eq!(u64s(&d["times_ms"]).len(), 150);
    close(st);
}

/// A result code without times (an older build's) still opens and replays as before:
/// `times_ms` null, no times kept, splits without times.
#[test]
fn a_code_without_times_still_decodes_and_replays() {
    let dir = TempDir::new("times-old");
    let st = start(dir.path());
    let id = "slide:3x3:4,1,3,7,2,6,5,8,0";
    let (log, moves) = huarong_tests::solve_slide(id);
    let c = code::encode_result(
        id,
        code::Extra::default(),
        code::Challenge::new(moves, 9_300).unwrap(),
        &code::Sender {
            name: Some("Mei".into()),
            log: Some(log),
        },
    )
    .unwrap();
    let d = ok(&st, "decode_code", json!({ "text": c }));
    assert_eq!(d["times_ms"], Value::Null);
    assert_eq!(d["times"], Value::Null);
    assert_eq!(d["verified"], true);
    for s in d["splits"].as_array().unwrap() {
        assert_eq!(s["ms"], Value::Null);
    }
    let r = ok(&st, "replay", json!({ "code": c }));
    assert_eq!(r["times_ms"], Value::Null);
    assert_eq!(r["ms"], Value::Null);
    assert_eq!(r["views"].as_array().unwrap().len(), 6);
    ok(&st, "open_game", json!({ "id": c, "replace": true }));
    close(st);
}
