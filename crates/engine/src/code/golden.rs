//! Golden share codes. Codes are a wire format that players have shared: a change of any
//! pinned line is a break of the format (or of an error message), never an update to make.
//!
//! - `golden-v1.tsv` pins version 1 (written once, by the first code module, for the three
//!   first games; frozen): for a few hundred game IDs the version-1 code, and for every such
//!   code (and thousands of mutations of it) what decoding answers — the full `Decoded` or
//!   the error's code and message. Today's encoder is checked against its `E` rows through
//!   [`decode_as`] (today's code re-written as version 1 must be the pinned text: the same
//!   content), and every `D` row must decode as it always did.
//! - `golden/<game>.tsv` pin the current version, one file per game (`<input>\t<output>`):
//!   each game's rows come from its own inputs only ([`Coded::GOLDEN`], its daily, its
//!   classics) and never mutate the game's number, so a new game adds its own file
//!   (`print_code_golden` writes the file of every game that lacks one) and no other game's
//!   row changes. "Unknown game" is not pinned: it is checked
//!   against the registry (the first unassigned number).
//! - `golden-result.tsv` pins result codes: with and without name, move log and a
//!   2048 outcome, their decodes and mutations. Its rows without an outcome are what the
//!   builds before the outcome wrote (checked against that build's CLI when it was made).

use super::*;
use crate::daily;

/// Today's code of an input, re-written as the version-1 text of the same content.
fn as_v1(r: Result<String>) -> Result<String> {
    r.and_then(|code| Ok(decode_as(&code, Some(Version::V1))?.code))
}

