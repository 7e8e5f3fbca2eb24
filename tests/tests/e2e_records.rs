//! End-to-end, issue 16 UI: the records screen after real 3×3 games (numbers as `records`
//! says, averages with moves beside them, undo and hint marked), the post-game analysis of a
//! game with a detour ("moves 5–7 cost you 6 extra moves"), a share code with a
//! result (code screen, game, finish comparison, sharing encodes the player's own result) and a
//! picture puzzle (`data-picture`, tiles showing their part, numbers toggle). Screenshots at
//! 390×844 in both languages. Harness: `e2e_support`.

mod e2e_support;

use e2e_support::*;
use serde_json::{json, Value};

const NEAR_WIN: &str = "slide:3x3:1,2,3,4,5,6,7,0,8";
/// Three taps from solved (4, 7, 8): the friend's challenge is won at a player's pace, so its
/// finish shows a time a person makes (one tap's win reads 0:00.0).
const THREE_TAPS: &str = "slide:3x3:1,2,3,0,5,6,4,7,8";

/// Show a screen as a restart would (saved screen, page reloaded), then let it settle.
async fn show(app: &App, screen: &str) {
    app.invoke("set_screen", json!({ "screen": screen })).await;
    app.reload().await;
    app.wait_ready(15_000).await;
    app.wait_screen(screen.split(':').next().unwrap()).await;
    settle(app).await;
}

/// Launch to home at the screenshots' 390×844 phone size.
async fn launch_phone(d: &Driver) -> App {
    let app = d.launch_home().await;
    app.set_viewport(390, 844).await;
    app
}

/// Switch the UI language (`en`, `zh`) through the settings.
async fn set_language(app: &App, lang: &str) {
    app.invoke("set_settings", json!({ "settings": { "language": lang } }))
        .await;
}

/// Check the page reported no script error, then quit.
async fn quit_without_errors(app: App) {
    let errors = app.js("return window.__huarongErrors").await;
    assert_eq!(errors, json!([]), "no script errors");
    app.quit().await;
}

async fn settle(app: &App) {
    let _ = app.c.execute_async(
        "const done = arguments[arguments.length - 1]; document.fonts.ready.then(() => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 250))));",
        vec![],
    )
    .await;
}

async fn text(app: &App, css: &str) -> String {
    app.js_arg(
        "const e = document.querySelector(arguments[0]); return e ? e.textContent : null;",
        css,
    )
    .await
    .as_str()
    .unwrap_or_else(|| panic!("no element {css}"))
    .to_string()
}

async fn attr(app: &App, css: &str, name: &str) -> Option<String> {
    app.js_args(
        "const e = document.querySelector(arguments[0]); return e ? e.getAttribute(arguments[1]) : null;",
        vec![json!(css), json!(name)],
    )
    .await
    .as_str()
    .map(str::to_string)
}

async fn tap_and_wait(app: &App, tile: u32) {
    let moves = app.board().await.expect("board").moves;
    app.tap_tile(tile).await;
    app.wait_moves_change(moves).await;
}

fn time_text(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}.{}", s / 60, s % 60, (ms % 1000) / 100)
}

/// Five clean 3×3 wins (one with a detour of its own) before the detour game: each a start
/// board and the tiles tapped. Boards the app deals (seeded IDs), so that they count for the
/// 3×3's records (a board given as an exact ID has a scope of its own); the seeds
/// deal 1,2,3,7,4,5,8,0,6 / 1,2,3,0,7,5,8,4,6 / 1,2,3,7,4,5,0,8,6 / 1,2,3,7,0,5,8,4,6 /
/// 0,2,3,1,7,5,8,4,6.
const CLEAN_GAMES: [(&str, &[u32]); 5] = [
    ("slide:3x3#126059", &[8, 7, 4, 5, 6]),
    ("slide:3x3#346986", &[8, 8, 7, 4, 8, 7, 4, 5, 6]),
    ("slide:3x3#404461", &[7, 4, 5, 6]),
    ("slide:3x3#207139", &[4, 8, 7, 4, 5, 6]),
    ("slide:3x3#89050", &[1, 7, 4, 8, 7, 4, 5, 6]),
];

