//! End-to-end, issue 32: the win moment in the real app (WebKitGTK). Games won by taps and
//! drags — a 3×3 and an easy 4×4 played optimally, the 47-move 4×4, a Klotski and a 2048 win —
//! each play their board's celebration (`[data-celebration]`, an animation of at least 300 ms)
//! before the finish dialog, which then tells one truth: `data-stars="3"` with three lit stars
//! (2048: none), the optimum in `[data-fin="optimal"]`, `[data-fin="time"]`'s `data-ms` equal to
//! the time `records {scope}` recorded; its title wholly on screen, exactly one primary action
//! in view, nothing out of view sideways. The 47-move board reaches three stars and 47 within
//! 20 s. A finish made while the optimum is still being searched (the 80-move board, its search
//! parked by `pause`) is `data-stars="pending"` ("finding the best solution…", no grey stars)
//! and becomes final in place, here without stars when the search gives up at its budget.
//! Screenshots of every finish variant — win, pending and final, 2048 won and lost, a friend's
//! challenge beaten and not, today's daily among friends, Klotski — at 390×844 in both
//! languages and both themes (`tests/e2e/screenshots/390x844-<lang>-<theme>-finish-*.png`),
//! each audited the same way. (The pending optimum that arrives and lights three stars in place
//! is shown deterministically by the web suite, `tests/web/finish.mjs`, and the core tests,
//! `app_finish.rs`.) Harness: `e2e_support`.

mod e2e_support;

use e2e_support::*;
use huarong_engine::code::{self, Challenge, Extra, Sender};
use huarong_engine::{Cancel, Game, GameId};
use serde_json::{json, Value};

const THREE: &str = "slide:3x3:4,1,3,7,2,6,5,8,0";
const EASY: &str = "slide:4x4/easy#7";
const FORTY_SEVEN: &str = "slide:4x4:3,8,15,0,1,9,6,5,11,13,14,4,10,12,2,7";
/// The four 80-move 4×4 boards of the engine's hard list (`slide/hard4x4.tsv`): their optimum
/// is far past the background search's 10 s budget. One for each language and theme: a game
/// whose search failed once is not searched again (so it is never pending again).
const HARDEST: [&str; 4] = [
    "slide:4x4:0,12,9,13,15,11,10,14,3,7,2,5,4,8,6,1",
    "slide:4x4:0,12,10,13,15,11,14,9,3,7,2,5,4,8,6,1",
    "slide:4x4:0,12,9,13,15,11,10,14,3,7,5,6,4,8,2,1",
    "slide:4x4:0,12,9,13,15,11,10,14,7,8,5,6,4,3,2,1",
];
/// 曹操 one step from the exit (a board no table knows: its optimum is searched).
/// The two-from-solved 3×3 the friends' challenges are sent on.
const CHALLENGED: &str = "slide:3x3:1,2,3,4,5,6,0,7,8";
/// The record scope the core files a game ID's finishes under: an exact board keeps a scope
/// of its own (issue 35), a dealt one its size's.
fn scope(id: &str) -> String {
    huarong_core::records::scope_of_id(id).expect("a record scope")
}
const KLOTSKI: &str = "klotski:abde/fghi/jCCl/mCCo/p..k";
/// Two 1024s side by side: `left` makes 2048.
const WIN_2048: &str = "2048:1024,1024,0,0,0,2,0,0,0,0,4,0,0,0,0,2#3";
/// One move from the end: `left` fills the last gap and nothing can merge any more.
const LOSE_2048: &str = "2048:2,4,2,4,4,2,4,2,2,4,2,128,16,32,0,64#3";

/// In-page watcher of animations: the longest one running while `[data-celebration]` is in
/// the DOM, and whether it was. Installed before the winning move (a reload removes it).
const WATCH: &str = r#"
const m = { seen: false, kind: '', longest: 0 };
window.__celebration = m;
const tick = () => {
  const c = document.querySelector('[data-celebration]');
  if (c) {
    m.seen = true;
    m.kind = c.dataset.celebration;
    for (const a of document.getAnimations()) {
      if (a.playState !== 'running' || !a.effect) continue;
      const d = Number(a.effect.getComputedTiming().duration) || 0;
      if (d > m.longest) m.longest = d;
    }
  }
  if (window.__celebration === m) requestAnimationFrame(tick);
};
requestAnimationFrame(tick);
return true;
"#;