/// The version-1 rows, in the pinned order: `E` an encode (game ID, daily, classic,
/// challenge), `D` a decode.
fn v1_rows() -> Vec<(String, String)> {
    let mut ids: Vec<(String, Extra, Option<Challenge>)> = Vec::new();
    let plain = |id: &str| (id.to_string(), Extra::default(), None);
    for w in 2..=10usize {
        let mut hs = vec![2, w, 10];
        hs.dedup();
        for h in hs {
            for seed in [3u64, 77] {
                ids.push(plain(&format!("slide:{w}x{h}#{seed}")));
            }
        }
    }
    for d in ["easy", "medium", "hard", "expert"] {
        ids.push(plain(&format!("slide:4x4/{d}#11")));
        ids.push(plain(&format!("slide:3x3/{d}#2")));
    }
    ids.extend(
        [
            "slide:3x3/picture:lotus#12",
            "slide:4x4/hard/picture:pagoda#5",
            "slide:3x3/picture:mountains:1,2,3,4,5,6,7,0,8",
            "slide:5x5/picture:koi#8",
            "slide:3x3/picture:photo-9f3a#12",
            "slide:3x4/picture:lotus#1",
            "slide:3x3:1,2,3,4,5,6,7,0,8",
            "slide:4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,15,14,0",
            "slide:2x2:1,2,3,0",
            "slide:11x11#1",
            "slide:3x3:1,2",
            "slide:4x4/wrong#1",
            "slide:4x4/medium#18446744073709551615",
        ]
        .map(plain),
    );
    for (i, c) in crate::klotski::classics().iter().enumerate() {
        ids.push(plain(&format!("klotski:{}", c.board)));
        let classic = Extra {
            daily: None,
            classic: Some(i),
        };
        ids.push((format!("klotski:{}", c.board), classic, None));
    }
    ids.extend(
        [
            "klotski:10-30#1",
            "klotski:10-30#2",
            "klotski:60-90#3",
            "klotski:10-30:g4s6#5",
            "klotski:aCCb/aCCb/cdde/cste/.uv.",
            "klotski:a.CC.b/a.CC.b/c....d/c....d",
            "klotski:#aa#/.CC./.CC./b..c/b..c/#..#",
            "klotski:aCCbaCCbcddecsteu..v",
            "klotski:aCCb/aCCb/cdde/cste/u.v.",
            "klotski:CC/CC",
            "klotski:abcd",
            "klotski:10-30#bad",
        ]
        .map(plain),
    );
    ids.push((
        "klotski:aCCb/aCCb/cdde/cste/.uv.".into(),
        Extra {
            daily: None,
            classic: Some(0),
        },
        None,
    ));
    ids.push((
        "slide:3x3#1".into(),
        Extra {
            daily: None,
            classic: Some(0),
        },
        None,
    ));
    for seed in [0u64, 1, 2, 5, 9, 42, 123_456_789, u64::MAX] {
        ids.push(plain(&format!("2048:#{seed}")));
    }
    ids.extend(
        [
            "2048:2,0,0,0,0,4,0,0,0,0,8,0,0,0,0,32768",
            "2048:2,0,0,0,0,4,0,0,0,0,8,0,0,0,0,32768#42",
            "2048:2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,4#5",
            "2048:2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,4",
            "2048:65536,2,0,0,0,0,0,0,0,0,0,0,0,0,0,131072#3",
            "2048:65536,2,0,0,0,0,0,0,0,0,0,0,0,0,0,4",
            "2048:3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0",
            "2048:easy#4",
            "2048:",
        ]
        .map(plain),
    );
    for n in [1u32, 2, 3, 60, 365, MAX_DAILY] {
        let day = daily::puzzles(daily::date_of(n.min(3000)).unwrap()).unwrap();
        let extra = Extra {
            daily: Some(n),
            classic: None,
        };
        // Version 1 knew the first three games.
        for (kind, id) in &day.puzzles {
            if kind.code_number() < V1_GAMES {
                ids.push((id.clone(), extra, None));
            }
        }
    }
    for (i, c) in [
        (1, 0),
        (85, 203_400),
        (MAX_CHALLENGE_MOVES, MAX_CHALLENGE_MS),
    ]
    .into_iter()
    .enumerate()
    {
        let challenge = Challenge {
            moves: c.0,
            ms: c.1,
        };
        let extra = Extra {
            daily: (i == 1).then_some(7),
            classic: None,
        };
        for id in [
            "slide:4x4#5",
            "slide:10x10/picture:lotus#9",
            "klotski:10-30#7",
            "klotski:aCCb/aCCb/cdde/cste/u..v",
            "2048:#8",
            "2048:2,0,0,0,0,4,0,0,0,0,8,0,0,0,0,2#6",
        ] {
            ids.push((id.to_string(), extra, Some(challenge)));
        }
    }
    ids.push((
        "slide:3x3#4".into(),
        Extra::default(),
        Some(Challenge { moves: 0, ms: 1 }),
    ));

    let mut out = Vec::new();
    let mut codes = Vec::new();
    for (id, extra, challenge) in &ids {
        let input = format!(
            "E {id} daily={:?} classic={:?} challenge={:?}",
            extra.daily, extra.classic, challenge
        );
        let result = as_v1(encode_full(id, *extra, *challenge));
        if let Ok(code) = &result {
            codes.push(code.clone());
            // The exact ID it decodes to encodes too.
            if let Ok(d) = decode_full(code) {
                let exact = as_v1(encode(&d.id));
                out.push((format!("E {} (decoded)", d.id), answer(&exact)));
            }
        }
        out.push((input, answer(&result)));
    }
    for (n, code) in codes.iter().enumerate() {
        out.push((format!("D {code}"), decoded(decode_full(code))));
        if n % 4 == 0 {
            out.push((format!("D link {code}"), decoded(decode_full(&link(code)))));
        }
        // Mutations with a valid checksum reach the parser's deeper checks.
        let p = payload(code);
        for i in 0..p.len().min(14) {
            let mut flipped = p.clone();
            flipped[i] ^= 1 << ((i * 3 + n) % 8);
            let mut cut = p.clone();
            cut.truncate(i);
            let mut longer = p.clone();
            longer.insert(i + 1, (i * 37 + n) as u8);
            for q in [flipped, cut, longer] {
                let text = checked_code(&q);
                out.push((format!("D {text}"), decoded(decode_full(&text))));
            }
        }
    }
    // Every head byte over a few board tails.
    for head in 0..=255u8 {
        for tail in [
            &[0x33u8, 0x01, 0x02][..],
            &[0x45, 0x1b, 0x6d, 0xb6, 0xd8][..],
            &[],
        ] {
            let mut q = vec![head];
            q.extend_from_slice(tail);
            let text = checked_code(&q);
            out.push((format!("D {text}"), decoded(decode_full(&text))));
        }
    }
    out
}

/// The payload of a code of either version (without version character and checksum).
pub(super) fn payload(code: &str) -> Vec<u8> {
    match Version::of(code.chars().next().unwrap()).unwrap() {
        Version::V1 => {
            let mut bytes = wire::base64_decode(&code[1..], 1).unwrap();
            bytes.truncate(bytes.len() - 4);
            bytes
        }
        Version::V2 => wire::base56_decode(&code[1..], 1).unwrap()[4..].to_vec(),
    }
}

