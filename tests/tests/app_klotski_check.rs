//! Issue 36, the Klotski layout editor's command: `klotski_check {board}` says whether a
//! layout is valid (one 曹操, generals and soldiers on the 4×5 board, no overlap, two empty
//! cells, not solved already), and for a valid one whether it is solvable and its optimum.
//! Checked against the 40 classics of `tests/data/klotski-classic.tsv` (their known optima and
//! the one without a solution), layouts built piece by piece, every fault's code and message,
//! and malformed arguments (typed `bad_argument`, never a panic). A valid layout's `id` opens
//! with `open_game` and its share code round-trips.

use huarong_tests::{TempDir, TestApp};
use serde_json::{json, Value};

const TSV: &str = include_str!("../data/klotski-classic.tsv");

/// (name, 20-character board, optimum or None for no solution) from the reference file.
fn classics() -> Vec<(String, String, Option<u64>)> {
    TSV.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("name_zh") && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[1].to_string(), f[2].parse().ok())
        })
        .collect()
}

fn piece(shape: &str, row: i64, col: i64) -> Value {
    json!({"shape": shape, "row": row, "col": col})
}

/// 横刀立马 as the editor's pieces.
fn heng_dao_li_ma() -> Vec<Value> {
    vec![
        piece("vertical", 0, 0),
        piece("cao", 0, 1),
        piece("vertical", 0, 3),
        piece("vertical", 2, 0),
        piece("horizontal", 2, 1),
        piece("vertical", 2, 3),
        piece("soldier", 3, 1),
        piece("soldier", 3, 2),
        piece("soldier", 4, 0),
        piece("soldier", 4, 3),
    ]
}

fn check(app: &TestApp, board: Value) -> Value {
    app.ok("klotski_check", json!({ "board": board }))
}

/// An invalid layout's error, with the answer's other fields empty.
fn fault(app: &TestApp, board: Value) -> Value {
    let v = check(app, board.clone());
    assert_eq!(v["valid"], false, "{board}: {v}");
    for k in ["solvable", "optimal", "board", "id", "classic", "names"] {
        assert!(v[k].is_null(), "{board}: {k} on an invalid layout: {v}");
    }
    let e = v["error"].clone();
    assert!(
        e["message"].as_str().is_some_and(|m| m.len() > 10),
        "{board}: no clear message: {v}"
    );
    e
}

#[test]
fn every_classic_checks_to_its_known_optimum() {
    let dir = TempDir::new("kcheck-classics");
    let app = TestApp::start(dir.path(), None);
    let list = classics();
    assert_eq!(list.len(), 40, "the reference file's 40 classics");
    let mut unsolvable = 0;
    for (name, board, optimum) in &list {
        let v = check(&app, json!(board));
        assert_eq!(v["valid"], true, "{name} {board}: {v}");
        assert!(v["error"].is_null(), "{name}: {v}");
        assert_eq!(v["rule"], "piece");
        assert_eq!(v["solvable"], optimum.is_some(), "{name}: {v}");
        assert_eq!(v["optimal"].as_u64(), *optimum, "{name}: {v}");
        // Its own classic (瓮中之鳖 and 小燕出巢 are one board: either name).
        let found = v["classic"]["name_zh"].as_str().unwrap_or("");
        let same_board: Vec<&str> = list
            .iter()
            .filter(|(_, b, _)| b == board)
            .map(|(n, _, _)| n.as_str())
            .collect();
        assert!(same_board.contains(&found), "{name}: classic {found:?}");
        if optimum.is_none() {
            unsolvable += 1;
        }
    }
    assert_eq!(unsolvable, 1, "走投无路 is the one without a solution");
    app.close();
}

