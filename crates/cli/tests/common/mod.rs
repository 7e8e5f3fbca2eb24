//! Shared by the CLI tests: run the built `huarong` binary.

use std::process::Command;

/// Run `huarong` with `args`: (exit code, stdout, stderr).
pub fn huarong(args: &[&str]) -> (i32, String, String) {
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
