use super::*;
use crate::klotski;
use crate::rng::{self, RngCore};
use crate::slide::Slide;

/// A version-1 code around any payload (one head byte, the layout these tests build by
/// hand), with a correct checksum (to reach the parser's deeper checks).
fn raw_code(payload: &[u8]) -> String {
    Version::V1.text(payload)
}

/// The version-1 payload of any code (a current one is re-written as version 1 first).
fn payload_of(code: &str) -> Vec<u8> {
    let v1 = decode_as(code, Some(Version::V1)).unwrap().code;
    let bytes = wire::base64_decode(&v1[1..], 1).unwrap();
    bytes[..bytes.len() - 4].to_vec()
}

/// encode → decode gives a game with the same start board, the canonical code again, and
/// fits the length limit.
fn round_trip(id: &str) -> Decoded {
    let code = encode(id).unwrap_or_else(|e| panic!("encode {id}: {e}"));
    assert!(
        code.len() <= MAX_CODE_LEN,
        "{id}: code of {} characters",
        code.len()
    );
    let d = decode_full(&code).unwrap_or_else(|e| panic!("decode {code} ({id}): {e}"));
    assert_eq!(d.code, code, "{id}");
    let parsed = GameId::parse(id).unwrap();
    assert_eq!(d.kind, parsed.kind);
    let (want, got) = (start_any(id), start_any(&d.id));
    if parsed.kind == Kind::Klotski {
        // Pieces get canonical letters: compare layouts.
        let layout = |b: &str| KlotskiBoard::parse(b).unwrap();
        assert_eq!(layout(&want), layout(&got), "{id} → {code} → {}", d.id);
        assert_eq!(layout(&d.board), layout(&want));
    } else {
        assert_eq!(want, got, "{id} → {code} → {}", d.id);
        assert_eq!(d.board, want);
    }
    // The link form decodes to the same.
    assert_eq!(decode(&link(&code)).unwrap(), d.id);
    assert_eq!(resolve(&format!("  {}\n", link(&code))).unwrap(), d.id);
    d
}

#[test]
fn slide_every_size_round_trips() {
    for w in 2..=10 {
        for h in 2..=10 {
            for seed in [0u64, 1, 99, u64::MAX] {
                let id = format!("slide:{w}x{h}#{seed}");
                let d = round_trip(&id);
                assert_eq!(
                    d.origin,
                    Origin::Generated {
                        params: format!("{w}x{h}"),
                        seed,
                        generator: 1
                    }
                );
                assert_eq!(d.source_id(), id);
                assert!(d.id.starts_with(&format!("slide:{w}x{h}:")));
                // The exact board encodes too, as an exact board.
                let exact = round_trip(&d.id);
                assert_eq!(exact.origin, Origin::Exact);
                assert_eq!(exact.id, d.id);
            }
        }
    }
    let d = round_trip("slide:3x3/hard#5");
    assert_eq!(
        d.origin,
        Origin::Generated {
            params: "3x3/hard".into(),
            seed: 5,
            generator: 1
        }
    );
}

#[test]
fn ten_by_ten_fits_with_every_field_at_its_largest() {
    let code = encode_with(
        &format!("slide:10x10#{}", u64::MAX),
        Extra {
            daily: Some(MAX_DAILY),
            classic: None,
        },
    )
    .unwrap();
    assert!(code.len() <= 160, "{} characters", code.len());
    let d = decode_full(&code).unwrap();
    assert_eq!(d.daily, Some(MAX_DAILY));
}

#[test]
fn klotski_classics_are_short_and_named_by_index() {
    let classics = klotski::classics();
    assert_eq!(classics.len(), 40);
    for (i, c) in classics.iter().enumerate() {
        let id = format!("klotski:{}", c.board);
        if c.min_moves.is_none() {
            // 走投无路 has no solution: it cannot be shared.
            assert_eq!(encode(&id).unwrap_err().code, ErrorCode::Unsolvable, "{id}");
            continue;
        }
        let d = round_trip(&id);
        // Without a hint the first classic of the layout is named (two share one layout).
        let first = classics.iter().position(|o| o.board == c.board).unwrap();
        assert_eq!(d.origin, Origin::Classic { index: first });
        assert!(d.code.len() <= 14, "{}", d.code);
        let code = encode_with(
            &id,
            Extra {
                daily: None,
                classic: Some(i),
            },
        )
        .unwrap();
        let d = decode_full(&code).unwrap();
        assert_eq!(d.origin, Origin::Classic { index: i });
        assert_eq!(d.id, format!("klotski:{}", c.board));
    }
}

#[test]
fn klotski_generated_and_other_sizes_round_trip() {
    for seed in [1u64, 2] {
        let id = format!("klotski:10-30#{seed}");
        let d = round_trip(&id);
        assert!(
            matches!(d.origin, Origin::Generated { ref params, seed: s, .. } if params == "10-30" && s == seed)
        );
        assert_eq!(d.source_id(), id);
    }
    // A variant of the generator (four generals, six soldiers).
    let d = round_trip("klotski:10-30:g4s6#5");
    assert_eq!(d.source_id(), "klotski:10-30:g4s6#5");
    // A board that is no classic (the 横刀立马 layout with the two bottom soldiers moved).
    let d = round_trip("klotski:aCCb/aCCb/cdde/cste/.uv.");
    assert_eq!(d.origin, Origin::Exact);
    // Other sizes, walls.
    round_trip("klotski:a.CC.b/a.CC.b/c....d/c....d");
    // A classic hint that does not fit the board is refused.
    let e = encode_with(
        "klotski:aCCb/aCCb/cdde/cste/.uv.",
        Extra {
            daily: None,
            classic: Some(0),
        },
    );
    assert_eq!(e.unwrap_err().code, ErrorCode::Parse);
    round_trip("klotski:#aa#/.CC./.CC./b..c/b..c/#..#");
}

