//! The tests' stand-in game (Lights Out on one row, the engine's `stand-in` feature) through
//! the command line's common commands: a CLI that forgot a game fails here.

mod common;

use common::huarong;
use huarong_engine::{registry, Kind};

#[test]
fn the_stand_in_goes_through_code_encode_and_decode() {
    assert!(Kind::ALL.iter().any(|k| k.is_stand_in()), "the stand-in");
    let id = "lights:10110";
    let (rc, code, err) = huarong(&["code", "encode", id]);
    assert_eq!(rc, 0, "{err}");
    let (rc, back, _) = huarong(&["code", "decode", code.trim()]);
    assert_eq!((rc, back.trim()), (0, id));
    // A result with its move log (the JSON form of the game's moves): replayed, verified.
    let (rc, code, err) = huarong(&[
        "code",
        "encode",
        id,
        "--moves",
        "2",
        "--seconds",
        "3.5",
        "--name",
        "Mei",
        "--log",
        r#"[{"flip": 0}, {"flip": 2}]"#,
    ]);
    assert_eq!(rc, 0, "{err}");
    let (rc, line, err) = huarong(&["code", "decode", "--json", code.trim()]);
    assert_eq!(rc, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["id"], id);
    assert_eq!(v["moves"], 2);
    assert_eq!(v["verified"], true, "{v}");
    assert_eq!(v["log"], serde_json::json!([{"flip": 0}, {"flip": 2}]));
    // A log that does not reach the goal is refused; a short form names the game's move form.
    let (rc, _, err) = huarong(&[
        "code",
        "encode",
        id,
        "--moves",
        "1",
        "--seconds",
        "1",
        "--log",
        r#"[{"flip": 0}]"#,
    ]);
    assert_eq!(rc, 1, "{err}");
    let (rc, _, err) = huarong(&[
        "code",
        "encode",
        id,
        "--moves",
        "2",
        "--seconds",
        "1",
        "--log",
        "0 2",
    ]);
    assert_eq!(rc, 1);
    let lights = Kind::parse("lights").unwrap();
    assert!(err.contains(registry::move_form(lights)), "{err}");
}

#[test]
fn a_game_id_of_every_game_is_named_in_the_usage_of_errors() {
    // An unknown kind's message lists every game of the build.
    let (rc, _, err) = huarong(&["code", "encode", "chess:1"]);
    assert_eq!(rc, 1);
    for k in Kind::ALL {
        assert!(err.contains(k.as_str()), "{err}");
    }
}

#[test]
fn the_stand_in_has_a_card_with_its_optimum() {
    let dir = std::env::temp_dir().join(format!("huarong-cli-stand-in-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (_, code, _) = huarong(&["code", "encode", "lights:10110"]);
    for lang in ["zh", "en"] {
        let out = dir.join(format!("lights-{lang}.png"));
        let (rc, line, err) = huarong(&[
            "card",
            "--code",
            code.trim(),
            "--moves",
            "2",
            "--seconds",
            "3",
            "--board",
            "00000",
            "--lang",
            lang,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(rc, 0, "{err}");
        assert!(line.contains("\"bytes\""), "{line}");
        let png = std::fs::read(&out).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    }
    // A final board that is not the goal is refused.
    let (rc, _, err) = huarong(&[
        "card",
        "--code",
        code.trim(),
        "--moves",
        "2",
        "--seconds",
        "3",
        "--board",
        "00100",
        "--out",
        dir.join("bad.png").to_str().unwrap(),
    ]);
    assert_eq!(rc, 1, "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