/// A 12-move 3×3 board (0,7,3,2,1,5,8,4,6, dealt by seed), played as a player might: four
/// good moves, a detour of three moves away and three back, a hint, and a move taken back
/// with undo.
const DETOUR_START: &str = "slide:3x3#320873";

/// Tap the tiles in order, each waiting for its move; the last one is not waited for.
async fn tap_all(app: &App, tiles: &[u32]) {
    for (i, &t) in tiles.iter().enumerate() {
        if i + 1 == tiles.len() {
            app.tap_tile(t).await;
        } else {
            tap_and_wait(app, t).await;
        }
    }
}

/// Open `id` on the game screen (through a reload, as a restart shows it).
async fn open_on_screen(app: &App, id: &str) {
    app.invoke("open_game", json!({ "id": id, "replace": true }))
        .await;
    show(app, "game:slide").await;
}

/// The detour game through the UI: 18 counted moves (optimum 12), hint and undo marked.
async fn play_detour_game(app: &App) {
    open_on_screen(app, DETOUR_START).await;
    tap_all(app, &[2, 1, 7, 2]).await;
    app.wait_moves_change(3).await;
    tap_all(app, &[2, 7, 4, 4, 7, 2]).await; // three away, three back
    app.wait_moves_change(9).await;
    app.click("[data-action='hint']").await;
    let hinted = app
        .wait_js(
            "const t = document.querySelector('.hinted'); return t ? t.dataset.tile : null",
            15_000,
        )
        .await;
    assert_eq!(hinted, json!("1"), "the only optimal move is hinted");
    tap_all(app, &[1, 7, 4, 6]).await; // … and 6 goes the wrong way
    app.wait_moves_change(13).await;
    app.click("[data-action='undo']").await;
    app.wait_moves_change(14).await;
    tap_all(app, &[8, 7, 4, 5, 6]).await;
    app.wait_for("[data-finish='won']").await;
    app.wait_for("[data-analysis='done'] [data-chart='analysis']")
        .await;
}