#[test]
fn a_layout_built_piece_by_piece_is_81_moves_opens_and_shares() {
    let dir = TempDir::new("kcheck-built");
    let app = TestApp::start(dir.path(), None);
    let v = check(&app, json!(heng_dao_li_ma()));
    assert_eq!(v["valid"], true, "{v}");
    assert_eq!(v["solvable"], true);
    assert_eq!(
        v["optimal"], 81,
        "横刀立马 is 81 moves (klotski-classic.tsv)"
    );
    assert_eq!(v["board"], "aCCb/aCCb/cdde/cfge/h..i");
    assert_eq!(v["id"], "klotski:aCCb/aCCb/cdde/cfge/h..i");
    assert_eq!(v["classic"]["name_zh"], "横刀立马");
    // A classic's pieces carry the game board's names, by cell: 关羽 lying in the middle.
    let names = v["names"].as_array().expect("a classic's names");
    let at = |r: u64, c: u64| {
        names
            .iter()
            .find(|n| n["row"] == r && n["col"] == c)
            .map(|n| (n["name_zh"].clone(), n["name_en"].clone()))
    };
    assert_eq!(at(2, 1), Some((json!("关羽"), json!("Guan Yu"))), "{v}");
    assert_eq!(at(0, 1), Some((json!("曹操"), json!("Cao Cao"))), "{v}");
    assert_eq!(names.len(), 10, "{v}");
    assert!(v["states"].as_u64().is_some_and(|n| n > 1000), "{v}");
    // The same pieces in any order are the same layout.
    let mut reversed = heng_dao_li_ma();
    reversed.reverse();
    assert_eq!(check(&app, json!(reversed))["id"], v["id"]);

    // A layout that is no classic: 横刀立马 with two soldiers swapped for a lying general.
    // A layout that is no classic (the web suite's): four generals up, 曹操 in the middle.
    let mine = json!([
        piece("cao", 2, 1),
        piece("vertical", 0, 0),
        piece("vertical", 0, 1),
        piece("vertical", 0, 2),
        piece("vertical", 0, 3),
        piece("horizontal", 4, 1),
        piece("soldier", 2, 0),
        piece("soldier", 2, 3),
        piece("soldier", 4, 0),
        piece("soldier", 4, 3),
    ]);
    let m = check(&app, mine);
    assert_eq!(m["valid"], true, "{m}");
    assert!(m["classic"].is_null(), "{m}");
    assert!(m["names"].is_null(), "{m}");
    assert_eq!(m["id"], "klotski:abcd/abcd/eCCf/.CC./ghhi");
    assert_eq!(
        (m["solvable"].clone(), m["optimal"].clone()),
        (json!(true), json!(15))
    );

    // Play opens the checked layout as today; it starts at the layout.
    let opened = app.ok("open_game", json!({ "id": v["id"] }));
    assert_eq!(opened["snapshot"]["board"], v["board"]);
    assert_eq!(opened["snapshot"]["moves"], 0);
    // The game's own solver agrees with the check's optimum.
    let hint = app.ok("hint", json!({"kind": "klotski"}));
    assert_eq!(hint["remaining"], 81, "{hint}");

    // Share: a code that decodes to the same layout.
    let mut shared = vec![v.clone()];
    shared.push(m.clone());
    for c in shared {
        let code = app.ok("encode_code", json!({ "id": c["id"] }));
        let text = code["code"].as_str().expect("a code");
        let back = app.ok("decode_code", json!({ "text": text }));
        assert_eq!(back["kind"], "klotski");
        let decoded = check(&app, back["board"].clone());
        if c["classic"].is_null() {
            // Lettered as the code letters it: the very same game ID.
            assert_eq!(
                back["id"], c["id"],
                "the code decodes to the very same layout"
            );
        } else {
            // A classic travels as its number and comes back as the classic's own text.
            assert_eq!(
                decoded["classic"]["name_zh"], c["classic"]["name_zh"],
                "{back}"
            );
        }
        assert_eq!(decoded["valid"], true, "{back}");
        assert_eq!(
            decoded["optimal"], c["optimal"],
            "{} → {text} → {back}",
            c["id"]
        );
        let opened = app.ok("open_game", json!({ "id": text, "replace": true }));
        assert_eq!(opened["snapshot"]["moves"], 0);
    }
    app.close();
}

