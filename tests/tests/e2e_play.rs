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
        app.expect_won(2, "play-slide-won").await;
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
        app.expect_won(2, "play-klotski-won").await;
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
        // Auto-solve to the end: it lives in the "more" menu and asks first.
        app.click("[data-action='more']").await;
        app.click("[data-action='solve']").await;
        app.click("[data-action='confirm']").await;
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
        app.click("[data-action='more']").await;
        app.click("[data-action='solve']").await;
        app.click("[data-action='confirm']").await;
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
            app.click("[data-action='more']").await;
            app.click("[data-action='solve']").await;
            app.click("[data-action='confirm']").await;
            let moves = app.wait_js(
                "const b = document.querySelector('[data-game]'); return b.dataset.status === 'won' ? b.dataset.moves : null",
                120_000,
            ).await;
            assert_eq!(moves, json!("32"), "optimal under the piece count");
        }
        app.quit().await;
    });
}

// ---------- the phone play loop and game slots ----------

/// In the page: watch piece `id` for `ms` ms and measure the worst overlap (px) of any two
/// Klotski pieces (each rect shrunk by 1 px, so touching is fine) in two ways:
/// - every animation frame (requestAnimationFrame), as the player sees it;
/// - every animation the board starts on the piece, stepped through 25 points of its timeline
///   (paused at each `currentTime`, rects read, then let go): frame-rate independent, so a
///   loaded machine that paints few frames still checks the whole path.
///
/// Results in `window.__ov` once `done`.
const OVERLAP_SAMPLER: &str = "
    const [id, ms] = arguments;
    const pieces = [...document.querySelectorAll('[data-piece]')];
    const me = document.querySelector(`[data-piece='${id}']`);
    const ov = { frames: 0, worst: 0, stepped: 0, steppedWorst: 0, moving: 0, done: false };
    window.__ov = ov;
    const worst = () => {
        const rs = pieces.map((p) => p.getBoundingClientRect());
        let w = 0;
        for (let i = 0; i < rs.length; i++)
            for (let j = i + 1; j < rs.length; j++) {
                const a = rs[i], b = rs[j];
                const ox = Math.min(a.right, b.right) - Math.max(a.left, b.left) - 2;
                const oy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) - 2;
                if (ox > 0 && oy > 0) w = Math.max(w, Math.min(ox, oy));
            }
        return w;
    };
    const orig = Element.prototype.animate;
    Element.prototype.animate = function (frames, opts) {
        const anim = orig.call(this, frames, opts);
        if (this === me) {
            const d = anim.effect.getTiming().duration;
            const seen = new Set();
            anim.pause();
            for (let k = 0; k <= 24; k++) {
                anim.currentTime = (d * k) / 24;
                const r = me.getBoundingClientRect();
                seen.add(`${Math.round(r.left)},${Math.round(r.top)}`);
                ov.steppedWorst = Math.max(ov.steppedWorst, worst());
                ov.stepped++;
            }
            ov.moving = Math.max(ov.moving, seen.size);
            anim.currentTime = 0;
            anim.play();
        }
        return anim;
    };
    const t0 = performance.now();
    const tick = () => {
        ov.worst = Math.max(ov.worst, worst());
        ov.frames++;
        if (performance.now() - t0 < ms) requestAnimationFrame(tick);
        else {
            Element.prototype.animate = orig;
            ov.done = true;
        }
    };
    requestAnimationFrame(tick);
    return true;";

async fn sample_overlaps(app: &App, piece: &str, ms: u64) {
    app.js_args(OVERLAP_SAMPLER, vec![json!(piece), json!(ms)])
        .await;
}

/// Wait for the sampler: (frames, worst px over frames, stepped points, worst px over them,
/// distinct positions of the piece along its animation).
async fn overlap_result(app: &App) -> (u64, f64, u64, f64, u64) {
    let v = app
        .wait_js(
            "return window.__ov && window.__ov.done ? window.__ov : null",
            10_000,
        )
        .await;
    (
        v["frames"].as_u64().unwrap(),
        v["worst"].as_f64().unwrap(),
        v["stepped"].as_u64().unwrap(),
        v["steppedWorst"].as_f64().unwrap(),
        v["moving"].as_u64().unwrap(),
    )
}

