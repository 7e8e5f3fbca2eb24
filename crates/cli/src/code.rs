//! `huarong code …`, `huarong daily …`, `huarong card …`. Output forms are fixed:
//! - `huarong code encode <game-id> [--moves N --seconds S] [--name NAME] [--log "<moves>"]`
//!   → the code on one line; with a result (both flags; S may be fractional, e.g. 203.4) the
//!   code carries it as a challenge (bad values exit 1 with a message); `--name` and `--log`
//!   make it a result code with the sender's name and move log, which must reach
//!   the goal in exactly N moves. `<moves>` is a JSON array of the game's moves
//!   (`[{"tile": 7}, …]`, `[{"piece": "A", "to": [3, 1]}, …]`) or a short form: tile numbers
//!   (`7 8 5`) for the number slide, swipe letters (`lrud`, or `left up …`) for 2048;
//! - `huarong code decode <code or link>` → the game ID on one line (exit 1 on a bad code);
//! - `huarong code decode --json <code or link>` → one JSON line
//!   `{"id": …, "moves": N|null, "ms": N|null, "name": …|null, "daily": N|null,
//!   "log": [moves…]|null, "verified": bool}` (the challenge, if the code carries one; a
//!   `log` was replayed while decoding, so `verified` is true exactly when there is one);
//! - `huarong daily --date YYYY-MM-DD` → `{"slide": code, "klotski": code, "2048": code}`;
//! - `huarong card --code <code> --moves N (--seconds S | --ms MS) [--name NAME] [--score N]
//!   [--lang zh|en] [--theme light|dark] --out card.png` (`--name` is the headline's
//!   name, checked as a result code's name; `--ms` the finish's milliseconds, shown to the
//!   tenth, as is a fractional `--seconds`; also `--tile N` for 2048's best tile, `--date
//!   YYYY-MM-DD` for the day played, `--picture image.png` for a picture puzzle's image and
//!   `--board <body>` for the finished board in game-ID body form);
//!   prints one JSON line `{"out": path, "bytes": N, "ms": float}`.

use crate::args::Args;
use huarong_card::{CardSpec, Lang, Theme};
use huarong_engine::code::{self, Challenge, Decoded, Origin};
use huarong_engine::daily::{self, Date};
use huarong_engine::game::Cancel;
use huarong_engine::registry::{self, Visitor};
use huarong_engine::{clock, klotski, slide, Kind, Registered};
use std::time::{Duration, Instant};

/// Every command here may run a generator (a generated game ID encoded, a code of one
/// decoded, the daily levels): each runs within the command line's generator budget.
pub fn run(cmd: &str, args: &[String]) -> Result<(), String> {
    crate::bounds::generating(|| match cmd {
        "code" => code_cmd(args),
        "daily" => daily_cmd(args),
        "card" => card_cmd(args),
        other => Err(format!("unknown command {other:?}")),
    })
}

fn code_cmd(args: &[String]) -> Result<(), String> {
    const USAGE: &str = "usage: huarong code encode <game-id> [--moves N --seconds S] \
                         [--name NAME] [--log \"<moves>\"] | \
                         huarong code decode [--json] <code or link>";
    // `--json` is the one flag without a value.
    let json = args.iter().any(|a| a == "--json");
    let rest: Vec<String> = args.iter().filter(|a| *a != "--json").cloned().collect();
    let a = Args::parse(&rest, &["moves", "seconds", "name", "log"])?;
    match a.positional.as_slice() {
        [sub, text] if sub == "encode" && !json => {
            let challenge = challenge(&a)?;
            let log = match a.get("log") {
                Some(t) => Some(parse_log(text, t)?),
                None => None,
            };
            let sender = code::Sender {
                name: a.get("name").map(str::to_string),
                log,
            };
            let c = match challenge {
                Some(ch) => code::encode_result(text, code::Extra::default(), ch, &sender),
                None if sender.name.is_some() || sender.log.is_some() => {
                    return Err("--name and --log need a result: give --moves and --seconds".into())
                }
                None => code::encode_full(text, code::Extra::default(), None),
            }
            .map_err(|e| e.to_string())?;
            println!("{c}");
            Ok(())
        }
        [sub, text]
            if sub == "decode"
                && ["moves", "seconds", "name", "log"]
                    .iter()
                    .all(|k| a.get(k).is_none()) =>
        {
            if json {
                let d = code::decode_full(text).map_err(|e| e.to_string())?;
                let line = serde_json::json!({
                    "id": d.id,
                    "moves": d.challenge.map(|c| c.moves),
                    "ms": d.challenge.map(|c| c.ms),
                    "name": d.name(),
                    "daily": d.daily,
                    "log": d.log(),
                    "verified": d.verified(),
                });
                println!("{line}");
            } else {
                println!("{}", code::decode(text).map_err(|e| e.to_string())?);
            }
            Ok(())
        }
        _ => Err(USAGE.into()),
    }
}

