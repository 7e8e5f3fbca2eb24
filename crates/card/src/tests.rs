use super::*;
use crate::canvas::Rgb;
use ab_glyph::Font;
use huarong_engine::code::{encode, encode_with, Extra};
use std::path::PathBuf;

fn spec(code: &str, lang: Lang) -> CardSpec {
    CardSpec {
        code: code.to_string(),
        lang,
        moves: 85,
        seconds: 203,
        optimum: Some(81),
        stars: Some(3),
        date: Some((2026, 11, 29)),
        ..CardSpec::default()
    }
}

fn classic_code(name: &str) -> String {
    let i = klotski::classics()
        .iter()
        .position(|c| c.name_zh == name)
        .unwrap();
    let id = klotski::classics()[i].id();
    encode_with(
        &id,
        Extra {
            daily: None,
            classic: Some(i),
        },
    )
    .unwrap()
}

/// The challenge code of `id` as day `day`'s daily challenge.
fn daily_code(id: &str, day: u32) -> String {
    encode_with(
        id,
        Extra {
            daily: Some(day),
            classic: None,
        },
    )
    .unwrap()
}

/// Decodes a PNG into (width, height, RGB bytes).
fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let dec = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// The longest result code (at most 1,200 characters, `code::MAX_CODE_LEN`) of a real solve
/// of `id` by "一二三四五六七八九十一二三四五六" (the longest name) on daily `daily`: the
/// `solution`'s moves after as many back-and-forth pairs (its first move and the move that
/// takes it back) as fit, so its move log reaches the goal in exactly its move count and the
/// code is verified.
fn longest_result_code<G: huarong_engine::game::Game>(
    id: &str,
    solution: &[serde_json::Value],
    daily: Option<u32>,
) -> String {
    use huarong_engine::code::{decode_full, MAX_CODE_LEN};
    let code_of = |pairs: usize| {
        padded_result_code::<G>(
            id,
            solution,
            pairs,
            "一二三四五六七八九十一二三四五六",
            daily,
        )
        .filter(|c| c.len() <= MAX_CODE_LEN)
    };
    // The most pairs that still fit (the length grows with them).
    let (mut lo, mut hi) = (0, 1);
    while code_of(hi).is_some() {
        (lo, hi) = (hi, hi * 2);
    }
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if code_of(mid).is_some() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let code = code_of(lo).unwrap();
    let d = decode_full(&code).unwrap();
    assert!(d.verified() && d.log().is_some(), "{id}: a verified replay");
    assert!(
        code.len() > MAX_CODE_LEN - 20,
        "{id}: {} characters",
        code.len()
    );
    code
}

/// The result code of `solution` after `pairs` back-and-forth pairs, by `name` (`None` when
/// the code would be longer than a code may be).
fn padded_result_code<G: huarong_engine::game::Game>(
    id: &str,
    solution: &[serde_json::Value],
    pairs: usize,
    name: &str,
    daily: Option<u32>,
) -> Option<String> {
    use huarong_engine::code::{encode_result, Challenge, Sender};
    let (_, body) = id.split_once(':').unwrap();
    let start = G::from_id(body, None).unwrap();
    let move_of = |v: &serde_json::Value| serde_json::from_value::<G::Move>(v.clone()).unwrap();
    let first = &solution[0];
    // The move that takes the first one back: whichever candidate restores the board.
    let back = candidates(first)
        .into_iter()
        .find(|c| {
            let mut g = G::from_id(body, None).unwrap();
            g.apply(&move_of(first)).unwrap();
            let Ok(m) = serde_json::from_value::<G::Move>(c.clone()) else {
                return false;
            };
            g.apply(&m).is_ok() && g.board_body() == start.board_body()
        })
        .expect("a move that takes the first one back");
    let mut log = Vec::new();
    for _ in 0..pairs {
        log.push(first.clone());
        log.push(back.clone());
    }
    log.extend(solution.iter().cloned());
    // The count under the game's rule (Klotski counts a piece moved on as one move).
    let mut g = G::from_id(body, None).unwrap();
    for m in &log {
        g.apply(&move_of(m)).unwrap();
    }
    let ch = Challenge::new(g.moves(), 3_599_900).unwrap();
    let sender = Sender {
        name: Some(name.into()),
        log: Some(log),
    };
    encode_result(
        id,
        Extra {
            daily,
            classic: None,
        },
        ch,
        &sender,
    )
    .ok()
}

/// 横刀立马's game ID and the solver's solution of it.
fn hdlm_solution() -> (String, Vec<serde_json::Value>) {
    use huarong_engine::game::{Cancel, Game};
    let id = klotski::classics()
        .iter()
        .find(|c| c.name_zh == "横刀立马")
        .unwrap()
        .id();
    let (_, body) = id.split_once(':').unwrap();
    let solution = klotski::Klotski::from_id(body, None)
        .unwrap()
        .solve(&Cancel::new())
        .unwrap();
    let json = solution
        .iter()
        .map(|m| serde_json::to_value(m).unwrap())
        .collect();
    (id, json)
}

