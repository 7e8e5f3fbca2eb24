//! The `huarong code` command line: output forms and exit codes (issue 7).

use std::process::Command;

fn huarong(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_huarong"))
        .args(args)
        .output()
        .expect("run huarong");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn encode_then_decode_prints_one_line_each() {
    for id in [
        "slide:3x3:1,2,3,4,5,6,7,0,8",
        "klotski:aCCb/aCCb/cdde/cste/u..v",
        "2048:#7",
    ] {
        let (rc, code, _) = huarong(&["code", "encode", id]);
        assert_eq!(rc, 0);
        assert_eq!(code.lines().count(), 1);
        let code = code.trim();
        let (rc, back, _) = huarong(&["code", "decode", code]);
        assert_eq!((rc, back.as_str()), (0, format!("{id}\n").as_str()));
        let (rc, back, _) = huarong(&["code", "decode", &format!("huarong://play?c={code}")]);
        assert_eq!((rc, back.trim()), (0, id));
    }
}

#[test]
fn bad_codes_exit_1_with_a_message() {
    for bad in ["1AAAA", "not a code", "9CRpQJLBitoI", "huarong://play?c="] {
        let (rc, out, err) = huarong(&["code", "decode", bad]);
        assert_eq!(rc, 1, "{bad}");
        assert!(out.is_empty());
        assert!(err.contains("bad_code"), "{bad}: {err}");
    }
    let (rc, _, err) = huarong(&["code", "encode", "slide:3x3:2,1,3,4,5,6,7,8,0"]);
    assert_eq!(rc, 1);
    assert!(err.contains("unsolvable"), "{err}");
    let (rc, _, _) = huarong(&["code", "frobnicate", "x"]);
    assert_eq!(rc, 1);
}