#[test]
fn an_unsolvable_layout_is_valid_without_an_optimum() {
    let dir = TempDir::new("kcheck-unsolvable");
    let app = TestApp::start(dir.path(), None);
    // 走投无路 as pieces: "aCCb/aCCb/cdse/cdte/u..v".
    let pieces = json!([
        piece("vertical", 0, 0),
        piece("cao", 0, 1),
        piece("vertical", 0, 3),
        piece("vertical", 2, 0),
        piece("vertical", 2, 1),
        piece("soldier", 2, 2),
        piece("vertical", 2, 3),
        piece("soldier", 3, 2),
        piece("soldier", 4, 0),
        piece("soldier", 4, 3),
    ]);
    let v = check(&app, pieces);
    assert_eq!(v["valid"], true, "{v}");
    assert_eq!(v["solvable"], false, "{v}");
    assert!(v["optimal"].is_null(), "{v}");
    assert!(v["error"].is_null(), "{v}");
    assert_eq!(v["classic"]["name_zh"], "走投无路");
    // 横刀立马 with the two lower soldiers swapped for a lying general: no classic, no way out.
    let mut stuck = heng_dao_li_ma();
    stuck.truncate(8);
    stuck.push(piece("horizontal", 4, 2));
    let s = check(&app, json!(stuck));
    assert_eq!(
        (s["valid"].clone(), s["solvable"].clone()),
        (json!(true), json!(false)),
        "{s}"
    );
    assert!(s["optimal"].is_null() && s["classic"].is_null(), "{s}");
    // An unsolvable layout has no share code (the code path refuses it).
    assert_eq!(
        app.err("encode_code", json!({ "id": s["id"] })),
        "unsolvable"
    );
    // Cao Cao among fourteen soldiers: soldiers slip past each other, so he gets out.
    let mut walled = vec![piece("cao", 0, 1)];
    for (r, c) in [(0, 0), (1, 0), (0, 3), (1, 3), (2, 1), (2, 2)] {
        walled.push(piece("soldier", r, c));
    }
    for (r, c) in [
        (2, 0),
        (2, 3),
        (3, 0),
        (3, 3),
        (4, 0),
        (4, 3),
        (3, 1),
        (3, 2),
    ] {
        walled.push(piece("soldier", r, c));
    }
    let w = check(&app, json!(walled));
    assert_eq!(w["valid"], true, "{w}");
    assert_eq!(w["solvable"], true, "{w}");
    app.close();
}