/// The moves that may take `first` back: the number slide's same tile; Klotski's same piece
/// to any cell of the largest board.
fn candidates(first: &serde_json::Value) -> Vec<serde_json::Value> {
    match first.get("piece") {
        Some(p) => (0..8u8)
            .flat_map(|x| (0..8u8).map(move |y| (x, y)))
            .map(|(x, y)| serde_json::json!({"piece": p, "to": [x, y]}))
            .collect(),
        None => vec![first.clone()],
    }
}

/// A 4×4 number slide two moves from solved, and 横刀立马 (as day 333's daily).
fn long_result_codes() -> Vec<String> {
    let slide = longest_result_code::<huarong_engine::slide::Slide>(
        "slide:4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,0,14,15",
        &[
            serde_json::json!({"tile": 14}),
            serde_json::json!({"tile": 15}),
        ],
        None,
    );
    let (hdlm, solution) = hdlm_solution();
    let klotski = longest_result_code::<klotski::Klotski>(&hdlm, &solution, Some(333));
    vec![slide, klotski]
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Every string the card can draw, in its face: the labels, level, picture and piece names,
/// digits and the code alphabet in the sans faces; the pieces' Chinese names (every classic's,
/// as the engine names them, and the unnamed pieces' words) in the serif face.
#[test]
fn font_covers_every_label() {
    let mut texts: Vec<String> = Vec::new();
    for lang in [Lang::Zh, Lang::En] {
        texts.extend(label_texts(lang).iter().map(|s| s.to_string()));
    }
    for c in klotski::classics() {
        texts.push(c.name_zh.to_string());
        texts.push(c.name_en.to_string());
    }
    for p in huarong_engine::slide::pictures::all() {
        texts.push(p.title_zh.to_string());
        texts.push(p.title_en.to_string());
    }
    texts.push("0123456789:.".into());
    texts.push("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".into());
    // The pieces' names: what the engine gives every solvable classic's pieces (a card
    // shows a solved game), and the fall-backs.
    let mut serif: Vec<String> = Vec::new();
    for (i, c) in klotski::classics().iter().enumerate() {
        if c.min_moves.is_none() {
            continue;
        }
        let code = encode_with(
            &klotski::classics()[i].id(),
            Extra {
                daily: None,
                classic: Some(i),
            },
        )
        .unwrap();
        for lang in [Lang::Zh, Lang::En] {
            let board = board_shown(&spec(&code, lang)).unwrap();
            assert!(!board.names.is_empty(), "classic {i} has named pieces");
            for (_, names) in &board.names {
                match lang {
                    Lang::Zh => serif.extend(names.iter().cloned()),
                    Lang::En => texts.extend(names.iter().cloned()),
                }
            }
        }
    }
    for w in games::klotski::piece_words() {
        if w.is_ascii() {
            texts.push(w.to_string());
        } else {
            serif.push(w.to_string());
        }
    }
    assert!(serif.iter().any(|n| n == "关羽") && serif.iter().any(|n| n == "将"));
    let covers = |data: &[u8], texts: &[String]| {
        let font = FontRef::try_from_slice(data).unwrap();
        for t in texts {
            for ch in t.chars() {
                assert_ne!(
                    font.glyph_id(ch).0,
                    0,
                    "the card font lacks {ch:?} (of {t:?}): run assets/make-font.py"
                );
            }
        }
    };
    covers(REGULAR, &texts);
    covers(BOLD, &texts);
    covers(SERIF, &serif);
}

#[test]
fn renders_every_kind_in_both_languages() {
    let codes = [
        classic_code("横刀立马"),
        encode("slide:4x4#7").unwrap(),
        encode("slide:10x10#7").unwrap(),
        encode("slide:3x3/hard#2").unwrap(),
        encode("klotski:10-30#3").unwrap(),
        encode("klotski:#aa#/.CC./.CC./b..c/b..c/#..#").unwrap(),
        daily_code("2048:#9", 42),
    ];
    for code in &codes {
        for lang in [Lang::Zh, Lang::En] {
            let mut s = spec(code, lang);
            if code == &codes[6] {
                s.score = Some(20_480);
                s.best_tile = Some(2048);
            }
            let png = render(&s).unwrap();
            assert!(png.len() <= 250 * 1024, "{code}: {} bytes", png.len());
            let (w, h, _) = decode_png(&png);
            assert_eq!((w as usize, h as usize), (WIDTH, HEIGHT), "{code}");
        }
    }
}

#[test]
fn describes_levels() {
    let c = Card::describe(&spec(&classic_code("横刀立马"), Lang::Zh)).unwrap();
    assert_eq!(c.title, "横刀立马");
    assert_eq!(c.game, "华容道");
    assert_eq!(c.headline, "85 步通关");
    assert_eq!(c.lines[0], ("用时".to_string(), "3:23".to_string()));
    assert_eq!(c.lines[1], ("最优解".to_string(), "81 步".to_string()));
    assert_eq!(c.when, "2026年11月29日");
    let c = Card::describe(&spec(&classic_code("横刀立马"), Lang::En)).unwrap();
    assert_eq!(c.game, "Klotski");
    assert_eq!(c.when, "29 Nov 2026");
    assert_eq!(c.lines[1], ("Optimal".to_string(), "81 moves".to_string()));
    assert_eq!(c.headline, "Solved in 85 moves");
    let c = Card::describe(&spec(&encode("slide:3x3/hard#2").unwrap(), Lang::En)).unwrap();
    assert_eq!((c.title.as_str(), c.subtitle.as_str()), ("3×3", "Hard"));
    // A daily code shows its number and its own date.
    let code = daily_code("2048:#9", 3);
    let c = Card::describe(&spec(&code, Lang::Zh)).unwrap();
    assert_eq!(
        (c.title.as_str(), c.subtitle.as_str()),
        ("每日挑战 第 3 期", "经典模式·4×4")
    );
    assert_eq!(c.when, "2026年1月3日");
    assert_eq!(c.stars, None);
    assert_eq!(clock(3 * 3600 + 5), "3:00:05");
}

/// English units agree with their numbers wherever the card prints one: the big count, the
/// optimum, the score, the result to beat and a beaten challenge.
#[test]
fn units_are_plural_correct() {
    use huarong_engine::code::{encode_challenge, Challenge};
    let id = "slide:2x2:1,2,0,3";
    let one = |moves: u32, optimum: u32, lang: Lang| {
        let mut s = spec(&encode(id).unwrap(), lang);
        s.moves = moves;
        s.optimum = Some(optimum);
        Card::describe(&s).unwrap()
    };
    let c = one(1, 1, Lang::En);
    assert_eq!(c.headline, "Solved in 1 move");
    assert_eq!(c.lines[1].1, "1 move");
    let c = one(2, 1, Lang::En);
    assert_eq!(c.headline, "Solved in 2 moves");
    let c = one(1, 1, Lang::Zh);
    assert_eq!(
        (c.headline.as_str(), c.lines[1].1.as_str()),
        ("1 步通关", "1 步")
    );
    // A challenge of 1 move to beat, and 5 moves beaten with 1.
    let code = encode_challenge(id, Challenge::new(1, 5_000).unwrap()).unwrap();
    let mut s = spec(&code, Lang::En);
    s.moves = 3;
    let c = Card::describe(&s).unwrap();
    assert_eq!(c.lines.last().unwrap().1, "1 move · 0:05.0");
    s.moves = 1;
    s.beat = Some(Challenge::new(5, 9_000).unwrap());
    assert_eq!(
        Card::describe(&s).unwrap().beaten.as_deref(),
        Some("Beat 5 moves with 1 move")
    );
    s.lang = Lang::Zh;
    assert_eq!(
        Card::describe(&s).unwrap().beaten.as_deref(),
        Some("以 1 步击败 5 步")
    );
    // 2048: points, and the friends beaten.
    let mut s = spec(&encode("2048:#9").unwrap(), Lang::En);
    s.score = Some(0);
    assert_eq!(Card::describe(&s).unwrap().headline, "0 points");
    s.score = Some(1);
    assert_eq!(Card::describe(&s).unwrap().headline, "1 point");
    s.friends_beaten = Some(1);
    assert_eq!(
        Card::describe(&s).unwrap().rank.as_deref(),
        Some("Beat 1 friend")
    );
    s.friends_beaten = Some(2);
    assert_eq!(
        Card::describe(&s).unwrap().rank.as_deref(),
        Some("Beat 2 friends")
    );
}

#[test]
fn bad_specs_are_errors() {
    assert_eq!(
        render(&spec("1garbage", Lang::Zh)).unwrap_err().code,
        ErrorCode::BadCode
    );
    let mut s = spec(&encode("slide:4x4#7").unwrap(), Lang::Zh);
    s.stars = Some(4);
    assert!(render(&s).is_err());
    s.stars = None;
    s.date = Some((2026, 13, 1));
    assert!(render(&s).is_err());
    assert!(Lang::parse("fr").is_err());
}

/// 横刀立马 as a player leaves it: Cao Cao at the exit.
const HDLM_END: &str = "acbe/acbe/stdd/.CCu/.CCv";

/// A picture of `side`×`side` pixels that reads as one (sky, sun, hills), and changes
/// everywhere: each cell of a grid shows another part of it.
fn scene_png(side: u32) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, side, side);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().unwrap();
        let mut data = Vec::with_capacity((side * side * 3) as usize);
        let f = side as f32;
        for y in 0..side {
            for x in 0..side {
                let (u, v) = (x as f32 / f, y as f32 / f);
                let hill = 0.62 + 0.08 * (u * 7.0).sin() + 0.05 * (u * 13.0 + 1.0).cos();
                let sun = ((u - 0.7).powi(2) + (v - 0.28).powi(2)).sqrt() < 0.11;
                let c = if sun {
                    [250, 214, 120]
                } else if v > hill + 0.12 {
                    [52, 96, 70]
                } else if v > hill {
                    [86, 140, 92]
                } else {
                    let t = v / hill;
                    [
                        (238.0 - 120.0 * t) as u8,
                        (170.0 - 40.0 * t) as u8,
                        (120.0 + 90.0 * t) as u8,
                    ]
                };
                data.extend(c);
            }
        }
        w.write_image_data(&data).unwrap();
    }
    out
}

