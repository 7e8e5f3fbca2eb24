//! `daily_calendar` (the records screen's calendar of the daily): whole weeks,
//! Monday first, ending with the week of the app's today; the days whose daily the player
//! solved marked, from their own results (kept across a restart), per game; bad arguments
//! are typed errors.

use huarong_engine::daily::{self, Date};
use huarong_engine::slide::{self, Board};
use huarong_engine::Cancel;
use huarong_tests::{fresh_app, TestApp};
use serde_json::{json, Value};

/// Solve the daily number slide of `date` optimally (today's or yesterday's: a game begun
/// before midnight still counts for its day).
fn solve_daily(app: &TestApp, date: Date) {
    let day = daily::puzzles(date).expect("the day's puzzles");
    let id = day.id(huarong_engine::Kind::Slide).expect("a daily slide");
    let p = huarong_engine::GameId::parse(id).expect("the daily's ID");
    let start = slide::Slide::from_id(&p.body, p.seed).expect("the daily");
    use huarong_engine::Game;
    let body = start.board_body();
    let (size, tiles) = body.split_once(':').expect("a board body");
    let (w, h) = size.split_once('x').expect("a size");
    let tiles: Vec<u16> = tiles.split(',').map(|t| t.parse().unwrap()).collect();
    let board = Board::new(w.parse().unwrap(), h.parse().unwrap(), &tiles).expect("a board");
    let sol = slide::solve(&board, &Cancel::new()).expect("a solution");
    app.ok("open_game", json!({ "id": id, "replace": true }));
    let mut last = Value::Null;
    for t in &sol.tiles {
        last = app.ok("play", json!({ "kind": "slide", "mv": { "tile": t } }));
    }
    assert_eq!(last["snapshot"]["status"], json!("won"), "{last}");
    assert!(
        last["finish"]["daily"].is_object(),
        "a daily's finish: {last}"
    );
}

/// The days of a calendar marked done.
fn done(cal: &Value) -> Vec<String> {
    cal["days"]
        .as_array()
        .expect("days")
        .iter()
        .filter(|d| d["done"] == json!(true))
        .map(|d| d["date"].as_str().expect("a date").to_string())
        .collect()
}

fn date(v: &Value) -> Date {
    Date::parse(v.as_str().expect("a date")).expect("YYYY-MM-DD")
}

#[test]
fn the_calendar_marks_the_days_a_daily_was_solved() {
    let (dir, app) = fresh_app("calendar");
    let today_s = app.ok("get_progress", json!({}))["today"].clone();
    let today = date(&today_s);
    let cal = app.ok("daily_calendar", json!({ "kind": "slide" }));
    assert_eq!(cal["kind"], "slide");
    assert_eq!(cal["today"], today_s, "the app's one today");
    assert_eq!(cal["weeks"], 5, "five weeks unless asked");
    let days = cal["days"].as_array().expect("days");
    assert_eq!(days.len(), 35);
    // Whole weeks, Monday first (1970-01-01 was a Thursday), consecutive, today in the last.
    let first = date(&days[0]["date"]);
    assert_eq!((first.days() + 3).rem_euclid(7), 0, "{first} is no Monday");
    for (i, d) in days.iter().enumerate() {
        assert_eq!(date(&d["date"]).days(), first.days() + i as i64, "{cal}");
        assert_eq!(d["future"], json!(date(&d["date"]) > today), "{d}");
    }
    let at = days
        .iter()
        .position(|d| d["date"] == today_s)
        .expect("today");
    assert!(at >= 28, "today in the last week: {at}");
    assert!(done(&cal).is_empty(), "nothing solved yet: {cal}");
    assert_eq!(cal["solved"], 0);

    // Yesterday's daily (begun before midnight) and today's, solved.
    let yesterday = Date::from_days(today.days() - 1);
    solve_daily(&app, yesterday);
    solve_daily(&app, today);
    let cal = app.ok("daily_calendar", json!({ "kind": "slide" }));
    let expect = vec![yesterday.to_string(), today.to_string()];
    // Yesterday may be in the week before the five when today is… never: today is in the
    // last week, so yesterday is at least in the fourth.
    assert_eq!(done(&cal), expect, "{cal}");
    assert_eq!(cal["solved"], 2);
    // Another game's calendar is its own.
    let k = app.ok("daily_calendar", json!({ "kind": "klotski" }));
    assert!(done(&k).is_empty(), "{k}");
    // One week: only its days (yesterday when today is not a Monday).
    let one = app.ok("daily_calendar", json!({ "kind": "slide", "weeks": 1 }));
    assert_eq!(one["days"].as_array().map(Vec::len), Some(7));
    let monday = (today.days() + 3).rem_euclid(7) == 0;
    let want: Vec<String> = if monday {
        vec![today.to_string()]
    } else {
        expect.clone()
    };
    assert_eq!(done(&one), want, "{one}");
    let year = app.ok("daily_calendar", json!({ "kind": "slide", "weeks": 53 }));
    assert_eq!(year["days"].as_array().map(Vec::len), Some(371));
    assert_eq!(done(&year), expect);

    // Bad arguments are typed errors.
    for args in [
        json!({}),
        json!({ "kind": "chess" }),
        json!({ "kind": "slide", "weeks": 0 }),
        json!({ "kind": "slide", "weeks": 54 }),
        json!({ "kind": "slide", "weeks": -1 }),
        json!({ "kind": "slide", "weeks": "5" }),
        json!({ "kind": "slide", "weeks": 1.5 }),
    ] {
        assert_eq!(
            app.err("daily_calendar", args.clone()),
            "bad_argument",
            "{args}"
        );
    }

    // The player's own results are kept: the same calendar after a restart.
    app.close();
    let app = TestApp::start(dir.path(), None);
    let again = app.ok("daily_calendar", json!({ "kind": "slide" }));
    assert_eq!(done(&again), expect, "{again}");
    app.close();
}
