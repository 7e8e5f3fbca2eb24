//! End-to-end in the app: the Klotski layout editor reached from Klotski's levels,
//! a layout built by taps, its verdict (valid, solvable, the optimum the engine computes), its
//! share code decoding to the same layout, then played and solved by taps on the game board,
//! each move from a hint, in exactly the optimum. Harness: `e2e_support`; screenshots
//! `tests/e2e/out/editor-*.png`.

mod e2e_support;

use e2e_support::*;
use huarong_engine::klotski::layout::{check_pieces, Shape};
use huarong_engine::klotski::{solve, Metric};
use huarong_engine::Cancel;
use serde_json::json;

fn shape_name(s: Shape) -> &'static str {
    match s {
        Shape::Cao => "cao",
        Shape::Vertical => "vertical",
        Shape::Horizontal => "horizontal",
        Shape::Soldier => "soldier",
    }
}

/// The editor's verdict line: (valid, solvable, optimal, error) as its data-* hooks say.
async fn verdict(app: &App) -> serde_json::Value {
    app.wait_js(
        "const s = document.querySelector('[data-editor-status]');
         return s && s.dataset.checking === undefined && s.dataset.valid !== undefined
           ? { valid: s.dataset.valid, solvable: s.dataset.solvable, optimal: s.dataset.optimal, error: s.dataset.error, text: s.textContent }
           : null;",
        10_000,
    )
    .await
}

#[test]
fn e2e_klotski_editor_builds_solves_and_shares_a_layout() {
    e2e_home("klotski_editor", async |_driver, app| {
        let pieces = huarong_tests::editor_layout();
        let board = check_pieces(&pieces).expect("a valid layout");
        let body = board.to_rows();
        let optimal = solve(&board, Metric::Piece, &Cancel::new())
            .expect("a search")
            .expect("solvable")
            .moves
            .len() as u64;

        app.click_to("[data-action='play-klotski']", "levels").await;
        app.click_to("[data-action='klotski-editor']", "klotski-editor")
            .await;
        let v = verdict(app).await;
        assert_eq!(v["error"], "no_cao_cao", "{v}");
        app.shot("editor-empty").await;

        for (i, p) in pieces.iter().enumerate() {
            app.click(&format!("[data-tool='{}']", shape_name(p.shape)))
                .await;
            app.click(&format!("[data-cell='{},{}']", p.row, p.col))
                .await;
            app.wait_js(
                &format!(
                    "return document.querySelectorAll('[data-placed]').length === {} ? true : null",
                    i + 1
                ),
                10_000,
            )
            .await;
            let v = verdict(app).await;
            if i + 1 < pieces.len() {
                assert_eq!(v["valid"], "false", "after {} pieces: {v}", i + 1);
            }
        }
        let v = verdict(app).await;
        assert_eq!(
            (
                v["valid"].clone(),
                v["solvable"].clone(),
                v["optimal"].clone()
            ),
            (json!("true"), json!("true"), json!(optimal.to_string())),
            "{v}"
        );
        let id = app
            .js("return document.querySelector('[data-editor-board]').dataset.id")
            .await;
        assert_eq!(id, json!(format!("klotski:{body}")));
        app.shot("editor-ready").await;

        // Share: the code decodes to this layout.
        app.click("[data-action='editor-share']").await;
        let code = app
            .wait_js(
                "const c = document.querySelector('[data-share-code]');
                 return c && c.textContent.trim().length > 4 ? c.textContent.trim() : null;",
                10_000,
            )
            .await;
        let decoded = app.invoke("decode_code", json!({ "text": code })).await;
        assert_eq!(decoded["kind"], "klotski", "{decoded}");
        let again = app
            .invoke("klotski_check", json!({ "board": decoded["board"] }))
            .await;
        assert_eq!(again["optimal"], json!(optimal), "{again}");
        app.shot("editor-shared").await;

        // Play, then solve it by taps, each move from a hint.
        app.click("[data-action='editor-play']").await;
        app.wait_screen("game").await;
        let b = app.wait_board().await;
        assert_eq!(
            (b.game.as_str(), b.state.as_str()),
            ("klotski", body.as_str())
        );
        for i in 0..optimal as u32 {
            let hint = app.invoke("hint", json!({"kind": "klotski"})).await;
            let piece = hint["mv"]["piece"].as_str().expect("a piece").to_string();
            let to = hint["mv"]["to"].clone();
            app.click(&format!("[data-game] [data-piece='{piece}']"))
                .await;
            let shown = app
                .wait_js(
                    &format!(
                        "const b = document.querySelector('[data-game][data-state]');
                         if (Number(b.dataset.moves) > {i}) return 'played';
                         return document.querySelector('[data-game] .target') ? 'markers' : null;"
                    ),
                    10_000,
                )
                .await;
            if shown == "markers" {
                let at = app
                    .js_args(
                        "const [r, c] = arguments[0];
                         const grid = document.querySelector('[data-game] .grid');
                         const g = grid.getBoundingClientRect();
                         const cell = g.width / 4;
                         const hit = [...grid.querySelectorAll('.target')].find((m) => {
                           const b = m.getBoundingClientRect();
                           return Math.abs(b.left - (g.left + c * cell)) < 2 && Math.abs(b.top - (g.top + r * cell)) < 2;
                         });
                         if (!hit) return null;
                         const b = hit.getBoundingClientRect();
                         return [b.left + b.width / 2, b.top + b.height / 2];",
                        vec![to.clone()],
                    )
                    .await;
                let xy = at.as_array().unwrap_or_else(|| panic!("no place at {to}"));
                app.tap_at(xy[0].as_f64().unwrap(), xy[1].as_f64().unwrap())
                    .await;
            }
            let b = app.wait_moves_change(i).await;
            assert_eq!(b.moves, i + 1, "move {} of {optimal}", i + 1);
        }
        let end = app.board().await.expect("the board");
        assert_eq!((end.status.as_str(), end.moves as u64), ("won", optimal));
        app.wait_finish().await;
        app.shot("editor-solved").await;
    });
}