async fn check_motion(app: &App, what: &str) {
    let (frames, worst, stepped, stepped_worst, positions) = overlap_result(app).await;
    figure(&format!(
        "klotski {what}: {frames} frames sampled (worst overlap {worst:.1} px), animation stepped at {stepped} points through {positions} positions (worst {stepped_worst:.1} px)"
    ));
    assert!(
        stepped >= 25 && positions >= 10,
        "{what} was animated along a path ({positions} positions)"
    );
    assert_eq!(
        stepped_worst, 0.0,
        "no point of the {what} overlaps two pieces"
    );
    assert_eq!(worst, 0.0, "no frame of the {what} overlaps two pieces");
}

#[test]
fn e2e_klotski_l_move_and_its_undo_never_overlap() {
    e2e_test("klotski_l_motion", async |driver| {
        // Soldier s at (4,0) reaches (3,1) only around a corner: right, then up.
        let (app, b) = driver.launch_open("klotski:aCCb/aCCb/cdde/c.fe/s.gh").await;
        assert_eq!(b.moves, 0);
        let grid = app.rect(".klotski-grid").await;
        let cell = app.cell_px().await;
        // A tap on s shows its two targets; the one at (3,1) plays the L-shaped move.
        app.click("[data-piece='s']").await;
        app.wait_for(".target").await;
        sample_overlaps(&app, "s", 1500).await;
        app.tap_at(grid.x + 1.5 * cell, grid.y + 3.5 * cell).await;
        let after = app.wait_moves_change(0).await;
        assert_eq!(piece_at(&after.state, 's'), (3, 1), "{}", after.state);
        check_motion(&app, "L move").await;

        // Undo: the same L back, never through c or f.
        app.wait_at_rest("[data-piece='s']").await;
        sample_overlaps(&app, "s", 1500).await;
        app.click("[data-action=undo]").await;
        let back = app.wait_moves_change(1).await;
        assert_eq!(back.state, b.state);
        check_motion(&app, "L undo").await;
        // Redo goes the same way.
        app.wait_at_rest("[data-piece='s']").await;
        sample_overlaps(&app, "s", 1500).await;
        app.click("[data-action=redo]").await;
        app.wait_moves_change(0).await;
        check_motion(&app, "L redo").await;
        app.quit().await;
    });
}

#[test]
fn e2e_five_fast_taps_make_five_moves() {
    e2e_test("five_taps", async |driver| {
        // Blank at the bottom right; the five taps walk it left along the bottom row, then up.
        let (app, b) = driver
            .launch_open("slide:4x4:2,1,4,3,5,6,7,8,9,10,11,12,13,14,15,0")
            .await;
        assert_eq!(b.moves, 0);
        let grid = app.rect(".slide-grid").await;
        let cell = app.cell_px().await;
        let at = |r: f64, c: f64| (grid.x + (c + 0.5) * cell, grid.y + (r + 0.5) * cell);
        let taps = [
            at(3.0, 2.0),
            at(3.0, 1.0),
            at(3.0, 0.0),
            at(2.0, 0.0),
            at(1.0, 0.0),
        ];
        app.fast_taps(&taps, 30).await;
        app.wait_js(
            "const b = document.querySelector('[data-game]'); return b && b.dataset.moves === '5' ? true : null",
            10_000,
        )
        .await;
        let end = app.board().await.unwrap();
        assert_eq!(
            end.state, "4x4:2,1,4,3,0,6,7,8,5,10,11,12,9,13,14,15",
            "each tap played in order"
        );
        assert_eq!(app.invoked("play").await, 5, "five taps, five plays");
        app.quit().await;
    });
}