/// The moves of `--log` for the game `id`: a JSON array of the game's moves, or the short
/// form (tile numbers for the number slide, swipe letters or words for 2048).
fn parse_log(id: &str, text: &str) -> Result<Vec<serde_json::Value>, String> {
    let t = text.trim();
    if t.len() > 200_000 {
        return Err("--log is too long".into());
    }
    if t.starts_with('[') {
        return serde_json::from_str::<Vec<serde_json::Value>>(t)
            .map_err(|e| format!("--log is not a JSON array of moves: {e}"));
    }
    let kind = huarong_engine::GameId::parse(id)
        .map_err(|e| e.to_string())?
        .kind;
    let dir = |w: &str| match w {
        "l" | "left" => Some("left"),
        "r" | "right" => Some("right"),
        "u" | "up" => Some("up"),
        "d" | "down" => Some("down"),
        _ => None,
    };
    let words: Vec<&str> = t
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    let mut out = Vec::new();
    match kind {
        Kind::Slide => {
            for w in words {
                let tile: u16 = w
                    .parse()
                    .map_err(|_| format!("--log: {w:?} is not a tile number"))?;
                out.push(serde_json::json!({ "tile": tile }));
            }
        }
        Kind::G2048 => {
            for w in words {
                let w = w.to_ascii_lowercase();
                let list: Vec<String> = match dir(&w) {
                    Some(d) => vec![d.to_string()],
                    None => w
                        .chars()
                        .map(|c| {
                            dir(&c.to_string())
                                .map(str::to_string)
                                .ok_or_else(|| format!("--log: {c:?} is not a swipe (l r u d)"))
                        })
                        .collect::<Result<_, _>>()?,
                };
                out.extend(list.into_iter().map(|d| serde_json::json!({ "dir": d })));
            }
        }
        // Every other game: the JSON form of its moves only.
        _ => {
            return Err(format!(
                "--log for {} is a JSON array of its moves ([{}, …])",
                kind.as_str(),
                registry::move_form(kind)
            ))
        }
    }
    Ok(out)
}

/// `--moves N --seconds S` (both or neither; S may be fractional, e.g. 203.4) → the
/// challenge to carry.
fn challenge(a: &Args) -> Result<Option<Challenge>, String> {
    match (a.get("moves"), a.get("seconds")) {
        (None, None) => Ok(None),
        (Some(m), Some(s)) => {
            let moves: u32 = m
                .trim()
                .parse()
                .map_err(|_| format!("--moves {m:?} is not a whole number of moves"))?;
            let secs: f64 = s
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| format!("--seconds {s:?} is not a number of seconds ≥ 0"))?;
            let ms = (secs * 1000.0).round();
            if ms > code::MAX_CHALLENGE_MS as f64 {
                return Err(format!("--seconds {s} is more than 999 hours"));
            }
            Challenge::new(moves, ms as u64)
                .map(Some)
                .map_err(|e| e.to_string())
        }
        _ => Err("--moves and --seconds go together: give both or neither".into()),
    }
}

fn daily_cmd(args: &[String]) -> Result<(), String> {
    let a = Args::parse(args, &["date"])?;
    if !a.positional.is_empty() {
        return Err(format!(
            "unexpected argument {:?} (usage: huarong daily --date YYYY-MM-DD)",
            a.positional[0]
        ));
    }
    let date = Date::parse(a.required("date")?).map_err(|e| e.to_string())?;
    let codes = daily::codes(date).map_err(|e| e.to_string())?;
    println!(
        "{}",
        serde_json::to_string(&codes).map_err(|e| e.to_string())?
    );
    Ok(())
}

fn card_cmd(args: &[String]) -> Result<(), String> {
    let a = Args::parse(
        args,
        &[
            "code", "moves", "seconds", "ms", "name", "score", "lang", "theme", "out", "tile",
            "date", "picture", "board",
        ],
    )?;
    if !a.positional.is_empty() {
        return Err(format!("unexpected argument {:?}", a.positional[0]));
    }
    let decoded = code::decode_full(a.required("code")?).map_err(|e| e.to_string())?;
    let moves: u32 = a.num("moves", None)?;
    let lang = Lang::parse(a.get("lang").unwrap_or("zh")).map_err(|e| e.to_string())?;
    let date = match a.get("date") {
        Some(d) => {
            let d = Date::parse(d).map_err(|e| e.to_string())?;
            Some((d.year, d.month, d.day))
        }
        None => None,
    };
    let picture = match a.get("picture") {
        Some(path) => Some(read_picture(path)?),
        None => None,
    };
    let name = match a.get("name") {
        Some(n) => code::check_name(n).map_err(|e| format!("--name {n:?}: {}", e.message))?,
        None => None,
    };
    let theme = Theme::parse(a.get("theme").unwrap_or("light")).map_err(|e| e.to_string())?;
    let (seconds, ms) = card_time(&a)?;
    let optimum = optimum(&decoded);
    // The one star rule, wherever the optimum is known.
    let stars = optimum.map(|min| registry::stars(min, moves));
    let spec = CardSpec {
        code: decoded.code.clone(),
        lang,
        theme,
        moves,
        seconds,
        ms,
        name,
        friends_beaten: None,
        optimum,
        stars,
        score: a.get("score").map(|_| a.num("score", None)).transpose()?,
        best_tile: a.get("tile").map(|_| a.num("tile", None)).transpose()?,
        date,
        picture,
        own_photo: false,
        beat: None,
        board: a.get("board").map(str::to_string),
    };
    let out = a.required("out")?;
    let started = Instant::now();
    let png = huarong_card::render(&spec).map_err(|e| e.to_string())?;
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    std::fs::write(out, &png).map_err(|e| format!("cannot write {out}: {e}"))?;
    println!(
        "{}",
        serde_json::json!({ "out": out, "bytes": png.len(), "ms": (ms * 100.0).round() / 100.0 })
    );
    Ok(())
}

