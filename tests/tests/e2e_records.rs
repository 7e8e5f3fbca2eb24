//! End-to-end, issue 16 UI: the records screen after wins (numbers as `records` says, marked
//! finishes), the post-game analysis chart after a 3×3 win (lost moves), a share code with a
//! result (code screen, game, finish comparison, sharing encodes the player's own result) and a
//! picture puzzle (`data-picture`, tiles showing their part, numbers toggle). Screenshots at
//! 390×844 in both languages. Harness: `e2e_support`.

mod e2e_support;

use e2e_support::*;
use serde_json::{json, Value};

const NEAR_WIN: &str = "slide:3x3:1,2,3,4,5,6,7,0,8";

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

#[test]
fn e2e_records_and_analysis_after_3x3_wins() {
    e2e_test(
        "e2e_records_and_analysis_after_3x3_wins",
        async |d: &Driver| {
            let app = launch_phone(d).await;
            for lang in ["en", "zh"] {
                set_language(&app, lang).await;
                app.invoke("open_game", json!({ "id": NEAR_WIN, "replace": true }))
                    .await;
                show(&app, "game:slide").await;
                // 7 right, 7 back, 8: three moves where one was enough (distances 2, 1, 0).
                tap_and_wait(&app, 7).await;
                tap_and_wait(&app, 7).await;
                app.tap_tile(8).await;
                app.wait_for("[data-finish='won']").await;
                app.wait_for("[data-analysis='done'] [data-chart='analysis']")
                    .await;
                let a = app.invoke("analysis", json!({ "kind": "slide" })).await;
                assert_eq!(a["distances"], json!([2, 1, 0]), "{a}");
                assert_eq!(a["lost"], json!([1]));
                assert_eq!(
                    attr(&app, "[data-chart='analysis']", "data-lost")
                        .await
                        .as_deref(),
                    Some("1")
                );
                assert_eq!(
                    attr(&app, "[data-lost-count]", "data-lost-count")
                        .await
                        .as_deref(),
                    Some("1")
                );
                assert_eq!(
                    attr(&app, "[data-worst]", "data-worst").await.as_deref(),
                    Some("1-1:1")
                );
                let dots = app
                .js("return document.querySelectorAll(\"[data-chart='analysis'] .dot.lost\").length")
                .await;
                assert_eq!(dots, json!(1), "one lost move marked");
                let line = text(&app, "[data-worst]").await;
                assert!(line.contains('1'), "{line}");
                settle(&app).await;
                app.shot(&format!("390x844-{lang}-analysis")).await;

                if lang == "en" {
                    // A win with undo: fewer moves, but marked and never a best.
                    app.click("[data-finish] [data-action='again']").await;
                    app.wait_js(
                    "const b = document.querySelector('[data-game][data-state]'); return b && b.dataset.status === 'playing' && !document.querySelector('[data-finish]') ? true : null;",
                    10_000,
                )
                .await;
                    tap_and_wait(&app, 7).await;
                    app.click("[data-action='undo']").await;
                    app.wait_moves_change(1).await;
                    app.tap_tile(8).await;
                    app.wait_for("[data-finish='won']").await;
                }
                app.click_to("[data-finish] [data-action='records']", "records")
                    .await;
                app.wait_for("[data-chart='history']").await;
                let r = app.invoke("records", json!({ "scope": "slide:3x3" })).await;
                let hist = r["history"].as_array().unwrap().clone();
                assert_eq!(r["best_moves"], 3, "the undo game never sets the best: {r}");
                let wins = r["wins"].as_u64().unwrap();
                assert_eq!(wins, if lang == "en" { 2 } else { 3 });
                assert_eq!(
                    text(&app, "[data-rec='wins'] .stat-value").await,
                    format!("{} / {}", wins, r["plays"])
                );
                assert_eq!(text(&app, "[data-rec='best_moves'] .stat-value").await, "3");
                assert_eq!(
                    text(&app, "[data-rec='best_ms'] .stat-value").await,
                    time_text(r["best_ms"].as_u64().unwrap())
                );
                assert_eq!(
                    attr(&app, "[data-history]", "data-history").await,
                    Some(hist.len().to_string())
                );
                assert_eq!(
                    attr(&app, "[data-chart='history']", "data-count").await,
                    Some(hist.len().min(30).to_string())
                );
                // Newest first: each row's moves and clean flag as Rust has them.
                let rows: Vec<Value> = serde_json::from_value(
                app.js("return [...document.querySelectorAll('[data-finish-row]')].map((r) => [r.children[1].textContent, r.dataset.clean, r.querySelectorAll('[data-mark=undo]').length]);")
                    .await,
            )
            .unwrap();
                assert_eq!(rows.len(), hist.len());
                for (row, e) in rows.iter().zip(hist.iter().rev()) {
                    assert_eq!(row[0], json!(e["moves"].to_string()), "{row} {e}");
                    let clean = e["clean"] == true;
                    assert_eq!(row[1], json!(if clean { "1" } else { "0" }));
                    assert_eq!(row[2], json!(if e["undo_used"] == true { 1 } else { 0 }));
                }
                if lang == "en" {
                    assert_eq!(hist.last().unwrap()["undo_used"], true);
                    assert_eq!(rows[0][2], json!(1), "the undo game is marked");
                }
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
                        json!({ "id": NEAR_WIN, "moves": 5, "ms": 203_400 }),
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
                app.click_to("[data-action='open']", "game").await;
                app.wait_for(".game-side [data-challenge='5:203400']:not([hidden])")
                    .await;
                assert!(text(&app, ".game-side [data-challenge]")
                    .await
                    .contains("3:23.4"));
                settle(&app).await;
                app.shot(&format!("390x844-{lang}-challenge-game")).await;
                app.tap_tile(8).await;
                app.wait_for("[data-finish='won'] [data-beaten='true']")
                    .await;
                settle(&app).await;
                app.shot(&format!("390x844-{lang}-challenge-finish")).await;
                if lang == "en" {
                    // Sharing a won game sends the player's own result as the challenge.
                    app.click("[data-finish] [data-action='share']").await;
                    app.wait_for("[data-finish][data-shared]").await;
                    let shared = attr(&app, "[data-finish]", "data-shared").await.unwrap();
                    let dc = app.invoke("decode_code", json!({ "text": shared })).await;
                    assert_eq!(dc["id"], NEAR_WIN);
                    assert_eq!(dc["challenge"]["moves"], 1, "{dc}");
                    assert!(dc["challenge"]["ms"].is_u64());
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
                assert_eq!(v["snapshot"]["challenge"], json!({ "moves": 1, "ms": 0 }));
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
            }
            quit_without_errors(app).await;
        },
    );
}