#[test]
fn g2048_round_trips() {
    for seed in [0u64, 7, 123_456_789, u64::MAX] {
        let id = format!("2048:#{seed}");
        let d = round_trip(&id);
        assert_eq!(d.id, id);
        assert_eq!(
            d.origin,
            Origin::Generated {
                params: String::new(),
                seed,
                generator: 1
            }
        );
        assert_eq!(d.source_id(), id);
    }
    let board = "2,0,0,0,0,4,0,0,0,0,8,0,0,0,0,32768";
    let d = round_trip(&format!("2048:{board}"));
    assert_eq!(
        (d.id.as_str(), &d.origin),
        (format!("2048:{board}").as_str(), &Origin::Exact)
    );
    let d = round_trip(&format!("2048:{board}#42"));
    assert_eq!(d.id, format!("2048:{board}#42"));
    assert_eq!(d.origin, Origin::BoardSeed { seed: 42 });
}

#[test]
fn daily_number_is_carried() {
    let code = encode_with(
        "2048:#5",
        Extra {
            daily: Some(17),
            classic: None,
        },
    )
    .unwrap();
    let d = decode_full(&code).unwrap();
    assert_eq!(d.daily, Some(17));
    assert_eq!(d.id, "2048:#5");
    assert_ne!(code, encode("2048:#5").unwrap());
    assert_eq!(
        encode_with(
            "2048:#5",
            Extra {
                daily: Some(MAX_DAILY + 1),
                classic: None
            }
        )
        .unwrap_err()
        .code,
        ErrorCode::OutOfRange
    );
}

#[test]
fn resolve_accepts_ids_codes_and_links() {
    assert_eq!(
        resolve("slide:3x3:1,2,3,4,5,6,7,0,8").unwrap(),
        "slide:3x3:1,2,3,4,5,6,7,0,8"
    );
    assert_eq!(resolve("2048#7").unwrap(), "2048:#7");
    let code = encode("slide:3x3:1,2,3,4,5,6,7,0,8").unwrap();
    assert_eq!(resolve(&code).unwrap(), "slide:3x3:1,2,3,4,5,6,7,0,8");
    assert_eq!(
        resolve(&format!("huarong://play?c={code}&from=card")).unwrap(),
        "slide:3x3:1,2,3,4,5,6,7,0,8"
    );
    assert_eq!(
        resolve("huarong://play?x=1").unwrap_err().code,
        ErrorCode::BadCode
    );
    assert_eq!(
        resolve("huarong://other?c=1").unwrap_err().code,
        ErrorCode::BadCode
    );
    // The web link (what is written now) and the first, custom-scheme one name the same game.
    let web = link(&code);
    assert_eq!(web, format!("{LINK_BASE}?c={code}"));
    assert_eq!(resolve(&web).unwrap(), "slide:3x3:1,2,3,4,5,6,7,0,8");
    assert_eq!(
        resolve(&format!("{SCHEME_LINK_PREFIX}{code}")).unwrap(),
        resolve(&web).unwrap()
    );
}

#[test]
fn link_base_is_one_https_directory() {
    // `https://<host>/<path>/`: lowercase host without port or user, a path ending in `/`, no
    // query or fragment of its own (the link appends `?c=`).
    let host = link_host();
    assert!(LINK_BASE.starts_with("https://"), "{LINK_BASE}");
    assert!(!host.is_empty() && host.contains('.'), "{host}");
    assert!(
        host.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-'),
        "{host}"
    );
    assert!(link_path().starts_with('/') && link_path().ends_with('/'));
    assert!(!LINK_BASE.contains(['?', '#', '@', ' ']));
    assert_eq!(format!("https://{host}{}", link_path()), LINK_BASE);
}

#[test]
fn web_links_are_read_leniently_but_only_for_the_base() {
    let code = encode("slide:3x3:1,2,3,4,5,6,7,0,8").unwrap();
    let id = decode(&link(&code)).unwrap();
    let host = link_host();
    let path = link_path();
    // What browsers, scanners and chat apps make of the same link.
    for same in [
        format!("{LINK_BASE}?c={code}&from=card"),
        format!("{LINK_BASE}?from=card&c={code}"),
        format!("{LINK_BASE}?c={code}#top"),
        format!("  HTTPS://{}{path}?c={code}\n", host.to_uppercase()),
        format!("https://{host}{}?c={code}", path.trim_end_matches('/')),
        format!("https://{host}{path}index.html?c={code}"),
    ] {
        assert_eq!(decode(&same).unwrap(), id, "{same}");
        assert!(is_link(same.trim()) && !is_game_id(same.trim()), "{same}");
    }
    // Elsewhere, or not a shared puzzle: bad_code with a message that says why.
    for (bad, says) in [
        (format!("https://example.com{path}?c={code}"), "example.com"),
        (format!("https://{host}.evil.com{path}?c={code}"), "evil"),
        (
            format!("https://evil.com/{host}{path}?c={code}"),
            "evil.com",
        ),
        (format!("https://{host}:8443{path}?c={code}"), ":8443"),
        (format!("https://user@{host}{path}?c={code}"), "user@"),
        (
            format!("https://{host}{path}records?c={code}"),
            "not a shared puzzle",
        ),
        (format!("http://{host}{path}?c={code}"), "start with"),
        (format!("{LINK_BASE}?code={code}"), "no code"),
        (LINK_BASE.to_string(), "no code"),
        (format!("{LINK_BASE}?c="), "empty"),
        (
            format!("{LINK_BASE}?c={}", &code[..code.len() - 1]),
            "checksum",
        ),
        (format!("{LINK_BASE}?c=%32%41"), ""),
    ] {
        let e = decode(&bad).expect_err(&bad);
        assert_eq!(e.code, ErrorCode::BadCode, "{bad}: {e:?}");
        assert!(e.message.contains(says), "{bad}: {}", e.message);
        assert!(resolve(&bad).is_err(), "{bad}");
    }
}

#[test]
fn the_longest_link_is_a_small_qr_code() {
    // The card's QR code holds the link; the longest written code (`MAX_CODE_LEN` bounds it)
    // plus the base must stay within QR version 9 at error correction M (180 bytes).
    let longest = encode_full(
        &format!("slide:10x10#{}", u64::MAX),
        Extra {
            daily: Some(MAX_DAILY),
            classic: None,
        },
        Some(Challenge::new(MAX_CHALLENGE_MOVES, MAX_CHALLENGE_MS).unwrap()),
    )
    .unwrap();
    assert!(link(&longest).len() <= 180, "{}", link(&longest).len());
    assert!(LINK_BASE.len() + "?c=".len() + MAX_CODE_LEN <= MAX_INPUT_LEN);
}

fn bad(text: &str) -> Error {
    let e = decode(text).expect_err(text);
    assert!(!e.message.is_empty());
    e
}

