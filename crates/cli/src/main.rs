//! `huarong`: the command-line interface over the engine. Other programs parse its output:
//! every subcommand's output form is fixed by its issue; do not change it.
//!
//! Each game's subcommands live in their own module; `args` holds the tiny shared flag parser.

mod analyse;
mod args;
mod code;
mod g2048;
mod klotski;
mod slide;

use std::process::ExitCode;

const USAGE: &str = "usage: huarong <command> …
  huarong slide solve --size WxH                 < puzzles
  huarong slide generate --size WxH --count N --seed S [--difficulty D]
  huarong slide bench [--korf FILE] [--big N]
  huarong klotski solve [--metric piece|straight|unit]   < boards
  huarong klotski generate --band MIN-MAX --seed S --count N
  huarong klotski bench [--classics FILE]
  huarong 2048 move --dir left|right|up|down     < boards
  huarong 2048 selfplay --games N --seed S --budget-ms M [--stop-at TILE]
  huarong code encode <game-id> [--moves N --seconds S]
  huarong code decode [--json] <code or link>
  huarong analyse <game-id> (--moves <json log> | --wander N [--seed S]) [--rule R]
  huarong daily --date YYYY-MM-DD
  huarong card --code <code> --moves N --seconds S [--score N] [--lang zh|en] --out card.png";

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let (cmd, rest) = match argv.split_first() {
        Some((c, r)) => (c.as_str(), r),
        None => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let result = match cmd {
        "slide" => slide::run(rest),
        "klotski" => klotski::run(rest),
        "2048" => g2048::run(rest),
        "code" | "daily" | "card" => code::run(cmd, rest),
        "analyse" | "analyze" => analyse::run(rest),
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown command {other:?}\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("huarong: {msg}");
            ExitCode::from(1)
        }
    }
}
