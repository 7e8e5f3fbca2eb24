//! End-to-end play: levels won by drags, a Klotski piece dragged around a corner in one
//! move, a number-slide run dragged as one line move, 2048 swipes and keys, undo/redo,
//! hint, auto-solve to the end and stopping it. Harness: `e2e_support`.

mod e2e_support;

use e2e_support::*;
use serde_json::json;
use std::time::Duration;

#[test]
fn e2e_slide_won_by_drags_following_the_finger() {
    e2e_test("slide_drags", async |driver| {
        let (app, _) = driver.launch_open("slide:3x3:1,2,3,4,0,6,7,5,8").await;
        let cell = app.cell_px().await;
        assert!(cell > 40.0);
        // Drag 5 up, stopping half-way with the finger down: the tile follows the finger.
        let r5 = app.rect("[data-tile='5']").await;
        app.press_and_move(&[(r5.cx(), r5.cy()), (r5.cx(), r5.cy() - cell * 0.5)], 5)
            .await;
        let mid = app.rect("[data-tile='5']").await;
        assert!(
            (r5.y - mid.y - cell * 0.5).abs() < 4.0,
            "tile follows the finger: {} → {}",
            r5.y,
            mid.y
        );
        // …and a sideways wobble does not move it off its line.
        assert!((mid.x - r5.x).abs() < 0.5);
        app.press_and_move(
            &[
                (r5.cx(), r5.cy() - cell * 0.5),
                (r5.cx() + 10.0, r5.cy() - cell * 0.8),
            ],
            3,
        )
        .await;
        app.release().await;
        let b = app.wait_moves_change(0).await;
        assert_eq!(b.state, "3x3:1,2,3,4,5,6,7,0,8");
        // A drag that goes back before release snaps back and is no move.
        let r8 = app.rect("[data-tile='8']").await;
        app.drag(
            &[
                (r8.cx(), r8.cy()),
                (r8.cx() - cell * 0.6, r8.cy()),
                (r8.cx() - 3.0, r8.cy()),
            ],
            4,
        )
        .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(
            app.board().await.unwrap().moves,
            1,
            "a drag taken back is no move"
        );
        // Drag 8 left into the blank: solved.
        app.drag_el("[data-tile='8']", &[(-cell * 0.3, 0.0), (-cell * 0.9, 0.0)])
            .await;
        let b = app.wait_moves_change(1).await;
        assert_eq!((b.status.as_str(), b.moves), ("won", 2));
        app.wait_finish().await;
        app.shot("play-slide-won").await;
        app.quit().await;
    });
}

#[test]
fn e2e_slide_run_dragged_as_one_line_move() {
    e2e_test("slide_run", async |driver| {
        // Blank at the left of the bottom row: dragging 8 pushes 7 and 8 together.
        let (app, _) = driver.launch_open("slide:3x3:1,2,3,4,5,6,0,7,8").await;
        let cell = app.cell_px().await;
        let r7 = app.rect("[data-tile='7']").await;
        let r8 = app.rect("[data-tile='8']").await;
        app.press_and_move(&[(r8.cx(), r8.cy()), (r8.cx() - cell * 0.5, r8.cy())], 5)
            .await;
        let m7 = app.rect("[data-tile='7']").await;
        let m8 = app.rect("[data-tile='8']").await;
        assert!(
            (r7.x - m7.x - cell * 0.5).abs() < 4.0,
            "the whole run follows: 7 moved {}",
            r7.x - m7.x
        );
        assert!(
            (r8.x - m8.x - cell * 0.5).abs() < 4.0,
            "the whole run follows: 8 moved {}",
            r8.x - m8.x
        );
        app.press_and_move(
            &[(r8.cx() - cell * 0.5, r8.cy()), (r8.cx() - cell, r8.cy())],
            3,
        )
        .await;
        app.release().await;
        let b = app.wait_moves_change(0).await;
        assert_eq!(b.state, "3x3:1,2,3,4,5,6,7,8,0");
        assert_eq!(b.status, "won");
        assert_eq!(
            app.invoked("play").await,
            1,
            "one command for the whole run"
        );
        let snap = app.invoke("snapshot", json!({ "kind": "slide" })).await;
        assert_eq!(
            snap["snapshot"]["counters"]["line"],
            json!(1),
            "one line move: {snap}"
        );
        assert_eq!(
            snap["snapshot"]["counters"]["tile"],
            json!(2),
            "two tile moves: {snap}"
        );
        assert_eq!(b.moves, 2, "the default rule counts tile moves");
        app.quit().await;
    });
}

