//! End-to-end: racing a friend's ghost in the real app (WebKitGTK). A 3×3 played by taps a
//! player's pause apart on the app's test clock and shared (`result_code`) keeps its move
//! times: `decode_code.times_ms` are the recorded times (`splits.times_ms`) within 10 ms. That
//! code opened: `[data-ghost]` is idle until the first move; then every 250 ms through the
//! race `data-ghost-moves` is the number of the sender's moves timed ≤ the elapsed time (the
//! core's clock read just before and after) within one move, on `replay`'s board; a split
//! chip (`[data-split]`) shows at the first split and the finish lists the race split by split
//! (`[data-race]`). Screenshots `tests/e2e/screenshots/<size>-<lang>-light-ghost-{race,finish}.png`
//! at 390×844 in English and 360×780 in Chinese. Harness: `e2e_support`.

mod e2e_support;

use e2e_support::*;
use huarong_engine::code::Extra;
use serde_json::{json, Value};
use std::time::Duration;

/// A 3×3 twelve single taps from solved, and those taps.
const BOARD_ID: &str = "slide:3x3:2,3,6,1,0,7,4,8,5";
const TAPS: [u32; 12] = [7, 5, 8, 7, 5, 6, 3, 2, 1, 4, 7, 8];

fn u64s(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not a list: {v}"))
        .iter()
        .map(|x| x.as_u64().expect("a time"))
        .collect()
}

async fn tap_line(app: &App, taps: &[u32]) {
    for &t in taps {
        let before = app.board().await.expect("a board").moves;
        app.tap_tile(t).await;
        app.wait_moves_change(before).await;
    }
}

async fn elapsed(app: &App) -> u64 {
    app.invoke("snapshot", json!({ "kind": "slide" })).await["snapshot"]["elapsed_ms"]
        .as_u64()
        .expect("elapsed_ms")
}

fn race(name: &str, lang: &str, (w, h): (u32, u32), tag: &'static str) {
    e2e_test_lang(name, lang, async move |driver| {
        let share = huarong_core::share::encode_code(BOARD_ID, Extra::default(), None)
            .expect("a share code")
            .code;
        let (app, _) = driver.launch_open(&share).await;
        app.set_viewport(w, h).await;
        app.invoke("set_settings", json!({ "settings": { "name": "Mei" } }))
            .await;
        tap_line(&app, &TAPS).await;
        app.wait_finish().await;
        let own = app.invoke("splits", json!({ "kind": "slide" })).await;
        let t = u64s(&own["times_ms"]);
        let recorded: Vec<u64> = t.iter().map(|x| x - t[0]).collect();
        let rc = app.invoke("result_code", json!({ "kind": "slide" })).await;
        assert_eq!(rc["times"], "moves", "{rc}");
        let code = rc["code"].as_str().expect("a code").to_string();
        let dec = app.invoke("decode_code", json!({ "text": code })).await;
        let got = u64s(&dec["times_ms"]);
        assert_eq!(got.len(), recorded.len());
        for (a, b) in got.iter().zip(&recorded) {
            assert!(
                a.abs_diff(*b) <= 10,
                "decode_code {got:?} against {recorded:?}"
            );
        }

        // The friend's side: the code opened on the game screen.
        app.invoke("open_game", json!({ "id": code, "replace": true }))
            .await;
        app.invoke("set_screen", json!({ "screen": "game:slide" }))
            .await;
        app.reload().await;
        app.wait_board().await;
        app.wait_js(
            "return document.querySelector('[data-ghost] .pv-item') ? true : null",
            10_000,
        )
        .await;
        let views = app.invoke("replay", json!({ "code": code })).await["views"].clone();
        let ghost = "const g = document.querySelector('[data-ghost]');
             return g ? { state: g.dataset.ghostState, moves: Number(g.dataset.ghostMoves),
               cells: [...g.querySelectorAll('.pv-item')].map((c) => (c.textContent === '' ? 0 : Number(c.textContent))) } : null;";
        let g = app.js(ghost).await;
        assert_eq!(
            (&g["state"], &g["moves"]),
            (&json!("idle"), &json!(0)),
            "{g}"
        );
        tokio::time::sleep(Duration::from_millis(800)).await;
        let g = app.js(ghost).await;
        assert_eq!(g["state"], "idle", "still idle before the first move: {g}");

        tap_line(&app, &TAPS[..1]).await;
        let end = got[got.len() - 1] + 800;
        let upto = |ms: u64| got.iter().filter(|&&t| t <= ms).count() as i64;
        let mut shot = false;
        let mut samples = 0;
        loop {
            let e0 = elapsed(&app).await;
            let g = app.js(ghost).await;
            let e1 = elapsed(&app).await;
            let k = g["moves"].as_i64().expect("data-ghost-moves");
            assert!(
                k >= upto(e0) - 1 && k <= upto(e1) + 1,
                "{tag}: at {e0}-{e1} ms the ghost has {k} moves of {got:?}"
            );
            let want: Vec<u64> = u64s(&views[k as usize]["tiles"]);
            assert_eq!(
                u64s(&g["cells"]),
                want,
                "{tag}: the ghost's board after {k} moves"
            );
            samples += 1;
            if !shot && k as usize >= got.len() / 2 {
                shot = true;
                app.shot(&format!("{tag}-light-ghost-race")).await;
            }
            if e0 > end {
                break;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        eprintln!("{tag}: {samples} samples 250 ms apart, the ghost within one move");

        tap_line(&app, &TAPS[1..TAPS.len() - 1]).await;
        app.wait_for("[data-ghost] [data-split]").await;
        tap_line(&app, &TAPS[TAPS.len() - 1..]).await;
        app.wait_js(
            "return document.querySelector('[data-finish] [data-race] [data-race-split]') ? true : null",
            20_000,
        )
        .await;
        app.js("document.querySelector('[data-finish] [data-race]').scrollIntoView({ block: 'center' });")
            .await;
        tokio::time::sleep(Duration::from_millis(700)).await;
        app.shot(&format!("{tag}-light-ghost-finish")).await;
        app.quit().await;
    })
}

#[test]
fn a_friends_ghost_races_beside_the_game_en() {
    race("e2e_ghost_en", "en_US.UTF-8", (390, 844), "390x844-en");
}

#[test]
fn a_friends_ghost_races_beside_the_game_zh() {
    race("e2e_ghost_zh", "zh_CN.UTF-8", (360, 780), "360x780-zh");
}
