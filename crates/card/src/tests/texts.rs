//! What the card says, read on the rendered text path (`render_traced`: the text
//! runs actually drawn): the headline with the name and the result, the rank among friends,
//! the daily's number and never "custom layout" on a daily, the time to the tenth as
//! recorded; and the bytes: another name, another image; the same inputs, the same bytes.

use super::*;
use huarong_engine::daily::{self, Date};

fn drawn(s: &CardSpec) -> Vec<String> {
    let r = render_traced(s).unwrap();
    assert!(r.missing.is_empty(), "{:?}", r.missing);
    r.texts
}

/// Every game's real daily puzzles (three days), and a daily code of an exact board of
/// each game: the card says "每日挑战 第 N 期" / "Daily challenge #N" and never "custom
/// layout", in both languages and themes. A board that is no level, daily or picture does
/// say it.
#[test]
fn a_daily_card_says_its_number_and_never_custom_layout() {
    let mut codes: Vec<(String, u32)> = Vec::new();
    for day in [(2026, 1, 3), (2026, 11, 29), (2027, 6, 30)] {
        let date = Date::new(day.0, day.1, day.2).unwrap();
        let n = daily::number(date).unwrap();
        for (_, code) in daily::codes(date).unwrap().0 {
            codes.push((code, n));
        }
    }
    for id in [
        "slide:5x5:6,1,2,3,5,11,7,8,4,10,16,12,13,9,15,0,17,18,14,20,21,22,23,19,24",
        "klotski:aCCb/aCCb/cdde/cste/u..v",
        "klotski:#aa#/.CC./.CC./b..c/b..c/#..#",
        "2048:0,0,2,0,0,0,0,0,0,0,0,0,2,0,0,0",
    ] {
        codes.push((daily_code(id, 333), 333));
    }
    assert!(codes.len() >= 3 * Kind::COUNT);
    for (code, n) in &codes {
        for (lang, daily, custom) in [
            (Lang::Zh, format!("每日挑战 第 {n} 期"), "自定义布局"),
            (Lang::En, format!("Daily challenge #{n}"), "Custom layout"),
        ] {
            for theme in [Theme::Light, Theme::Dark] {
                let mut s = spec(code, lang);
                s.theme = theme;
                s.score = Some(100);
                let texts = drawn(&s);
                assert!(texts.contains(&daily), "{code}: {daily} not in {texts:?}");
                assert!(
                    !texts.iter().any(|t| t.contains(custom)),
                    "{code}: {custom} in {texts:?}"
                );
            }
        }
    }
    for (lang, custom) in [(Lang::Zh, "自定义布局"), (Lang::En, "Custom layout")] {
        let plain = encode("slide:3x3:4,1,3,7,2,6,5,8,0").unwrap();
        let texts = drawn(&spec(&plain, lang));
        assert!(texts.iter().any(|t| t.contains(custom)), "{texts:?}");
        // A level names itself instead: a classic, a generated level, a picture.
        for code in [
            classic_code("横刀立马"),
            encode("slide:3x3/hard#2").unwrap(),
            encode("slide:3x3/picture:lotus:4,1,3,7,2,6,5,8,0").unwrap(),
        ] {
            let texts = drawn(&spec(&code, lang));
            assert!(
                !texts.iter().any(|t| t.contains(custom)),
                "{code}: {texts:?}"
            );
        }
    }
}

/// The headline names the player and the result, as the issue writes it; without a name,
/// a headline without one; the rank among friends from the count the app gives.
#[test]
fn the_headline_brags_with_the_name_and_the_result() {
    let code = encode("slide:4x4:3,8,15,0,1,9,6,5,11,13,14,4,10,12,2,7").unwrap();
    let mut s = spec(&code, Lang::Zh);
    s.moves = 33;
    s.name = Some("Ann".into());
    s.friends_beaten = Some(2);
    let texts = drawn(&s);
    assert!(texts.contains(&"Ann".to_string()), "{texts:?}");
    assert!(texts.contains(&" · 33 步通关".to_string()), "{texts:?}");
    assert!(texts.contains(&"击败 2 位好友".to_string()), "{texts:?}");
    assert_eq!(Card::describe(&s).unwrap().headline, "Ann · 33 步通关");
    s.lang = Lang::En;
    let card = Card::describe(&s).unwrap();
    assert_eq!(card.headline, "Ann solved it in 33 moves");
    assert_eq!(card.rank.as_deref(), Some("Beat 2 friends"));
    assert!(drawn(&s).contains(&"Beat 2 friends".to_string()));
    s.name = None;
    s.friends_beaten = Some(0);
    let card = Card::describe(&s).unwrap();
    assert_eq!(
        (card.headline.as_str(), card.rank),
        ("Solved in 33 moves", None)
    );
    s.lang = Lang::Zh;
    assert_eq!(Card::describe(&s).unwrap().headline, "33 步通关");
    // The name is checked as a result code's: trimmed; too long or a line break → parse.
    s.name = Some("  Bo  ".into());
    assert_eq!(Card::describe(&s).unwrap().headline, "Bo · 33 步通关");
    s.name = Some("   ".into());
    assert_eq!(Card::describe(&s).unwrap().headline, "33 步通关");
    for bad in ["abcdefghijklmnopq", "a\nb", "a\u{7}b"] {
        s.name = Some(bad.into());
        assert_eq!(
            Card::describe(&s).unwrap_err().code,
            ErrorCode::Parse,
            "{bad:?}"
        );
    }
    // A name with braces is written as it is (no template is read inside it).
    s.name = Some("{n}".into());
    assert_eq!(Card::describe(&s).unwrap().headline, "{n} · 33 步通关");
    // 2048 brags with the score and the best tile.
    let mut s = spec(&encode("2048:#9").unwrap(), Lang::Zh);
    s.name = Some("Ann".into());
    s.score = Some(36_112);
    s.best_tile = Some(2048);
    assert_eq!(
        Card::describe(&s).unwrap().headline,
        "Ann · 合成 2048，36112 分"
    );
    s.lang = Lang::En;
    assert_eq!(
        Card::describe(&s).unwrap().headline,
        "Ann scored 36,112 with a 2048 tile"
    );
    s.name = None;
    s.best_tile = None;
    assert_eq!(Card::describe(&s).unwrap().headline, "36,112 points");
}