/// The player's result as a result code (with the name, without a move log) of `id`.
fn result_code(id: &str, daily: Option<u32>, moves: u32, ms: u64, name: &str) -> String {
    use huarong_engine::code::{encode_result, Challenge, Sender};
    encode_result(
        id,
        Extra {
            daily,
            classic: None,
        },
        Challenge::new(moves, ms).unwrap(),
        &Sender {
            name: Some(name.into()),
            log: None,
        },
    )
    .unwrap()
}

/// Each spec in both languages (`zh_name`, `en_name` as the player's name) and both themes,
/// named `<name>-<lang>-<theme>.png`.
fn four(v: &mut Vec<(String, CardSpec)>, name: &str, s: &CardSpec, names: [Option<&str>; 2]) {
    for (lang, tag, who) in [(Lang::Zh, "zh", names[0]), (Lang::En, "en", names[1])] {
        for (theme, t) in [(Theme::Light, "light"), (Theme::Dark, "dark")] {
            let mut s = s.clone();
            s.lang = lang;
            s.theme = theme;
            s.name = who.map(str::to_string);
            v.push((format!("{name}-{tag}-{t}.png"), s));
        }
    }
}

/// The reference cards: every kind of card in both languages and both themes, all with exact
/// boards so that they do not depend on the generators or the solver; and the long cards.
fn golden_specs() -> Vec<(String, CardSpec)> {
    use huarong_engine::code::{encode_challenge, Challenge};
    let mut v = Vec::new();
    // A daily 5×5 among friends: the player's own result code, two friends beaten.
    let id = "slide:5x5:6,1,2,3,5,11,7,8,4,10,16,12,13,9,15,0,17,18,14,20,21,22,23,19,24";
    let mut s = spec(&result_code(id, Some(333), 21, 48_370, "Ann"), Lang::Zh);
    s.moves = 21;
    s.ms = Some(48_370);
    s.seconds = 48;
    s.optimum = Some(21);
    s.stars = Some(3);
    s.friends_beaten = Some(2);
    four(&mut v, "slide-daily", &s, [Some("小明"), Some("Ann")]);
    // 横刀立马, two stars.
    let mut s = spec(&classic_code("横刀立马"), Lang::Zh);
    s.board = Some(HDLM_END.into());
    s.seconds = 203;
    s.ms = Some(203_460);
    s.stars = Some(2);
    four(&mut v, "klotski", &s, [Some("阿兰"), Some("Bo")]);
    // A daily 2048 among friends: its final grid.
    let g2048 = daily_code("2048:0,0,2,0,0,0,0,0,0,0,0,0,2,0,0,0", 333);
    let mut s = spec(&g2048, Lang::Zh);
    s.score = Some(36_112);
    s.best_tile = Some(2048);
    s.moves = 1523;
    s.seconds = 1520;
    s.ms = Some(1_520_790);
    s.optimum = None;
    s.stars = None;
    s.friends_beaten = Some(3);
    s.board = Some("2,4,8,2,16,32,64,4,4,128,512,8,2,1024,2048,16".into());
    four(&mut v, "2048", &s, [Some("小红"), Some("Ann")]);
    // A picture puzzle, no name.
    let mut s = spec(
        &encode("slide:3x3/picture:lotus:4,1,3,7,2,6,5,8,0").unwrap(),
        Lang::Zh,
    );
    s.picture = Some(scene_png(240));
    s.board = Some("3x3:1,2,3,4,5,6,7,8,0".into());
    s.moves = 12;
    s.seconds = 31;
    s.ms = Some(31_950);
    s.optimum = Some(12);
    four(&mut v, "picture", &s, [None, None]);
    // A friend's challenge beaten (the card carries the player's result to beat).
    let code = encode_challenge(
        "slide:4x4:1,13,12,5,4,8,14,10,15,11,9,7,2,3,6,0",
        Challenge::new(58, 95_000).unwrap(),
    )
    .unwrap();
    let mut s = spec(&code, Lang::Zh);
    s.moves = 52;
    s.seconds = 80;
    s.ms = Some(80_420);
    s.optimum = Some(48);
    s.stars = Some(2);
    s.beat = Some(Challenge::new(58, 95_000).unwrap());
    four(&mut v, "challenge", &s, [Some("小红"), Some("Bo")]);
    // A result code with its move log, 1,200 characters: the long card.
    let codes = long_result_codes();
    let long = |code: &str, lang: Lang, theme: Theme, board: &str| {
        let mut s = spec(code, lang);
        s.theme = theme;
        s.board = Some(board.into());
        let c = huarong_engine::code::decode_full(code)
            .unwrap()
            .challenge
            .unwrap();
        s.moves = c.moves;
        s.ms = Some(c.ms);
        s.seconds = c.ms / 1000;
        s.stars = Some(1);
        s.name = Some("一二三四五六七八九十一二三四五六".into());
        s
    };
    // 横刀立马 in its optimum: three stars, as the finish would give.
    let mut s = long(&codes[1], Lang::Zh, Theme::Light, HDLM_END);
    s.stars = Some(3);
    v.push(("long-klotski-zh-light.png".into(), s));
    let mut s = long(
        &codes[0],
        Lang::En,
        Theme::Dark,
        "4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0",
    );
    s.optimum = Some(2);
    s.name = Some("Ann".into());
    v.push(("long-slide-en-dark.png".into(), s));
    v
}