#[test]
fn e2e_records_and_analysis_of_real_games() {
    e2e_test(
        "e2e_records_and_analysis_of_real_games",
        async |d: &Driver| {
            let app = launch_phone(d).await;
            set_language(&app, "en").await;
            for (id, taps) in CLEAN_GAMES {
                open_on_screen(&app, id).await;
                tap_all(&app, taps).await;
                app.wait_for("[data-finish='won']").await;
                let b = app.board().await.unwrap();
                assert_eq!(b.moves as usize, taps.len(), "{id}");
            }
            for lang in ["en", "zh"] {
                set_language(&app, lang).await;
                play_detour_game(&app).await;
                let a = app.invoke("analysis", json!({ "kind": "slide" })).await;
                assert_eq!(a["optimal_start"], 12, "{a}");
                assert_eq!(
                    a["distances"],
                    json!([11, 10, 9, 8, 9, 10, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]),
                    "the undone move is not in the line"
                );
                assert_eq!(a["lost"], json!([5, 6, 7]));
                assert_eq!(
                    attr(&app, "[data-chart='analysis']", "data-lost")
                        .await
                        .as_deref(),
                    Some("3")
                );
                assert_eq!(
                    attr(&app, "[data-lost-count]", "data-lost-count")
                        .await
                        .as_deref(),
                    Some("3")
                );
                assert_eq!(
                    attr(&app, "[data-worst]", "data-worst").await.as_deref(),
                    Some("5-7:6")
                );
                let dots = app
                    .js("return document.querySelectorAll(\"[data-chart='analysis'] .dot.lost\").length")
                    .await;
                assert_eq!(dots, json!(3), "three lost moves marked");
                let line = text(&app, "[data-worst]").await;
                let want = if lang == "en" {
                    "Moves 5–7 cost you 6 extra moves"
                } else {
                    "第 5–7 步多走了 6 步"
                };
                assert_eq!(line, want);
                settle(&app).await;
                app.shot(&format!("390x844-{lang}-analysis")).await;

                app.click_to("[data-finish] [data-action='records']", "records")
                    .await;
                app.wait_for("[data-chart='history']").await;
                let r = app.invoke("records", json!({ "scope": "slide:3x3" })).await;
                let hist = r["history"].as_array().unwrap().clone();
                let detours = if lang == "en" { 1 } else { 2 };
                assert_eq!(hist.len(), CLEAN_GAMES.len() + detours, "{r}");
                assert_eq!(r["best_moves"], 4, "the fewest of the clean wins: {r}");
                assert_eq!(r["wins"], hist.len());
                assert_eq!(r["plays"], hist.len());
                assert!(r["ao5_ms"].is_u64(), "five clean wins make an average: {r}");
                assert!(r["ao12_ms"].is_null());
                // No average of 12 yet: its card is not shown (no empty "—" card).
                assert!(
                    !app.exists("[data-rec='ao12']").await,
                    "no ao12 card without an ao12"
                );
                let last = hist.last().unwrap();
                assert_eq!(last["moves"], 18);
                assert_eq!(last["optimal"], 12);
                assert_eq!(last["undo_used"], true);
                assert_eq!(last["hints_used"], 1);
                assert_eq!(last["clean"], false);
                assert_eq!(
                    text(&app, "[data-rec='wins'] .stat-value").await,
                    format!("{} / {}", r["wins"], r["plays"])
                );
                assert_eq!(text(&app, "[data-rec='best_moves'] .stat-value").await, "4");
                assert_eq!(
                    text(&app, "[data-rec='best_ms'] .stat-value").await,
                    time_text(r["best_ms"].as_u64().unwrap())
                );
                assert_eq!(
                    text(&app, "[data-rec='ao5'] [data-rec-value='current']").await,
                    time_text(r["ao5_ms"].as_u64().unwrap())
                );
                let moves_beside = text(&app, "[data-rec='ao5'] .rec-extra").await;
                let ao5_moves = r["ao5_moves"].as_f64().unwrap();
                assert!(
                    moves_beside.contains(&format!("{ao5_moves:.1}"))
                        || moves_beside.contains(&format!("{ao5_moves}")),
                    "{moves_beside} beside {ao5_moves}"
                );
                assert_eq!(
                    attr(&app, "[data-history]", "data-history").await,
                    Some(hist.len().to_string())
                );
                assert_eq!(
                    attr(&app, "[data-chart='history']", "data-count").await,
                    Some(hist.len().min(30).to_string())
                );
                // Newest first: each row's moves, clean flag and marks as Rust has them.
                let rows: Vec<Value> = serde_json::from_value(
                    app.js("return [...document.querySelectorAll('[data-finish-row]')].map((r) => [r.children[1].textContent, r.dataset.clean, r.querySelectorAll('[data-mark=undo]').length, r.querySelectorAll('[data-mark=hint]').length]);")
                        .await,
                )
                .unwrap();
                assert_eq!(rows.len(), hist.len());
                for (row, e) in rows.iter().zip(hist.iter().rev()) {
                    assert_eq!(row[0], json!(e["moves"].to_string()), "{row} {e}");
                    let clean = e["clean"] == true;
                    assert_eq!(row[1], json!(if clean { "1" } else { "0" }));
                    assert_eq!(row[2], json!(if e["undo_used"] == true { 1 } else { 0 }));
                    let hinted = e["hints_used"].as_u64().unwrap() > 0;
                    assert_eq!(row[3], json!(if hinted { 1 } else { 0 }));
                }
                assert_eq!(rows[0][2], json!(1), "the detour game is marked: undo");
                assert_eq!(rows[0][3], json!(1), "… and hint");
                settle(&app).await;
                app.shot(&format!("390x844-{lang}-records")).await;
            }
            // Home and the game's best open the records screen too.
            show(&app, "home").await;
            app.click_to("[data-action='records']", "records").await;
            app.wait_for("[data-chart='history']").await;
            quit_without_errors(app).await;
        },
    );
}

async fn enter_code(app: &App, code: &str) {
    app.js_arg(
        "const i = document.getElementById('code-input'); i.value = arguments[0]; i.dispatchEvent(new Event('input'));",
        code,
    )
    .await;
}

