//! `huarong code …`, `huarong daily …`, `huarong card …` (issue 7). Output forms are fixed:
//! - `huarong code encode <game-id>` → the code on one line;
//! - `huarong code decode <code or link>` → the game ID on one line (exit 1 on a bad code);
//! - `huarong daily --date YYYY-MM-DD` → `{"slide": code, "klotski": code, "2048": code}`;
//! - `huarong card --code <code> --moves N --seconds S [--score N] [--lang zh|en] --out card.png`
//!   (also `--tile N` for 2048's best tile and `--date YYYY-MM-DD` for the day played);
//!   prints one JSON line `{"out": path, "bytes": N, "ms": float}`.

use crate::args::Args;
use huarong_engine::code;

pub fn run(cmd: &str, args: &[String]) -> Result<(), String> {
    match cmd {
        "code" => code_cmd(args),
        "daily" | "card" => Err(format!(
            "huarong {cmd} is not built yet (issue 7, second part)"
        )),
        other => Err(format!("unknown command {other:?}")),
    }
}

fn code_cmd(args: &[String]) -> Result<(), String> {
    let a = Args::parse(args, &[])?;
    match a.positional.as_slice() {
        [sub, text] if sub == "encode" => {
            println!("{}", code::encode(text).map_err(|e| e.to_string())?);
            Ok(())
        }
        [sub, text] if sub == "decode" => {
            println!("{}", code::decode(text).map_err(|e| e.to_string())?);
            Ok(())
        }
        _ => {
            Err("usage: huarong code encode <game-id> | huarong code decode <code or link>".into())
        }
    }
}