/// Compares a rendering with its committed reference, tolerating anti-aliasing
/// differences: a pixel differs when a channel is off by more than 64, and at most 0.05 %
/// of pixels (400) may differ. `UPDATE_GOLDEN=1` rewrites the references (look at them first).
fn check_golden(name: &str, s: &CardSpec, may_update: bool) {
    let png = render(s).unwrap();
    let path = golden_dir().join(name);
    if may_update && std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(golden_dir()).unwrap();
        std::fs::write(&path, &png).unwrap();
    }
    let reference = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (w, h, want) = decode_png(&reference);
    let (w2, h2, got) = decode_png(&png);
    assert_eq!((w, h), (w2, h2));
    let differing = want
        .chunks(3)
        .zip(got.chunks(3))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 64))
        .count();
    let allowed = (w * h) as usize / 2000;
    assert!(
        differing <= allowed,
        "{name}: {differing} pixels differ (at most {allowed} may)"
    );
}

#[test]
fn golden_images() {
    let specs = golden_specs();
    for (name, s) in &specs {
        check_golden(name, s, true);
    }
    // Every reference in the folder is one of them (none left over from older cards).
    let mut files: Vec<String> = std::fs::read_dir(golden_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut names: Vec<String> = specs.iter().map(|(n, _)| n.clone()).collect();
    names.sort();
    assert_eq!(files, names);
}

#[test]
fn golden_comparison_detects_a_changed_card() {
    // The tolerance must not hide a real change: one digit of the move count differs, or
    // the name does.
    let (name, s) = golden_specs().remove(0);
    let name = name.as_str();
    let mut moved = s.clone();
    moved.moves = 22;
    let mut other = s;
    other.name = None;
    for changed in [moved, other] {
        let result = std::panic::catch_unwind(|| check_golden(name, &changed, false));
        assert!(result.is_err() || std::env::var_os("UPDATE_GOLDEN").is_some());
    }
}

/// The bounding box of the pixels of colour `c` inside the rectangle `area` (x0, y0, x1, y1)
/// of a card `w` pixels wide.
fn bbox(
    px: &[u8],
    w: usize,
    area: (usize, usize, usize, usize),
    c: Rgb,
) -> Option<(usize, usize, usize, usize)> {
    let mut b: Option<(usize, usize, usize, usize)> = None;
    for y in area.1..area.3 {
        for x in area.0..area.2 {
            let i = (y * w + x) * 3;
            if (px[i], px[i + 1], px[i + 2]) == (c.0, c.1, c.2) {
                b = Some(match b {
                    None => (x, y, x, y),
                    Some((a, bb, cc, d)) => (a.min(x), bb.min(y), cc.max(x), d.max(y)),
                });
            }
        }
    }
    b
}

/// The QR code's white tile: on a corner card in the bottom-right corner, 44 px from both
/// edges (as the board is from the left one), 244 to 300 px as the facts leave room, the
/// call to play in the accent colour right above it and ending with it; on a long card
/// 540 px, centred in a band of its own with only paper (and a hairline) between it and the
/// card's upper part.
#[test]
fn the_qr_code_sits_in_its_corner_with_the_call_to_play_above() {
    for (name, s) in golden_specs() {
        let card = Card::describe(&s).unwrap();
        let r = card.draw_traced().unwrap();
        let (w, h, px) = decode_png(&r.png);
        let (w, h) = (w as usize, h as usize);
        assert_eq!(h, card.layout.height(), "{name}");
        assert_eq!(
            card.layout == Layout::Long,
            name.starts_with("long-"),
            "{name}: its layout"
        );
        let (qx, qy, qs) = r.qr_box;
        let (qx, qy, qs) = (qx as usize, qy as usize, qs as usize);
        let (x0, y0, x1, y1) =
            bbox(&px, w, (qx, qy, qx + qs, qy + qs), Rgb::hex(0xffffff)).unwrap();
        assert_eq!(
            (x0, y0, x1 + 1 - x0, y1 + 1 - y0),
            (qx, qy, qs, qs),
            "{name}"
        );
        // The puzzle is what a friend reads first: the QR code is smaller than the board.
        let f = card.board_frame();
        assert!(
            (qs as f32) < f.w.max(f.h),
            "{name}: a {qs} px QR code beside a {}×{} board",
            f.w,
            f.h
        );
        let p = draw::palette(s.theme);
        match card.layout {
            Layout::Corner => {
                assert_eq!((w - 1 - x1, h - 1 - y1), (44, 44), "{name}: margins");
                assert!((244..=300).contains(&qs), "{name}: {qs} px");
                assert_eq!(card.board_frame().x, 44.0, "{name}");
                // The call to play: the accent's pixels just above the tile, ending with it.
                let (_, _, cx1, cy1) = bbox(&px, w, (x0 - 200, y0 - 60, WIDTH, y0), p.accent)
                    .unwrap_or_else(|| panic!("{name}: no call to play above the QR code"));
                assert!(
                    WIDTH - 44 - cx1 <= 3,
                    "{name}: the call to play ends at {cx1}"
                );
                assert!(
                    y0 - cy1 >= 12 && y0 - cy1 <= 30,
                    "{name}: {} px above",
                    y0 - cy1
                );
            }
            Layout::Long => {
                assert_eq!(qs, draw::LONG_QR_SIZE as usize, "{name}");
                assert_eq!((WIDTH - 1 - x1, h - 1 - y1), (44, 44), "{name}");
                // Only paper between the upper part and the band, but for the hairline.
                let hairline = y0 - 22;
                let upper = draw::LONG_BOTTOM as usize + 8;
                for y in (upper..y0).filter(|&y| y != hairline && y != hairline + 1) {
                    for x in 0..WIDTH {
                        let i = (y * WIDTH + x) * 3;
                        assert_eq!(
                            Rgb(px[i], px[i + 1], px[i + 2]),
                            p.paper,
                            "{name}: ink at ({x}, {y}) above the band"
                        );
                    }
                }
            }
        }
    }
}

/// The Klotski pieces on the card wear the game board's colours (ui/css/base.css: each
/// theme's `--piece-*`, `--frame`, `--floor`, `--accent` for the exit), one colour per piece
/// whatever its orientation: every general is `--piece-g`, standing or lying.
#[test]
fn klotski_pieces_wear_the_game_boards_colours() {
    use crate::games::klotski::{colours, wood, Shape};
    let css = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../ui/css/base.css"),
    )
    .unwrap();
    let dark_at = css.find(":root[data-theme=\"dark\"]").unwrap();
    let var = |block: &str, name: &str| -> Rgb {
        let key = format!("--{name}: #");
        let at = block
            .find(&key)
            .unwrap_or_else(|| panic!("no {key} in base.css"))
            + key.len();
        Rgb::hex(u32::from_str_radix(&block[at..at + 6], 16).unwrap())
    };
    for (theme, block) in [
        (Theme::Light, &css[..dark_at]),
        (Theme::Dark, &css[dark_at..]),
    ] {
        for (shape, v) in [
            (Shape::Cao, "piece-c"),
            (Shape::Tall, "piece-g"),
            (Shape::Wide, "piece-g"),
            (Shape::Soldier, "piece-s"),
            (Shape::Block, "piece-b"),
        ] {
            let text = format!("{v}-text");
            assert_eq!(
                colours(shape, theme),
                (var(block, v), var(block, &text)),
                "{theme:?} {shape:?}"
            );
        }
        let [frame, floor, _, exit] = wood(theme);
        assert_eq!(
            (frame, floor, exit),
            (
                var(block, "frame"),
                var(block, "floor"),
                var(block, "accent")
            ),
            "{theme:?}"
        );
    }
}

