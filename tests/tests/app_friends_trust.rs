//! Issue 35 through the command table: a friends' board no link can wipe or game, and records
//! no code can set.
//!
//! - Item 2: a result for a daily after tomorrow is refused (`bad_code`); today's board, the
//!   player's own row and later results stay, across a restart too — also when the file
//!   already holds a far-future day (written by a build before the fix).
//! - Item 4: the 2048 board ranks a win first, then the score, then fewer swipes; its entries
//!   and the player's own result code carry score and won.
//! - Item 5: verified results rank above claims; a claim below what the puzzle needs is
//!   refused; a friend's time is marked as claimed; names are compared without format
//!   characters.
//! - Item 7: a board the app did not deal never sets its size's record.

use huarong_engine::code::{self, Challenge, Extra, Outcome, Sender};
use huarong_engine::rng::{self, RngCore};
use huarong_engine::{daily, Cancel, Game, GameId, Kind};
use huarong_tests::{daily_result_code, fresh_app, rewrite_progress, todays_slide_daily, TestApp};
use serde_json::{json, Value};

/// The far-future daily of the issue (year 2999).
const FAR: u32 = 355_746;

fn daily_id(n: u32, kind: Kind) -> String {
    let puzzles = daily::puzzles(daily::date_of(n).unwrap()).unwrap();
    puzzles.id(kind).unwrap().to_string()
}

fn board(app: &TestApp, n: u32) -> Vec<Value> {
    app.ok("friends", json!({ "daily": n }))
        .as_array()
        .cloned()
        .unwrap()
}

fn names(lines: &[Value]) -> Vec<String> {
    lines
        .iter()
        .map(|l| {
            if l["me"] == true {
                "(me)".to_string()
            } else {
                l["name"].as_str().unwrap_or("(a friend)").to_string()
            }
        })
        .collect()
}

/// Mei (verified, her log), Bo (a plain claim) and the player's own result on today's
/// slide board.
fn fill_today(app: &TestApp) -> (u32, String) {
    let (n, id, sol, m) = todays_slide_daily(app);
    app.ok(
        "open_game",
        json!({ "id": daily_result_code(&id, n, Some("Mei"), m, 80_000, Some(sol.clone())) }),
    );
    app.ok(
        "open_game",
        json!({ "id": daily_result_code(&id, n, Some("Bo"), m + 6, 50_000, None) }),
    );
    app.ok("open_game", json!({ "id": id, "replace": true }));
    for mv in &sol {
        app.ok("play", json!({ "kind": "slide", "mv": mv }));
    }
    (n, id)
}

#[test]
fn a_far_future_daily_code_is_refused_and_wipes_nothing_even_across_a_restart() {
    let (dir, app) = fresh_app("friends-far");
    let (n, id) = fill_today(&app);
    let before = board(&app, n);
    assert_eq!(names(&before), ["(me)", "Mei", "Bo"], "{before:?}");

    // The link: a plain result code of daily No. 355746 (its own puzzle).
    let far = daily_id(FAR, Kind::Slide);
    let code = daily_result_code(&far, FAR, Some("Eve"), 30, 1_000, None);
    let r = app.call("open_game", json!({ "id": code }));
    // Before the fix it opened, and today's board was gone (`[]`, the own row too).
    assert_eq!(
        board(&app, n),
        before,
        "the far-future code wiped today's board"
    );
    let e = r.unwrap_err();
    assert_eq!(e["code"], "bad_code", "{e}");
    assert!(e["message"].as_str().unwrap().contains("355746"), "{e}");
    // Tomorrow's (a friend a time zone ahead) is fine.
    let tomorrow = daily_id(n + 1, Kind::Slide);
    app.ok(
        "open_game",
        json!({ "id": daily_result_code(&tomorrow, n + 1, Some("Ann"), 300, 1_000, None), "replace": true }),
    );
    assert_eq!(names(&board(&app, n + 1)), ["Ann"]);
    assert_eq!(board(&app, n), before, "today's board is untouched");
    assert!(board(&app, FAR).is_empty());

    // Later results for today still arrive; all of it survives a restart.
    app.ok(
        "open_game",
        json!({ "id": daily_result_code(&id, n, Some("Zed"), 900, 1_000, None), "replace": true }),
    );
    let now = board(&app, n);
    assert_eq!(names(&now), ["(me)", "Mei", "Bo", "Zed"], "{now:?}");
    app.close();
    let app = TestApp::start(dir.path(), None);
    assert_eq!(board(&app, n), now);
    app.close();

    // A file a build before the fix wrote, holding the far-future day (its friends and an own
    // result): today's board, the own row and later results stay, across starts.
    rewrite_progress(dir.path(), |doc| {
        let mut day = doc.progress.friends.days[&n].clone();
        day.mine.clear();
        doc.progress.friends.days.insert(FAR, day.clone());
        day.mine = doc.progress.friends.days[&n].mine.clone();
        doc.progress.friends.days.insert(FAR + 1, day);
    });
    let app = TestApp::start(dir.path(), None);
    assert_eq!(
        board(&app, n),
        now,
        "a stored far-future day wipes nothing at start"
    );
    app.ok(
        "open_game",
        json!({ "id": daily_result_code(&id, n, Some("Yu"), 950, 1_000, None), "replace": true }),
    );
    assert_eq!(names(&board(&app, n)), ["(me)", "Mei", "Bo", "Zed", "Yu"]);
    app.close();
    let app = TestApp::start(dir.path(), None);
    assert_eq!(names(&board(&app, n)), ["(me)", "Mei", "Bo", "Zed", "Yu"]);
    app.close();
}