#[test]
fn clear_errors() {
    let code = encode("slide:4x4#1").unwrap();
    // Wrong version.
    let e = bad(&format!("3{}", &code[1..]));
    assert_eq!(e.code, ErrorCode::BadCode);
    assert!(e.message.contains("newer"), "{}", e.message);
    // A mistyped character, a cut-off code, an extra character.
    let mut typo = code.clone().into_bytes();
    typo[7] = if typo[7] == b'A' { b'B' } else { b'A' };
    let e = bad(std::str::from_utf8(&typo).unwrap());
    assert!(e.message.contains("checksum"), "{}", e.message);
    assert_eq!(bad(&code[..code.len() - 2]).code, ErrorCode::BadCode);
    assert_eq!(bad(&format!("{code}A")).code, ErrorCode::BadCode);
    let bang = format!("{}!{}", &code[..5], &code[6..]);
    assert!(
        bad(&bang).message.contains("position 5"),
        "{}",
        bad(&bang).message
    );
    assert_eq!(bad("").code, ErrorCode::BadCode);
    assert_eq!(bad(&"1".repeat(500)).code, ErrorCode::BadCode);
    assert_eq!(
        bad(&format!("1{}", "A".repeat(200))).code,
        ErrorCode::BadCode
    );
}

#[test]
fn unsolvable_slide_board_is_refused() {
    // 3×3 with 1 and 2 swapped: a valid permutation rank with the wrong parity.
    let good = SlideBoard::parse("3x3:1,2,3,4,5,6,7,8,0").unwrap();
    let swapped = SlideBoard::parse("3x3:2,1,3,4,5,6,7,8,0").unwrap();
    for (board, ok) in [(good, true), (swapped, false)] {
        let mut w = Writer::default();
        w.byte(0); // slide, exact
        board.write(&mut w);
        let r = decode(&raw_code(&w.bytes));
        if ok {
            assert_eq!(r.unwrap(), "slide:3x3:1,2,3,4,5,6,7,8,0");
        } else {
            assert_eq!(r.unwrap_err().code, ErrorCode::Unsolvable);
        }
    }
}

#[test]
fn classic_check_must_match() {
    let code = encode(&format!("klotski:{}", klotski::classics()[0].board)).unwrap();
    let mut p = payload_of(&code);
    assert_eq!(p.len(), 4); // head, index, check
    p[3] ^= 1;
    let e = decode(&raw_code(&p)).unwrap_err();
    assert_eq!(e.code, ErrorCode::BadCode);
    assert!(e.message.contains("level list"), "{}", e.message);
    p[3] ^= 1;
    p[1] = 200;
    assert_eq!(decode(&raw_code(&p)).unwrap_err().code, ErrorCode::BadCode);
}

#[test]
fn reserved_and_mismatched_fields_are_refused() {
    let code = encode("2048:#3").unwrap();
    let p = payload_of(&code);
    // Bit 6 (a picture) on a 2048 code, bit 7 (the wide form) on an ordinary board, an unknown kind.
    for head in [p[0] | 0x40, p[0] | 0x80, 3] {
        let mut q = p.clone();
        q[0] = head;
        assert_eq!(
            decode(&raw_code(&q)).unwrap_err().code,
            ErrorCode::BadCode,
            "head {head:#x}"
        );
    }
    // Trailing bytes.
    let mut q = p.clone();
    q.push(0);
    assert!(decode(&raw_code(&q))
        .unwrap_err()
        .message
        .contains("too many"));
    // Board + seed on a slide.
    let mut w = Writer::default();
    w.byte(0b1100);
    w.varint(5);
    SlideBoard::parse("2x2:1,2,0,3").unwrap().write(&mut w);
    assert_eq!(
        decode(&raw_code(&w.bytes)).unwrap_err().code,
        ErrorCode::BadCode
    );
}

/// Random text, random payloads with a valid checksum, and mutations of valid codes: the
/// decoder never panics, answers every input with a game ID it can open or an error with a
/// message, and every mutation of a valid code is refused or decodes to a valid game.
#[test]
fn fuzz_decoder() {
    let mut rng = rng::stream(2024, "code-fuzz");
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let seeds = [
        "slide:4x4#1",
        "slide:10x10#2",
        "slide:2x3#3",
        "klotski:10-30#4",
        "klotski:aCCbaCCbcddecsteu..v",
        "klotski:a.CC.b/a.CC.b/c....d/c....d",
        "2048:#5",
        "2048:2,0,0,0,0,4,0,0,0,0,8,0,0,0,0,2#6",
    ];
    let valid: Vec<String> = seeds
        .iter()
        .map(|id| {
            encode_with(
                id,
                Extra {
                    daily: Some(3),
                    classic: None,
                },
            )
            .unwrap()
        })
        .collect();
    let mut accepted = 0;
    let mut check = |text: &str| match decode_full(text) {
        Ok(d) => {
            // Whatever decodes is a real game with the board the code claims.
            let start = start_any(&d.id);
            assert_eq!(start, d.board);
            assert_eq!(decode(&d.code).unwrap(), d.id);
            accepted += 1;
        }
        Err(e) => {
            assert!(
                matches!(
                    e.code,
                    ErrorCode::BadCode
                        | ErrorCode::Unsolvable
                        | ErrorCode::OutOfRange
                        | ErrorCode::Parse
                ),
                "{e}"
            );
            assert!(e.message.len() > 5);
        }
    };
    for _ in 0..3000 {
        // Random text over the alphabet (and sometimes any byte).
        let len = rng::below(&mut rng, 180) as usize;
        let text: String = (0..len)
            .map(|_| {
                if rng::below(&mut rng, 50) == 0 {
                    (rng::below(&mut rng, 256) as u8 as char).to_string()
                } else {
                    (alphabet[rng::below(&mut rng, 64) as usize] as char).to_string()
                }
            })
            .collect();
        check(&format!("1{text}"));
        check(&text);
    }
    for _ in 0..20_000 {
        // Random payloads with a correct checksum: the parser itself must hold.
        let len = rng::below(&mut rng, 120) as usize;
        let mut p: Vec<u8> = (0..len).map(|_| rng.next_u32() as u8).collect();
        if !p.is_empty() {
            p[0] &= 0x1f; // mostly known header bits, so deeper layers are reached
        }
        check(&raw_code(&p));
    }
    for code in &valid {
        let p = payload_of(code);
        for _ in 0..2000 {
            // Mutate the payload (flip bits, cut, extend) and re-checksum.
            let mut q = p.clone();
            match rng::below(&mut rng, 3) {
                0 => {
                    let i = rng::below(&mut rng, q.len() as u64) as usize;
                    q[i] ^= 1 << rng::below(&mut rng, 8);
                }
                1 => q.truncate(rng::below(&mut rng, q.len() as u64) as usize),
                _ => q.push(rng.next_u32() as u8),
            }
            check(&raw_code(&q));
        }
        // Every single-character substitution of the text is caught by the checksum
        // (or is the version character).
        let bytes = code.as_bytes();
        for i in 0..bytes.len() {
            for &c in alphabet.iter().step_by(7) {
                if c != bytes[i] {
                    let mut t = bytes.to_vec();
                    t[i] = c;
                    let e = decode(std::str::from_utf8(&t).unwrap()).unwrap_err();
                    assert_eq!(e.code, ErrorCode::BadCode);
                }
            }
        }
    }
    assert!(
        accepted > 0,
        "the fuzzer never produced a valid code: it tests nothing deep"
    );
}