#[test]
fn e2e_klotski_corner_drag_is_one_move() {
    e2e_test("klotski_corner", async |driver| {
        let (app, b) = driver.launch_open("klotski:aCCb/aCCb/cdde/cs.e/t..u").await;
        assert_eq!(b.game, "klotski");
        assert_eq!(piece_at(&b.state, 's'), (3, 1));
        let cell = app.cell_px().await;
        // Down one cell, then right one cell, finger held: the piece is around the corner.
        let r = app.rect("[data-piece='s']").await;
        let (x0, y0) = (r.cx(), r.cy());
        app.press_and_move(&[(x0, y0), (x0, y0 + cell), (x0 + cell, y0 + cell)], 6)
            .await;
        let mid = app.rect("[data-piece='s']").await;
        assert!(
            (mid.x - r.x - cell).abs() < 3.0 && (mid.y - r.y - cell).abs() < 3.0,
            "piece followed around the corner: {:?} → {:?}",
            r,
            mid
        );
        // A finger pulled over another piece does not drag the piece through it.
        app.press_and_move(&[(x0 + cell, y0 + cell), (x0 + cell, y0 - cell)], 4)
            .await;
        let over = app.rect("[data-piece='s']").await;
        assert!(over.y >= r.y - 1.0, "the piece stays out of d: {:?}", over);
        app.press_and_move(
            &[(x0 + cell, y0 - cell), (x0 + cell * 1.1, y0 + cell * 1.05)],
            4,
        )
        .await;
        app.release().await;
        let after = app.wait_moves_change(0).await;
        assert_eq!(piece_at(&after.state, 's'), (4, 2), "{}", after.state);
        assert_eq!(after.moves, 1, "around the corner in one drag is one move");
        assert_eq!(app.invoked("play").await, 1, "one play command");
        assert!(app.invoked("klotski_targets").await >= 1);
        // Keyboard: the focused piece moves with the arrows (one cell, if it can go there).
        app.js("document.querySelector(\"[data-piece='s']\").focus()")
            .await;
        app.key(keys::LEFT).await;
        let k = app.wait_state_change(&after.state).await;
        assert_eq!(piece_at(&k.state, 's'), (4, 1), "{}", k.state);
        // The same piece again continues the same move (the standard count).
        assert_eq!(k.moves, 1);
        app.key(keys::UP).await; // (3, 1) is free again: up works
        let k2 = app.wait_state_change(&k.state).await;
        assert_eq!(piece_at(&k2.state, 's'), (3, 1), "{}", k2.state);
        // A key toward a piece is blocked: nothing changes.
        app.key(keys::UP).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(app.board().await.unwrap().state, k2.state);
        app.quit().await;
    });
}

#[test]
fn e2e_klotski_level_won_by_drags() {
    e2e_test("klotski_win", async |driver| {
        // k blocks the exit; one drag moves it aside, a second drag takes 曹操 out.
        let (app, _) = driver.launch_open("klotski:abde/fghi/jCCl/mCCo/p.k.").await;
        let cell = app.cell_px().await;
        app.drag_el("[data-piece='k']", &[(cell * 0.5, 0.0), (cell * 0.95, 0.0)])
            .await;
        let b = app.wait_moves_change(0).await;
        assert_eq!(piece_at(&b.state, 'k'), (4, 3));
        // A tap on a piece that cannot move is blocked: no move.
        app.click("[data-piece='a']").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(app.board().await.unwrap().moves, 1);
        app.drag_el("[data-piece='C']", &[(0.0, cell * 0.5), (0.0, cell)])
            .await;
        let b = app.wait_moves_change(1).await;
        assert_eq!((b.status.as_str(), b.moves), ("won", 2));
        app.wait_finish().await;
        app.shot("play-klotski-won").await;
        app.quit().await;
    });
}

#[test]
fn e2e_2048_swipe_keys_undo_redo() {
    e2e_test("g2048", async |driver| {
        let start = "2,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0";
        let (app, b0) = driver.launch_open(&format!("2048:{start}#5")).await;
        assert_eq!(b0.game, "2048");
        assert_eq!(b0.state, start);
        assert_eq!(
            app.js("return document.querySelectorAll('.cell[data-value]').length")
                .await,
            json!(16)
        );
        // Swipe left, starting outside the board (anywhere on the play area counts).
        let area = app.rect(".play-area").await;
        let board = app.rect(".board").await;
        let y = board.y + board.h * 0.5;
        app.drag(
            &[(area.x + area.w - 8.0, y), (area.x + area.w - 160.0, y)],
            6,
        )
        .await;
        let b1 = app.wait_moves_change(0).await;
        assert_eq!(b1.moves, 1);
        assert_eq!(
            app.js("return document.querySelector('.cell').dataset.value")
                .await,
            json!("4"),
            "2+2 merged at the left"
        );
        let score = app
            .js("return document.querySelector('[data-stat=score]').textContent")
            .await;
        assert_eq!(score, json!("4"));
        assert_eq!(
            b1.state.split(',').filter(|v| *v != "0").count(),
            2,
            "one new tile spawned: {}",
            b1.state
        );
        // A short vertical-ish wobble is not a swipe.
        app.drag(
            &[
                (board.cx(), board.cy()),
                (board.cx() + 6.0, board.cy() + 8.0),
            ],
            3,
        )
        .await;
        tokio::time::sleep(Duration::from_millis(250)).await;
        assert_eq!(app.board().await.unwrap().moves, 1);
        // Undo, redo (same spawn: the random stream is part of the state).
        app.click("[data-action='undo']").await;
        let u = app.wait_moves_change(1).await;
        assert_eq!(u.state, start);
        app.key('z').await; // nothing left to undo: blocked, no change
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(app.board().await.unwrap().state, start);
        app.click("[data-action='redo']").await;
        let r = app.wait_moves_change(0).await;
        assert_eq!(r.state, b1.state);
        // Arrow keys: Z undoes, Y redoes.
        app.js("document.querySelector('.board').focus()").await;
        let moved = app
            .key_until_moved(&[keys::DOWN, keys::RIGHT, keys::UP], 150)
            .await;
        assert!(moved, "an arrow key moved");
        assert_eq!(app.board().await.unwrap().moves, 2, "one arrow-key move");
        app.key('z').await;
        let z = app.wait_moves_change(2).await;
        assert_eq!(z.state, b1.state);
        app.key('y').await;
        assert_eq!(app.wait_moves_change(1).await.moves, 2);
        app.shot("play-2048").await;
        app.quit().await;
    });
}