#[test]
fn invalid_layouts_say_what_is_wrong() {
    let dir = TempDir::new("kcheck-invalid");
    let app = TestApp::start(dir.path(), None);

    let e = fault(&app, json!([]));
    assert_eq!(e["code"], "no_cao_cao");
    assert!(e["message"].as_str().unwrap().contains("Cao Cao"), "{e}");

    let e = fault(&app, json!([piece("cao", 4, 0)]));
    assert_eq!(e["code"], "out_of_bounds");
    assert_eq!(e["piece"], 0);
    assert!(e["message"].as_str().unwrap().contains("row 5"), "{e}");
    assert_eq!(
        fault(&app, json!([piece("horizontal", 0, 3)]))["code"],
        "out_of_bounds"
    );
    assert_eq!(
        fault(&app, json!([piece("soldier", -1, 0)]))["code"],
        "out_of_bounds"
    );

    let e = fault(&app, json!([piece("cao", 0, 1), piece("vertical", 1, 2)]));
    assert_eq!(e["code"], "overlap");
    assert_eq!(e["piece"], 1);
    assert_eq!(e["cells"], json!([[1, 2]]));
    assert!(e["message"].as_str().unwrap().contains("overlaps"), "{e}");

    let e = fault(&app, json!([piece("cao", 0, 0), piece("cao", 0, 2)]));
    assert_eq!(e["code"], "two_cao_cao");

    let e = fault(&app, json!([piece("cao", 0, 1)]));
    assert_eq!(
        (e["code"].clone(), e["empty"].clone()),
        (json!("empty_cells"), json!(16))
    );
    assert!(e["message"].as_str().unwrap().contains("exactly 2"), "{e}");
    let mut full = heng_dao_li_ma();
    full.push(piece("soldier", 4, 1));
    let e = fault(&app, json!(full));
    assert_eq!(
        (e["code"].clone(), e["empty"].clone()),
        (json!("empty_cells"), json!(1))
    );

    // 曹操 at the exit already.
    let solved = json!([
        piece("vertical", 0, 0),
        piece("vertical", 0, 1),
        piece("vertical", 0, 2),
        piece("vertical", 0, 3),
        piece("horizontal", 2, 0),
        piece("soldier", 2, 2),
        piece("soldier", 2, 3),
        piece("soldier", 3, 0),
        piece("soldier", 4, 0),
        piece("cao", 3, 1),
    ]);
    assert_eq!(fault(&app, solved)["code"], "already_solved");

    // Board texts outside the editor's rules.
    for (text, code) in [
        ("aCCb/aCCb/cdde", "size"),
        ("aCCb/aCCb/cdde/cste/#..v", "walls"),
        ("aCCb/aCCb/cddd/cste/u..v", "shape"),
        ("aaCC/aaCC/bdde/bste/u..v", "shape"),
        ("aCCb/aCCb/cdde/cste/u.9v", "parse"),
        ("hello", "parse"),
        ("ab.d/ab.d/eefg/hCCi/jCCk", "already_solved"),
        ("aCCb/aCCb/cdde/cste/uvw.", "empty_cells"),
    ] {
        assert_eq!(fault(&app, json!(text))["code"], code, "{text}");
    }
    app.close();
}

#[test]
fn malformed_arguments_are_bad_arguments() {
    let dir = TempDir::new("kcheck-args");
    let app = TestApp::start(dir.path(), None);
    let bad = |args: Value| {
        assert_eq!(
            app.err("klotski_check", args.clone()),
            "bad_argument",
            "{args}"
        )
    };
    bad(json!({}));
    bad(json!({"board": 3}));
    bad(json!({"board": {"shape": "cao"}}));
    bad(json!({"board": [piece("king", 0, 0)]}));
    bad(json!({"board": [{"shape": "cao", "row": 1.5, "col": 0}]}));
    bad(json!({"board": [{"shape": "cao", "row": 0}]}));
    bad(json!({"board": [{"shape": "cao", "row": 0, "col": 0, "x": 1}]}));
    bad(json!({"board": [{"shape": "cao", "row": u64::MAX, "col": 0}]}));
    bad(json!({"board": vec![piece("soldier", 0, 0); 21]}));
    bad(json!({"board": "a".repeat(300)}));
    // Twenty soldiers are twenty cells and no room: a layout fault, not a bad argument.
    let twenty: Vec<Value> = (0..20).map(|i| piece("soldier", i / 4, i % 4)).collect();
    assert_eq!(fault(&app, json!(twenty))["code"], "no_cao_cao");
    app.close();
}

/// The command through the whole Tauri shell (its one invoke handler, off the main thread).
#[test]
fn the_shell_serves_klotski_check() {
    let dir = TempDir::new("kcheck-shell");
    let app = TestApp::shell(dir.path(), None);
    let v = app.ok("klotski_check", json!({"board": heng_dao_li_ma()}));
    assert_eq!(v["optimal"], 81, "{v}");
    assert_eq!(
        app.err("klotski_check", json!({"board": 7})),
        "bad_argument"
    );
}