/// The finish dialog as a player sees it: `[title whole, big number whole, stars whole,
/// primary actions in view, things sticking out sideways]`.
const LAYOUT: &str = r#"
const W = innerWidth, H = innerHeight;
const shown = (e) => {
  if (!e) return null;
  const r = e.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return null;
  let box = { top: Math.max(r.top, 0), bottom: Math.min(r.bottom, H), left: Math.max(r.left, 0), right: Math.min(r.right, W) };
  for (let p = e.parentElement; p; p = p.parentElement) {
    const cs = getComputedStyle(p);
    if (/(auto|scroll|hidden|clip)/.test(cs.overflowY + cs.overflowX)) {
      const q = p.getBoundingClientRect();
      box = { top: Math.max(box.top, q.top), bottom: Math.min(box.bottom, q.bottom), left: Math.max(box.left, q.left), right: Math.min(box.right, q.right) };
    }
  }
  return { whole: box.top <= r.top + 0.5 && box.bottom >= r.bottom - 0.5 && box.left <= r.left + 0.5 && box.right >= r.right - 0.5, any: box.bottom - box.top > 1 && box.right - box.left > 1 };
};
const d = document.querySelector('[data-finish]');
const wide = [...d.querySelectorAll('*')].filter((e) => { const b = e.getBoundingClientRect(); return b.width > 0 && (b.left < -0.5 || b.right > W + 0.5); }).map((e) => e.className);
for (const e of d.querySelectorAll('*')) if (e.scrollWidth > e.clientWidth + 1 && /(auto|scroll)/.test(getComputedStyle(e).overflowX)) wide.push(`scrolls sideways: ${e.className}`);
if (document.documentElement.scrollWidth > W + 1) wide.push('the page');
const primaries = [...document.querySelectorAll('.btn.primary')].filter((e) => { const s = shown(e); return s && s.any; }).map((e) => e.dataset.action);
const t = shown(document.getElementById('finish-title'));
const big = shown(d.querySelector('.fin-big'));
const stars = shown(d.querySelector('.fin-stars'));
return [!!(t && t.whole), !!(big && big.whole), !!(stars && stars.whole), primaries, wide];
"#;

/// The verdict the dialog shows: `{stars, lit, optimal, ms, time, big}`.
const VERDICT: &str = r#"
const d = document.querySelector('[data-finish]');
if (!d) return null;
const opt = d.querySelector('[data-fin="optimal"] .stat-value');
const time = d.querySelector('[data-fin="time"]');
return {
  stars: d.dataset.stars === undefined ? null : d.dataset.stars,
  lit: d.querySelectorAll('.fin-stars .star.on').length,
  shown: d.querySelectorAll('.fin-stars .star').length,
  finding: !!d.querySelector('.fin-finding'),
  optimal: opt ? opt.textContent.trim() : null,
  ms: time ? Number(time.dataset.ms) : null,
  time: time ? time.querySelector('.stat-value').textContent.trim() : null,
  big: d.querySelector('.fin-big .stat-value').textContent.trim(),
  kind: d.dataset.game,
};
"#;

fn time_text(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}.{}", s / 60, s % 60, (ms % 1000) / 100)
}

/// An optimal line of tile taps of a number slide `id`, by the engine's solver.
fn slide_line(id: &str) -> (String, Vec<u32>) {
    let p = GameId::parse(id).expect("a game ID");
    let start = huarong_engine::slide::Slide::from_id(&p.body, p.seed).expect("a number slide");
    let sol = huarong_engine::slide::solve(start.board(), &Cancel::new()).expect("a solution");
    assert!(sol.optimal);
    (
        start.board_body(),
        sol.tiles.iter().map(|&t| u32::from(t)).collect(),
    )
}

/// A quick line of tile taps (not the fewest moves) of a number slide `id`.
fn quick_line(id: &str) -> Vec<u32> {
    use huarong_engine::slide::{solve_weighted, Limit, Weight};
    let p = GameId::parse(id).expect("a game ID");
    let start = huarong_engine::slide::Slide::from_id(&p.body, p.seed).expect("a number slide");
    let found = solve_weighted(start.board(), Weight::Three, &Limit::NONE, &Cancel::new())
        .expect("a search")
        .and_then(|f| f.tiles)
        .expect("a line");
    found.iter().map(|&t| u32::from(t)).collect()
}

async fn settle(app: &App) {
    let _ = app.c.execute_async(
        "const done = arguments[arguments.length - 1]; document.fonts.ready.then(() => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 250))));",
        vec![],
    )
    .await;
}