/// Version-1 codes written by the build before challenges and pictures existed (commit
/// 67a6b89): they decode, canonical as they are, and today's code of the same game ID is
/// exactly their content in the current version.
#[test]
fn codes_of_the_previous_version_are_unchanged() {
    let pinned = [
        ("slide:3x3:1,2,3,4,5,6,7,0,8", "1ADMAtJjiB1Iu"),
        ("slide:4x4/medium#7", "1BAEHCjR4NC9tZWRpdW1ECtOburOmwrwdkQ"),
        (
            "slide:10x10#18446744073709551615",
            "1BAH___________8BBTEweDEwqhBLOyihMeOS7KCJ4hQWMade5l-9cZvOUOIvZeqVAZq1TbyKbpoSgL0zPnAUeAJKGHQISsdWGRtqthqslnCmKSnbZe2Vw7E",
        ),
        ("slide:3x3#1", "1BAEBAzN4MzME5NmKR-Ym"),
        ("klotski:aCCb/aCCb/cdde/cste/u..v", "1CRpQJLBitoI"),
        ("klotski:60-90#3", "1BQEDBTYwLTkwRUtBGpAg2dkROA"),
        ("2048:#9", "1BgEJABAAEAAAAAAAeFAQcg"),
        ("2048:2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,4#5", "1DgUQAAAAAAAAAkSIAMs"),
        ("2048:2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,4", "1AhAAAAAAAAAC2Pj58Q"),
    ];
    for (id, code) in pinned {
        let today = encode(id).unwrap();
        assert!(today.starts_with(VERSION), "{today}");
        assert_eq!(upgrade(code).unwrap(), today, "{id}");
        let d = decode_full(code).unwrap();
        assert_eq!(d.challenge, None);
        assert_eq!(d.picture, None);
        assert_eq!(d.code, code);
        // The same game, whichever version says it.
        let now = decode_full(&today).unwrap();
        assert_eq!(
            (&now.id, &now.board, &now.origin),
            (&d.id, &d.board, &d.origin)
        );
        assert_eq!(now.code, today);
        assert_eq!(decode_as(&today, Some(Version::V1)).unwrap().code, code);
    }
}

