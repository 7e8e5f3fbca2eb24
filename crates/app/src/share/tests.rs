use super::card::{card_file_name, card_png};
use super::daily_info::daily_info_at;
use super::*;
use crate::error::Code;
use huarong_engine::daily::Date;
use huarong_engine::{registry, ErrorCode, Kind};
use serde_json::json;

#[test]
fn base64_vectors() {
    assert_eq!(base64(b""), "");
    assert_eq!(base64(b"f"), "Zg==");
    assert_eq!(base64(b"fo"), "Zm8=");
    assert_eq!(base64(b"foo"), "Zm9v");
    assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    assert_eq!(base64(&[0xfb, 0xff]), "+/8=");
}

#[test]
fn card_file_names_are_utc_times() {
    let t = Date::new(2026, 11, 29).unwrap().days() * 86_400_000 + 3_723_000;
    assert_eq!(card_file_name(t), "huarong-20261129-010203.png");
}

#[test]
fn card_args_are_checked() {
    let card = json!({
        "code": code::encode("2048:#1").unwrap(), "moves": 10, "seconds": 5, "score": 100, "best_tile": 64
    });
    let ok: CardArgs = args::json("card", Some(card), MAX_ARG_JSON).unwrap();
    assert_eq!(ok.best_tile, Some(64));
    let png = card_png(&ok.spec().unwrap()).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    // Unknown keys (the old camelCase `bestTile` among them) are refused.
    for extra in [json!({"evil": 1}), json!({"bestTile": 64})] {
        let mut v = json!({"code": "x", "moves": 1, "seconds": 1});
        v.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let e = args::json::<CardArgs>("card", Some(v), MAX_ARG_JSON).unwrap_err();
        assert_eq!(e.code, Code::BadArgument, "{extra}");
    }
    let e =
        args::json::<CardArgs>("card", Some(json!("x".repeat(5000))), MAX_ARG_JSON).unwrap_err();
    assert!(e.message.contains("4096"), "{}", e.message);
    let bad = CardArgs {
        lang: Some("fr".into()),
        ..ok.clone()
    };
    assert_eq!(bad.spec().unwrap_err().code, Code::Engine(ErrorCode::Parse));
    let bad = CardArgs {
        code: "1nope".into(),
        ..ok.clone()
    };
    assert_eq!(
        card_png(&bad.spec().unwrap()).unwrap_err().code,
        Code::Engine(ErrorCode::BadCode)
    );
    // `board`: the finished 2048 grid draws; another game's board, garbage, or a grid whose
    // largest tile is not the best tile is a bad argument.
    let grid = "2,4,8,2,16,32,64,4,4,128,512,8,2,1024,2048,16";
    let mut with = json!({"code": ok.code, "moves": 10, "seconds": 5, "board": grid});
    let good: CardArgs = args::json("card", Some(with.clone()), MAX_ARG_JSON).unwrap();
    assert_eq!(&card_png(&good.spec().unwrap()).unwrap()[1..4], b"PNG");
    for board in [json!("aCCb/aCCb/cdde/cste/u..v"), json!("2,4"), json!(grid)] {
        with["board"] = board.clone();
        with["best_tile"] = json!(64);
        let args: CardArgs = args::json("card", Some(with.clone()), MAX_ARG_JSON).unwrap();
        assert_eq!(args.spec().unwrap_err().code, Code::BadArgument, "{board}");
    }
    with["board"] = json!(7);
    assert_eq!(
        args::json::<CardArgs>("card", Some(with), MAX_ARG_JSON)
            .unwrap_err()
            .code,
        Code::BadArgument
    );
}

/// The time as `ms` (shown to the tenth) or `seconds` (older callers), both only
/// when they agree, one of them needed; `theme` light or dark; the name and the rank are
/// not arguments (the core adds them).
#[test]
fn card_args_take_ms_seconds_and_theme() {
    let code = code::encode("slide:3x3:1,2,3,4,5,6,7,0,8").unwrap();
    let spec = |extra: serde_json::Value| {
        let mut v = json!({"code": code, "moves": 1});
        v.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        args::json::<CardArgs>("card", Some(v), MAX_ARG_JSON).and_then(|a| a.spec())
    };
    let s = spec(json!({"ms": 48_370})).unwrap();
    assert_eq!((s.seconds, s.ms), (48, Some(48_370)));
    assert_eq!(s.theme, huarong_card::Theme::Light);
    let s = spec(json!({"seconds": 48})).unwrap();
    assert_eq!((s.seconds, s.ms), (48, None));
    let s = spec(json!({"seconds": 48, "ms": 48_370, "theme": "dark"})).unwrap();
    assert_eq!((s.seconds, s.ms), (48, Some(48_370)));
    assert_eq!(s.theme, huarong_card::Theme::Dark);
    // Math.round(48_600 / 1000) = 49 agrees too.
    assert!(spec(json!({"seconds": 49, "ms": 48_600})).is_ok());
    for bad in [
        json!({}),
        json!({"seconds": 60, "ms": 48_370}),
        json!({"ms": 1, "theme": "sepia"}),
        json!({"ms": 1, "name": "Eve"}),
        json!({"ms": 1, "friends_beaten": 3}),
        json!({"ms": "1"}),
    ] {
        assert_eq!(
            spec(bad.clone()).unwrap_err().code,
            Code::BadArgument,
            "{bad}"
        );
    }
}

