//! Golden share codes: `golden.tsv` pins, for a few hundred game IDs of every game, the code
//! this build writes, and for every such code (and thousands of mutations of it) what
//! decoding answers — the full `Decoded` or the error's code and message. Codes are a wire
//! format that players have shared: a change of any line is a break of the format (or of an
//! error message), never an update to make. The file was written once, by
//! `print_code_golden`, before the code module was made generic over the games.

use super::*;
use crate::daily;

/// One row per input: `E` an encode (game ID, daily, classic, challenge), `D` a decode.
fn rows() -> Vec<(String, String)> {
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
        for (_, id) in &day.puzzles {
            ids.push((id.clone(), extra, None));
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
        let result = encode_full(id, *extra, *challenge);
        if let Ok(code) = &result {
            codes.push(code.clone());
            // The exact ID it decodes to encodes too.
            if let Ok(d) = decode_full(code) {
                let exact = encode(&d.id);
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

/// The payload of a code (without version character and checksum).
fn payload(code: &str) -> Vec<u8> {
    let mut bytes = wire::base64_decode(&code[1..], 1).unwrap();
    bytes.truncate(bytes.len() - 4);
    bytes
}

/// The code of any payload, checksum included.
fn checked_code(payload: &[u8]) -> String {
    let mut w = Writer::default();
    w.slice(payload);
    let mut checked = vec![VERSION as u8];
    checked.extend_from_slice(payload);
    w.slice(&wire::crc32(&checked).to_be_bytes());
    format!("{VERSION}{}", wire::base64_encode(&w.bytes))
}

fn answer(r: &Result<String>) -> String {
    match r {
        Ok(code) => code.clone(),
        Err(e) => format!("ERR {:?} {}", e.code, e.message),
    }
}

fn decoded(r: Result<Decoded>) -> String {
    match r {
        Ok(d) => format!("{d:?}"),
        Err(e) => format!("ERR {:?} {}", e.code, e.message),
    }
}

fn tsv(rows: &[(String, String)]) -> String {
    let mut s = String::new();
    for (input, output) in rows {
        s.push_str(&format!("{input}\t{output}\n"));
    }
    s
}

#[test]
fn golden_codes_encode_and_decode_as_they_always_did() {
    let want = include_str!("golden.tsv");
    let rows = rows();
    assert!(rows.len() > 2000, "{} rows", rows.len());
    let got = tsv(&rows);
    let (mut want_lines, mut got_lines) = (want.lines(), got.lines());
    for n in 1.. {
        match (want_lines.next(), got_lines.next()) {
            (None, None) => break,
            (w, g) => assert_eq!(g, w, "golden.tsv line {n}"),
        }
    }
}

/// Writes `golden.tsv` (run once: `cargo test -p huarong-engine --release print_code_golden
/// -- --ignored --nocapture > …`). Never regenerate the pinned file.
#[test]
#[ignore]
fn print_code_golden() {
    print!("{}", tsv(&rows()));
}