/// Today's 2048 daily played to its end with random swipes from `stream`: the moves, their
/// count and the score.
fn random_2048(id: &str, stream: u64) -> (Vec<Value>, u32, u64, bool) {
    let p = GameId::parse(id).unwrap();
    let mut g = huarong_engine::g2048::G2048::from_id(&p.body, p.seed).unwrap();
    let mut r = rng::stream(stream, "friends-2048");
    let mut played = Vec::new();
    while g.status() == huarong_engine::Status::Playing && played.len() < 5000 {
        let m = huarong_engine::g2048::Move::Slide(
            huarong_engine::g2048::Dir::ALL[(r.next_u32() % 4) as usize],
        );
        if g.apply(&m).is_ok() {
            played.push(serde_json::to_value(m).unwrap());
        }
    }
    (played, g.moves(), g.score(), g.reached_2048())
}

#[test]
fn verified_2048_results_rank_by_score_not_by_the_shortest_game() {
    let (_d, app) = fresh_app("friends-2048-verified");
    let info = app.ok("daily_info", json!({}));
    let n = info["number"].as_u64().unwrap() as u32;
    let id = info["2048"].as_str().unwrap().to_string();
    // Two real games: one short and low, one longer and higher (the issue: 102 swipes, 848,
    // ranked above 188 swipes, 1,816).
    let mut games: Vec<_> = (1..200u64).map(|s| (s, random_2048(&id, s))).collect();
    games.sort_by_key(|(_, g)| g.1);
    let short = games[0].clone();
    let long = games
        .iter()
        .rev()
        .find(|(_, g)| g.2 > short.1 .2 && g.1 > short.1 .1)
        .cloned()
        .expect("a longer game with a higher score");
    for (name, (_, (log, moves, _, _))) in [("Short", &short), ("Long", &long)] {
        let c = daily_result_code(&id, n, Some(name), *moves, 60_000, Some(log.clone()));
        app.ok("open_game", json!({ "id": c, "replace": true }));
    }
    let b = board(&app, n);
    assert_eq!(names(&b), ["Long", "Short"], "{b:?}");
    assert_eq!(b[0]["score"], long.1 .2, "{b:?}");
    assert_eq!(b[0]["won"], false);
    assert_eq!(b[1]["score"], short.1 .2);
}

