use super::*;
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
        score: None,
        best_tile: None,
        date: Some((2026, 11, 29)),
        picture: None,
        beat: None,
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

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

#[test]
fn font_covers_every_label() {
    for data in [REGULAR, BOLD] {
        let font = FontRef::try_from_slice(data).unwrap();
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
        texts.push("0123456789:".into());
        texts.push("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".into());
        for t in &texts {
            for ch in t.chars() {
                assert_ne!(
                    font.glyph_id(ch).0,
                    0,
                    "the card font lacks {ch:?} (of {t:?}): run assets/make-font.py"
                );
            }
        }
    }
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
            assert_eq!((w as usize, h as usize), (WIDTH, HEIGHT));
        }
    }
}

#[test]
fn describes_levels() {
    let c = Card::describe(&spec(&classic_code("横刀立马"), Lang::Zh)).unwrap();
    assert_eq!(c.title, "横刀立马");
    assert_eq!(c.game, "华容道");
    assert_eq!(c.big, "85");
    assert_eq!(c.lines[0], ("最优解".to_string(), "81 步".to_string()));
    assert_eq!(c.lines[1], ("用时".to_string(), "3:23".to_string()));
    assert_eq!(c.when, "2026年11月29日");
    let c = Card::describe(&spec(&classic_code("横刀立马"), Lang::En)).unwrap();
    assert_eq!(c.game, "Klotski");
    assert_eq!(c.when, "29 Nov 2026");
    let c = Card::describe(&spec(&encode("slide:3x3/hard#2").unwrap(), Lang::En)).unwrap();
    assert_eq!((c.title.as_str(), c.subtitle.as_str()), ("3×3", "Hard"));
    // A daily code shows its number and its own date.
    let code = daily_code("2048:#9", 3);
    let c = Card::describe(&spec(&code, Lang::Zh)).unwrap();
    assert!(c.subtitle.starts_with("每日挑战 第 3 期"), "{}", c.subtitle);
    assert_eq!(c.when, "2026年1月3日");
    assert_eq!(c.stars, None);
    assert_eq!(clock(3 * 3600 + 5), "3:00:05");
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

/// Compares a rendering with its committed reference, tolerating anti-aliasing
/// differences: a pixel differs when a channel is off by more than 64, and at most 0.05 %
/// of pixels (400) may differ. `UPDATE_GOLDEN=1` rewrites the references (look at them first).
fn check_golden(name: &str, s: &CardSpec) {
    let png = render(s).unwrap();
    let path = golden_dir().join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
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
    check_golden("klotski-zh.png", &spec(&classic_code("横刀立马"), Lang::Zh));
    // Exact boards, so the references do not depend on the generators.
    let slide = encode("slide:4x4:1,13,12,5,4,8,14,10,15,11,9,7,2,3,6,0").unwrap();
    let mut s = spec(&slide, Lang::En);
    s.optimum = None;
    s.stars = None;
    s.moves = 64;
    check_golden("slide-en.png", &s);
    let g2048 = daily_code("2048:0,0,2,0,0,0,0,0,0,0,0,0,2,0,0,0", 333);
    let mut s = spec(&g2048, Lang::Zh);
    s.score = Some(36_112);
    s.best_tile = Some(2048);
    s.moves = 1523;
    s.seconds = 1520;
    check_golden("2048-zh.png", &s);
}

#[test]
fn golden_comparison_detects_a_changed_card() {
    // The tolerance must not hide a real change: one digit of the move count differs.
    let mut s = spec(&classic_code("横刀立马"), Lang::Zh);
    s.moves = 86;
    let result = std::panic::catch_unwind(|| check_golden("klotski-zh.png", &s));
    assert!(result.is_err() || std::env::var_os("UPDATE_GOLDEN").is_some());
}

/// The QR code on the card decodes (with zbarimg, Debian `zbar-tools`) to the exact link.
/// Without zbarimg the test is skipped locally but fails in CI (`CI` set).
#[test]
fn qr_code_decodes_to_the_link() {
    let zbar = std::process::Command::new("zbarimg")
        .arg("--version")
        .output();
    if zbar.is_err() {
        assert!(
            std::env::var_os("CI").is_none(),
            "zbarimg is missing in CI: install zbar-tools"
        );
        eprintln!("skipping: zbarimg not installed (apt-get install zbar-tools)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("huarong-card-qr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let codes = [
        classic_code("横刀立马"),
        encode("slide:4x4#7").unwrap(),
        daily_code(&format!("slide:10x10#{}", u64::MAX), 999_999),
        daily_code("2048:#9", 42),
    ];
    for (i, code) in codes.iter().enumerate() {
        let mut s = spec(code, if i % 2 == 0 { Lang::Zh } else { Lang::En });
        s.score = Some(1000);
        let path = dir.join(format!("card{i}.png"));
        std::fs::write(&path, render(&s).unwrap()).unwrap();
        let out = std::process::Command::new("zbarimg")
            .args(["--raw", "-q"])
            .arg(&path)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(text.trim_end(), code::link(code), "QR of card {i}");
    }
    std::fs::remove_dir_all(&dir).ok();
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
    assert_eq!(line(&en, "Challenge").as_deref(), Some("I beat 85 with 83"));
    assert_eq!(line(&en, "To beat"), None);
    s.lang = Lang::Zh;
    let zh = Card::describe(&s).unwrap();
    assert_eq!(line(&zh, "擂台").as_deref(), Some("以 83 步击败 85 步"));
    // Not beaten (more moves; or as many moves, not faster): the score to beat.
    for (moves, seconds) in [(90, 100), (85, 204)] {
        let mut s = spec(&code, Lang::En);
        s.moves = moves;
        s.seconds = seconds;
        let en = Card::describe(&s).unwrap();
        assert_eq!(line(&en, "Challenge"), None);
        assert_eq!(line(&en, "To beat").as_deref(), Some("85 moves · 3:23.4"));
        s.lang = Lang::Zh;
        let zh = Card::describe(&s).unwrap();
        assert_eq!(line(&zh, "待超越").as_deref(), Some("85 步 · 3:23.4"));
    }
    // As many moves, faster: beaten.
    let mut s = spec(&code, Lang::En);
    s.seconds = 100;
    assert!(line(&Card::describe(&s).unwrap(), "Challenge").is_some());
    // The player's own result in their own code (203.4 s shown as 203): still to beat.
    let mut s = spec(&code, Lang::En);
    s.seconds = 203;
    assert_eq!(line(&Card::describe(&s).unwrap(), "Challenge"), None);
    assert_eq!(
        line(&Card::describe(&s).unwrap(), "To beat").as_deref(),
        Some("85 moves · 3:23.4")
    );
    // A friend's challenge beaten, shared with the player's own code: "I beat 90 with 85".
    s.beat = Some(Challenge::new(90, 300_000).unwrap());
    let card = Card::describe(&s).unwrap();
    assert_eq!(
        line(&card, "Challenge").as_deref(),
        Some("I beat 90 with 85")
    );
    assert_eq!(line(&card, "To beat"), None);
    s.beat = Some(Challenge::new(80, 300_000).unwrap());
    assert_eq!(Card::describe(&s).unwrap_err().code, ErrorCode::OutOfRange);
    // A code without a challenge has neither line.
    let plain = Card::describe(&spec(&encode(id).unwrap(), Lang::En)).unwrap();
    assert_eq!(plain.lines.len(), 2);
    // Both render, and the card's code is the challenge code.
    for lang in [Lang::Zh, Lang::En] {
        let mut s = spec(&code, lang);
        s.moves = 83;
        let png = render(&s).unwrap();
        let (w, h, _) = decode_png(&png);
        assert_eq!((w, h), (WIDTH as u32, HEIGHT as u32));
        if let Ok(dir) = std::env::var("HUARONG_CARD_DIR") {
            let name = format!("challenge-{lang:?}.png");
            std::fs::write(PathBuf::from(dir).join(name), &png).unwrap();
        }
    }
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

/// A picture puzzle's card: every tile of the start board shows its home cell of the picture
/// (sampled at the tile's centre), the blank shows the frame; bad pictures are typed errors.
#[test]
fn a_picture_puzzle_card_shows_the_picture_on_its_tiles() {
    let id = "slide:3x3/picture:lotus:4,1,3,7,2,6,5,8,0";
    let code = encode(id).unwrap();
    for color in [png::ColorType::Rgb, png::ColorType::Rgba] {
        let mut s = spec(&code, Lang::En);
        s.picture = Some(cells_png(96, color));
        let card = Card::describe(&s).unwrap();
        let (w, _, px) = decode_png(&render(&s).unwrap());
        let f = card.thumb.frame(50.0, 176.0, 420.0);
        for (i, &n) in card.thumb.cells.iter().enumerate() {
            let cx = (f.x + f.pad + (i % 3) as f32 * f.cell + f.cell / 2.0) as usize;
            let cy = (f.y + f.pad + (i / 3) as f32 * f.cell + f.cell / 2.0) as usize;
            let at = (cy * w as usize + cx) * 3;
            let got = Rgb(px[at], px[at + 1], px[at + 2]);
            let want = if n == 0 {
                Rgb::hex(0x8a5a35)
            } else {
                cell_colour(n as usize - 1)
            };
            assert_eq!(got, want, "cell {i} (tile {n})");
        }
        if let Ok(dir) = std::env::var("HUARONG_CARD_DIR") {
            std::fs::write(PathBuf::from(dir).join("picture.png"), render(&s).unwrap()).unwrap();
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