/// The version-1 code of any payload, checksum included.
fn checked_code(payload: &[u8]) -> String {
    Version::V1.text(payload)
}

fn answer(r: &Result<String>) -> String {
    match r {
        Ok(code) => code.clone(),
        Err(e) => format!("ERR {:?} {}", e.code, e.message),
    }
}

pub(super) fn decoded(r: Result<Decoded>) -> String {
    match r {
        // The assisted flag (added after these lines were pinned) shows only when set: a
        // code without it decodes exactly as before.
        Ok(d) => format!("{d:?}").replace(", assisted: false }", " }"),
        Err(e) => format!("ERR {:?} {}", e.code, e.message),
    }
}

pub(super) fn tsv(rows: &[(String, String)]) -> String {
    let mut s = String::new();
    for (input, output) in rows {
        s.push_str(&format!("{input}\t{output}\n"));
    }
    s
}

/// Compares `got` with the pinned `want`, line by line.
pub(super) fn same_lines(want: &str, got: &str, file: &str) {
    let (mut want_lines, mut got_lines) = (want.lines(), got.lines());
    for n in 1.. {
        match (want_lines.next(), got_lines.next()) {
            (None, None) => break,
            (w, g) => assert_eq!(g, w, "{file} line {n}"),
        }
    }
}

#[test]
fn version_1_codes_decode_as_they_always_did_and_say_what_todays_codes_say() {
    let rows = v1_rows();
    assert!(rows.len() > 2000, "{} rows", rows.len());
    same_lines(include_str!("golden-v1.tsv"), &tsv(&rows), "golden-v1.tsv");
}

/// What the rows of game `kind` are made from: its sample IDs ([`Coded::GOLDEN`]), its
/// classics (plain and named), its daily puzzles, challenges and the extras' errors.
fn v2_inputs(kind: Kind) -> Vec<(String, Extra, Option<Challenge>)> {
    let entry = kind.entry();
    let plain = |id: &str| (id.to_string(), Extra::default(), None);
    let mut ids: Vec<_> = entry.golden().iter().map(|id| plain(id)).collect();
    for (i, board) in entry.classics().iter().enumerate() {
        let id = format!("{}:{board}", kind.as_str());
        ids.push(plain(&id));
        let classic = Extra {
            daily: None,
            classic: Some(i),
        };
        ids.push((id, classic, None));
    }
    for n in [1u32, 2, 3, 60, 365, MAX_DAILY] {
        let day = daily::puzzles(daily::date_of(n.min(3000)).unwrap()).unwrap();
        if let Some(id) = day.id(kind) {
            let extra = Extra {
                daily: Some(n),
                classic: None,
            };
            ids.push((id.to_string(), extra, None));
        }
    }
    let samples: Vec<String> = ids.iter().take(3).map(|(id, ..)| id.clone()).collect();
    for (i, (moves, ms)) in [
        (1, 0),
        (85, 203_400),
        (MAX_CHALLENGE_MOVES, MAX_CHALLENGE_MS),
        (0, 1),
    ]
    .into_iter()
    .enumerate()
    {
        let extra = Extra {
            daily: (i == 1).then_some(7),
            classic: None,
        };
        for id in &samples {
            ids.push((id.clone(), extra, Some(Challenge { moves, ms })));
        }
    }
    if let Some(id) = samples.first() {
        let named = |classic| Extra {
            daily: None,
            classic: Some(classic),
        };
        ids.push((id.clone(), named(0), None));
        ids.push((id.clone(), named(300), None));
        let too_late = Extra {
            daily: Some(MAX_DAILY + 1),
            classic: None,
        };
        ids.push((id.clone(), too_late, None));
    }
    ids
}

/// The current version's rows of game `kind`: `E` an encode, `D` a decode; the rows of its
/// first sample IDs, then those of the IDs pinned later ([`Coded::GOLDEN_ADDED`]), each
/// part made the same way (a later part never changes an earlier row).
fn v2_rows(kind: Kind) -> Vec<(String, String)> {
    let mut out = v2_rows_of(kind, &v2_inputs(kind));
    out.extend(v2_added_rows(kind));
    out
}