#[test]
fn the_2048_board_ranks_a_win_first_then_the_score_then_fewer_swipes() {
    let (_d, app) = fresh_app("friends-2048");
    let info = app.ok("daily_info", json!({}));
    let n = info["number"].as_u64().unwrap() as u32;
    let id = info["2048"].as_str().unwrap().to_string();
    let claim = |name: &str, moves: u32, score: u64, won: bool| {
        code::encode_result_with(
            &id,
            Extra {
                daily: Some(n),
                classic: None,
            },
            Challenge::new(moves, 100_000).unwrap(),
            &Sender {
                name: Some(name.into()),
                log: None,
            },
            Some(Outcome { score, won }),
        )
        .unwrap()
    };
    for (name, moves, score, won) in [
        ("Lost102", 102, 848, false),
        ("Lost188", 188, 1_816, false),
        ("Same1816in300", 300, 1_816, false),
        ("Won", 900, 20_000, true),
    ] {
        app.ok(
            "open_game",
            json!({ "id": claim(name, moves, score, won), "replace": true }),
        );
    }
    let b = board(&app, n);
    assert_eq!(
        names(&b),
        ["Won", "Lost188", "Same1816in300", "Lost102"],
        "{b:?}"
    );
    assert_eq!(
        (b[0]["won"].as_bool(), b[0]["score"].as_u64()),
        (Some(true), Some(20_000))
    );
    // A claim no game can make: a win in 100 swipes (its tiles reach 408 at most), a score
    // far above what 50 swipes can merge.
    for bad in [
        claim("Fast", 100, 3_000, true),
        claim("Rich", 50, 90_000, false),
    ] {
        let e = app
            .call("open_game", json!({ "id": bad, "replace": true }))
            .unwrap_err();
        assert_eq!(e["code"], "bad_code", "{e}");
    }
    // The player's own game: its result code carries score and won; the board shows them.
    let (log, moves, score, won) = random_2048(&id, 7);
    app.ok("open_game", json!({ "id": id, "replace": true }));
    for mv in &log {
        app.ok("play", json!({ "kind": "2048", "mv": mv }));
    }
    let r = app.ok("result_code", json!({ "kind": "2048" }));
    let d = code::decode_full(r["code"].as_str().unwrap()).unwrap();
    assert_eq!(d.sent.unwrap().outcome, Some(Outcome { score, won }));
    let mine = board(&app, n)
        .into_iter()
        .find(|l| l["me"] == true)
        .unwrap();
    assert_eq!(
        (mine["score"].as_u64(), mine["moves"].as_u64()),
        (Some(score), Some(moves as u64))
    );
}

#[test]
fn a_verified_result_outranks_every_claim_and_an_impossible_claim_is_refused() {
    let (_d, app) = fresh_app("friends-claims");
    let (n, id, sol, m) = todays_slide_daily(&app);
    app.ok(
        "open_game",
        json!({ "id": daily_result_code(&id, n, Some("Mei"), m, 80_000, Some(sol)) }),
    );
    // The issue: "1 move, 0 ms" on today's daily ranked #1 above every verified result.
    let e = app
        .call(
            "open_game",
            json!({ "id": daily_result_code(&id, n, Some("Liar"), 1, 0, None), "replace": true }),
        )
        .unwrap_err();
    assert_eq!(e["code"], "bad_code", "{e}");
    assert!(e["message"].as_str().unwrap().contains("needs"), "{e}");
    // A possible claim (as many moves as Mei, faster) is kept, below her.
    app.ok(
        "open_game",
        json!({ "id": daily_result_code(&id, n, Some("Quick"), m, 1, None), "replace": true }),
    );
    let b = board(&app, n);
    assert_eq!(names(&b), ["Mei", "Quick"], "{b:?}");
    // Nothing labels a claimed time verified: every friend's time is the sender's claim.
    assert!(b.iter().all(|l| l["ms_claimed"] == true), "{b:?}");
    assert_eq!(
        (b[0]["verified"].as_bool(), b[1]["verified"].as_bool()),
        (Some(true), Some(false))
    );
}

