//! End-to-end in the app: 2048 on a 5×5 and an 8×8 board chosen with the size chips
//! of 2048's level screen and played by swipes (each swipe's board checked against the rule
//! written here, the 8×8's numbers legible); a marathon of 5 3×3 solves started from the number
//! slide's level screen and played by taps along the engine's optimal lines (each puzzle the
//! engine's `slide::run` derives from the run's seed), its splits in the bar and the finish, its
//! record; a relay from 3×3 played the same way; a trail drawn through three tiles in one
//! gesture (WebDriver pointer actions: press, moves across the tile centres, release) that moves
//! the three, and moves none with the `tap` control. Harness: `e2e_support`; screenshots at
//! 390×844 in `tests/e2e/screenshots/390x844-en-app-*.png`.

mod e2e_support;

use e2e_support::*;
use huarong_engine::slide::run::{Run, RunMode};
use huarong_engine::slide::{self, Slide};
use huarong_engine::{Cancel, Game, GameId};
use serde_json::{json, Value};

/// Launch to home at the screenshots' 390×844 phone size.
async fn launch_phone(d: &Driver) -> App {
    let app = d.launch_home().await;
    app.set_viewport(390, 844).await;
    app
}

/// A screenshot once nothing animates (fonts loaded, no finite animation running), kept in
/// `tests/e2e/screenshots/390x844-en-app-<name>.png`.
async fn keep_shot(app: &App, name: &str) {
    app.wait_js(
        "return document.getAnimations().every((a) => a.playState !== 'running' || a.effect.getComputedTiming().iterations === Infinity) ? true : null",
        5_000,
    )
    .await;
    let _ = app
        .c
        .execute_async(
            "const done = arguments[arguments.length - 1]; document.fonts.ready.then(() => requestAnimationFrame(() => requestAnimationFrame(() => done(true))));",
            vec![],
        )
        .await;
    let name = format!("390x844-en-app-{name}");
    let out = app.shot(&name).await;
    let keep = workspace_root()
        .join("tests/e2e/screenshots")
        .join(format!("{name}.png"));
    std::fs::copy(&out, &keep).expect("keep the screenshot");
}

/// No script error reached the page's error log.
async fn no_page_errors(app: &App) {
    let errors = app.js("return window.__huarongErrors || []").await;
    assert_eq!(errors, json!([]), "no script errors");
}

// ---------------------------------------------------------------------------------------
// 2048

/// One line slid toward its start: each tile merges at most once.
fn slide_line(line: &[u32]) -> Vec<u32> {
    let tiles: Vec<u32> = line.iter().copied().filter(|&v| v != 0).collect();
    let mut out = Vec::with_capacity(line.len());
    let mut i = 0;
    while i < tiles.len() {
        if i + 1 < tiles.len() && tiles[i] == tiles[i + 1] {
            out.push(tiles[i] * 2);
            i += 2;
        } else {
            out.push(tiles[i]);
            i += 1;
        }
    }
    out.resize(line.len(), 0);
    out
}

/// The n×n board (row-major) slid in `dir`, by the rule.
fn slide_board(cells: &[u32], n: usize, dir: &str) -> Vec<u32> {
    let mut out = cells.to_vec();
    for k in 0..n {
        let idx: Vec<usize> = (0..n)
            .map(|j| match dir {
                "left" => n * k + j,
                "right" => n * k + n - 1 - j,
                "up" => n * j + k,
                _ => n * (n - 1 - j) + k,
            })
            .collect();
        let line: Vec<u32> = idx.iter().map(|&c| cells[c]).collect();
        for (j, v) in slide_line(&line).into_iter().enumerate() {
            out[idx[j]] = v;
        }
    }
    out
}

fn cells_of(state: &str) -> Vec<u32> {
    state
        .split(',')
        .map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("a 2048 cell in {state}"))
        })
        .collect()
}

