//! `huarong card --board`: the card of the finished board (issue 26).

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

/// A finished board draws; a board of another puzzle, an unsolved one or garbage exits 1
/// with the reason and writes nothing.
#[test]
fn card_draws_the_finished_board_and_refuses_a_wrong_one() {
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
    // Another final position than the one the card finds itself: another picture.
    assert_ne!(
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
fn usage_names_the_board_flag() {
    let (rc, out, _) = huarong(&["help"]);
    assert_eq!(rc, 0);
    let line = out.lines().find(|l| l.contains("huarong card")).unwrap();
    assert!(line.contains("[--board B]"), "{line}");
}