#[test]
fn names_are_compared_without_format_characters() {
    let (dir, app) = fresh_app("friends-names");
    let (n, id, _sol, m) = todays_slide_daily(&app);
    // Settings: zero-width and bidirectional controls are dropped, not kept.
    let s = app.ok(
        "set_settings",
        json!({ "settings": { "name": "Alice\u{200B}" } }),
    );
    assert_eq!(s["name"], "Alice");
    let s = app.ok(
        "set_settings",
        json!({ "settings": { "name": "\u{202E}Ali\u{2066}ce" } }),
    );
    assert_eq!(s["name"], "Alice");
    // A code from "Alice\u{200B}" is the player's own name: not a second, identical-looking
    // Alice on the board; "Bo\u{FEFF}" and "Bo" are one friend.
    for (name, moves) in [
        ("Alice\u{200B}", m + 2),
        ("Bo\u{FEFF}", m + 4),
        ("Bo", m + 3),
    ] {
        app.ok(
            "open_game",
            json!({ "id": daily_result_code(&id, n, Some(name), moves, 9_000, None), "replace": true }),
        );
    }
    let b = board(&app, n);
    assert_eq!(names(&b), ["Bo"], "{b:?}");
    assert_eq!(b[0]["moves"], m + 3);
    app.close();
    // A file an older build wrote (names with format characters): read in the checked form.
    rewrite_progress(dir.path(), |doc| {
        doc.progress.settings.name = "Alice\u{200D}".into();
        let day = doc.progress.friends.days.get_mut(&n).unwrap();
        let slide = day.friends.get_mut("slide").unwrap();
        let mut r = slide["Bo"];
        r.moves = m + 1;
        slide.insert("B\u{200B}o".into(), r);
        r.moves = m + 8;
        slide.insert("Cy\u{2060}".into(), r);
    });
    let app = TestApp::start(dir.path(), None);
    assert_eq!(app.ok("get_settings", json!({}))["name"], "Alice");
    let b = board(&app, n);
    assert_eq!(names(&b), ["Bo", "Cy"], "{b:?}");
    assert_eq!(b[0]["moves"], m + 1, "the same friend's best");
    app.close();
}

/// Names by a skeleton: default-ignorable code points dropped, NFC, and
/// names compared by their confusables skeleton, the player's own included.
#[test]
fn name_twins_are_one_player() {
    let (dir, app) = fresh_app("friends-twins");
    let (n, id, _sol, m) = todays_slide_daily(&app);
    let s = app.ok("set_settings", json!({ "settings": { "name": "Alice" } }));
    assert_eq!(s["name"], "Alice");
    let twins = [
        ("Mei", m + 5),
        ("Mei\u{34F}", m + 4),
        ("Mei\u{FE0F}", m + 6),
        ("Mei\u{3164}", m + 7),
        ("\u{115F}Mei", m + 8),
        ("Jos\u{E9}", m + 9),
        ("Jose\u{301}", m + 3),
        // Cyrillic А: the player's own name.
        ("\u{410}lice", m + 1),
    ];
    for (name, moves) in twins {
        app.ok(
            "open_game",
            json!({ "id": daily_result_code(&id, n, Some(name), moves, 9_000, None), "replace": true }),
        );
    }
    let b = board(&app, n);
    assert_eq!(names(&b), ["Jos\u{E9}", "Mei"], "{b:?}");
    assert_eq!(
        (b[0]["moves"].as_u64(), b[1]["moves"].as_u64()),
        (Some(u64::from(m) + 3), Some(u64::from(m) + 4))
    );
    app.close();
    // A file an older build wrote, twins apart: merged on load under one shown name.
    rewrite_progress(dir.path(), |doc| {
        let day = doc.progress.friends.days.get_mut(&n).unwrap();
        let slide = day.friends.get_mut("slide").unwrap();
        let mut r = slide["Mei"];
        r.moves = m + 2;
        slide.insert("M\u{435}i".into(), r);
        r.moves = m + 1;
        slide.insert("Jose\u{301}".into(), r);
    });
    let app = TestApp::start(dir.path(), None);
    let b = board(&app, n);
    assert_eq!(b.len(), 2, "{b:?}");
    assert_eq!(b[0]["moves"], m + 1);
    assert_eq!(b[1]["moves"], m + 2);
    app.close();
}