/// `--name Ann` and `--name Bo` give different images; the same inputs the same bytes.
#[test]
fn another_name_another_image_the_same_inputs_the_same_bytes() {
    for (_, base) in golden_specs().into_iter().step_by(3) {
        let mut ann = base.clone();
        ann.name = Some("Ann".into());
        let mut bo = base.clone();
        bo.name = Some("Bo".into());
        let (a, b) = (render(&ann).unwrap(), render(&bo).unwrap());
        assert_ne!(a, b, "{}", base.code);
        assert_eq!(a, render(&ann).unwrap(), "{}: the same bytes", base.code);
        assert_eq!(b, render(&bo.clone()).unwrap());
    }
}

/// The time is the recorded milliseconds, cut to the tenth as the finish and the records
/// show it (`formatTime(ms, true)`); whole seconds from older callers stay whole; seconds
/// that disagree with the milliseconds are refused.
#[test]
fn the_time_is_shown_to_the_tenth_as_recorded() {
    let code = encode("slide:3x3:4,1,3,7,2,6,5,8,0").unwrap();
    let mut s = spec(&code, Lang::En);
    s.seconds = 0;
    for (ms, want) in [
        (48_370, "0:48.3"),
        (1_999, "0:01.9"),
        (3_723_050, "1:02:03.0"),
    ] {
        s.ms = Some(ms);
        let texts = drawn(&s);
        assert!(texts.contains(&want.to_string()), "{ms}: {texts:?}");
    }
    s.ms = Some(48_370);
    s.seconds = 48;
    assert!(drawn(&s).contains(&"0:48.3".to_string()));
    s.seconds = 50;
    assert_eq!(Card::describe(&s).unwrap_err().code, ErrorCode::OutOfRange);
    s.ms = None;
    s.seconds = 48;
    assert!(drawn(&s).contains(&"0:48".to_string()));
    s.ms = Some(999 * 3600 * 1000 + 1);
    s.seconds = 0;
    assert_eq!(Card::describe(&s).unwrap_err().code, ErrorCode::OutOfRange);
}

/// The dark card is its own palette: the paper, the band, the ink (not an inversion), and
/// the QR code keeps its white tile.
#[test]
fn the_dark_card_has_its_own_palette() {
    let code = encode("slide:3x3:4,1,3,7,2,6,5,8,0").unwrap();
    let mut s = spec(&code, Lang::Zh);
    s.name = Some("小明".into());
    let pixels = |theme: Theme| {
        let mut s = s.clone();
        s.theme = theme;
        let r = render_traced(&s).unwrap();
        let (w, _, px) = decode_png(&r.png);
        let at = |x: usize, y: usize| {
            let i = (y * w as usize + x) * 3;
            Rgb(px[i], px[i + 1], px[i + 2])
        };
        let (qx, qy, _) = r.qr_box;
        (at(5, 795), at(5, 5), at(qx as usize + 16, qy as usize + 16))
    };
    for theme in [Theme::Light, Theme::Dark] {
        let p = draw::palette(theme);
        assert_eq!(
            pixels(theme),
            (p.paper, p.band, Rgb::hex(0xffffff)),
            "{theme:?}"
        );
    }
    let (light, dark) = (draw::palette(Theme::Light), draw::palette(Theme::Dark));
    assert_ne!(light.paper, dark.paper);
    // Text against its paper: at least 4.5:1 for every colour of text in both themes.
    for p in [light, dark] {
        for (ink, on) in [
            (p.ink, p.paper),
            (p.muted, p.paper),
            (p.accent, p.paper),
            (p.on_accent, p.accent),
            (p.band_text, p.band),
            (p.band_sub, p.band),
        ] {
            let ratio = contrast(ink, on);
            assert!(ratio >= 4.5, "{ink:?} on {on:?}: {ratio:.2}");
        }
    }
    assert_eq!(Theme::parse(" Dark ").unwrap(), Theme::Dark);
    assert_eq!(Theme::parse("sepia").unwrap_err().code, ErrorCode::Parse);
}

/// WCAG contrast ratio of two colours.
fn contrast(a: Rgb, b: Rgb) -> f64 {
    let lum = |c: Rgb| {
        let ch = |v: u8| {
            let v = v as f64 / 255.0;
            if v <= 0.039_28 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * ch(c.0) + 0.7152 * ch(c.1) + 0.0722 * ch(c.2)
    };
    let (x, y) = (lum(a), lum(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}