#[test]
fn e2e_new_game_asks_first_then_gives_a_new_board() {
    e2e_home("new_game", async |_, app| {
        app.click_to("[data-action='play-slide']", "levels").await;
        app.click("[data-size='3x3'][data-diff='random']").await;
        let b0 = app.wait_board().await;
        // No moves yet: nothing to lose, no question.
        let id0 = app
            .js("return document.querySelector('[data-game]').dataset.id")
            .await;
        app.click("[data-action=new]").await;
        let b1 = app
            .wait_js(
                &format!("const b = document.querySelector('[data-game]'); return b && b.dataset.id !== {id0} ? b.dataset.id : null"),
                10_000,
            )
            .await;
        assert!(!app.exists("[data-dialog=confirm]").await);
        let b = app.tap_moves(1).await;
        assert!(b.state.starts_with("3x3:") && b0.state.starts_with("3x3:"));
        // With a move: the dialog; cancel keeps the game.
        app.click("[data-action=new]").await;
        app.wait_for("[data-dialog=confirm]").await;
        app.click("[data-dialog=confirm] [data-action=cancel]")
            .await;
        app.wait_js(
            "return document.querySelector('[data-dialog]') ? null : true",
            5000,
        )
        .await;
        assert_eq!(app.board().await.unwrap(), b);
        // Back closes the dialog too, and keeps the game.
        app.click("[data-action=new]").await;
        app.wait_for("[data-dialog=confirm]").await;
        app.history_back().await;
        app.wait_js(
            "return document.querySelector('[data-dialog]') ? null : true",
            5000,
        )
        .await;
        assert_eq!(app.screen().await, "game");
        assert_eq!(app.board().await.unwrap(), b);
        // Confirm: a new 3×3 board, no moves.
        app.click("[data-action=new]").await;
        app.wait_for("[data-dialog=confirm]").await;
        app.click("[data-dialog=confirm] [data-action=confirm]")
            .await;
        let fresh = app.wait_moves_change(1).await;
        assert_eq!(fresh.moves, 0);
        assert!(fresh.state.starts_with("3x3:"));
        let id = app
            .js("return document.querySelector('[data-game]').dataset.id")
            .await;
        assert_ne!(id, b1, "a new seed");
        // Home, levels, game: three entries (the dialog's is gone).
        assert_eq!(app.nav_depth().await, 3);
    });
}

#[test]
fn e2e_history_back_returns_where_the_game_came_from() {
    e2e_home("history_back", async |_, app| {
        assert_eq!(
            app.nav_depth().await,
            1,
            "home: nothing to go back to (back leaves the app)"
        );
        app.click_to("[data-action='play-slide']", "levels").await;
        app.click("[data-size='3x3'][data-diff='random']").await;
        app.wait_board().await;
        let b = app.tap_moves(2).await;
        app.history_back().await;
        app.wait_screen("levels").await;
        app.history_back().await;
        app.wait_screen("home").await;
        assert_eq!(app.nav_depth().await, 1);
        // The game was kept: continue shows it, undo history included.
        app.click_to("[data-action='continue-slide']", "game").await;
        let again = app.wait_board().await;
        assert_eq!(again, b);
        // Opened from home, so back goes home.
        app.history_back().await;
        app.wait_screen("home").await;
        // Settings and the code screen go back the same way.
        app.click_to("[data-action='settings']", "settings").await;
        app.history_back().await;
        app.wait_screen("home").await;
        assert_eq!(app.nav_depth().await, 1);
    });
}

#[test]
fn e2e_famous_level_opens_in_one_tap_from_a_fresh_start() {
    e2e_home("hengdao", async |_, app| {
        app.click_to("[data-action='play-klotski']", "levels").await;
        let levels = app.invoke("levels", json!({ "kind": "klotski" })).await;
        let list = levels["levels"]
            .as_array()
            .cloned()
            .unwrap_or_else(|| levels.as_array().cloned().unwrap());
        let famous = list
            .iter()
            .find(|l| l["name_zh"] == json!("横刀立马"))
            .expect("横刀立马 is a level");
        let css = format!("[data-level='{}']", famous["index"]);
        assert!(
            app.js_args(
                "return !document.querySelector(arguments[0]).disabled",
                vec![json!(css)]
            )
            .await
            .as_bool()
            .unwrap(),
            "横刀立马 is open from the first start"
        );
        app.click_to(&css, "game").await;
        let id = app
            .js("return document.querySelector('[data-game]').dataset.id")
            .await;
        assert_eq!(id, famous["id"]);
        // Its pieces carry the traditional names.
        let names = app
            .js("return [...document.querySelectorAll('[data-piece]')].map((p) => p.getAttribute('aria-label')).join('|')")
            .await;
        assert!(names.as_str().unwrap().contains("Cao Cao"), "{names}");
    });
}