/// Show `screen` as a restart would (saved screen, reloaded page).
async fn show(app: &App, screen: &str) {
    app.invoke("set_screen", json!({ "screen": screen })).await;
    app.reload().await;
    app.wait_screen(screen.split(':').next().unwrap()).await;
    settle(app).await;
}

/// Tap `tiles` in turn, each waiting for its move; the last one (the win) is not waited for.
async fn tap_line(app: &App, tiles: &[u32]) {
    for (i, &t) in tiles.iter().enumerate() {
        let moves = app.board().await.expect("a board").moves;
        app.tap_tile(t).await;
        if i + 1 < tiles.len() {
            app.wait_moves_change(moves).await;
        }
    }
}

/// The celebration played (its kind, an animation of at least 300 ms), then the dialog.
async fn celebrated(app: &App, kind: &str, what: &str) {
    app.wait_js(
        "return document.querySelector('[data-finish]') && !document.querySelector('[data-celebration]') ? true : null",
        15_000,
    )
    .await;
    let m = app.js("return window.__celebration").await;
    assert_eq!(m["seen"], json!(true), "{what}: no celebration: {m}");
    assert_eq!(m["kind"], json!(kind), "{what}: {m}");
    assert!(
        m["longest"].as_f64().unwrap_or(0.0) >= 300.0,
        "{what}: the celebration's longest animation: {m}"
    );
}

/// The dialog's layout as a player sees it (see [`LAYOUT`]).
async fn audit_dialog(app: &App, what: &str, stars: bool) {
    let v = app.js(LAYOUT).await;
    assert_eq!(
        v[0],
        json!(true),
        "{what}: the title is not wholly on screen"
    );
    assert_eq!(v[1], json!(true), "{what}: the big number is not on screen");
    if stars {
        assert_eq!(v[2], json!(true), "{what}: the stars are not on screen");
    }
    assert_eq!(
        v[3],
        json!(["share"]),
        "{what}: the primary actions in view"
    );
    assert_eq!(v[4], json!([]), "{what}: out of view sideways");
}

/// Wait (≤ `limit_ms`) until the dialog shows `stars` stars and the optimum `optimal`; check
/// its time is the newest row of `records {scope}`, to the millisecond and as text.
async fn verdict(
    app: &App,
    what: &str,
    scope: &str,
    stars: Option<u32>,
    optimal: Option<u32>,
    limit_ms: u64,
) -> Value {
    let want_stars = stars.map(|s| s.to_string());
    let want_opt = optimal.map(|o| o.to_string());
    let v = app
        .wait_js(
            &format!(
                "const v = (() => {{ {VERDICT} }})(); return v && v.stars === {} && (v.optimal === {} || {}) ? v : null;",
                json!(want_stars),
                json!(want_opt),
                want_opt.is_none()
            ),
            limit_ms,
        )
        .await;
    if let Some(s) = stars {
        assert_eq!(v["lit"], json!(s), "{what}: {v}");
        assert_eq!(v["shown"], json!(3), "{what}: {v}");
    } else {
        assert_eq!(v["shown"], json!(0), "{what}: no stars for this game: {v}");
    }
    let rec = app.invoke("records", json!({ "scope": scope })).await;
    let row = rec["history"]
        .as_array()
        .and_then(|h| h.last())
        .cloned()
        .unwrap_or_else(|| panic!("{what}: no records row: {rec}"));
    assert_eq!(
        v["ms"], row["ms"],
        "{what}: the dialog's time vs the record: {v} {row}"
    );
    if v["time"].is_string() {
        assert_eq!(
            v["time"],
            json!(time_text(row["ms"].as_u64().unwrap())),
            "{what}"
        );
    }
    if let Some(o) = optimal {
        assert_eq!(row["optimal"], json!(o), "{what}: {row}");
    }
    v
}

async fn shot_to_screenshots(app: &App, name: &str) {
    // The dialog at rest: stars that just arrived have popped in.
    app.wait_js(
        "const d = document.querySelector('[data-finish]'); return !d || d.getAnimations({ subtree: true }).every((a) => a.playState !== 'running' || a.effect.getComputedTiming().iterations === Infinity);",
        5_000,
    )
    .await;
    settle(app).await;
    let out = app.shot(name).await;
    let keep = workspace_root()
        .join("tests/e2e/screenshots")
        .join(format!("{name}.png"));
    std::fs::copy(&out, &keep).expect("keep the screenshot");
}