/// Results earn their mark: a result helped by hints or undo says so in
/// its code, is marked on the board (`assisted`) and ranks after clean ones; the player's
/// own code after an undo carries the flag.
#[test]
fn assisted_results_are_marked_and_rank_after_clean_ones() {
    let (_dir, app) = fresh_app("friends-assisted");
    let (n, id, sol, m) = todays_slide_daily(&app);
    let claim = |name: &str, moves: u32, log: Option<Vec<Value>>, assisted: bool| {
        code::encode_result_assisted(
            &id,
            Extra {
                daily: Some(n),
                classic: None,
            },
            Challenge::new(moves, 9_000).unwrap(),
            &Sender {
                name: Some(name.into()),
                log,
            },
            None,
            assisted,
        )
        .unwrap()
    };
    for c in [
        claim("Ann", m, Some(sol.clone()), true),
        claim("Bo", m + 6, None, false),
    ] {
        app.ok("open_game", json!({ "id": c, "replace": true }));
    }
    let b = board(&app, n);
    assert_eq!(names(&b), ["Bo", "Ann"], "{b:?}");
    assert_eq!(
        (b[0]["assisted"].as_bool(), b[1]["assisted"].as_bool()),
        (Some(false), Some(true))
    );
    // The player's own game with an undo: the code says assisted.
    app.ok("open_game", json!({ "id": id, "replace": true }));
    app.ok("play", json!({ "kind": "slide", "mv": sol[0] }));
    app.ok("undo", json!({ "kind": "slide" }));
    for mv in &sol {
        app.ok("play", json!({ "kind": "slide", "mv": mv }));
    }
    let rc = app.ok("result_code", json!({ "kind": "slide" }));
    let d = code::decode_full(rc["code"].as_str().unwrap()).unwrap();
    assert!(d.sent.unwrap().assisted, "{rc}");
    let mine = board(&app, n)
        .into_iter()
        .find(|l| l["me"] == true)
        .unwrap();
    assert_eq!(mine["assisted"], true);
}

#[test]
fn a_board_the_app_did_not_deal_never_sets_its_sizes_record() {
    let (_d, app) = fresh_app("records-dealt");
    // The issue: a code one move from solved gave a permanent 4×4 record of 1 move, 0 ms.
    let near = code::encode("slide:4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15").unwrap();
    app.ok("open_game", json!({ "id": near }));
    let w = app.ok("play", json!({ "kind": "slide", "mv": { "tile": 15 } }));
    assert_eq!(w["snapshot"]["status"], "won");
    let key = w["finish"]["key"].as_str().unwrap().to_string();
    assert!(key.starts_with("slide:4x4/board:"), "{key}");
    let p = app.ok("get_progress", json!({}));
    assert!(
        p["records"].get("slide:4x4/tile").is_none(),
        "{}",
        p["records"]
    );
    let levels = app.ok("levels", json!({ "kind": "slide" }));
    let four = levels["levels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["size"] == "4x4")
        .unwrap();
    assert!(four["best"].is_null(), "{four}");
    // Its own scope has its statistics.
    let own = key.trim_end_matches("/tile");
    let r = app.ok("records", json!({ "scope": own }));
    assert_eq!(r["best_moves"], 1, "{r}");
    assert!(app.ok("records", json!({ "scope": "slide:4x4" }))["wins"] == 0);
    // A board the app dealt (a seeded 3×3) counts for its size.
    let v = app.ok(
        "new_game",
        json!({ "kind": "slide", "params": "3x3", "seed": 11 }),
    );
    let id = v["snapshot"]["id"].as_str().unwrap().to_string();
    let p = GameId::parse(&id).unwrap();
    let mut g = huarong_engine::slide::Slide::from_id(&p.body, p.seed).unwrap();
    let mut last = Value::Null;
    for mv in g.solve(&Cancel::new()).unwrap() {
        g.apply(&mv).unwrap();
        last = app.ok("play", json!({ "kind": "slide", "mv": mv }));
    }
    assert_eq!(last["finish"]["key"], "slide:3x3/tile", "{last}");
    let p = app.ok("get_progress", json!({}));
    assert!(p["records"]["slide:3x3/tile"]["best_moves"].is_u64());
    // The same for 2048: a board given as an ID is its own scope.
    let near2048 = "2048:1024,1024,0,0,0,0,0,0,0,0,0,0,0,0,0,2";
    app.ok("open_game", json!({ "id": near2048 }));
    let w = app.ok("play", json!({ "kind": "2048", "mv": { "dir": "left" } }));
    let key = w["finish"]["key"].as_str().unwrap_or("").to_string();
    assert!(key.starts_with("2048:board:"), "{w}");
    assert!(app.ok("get_progress", json!({}))["records"]
        .get("2048/moves")
        .is_none());
    app.close();
}