/// The longest result code of 横刀立马 (its solution after back-and-forth pairs, with the
/// longest Latin name) whose card is still a corner card.
fn longest_corner_result_code() -> String {
    let (id, solution) = hdlm_solution();
    let mut best = String::new();
    for pairs in 0..200 {
        let code = padded_result_code::<klotski::Klotski>(
            &id,
            &solution,
            pairs,
            "WWWWWWWWWWWWWWWW",
            Some(999_999),
        )
        .unwrap();
        if Layout::of(&code::link(&code)).unwrap() != Layout::Corner {
            break;
        }
        best = code;
    }
    best
}

/// A code with the sender's result: the card says whether this result beat it, or shows
/// the score to beat.
#[test]
fn a_challenge_is_beaten_or_shown_to_beat() {
    use huarong_engine::code::{encode_challenge, Challenge};
    let id = "klotski:aCCb/aCCb/cdde/cste/u..v";
    let code = encode_challenge(id, Challenge::new(85, 203_400).unwrap()).unwrap();
    let line = |card: &Card, label: &str| {
        card.lines
            .iter()
            .find(|(l, _)| l == label)
            .map(|(_, v)| v.clone())
    };
    let mut s = spec(&code, Lang::En);
    s.moves = 83;
    let en = Card::describe(&s).unwrap();
    assert_eq!(en.beaten.as_deref(), Some("Beat 85 moves with 83 moves"));
    // One voice: the beaten challenge is the headline, with the player's name when known.
    assert_eq!(Some(en.headline.clone()), en.beaten);
    let mut named = s.clone();
    named.name = Some("Ann".into());
    assert_eq!(
        Card::describe(&named).unwrap().headline,
        "Ann beat 85 moves with 83"
    );
    named.lang = Lang::Zh;
    assert_eq!(
        Card::describe(&named).unwrap().headline,
        "Ann · 以 83 步击败 85 步"
    );
    assert_eq!(line(&en, "To beat"), None);
    s.lang = Lang::Zh;
    let zh = Card::describe(&s).unwrap();
    assert_eq!(zh.beaten.as_deref(), Some("以 83 步击败 85 步"));
    // Not beaten (more moves; or as many moves, not faster): the score to beat.
    for (moves, seconds) in [(90, 100), (85, 204)] {
        let mut s = spec(&code, Lang::En);
        s.moves = moves;
        s.seconds = seconds;
        let en = Card::describe(&s).unwrap();
        assert_eq!(en.beaten, None);
        assert_eq!(line(&en, "To beat").as_deref(), Some("85 moves · 3:23.4"));
        s.lang = Lang::Zh;
        let zh = Card::describe(&s).unwrap();
        assert_eq!(line(&zh, "待超越").as_deref(), Some("85 步 · 3:23.4"));
    }
    // As many moves, faster: beaten.
    let mut s = spec(&code, Lang::En);
    s.seconds = 100;
    assert!(Card::describe(&s).unwrap().beaten.is_some());
    // The player's own result in their own code (203.4 s shown as 203, or exactly): never
    // "Beat 85 moves with 85 moves", nor a line to beat saying the headline again.
    let mut s = spec(&code, Lang::En);
    s.seconds = 203;
    assert_eq!(Card::describe(&s).unwrap().beaten, None);
    assert_eq!(line(&Card::describe(&s).unwrap(), "To beat"), None);
    s.ms = Some(203_400);
    assert_eq!(Card::describe(&s).unwrap().beaten, None);
    assert_eq!(line(&Card::describe(&s).unwrap(), "To beat"), None);
    // With the exact time, a tenth faster beats it; a millisecond slower does not.
    s.ms = Some(203_300);
    assert!(Card::describe(&s).unwrap().beaten.is_some());
    s.ms = Some(203_401);
    assert_eq!(
        line(&Card::describe(&s).unwrap(), "To beat").as_deref(),
        Some("85 moves · 3:23.4")
    );
    s.ms = None;
    // A friend's challenge beaten, shared with the player's own code.
    s.beat = Some(Challenge::new(90, 300_000).unwrap());
    let card = Card::describe(&s).unwrap();
    assert_eq!(card.beaten.as_deref(), Some("Beat 90 moves with 85 moves"));
    assert_eq!(line(&card, "To beat"), None);
    s.beat = Some(Challenge::new(80, 300_000).unwrap());
    assert_eq!(Card::describe(&s).unwrap_err().code, ErrorCode::OutOfRange);
    // A code without a challenge has neither.
    let plain = Card::describe(&spec(&encode(id).unwrap(), Lang::En)).unwrap();
    assert_eq!((plain.lines.len(), plain.beaten.clone()), (2, None));
    assert_eq!(clock_tenths(203_499), "3:23.4");
    assert_eq!(clock_tenths(3_723_050), "1:02:03.0");
}

