//! `huarong card`: the finished board given and checked; the headline's name, the
//! time to the tenth and the theme.

mod common;

use common::huarong;

fn card(code: &str, board: Option<&str>, out: &std::path::Path) -> (i32, String, String) {
    let mut args = vec![
        "card",
        "--code",
        code,
        "--moves",
        "85",
        "--seconds",
        "203",
        "--out",
        out.to_str().unwrap(),
    ];
    if let Some(b) = board {
        args.extend(["--board", b]);
    }
    huarong(&args)
}

/// A finished board is checked (the Klotski card shows the puzzle a friend gets, whatever
/// the final position); a board of another puzzle, an unsolved one or garbage exits 1 with
/// the reason and writes nothing.
#[test]
fn card_checks_the_finished_board_and_refuses_a_wrong_one() {
    let dir = std::env::temp_dir().join(format!("huarong-cli-board-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (_, code, _) = huarong(&["code", "encode", "klotski:aCCb/aCCb/cdde/cste/u..v"]);
    let code = code.trim();
    let (plain, given) = (dir.join("plain.png"), dir.join("given.png"));
    let (rc, line, err) = card(code, None, &plain);
    assert_eq!(rc, 0, "{err}");
    assert!(line.contains("\"bytes\""), "{line}");
    let (rc, _, err) = card(code, Some("acbe/acbe/dds./tCCu/.CCv"), &given);
    assert_eq!(rc, 0, "{err}");
    // The card shows the puzzle (its start), not the final position: the same picture.
    assert_eq!(
        std::fs::read(&plain).unwrap(),
        std::fs::read(&given).unwrap()
    );
    for (board, want) in [
        ("aCCb/aCCb/cdde/cste/u..v", "not solved"),
        ("acbe/acbe/stdd/.CC./.CCv", "pieces and walls"),
        (
            "4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0",
            "the card's board",
        ),
    ] {
        let out = dir.join("bad.png");
        let (rc, stdout, err) = card(code, Some(board), &out);
        assert_eq!(rc, 1, "{board}");
        assert!(stdout.is_empty());
        assert!(err.contains(want), "{board}: {err}");
        assert!(!out.exists(), "{board}: no card written");
    }
    // A 2048 card with its final grid; the best tile must be the grid's largest.
    let (_, code, _) = huarong(&["code", "encode", "2048:#7"]);
    let grid = "2,4,8,2,16,32,64,4,4,128,512,8,2,1024,2048,16";
    let out = dir.join("2048.png");
    let (rc, _, err) = huarong(&[
        "card",
        "--code",
        code.trim(),
        "--moves",
        "900",
        "--seconds",
        "600",
        "--score",
        "20000",
        "--tile",
        "2048",
        "--board",
        grid,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(rc, 0, "{err}");
    let (rc, _, err) = huarong(&[
        "card",
        "--code",
        code.trim(),
        "--moves",
        "900",
        "--seconds",
        "600",
        "--tile",
        "1024",
        "--board",
        grid,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(rc, 1);
    assert!(err.contains("largest tile is 2048"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn usage_names_the_card_flags() {
    let (rc, out, _) = huarong(&["help"]);
    assert_eq!(rc, 0);
    let line = out.lines().find(|l| l.contains("huarong card")).unwrap();
    for flag in [
        "[--board B]",
        "[--name NAME]",
        "--ms MS",
        "[--theme light|dark]",
    ] {
        assert!(line.contains(flag), "{flag}: {line}");
    }
}

/// `--name Ann` and `--name Bo` give different images; the same inputs the same bytes; a
/// name a result code would refuse is refused the same way (exit 1, the reason, no file).
#[test]
fn card_name_changes_the_image_and_is_checked_as_a_codes_name() {
    let dir = std::env::temp_dir().join(format!("huarong-cli-name-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (_, code, _) = huarong(&[
        "code",
        "encode",
        "slide:4x4:3,8,15,0,1,9,6,5,11,13,14,4,10,12,2,7",
    ]);
    let code = code.trim().to_string();
    let make = |extra: &[&str], file: &str| {
        let out = dir.join(file);
        let mut args = vec![
            "card",
            "--code",
            code.as_str(),
            "--moves",
            "47",
            "--ms",
            "61350",
        ];
        args.extend(extra);
        let o = out.to_str().unwrap().to_string();
        args.extend(["--out", o.as_str()]);
        let (rc, _, err) = huarong(&args);
        (rc, err, std::fs::read(&out).ok())
    };
    let (rc, err, ann) = make(&["--name", "Ann"], "ann.png");
    assert_eq!(rc, 0, "{err}");
    let (_, _, ann2) = make(&["--name", "Ann"], "ann2.png");
    let (_, _, bo) = make(&["--name", "Bo"], "bo.png");
    let (_, _, none) = make(&[], "none.png");
    let (_, _, dark) = make(&["--name", "Ann", "--theme", "dark"], "dark.png");
    assert_eq!(ann, ann2, "the same inputs, the same bytes");
    assert_ne!(ann, bo);
    assert_ne!(ann, none);
    assert_ne!(ann, dark);
    // Trimmed, as the settings keep it.
    let (_, _, padded) = make(&["--name", "  Ann "], "padded.png");
    assert_eq!(padded, ann);
    for (bad, want) in [
        ("abcdefghijklmnopq", "at most 16 characters"),
        ("a\nb", ""),
        ("a\u{7}b", ""),
    ] {
        let (rc, err, png) = make(&["--name", bad], "bad.png");
        assert_eq!(rc, 1, "{bad:?}");
        assert!(
            err.contains("--name") && err.contains(want),
            "{bad:?}: {err}"
        );
        assert!(png.is_none(), "{bad:?}: no card written");
    }
    // The time: --ms, or a fractional --seconds (the same card), or both when they agree.
    let (_, _, frac) = make(&["--name", "Ann", "--seconds", "61.35"], "frac.png");
    assert_eq!(frac, ann);
    let (rc, err, _) = make(&["--seconds", "70"], "late.png");
    assert_eq!(rc, 1);
    assert!(err.contains("not the same time"), "{err}");
    let (rc, err, _) = make(&["--theme", "sepia"], "sepia.png");
    assert_eq!(rc, 1);
    assert!(err.contains("theme"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