#[test]
fn e2e_challenge_code_shows_and_compares() {
    e2e_test(
        "e2e_challenge_code_shows_and_compares",
        async |d: &Driver| {
            let app = launch_phone(d).await;
            for lang in ["en", "zh"] {
                set_language(&app, lang).await;
                let c = app
                    .invoke(
                        "encode_code",
                        json!({ "id": THREE_TAPS, "moves": 5, "ms": 203_400 }),
                    )
                    .await;
                let code = c["code"].as_str().unwrap().to_string();
                show(&app, "code").await;
                enter_code(&app, &code).await;
                app.wait_for(".code-challenge[data-challenge='5:203400']:not([hidden])")
                    .await;
                let line = text(&app, ".code-challenge").await;
                assert!(line.contains('5') && line.contains("3:23.4"), "{line}");
                app.shot(&format!("390x844-{lang}-challenge-code")).await;
                // Settled: `open` has moved into the code's card, where it stays.
                app.wait_for("#code-input[data-decoded]").await;
                app.click_to("[data-action='open']", "game").await;
                app.wait_for(".game-side [data-challenge='5:203400']:not([hidden])")
                    .await;
                assert!(text(&app, ".game-side [data-challenge]")
                    .await
                    .contains("3:23.4"));
                settle(&app).await;
                app.shot(&format!("390x844-{lang}-challenge-game")).await;
                for tile in [4, 7, 8] {
                    app.tap_tile(tile).await;
                }
                app.wait_for("[data-finish='won'] [data-beaten='true']")
                    .await;
                settle(&app).await;
                app.shot(&format!("390x844-{lang}-challenge-finish")).await;
                if lang == "en" {
                    // Sharing a won game sends the player's own result as the challenge.
                    app.click("[data-finish] [data-action='send-back'], [data-finish] [data-action='share']").await;
                    app.wait_for("[data-finish][data-shared]").await;
                    let shared = attr(&app, "[data-finish]", "data-shared").await.unwrap();
                    let dc = app.invoke("decode_code", json!({ "text": shared })).await;
                    assert_eq!(dc["id"], THREE_TAPS);
                    assert_eq!(dc["challenge"]["moves"], 3, "{dc}");
                    assert!(dc["challenge"]["ms"].is_u64());
                    // The card beside it: "beat 5 moves with 3" (kept for a look, like the screenshots).
                    if let Some(saved) = attr(&app, "[data-finish]", "data-saved-to").await {
                        let png = std::fs::read(&saved).expect("the saved card");
                        std::fs::write(out_dir().join("card-en-challenge-beaten.png"), png)
                            .unwrap();
                    }
                }
                // A result that cannot be beaten (1 move in 0 ms): the finish says so.
                let c = app
                    .invoke(
                        "encode_code",
                        json!({ "id": NEAR_WIN, "moves": 1, "ms": 0 }),
                    )
                    .await;
                let v = app
                    .invoke("open_game", json!({ "id": c["code"], "replace": true }))
                    .await;
                assert_eq!(
                    v["snapshot"]["challenge"],
                    json!({ "moves": 1, "ms": 0, "name": null, "replay": false, "verified": false })
                );
                show(&app, "game:slide").await;
                app.wait_for(".game-side [data-challenge='1:0']:not([hidden])")
                    .await;
                app.tap_tile(8).await;
                app.wait_for("[data-finish='won'] [data-beaten='false']")
                    .await;
            }
            quit_without_errors(app).await;
        },
    );
}

