//! Issue 32 through the command table: the card the core makes (`card_image`, `share_card`
//! take the same `card`) carries the player's name from the settings and, for a daily among
//! friends, how many friends on that daily's board the result beats (the core decides both:
//! the page cannot pass them); the time to the tenth from `ms`; the theme from the settings,
//! or the page's resolved one under `system`. Each card is compared, byte for byte, with the
//! card crate's rendering of what it must show.

use huarong_card::{CardSpec, Lang, Theme};
use huarong_engine::code;
use huarong_tests::{daily_result_code, fresh_app, todays_slide_daily};
use serde_json::{json, Value};

/// The data URL the card crate makes of `spec`.
fn rendered(spec: &CardSpec) -> Value {
    let png = huarong_card::render(spec).unwrap();
    json!(format!(
        "data:image/png;base64,{}",
        huarong_core::share::base64(&png)
    ))
}

#[test]
fn card_image_fills_the_name_and_the_rank_from_the_progress() {
    let (_d, app) = fresh_app("card-rank");
    let (n, id, line, m) = todays_slide_daily(&app);
    app.ok("set_settings", json!({"settings": {"name": "Ann"}}));
    // Four friends on today's board: three the player's verified result beats (their claims
    // carry no move log: verified ranks first), and one it does not: Kai's optimal
    // line, verified from its log, against the player's two moves more.
    for (name, moves, ms, log) in [
        (Some("Mei"), m + 2, 90_000, None),
        (Some("Bo"), m + 4, 50_000, None),
        (None, m + 1, 70_000, None),
        (Some("Kai"), m, 60_000, Some(line.clone())),
    ] {
        app.ok(
            "open_game",
            json!({"id": daily_result_code(&id, n, name, moves, ms, log)}),
        );
    }
    // The player solves today's daily in its slot, one tile there and back first.
    app.ok("open_game", json!({"id": id, "replace": true}));
    let mut last = Value::Null;
    for mv in [&line[0], &line[0]].into_iter().chain(&line) {
        last = app.ok("play", json!({"kind": "slide", "mv": mv}));
    }
    let m = m + 2;
    let finish = &last["finish"];
    let ms = finish["time_ms"].as_u64().expect("the finish's time");
    let result = app.ok("result_code", json!({"kind": "slide"}));
    let code = result["code"].as_str().unwrap().to_string();
    assert_eq!(result["daily"], n);
    let board = app.ok("friends", json!({"daily": n, "kind": "slide"}));
    assert_eq!(board.as_array().unwrap().len(), 5, "{board}");

    let card = json!({"code": code, "lang": "en", "moves": m, "ms": ms, "theme": "dark"});
    let url = app.ok("card_image", json!({ "card": card }));
    let mut want = CardSpec {
        code: code.clone(),
        lang: Lang::En,
        theme: Theme::Dark,
        moves: m,
        seconds: ms / 1000,
        ms: Some(ms),
        name: Some("Ann".into()),
        friends_beaten: Some(3),
        ..CardSpec::default()
    };
    assert_eq!(url, rendered(&want), "name Ann, 3 friends beaten, dark");
    let texts = huarong_card::render_traced(&want).unwrap().texts;
    assert!(texts.contains(&"Ann".to_string()), "{texts:?}");
    assert!(texts.contains(&"Beat 3 friends".to_string()), "{texts:?}");
    assert!(texts.contains(&huarong_card::clock_tenths(ms)), "{texts:?}");
    // Not the card without the name, nor without the rank.
    let mut other = want.clone();
    other.friends_beaten = None;
    assert_ne!(url, rendered(&other));
    other.name = None;
    assert_ne!(url, rendered(&other));

    // Another name in the settings: another card, made from it.
    app.ok("set_settings", json!({"settings": {"name": "Bo"}}));
    let bo = app.ok("card_image", json!({ "card": card }));
    want.name = Some("Bo".into());
    assert_eq!(bo, rendered(&want));
    assert_ne!(bo, url);
    // No name: a headline without one.
    app.ok("set_settings", json!({"settings": {"name": ""}}));
    want.name = None;
    assert_eq!(
        app.ok("card_image", json!({ "card": card })),
        rendered(&want)
    );

    // The settings' theme wins over the page's; `system` takes the page's, else light.
    app.ok("set_settings", json!({"settings": {"theme": "light"}}));
    want.theme = Theme::Light;
    assert_eq!(
        app.ok("card_image", json!({ "card": card })),
        rendered(&want)
    );
    app.ok("set_settings", json!({"settings": {"theme": "system"}}));
    let mut no_theme = card.clone();
    no_theme.as_object_mut().unwrap().remove("theme");
    assert_eq!(
        app.ok("card_image", json!({ "card": no_theme })),
        rendered(&want)
    );

    // An older caller's whole seconds still make a card (shown whole); with both, they
    // must agree.
    let mut old = no_theme.clone();
    old.as_object_mut().unwrap().remove("ms");
    old["seconds"] = json!(ms / 1000);
    let mut whole = want.clone();
    whole.ms = None;
    // Without the exact time, the friends beaten are those slower by a whole second or
    // more, or with more moves: here the same three.
    assert_eq!(
        app.ok("card_image", json!({ "card": old })),
        rendered(&whole)
    );
    let mut both = card.clone();
    both["seconds"] = json!(ms / 1000 + 5);
    assert!(app
        .err("card_image", json!({ "card": both }))
        .contains("bad_argument"));

    // The page cannot pass the name or the rank; a bad theme is a bad argument.
    for (key, value) in [
        ("name", json!("Eve")),
        ("friends_beaten", json!(9)),
        ("rank", json!(1)),
        ("theme", json!("sepia")),
    ] {
        let mut bad = card.clone();
        bad[key] = value;
        assert!(
            app.err("card_image", json!({ "card": bad }))
                .contains("bad_argument"),
            "{key}"
        );
    }
    let mut timeless = card.clone();
    timeless.as_object_mut().unwrap().remove("ms");
    assert!(app
        .err("card_image", json!({ "card": timeless }))
        .contains("bad_argument"));
}

/// A card that is no daily of the friends' board has no rank: another puzzle's code with
/// today's daily number, and a plain puzzle.
#[test]
fn only_the_dailys_own_puzzle_is_ranked() {
    let (_d, app) = fresh_app("card-norank");
    let (n, id, _, m) = todays_slide_daily(&app);
    app.ok(
        "open_game",
        json!({"id": daily_result_code(&id, n, Some("Mei"), m + 9, 90_000, None)}),
    );
    let near = "slide:3x3:1,2,3,4,5,6,7,0,8";
    let forged = daily_result_code(near, n, Some("Me"), 1, 900, None);
    let plain = code::encode(near).unwrap();
    for c in [forged, plain] {
        let card = json!({"code": c, "lang": "zh", "moves": 1, "ms": 900});
        let want = CardSpec {
            code: c.clone(),
            lang: Lang::Zh,
            moves: 1,
            ms: Some(900),
            ..CardSpec::default()
        };
        assert_eq!(
            app.ok("card_image", json!({ "card": card })),
            rendered(&want),
            "{c}"
        );
    }
}