/// Hold the celebration that is playing at `at_ms` of its timeline (every one of its
/// animations paused there), shoot it for a look, and let it play on.
async fn hold_celebration(app: &App, at_ms: u32, name: &str) {
    app.wait_js(
        "return document.querySelector('[data-celebration]') && document.getAnimations().some((a) => a.id === 'celebrate' || a.id === 'win') ? true : null",
        10_000,
    )
    .await;
    app.js_args(
        "const t = arguments[0]; window.__held = document.getAnimations().filter((a) => a.id === 'celebrate' || a.id === 'win');
         for (const a of window.__held) { a.pause(); const e = a.effect.getComputedTiming(); a.currentTime = Math.min(t, e.endTime - 1); } return true;",
        vec![json!(at_ms)],
    )
    .await;
    let out = app.shot(name).await;
    let keep = workspace_root()
        .join("tests/e2e/screenshots")
        .join(format!("{name}.png"));
    std::fs::copy(&out, &keep).expect("keep the screenshot");
    app.js("for (const a of window.__held || []) a.play(); return true;")
        .await;
}

/// Play an optimal line on the screen by taps (all of it when `by_taps`, else all but the last
/// move through the core, from another screen, and the last by a tap).
async fn slide_win(app: &App, id: &str, by_taps: bool) -> Vec<u32> {
    let (_, line) = slide_line(id);
    app.invoke("open_game", json!({ "id": id, "replace": true }))
        .await;
    if by_taps {
        show(app, "game:slide").await;
        app.js(WATCH).await;
        tap_line(app, &line).await;
    } else {
        show(app, "home").await;
        for t in &line[..line.len() - 1] {
            app.invoke("play", json!({ "kind": "slide", "mv": { "tile": t } }))
                .await;
        }
        show(app, "game:slide").await;
        app.js(WATCH).await;
        app.tap_tile(*line.last().unwrap()).await;
    }
    line
}

/// The checks of the issue for one language at 360×780: the 3×3 and the easy 4×4 by taps, the
/// 47-move board, a Klotski and a 2048 win.
async fn wins_at_360(app: &App, lang: &str) {
    let tag = format!("360x780 {lang}");
    for (id, by_taps) in [(THREE, true), (EASY, true), (FORTY_SEVEN, false)] {
        let what = format!("{tag} {id}");
        let line = slide_win(app, id, by_taps).await;
        celebrated(app, "slide", &what).await;
        audit_dialog(app, &what, false).await;
        let n = line.len() as u32;
        let v = verdict(app, &what, &scope(id), Some(3), Some(n), 20_000).await;
        assert_eq!(v["big"], json!(n.to_string()), "{what}: {v}");
        audit_dialog(app, &what, true).await;
        figure(&format!(
            "e2e finish {what}: {n} moves, three stars, {}",
            v["time"]
        ));
    }
    // Klotski: 曹操 dragged out through the exit.
    let what = format!("{tag} klotski");
    app.invoke("open_game", json!({ "id": KLOTSKI, "replace": true }))
        .await;
    show(app, "game:klotski").await;
    app.js(WATCH).await;
    let cell = app.cell_px().await;
    app.drag_el("[data-piece='C']", &[(0.0, cell * 0.5), (0.0, cell)])
        .await;
    celebrated(app, "klotski", &what).await;
    let board = KLOTSKI.trim_start_matches("klotski:");
    verdict(
        app,
        &what,
        &format!("klotski:{board}"),
        Some(3),
        Some(1),
        20_000,
    )
    .await;
    audit_dialog(app, &what, true).await;
    // 2048: the winning tile bursts; the score is the big number, no stars.
    let what = format!("{tag} 2048");
    app.invoke("open_game", json!({ "id": WIN_2048, "replace": true }))
        .await;
    show(app, "game:2048").await;
    app.js(WATCH).await;
    app.key(keys::LEFT).await;
    celebrated(app, "2048", &what).await;
    let v = verdict(app, &what, &scope(WIN_2048), None, None, 10_000).await;
    assert_eq!(v["stars"], Value::Null, "{what}: {v}");
    assert_eq!(
        v["big"],
        json!("2048"),
        "{what}: the score is the big number: {v}"
    );
    audit_dialog(app, &what, false).await;
}