/// A PNG of `side`×`side` pixels whose 3×3 cells are each one colour (`cell_colour`).
fn cells_png(side: u32, color: png::ColorType) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, side, side);
        enc.set_color(color);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().unwrap();
        let mut data = Vec::new();
        for y in 0..side {
            for x in 0..side {
                let home = (y * 3 / side) * 3 + x * 3 / side;
                let c = cell_colour(home as usize);
                match color {
                    png::ColorType::Rgb => data.extend([c.0, c.1, c.2]),
                    _ => data.extend([c.0, c.1, c.2, 255]),
                }
            }
        }
        w.write_image_data(&data).unwrap();
    }
    out
}

fn cell_colour(home: usize) -> Rgb {
    Rgb(
        (home * 28) as u8,
        200 - (home * 20) as u8,
        ((home * 97) % 256) as u8,
    )
}

/// A picture puzzle's card shows the whole picture: each cell of the solved board, the
/// blank's corner too, shows its part of it (sampled at the cell's centre); bad pictures are
/// typed errors.
#[test]
fn a_picture_puzzle_card_shows_the_whole_picture() {
    let id = "slide:3x3/picture:lotus:4,1,3,7,2,6,5,8,0";
    let code = encode(id).unwrap();
    for color in [png::ColorType::Rgb, png::ColorType::Rgba] {
        let mut s = spec(&code, Lang::En);
        s.picture = Some(cells_png(96, color));
        let card = Card::describe(&s).unwrap();
        let (w, _, px) = decode_png(&render(&s).unwrap());
        let f = card.board_frame();
        for i in 0..9 {
            let cx = (f.x + f.pad + (i % 3) as f32 * f.cell + f.cell / 2.0) as usize;
            let cy = (f.y + f.pad + (i / 3) as f32 * f.cell + f.cell / 2.0) as usize;
            let at = (cy * w as usize + cx) * 3;
            let got = Rgb(px[at], px[at + 1], px[at + 2]);
            assert_eq!(got, cell_colour(i), "cell {i}");
        }
    }
    // Not a picture puzzle, not a PNG, too many pixels, too many bytes: typed errors.
    let mut s = spec(&encode("slide:3x3:4,1,3,7,2,6,5,8,0").unwrap(), Lang::En);
    s.picture = Some(cells_png(30, png::ColorType::Rgb));
    assert_eq!(render(&s).unwrap_err().code, ErrorCode::Parse);
    for bad in [
        b"GIF89a not a png".to_vec(),
        cells_png(30, png::ColorType::Rgb)[..40].to_vec(),
        cells_png(MAX_PICTURE_SIDE + 3, png::ColorType::Rgb),
        vec![0x89; MAX_PICTURE_PNG + 1],
    ] {
        let mut s = spec(&code, Lang::Zh);
        s.picture = Some(bad);
        assert_eq!(render(&s).unwrap_err().code, ErrorCode::Parse);
    }
}