/// The rows of the IDs pinned after the first ones: each plain and with a challenge.
fn v2_added_rows(kind: Kind) -> Vec<(String, String)> {
    let added = kind.entry().golden_added();
    if added.is_empty() {
        return Vec::new();
    }
    let mut inputs: Vec<(String, Extra, Option<Challenge>)> = Vec::new();
    for id in added {
        inputs.push((id.to_string(), Extra::default(), None));
        inputs.push((
            id.to_string(),
            Extra::default(),
            Some(Challenge {
                moves: 85,
                ms: 203_400,
            }),
        ));
    }
    let mut rows = v2_codec_rows(&inputs);
    rows.insert(0, ("# added".to_string(), format!("{} IDs", added.len())));
    rows
}

fn v2_rows_of(kind: Kind, inputs: &[(String, Extra, Option<Challenge>)]) -> Vec<(String, String)> {
    let mut out = v2_codec_rows(inputs);
    v2_flag_rows(kind, &mut out);
    out
}

/// The encode rows of `inputs` and the decode rows of their codes (with mutations).
fn v2_codec_rows(inputs: &[(String, Extra, Option<Challenge>)]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut codes = Vec::new();
    for (id, extra, challenge) in inputs {
        let input = format!(
            "E {id} daily={:?} classic={:?} challenge={:?}",
            extra.daily, extra.classic, challenge
        );
        let result = encode_full(id, *extra, *challenge);
        if let Ok(code) = &result {
            codes.push(code.clone());
            if let Ok(d) = decode_full(code) {
                out.push((format!("E {} (decoded)", d.id), answer(&encode(&d.id))));
            }
        }
        out.push((input, answer(&result)));
    }
    for (n, code) in codes.iter().enumerate() {
        out.push((format!("D {code}"), decoded(decode_full(code))));
        if n % 4 == 0 {
            out.push((format!("D link {code}"), decoded(decode_full(&link(code)))));
        }
        // Mutations with a valid checksum reach the parser's deeper checks; the game's
        // number (byte 0, one byte below 128) is never changed: that row would depend on
        // which numbers other games have.
        let p = payload(code);
        for i in 1..p.len().min(15) {
            let mut flipped = p.clone();
            flipped[i] ^= 1 << ((i * 3 + n) % 8);
            let mut cut = p.clone();
            cut.truncate(i);
            let mut longer = p.clone();
            longer.insert(i + 1, (i * 37 + n) as u8);
            for q in [flipped, cut, longer] {
                let text = Version::V2.text(&q);
                out.push((format!("D {text}"), decoded(decode_full(&text))));
            }
        }
        // A character swapped for each look-alike the alphabet leaves out.
        if n % 8 == 0 {
            for (at, c) in [(3, '0'), (5, 'O'), (7, 'l'), (9, '1')] {
                if at < code.len() {
                    let mut t: Vec<char> = code.chars().collect();
                    t[at] = c;
                    let t: String = t.into_iter().collect();
                    out.push((format!("D {t}"), decoded(decode_full(&t))));
                }
            }
        }
    }
    out
}

/// Every flags byte over a few board tails.
fn v2_flag_rows(kind: Kind, out: &mut Vec<(String, String)>) {
    for flags in 0..=255u8 {
        for tail in [
            &[0x33u8, 0x01, 0x02][..],
            &[0x45, 0x1b, 0x6d, 0xb6, 0xd8][..],
            &[],
        ] {
            let mut q = vec![kind.code_number(), flags];
            q.extend_from_slice(tail);
            let text = Version::V2.text(&q);
            out.push((format!("D {text}"), decoded(decode_full(&text))));
        }
    }
}

/// The folder of the version-2 files: `golden/<game>.tsv`, one per game.
fn v2_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/code/golden")
}

/// A game's pinned version-2 rows in order (`None`: the game has no file yet).
fn v2_file(kind: Kind) -> Option<Vec<(String, String)>> {
    let path = v2_dir().join(format!("{}.tsv", kind.as_str()));
    let text = std::fs::read_to_string(&path).ok()?;
    let rows = text.lines().enumerate().map(|(n, line)| {
        let Some((input, output)) = line.split_once('\t') else {
            panic!("{}:{}: not two columns", path.display(), n + 1);
        };
        (input.to_string(), output.to_string())
    });
    Some(rows.collect())
}

fn v2_tsv(rows: &[(String, String)]) -> String {
    let mut s = String::new();
    for (input, output) in rows {
        s.push_str(&format!("{input}\t{output}\n"));
    }
    s
}