#[test]
fn e2e_2048_pad_plays_through_the_same_play() {
    e2e_home("g2048_pad", async |_, app| {
        app.click_to("[data-action='play-2048']", "levels").await;
        app.click("[data-action='new-2048']").await;
        app.wait_board().await;
        assert!(
            !app.exists("[data-action=dir-left]").await,
            "the pad is off by default"
        );
        app.history_back().await;
        app.wait_screen("levels").await;
        app.history_back().await;
        app.wait_screen("home").await;
        app.click_to("[data-action='settings']", "settings").await;
        app.click("#set-pad").await;
        app.wait_js("return window.__huarongPerf.invokes.some((x) => x[0] === 'set_settings') ? true : null", 5000).await;
        let s = app.invoke("get_settings", json!({})).await;
        assert_eq!(s["pad"], json!(true));
        app.history_back().await;
        app.wait_screen("home").await;
        app.click_to("[data-action='play-2048']", "levels").await;
        app.click("[data-action='new-2048']").await;
        app.wait_for("[data-action=dir-left]").await;
        let before = app.wait_board().await;
        let plays = app.invoked("play").await;
        let mut expect = plays;
        for dir in ["left", "up", "right", "down"] {
            app.click(&format!("[data-action=dir-{dir}]")).await;
            expect += 1;
            app.wait_js(
                &format!("return window.__huarongPerf.invokes.filter((x) => x[0] === 'play').length >= {expect} ? true : null"),
                5000,
            )
            .await;
        }
        app.wait_js(
            &format!("return window.__huarongPerf.invokes.filter((x) => x[0] === 'play').length === {} ? true : null", plays + 4),
            5000,
        )
        .await;
        let after = app.board().await.unwrap();
        assert!(
            after.moves >= 1 && after.state != before.state,
            "the pad moved the tiles"
        );
    });
}

#[test]
fn e2e_new_user_story_keeps_both_games() {
    e2e_home("new_user_story", async |_, app| {
        // Play 2048 a while, go home, tap today's 2048 challenge, go back: the first game is
        // still there, and "continue" shows it.
        app.click_to("[data-action='play-2048']", "levels").await;
        app.click("[data-action='new-2048']").await;
        app.wait_board().await;
        let keys = [keys::LEFT, keys::UP, keys::RIGHT, keys::DOWN];
        for _ in 0..6 {
            assert!(app.key_until_moved(&keys, 150).await, "a 2048 move");
        }
        let first = app.board().await.unwrap();
        assert!(first.moves >= 6);
        let first_id = app
            .js("return document.querySelector('[data-game]').dataset.id")
            .await;
        app.history_back().await;
        app.wait_screen("levels").await;
        app.history_back().await;
        app.wait_screen("home").await;
        app.click_to("[data-action='daily-2048']", "game").await;
        let daily = app.wait_board().await;
        let daily_id = app
            .js("return document.querySelector('[data-game]').dataset.id")
            .await;
        assert_ne!(daily_id, first_id, "the daily is another game");
        assert_eq!(daily.moves, 0);
        app.history_back().await;
        app.wait_screen("home").await;
        // Both games are kept, each in its slot.
        let slots = app.invoke("list_games", json!({})).await;
        let rows = slots.as_array().expect("list_games is a list");
        let free = rows
            .iter()
            .find(|r| r["id"] == first_id)
            .expect("the first game's slot");
        assert_eq!(free["moves"], json!(first.moves));
        assert!(
            rows.iter()
                .any(|r| r["id"] == daily_id && r["mode"] == json!("daily")),
            "{slots}"
        );
        // Continue shows the first game, moves and board as left.
        let label = app
            .js("return document.querySelector('[data-action=continue-2048]').textContent")
            .await;
        assert!(
            label.as_str().unwrap().contains(&first.moves.to_string()),
            "{label}"
        );
        app.click_to("[data-action='continue-2048']", "game").await;
        assert_eq!(app.wait_board().await, first);
        // Home folds the unfinished games into each game's card: the 2048 card's
        // Continue is this very slot (no second "unfinished" row repeats it), and the 0-move
        // daily is no unfinished game.
        app.history_back().await;
        app.wait_screen("home").await;
        let css = format!(
            "[data-action=continue-2048][data-slot='{}']",
            free["slot"].as_str().unwrap()
        );
        assert!(
            !app.exists(&format!(
                "[data-action=resume][data-slot='{}']",
                free["slot"].as_str().unwrap()
            ))
            .await,
            "the continued game is not listed twice"
        );
        app.click_to(&css, "game").await;
        assert_eq!(app.wait_board().await, first);
    });
}