/// A picture puzzle's card names its picture, not "custom layout"; a picture this version
/// does not know (a later version's code) is a picture puzzle all the same.
#[test]
fn a_picture_puzzle_card_names_its_picture() {
    let code = encode("slide:3x3/picture:lotus:4,1,3,7,2,6,5,8,0").unwrap();
    for (lang, want) in [(Lang::Zh, "荷塘"), (Lang::En, "Lotus pond")] {
        let card = Card::describe(&spec(&code, lang)).unwrap();
        assert_eq!((card.title.as_str(), card.subtitle.as_str()), ("3×3", want));
    }
    let plain = encode("slide:3x3:4,1,3,7,2,6,5,8,0").unwrap();
    let card = Card::describe(&spec(&plain, Lang::En)).unwrap();
    assert_eq!(card.subtitle, "Custom layout");
}

/// The longest link (the longest written code after `code::LINK_BASE`) is QR version 9 at
/// error correction M, drawn with 3 px modules in the card's QR box: the size scanners read
/// from a phone screen or a photo of it. A longer base would push it to version 10 or to L.
/// A result code with its move log is longer: its card is the long one (see below).
#[test]
fn the_longest_link_is_qr_version_9_at_m() {
    use qrcode::{EcLevel, QrCode, Version};
    let longest = huarong_engine::code::encode_full(
        &format!("slide:10x10#{}", u64::MAX),
        Extra {
            daily: Some(huarong_engine::code::MAX_DAILY),
            classic: None,
        },
        Some(huarong_engine::code::Challenge::new(9_999_999, 999 * 3600 * 1000).unwrap()),
    )
    .unwrap();
    let link = code::link(&longest);
    assert_eq!((longest.len(), link.len()), (144, 167), "{link}");
    let qr = QrCode::with_error_correction_level(link.as_bytes(), EcLevel::M).unwrap();
    assert_eq!(qr.version(), Version::Normal(9));
    assert!(draw::QR_SIZE as usize / (qr.width() + 8) >= 4);
    assert_eq!(Layout::of(&link).unwrap(), Layout::Corner);
    // The longest code of all (1,200 characters, a result with its move log) is
    // version 25 or 26 at L (the encoder's segments), 4 px a module in the long card's box;
    // M would need version 30 or more at 3 px.
    for code in long_result_codes() {
        let link = code::link(&code);
        let qr = qr::plan(&link, draw::LONG_QR_SIZE).unwrap();
        assert_eq!(qr.error_correction_level(), EcLevel::L);
        assert!(
            [Version::Normal(25), Version::Normal(26)].contains(&qr.version()),
            "{} characters: {:?}",
            code.len(),
            qr.version()
        );
        assert_eq!(draw::LONG_QR_SIZE as usize / (qr.width() + 8), 4);
        assert!(qr::plan(&link, draw::QR_SIZE).is_none());
        assert_eq!(Layout::of(&link).unwrap(), Layout::Long);
    }
    // Longer than any code: no card.
    assert!(Layout::of(&format!("{}{}", code::LINK_BASE, "x".repeat(3000))).is_err());
}