#[test]
fn e2e_picture_puzzle_tiles_show_the_image() {
    e2e_test(
        "e2e_picture_puzzle_tiles_show_the_image",
        async |d: &Driver| {
            let app = launch_phone(d).await;
            let l = app.invoke("levels", json!({ "kind": "slide" })).await;
            assert!(l["pictures"].as_array().unwrap().len() >= 3, "{l}");
            for lang in ["en", "zh"] {
                set_language(&app, lang).await;
                show(&app, "levels:slide").await;
                app.wait_for(".pic-item[data-picture='lotus']").await;
                app.js("document.querySelector('.pictures').scrollIntoView()")
                    .await;
                settle(&app).await;
                app.shot(&format!("390x844-{lang}-picture-levels")).await;
                app.click_to(".pic-item[data-picture='lotus']", "game")
                    .await;
                app.wait_for(".board[data-picture='lotus']").await;
                let id = attr(&app, ".board", "data-id").await.unwrap();
                assert!(id.contains("/picture:lotus"), "{id}");
                // Every tile shows the picture, each at the position of its home cell, all distinct.
                let faces: Vec<Value> = serde_json::from_value(
                app.js("return [...document.querySelectorAll('.board [data-tile] .face')].map((f) => { const cs = getComputedStyle(f); return [f.parentElement.dataset.home, cs.backgroundImage, cs.backgroundPosition, cs.color]; });")
                    .await,
            )
            .unwrap();
                assert_eq!(faces.len(), 8);
                let mut positions = std::collections::BTreeSet::new();
                for f in &faces {
                    assert!(f[1].as_str().unwrap().contains("lotus.svg"), "{f}");
                    positions.insert(f[2].as_str().unwrap().to_string());
                }
                assert_eq!(positions.len(), 8, "distinct parts: {faces:?}");
                let home00 = faces.iter().find(|f| f[0] == "0,0").unwrap();
                assert_eq!(home00[2], "0% 0%");
                let home22 = faces.iter().find(|f| f[0] == "1,2").unwrap();
                assert_eq!(home22[2], "100% 50%");
                // The image the tiles use (as resolved by CSS) loads: the CSP allows it, the URL is right.
                let loaded = app
                .c
                .execute_async(
                    "const done = arguments[0]; const bg = getComputedStyle(document.querySelector('.board [data-tile] .face')).backgroundImage; const m = /url\\(\"?([^\")]+)\"?\\)/.exec(bg); if (!m) { done(0); return; } const i = new Image(); i.onload = () => done(i.naturalWidth); i.onerror = () => done(0); i.src = m[1];",
                    vec![],
                )
                .await
                .expect("image load script");
                assert!(
                    loaded.as_u64().unwrap_or(0) > 0,
                    "lotus.svg loads: {loaded}"
                );
                settle(&app).await;
                app.shot(&format!("390x844-{lang}-picture")).await;
                // The target picture: a thumbnail; held down, the whole picture covers the
                // board, and letting go takes it away.
                let thumb = app
                    .js("const i = document.querySelector('[data-action=peek] img'); return i && i.complete && i.naturalWidth > 0 ? i.getAttribute('src') : null")
                    .await;
                assert!(
                    thumb.as_str().unwrap_or("").contains("lotus.svg"),
                    "the thumbnail shows the target: {thumb}"
                );
                let r = app.rect("[data-action='peek']").await;
                app.press_and_move(&[(r.cx(), r.cy()), (r.cx() + 1.0, r.cy())], 2)
                    .await;
                app.wait_for(".board.peeking").await;
                let cover = app
                    .js("return getComputedStyle(document.querySelector('.board'), '::after').backgroundImage")
                    .await;
                assert!(
                    cover.as_str().unwrap_or("").contains("lotus.svg"),
                    "the peek shows the picture: {cover}"
                );
                app.shot(&format!("390x844-{lang}-picture-peek")).await;
                app.release().await;
                app.wait_js("return !document.querySelector('.board.peeking')", 5000)
                    .await;
                // Numbers overlaid on demand.
                app.click("[data-action='numbers']").await;
                assert_eq!(
                    attr(&app, ".board", "data-pic-numbers").await.as_deref(),
                    Some("1")
                );
                let color = app
                .js("return getComputedStyle(document.querySelector('.board [data-tile] .face')).color")
                .await;
                assert_ne!(color, json!("rgba(0, 0, 0, 0)"), "numbers visible");
                settle(&app).await;
                app.shot(&format!("390x844-{lang}-picture-numbers")).await;
                app.click("[data-action='numbers']").await;

                // A 12-move lotus board won and shared: the card's tiles show the picture.
                open_on_screen(&app, "slide:3x3/picture:lotus:0,7,3,2,1,5,8,4,6").await;
                app.wait_for(".board[data-picture='lotus']").await;
                tap_all(&app, &[2, 1, 7, 2, 1, 7, 4, 8, 7, 4, 5, 6]).await;
                app.wait_for("[data-finish='won']").await;
                app.click(
                    "[data-finish] [data-action='send-back'], [data-finish] [data-action='share']",
                )
                .await;
                app.wait_for("[data-finish][data-shared]").await;
                assert_eq!(
                    attr(&app, "[data-finish]", "data-card-picture")
                        .await
                        .as_deref(),
                    Some("1"),
                    "the card got the picture"
                );
                if let Some(saved) = attr(&app, "[data-finish]", "data-saved-to").await {
                    let png = std::fs::read(&saved).expect("the saved card");
                    assert!(png.starts_with(b"\x89PNG"), "{saved}");
                    std::fs::write(out_dir().join(format!("card-{lang}-picture.png")), png)
                        .unwrap();
                }
            }
            // Any picture at any size 3×3…6×6: the size chips on the level screen.
            show(&app, "levels:slide").await;
            app.click("[data-action='pic-side'][data-side='5']").await;
            assert_eq!(
                attr(&app, ".pic-item[data-picture='koi']", "data-params")
                    .await
                    .as_deref(),
                Some("5x5/picture:koi")
            );
            app.click_to(".pic-item[data-picture='koi']", "game").await;
            app.wait_for(".board[data-picture='koi'][data-pic-size='5']")
                .await;
            let faces = app
                .js("return document.querySelectorAll('.board [data-tile] .face').length")
                .await;
            assert_eq!(faces, json!(24));
            let v = app.invoke("snapshot", json!({ "kind": "slide" })).await;
            assert_eq!(v["snapshot"]["slot"], "slide:5x5/picture", "{v}");
            settle(&app).await;
            app.shot("390x844-zh-picture-5x5").await;
            quit_without_errors(app).await;
        },
    );
}