/// The card's time: `--ms` (milliseconds as recorded), or `--seconds` (whole, or with a
/// fraction: then in milliseconds too), or both when they agree.
fn card_time(a: &Args) -> Result<(u64, Option<u64>), String> {
    let ms = a.get("ms").map(|_| a.num::<u64>("ms", None)).transpose()?;
    let seconds = match a.get("seconds") {
        None => None,
        Some(s) => {
            let v: f64 = s
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite() && *v >= 0.0 && *v < 1e12)
                .ok_or_else(|| format!("--seconds {s:?} is not a number of seconds ≥ 0"))?;
            Some((v, s.contains('.')))
        }
    };
    match (seconds, ms) {
        (None, None) => Err("--seconds or --ms is required".into()),
        (None, Some(ms)) => Ok((ms / 1000, Some(ms))),
        (Some((v, fraction)), None) => {
            let ms = (v * 1000.0).round() as u64;
            Ok((ms / 1000, fraction.then_some(ms)))
        }
        (Some((v, _)), Some(ms)) => {
            if (v * 1000.0 - ms as f64).abs() >= 1000.0 {
                return Err(format!("--seconds {v} and --ms {ms} are not the same time"));
            }
            Ok((ms / 1000, Some(ms)))
        }
    }
}

/// The optimal move count of the code's start board, where it is known or cheap to find
/// (Klotski classics from the level list; other Klotski boards and small number-slide
/// boards by their optimal searches; every other game by its own solver when that proves
/// its solution optimal), given at most two seconds.
fn optimum(d: &Decoded) -> Option<u32> {
    match (d.kind, &d.origin) {
        (Kind::Klotski, Origin::Classic { index }) => klotski::classics().get(*index)?.min_moves,
        (Kind::Klotski, _) => {
            let board = klotski::Board::parse(&d.board).ok()?;
            with_deadline(move |cancel| {
                klotski::solve(&board, klotski::Metric::Piece, cancel)
                    .ok()
                    .flatten()
                    .map(|s| s.count())
            })
        }
        (Kind::Slide, _) => {
            let board = slide::Board::parse(&d.board).ok()?;
            with_deadline(move |cancel| {
                let s = slide::solve(&board, cancel).ok()?;
                s.optimal.then_some(s.tiles.len() as u32)
            })
        }
        // Every other game (2048 has no solver: none).
        _ => d.kind.visit(OptimalSolve(d.board.clone())),
    }
}

/// The length of a game's own solution from a board, when its solver proves it optimal.
struct OptimalSolve(String);

impl Visitor for OptimalSolve {
    type Out = Option<u32>;
    fn visit<G: Registered + PartialEq>(self) -> Option<u32> {
        let start = G::from_id(&self.0, None).ok()?;
        with_deadline(move |cancel| {
            let solved = start
                .solve_within(Duration::from_secs(2), &clock::Native::new(), cancel)
                .ok()?;
            solved.optimal.then_some(solved.moves.len() as u32)
        })
    }
}

/// Runs a search that gives up (returns None) when cancelled after two seconds.
fn with_deadline<T: Send + 'static>(
    search: impl FnOnce(&Cancel) -> Option<T> + Send + 'static,
) -> Option<T> {
    let cancel = Cancel::new();
    let (tx, rx) = std::sync::mpsc::channel();
    let c = cancel.clone();
    std::thread::spawn(move || {
        let _ = tx.send(search(&c));
    });
    match rx.recv_timeout(Duration::from_secs(2)) {
        Ok(v) => v,
        Err(_) => {
            cancel.cancel();
            None
        }
    }
}

/// The PNG file `--picture` names, at most `huarong_card::MAX_PICTURE_PNG` bytes (read no
/// further than that).
fn read_picture(path: &str) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let max = huarong_card::MAX_PICTURE_PNG;
    let f = std::fs::File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut bytes = Vec::new();
    f.take(max as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    if bytes.len() > max {
        return Err(format!("--picture {path} is larger than {max} bytes"));
    }
    Ok(bytes)
}