/// A puzzle with the player's own photo is shared with a plain slide code
/// (the photo never travels in a code), and its card shows the photo the page sends.
#[test]
fn the_players_own_photo_goes_on_the_card() {
    let id = "slide:3x3/picture:custom:1,2,3,4,5,6,7,0,8";
    let code = encode(id).unwrap();
    let decoded = huarong_engine::code::decode_full(&code).unwrap();
    assert!(
        !decoded.id.contains("picture"),
        "the code carries no photo: {}",
        decoded.id
    );
    let mut s = spec(&code, Lang::En);
    s.optimum = None;
    s.stars = None;
    s.picture = Some(scene_png(240));
    assert!(
        render(&s).is_err(),
        "a plain number slide's card takes no picture"
    );
    s.own_photo = true;
    let with_photo = render(&s).expect("a card with the player's photo");
    s.picture = None;
    let without = render(&s).unwrap();
    assert_ne!(with_photo, without, "the photo is drawn");
    // Still refused where no picture puzzle can be: a non-square slide, Klotski.
    let mut s = spec(
        &encode("slide:3x4:1,2,3,4,5,6,7,8,9,10,0,11").unwrap(),
        Lang::En,
    );
    s.optimum = None;
    s.stars = None;
    s.picture = Some(scene_png(240));
    s.own_photo = true;
    assert!(render(&s).is_err());
    let mut s = spec(&classic_code("横刀立马"), Lang::Zh);
    s.picture = Some(scene_png(240));
    s.own_photo = true;
    assert!(render(&s).is_err());
}

mod fonts;
mod half;
mod texts;