#[test]
fn current_codes_of_every_game_encode_and_decode_as_pinned() {
    for entry in std::fs::read_dir(v2_dir()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let game = name.strip_suffix(".tsv").unwrap_or(&name);
        assert!(
            Kind::parse(game).is_some(),
            "code/golden/{name} is not the file of a game"
        );
    }
    for kind in Kind::ALL {
        let Some(want) = v2_file(kind) else {
            panic!(
                "code/golden/{}.tsv is missing: `cargo test -p huarong-engine --release \
                 print_code_golden -- --ignored` writes it",
                kind.as_str()
            );
        };
        let got = v2_rows(kind);
        assert!(got.len() > 500, "{kind:?}: {} rows", got.len());
        same_lines(
            &v2_tsv(&want),
            &v2_tsv(&got),
            &format!("code/golden/{}.tsv", kind.as_str()),
        );
    }
}

#[test]
fn a_number_no_game_has_is_an_unknown_game_in_either_version() {
    let free = (0..=MAX_GAME_NUMBER)
        .find(|&n| Kind::from_code_number(n).is_none())
        .expect("a free game number");
    let tail = [0x33u8, 0x01, 0x02];
    for text in [
        Version::V2.text(&[&[free, 0][..], &tail].concat()),
        Version::V2.text(&[&[MAX_GAME_NUMBER + 1, 1, 0][..], &tail].concat()),
    ] {
        let e = decode_full(&text).unwrap_err();
        assert_eq!(
            (e.code, e.message.as_str()),
            (ErrorCode::BadCode, "the code names an unknown game")
        );
    }
    // Version 1 names only the first three games, whatever the registry holds.
    for kind in Kind::ALL {
        let n = kind.code_number();
        let text = Version::V1.text(&[n & 3, 0x33, 0x01, 0x02]);
        let named = decode_full(&text).map(|d| d.kind);
        if n < V1_GAMES {
            assert!(
                !matches!(&named, Err(e) if e.message.contains("unknown game")),
                "{kind:?}"
            );
        } else {
            assert_ne!(named.ok(), Some(kind));
        }
    }
}

/// Writes `code/golden/<game>.tsv` for every game that has none (`cargo test -p
/// huarong-engine --release print_code_golden -- --ignored`): a new game pins its rows this
/// way. It never rewrites a game's file: to a file that holds exactly the rows of the
/// game's first sample IDs and lacks those of its [`Coded::GOLDEN_ADDED`] IDs, it appends
/// them (every existing row stays as it is).
#[test]
#[ignore]
fn print_code_golden() {
    for kind in Kind::ALL {
        let path = v2_dir().join(format!("{}.tsv", kind.as_str()));
        match v2_file(kind) {
            None => {
                std::fs::write(&path, v2_tsv(&v2_rows(kind))).unwrap();
                println!("wrote {}", path.display());
            }
            Some(have) => {
                let first = v2_rows_of(kind, &v2_inputs(kind));
                let added = v2_added_rows(kind);
                if have == first && !added.is_empty() {
                    let mut text = std::fs::read_to_string(&path).unwrap();
                    text.push_str(&v2_tsv(&added));
                    std::fs::write(&path, text).unwrap();
                    println!("appended {} rows to {}", added.len(), path.display());
                }
            }
        }
    }
}