/// Every finish variant at 390×844 in `lang` and `theme`, each shot and audited.
async fn variants(app: &App, lang: &str, theme: &str, round: usize) {
    let name = |v: &str| format!("390x844-{lang}-{theme}-finish-{v}");
    // A win.
    slide_win(app, THREE, true).await;
    let shots = round == 0 || round == 3;
    if shots {
        hold_celebration(app, 520, &name("celebration-slide")).await;
    }
    celebrated(app, "slide", &name("win")).await;
    verdict(
        app,
        &name("win"),
        &scope(THREE),
        Some(3),
        Some(slide_line(THREE).1.len() as u32),
        10_000,
    )
    .await;
    audit_dialog(app, &name("win"), true).await;
    shot_to_screenshots(app, &name("win")).await;

    // Pending: the 80-move 4×4, won by a quick line that is not the fewest moves, while the
    // search of its optimum — longer than its 10 s budget — is parked (the app sent to the
    // background a moment: `pause`): the dialog opens before the verdict, says the best
    // solution is being found, and shows no grey stars. Shown again, the search goes on, gives
    // up at its budget, and the finish becomes final without stars or optimum (never zero
    // stars for "unknown").
    let hardest = HARDEST[round];
    let line = quick_line(hardest);
    app.invoke("open_game", json!({ "id": hardest, "replace": true }))
        .await;
    show(app, "home").await;
    for t in &line[..line.len() - 1] {
        app.invoke("play", json!({ "kind": "slide", "mv": { "tile": t } }))
            .await;
    }
    show(app, "game:slide").await;
    app.invoke("pause", json!({ "kind": "slide" })).await;
    app.js(WATCH).await;
    app.tap_tile(*line.last().unwrap()).await;
    celebrated(app, "slide", &name("pending")).await;
    let v = app.js(VERDICT).await;
    assert_eq!(v["stars"], json!("pending"), "{}: {v}", name("pending"));
    assert_eq!(v["finding"], json!(true), "{v}");
    assert_eq!(v["shown"], json!(0), "no grey stars for unknown: {v}");
    audit_dialog(app, &name("pending"), false).await;
    shot_to_screenshots(app, &name("pending")).await;
    app.invoke("set_screen", json!({ "screen": "game:slide" }))
        .await;
    let v = app
        .wait_js(
            &format!("const v = (() => {{ {VERDICT} }})(); return v && v.stars === null && !v.finding ? v : null;"),
            30_000,
        )
        .await;
    assert_eq!(
        (&v["shown"], &v["optimal"]),
        (&json!(0), &json!("—")),
        "{v}"
    );
    let row = app
        .invoke("records", json!({ "scope": scope(hardest) }))
        .await;
    let row = row["history"]
        .as_array()
        .and_then(|h| h.last())
        .cloned()
        .unwrap();
    assert_eq!(v["ms"], row["ms"], "{row}");
    assert_eq!(row["optimal"], Value::Null, "{row}");
    audit_dialog(app, &name("no-optimum"), false).await;
    shot_to_screenshots(app, &name("no-optimum")).await;

    // A friend's challenge beaten, and one that cannot be: the optimum, 2 moves, claimed in no
    // time (a claim under the optimum is refused as untrue since issue 35).
    for (label, moves, ms) in [
        ("challenge-beaten", 5u32, 41_300u64),
        ("challenge-lost", 2, 0),
    ] {
        let code = code::encode_result(
            CHALLENGED,
            Extra::default(),
            Challenge::new(moves, ms).unwrap(),
            &Sender {
                name: Some("Mei".into()),
                log: None,
            },
        )
        .unwrap();
        app.invoke("open_game", json!({ "id": code, "replace": true }))
            .await;
        show(app, "game:slide").await;
        app.js(WATCH).await;
        tap_line(app, &[7, 8]).await;
        celebrated(app, "slide", &name(label)).await;
        app.wait_for(&format!("[data-finish] [data-beaten='{}']", moves > 2))
            .await;
        verdict(
            app,
            &name(label),
            &scope(CHALLENGED),
            Some(3),
            Some(2),
            10_000,
        )
        .await;
        let primary = app
            .js("return document.querySelector('.btn.primary').textContent")
            .await;
        let send = if lang == "zh" {
            "把成绩发回去"
        } else {
            "Send your result back"
        };
        assert!(primary.as_str().unwrap().contains(send), "{primary}");
        audit_dialog(app, &name(label), true).await;
        shot_to_screenshots(app, &name(label)).await;
    }

    // Today's daily among friends: the player's line is this finish, to the tenth.
    daily_among_friends(app, &name("daily-friends")).await;

    // Klotski, 2048 won and lost.
    app.invoke("open_game", json!({ "id": KLOTSKI, "replace": true }))
        .await;
    show(app, "game:klotski").await;
    app.js(WATCH).await;
    let cell = app.cell_px().await;
    app.drag_el("[data-piece='C']", &[(0.0, cell * 0.5), (0.0, cell)])
        .await;
    if shots {
        hold_celebration(app, 620, &name("celebration-klotski")).await;
    }
    celebrated(app, "klotski", &name("klotski")).await;
    let board = KLOTSKI.trim_start_matches("klotski:");
    verdict(
        app,
        &name("klotski"),
        &format!("klotski:{board}"),
        Some(3),
        Some(1),
        20_000,
    )
    .await;
    audit_dialog(app, &name("klotski"), true).await;
    shot_to_screenshots(app, &name("klotski")).await;
    for (label, id) in [("2048-won", WIN_2048), ("2048-lost", LOSE_2048)] {
        app.invoke("open_game", json!({ "id": id, "replace": true }))
            .await;
        show(app, "game:2048").await;
        app.js(WATCH).await;
        app.key(keys::LEFT).await;
        if label == "2048-won" {
            if shots {
                hold_celebration(app, 330, &name("celebration-2048")).await;
            }
            celebrated(app, "2048", &name(label)).await;
        } else {
            app.wait_js(
                "return document.querySelector(\"[data-finish='lost']\") ? true : null",
                10_000,
            )
            .await;
        }
        verdict(app, &name(label), &scope(id), None, None, 10_000).await;
        audit_dialog(app, &name(label), false).await;
        shot_to_screenshots(app, &name(label)).await;
    }
}