/// Choose `size` with its chip on 2048's level screen and start it with the primary button
/// (each size has a slot of its own: a game of another size in progress stays).
async fn start_2048(app: &App, size: &str) -> usize {
    let n: usize = size.split('x').next().unwrap().parse().unwrap();
    let chip = format!(".g2048-sizes [data-size='{size}']");
    app.click(&chip).await;
    app.wait_js(
        &format!(
            "return document.querySelector({}).getAttribute('aria-pressed') === 'true' ? true : null",
            json!(chip)
        ),
        5_000,
    )
    .await;
    app.click("[data-action='new-2048']").await;
    app.wait_screen("game").await;
    app.wait_js(
        &format!(
            "const b = document.querySelector('[data-game=\"2048\"][data-state]');
             return b && b.dataset.state.split(',').length === {} && b.dataset.moves === '0'
               && document.querySelectorAll('[data-game] .g2048-grid .cell').length === {} ? true : null;",
            n * n,
            n * n
        ),
        10_000,
    )
    .await;
    n
}

/// `count` swipes across the board, each in a direction that moves (a corner habit: down, left,
/// right, up only when nothing else moves); after each, the board is the rule's plus one new
/// 2 or 4 in a cell the slide left empty.
async fn play_by_swipes(app: &App, n: usize, count: u32, tag: &str) {
    let r = app.rect("[data-game]").await;
    let d = r.w.min(r.h) * 0.3;
    for k in 0..count {
        let b = app.board().await.expect("a board");
        assert_eq!(b.status, "playing", "{tag}: the game is on: {b:?}");
        let cells = cells_of(&b.state);
        assert_eq!(cells.len(), n * n, "{tag}: {} cells", n * n);
        let order = if k % 2 == 1 {
            ["left", "down", "right", "up"]
        } else {
            ["down", "left", "right", "up"]
        };
        let dir = *order
            .iter()
            .find(|dd| slide_board(&cells, n, dd) != cells)
            .unwrap_or_else(|| panic!("{tag}: some direction moves {}", b.state));
        let want = slide_board(&cells, n, dir);
        let (dx, dy) = match dir {
            "left" => (-d, 0.0),
            "right" => (d, 0.0),
            "up" => (0.0, -d),
            _ => (0.0, d),
        };
        let (cx, cy) = (r.cx(), r.cy());
        app.drag(
            &[
                (cx - dx / 2.0, cy - dy / 2.0),
                (cx + dx / 2.0, cy + dy / 2.0),
            ],
            6,
        )
        .await;
        let after = app.wait_moves_change(b.moves).await;
        assert_eq!(after.moves, b.moves + 1, "{tag}: swipe {dir} is one move");
        let got = cells_of(&after.state);
        let new: Vec<usize> = (0..got.len()).filter(|&i| got[i] != want[i]).collect();
        assert!(
            new.len() == 1 && want[new[0]] == 0 && matches!(got[new[0]], 2 | 4),
            "{tag}: swipe {dir} gave the rule's board plus one new tile:\n{}\n→ {}",
            b.state,
            after.state
        );
    }
}

/// The board fits the 390×844 screen and every numbered face keeps its text legible (at least
/// 10 px) and inside its tile. Returns the faces' smallest font size.
async fn fits(app: &App, n: usize, tag: &str) -> f64 {
    let m = app
        .js(
            "const g = document.querySelector('[data-game] .g2048-grid');
             const gb = g.getBoundingClientRect();
             const faces = [...g.querySelectorAll('.cell .face')].filter((f) => f.textContent);
             const small = [], over = [];
             let least = 1e9;
             for (const f of faces) {
               const px = parseFloat(getComputedStyle(f).fontSize);
               least = Math.min(least, px);
               if (px < 10) small.push(`${f.textContent}: ${px}px`);
               const cell = f.closest('.cell').getBoundingClientRect();
               const fb = f.getBoundingClientRect();
               if (f.scrollWidth > f.clientWidth + 1 || fb.width > cell.width + 0.5) over.push(`${f.textContent}: ${f.scrollWidth} > ${f.clientWidth}`);
             }
             return { vw: innerWidth, vh: innerHeight, left: gb.left, right: gb.right, top: gb.top, bottom: gb.bottom,
                      w: gb.width, cells: g.querySelectorAll('.cell').length, faces: faces.length, small, over, least,
                      wide: document.documentElement.scrollWidth };",
        )
        .await;
    let f = |k: &str| m[k].as_f64().unwrap_or(f64::NAN);
    assert_eq!(m["cells"], json!(n * n), "{tag}: {m}");
    assert!(f("faces") >= 2.0, "{tag}: numbered tiles on the board: {m}");
    assert!(
        f("left") >= 0.0
            && f("right") <= f("vw") + 0.5
            && f("top") >= 0.0
            && f("bottom") <= f("vh") + 0.5,
        "{tag}: the board is on screen: {m}"
    );
    assert!(
        f("wide") <= f("vw"),
        "{tag}: nothing sticks out sideways: {m}"
    );
    assert!(
        f("w") >= f("vw") * 0.8,
        "{tag}: the board uses the width: {m}"
    );
    assert_eq!(m["small"], json!([]), "{tag}: tile numbers under 10 px");
    assert_eq!(
        m["over"],
        json!([]),
        "{tag}: tile numbers wider than their tile"
    );
    f("least")
}