#[test]
fn a_challenge_is_carried_and_checked() {
    let ch = Challenge::new(85, 203_400).unwrap();
    for id in [
        "slide:4x4/medium#7",
        "slide:3x3:1,2,3,4,5,6,7,0,8",
        "klotski:aCCb/aCCb/cdde/cste/u..v",
        "klotski:60-90#3",
        "2048:#9",
    ] {
        let plain = encode(id).unwrap();
        let code = encode_challenge(id, ch).unwrap();
        assert_ne!(plain, code);
        let d = decode_full(&code).unwrap();
        assert_eq!(d.challenge, Some(ch), "{id}");
        assert_eq!(d.code, code, "canonical text");
        assert_eq!(
            d.id,
            decode(&plain).unwrap(),
            "same game as without the challenge"
        );
        assert_eq!(resolve(&code).unwrap(), d.id);
        assert_eq!(decode_full(&link(&code)).unwrap().challenge, Some(ch));
        // Every single-character change of the challenge's bytes is caught by the checksum
        // (or the alphabet).
        for i in 1..code.len() {
            let mut b = code.clone().into_bytes();
            b[i] = if b[i] == b'A' { b'B' } else { b'A' };
            let t = String::from_utf8(b).unwrap();
            assert!(decode_full(&t).is_err(), "{t}");
        }
    }
    // A daily code with a challenge keeps both.
    let d = decode_full(
        &encode_full(
            "slide:3x3#1",
            Extra {
                daily: Some(12),
                classic: None,
            },
            Some(ch),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!((d.daily, d.challenge), (Some(12), Some(ch)));
    // Bounds.
    for (moves, ms) in [
        (0, 1),
        (MAX_CHALLENGE_MOVES + 1, 1),
        (5, MAX_CHALLENGE_MS + 1),
    ] {
        assert_eq!(
            Challenge::new(moves, ms).unwrap_err().code,
            ErrorCode::OutOfRange
        );
        let e = encode_challenge("slide:3x3#1", Challenge { moves, ms }).unwrap_err();
        assert_eq!(e.code, ErrorCode::OutOfRange, "{moves} {ms}");
    }
    assert!(ch.beaten_by(84, 999_999));
    assert!(ch.beaten_by(85, 203_399));
    assert!(!ch.beaten_by(85, 203_400));
    assert!(!ch.beaten_by(86, 1));
}

#[test]
fn out_of_range_challenges_in_a_code_are_refused() {
    // A payload with a correct checksum whose challenge is out of range.
    for (moves, ms) in [
        (0u64, 5u64),
        (MAX_CHALLENGE_MOVES as u64 + 1, 5),
        (3, MAX_CHALLENGE_MS + 1),
    ] {
        let mut w = Writer::default();
        w.byte(0x20);
        w.varint(moves);
        w.varint(ms);
        SlideBoard::parse("2x2:1,2,0,3").unwrap().write(&mut w);
        let e = decode(&raw_code(&w.bytes)).unwrap_err();
        assert_eq!(e.code, ErrorCode::BadCode, "{moves} {ms}: {}", e.message);
    }
    let mut w = Writer::default();
    w.byte(0x20);
    w.varint(3);
    w.varint(1500);
    SlideBoard::parse("2x2:1,2,0,3").unwrap().write(&mut w);
    let d = decode_full(&raw_code(&w.bytes)).unwrap();
    assert_eq!(d.challenge, Some(Challenge { moves: 3, ms: 1500 }));
}

/// The longest codes with a result: a generated 10×10 board (largest seed, a daily number,
/// the largest challenge) and an exact 10×10 board.
#[test]
fn ten_by_ten_with_a_challenge_fits() {
    let ch = Challenge::new(MAX_CHALLENGE_MOVES, MAX_CHALLENGE_MS).unwrap();
    let generated = encode_full(
        &format!("slide:10x10#{}", u64::MAX),
        Extra {
            daily: Some(MAX_DAILY),
            classic: None,
        },
        Some(ch),
    )
    .unwrap();
    // Version 1 wrote 136 characters; version 2's base 56 and its game-number byte: 144.
    assert_eq!(generated.len(), 144);
    let exact_id = decode(&generated).unwrap();
    assert!(exact_id.starts_with("slide:10x10:"));
    let exact = encode_full(
        &exact_id,
        Extra {
            daily: Some(MAX_DAILY),
            classic: None,
        },
        Some(ch),
    )
    .unwrap();
    for code in [&generated, &exact] {
        assert!(code.len() <= MAX_CODE_LEN, "{} characters", code.len());
        let d = decode_full(code).unwrap();
        assert_eq!(d.challenge, Some(ch));
        assert_eq!(d.daily, Some(MAX_DAILY));
        assert!(link(code).len() <= MAX_INPUT_LEN);
    }
    assert!(exact.len() < generated.len());
}

#[test]
fn built_in_pictures_travel_in_codes() {
    for (id, want_id_prefix, source) in [
        (
            "slide:3x3/picture:lotus#12",
            "slide:3x3/picture:lotus:",
            "slide:3x3/picture:lotus#12",
        ),
        (
            "slide:4x4/hard/picture:pagoda#5",
            "slide:4x4/picture:pagoda:",
            "slide:4x4/hard/picture:pagoda#5",
        ),
        (
            "slide:3x3/picture:mountains:1,2,3,4,5,6,7,0,8",
            "slide:3x3/picture:mountains:1,2,3",
            "slide:3x3/picture:mountains:1,2,3,4,5,6,7,0,8",
        ),
    ] {
        let code = encode(id).unwrap();
        let d = decode_full(&code).unwrap();
        assert!(d.id.starts_with(want_id_prefix), "{id} → {}", d.id);
        assert_eq!(d.source_id(), source);
        assert!(d.picture.is_some());
        assert_eq!(d.code, code);
        // The decoded ID opens the same board, as a picture game.
        let g = start_of::<Slide>(&d.id);
        assert_eq!(g, d.board);
        assert!(encode(&d.id).unwrap().len() <= code.len());
        let again = decode_full(&encode(&d.id).unwrap()).unwrap();
        assert_eq!(again.id, d.id);
    }
    // A player's own picture stays on the device: the code is the plain puzzle.
    let own = encode("slide:3x3/picture:photo-9f3a#12").unwrap();
    let d = decode_full(&own).unwrap();
    assert_eq!(d.picture, None);
    assert_eq!(own, encode("slide:3x3#12").unwrap());
    // A later version's picture name decodes; malformed names and wrong sizes do not.
    let mut w = Writer::default();
    w.byte(0x40);
    w.byte(7);
    w.slice(b"newpict");
    SlideBoard::parse("3x3:1,2,3,4,5,6,7,0,8")
        .unwrap()
        .write(&mut w);
    let d = decode_full(&raw_code(&w.bytes)).unwrap();
    assert_eq!(d.id, "slide:3x3/picture:newpict:1,2,3,4,5,6,7,0,8");
    for (name, board) in [
        (&b"New"[..], "3x3:1,2,3,4,5,6,7,0,8"),
        (b"", "3x3:1,2,3,4,5,6,7,0,8"),
        (b"lotus", "2x2:1,2,0,3"),
        (b"lotus", "3x4:1,2,3,4,5,6,7,8,9,10,0,11"),
    ] {
        let mut w = Writer::default();
        w.byte(0x40);
        w.byte(name.len() as u8);
        w.slice(name);
        SlideBoard::parse(board).unwrap().write(&mut w);
        let e = decode(&raw_code(&w.bytes)).unwrap_err();
        assert_eq!(e.code, ErrorCode::BadCode, "{board}: {}", e.message);
    }
}

// ---- Result codes: name and move log ----

/// A whole solution of a game ID, as JSON moves, and its move count (default rule).
fn solution_of<G: crate::game::Game>(id: &str) -> (Vec<serde_json::Value>, u32) {
    let p = GameId::parse(id).unwrap();
    let mut g = G::from_id(&p.body, p.seed).unwrap();
    let moves = g.solve(&crate::game::Cancel::new()).unwrap();
    for m in &moves {
        g.apply(m).unwrap();
    }
    assert_eq!(g.status(), crate::game::Status::Won);
    (sent::to_json::<G>(&moves), g.moves())
}

fn sender(name: &str, log: Option<Vec<serde_json::Value>>) -> Sender {
    Sender {
        name: Some(name.to_string()),
        log,
    }
}

#[test]
fn codes_without_a_result_are_unchanged_by_the_extension() {
    // The same text as before issue 25 (code/golden/ pins them all; this one by hand).
    for id in [
        "slide:3x3:1,2,3,4,5,6,7,0,8",
        "klotski:aCCb/aCCb/cdde/cste/u..v",
        "2048:#7",
    ] {
        let c = encode(id).unwrap();
        assert_eq!(
            encode_result(
                id,
                Extra::default(),
                Challenge::new(5, 9).unwrap(),
                &Sender::default()
            )
            .unwrap(),
            encode_challenge(id, Challenge::new(5, 9).unwrap()).unwrap()
        );
        assert!(decode_full(&c).unwrap().sent.is_none());
    }
}

#[test]
fn a_result_code_carries_name_and_log_and_is_verified() {
    let id = "slide:3x3:4,1,3,7,2,6,5,8,0";
    let (log, moves) = solution_of::<Slide>(id);
    let ch = Challenge::new(moves, 12_345).unwrap();
    let extra = Extra {
        daily: Some(321),
        classic: None,
    };
    let code = encode_result(id, extra, ch, &sender("  Mei 梅 ", Some(log.clone()))).unwrap();
    let d = decode_full(&code).unwrap();
    assert_eq!(d.code, code, "canonical");
    assert_eq!(d.id, id);
    assert_eq!(d.challenge, Some(ch));
    assert_eq!(d.daily, Some(321));
    assert_eq!(d.name(), Some("Mei 梅"));
    assert_eq!(d.log(), Some(&log[..]));
    assert!(d.verified());
    // The upgrade of a current code is itself; the link form decodes the same.
    assert_eq!(upgrade(&code).unwrap(), code);
    // Name only: plain (not verified).
    let plain = encode_result(id, extra, ch, &sender("Mei", None)).unwrap();
    let d = decode_full(&plain).unwrap();
    assert_eq!(
        (d.name(), d.log(), d.verified()),
        (Some("Mei"), None, false)
    );
    assert!(plain.len() < code.len());
    // A log alone, no name.
    let anon = Sender {
        name: None,
        log: Some(log),
    };
    let d = decode_full(&encode_result(id, extra, ch, &anon).unwrap()).unwrap();
    assert_eq!((d.name(), d.verified()), (None, true));
}

#[test]
fn a_log_that_misses_its_claim_is_refused_both_ways() {
    let id = "slide:3x3:4,1,3,7,2,6,5,8,0";
    let (log, moves) = solution_of::<Slide>(id);
    // The encoder refuses a wrong count, a log that stops short, an illegal move.
    let wrong = Challenge::new(moves + 1, 1_000).unwrap();
    let e = encode_result(id, Extra::default(), wrong, &sender("A", Some(log.clone())));
    assert_eq!(e.unwrap_err().code, ErrorCode::Parse);
    let ch = Challenge::new(moves, 1_000).unwrap();
    let short = log[..log.len() - 1].to_vec();
    assert!(encode_result(id, Extra::default(), ch, &sender("A", Some(short))).is_err());
    let illegal = vec![serde_json::json!({"tile": 1})];
    assert!(encode_result(id, Extra::default(), ch, &sender("A", Some(illegal))).is_err());
    // A forged code (a correct checksum over a log that is not the claimed result).
    let content = Content::<Slide>::from_id(&GameId::parse(id).unwrap()).unwrap();
    let start = Slide::from_id(&id[6..], None).unwrap();
    let mv = sent::parse_moves::<Slide>(&log).unwrap();
    let (count, bytes, _) = sent::pack(&start, &mv).unwrap();
    let forged_claims = [moves - 1, moves + 3];
    for claim in forged_claims {
        let bits = SentBits {
            name: Some("Liar".into()),
            log: Some((count, bytes.clone())),
            outcome: None,
            ..Default::default()
        };
        let forged = content.to_code(
            Version::V2,
            None,
            Some(Challenge::new(claim, 5).unwrap()),
            Some(&bits),
        );
        let e = decode_full(&forged).unwrap_err();
        assert_eq!(e.code, ErrorCode::BadCode);
        assert!(e.message.contains("does not reach the goal"), "{e}");
    }
    // A log cut short (fewer moves than its bits say): refused.
    let (count2, bytes2, _) = sent::pack(&start, &mv[..mv.len() - 1]).unwrap();
    let bits = SentBits {
        name: None,
        log: Some((count2, bytes2)),
        outcome: None,
        ..Default::default()
    };
    let short = content.to_code(Version::V2, None, Some(ch), Some(&bits));
    assert_eq!(decode_full(&short).unwrap_err().code, ErrorCode::BadCode);
}

#[test]
fn the_checksum_covers_name_and_log() {
    let id = "slide:3x3:4,1,3,7,2,6,5,8,0";
    let (log, moves) = solution_of::<Slide>(id);
    let ch = Challenge::new(moves, 7_000).unwrap();
    let code = encode_result(id, Extra::default(), ch, &sender("Bo", Some(log))).unwrap();
    let chars: Vec<char> = code.chars().collect();
    let alphabet: Vec<char> = "23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz"
        .chars()
        .collect();
    // Every character changed (in the name and log as well as the head) is refused.
    for at in 1..chars.len() {
        let mut t = chars.clone();
        let i = alphabet.iter().position(|&c| c == t[at]).unwrap();
        t[at] = alphabet[(i + 1) % alphabet.len()];
        let t: String = t.into_iter().collect();
        let r = decode_full(&t);
        assert!(
            r.as_ref().is_err_and(|e| e.code == ErrorCode::BadCode),
            "{t}: {r:?}"
        );
    }
}

#[test]
fn bad_names_are_refused_in_codes() {
    let id = "slide:3x3:4,1,3,7,2,6,5,8,0";
    let ch = Challenge::new(3, 7_000).unwrap();
    for bad in ["a\nb", "x\u{1}", "abcdefghijklmnopq"] {
        assert!(encode_result(id, Extra::default(), ch, &sender(bad, None)).is_err());
        // Written by hand with a right checksum: the decoder refuses it too.
        let content = Content::<Slide>::from_id(&GameId::parse(id).unwrap()).unwrap();
        let bits = SentBits {
            name: Some(bad.to_string()),
            log: None,
            outcome: None,
            ..Default::default()
        };
        let forged = content.to_code(Version::V2, None, Some(ch), Some(&bits));
        assert_eq!(decode_full(&forged).unwrap_err().code, ErrorCode::BadCode);
    }
    // A name needs a result.
    assert!(encode_full(id, Extra::default(), None).is_ok());
    assert!(encode_sent(id, Extra::default(), None, &sender("A", None), None, false).is_err());
}

#[test]
fn logs_of_klotski_and_2048_replay_and_the_length_is_bounded() {
    // The classic 横刀立马, solved: its code with the log, figures for the README.
    let classic = klotski::classics()
        .iter()
        .find(|c| c.name_zh == "横刀立马")
        .unwrap();
    let id = classic.id();
    let (log, moves) = solution_of::<klotski::Klotski>(&id);
    assert_eq!(Some(moves), classic.min_moves);
    let ch = Challenge::new(moves, 95_000).unwrap();
    let code = encode_result(
        &id,
        Extra::default(),
        ch,
        &sender("Cao Cao", Some(log.clone())),
    )
    .unwrap();
    eprintln!(
        "classic Klotski solve ({moves} moves): {} characters",
        code.len()
    );
    let d = decode_full(&code).unwrap();
    assert!(d.verified());
    assert_eq!(d.log().unwrap().len(), log.len());
    assert!(code.len() <= 200, "{}", code.len());
    // A log padded with 5000 back-and-forth moves is too long for a code.
    let first = log[0].clone();
    let mv: klotski::Move = serde_json::from_value(first).unwrap();
    let start = klotski::Klotski::parse(classic.board).unwrap();
    let back = {
        let p = start.board().piece(mv.piece).unwrap();
        serde_json::json!({"piece": mv.piece, "to": [p.row, p.col]})
    };
    let mut long = Vec::new();
    for _ in 0..2500 {
        long.push(log[0].clone());
        long.push(back.clone());
    }
    long.extend(log.iter().cloned());
    let mut g = start.clone();
    for m in sent::parse_moves::<klotski::Klotski>(&long).unwrap() {
        g.apply(&m).unwrap();
    }
    let ch = Challenge::new(g.moves(), 95_000).unwrap();
    let e = encode_result(&id, Extra::default(), ch, &sender("Cao Cao", Some(long))).unwrap_err();
    assert_eq!(e.code, ErrorCode::OutOfRange, "{e}");
    // A 4×4 solve.
    let id4 = decode(&encode("slide:4x4/medium#11").unwrap()).unwrap();
    let (log4, moves4) = solution_of::<Slide>(&id4);
    let ch = Challenge::new(moves4, 60_000).unwrap();
    let code4 = encode_result(
        "slide:4x4/medium#11",
        Extra {
            daily: Some(400),
            classic: None,
        },
        ch,
        &sender("abcdefghijklmnop", Some(log4)),
    )
    .unwrap();
    eprintln!(
        "4x4 medium solve ({moves4} tile moves): {} characters",
        code4.len()
    );
    assert!(decode_full(&code4).unwrap().verified());
    // 2048: a seeded game played to its end replays (spawns follow from seed and moves).
    let mut g = crate::g2048::G2048::from_id("", Some(42)).unwrap();
    let mut played = Vec::new();
    let mut rng = rng::stream(3, "test");
    while g.status() == crate::game::Status::Playing && played.len() < 3000 {
        let dir = crate::g2048::Dir::ALL[(rng.next_u32() % 4) as usize];
        let m = crate::g2048::Move::Slide(dir);
        if g.apply(&m).is_ok() {
            played.push(serde_json::to_value(m).unwrap());
        }
    }
    let ch = Challenge::new(g.moves(), 30_000).unwrap();
    let code = encode_result("2048:#42", Extra::default(), ch, &sender("R", Some(played)));
    let code = code.unwrap();
    eprintln!(
        "2048 game of {} moves: {} characters",
        g.moves(),
        code.len()
    );
    let d = decode_full(&code).unwrap();
    assert!(d.verified());
    assert!(code.len() <= MAX_CODE_LEN);
    // pack_log / unpack_log round trip (what the app keeps for replays).
    let packed = pack_log(&id, &log).unwrap();
    assert_eq!(unpack_log(&id, &packed).unwrap(), log);
    assert!(unpack_log(&id, "2").is_err());
}

// ---- 2048 outcomes and names without format characters ----

/// A seeded 2048 game played with random swipes to its end: the moves and the game.
fn random_2048(seed: u64, stream: u64) -> (Vec<serde_json::Value>, crate::g2048::G2048) {
    let mut g = crate::g2048::G2048::from_id("", Some(seed)).unwrap();
    let mut played = Vec::new();
    let mut rng = rng::stream(stream, "test");
    while g.status() == crate::game::Status::Playing && played.len() < 3000 {
        let dir = crate::g2048::Dir::ALL[(rng.next_u32() % 4) as usize];
        let m = crate::g2048::Move::Slide(dir);
        if g.apply(&m).is_ok() {
            played.push(serde_json::to_value(m).unwrap());
        }
    }
    (played, g)
}

#[test]
fn a_2048_result_carries_its_score_and_whether_it_won() {
    let (played, g) = random_2048(42, 3);
    let ch = Challenge::new(g.moves(), 30_000).unwrap();
    let lost = Outcome {
        score: g.score(),
        won: false,
    };
    // Without a log: the claim travels as it is (plain, not verified).
    let plain = encode_result_with(
        "2048:#42",
        Extra::default(),
        ch,
        &sender("R", None),
        Some(lost),
    )
    .unwrap();
    let d = decode_full(&plain).unwrap();
    assert_eq!(d.sent.as_ref().unwrap().outcome, Some(lost));
    assert!(!d.verified());
    assert_eq!(d.code, plain, "canonical text");
    // With the log: the replay gives the outcome, and a claim must be it.
    let with_log = Sender {
        name: None,
        log: Some(played.clone()),
    };
    let code = encode_result_with("2048:#42", Extra::default(), ch, &with_log, Some(lost)).unwrap();
    let d = decode_full(&code).unwrap();
    assert!(d.verified());
    assert_eq!(d.sent.as_ref().unwrap().outcome, Some(lost));
    let wrong = Outcome {
        score: g.score() + 4,
        won: false,
    };
    assert_eq!(
        encode_result_with("2048:#42", Extra::default(), ch, &with_log, Some(wrong))
            .unwrap_err()
            .code,
        ErrorCode::Parse
    );
    // A log alone gives the outcome (verified with the moves).
    let log_only = encode_result("2048:#42", Extra::default(), ch, &with_log).unwrap();
    let d = decode_full(&log_only).unwrap();
    assert_eq!(d.sent.as_ref().unwrap().outcome, Some(lost));
    // Codes without an outcome are as before (the outcome costs a few characters).
    assert!(log_only.len() < code.len());
    // Games without an outcome refuse one.
    let id = "slide:3x3:1,2,3,4,5,6,7,0,8";
    let e = encode_result_with(
        id,
        Extra::default(),
        Challenge::new(1, 5).unwrap(),
        &sender("R", None),
        Some(lost),
    )
    .unwrap_err();
    assert_eq!(e.code, ErrorCode::Parse, "{e}");
    // An outcome needs a result.
    assert!(encode_sent(
        "2048:#42",
        Extra::default(),
        None,
        &Sender::default(),
        Some(lost),
        false
    )
    .is_err());
}

#[test]
fn a_2048_log_whose_end_is_not_the_claimed_outcome_is_refused() {
    // Built by hand: the honest code's payload with the outcome's varint changed (the log
    // replays to another score), sealed with a valid checksum.
    let (played, g) = random_2048(42, 3);
    let ch = Challenge::new(g.moves(), 30_000).unwrap();
    let honest = Outcome {
        score: g.score(),
        won: g.reached_2048(),
    };
    let with_log = Sender {
        name: None,
        log: Some(played),
    };
    let code =
        encode_result_with("2048:#42", Extra::default(), ch, &with_log, Some(honest)).unwrap();
    let p = super::payload_of(&code).unwrap();
    // The outcome is the varint right after the extension's flags byte (no name).
    let mut head = Reader::new(&p);
    head.varint(127, "game").unwrap();
    head.byte("flags").unwrap();
    head.varint(MAX_CHALLENGE_MOVES as u64, "moves").unwrap();
    head.varint(MAX_CHALLENGE_MS, "ms").unwrap();
    let at_flags = p.len() - head.remaining();
    assert_eq!(p[at_flags], 2 | 4, "log and outcome");
    let mut rest = Reader::new(&p[at_flags + 1..]);
    rest.varint(MAX_OUTCOME_SCORE * 2 + 1, "outcome").unwrap();
    let after = p.len() - rest.remaining();
    let mut w = Writer::default();
    w.slice(&p[..at_flags + 1]);
    w.varint((honest.score + 8) * 2 + u64::from(honest.won));
    w.slice(&p[after..]);
    let e = decode_full(&seal(&w.bytes)).unwrap_err();
    assert_eq!(e.code, ErrorCode::BadCode, "{e}");
    assert!(e.message.contains("score"), "{}", e.message);
    // A claimed outcome on a game that has none is a feature this version does not know.
    let slide = encode_result(
        "slide:3x3:1,2,3,4,5,6,7,0,8",
        Extra::default(),
        Challenge::new(1, 5).unwrap(),
        &sender("R", None),
    )
    .unwrap();
    let mut q = super::payload_of(&slide).unwrap();
    let mut r = Reader::new(&q);
    r.varint(127, "game").unwrap();
    r.byte("flags").unwrap();
    r.varint(MAX_CHALLENGE_MOVES as u64, "moves").unwrap();
    r.varint(MAX_CHALLENGE_MS, "ms").unwrap();
    let at = q.len() - r.remaining();
    q[at] |= 4;
    let name_len = q[at + 1] as usize;
    q.insert(at + 2 + name_len, 10);
    let e = decode_full(&seal(&q)).unwrap_err();
    assert_eq!(e.code, ErrorCode::BadCode, "{e}");
}

#[test]
fn names_lose_their_format_characters_in_codes() {
    let id = "slide:3x3:1,2,3,4,5,6,7,0,8";
    let ch = Challenge::new(1, 500).unwrap();
    let a = encode_result(id, Extra::default(), ch, &sender("Alice", None)).unwrap();
    // The encoder drops them: "Alice\u{200B}" is the code of "Alice".
    let b = encode_result(id, Extra::default(), ch, &sender("Alice\u{200B}", None)).unwrap();
    assert_eq!(a, b);
    // A code an older build wrote with them (checksum valid) reads without them.
    let mut p = super::payload_of(&a).unwrap();
    let at = p.windows(5).position(|w| w == b"Alice").unwrap();
    let mut named = p[..at - 1].to_vec();
    let zw = "Ali\u{200B}ce\u{202E}";
    named.push(zw.len() as u8);
    named.extend_from_slice(zw.as_bytes());
    named.extend_from_slice(&p[at + 5..]);
    let d = decode_full(&seal(&named)).unwrap();
    assert_eq!(d.name(), Some("Alice"));
    assert_eq!(d.code, a, "its canonical text has the name without them");
    // A name of format characters only is no name; the code without a name is canonical.
    let only = "\u{200B}\u{2066}";
    p = super::payload_of(&a).unwrap();
    let mut blank = p[..at - 1].to_vec();
    blank.push(only.len() as u8);
    blank.extend_from_slice(only.as_bytes());
    blank.extend_from_slice(&p[at + 5..]);
    let d = decode_full(&seal(&blank)).unwrap();
    assert_eq!(d.name(), None);
    assert_eq!(d.code, encode_challenge(id, ch).unwrap());
    // Other bad names are refused as before.
    let mut bad = p[..at - 1].to_vec();
    bad.push(7);
    bad.extend_from_slice(b" Alice ");
    bad.extend_from_slice(&p[at + 5..]);
    assert_eq!(
        decode_full(&seal(&bad)).unwrap_err().code,
        ErrorCode::BadCode
    );
}

#[test]
fn an_assisted_result_says_so_and_older_codes_decode_unchanged() {
    let id = "slide:3x3:1,2,3,4,5,6,7,0,8";
    let ch = Challenge::new(1, 900).unwrap();
    let log = Some(vec![serde_json::json!({"tile": 8})]);
    // A code written without the flag: the same text as before, not assisted.
    let clean = encode_result(id, Extra::default(), ch, &sender("Mei", log.clone())).unwrap();
    let d = decode_full(&clean).unwrap();
    assert_eq!(d.code, clean);
    assert!(!d.sent.as_ref().unwrap().assisted && d.verified());
    let with =
        encode_result_assisted(id, Extra::default(), ch, &sender("Mei", log), None, false).unwrap();
    assert_eq!(with, clean);
    // Assisted: extension bit 3, read back, canonical; with or without a name or a log.
    for s in [
        sender("Mei", Some(vec![serde_json::json!({"tile": 8})])),
        Sender::default(),
    ] {
        let c = encode_result_assisted(id, Extra::default(), ch, &s, None, true).unwrap();
        assert_ne!(c, clean);
        let d = decode_full(&c).unwrap();
        assert_eq!(d.code, c);
        assert!(d.sent.as_ref().unwrap().assisted, "{c}");
    }
}