#[test]
fn daily_info_counts_down_to_local_midnight() {
    let day = Date::new(2026, 3, 2).unwrap();
    let local = day.days() * 86_400_000 + 23 * 3_600_000;
    let info = daily_info_at(local).unwrap();
    assert_eq!(info.number, 61);
    assert_eq!(info.date, "2026-03-02");
    assert_eq!(info.next_in_ms, 3_600_000);
    assert_eq!(info.countdown, "01:00:00");
    let v = serde_json::to_value(&info).unwrap();
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    // The day's fields, and one key per game with a daily puzzle (the engine's list).
    let mut want = vec!["countdown", "date", "next_in_ms", "number"];
    let games = Kind::ALL
        .into_iter()
        .filter(|&k| registry::daily_params(k).is_some());
    want.extend(games.clone().map(Kind::as_str));
    want.sort_unstable();
    assert_eq!(keys, want);
    assert!(games.clone().count() >= 3);
    for k in games {
        assert_eq!(v[k.as_str()], json!(info.puzzles[k.as_str()]));
    }
}

#[test]
fn daily_info_today_is_the_apps_today() {
    // The app's clock is read between two reads of ours: at midnight one of them is its day.
    let st = crate::AppState::open(None, crate::Platform::headless(), || Err("none".into()));
    let first = super::daily_info(st.platform()).unwrap().date;
    let today = st.today();
    let second = super::daily_info(st.platform()).unwrap().date;
    assert!(
        first == today || second == today,
        "{first} {second} {today}"
    );
}

#[test]
fn result_to_beat_needs_both_halves() {
    assert_eq!(codes::challenge(None, None).unwrap(), None);
    assert!(codes::challenge(Some(12), Some(3400)).unwrap().is_some());
    for (m, t) in [(Some(12), None), (None, Some(3400))] {
        assert_eq!(codes::challenge(m, t).unwrap_err().code, Code::BadArgument);
    }
}

#[test]
fn codes_round_trip_with_a_result() {
    let id = "slide:3x3:1,2,3,4,5,6,7,0,8";
    let c = codes::encode(
        id,
        code::Extra::default(),
        codes::challenge(Some(1), Some(900)).unwrap(),
    )
    .unwrap();
    assert!(c.link.contains(&c.code), "{c:?}");
    let d = codes::decode(&format!("  {}\n", c.link)).unwrap();
    assert_eq!(d.board, "3x3:1,2,3,4,5,6,7,0,8");
    assert_eq!(d.kind, "slide");
    assert_eq!(d.challenge, Some(code::Challenge::new(1, 900).unwrap()));
    let plain = codes::decode(id).unwrap();
    assert_eq!((plain.id.as_str(), plain.challenge), (id, None));
    assert_eq!(
        codes::decode("zz-not-a-code").unwrap_err().code,
        Code::Engine(ErrorCode::BadCode)
    );
}

/// The card of the longest result code (1,200 characters, with its move log) is
/// made, taller, for its whole link: nothing caps the code the card takes below the code's
/// own bound.
#[test]
fn a_card_takes_a_result_code_of_1200_characters() {
    use huarong_engine::code::{self, Challenge, Extra, Sender, MAX_CODE_LEN};
    let id = "slide:3x3:1,2,3,4,5,6,0,7,8";
    let code_of = |pairs: usize| {
        let mut log: Vec<_> = (0..2 * pairs).map(|_| json!({"tile": 7})).collect();
        log.extend([json!({"tile": 7}), json!({"tile": 8})]);
        let ch = Challenge::new(log.len() as u32, 600_000).unwrap();
        let sender = Sender {
            name: Some("Ann".into()),
            log: Some(log),
        };
        code::encode_result(id, Extra::default(), ch, &sender).ok()
    };
    let mut pairs = 0;
    while code_of(pairs + 64).is_some() {
        pairs += 64;
    }
    while code_of(pairs + 1).is_some() {
        pairs += 1;
    }
    let long = code_of(pairs).unwrap();
    assert!(long.len() > MAX_CODE_LEN - 10 && long.len() <= MAX_CODE_LEN);
    let args: CardArgs = args::json(
        "card",
        Some(json!({"code": long, "lang": "en", "moves": 2 * pairs + 2, "seconds": 600})),
        MAX_ARG_JSON,
    )
    .unwrap();
    let png = card_png(&args.spec().unwrap()).unwrap();
    let dim = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    assert_eq!((dim(16), dim(20)), (1000, huarong_card::LONG_HEIGHT as u32));
    // A short code keeps the 5:4 card.
    let short = code::encode(id).unwrap();
    let args: CardArgs = args::json(
        "card",
        Some(json!({"code": short, "moves": 2, "seconds": 6})),
        MAX_ARG_JSON,
    )
    .unwrap();
    let png = card_png(&args.spec().unwrap()).unwrap();
    assert_eq!(u32::from_be_bytes(png[20..24].try_into().unwrap()), 800);
}