/// The inputs of `golden-result.tsv`: result codes of every game with and
/// without name, move log and outcome. The rows made without an outcome are what builds
/// before issue 35 wrote (checked against that build when the file was made): their codes
/// never change; the outcome rows pin the new form.
fn result_inputs() -> Vec<(String, Extra, Challenge, Sender, Option<Outcome>)> {
    use crate::game::{Cancel, Game, Status};
    use crate::rng::RngCore;
    fn solved<G: Game>(id: &str) -> (Vec<serde_json::Value>, u32) {
        let p = GameId::parse(id).unwrap();
        let mut g = G::from_id(&p.body, p.seed).unwrap();
        let moves = g.solve(&Cancel::new()).unwrap();
        for m in &moves {
            g.apply(m).unwrap();
        }
        (sent::to_json::<G>(&moves), g.moves())
    }
    let mut out = Vec::new();
    let named = |n: &str, log: Option<Vec<serde_json::Value>>| Sender {
        name: Some(n.to_string()),
        log,
    };
    let none = Extra::default();
    let daily = Extra {
        daily: Some(7),
        classic: None,
    };
    let slide = "slide:3x3:4,1,3,7,2,6,5,8,0";
    let (log, moves) = solved::<crate::slide::Slide>(slide);
    let ch = Challenge::new(moves, 9_300).unwrap();
    out.push((
        slide.into(),
        daily,
        ch,
        named("Mei", Some(log.clone())),
        None,
    ));
    out.push((slide.into(), none, ch, named("Mei", None), None));
    out.push((
        slide.into(),
        none,
        ch,
        Sender {
            name: None,
            log: Some(log.clone()),
        },
        None,
    ));
    out.push((slide.into(), none, ch, named("华容道高手", Some(log)), None));
    out.push((
        slide.into(),
        none,
        ch,
        named("Mei", None),
        Some(Outcome {
            score: 1,
            won: true,
        }),
    ));
    let klotski = format!("klotski:{}", crate::klotski::classics()[0].board);
    let (log, moves) = solved::<crate::klotski::Klotski>(&klotski);
    let ch = Challenge::new(moves, 203_400).unwrap();
    out.push((klotski.clone(), none, ch, named("Cao Cao", Some(log)), None));
    out.push((klotski, daily, ch, named("Cao Cao", None), None));
    for (seed, stream) in [(42u64, 3u64), (5, 11)] {
        let mut g = crate::g2048::G2048::from_id("", Some(seed)).unwrap();
        let mut played = Vec::new();
        let mut rng = crate::rng::stream(stream, "test");
        while g.status() == Status::Playing && played.len() < 3000 {
            let m =
                crate::g2048::Move::Slide(crate::g2048::Dir::ALL[(rng.next_u32() % 4) as usize]);
            if g.apply(&m).is_ok() {
                played.push(serde_json::to_value(m).unwrap());
            }
        }
        let id = format!("2048:#{seed}");
        let ch = Challenge::new(g.moves(), 95_000).unwrap();
        let real = Outcome {
            score: g.score(),
            won: g.reached_2048(),
        };
        let claim = Outcome {
            score: 20_000,
            won: true,
        };
        out.push((id.clone(), none, ch, named("R", Some(played.clone())), None));
        out.push((id.clone(), none, ch, named("R", None), None));
        out.push((
            id.clone(),
            daily,
            ch,
            named("R", Some(played.clone())),
            Some(real),
        ));
        out.push((
            id.clone(),
            none,
            ch,
            Sender {
                name: None,
                log: Some(played.clone()),
            },
            Some(real),
        ));
        out.push((id.clone(), none, ch, named("R", None), Some(real)));
        out.push((id.clone(), none, ch, Sender::default(), Some(claim)));
        out.push((id.clone(), none, ch, named("R", Some(played)), Some(claim)));
        out.push((
            id,
            none,
            ch,
            named("R", None),
            Some(Outcome {
                score: MAX_OUTCOME_SCORE + 1,
                won: false,
            }),
        ));
    }
    out
}

/// The rows of `golden-result.tsv`: `E` an encode, `D` a decode (of each code, its link and
/// mutations of its payload after the head, re-sealed with a valid checksum).
fn result_rows() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut codes = Vec::new();
    for (id, extra, ch, sender, outcome) in result_inputs() {
        let log = sender.log.as_ref().map(|l| l.len());
        let input = format!(
            "E {id} daily={:?} challenge={ch:?} name={:?} log={log:?} outcome={outcome:?}",
            extra.daily, sender.name
        );
        let result = encode_result_with(&id, extra, ch, &sender, outcome);
        if let Ok(code) = &result {
            codes.push(code.clone());
        }
        out.push((input, answer(&result)));
    }
    for (n, code) in codes.iter().enumerate() {
        out.push((format!("D {code}"), decoded(decode_full(code))));
        let p = payload(code);
        for i in (2..p.len().min(24)).step_by(3) {
            let mut flipped = p.clone();
            flipped[i] ^= 1 << ((i + n) % 8);
            let text = Version::V2.text(&flipped);
            out.push((format!("D {text}"), decoded(decode_full(&text))));
        }
    }
    out
}

#[test]
fn result_codes_encode_and_decode_as_pinned() {
    let rows = result_rows();
    assert!(rows.len() > 100, "{} rows", rows.len());
    same_lines(
        include_str!("golden-result.tsv"),
        &tsv(&rows),
        "golden-result.tsv",
    );
}

/// Prints `golden-result.tsv` (`cargo test -p huarong-engine --release print_result_golden
/// -- --ignored --nocapture`): made once; never regenerate its rows, only add new inputs at
/// the end.
#[test]
#[ignore]
fn print_result_golden() {
    print!("{}", tsv(&result_rows()));
}