/// An 8×8 board (64 values, row-major) whose first rows hold 3- and 4-digit tiles, no two
/// equal tiles side by side, the rest empty but for a few small ones.
fn big_8x8() -> String {
    let mut cells = vec![0u32; 64];
    let first = [128, 256, 512, 1024, 2, 4, 8, 16];
    let second = [1024, 512, 256, 128, 64, 32, 16, 8];
    cells[..8].copy_from_slice(&first);
    cells[8..16].copy_from_slice(&second);
    cells[40] = 2;
    cells[63] = 4;
    cells
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Wait until the 2048 board is at rest (no sliding copy, no tile arriving).
async fn g2048_at_rest(app: &App) {
    app.wait_js(
        "return !document.querySelector('.gtile:not(.idle)') && !document.querySelector('.cell.arriving') ? true : null",
        5_000,
    )
    .await;
}

#[test]
fn e2e_2048_5x5_and_8x8_played_by_swipes() {
    e2e_test("more_2048_sizes", async |driver| {
        let app = launch_phone(driver).await;
        app.click_to("[data-action='play-2048']", "levels").await;
        let sizes = app
            .js("return [...document.querySelectorAll('.g2048-sizes [data-size]')].map((e) => e.dataset.size)")
            .await;
        assert_eq!(
            sizes,
            json!(["3x3", "4x4", "5x5", "6x6", "7x7", "8x8"]),
            "2048's size chips"
        );
        let pressed = app
            .js("return [...document.querySelectorAll('.g2048-sizes [aria-pressed=\"true\"]')].map((e) => e.dataset.size)")
            .await;
        assert_eq!(pressed, json!(["4x4"]), "the 4×4 is chosen first");

        // A 5×5.
        let n = start_2048(&app, "5x5").await;
        play_by_swipes(&app, n, 10, "5x5").await;
        let snap = app.invoke("snapshot", json!({ "kind": "2048" })).await;
        let id = snap["snapshot"]["id"].as_str().expect("an ID").to_string();
        let seed = id
            .strip_prefix("2048:5x5#")
            .unwrap_or_else(|| panic!("a 5×5 ID: {id}"));
        assert!(
            seed.parse::<u64>().is_ok(),
            "the ID names its size and seed: {id}"
        );
        assert_eq!(snap["snapshot"]["view"]["win"], json!(2048), "{snap}");
        assert_eq!(
            snap["snapshot"]["board"],
            json!(app.board().await.unwrap().state),
            "the board shown is Rust's"
        );
        let px5 = fits(&app, n, "5x5").await;
        g2048_at_rest(&app).await;
        keep_shot(&app, "2048-5x5").await;

        // An 8×8, from the same level screen.
        app.click_to("[data-action='back']", "levels").await;
        let n = start_2048(&app, "8x8").await;
        play_by_swipes(&app, n, 10, "8x8").await;
        let snap = app.invoke("snapshot", json!({ "kind": "2048" })).await;
        let id = snap["snapshot"]["id"].as_str().expect("an ID").to_string();
        assert!(id.starts_with("2048:8x8#"), "an 8×8 ID: {id}");
        assert_eq!(
            cells_of(snap["snapshot"]["board"].as_str().unwrap()).len(),
            64
        );
        let px8 = fits(&app, n, "8x8").await;
        g2048_at_rest(&app).await;
        keep_shot(&app, "2048-8x8").await;
        // Three- and four-digit numbers on the smallest cells: an 8×8 opened from its board
        // (the highest tile a start may hold is below the win, 1024), checked, swiped once.
        let big = big_8x8();
        app.invoke(
            "open_game",
            json!({ "id": format!("2048:{big}#7"), "replace": true }),
        )
        .await;
        app.invoke("set_screen", json!({ "screen": "game:2048" }))
            .await;
        app.reload().await;
        app.wait_screen("game").await;
        let b = app.wait_board().await;
        assert_eq!((b.state.as_str(), b.moves), (big.as_str(), 0));
        let px_big = fits(&app, 8, "8x8 big numbers").await;
        g2048_at_rest(&app).await;
        keep_shot(&app, "2048-8x8-big").await;
        play_by_swipes(&app, 8, 1, "8x8 big numbers").await;
        fits(&app, 8, "8x8 big numbers, swiped").await;
        // Five- and six-digit tiles (after "keep going"; no start may hold them): two cells
        // dressed as the board module dresses a cell of that value, to measure the CSS.
        app.js(
            "const cells = [...document.querySelectorAll('[data-game] .g2048-grid .cell')];
             [[0, 16384], [9, 131072]].forEach(([i, v]) => {
               const c = cells[i];
               c.dataset.value = String(v);
               c.firstChild.textContent = String(v);
               c.classList.remove('mid', 'big');
               c.classList.add('huge');
             });
             return true;",
        )
        .await;
        let px_huge = fits(&app, 8, "8x8 six digits").await;
        // The level screen's best score per size.
        let levels = app.invoke("levels", json!({ "kind": "2048" })).await;
        let scopes: Vec<&str> = levels["levels"]
            .as_array()
            .expect("levels")
            .iter()
            .filter_map(|l| l["scope"].as_str())
            .collect();
        assert!(
            scopes.contains(&"2048:5x5") && scopes.contains(&"2048:8x8"),
            "levels lists each size's scope: {levels}"
        );
        figure(&format!(
            "e2e 2048 sizes at 390x844: 5x5 and 8x8 by 10 swipes each, smallest tile number {px5:.1} px (5x5), {px8:.1} px (8x8), {px_big:.1} px (8x8 with 4 digits), {px_huge:.1} px (8x8 with 6 digits)"
        ));
        no_page_errors(&app).await;
        app.quit().await;
    });
}

// ---------------------------------------------------------------------------------------
// The speedsolver's number slide

/// Tap tile `tile` and wait for Rust's answer: the move count or the board changes (the
/// winning tap of a run's solve brings the next solve).
async fn tap_move(app: &App, tile: u32) -> Board {
    let before = app.board().await.expect("a board");
    app.tap_tile(tile).await;
    app.wait_js(
        &format!(
            "const b = document.querySelector('[data-game][data-state]');
             return b && (b.dataset.moves !== '{}' || b.dataset.state !== {}) ? true : null;",
            before.moves,
            json!(before.state)
        ),
        10_000,
    )
    .await;
    app.board().await.expect("a board")
}

/// The slide's snapshot (the run's slot being shown).
async fn slide_snapshot(app: &App) -> Value {
    app.invoke("snapshot", json!({ "kind": "slide" })).await["snapshot"].clone()
}

/// The run's bar under the board: its data-* hooks.
async fn run_bar(app: &App) -> Value {
    app.js(
        "const b = document.querySelector('.slide-run');
         return b && !b.hidden ? { run: b.dataset.run, solve: b.dataset.solve, of: b.dataset.of, splits: b.dataset.splits } : null;",
    )
    .await
}

/// The run's bar sits under the tiles, never over them (it is drawn in the play area's foot).
async fn bar_clear_of_tiles(app: &App, what: &str) {
    let v = app
        .js(
            "const bar = document.querySelector('.slide-run').getBoundingClientRect();
             const grid = document.querySelector('[data-game] .slide-grid').getBoundingClientRect();
             const frame = document.querySelector('[data-game]').getBoundingClientRect();
             const stats = document.querySelector('.game-side .stats').getBoundingClientRect();
             return { bar: [bar.top, bar.bottom], grid: [grid.top, grid.bottom], frame: [frame.top, frame.bottom],
                      stats: [stats.top, stats.bottom], vh: innerHeight };",
        )
        .await;
    let y = |k: &str, i: usize| v[k][i].as_f64().unwrap();
    assert!(
        y("bar", 0) >= y("grid", 1) - 0.5 && y("bar", 1) <= v["vh"].as_f64().unwrap(),
        "{what}: the run's bar is under the tiles, on screen: {v}"
    );
    assert!(
        y("stats", 1) <= y("frame", 0) + 0.5,
        "{what}: the counters are above the board, not over it: {v}"
    );
}

/// Solve `i` of `run`, from the engine: its game ID, its board and an optimal line of taps.
fn solve_of(run: &Run, i: u32) -> (String, String, Vec<u32>) {
    let id = run.id_of(i);
    let p = GameId::parse(&id).expect("a game ID");
    let start = Slide::from_id(&p.body, p.seed).expect("a number slide");
    let sol = slide::solve(start.board(), &Cancel::new()).expect("a solution");
    assert!(sol.optimal, "{id}: the solver's line is optimal");
    (
        id,
        start.board_body(),
        sol.tiles.iter().map(|&t| t as u32).collect(),
    )
}

/// Play every solve of the run on screen by taps along the engine's lines; checks the bar
/// between solves. Returns the moves played.
async fn play_run(app: &App, run: &Run, tag: &str) -> usize {
    let of = run.solves();
    let mut moves = 0;
    for i in 0..of {
        let (id, board, taps) = solve_of(run, i);
        let b = app.wait_board().await;
        assert_eq!(
            (b.state.as_str(), b.moves),
            (board.as_str(), 0),
            "{tag}: solve {}",
            i + 1
        );
        let shown_id = app
            .js("return document.querySelector('[data-game]').dataset.id")
            .await;
        assert_eq!(
            shown_id,
            json!(id),
            "{tag}: solve {} is the engine's",
            i + 1
        );
        let bar = run_bar(app).await;
        assert_eq!(
            bar,
            json!({ "run": run.mode().text(), "solve": (i + 1).to_string(), "of": of.to_string(), "splits": i.to_string() }),
            "{tag}: the run's bar at solve {}",
            i + 1
        );
        bar_clear_of_tiles(app, &format!("{tag} solve {}", i + 1)).await;
        for &t in &taps {
            tap_move(app, t).await;
        }
        moves += taps.len();
        if i + 1 < of {
            let next = solve_of(run, i + 1).1;
            let b = app.board().await.expect("a board");
            assert_eq!(
                (b.state.as_str(), b.moves, b.status.as_str()),
                (next.as_str(), 0, "playing"),
                "{tag}: the next solve at once after solve {}",
                i + 1
            );
            if i == 2 {
                keep_shot(app, &format!("{tag}-play")).await;
            }
        }
    }
    moves
}

/// The finish of a run: its split rows (ms each) and sizes, once `[data-splits=<of>]` is up.
async fn run_finish(app: &App, of: u32) -> (Vec<u64>, Vec<String>) {
    app.wait_js(
        &format!("return document.querySelector('[data-finish=\"won\"] [data-splits=\"{of}\"]') ? true : null"),
        15_000,
    )
    .await;
    let v = app
        .js(
            "return { ms: [...document.querySelectorAll('[data-finish] .split-list li')].map((li) => Number(li.dataset.ms)),
                      sizes: [...document.querySelectorAll('[data-finish] .split-list .split-size')].map((e) => e.textContent),
                      tps: !!document.querySelector('[data-finish] [data-fin=\"tps\"]') };",
        )
        .await;
    assert_eq!(v["tps"], json!(true), "the finish shows TPS: {v}");
    let ms = v["ms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    let sizes = v["sizes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect();
    (ms, sizes)
}

/// The number slide's level screen with its run modes scrolled into view.
async fn slide_levels(app: &App) {
    app.click_to("[data-action='play-slide']", "levels").await;
    app.wait_for("[data-modes='slide'] [data-mode='marathon:5']")
        .await;
    app.js("document.querySelector(\"[data-modes='slide']\").scrollIntoView({ block: 'center' }); return true")
        .await;
}

#[test]
fn e2e_marathon_of_five_3x3_solves_by_taps() {
    e2e_test("more_marathon", async |driver| {
        let app = launch_phone(driver).await;
        slide_levels(&app).await;
        app.click("[data-run-size='3x3']").await;
        app.wait_js(
            "return document.querySelector(\"[data-run-size='3x3']\").getAttribute('aria-pressed') === 'true' ? true : null",
            5_000,
        )
        .await;
        keep_shot(&app, "slide-levels-runs").await;
        app.click("[data-mode='marathon:5']").await;
        app.wait_screen("game").await;
        let b = app.wait_board().await;
        let snap = slide_snapshot(&app).await;
        assert_eq!(snap["slot"], json!("slide:3x3/marathon:5"), "{snap}");
        assert_eq!(snap["run"]["mode"], json!("marathon:5"), "{snap}");
        assert_eq!(
            snap["run"]["scope"],
            json!("slide:3x3/marathon:5"),
            "{snap}"
        );
        let seed = snap["run"]["seed"].as_u64().expect("the run's seed");
        assert_eq!(b.state, snap["board"].as_str().unwrap());
        let run = Run::new(RunMode::parse("marathon:5", "3x3").unwrap(), seed);

        let moves = play_run(&app, &run, "marathon").await;
        let (rows, _) = run_finish(&app, 5).await;
        assert_eq!(rows.len(), 5, "5 splits in the finish");
        let actions = app
            .js("return [...document.querySelectorAll('[data-finish] .fin-actions button')].map((b) => b.dataset.action)")
            .await;
        assert_eq!(actions, json!(["new-run"]), "a run's finish has one action");
        let rec = app
            .invoke("records", json!({ "scope": "slide:3x3/marathon:5" }))
            .await;
        assert_eq!(
            (rec["wins"].clone(), rec["plays"].clone()),
            (json!(1), json!(1)),
            "{rec}"
        );
        let hist = rec["history"].as_array().expect("history");
        let row = hist.last().expect("the run's row");
        assert_eq!(
            row["splits"],
            json!(rows),
            "the record keeps the splits shown: {row}"
        );
        assert_eq!(
            row["ms"],
            json!(rows.iter().sum::<u64>()),
            "one timer: the splits add up"
        );
        assert_eq!(row["moves"], json!(moves), "the run's moves: {row}");
        assert_eq!(
            rec["best_ms"], row["ms"],
            "a clean run sets the best time: {rec}"
        );
        keep_shot(&app, "marathon-finish").await;
        figure(&format!(
            "e2e marathon of 5 3x3 by {moves} taps in the app: splits {rows:?} ms"
        ));
        no_page_errors(&app).await;
        app.quit().await;
    });
}

#[test]
fn e2e_relay_from_3x3_by_taps() {
    e2e_test("more_relay", async |driver| {
        let app = launch_phone(driver).await;
        slide_levels(&app).await;
        app.click("[data-mode='relay:3']").await;
        app.wait_screen("game").await;
        app.wait_js(
            "const b = document.querySelector('[data-game][data-state]');
             return b && b.dataset.slot === 'slide:relay:3' && b.dataset.state.startsWith('3x3:') ? true : null;",
            10_000,
        )
        .await;
        let snap = slide_snapshot(&app).await;
        assert_eq!(snap["run"]["scope"], json!("slide/relay:3"), "{snap}");
        let seed = snap["run"]["seed"].as_u64().expect("the run's seed");
        let run = Run::new(RunMode::parse("relay:3", "").unwrap(), seed);
        assert_eq!(run.solves(), 2, "3×3 then 2×2");
        let moves = play_run(&app, &run, "relay").await;
        let (rows, sizes) = run_finish(&app, 2).await;
        assert_eq!(sizes, ["3×3", "2×2"], "the relay's splits name their sizes");
        let rec = app
            .invoke("records", json!({ "scope": "slide/relay:3" }))
            .await;
        assert_eq!(rec["wins"], json!(1), "{rec}");
        let row = rec["history"]
            .as_array()
            .and_then(|h| h.last())
            .expect("a row");
        assert_eq!(row["splits"], json!(rows), "{row}");
        assert_eq!(row["moves"], json!(moves), "{row}");
        keep_shot(&app, "relay-finish").await;
        no_page_errors(&app).await;
        app.quit().await;
    });
}

/// The trail's board: the blank above 4, so a finger from 4 through 7 and 8 moves 4 up, then
/// 7 left, then 8 left, and the board is solved.
const TRAIL_ID: &str = "slide:3x3:1,2,3,0,5,6,4,7,8";
const TRAIL_CELLS: [usize; 3] = [6, 7, 8];
const SOLVED: &str = "3x3:1,2,3,4,5,6,7,8,0";

/// Set the slide control (`by_screen`: on the settings screen, as a player does), open the
/// trail's board and show it (the page starts again from what Rust holds, settings included).
async fn trail_board(app: &App, control: &str, by_screen: bool) -> Vec<(f64, f64)> {
    if by_screen {
        app.invoke("set_screen", json!({ "screen": "home" })).await;
        app.reload().await;
        app.click_to("[data-action='settings']", "settings").await;
        app.pick_setting("slide-control", control).await;
        app.wait_js(
            &format!("return document.querySelector(\"[data-setting='slide-control'] input[value='{control}']\").checked ? true : null"),
            5_000,
        )
        .await;
        let settings = app.invoke("get_settings", json!({})).await;
        assert_eq!(settings["slide_control"], json!(control), "{settings}");
    } else {
        app.invoke(
            "set_settings",
            json!({ "settings": { "slide_control": control } }),
        )
        .await;
    }
    app.invoke("open_game", json!({ "id": TRAIL_ID, "replace": true }))
        .await;
    app.invoke("set_screen", json!({ "screen": "game:slide" }))
        .await;
    app.reload().await;
    app.wait_screen("game").await;
    let b = app.wait_board().await;
    assert_eq!((b.state.as_str(), b.moves), ("3x3:1,2,3,0,5,6,4,7,8", 0));
    let mut pts = Vec::new();
    for c in TRAIL_CELLS {
        let v = app
            .js_args(
                "const k = arguments[0];
                 const grid = document.querySelector('.slide-grid');
                 const cols = Number(document.querySelector('.slide-frame').dataset.cols);
                 const r = grid.getBoundingClientRect();
                 const cell = r.width / cols;
                 return [r.left + (k % cols) * cell + cell / 2, r.top + Math.floor(k / cols) * cell + cell / 2];",
                vec![json!(c)],
            )
            .await;
        pts.push((v[0].as_f64().unwrap(), v[1].as_f64().unwrap()));
    }
    // Count the pointer's lifts (the page's own record that the gesture ended).
    app.js("window.__ups = 0; document.addEventListener('pointerup', () => { window.__ups += 1; }); return true")
        .await;
    pts
}

#[test]
fn e2e_trail_moves_three_tiles_in_one_gesture() {
    e2e_test("more_trail", async |driver| {
        let app = launch_phone(driver).await;

        // `both` (the default) and `trail`: one gesture moves 4, 7 and 8, one move each.
        for control in ["both", "trail"] {
            let pts = trail_board(&app, control, false).await;
            let plays = app.invoked("play").await;
            app.drag(&pts, 6).await;
            app.wait_js(
                &format!(
                    "const b = document.querySelector('[data-game][data-state]');
                     return b && b.dataset.state === '{SOLVED}' && b.dataset.moves === '3' ? true : null;"
                ),
                10_000,
            )
            .await;
            let b = app.board().await.expect("a board");
            assert_eq!(b.status, "won", "{control}: the trail solved it");
            assert_eq!(
                app.invoked("play").await,
                plays + 3,
                "{control}: one play per tile reached"
            );
            let snap = slide_snapshot(&app).await;
            assert_eq!(snap["counters"]["tile"], json!(3), "{control}: {snap}");
            app.wait_finish().await;
            if control == "both" {
                keep_shot(&app, "trail").await;
            }
        }

        // `tap`, chosen on the settings screen: the same board again (a won game is opened
        // afresh), the same gesture is no tap and no run-drag (4 pressed, the finger goes sideways).
        let pts = trail_board(&app, "tap", true).await;
        let plays = app.invoked("play").await;
        app.drag(&pts, 6).await;
        app.wait_js(
            "return window.__ups >= 1 && !document.querySelector('.tile.dragging') ? true : null",
            5_000,
        )
        .await;
        let _ = app
            .c
            .execute_async(
                "const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(() => done(true)));",
                vec![],
            )
            .await;
        let b = app.board().await.expect("a board");
        assert_eq!(
            (b.state.as_str(), b.moves),
            ("3x3:1,2,3,0,5,6,4,7,8", 0),
            "with the tap control a trail moves nothing"
        );
        assert_eq!(app.invoked("play").await, plays, "no play sent");
        // …and the board is live: one tap on 5 is one move, and nothing else was queued.
        let b = tap_move(&app, 5).await;
        assert_eq!((b.state.as_str(), b.moves), ("3x3:1,2,3,5,0,6,4,7,8", 1));
        assert_eq!(app.invoked("play").await, plays + 1, "one play, the tap's");

        figure("e2e trail in the app: one pointer gesture through 3 tiles moved 3 (both, trail), 0 with tap");
        no_page_errors(&app).await;
        app.quit().await;
    });
}