#[test]
fn e2e_hint_and_auto_solve() {
    e2e_test("hint_solve", async |driver| {
        let (app, _) = driver.launch_open("slide:3x3:4,1,3,7,2,5,8,6,0").await;
        // Hint: a tile lights up and the live region says which.
        app.click("[data-action='hint']").await;
        let hinted = app
            .wait_js(
                "const t = document.querySelector('.hinted'); return t ? t.dataset.tile : null",
                20_000,
            )
            .await;
        let live = app
            .wait_js(
                "const t = document.getElementById('live').textContent; return t ? t : null",
                3000,
            )
            .await;
        assert!(
            live.as_str().unwrap().contains(hinted.as_str().unwrap()),
            "live region names the tile: {live}"
        );
        // Playing the hinted move is legal and clears the highlight.
        app.tap_tile(hinted.as_str().unwrap().parse().unwrap())
            .await;
        app.wait_moves_change(0).await;
        assert!(!app.exists(".hinted").await);
        // H asks again.
        app.key('h').await;
        app.wait_js(
            "return document.querySelector('.hinted') ? true : null",
            20_000,
        )
        .await;
        // Auto-solve to the end.
        app.click("[data-action='solve']").await;
        let b = app.wait_js(
            "const b = document.querySelector('[data-game]'); return b.dataset.status === 'won' ? b.dataset.moves : null",
            60_000,
        ).await;
        assert!(b.as_str().unwrap().parse::<u32>().unwrap() >= 2);
        app.wait_finish().await;
        let flags = app
            .js("const f = document.querySelector('.fin-flags'); return f ? f.textContent : ''")
            .await;
        assert!(
            !flags.as_str().unwrap().is_empty(),
            "the finish screen says the machine solved it"
        );
        let p = app.invoke("get_progress", json!({})).await;
        let rec = p["records"].get("slide:3x3/tile");
        assert!(
            rec.map(|r| r["best_moves"].is_null()).unwrap_or(true),
            "auto-solved games set no record: {p}"
        );
        app.quit().await;

        // Stop: a longer board; the moves stop changing and the game goes on.
        let (app, _) = driver.launch_open("slide:4x4/medium#5").await;
        app.click("[data-action='solve']").await;
        app.wait_js("const b = document.querySelector('[data-game]'); return Number(b.dataset.moves) >= 3 ? true : null", 60_000).await;
        app.click("[data-action='solve']").await; // the same button is Stop now
        tokio::time::sleep(Duration::from_millis(700)).await;
        let m1 = app.board().await.unwrap();
        tokio::time::sleep(Duration::from_millis(1200)).await;
        let m2 = app.board().await.unwrap();
        assert_eq!(m1, m2, "auto-solve stopped");
        assert_eq!(m2.status, "playing");
        assert!(!app
            .js("return document.querySelector('[data-action=undo]').disabled")
            .await
            .as_bool()
            .unwrap());
        app.quit().await;

        // Klotski auto-solve plays the optimal solution: 捷足先登 in 32 moves.
        let (app, b0) = driver.launch_open("klotski:sCCt/uCCv/.aa./bcde/bcde").await;
        if b0.game == "klotski" {
            app.click("[data-action='solve']").await;
            let moves = app.wait_js(
                "const b = document.querySelector('[data-game]'); return b.dataset.status === 'won' ? b.dataset.moves : null",
                120_000,
            ).await;
            assert_eq!(moves, json!("32"), "optimal under the piece count");
        }
        app.quit().await;
    });
}
