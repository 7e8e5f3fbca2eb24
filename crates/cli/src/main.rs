//! `huarong`: the command-line interface over the engine. Other programs parse its output:
//! every subcommand's output form is fixed by its issue; do not change it.
//!
//! A game with subcommands of its own has them in its module, listed once in
//! `game_subcommands!` below; every game (the tests' stand-in too) goes through the common
//! commands (`code`, `daily`, `card`, `analyse`), which ask the engine's registry. `args`
//! holds the tiny shared flag parser.

mod analyse;
mod args;
mod bounds;
mod code;
mod data;

use std::process::ExitCode;

/// A game's subcommand: `huarong <name> …`, run by its module's `run`.
struct Game {
    name: &'static str,
    /// Its lines of the usage text.
    usage: &'static str,
    run: fn(&[String]) -> Result<(), String>,
}

/// The games' own subcommands, one entry per game that has some: `module => "command",
/// "usage lines"`. The module (`src/<module>.rs`) has `pub fn run(args: &[String]) ->
/// Result<(), String>`.
macro_rules! game_subcommands {
    ($( $module:ident => $name:literal, $usage:literal; )+) => {
        $( mod $module; )+
        const GAMES: &[Game] = &[$( Game { name: $name, usage: $usage, run: $module::run } ),+];
    };
}

game_subcommands! {
    slide => "slide", "
  huarong slide solve --size WxH                 < puzzles
  huarong slide generate --size WxH --count N --seed S [--difficulty D]
  huarong slide bench [--korf FILE] [--big N]";
    klotski => "klotski", "
  huarong klotski solve [--metric piece|straight|unit]   < boards
  huarong klotski generate --band MIN-MAX --seed S --count N
  huarong klotski bench [--classics FILE]";
    g2048 => "2048", "
  huarong 2048 move --dir left|right|up|down     < boards
  huarong 2048 selfplay --games N --seed S --budget-ms M [--stop-at TILE]";
}

/// The commands over every game.
const COMMON_USAGE: &str = "
  huarong code encode <game-id> [--moves N --seconds S] [--name NAME] [--log \"<moves>\"]
  huarong code decode [--json] <code or link>
  huarong analyse <game-id> (--moves <json log> | --wander N [--seed S]) [--rule R]
  huarong daily --date YYYY-MM-DD
  huarong progress export --data DIR   (the progress file on stdout)
  huarong progress import --data DIR FILE
  huarong stats export --data DIR --csv
  huarong group paste --data DIR [--time]   < chat text
  huarong group show|code --data DIR --group G
  huarong card --code <code> --moves N (--seconds S | --ms MS) [--name NAME] [--score N] [--board B] [--lang zh|en] [--theme light|dark] --out card.png";

fn usage() -> String {
    let games: String = GAMES.iter().map(|g| g.usage).collect();
    format!("usage: huarong <command> …{games}{COMMON_USAGE}")
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let (cmd, rest) = match argv.split_first() {
        Some((c, r)) => (c.as_str(), r),
        None => {
            eprintln!("{}", usage());
            return ExitCode::from(2);
        }
    };
    let result = match cmd {
        "code" | "daily" | "card" => code::run(cmd, rest),
        "analyse" | "analyze" => analyse::run(rest),
        "progress" | "stats" | "group" => data::run(cmd, rest),
        "help" | "--help" | "-h" => {
            println!("{}\n\n{}", usage(), bounds::NOTE);
            Ok(())
        }
        other => match GAMES.iter().find(|g| g.name == other) {
            Some(game) => (game.run)(rest),
            None => Err(format!("unknown command {other:?}\n{}", usage())),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("huarong: {msg}");
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The usage text is part of the interface: every game's lines, then the common ones.
    #[test]
    fn usage_lists_every_game_and_command_once() {
        let u = usage();
        assert!(u.starts_with("usage: huarong <command> …\n  huarong slide solve"));
        for g in GAMES {
            assert!(
                u.contains(&format!("\n  huarong {} ", g.name)),
                "{}",
                g.name
            );
            assert_eq!(GAMES.iter().filter(|o| o.name == g.name).count(), 1);
            assert!(
                !["code", "daily", "card", "analyse", "help", "progress", "stats", "group"]
                    .contains(&g.name)
            );
        }
        assert!(u.ends_with("--out card.png"));
        let game_lines: usize = GAMES.iter().map(|g| g.usage.lines().count() - 1).sum();
        let common = COMMON_USAGE.lines().count() - 1;
        assert_eq!(u.lines().count(), 1 + game_lines + common);
        // Every game's lines start with its command; the common ones with theirs.
        for g in GAMES {
            let mut lines = g.usage.lines();
            assert_eq!(lines.next(), Some(""), "{}", g.name);
            for l in lines {
                assert!(l.starts_with(&format!("  huarong {} ", g.name)), "{l}");
            }
        }
    }
}
