//! Issue 23 on the core: records no code can forge, streaks that follow the game's own
//! finish, migration that keeps the old games until the journal holds them, and 2048's
//! "keep going" as an unfinished game.

use huarong_tests::{fresh_app, journal_slide, TempDir, TestApp};
use serde_json::{json, Value};

/// A solved 4×4 as a share code (issue 23's repro).
const SOLVED_CODE: &str = "1AEQBRlYG-hkTO2Ii";
const SOLVED_3X3: &str = "slide:3x3:1,2,3,4,5,6,7,8,0";
const NEAR_3X3: &str = "slide:3x3:1,2,3,4,5,6,7,0,8";

/// NEAR_3X3's record scope: a board given as an ID has a scope of its own.
fn near_scope() -> String {
    huarong_core::records::scope_of_id(NEAR_3X3).unwrap()
}

fn notices(app: &TestApp) -> Vec<Value> {
    app.ok("get_progress", json!({}))["notices"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[test]
fn a_start_already_solved_or_won_opens_nothing() {
    let (_d, app) = fresh_app("trust-solved");
    for text in [
        SOLVED_CODE.to_string(),
        SOLVED_3X3.to_string(),
        format!("huarong://play?c={SOLVED_CODE}"),
        huarong_engine::code::link(SOLVED_CODE),
        // A 2048 board already at 131,072 (won from the start).
        "2048:131072,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2".to_string(),
    ] {
        assert_eq!(
            app.err("open_game", json!({"id": text, "replace": true})),
            "already_solved",
            "{text}"
        );
    }
    assert!(app
        .ok("list_games", json!({}))
        .as_array()
        .unwrap()
        .is_empty());
    let r = app.ok("records", json!({"scope": "slide:4x4"}));
    assert!(r["best_moves"].is_null(), "{r}");
    let r = app.ok("records", json!({"scope": "2048"}));
    assert_eq!(r["wins"], 0, "{r}");
    // A link at launch: home with a notice, nothing opened.
    let dir = TempDir::new("trust-solved-launch");
    let app = TestApp::start(dir.path(), Some(SOLVED_CODE));
    assert!(app
        .ok("list_games", json!({}))
        .as_array()
        .unwrap()
        .is_empty());
    assert!(
        notices(&app)
            .iter()
            .any(|n| n["message"].as_str().unwrap().contains("already solved")),
        "{:?}",
        notices(&app)
    );
    app.close();
}

#[test]
fn a_finish_no_move_made_is_never_settled() {
    // A journal of an older version holding a slot whose start was solved.
    let dir = TempDir::new("trust-nomove");
    {
        let paths = huarong_core::persist::Paths::new(dir.path());
        let (j, _, _) =
            huarong_core::journal::Journal::open(&paths.dir, huarong_core::fsio::real());
        journal_slide(&j, SOLVED_3X3, json!({"kind": "slide", "mode": "free"}));
        j.shutdown();
    }
    let app = TestApp::start(dir.path(), None);
    let r = app.ok("records", json!({"scope": "slide:3x3"}));
    assert!(r["best_moves"].is_null(), "{r}");
    assert_eq!(r["wins"], 0, "{r}");
    let p = app.ok("get_progress", json!({}));
    assert!(
        p["records"]
            .as_object()
            .is_none_or(|m| !m.keys().any(|k| k.starts_with("slide:3x3"))),
        "{p}"
    );
    app.close();
}

#[test]
fn an_impossible_record_in_the_file_is_repaired_at_load_with_a_notice() {
    let (dir, app) = fresh_app("trust-repair");
    // A real win first, so the file has a good copy and true statistics.
    app.ok(
        "open_game",
        json!({"id": "slide:3x3:1,2,3,4,5,6,7,0,8", "replace": true}),
    );
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    app.close();
    huarong_tests::rewrite_progress(dir.path(), |doc| {
        let p = &mut doc.progress;
        let r = p.records.entry("slide:4x4/tile".into()).or_default();
        r.rule = "tile".into();
        r.best_moves = Some(0);
        r.best_time_ms = Some(0);
        r.wins = 1;
        let r = p.records.entry("2048/moves".into()).or_default();
        r.best_tile = Some(131_072);
        r.best_score = Some(0);
    });
    let app = TestApp::start(dir.path(), None);
    let p = app.ok("get_progress", json!({}));
    let r = &p["records"]["slide:4x4/tile"];
    assert!(
        r["best_moves"].is_null() && r["best_time_ms"].is_null(),
        "{r}"
    );
    assert_eq!(r["wins"], 0, "{r}");
    assert!(p["records"]["2048/moves"]["best_tile"].is_null(), "{p}");
    // The real record is untouched.
    let key = format!("{}/tile", near_scope());
    assert_eq!(p["records"][key.as_str()]["best_moves"], 1, "{p}");
    let n = notices(&app);
    assert!(n.iter().any(|n| n["code"] == "records_repaired"), "{n:?}");
    app.close();
    // Repaired once, and saved: no notice the next time.
    let app = TestApp::start(dir.path(), None);
    assert!(
        !notices(&app)
            .iter()
            .any(|n| n["code"] == "records_repaired"),
        "{:?}",
        notices(&app)
    );
    app.close();
}

/// Put into a fresh data folder's journal the 3×3 won in one move (slot `slide:3x3`) with
/// `header`, and no record: what a kill between the journal and the record leaves.
fn journal_won_3x3(dir: &std::path::Path, header: Value) {
    let paths = huarong_core::persist::Paths::new(dir);
    let (j, _, _) = huarong_core::journal::Journal::open(&paths.dir, huarong_core::fsio::real());
    let mut s: huarong_engine::Session<huarong_engine::slide::Slide> =
        huarong_engine::Session::open("slide:3x3:1,2,3,4,5,6,7,0,8").unwrap();
    let mv = serde_json::from_value(json!({"tile": 8})).unwrap();
    s.play(&mv, 0).unwrap();
    assert_eq!(s.status(), huarong_engine::Status::Won);
    j.put(
        "slide:3x3",
        header,
        serde_json::to_value(s.save(0)).unwrap(),
    );
    assert!(j.flush(std::time::Duration::from_secs(10)));
    j.shutdown();
}

#[test]
fn a_win_settled_at_start_keeps_its_own_date_and_counts_once() {
    let dir = TempDir::new("trust-settle-date");
    journal_won_3x3(
        dir.path(),
        json!({"kind": "slide", "mode": "level", "finish_date": "2020-01-02", "counted_before": false}),
    );
    let app = TestApp::start(dir.path(), None);
    let p = app.ok("get_progress", json!({}));
    let key = format!("{}/tile", near_scope());
    let r = &p["records"][key.as_str()];
    assert_eq!(r["date"], "2020-01-02", "{r}");
    assert_eq!(r["wins"], 1, "{r}");
    let h = app.ok("records", json!({ "scope": near_scope() }));
    assert_eq!(h["history"][0]["date"], "2020-01-02", "{h}");
    app.close();

    // Win, undo, win again, killed before the second record: the win counted already.
    let dir = TempDir::new("trust-settle-once");
    journal_won_3x3(
        dir.path(),
        json!({"kind": "slide", "mode": "level", "counted_win": true, "counted_before": true,
               "finish_date": "2020-01-02"}),
    );
    let app = TestApp::start(dir.path(), None);
    let p = app.ok("get_progress", json!({}));
    assert_eq!(p["records"][key.as_str()]["wins"], 0, "{p}");
    assert_eq!(p["records"][key.as_str()]["best_moves"], 1, "{p}");
    assert_eq!(
        app.ok("records", json!({ "scope": near_scope() }))["wins"],
        0
    );
    app.close();
}

#[test]
fn a_finish_remembers_its_date_and_count_for_a_later_settle() {
    // The journal header of a finished game names its finish (played through the app).
    let (dir, app) = fresh_app("trust-header");
    app.ok(
        "open_game",
        json!({"id": "slide:3x3:1,2,3,4,5,6,7,0,8", "replace": true}),
    );
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    app.ok("undo", json!({"kind": "slide"}));
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    assert_eq!(
        app.ok("records", json!({ "scope": near_scope() }))["wins"],
        1
    );
    app.close();
    let paths = huarong_core::persist::Paths::new(dir.path());
    let (_j, slots, _) =
        huarong_core::journal::Journal::open(&paths.dir, huarong_core::fsio::real());
    let s = slots.iter().find(|s| s.header["kind"] == "slide").unwrap();
    assert_eq!(
        s.header["finish_date"],
        huarong_tests::today(),
        "{}",
        s.header
    );
    assert_eq!(s.header["counted_before"], true, "{}", s.header);
}

#[test]
fn g2048_at_its_2048_tile_is_unfinished_for_replacing() {
    let (_d, app) = fresh_app("trust-keep-going");
    let v = app.ok(
        "open_game",
        json!({"id": "2048:1024,1024,0,0,0,0,0,0,0,0,0,0,0,0,0,0#1", "replace": true}),
    );
    let kind = v["snapshot"]["kind"].clone();
    let v = app.ok("play", json!({"kind": kind, "mv": {"dir": "left"}}));
    assert_eq!(v["snapshot"]["status"], "won", "{v}");
    // Before "keep going" the game can go on: opening its slot anew asks first.
    let again = json!({"id": "2048:1024,1024,0,0,0,0,0,0,0,0,0,0,0,0,0,0#1"});
    assert_eq!(app.err("open_game", again.clone()), "would_replace");
    assert_eq!(app.snap("snapshot", json!({"kind": kind}))["moves"], 1);
    // Kept going, it plays on; replacing it is the player's choice.
    app.ok("play", json!({"kind": kind, "mv": {"keep_going": true}}));
    let mut again_r = again.clone();
    again_r["replace"] = json!(true);
    app.ok("open_game", again_r);
    app.close();
}

#[test]
fn migration_keeps_the_old_games_until_the_journal_holds_them() {
    let dir = TempDir::new("trust-migrate");
    let app = TestApp::start(dir.path(), None);
    app.ok("set_screen", json!({"screen": "home"}));
    app.close();
    let game = json!({
        "version": 1, "id": "slide:3x3:1,2,3,4,0,5,7,8,6", "log": [{"t": "move", "m": {"tile": 5}}],
        "cursor": 1, "elapsed_ms": 1234
    });
    huarong_tests::store_old_slide_game(dir.path(), &game, |doc| doc.progress.current.clear());
    // The games folder cannot be written: a file stands where it should be.
    let games = dir.path().join("games");
    let _ = std::fs::remove_dir_all(&games);
    std::fs::write(&games, b"not a folder").unwrap();
    let app = TestApp::start(dir.path(), None);
    let st = app.state();
    let _ = st.flush(std::time::Duration::from_secs(3));
    st.shutdown();
    drop(app);
    std::fs::remove_file(&games).unwrap();
    let app = TestApp::start(dir.path(), None);
    let s = app.ok("snapshot", json!({"kind": "slide"}));
    assert_eq!(s["snapshot"]["id"], "slide:3x3:1,2,3,4,0,5,7,8,6", "{s}");
    assert_eq!(s["snapshot"]["moves"], 1, "{s}");
    app.close();
}

/// A `side`×`side` RGB PNG (stored deflate blocks), for the card's photo.
fn photo_png(side: u32) -> Vec<u8> {
    use huarong_core::journal::crc32;
    fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
        out.extend((data.len() as u32).to_be_bytes());
        let mut c = kind.to_vec();
        c.extend_from_slice(data);
        out.extend_from_slice(&c);
        out.extend(crc32(0, &c).to_be_bytes());
    }
    let mut raw = Vec::new();
    for y in 0..side {
        raw.push(0u8);
        for x in 0..side {
            raw.extend([(x * 255 / side) as u8, (y * 255 / side) as u8, 140]);
        }
    }
    let mut z = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = raw.chunks(65_535).collect();
    for (i, b) in blocks.iter().enumerate() {
        z.push((i + 1 == blocks.len()) as u8);
        z.extend((b.len() as u16).to_le_bytes());
        z.extend((!(b.len() as u16)).to_le_bytes());
        z.extend_from_slice(b);
    }
    let (mut a, mut b) = (1u32, 0u32);
    for &x in &raw {
        a = (a + x as u32) % 65_521;
        b = (b + a) % 65_521;
    }
    z.extend((b << 16 | a).to_be_bytes());
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = side.to_be_bytes().to_vec();
    ihdr.extend(side.to_be_bytes());
    ihdr.extend([8, 2, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"IDAT", &z);
    chunk(&mut out, b"IEND", &[]);
    out
}

fn b64(bytes: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for c in bytes.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            s.push(if i <= c.len() {
                T[(n >> (18 - 6 * i) & 63) as usize] as char
            } else {
                '='
            });
        }
    }
    s
}

#[test]
fn a_card_of_a_puzzle_with_the_players_own_photo_shows_the_photo() {
    // The code leaves the photo out (it never travels), the page sends it
    // with the card, and the card used to refuse it ("not a picture puzzle").
    let (_d, app) = fresh_app("trust-photo-card");
    let photo = format!("data:image/png;base64,{}", b64(&photo_png(160)));
    app.ok("save_picture", json!({"data": photo}));
    app.ok(
        "open_game",
        json!({"id": "slide:3x3/picture:custom:1,2,3,4,5,6,7,0,8"}),
    );
    let won = app.snap("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    assert_eq!(won["status"], "won", "{won}");
    let code = app.ok("encode_code", json!({"id": won["id"]}))["code"].clone();
    let card = json!({"code": code, "lang": "en", "moves": 1, "seconds": 3,
                      "board": won["board"], "picture": photo});
    let url = app.ok("card_image", json!({"card": card}));
    assert!(
        url.as_str().unwrap().starts_with("data:image/png;base64,"),
        "{url}"
    );
    let mut plain = card.clone();
    plain.as_object_mut().unwrap().remove("picture");
    let without = app.ok("card_image", json!({"card": plain}));
    assert_ne!(url, without, "the photo is on the card");
}