/// Today's daily number slide with two friends' results on its board, solved optimally (the
/// last move by a tap): the finish's board has the player's line at this finish's time.
async fn daily_among_friends(app: &App, name: &str) {
    app.invoke("set_settings", json!({ "settings": { "name": "Ann" } }))
        .await;
    let info = app.invoke("daily_info", json!({})).await;
    let id = info["slide"].as_str().unwrap().to_string();
    let n = info["number"].as_u64().unwrap() as u32;
    for (friend, moves, ms) in [("Mei", 58, 95_200), ("Bo", 71, 64_000)] {
        let c = code::encode_result(
            &id,
            Extra {
                daily: Some(n),
                classic: None,
            },
            Challenge::new(moves, ms).unwrap(),
            &Sender {
                name: Some(friend.into()),
                log: None,
            },
        )
        .unwrap();
        app.invoke("open_game", json!({ "id": c, "replace": true }))
            .await;
    }
    app.invoke("open_game", json!({ "id": id, "replace": true }))
        .await;
    let (_, line) = slide_line(&id);
    show(app, "home").await;
    for t in &line[..line.len() - 1] {
        app.invoke("play", json!({ "kind": "slide", "mv": { "tile": t } }))
            .await;
    }
    show(app, "game:slide").await;
    app.js(WATCH).await;
    app.tap_tile(*line.last().unwrap()).await;
    celebrated(app, "slide", name).await;
    app.wait_for("[data-finish] .friends .friend[data-me='1']")
        .await;
    let v = verdict(
        app,
        name,
        "slide:4x4",
        Some(3),
        Some(line.len() as u32),
        20_000,
    )
    .await;
    let mine = app
        .js("return document.querySelector(\"[data-finish] .friend[data-me='1'] .friend-time\").textContent")
        .await;
    assert_eq!(mine, v["time"], "{name}: the board's line is this finish");
    audit_dialog(app, name, true).await;
    shot_to_screenshots(app, name).await;
}

#[test]
fn e2e_finish_celebrates_and_tells_one_truth() {
    e2e_test("e2e_finish", async |d: &Driver| {
        let app = d.launch_home().await;
        app.set_viewport(360, 780).await;
        for lang in ["en", "zh"] {
            app.invoke(
                "set_settings",
                json!({ "settings": { "language": lang, "theme": "light" } }),
            )
            .await;
            wins_at_360(&app, lang).await;
        }
        app.set_viewport(390, 844).await;
        let rounds = [
            ("en", "light"),
            ("en", "dark"),
            ("zh", "light"),
            ("zh", "dark"),
        ];
        for (round, (lang, theme)) in rounds.into_iter().enumerate() {
            app.invoke(
                "set_settings",
                json!({ "settings": { "language": lang, "theme": theme } }),
            )
            .await;
            variants(&app, lang, theme, round).await;
        }
        let errors = app.js("return window.__huarongErrors").await;
        assert_eq!(errors, json!([]), "no script errors");
        app.quit().await;
    });
}