/// A friend's result codes for today's daily fill the friends' board on home; a
/// result code with its move log shows who sent it and that it was verified, and its replay
/// plays, pauses and steps on the replay screen (the analysis chart's cursor following it).
#[test]
fn e2e_share_loop_friends_board_and_replay() {
    e2e_test(
        "e2e_share_loop_friends_board_and_replay",
        async |d: &Driver| {
            use huarong_engine::code::{self, Challenge, Extra, Sender};
            use huarong_engine::Game;
            let app = launch_phone(d).await;
            let info = app.invoke("daily_info", json!({})).await;
            let n = info["number"].as_u64().unwrap() as u32;
            let daily = info["slide"].as_str().unwrap().to_string();
            let friend = |name: &str, moves: u32, ms: u64| {
                code::encode_result(
                    &daily,
                    Extra {
                        daily: Some(n),
                        classic: None,
                    },
                    Challenge::new(moves, ms).unwrap(),
                    &Sender {
                        name: Some(name.to_string()),
                        log: None,
                    },
                )
                .unwrap()
            };
            // A 3×3 solve with its log: a verified result to watch.
            let start = "slide:3x3:4,1,3,7,2,6,5,8,0";
            let parsed = huarong_engine::GameId::parse(start).unwrap();
            let mut g = huarong_engine::slide::Slide::from_id(&parsed.body, parsed.seed).unwrap();
            let sol = g.solve(&huarong_engine::Cancel::new()).unwrap();
            for m in &sol {
                g.apply(m).unwrap();
            }
            let log: Vec<Value> = sol
                .iter()
                .map(|m| serde_json::to_value(m).unwrap())
                .collect();
            let result = code::encode_result(
                start,
                Extra::default(),
                Challenge::new(g.moves(), 41_300).unwrap(),
                &Sender {
                    name: Some("Mei".into()),
                    log: Some(log.clone()),
                },
            )
            .unwrap();
            // Today's daily solved (optimally), to finish it on screen.
            let dparsed = huarong_engine::GameId::parse(&daily).unwrap();
            let dg = huarong_engine::slide::Slide::from_id(&dparsed.body, dparsed.seed).unwrap();
            let dsol = dg.solve(&huarong_engine::Cancel::new()).unwrap();
            for lang in ["en", "zh"] {
                set_language(&app, lang).await;
                app.invoke("set_settings", json!({ "settings": { "name": "Ann" } }))
                    .await;
                for (name, moves, ms) in [
                    ("Mei", 58, 95_200),
                    ("Bo", 71, 64_000),
                    ("小明", 66, 120_500),
                ] {
                    app.invoke(
                        "open_game",
                        json!({ "id": friend(name, moves, ms), "replace": true }),
                    )
                    .await;
                }
                show(&app, "home").await;
                app.wait_for(".today .friends [data-friend='Mei']").await;
                let ranks = app
                    .js("return [...document.querySelectorAll(\".today .friend[data-me='0']\")].map(e => e.dataset.friend)")
                    .await;
                assert_eq!(ranks, json!(["Mei", "小明", "Bo"]), "best first");
                settle(&app).await;
                app.shot(&format!("390x844-{lang}-friends-home")).await;

                // The daily's finish: the board with the player ranked among friends.
                app.invoke("open_game", json!({ "id": daily, "replace": true }))
                    .await;
                for mv in &dsol[..dsol.len() - 1] {
                    app.invoke("play", json!({ "kind": "slide", "mv": mv }))
                        .await;
                }
                show(&app, "game:slide").await;
                app.tap_tile(u32::from(dsol.last().unwrap().tile)).await;
                app.wait_for("[data-finish='won'] .friends [data-me='1']")
                    .await;
                let mine = app
                    .js("return document.querySelector(\"[data-finish] .friends [data-me='1']\").dataset.rank")
                    .await;
                assert_eq!(mine, json!("1"), "an optimal solve leads the board");
                settle(&app).await;
                app.shot(&format!("390x844-{lang}-daily-finish-friends"))
                    .await;

                // The result code: who sent it, verified, and its replay.
                show(&app, "code").await;
                enter_code(&app, &result).await;
                app.wait_for("[data-action='watch-replay']:not([hidden])")
                    .await;
                // Settled: the code's card shown above the buttons, which stay put now.
                app.wait_for("#code-input[data-decoded]").await;
                // Who sent it is the card's title; the result, once, in the card, verified.
                let card = text(&app, "[data-code-card]").await;
                assert!(card.contains("Mei"), "{card}");
                let line = text(&app, "[data-code-card] .code-challenge").await;
                assert!(line.contains('✓') && line.contains("0:41.3"), "{line}");
                settle(&app).await;
                app.shot(&format!("390x844-{lang}-result-code")).await;
                app.click_to("[data-action='watch-replay']", "replay").await;
                app.wait_for("[data-replay] .board").await;
                let at = "return document.querySelector('[data-replay-at]').dataset.replayAt";
                assert_eq!(app.js(at).await, json!("0"));
                app.click("[data-action='replay-step']").await;
                assert_eq!(app.js(at).await, json!("1"));
                app.click("[data-action='replay-step']").await;
                app.click("[data-action='replay-step-back']").await;
                assert_eq!(app.js(at).await, json!("1"));
                let cursor = app
                    .js("return document.querySelector(\"[data-chart='analysis']\").dataset.cursor")
                    .await;
                // The counter and the chart share one axis, the moves of the replayed log:
                // after one step the cursor is at the log's first move.
                assert_eq!(cursor, json!("1"), "the chart's cursor follows the counter");
                app.click("[data-action='replay-speed']").await;
                assert_eq!(
                    app.js(
                        "return document.querySelector('[data-action=replay-speed]').dataset.speed"
                    )
                    .await,
                    json!("2")
                );
                app.click("[data-action='replay-play']").await;
                app.wait_js(
                    "const a = Number(document.querySelector('[data-replay-at]').dataset.replayAt); return a >= 3 ? a : null",
                    10_000,
                )
                .await;
                app.click("[data-action='replay-pause']").await;
                let paused = app.js(at).await;
                app.js("return new Promise(r => setTimeout(() => r(1), 900))")
                    .await;
                assert_eq!(app.js(at).await, paused, "paused stays");
                settle(&app).await;
                app.shot(&format!("390x844-{lang}-replay")).await;
                // To the end: the last board is solved.
                for _ in 0..sol.len() {
                    app.click("[data-action='replay-step']").await;
                }
                assert_eq!(app.js(at).await, json!(sol.len().to_string()));
                // Replaying changed nothing: the player's slide game is still the last friend's.
                let games = app.invoke("list_games", json!({})).await;
                assert!(
                    games.as_array().unwrap().iter().all(|g| g["id"] != start),
                    "{games}"
                );
            }
            quit_without_errors(app).await;
        },
    );
}
