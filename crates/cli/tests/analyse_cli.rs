//! `huarong analyse`: output form and errors.

mod common;

use common::huarong;

fn json(out: &str) -> serde_json::Value {
    assert_eq!(out.lines().count(), 1, "{out}");
    serde_json::from_str(out).unwrap()
}

#[test]
fn a_given_log_is_analysed() {
    // Blank at the bottom left: tap 4 (away), tap 4 (back), tap 8 (two tiles, solved).
    let id = "slide:3x3:1,2,3,4,5,6,0,7,8";
    let log = r#"[{"tile":4},{"t":"move","m":{"tile":4}},{"t":"restart"},{"tile":4},{"tile":4},{"tile":8}]"#;
    let (rc, out, err) = huarong(&["analyse", id, "--moves", log]);
    assert_eq!(rc, 0, "{err}");
    let v = json(&out);
    // Only the line after the restart counts.
    assert_eq!(v["optimal_start"], 2);
    assert_eq!(v["rule"], "tile");
    assert_eq!(v["entries"], 6);
    assert_eq!(v["distances"], serde_json::json!([3, 2, 1, 0]));
    assert_eq!(v["lost"], serde_json::json!([1]));
    assert_eq!(
        v["worst"],
        serde_json::json!({"from": 1, "to": 1, "lost": 1})
    );
    // Line count of the same log.
    let (rc, out, _) = huarong(&["analyse", id, "--moves", log, "--rule", "line"]);
    assert_eq!(rc, 0);
    let v = json(&out);
    assert_eq!(v["distances"].as_array().unwrap().len(), 3);
}

#[test]
fn wandered_lines_end_at_the_goal() {
    for (id, rule) in [
        ("slide:3x3#5", "tile"),
        ("slide:3x3#5", "line"),
        ("klotski:aCCb/aCCb/cdde/cste/u..v", "piece"),
        ("klotski:aCCb/aCCb/cdde/cste/u..v", "unit"),
    ] {
        let (rc, out, err) = huarong(&[
            "analyse", id, "--wander", "8", "--seed", "4", "--rule", rule,
        ]);
        assert_eq!(rc, 0, "{id} {rule}: {err}");
        let v = json(&out);
        assert_eq!(v["distances"].as_array().unwrap().last().unwrap(), 0);
        assert!(v["ms"].as_f64().unwrap() >= 0.0);
    }
}

#[test]
fn errors_exit_1_with_the_engine_code() {
    for (args, needle) in [
        (
            vec!["analyse", "slide:5x5#1", "--wander", "0"],
            "unsupported",
        ),
        (
            vec!["analyse", "slide:4x4#1", "--moves", "[]", "--rule", "line"],
            "unsupported",
        ),
        (vec!["analyse", "2048:#1", "--moves", "[]"], "unsupported"),
        (vec!["analyse", "slide:3x3#1", "--moves", "{"], "JSON"),
        (
            vec!["analyse", "slide:3x3#1", "--moves", r#"[{"tile":"x"}]"#],
            "entry 1",
        ),
        (
            vec![
                "analyse",
                "slide:3x3:1,2,3,4,5,6,0,7,8",
                "--moves",
                r#"[{"tile":5}]"#,
            ],
            "illegal_move",
        ),
        (vec!["analyse", "slide:3x3#1"], "exactly one"),
        (
            vec!["analyse", "slide:3x3#1", "--wander", "99999999"],
            "--wander",
        ),
        (
            vec!["analyse", "slide:3x3#1", "--moves", "[]", "--rule", "piece"],
            "rule",
        ),
    ] {
        let (rc, out, err) = huarong(&args);
        assert_eq!(rc, 1, "{args:?}");
        assert!(out.is_empty());
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}
