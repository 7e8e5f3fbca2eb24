//! End-to-end screens: screenshots of every screen at 360×780 and 390×844 in both languages
//! and both themes (plus 320×568, landscape and tablet), layout checks on each (nothing
//! outside the viewport, no clipped labels, no overlapping controls, touch targets), the
//! emulated safe-area insets, and the measured figures (launch, move round-trip, the
//! longest main-thread stall during a drag). Harness: `e2e_support`.

mod e2e_support;

use e2e_support::*;
use serde_json::{json, Value};
use std::time::Duration;

/// In-page layout audit. `safe` = [top, right, bottom, left] insets every control must
/// respect. Returns a list of problems (empty = fine).
const AUDIT: &str = r#"
const [safe, minTarget] = arguments;
const W = window.innerWidth, H = window.innerHeight;
const problems = [];
const name = (e) => {
  const id = e.dataset.action || e.dataset.tile || e.dataset.piece || e.dataset.level || e.dataset.size || e.id || '';
  return `${e.tagName.toLowerCase()}.${String(e.className && e.className.baseVal === undefined ? e.className : '').split(' ').join('.')}[${id}] "${(e.textContent || '').trim().slice(0, 20)}"`;
};
const visible = (e) => {
  const r = e.getBoundingClientRect();
  const cs = getComputedStyle(e);
  // Out of sight: screen-reader-only text, and the screen reader's toolbar until it has the focus.
  return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden' && cs.display !== 'none' && !e.closest('.sr-only, .keys-help, .a11y-tools:not(:focus-within)');
};
if (document.documentElement.scrollWidth > W + 1) problems.push(`page is ${document.documentElement.scrollWidth}px wide in a ${W}px viewport`);
const overlay = document.querySelector('.overlay');
const root = overlay || document.getElementById('app');
const controls = [...root.querySelectorAll('button, input, textarea, label.seg, .board, [role=switch]')].filter(visible);
for (const e of controls) {
  const r = e.getBoundingClientRect();
  const scroller = e.closest('.scroll, .sheet');
  if (r.left < safe[3] - 0.5 || r.right > W - safe[1] + 0.5) problems.push(`${name(e)} crosses the left/right edge or inset: ${r.left.toFixed(1)}…${r.right.toFixed(1)} of ${W}`);
  if (!scroller && (r.top < safe[0] - 0.5 || r.bottom > H - safe[2] + 0.5)) problems.push(`${name(e)} is under the top/bottom edge or inset: ${r.top.toFixed(1)}…${r.bottom.toFixed(1)} of ${H}`);
  if (e.matches('.ctl, .icon-btn, .btn, .chip, label.seg, .daily-item, .level') && (r.width < minTarget - 0.5 || r.height < minTarget - 0.5)) problems.push(`${name(e)} is a ${r.width.toFixed(0)}×${r.height.toFixed(0)} touch target`);
}
// A bottom sheet's face runs under the bottom inset as a phone's sheets do; what scrolls in it
// (its body) and what is tapped stay clear.
for (const s of [...document.querySelectorAll('.scroll, .sheet')].map((e) => e.querySelector(':scope > .sheet-body') || e).filter(visible)) {
  const r = s.getBoundingClientRect();
  if (r.top < safe[0] - 0.5 || r.bottom > H - safe[2] + 0.5 || r.left < safe[3] - 0.5 || r.right > W - safe[1] + 0.5) problems.push(`scroll area ${s.className} is under an inset: ${JSON.stringify([r.top, r.right, r.bottom, r.left])}`);
}
const buttons = controls.filter((e) => !e.matches('.board, input'));
for (let i = 0; i < buttons.length; i++) {
  for (let j = i + 1; j < buttons.length; j++) {
    const a = buttons[i], b = buttons[j];
    if (a.contains(b) || b.contains(a)) continue;
    if (a.closest('.board') || b.closest('.board')) continue;
    const ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();
    const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
    const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
    if (w > 1 && h > 1) problems.push(`${name(a)} overlaps ${name(b)}`);
  }
}
const texts = [...root.querySelectorAll('.ctl-label, .stat-label, .stat-value, .title, .level-name, .chip, .btn, .seg span, .daily-game, .card-desc, h2, .subtitle, .size-name')].filter(visible);
for (const e of texts) {
  if (e.scrollWidth > e.clientWidth + 1) problems.push(`text clipped: ${name(e)} (${e.scrollWidth} > ${e.clientWidth})`);
}
// Every control has a name a screen reader can say.
for (const e of controls) {
  if (e.matches('input[type=radio], input[type=checkbox], textarea')) {
    const id = e.id;
    const lab = id && document.querySelector(`label[for="${id}"]`);
    if (!(lab && lab.textContent.trim()) && !e.getAttribute('aria-label')) problems.push(`${name(e)} has no label`);
  } else if (e.matches('button') && !(e.getAttribute('aria-label') || e.textContent.trim())) {
    problems.push(`${name(e)} has no accessible name`);
  }
}
// WCAG AA text contrast: 4.5:1, or 3:1 for large text (≥ 24 px, or ≥ 18.66 px bold).
const parse = (c) => {
  const m = /rgba?\(([^)]+)\)/.exec(c);
  if (!m) return null;
  const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number);
  return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
};
const over = (top, under) => {
  const a = top[3];
  return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat([1]);
};
const lum = (c) => {
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
};
const backdrop = (e) => {
  const chain = [];
  for (let n = e; n && n.nodeType === 1; n = n.parentElement) chain.push(n);
  let bg = parse(getComputedStyle(document.documentElement).backgroundColor) || [255, 255, 255, 1];
  if (bg[3] < 1) bg = over(bg, [255, 255, 255, 1]);
  for (const n of chain.reverse()) {
    const c = parse(getComputedStyle(n).backgroundColor);
    if (c && c[3] > 0) bg = over(c, bg);
  }
  return bg;
};
const textEls = [...root.querySelectorAll('*')].filter((e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()) && visible(e));
for (const e of textEls) {
  if (e.closest(':disabled, .locked, [aria-disabled=true], .toast')) continue; // inactive controls are exempt
  const cs = getComputedStyle(e);
  let op = 1;
  for (let n = e; n && n.nodeType === 1; n = n.parentElement) op *= Number(getComputedStyle(n).opacity);
  if (op < 0.99) continue; // fading in/out
  const fg0 = parse(cs.color);
  if (!fg0) continue;
  const bg = backdrop(e);
  const fg = fg0[3] < 1 ? over(fg0, bg) : fg0;
  const l1 = lum(fg), l2 = lum(bg);
  const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
  const size = parseFloat(cs.fontSize);
  const large = size >= 24 || (size >= 18.66 && Number(cs.fontWeight) >= 700);
  const need = large ? 3 : 4.5;
  if (ratio < need - 0.01) problems.push(`contrast ${ratio.toFixed(2)} < ${need}: ${name(e)} ${cs.color} on rgb(${bg.slice(0, 3).map(Math.round).join(',')})`);
}
// A dialog is raised off its backdrop: the sheet against the dimmed page, at least 3:1.
if (overlay) {
  const sheet = overlay.querySelector('.sheet');
  const page = parse(getComputedStyle(document.documentElement).backgroundColor) || [255, 255, 255, 1];
  const dim = over(parse(getComputedStyle(overlay).backgroundColor) || [0, 0, 0, 0], page);
  const sc = sheet && getComputedStyle(sheet);
  const face = sc && parse(sc.backgroundColor);
  if (face) {
    // Lifted by its face, or by an edge of at least 1 px (a dark sheet one step above the page
    // keeps a light rim, as a dark theme does).
    const against = (c) => {
      const [a, b] = [lum(over(c, dim)), lum(dim)];
      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    };
    const edge = parseFloat(sc.borderTopWidth) >= 1 ? parse(sc.borderTopColor) : null;
    const ratio = Math.max(against(face), edge && edge[3] > 0 ? against(edge) : 0);
    if (ratio < 3 - 0.01) problems.push(`dialog contrast ${ratio.toFixed(2)} < 3 against its backdrop`);
  }
}
const board = document.querySelector('.board');
if (board && visible(board)) {
  const r = board.getBoundingClientRect();
  const foot = document.querySelector('.game-foot');
  if (foot && !overlay) {
    const f = foot.getBoundingClientRect();
    const side = W / H >= 1.25;
    if (!side && r.bottom > f.top + 0.5) problems.push(`board (${r.bottom}) runs into the controls (${f.top})`);
  }
}
return problems;
"#;

/// In-page check that every label stays on one line: no text inside a button, chip or
/// segment runs onto a second line, and the buttons of a home card sit side by side (not
/// Continue stacked over Levels). Returns a list of problems (empty = fine).
const ONE_LINE: &str = r#"
const problems = [];
const visible = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden' && !e.closest('.a11y-tools:not(:focus-within)'); };
const root = document.querySelector('.overlay') || document.getElementById('app');
for (const b of [...root.querySelectorAll('button, .chip, label.seg, .btn')].filter(visible)) {
  if (b.closest('.board')) continue;
  const walk = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (!n.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const tops = new Set();
    for (const r of range.getClientRects()) if (r.width > 0.5) tops.add(Math.round(r.top));
    if (tops.size > 1) problems.push(`"${n.textContent.trim()}" in [${b.dataset.action || b.className}] runs onto ${tops.size} lines`);
  }
}
for (const row of [...root.querySelectorAll('.card-actions')].filter(visible)) {
  const tops = new Set([...row.children].filter(visible).map((c) => Math.round(c.getBoundingClientRect().top)));
  if (tops.size > 1) problems.push(`the buttons of ${row.closest('[data-kind]') ? row.closest('[data-kind]').dataset.kind : 'a card'} are stacked on ${tops.size} rows`);
}
return problems;
"#;

/// Force a wide fallback font (DejaVu: what a system without the UI's fonts falls back to),
/// through CSSOM (the CSP allows no style element).
async fn force_wide_font(app: &App) {
    app.js("const st = document.documentElement.style;
         st.setProperty('--font', '\"DejaVu Sans\", \"Noto Sans CJK SC\", sans-serif');
         st.setProperty('--font-serif', '\"DejaVu Serif\", \"Noto Serif CJK SC\", serif');
         return document.fonts.ready.then(() => true);")
        .await;
    tokio::time::sleep(Duration::from_millis(200)).await;
}

async fn one_line(app: &App, label: &str) -> Vec<String> {
    let v = app.js_args(ONE_LINE, vec![]).await;
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|p| format!("{label}: {}", p.as_str().unwrap_or("?")))
                .collect()
        })
        .unwrap_or_default()
}

struct Shot<'a> {
    name: &'a str,
    /// game ID to open first (None = no game needed)
    open: Option<&'a str>,
    /// screen to show (set_screen + reload)
    screen: &'a str,
}

async fn show(app: &App, screen: &str, insets: Option<[f64; 4]>) {
    app.invoke("set_screen", json!({ "screen": screen })).await;
    app.reload().await;
    app.wait_ready(15_000).await;
    if let Some(s) = insets {
        app.js_args(
            "const [t, r, b, l] = arguments[0]; const st = document.documentElement.style;
             st.setProperty('--safe-top', t + 'px'); st.setProperty('--safe-right', r + 'px');
             st.setProperty('--safe-bottom', b + 'px'); st.setProperty('--safe-left', l + 'px');",
            vec![json!(s)],
        )
        .await;
    }
    let base = screen.split(':').next().unwrap();
    app.wait_screen(base).await;
    // Let fonts, layout and the entry animations settle.
    app.js_args(
        "const done = arguments[arguments.length - 1]; document.fonts.ready.then(() => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 250))));",
        vec![],
    )
    .await;
}

async fn audit(app: &App, label: &str, safe: [f64; 4], min_target: f64) -> Vec<String> {
    let v = app
        .js_args(AUDIT, vec![json!(safe), json!(min_target)])
        .await;
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|p| format!("{label}: {}", p.as_str().unwrap_or("?")))
                .collect()
        })
        .unwrap_or_default()
}

/// Fail with every problem found, one a line, after their count and what they are.
fn fail_on(problems: &[String], what: &str) {
    if !problems.is_empty() {
        panic!("{} {what}:\n{}", problems.len(), problems.join("\n"));
    }
}

/// Start a `kind` game of `params` and `seed` over the current one, and [`show`] it.
async fn show_new_game(app: &App, kind: &str, params: &str, seed: u64) {
    let args = json!({ "kind": kind, "params": params, "seed": seed, "replace": true });
    app.invoke("new_game", args).await;
    show(app, &format!("game:{kind}"), None).await;
}

/// Open game `id` at its start: opening a game ID whose slot still plays it resumes it, so a
/// resumed game with moves is started over (for a known board). The view it opened.
async fn open_fresh(app: &App, id: &str) -> Value {
    let view = app.invoke("open_game", json!({ "id": id })).await;
    if view["snapshot"]["moves"].as_u64().unwrap_or(0) > 0 {
        let kind = view["snapshot"]["kind"].clone();
        app.invoke("restart", json!({ "kind": kind })).await;
    }
    view
}

/// The app launched with the games of [`seed_games`] in progress.
async fn launch_with_games(driver: &Driver) -> App {
    let app = driver.launch(&[]).await;
    seed_games(&app).await;
    app
}

/// Put one game of each kind in progress (a few moves in), so every screen has content.
async fn seed_games(app: &App) {
    let v = open_fresh(app, "slide:4x4:5,1,2,4,9,6,3,8,13,10,7,11,0,14,15,12").await;
    assert_eq!(v["snapshot"]["kind"], json!("slide"));
    for mv in [json!({"tile": 13}), json!({"tile": 10})] {
        app.invoke("play", json!({ "kind": "slide", "mv": mv }))
            .await;
    }
    let k = open_fresh(app, "klotski:aCCb/aCCb/cdde/cste/u..v").await;
    if k.get("snapshot").is_some() {
        app.invoke(
            "play",
            json!({ "kind": "klotski", "mv": { "piece": "u", "to": [4, 1] } }),
        )
        .await;
    }
    open_fresh(app, "2048:2,4,8,16,0,2,32,64,0,0,4,128,0,0,2,256#9").await;
    for dir in ["left", "up"] {
        app.invoke("play", json!({ "kind": "2048", "mv": { "dir": dir } }))
            .await;
    }
}

const SCREENS: &[Shot] = &[
    Shot {
        name: "home",
        open: None,
        screen: "home",
    },
    Shot {
        name: "levels-slide",
        open: None,
        screen: "levels:slide",
    },
    Shot {
        name: "levels-klotski",
        open: None,
        screen: "levels:klotski",
    },
    Shot {
        name: "levels-2048",
        open: None,
        screen: "levels:2048",
    },
    Shot {
        name: "game-slide",
        open: None,
        screen: "game:slide",
    },
    Shot {
        name: "game-klotski",
        open: None,
        screen: "game:klotski",
    },
    Shot {
        name: "game-2048",
        open: None,
        screen: "game:2048",
    },
    Shot {
        name: "game-slide-10x10",
        open: Some("slide:10x10#3"),
        screen: "game:slide",
    },
    Shot {
        name: "settings",
        open: None,
        screen: "settings",
    },
    Shot {
        name: "code",
        open: None,
        screen: "code",
    },
];

/// Open a one-move-from-solved slide (with the given safe-area insets) and win it, leaving
/// the finish dialog on screen.
async fn finish_screen(app: &App, insets: Option<[f64; 4]>) {
    app.invoke("open_game", json!({ "id": "slide:3x3:1,2,3,4,5,6,7,0,8" }))
        .await;
    show(app, "game:slide", insets).await;
    app.tap_tile(8).await;
    app.wait_finish().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
}

#[test]
fn e2e_screenshots_and_layout() {
    e2e_test("screens", async |driver| {
        let app = launch_with_games(driver).await;
        let mut problems = Vec::new();
        let mut count = 0;
        for (w, h) in [(360u32, 780u32), (390, 844)] {
            app.set_viewport(w, h).await;
            for lang in ["zh", "en"] {
                for theme in ["light", "dark"] {
                    app.invoke(
                        "set_settings",
                        json!({ "settings": { "language": lang, "theme": theme } }),
                    )
                    .await;
                    for s in SCREENS {
                        if let Some(id) = s.open {
                            app.invoke("open_game", json!({ "id": id })).await;
                        }
                        show(&app, s.screen, None).await;
                        let label = format!("{w}x{h}-{lang}-{theme}-{}", s.name);
                        app.shot(&label).await;
                        problems.extend(audit(&app, &label, [0.0; 4], 44.0).await);
                        count += 1;
                        if s.open.is_some() {
                            // put the seeded 4×4 back for the next round
                            seed_games(&app).await;
                        }
                    }
                    finish_screen(&app, None).await;
                    let label = format!("{w}x{h}-{lang}-{theme}-finish");
                    app.shot(&label).await;
                    problems.extend(audit(&app, &label, [0.0; 4], 44.0).await);
                    count += 1;
                    seed_games(&app).await;
                }
            }
        }
        // Other shapes: the smallest phone, landscape, a tablet (English, light + Chinese, dark).
        for (w, h) in [
            (320u32, 568u32),
            (568, 320),
            (844, 390),
            (820, 1180),
            (1180, 820),
            (430, 932),
        ] {
            app.set_viewport(w, h).await;
            for (lang, theme) in [("en", "light"), ("zh", "dark")] {
                app.invoke(
                    "set_settings",
                    json!({ "settings": { "language": lang, "theme": theme } }),
                )
                .await;
                for s in SCREENS.iter().filter(|s| s.open.is_none()) {
                    show(&app, s.screen, None).await;
                    let label = format!("{w}x{h}-{lang}-{theme}-{}", s.name);
                    app.shot(&label).await;
                    // Landscape phones are short: controls there may be 40 px tall.
                    let min = if h < 500 { 40.0 } else { 44.0 };
                    problems.extend(audit(&app, &label, [0.0; 4], min).await);
                    count += 1;
                }
            }
        }
        figure(&format!("screenshots: {count} saved under tests/e2e/out/"));
        // The audit itself catches what it claims to: a grey-on-white label, a clipped
        // label, a nameless button and a control under an inset.
        show(&app, "home", None).await;
        app.js(
            "const p = document.createElement('p'); p.textContent = 'faint text';
             p.style.color = '#aaaaaa'; p.style.background = '#ffffff';
             const b = document.createElement('button'); b.className = 'btn';
             const l = document.createElement('span'); l.className = 'card-desc'; l.textContent = 'a label far too long for its box';
             l.style.display = 'block'; l.style.width = '40px'; l.style.overflow = 'hidden'; l.style.whiteSpace = 'nowrap';
             document.querySelector('.scroll').prepend(p, b, l);",
        )
        .await;
        let caught = audit(&app, "self-test", [60.0, 0.0, 0.0, 0.0], 44.0)
            .await
            .join("\n");
        for what in [
            "contrast",
            "text clipped",
            "no accessible name",
            "under the top/bottom edge or inset",
        ] {
            assert!(
                caught.contains(what),
                "the audit misses '{what}':\n{caught}"
            );
        }
        fail_on(&problems, "layout problems");
        app.quit().await;
    });
}

/// Draw a phone's notch and home indicator into the safe-area insets (decoration for the
/// screenshot only; CSSOM styles, allowed by the CSP).
const NOTCH: &str = r#"
const [t, r, b, l] = arguments[0];
const W = innerWidth, H = innerHeight;
const add = (x, y, w, h, radius, color) => {
  const d = document.createElement('div');
  Object.assign(d.style, { position: 'fixed', left: x + 'px', top: y + 'px', width: w + 'px', height: h + 'px', borderRadius: radius + 'px', background: color, zIndex: 99, pointerEvents: 'none' });
  document.body.append(d);
};
const ink = document.documentElement.dataset.theme === 'dark' ? '#f0f0f0' : '#111';
if (t) add(W / 2 - 63, 11, 126, 36, 18, '#000');
if (l) add(11, H / 2 - 63, 36, 126, 18, '#000');
if (b) add(W / 2 - 67, H - Math.min(b, 21) + 8, 134, 5, 3, ink);
return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => done(true), 100))));
"#;

#[test]
fn e2e_safe_area_insets_leave_controls_clear() {
    e2e_test("safe_area", async |driver| {
        let app = launch_with_games(driver).await;
        let mut problems = Vec::new();
        // A notch phone in portrait (top 47, bottom 34), and in landscape (sides 47, bottom 21).
        for ((w, h), insets) in [
            ((390u32, 844u32), [47.0, 0.0, 34.0, 0.0]),
            ((844, 390), [0.0, 47.0, 21.0, 47.0]),
        ] {
            app.set_viewport(w, h).await;
            for s in SCREENS.iter().filter(|s| s.open.is_none()) {
                show(&app, s.screen, Some(insets)).await;
                let label = format!("insets-{w}x{h}-{}", s.name);
                // The variables really are in force (the app frame moved).
                let pad = app.js("return parseFloat(getComputedStyle(document.getElementById('app')).paddingTop)").await;
                assert_eq!(
                    pad.as_f64().unwrap(),
                    insets[0],
                    "{label}: --safe-top applied"
                );
                app.shot(&label).await;
                let min = if h < 500 { 40.0 } else { 44.0 };
                problems.extend(audit(&app, &label, insets, min).await);
                if s.name == "home" || s.name == "game-klotski" {
                    // The same screen as a phone shows it: the notch (a camera island) and the
                    // home indicator drawn into the insets (README: tests/e2e/screenshots).
                    app.js_args(NOTCH, vec![json!(insets)]).await;
                    app.shot(&format!("{label}-notch")).await;
                }
            }
            // The finish dialog too.
            finish_screen(&app, Some(insets)).await;
            let label = format!("insets-{w}x{h}-finish");
            app.shot(&label).await;
            problems.extend(audit(&app, &label, insets, 40.0).await);
            seed_games(&app).await;
        }
        fail_on(&problems, "controls under the insets");
        app.quit().await;
    });
}

fn stats(v: &[f64]) -> String {
    format!(
        "n={} p50={:.2} ms p95={:.2} ms max={:.2} ms",
        v.len(),
        percentile(v, 50.0),
        percentile(v, 95.0),
        v.iter().cloned().fold(0.0, f64::max)
    )
}

/// The frame monitor's figures of the drags so far: the longest gap of each drag, and how
/// many of all the frames' gaps exceed 50 ms.
async fn drag_figures(app: &App, what: &str) {
    let runs = app.js("return window.__huarongFrames.runs").await;
    let runs: Vec<Vec<f64>> = runs
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .filter_map(|x| x.as_f64())
                .collect()
        })
        .collect();
    assert!(!runs.is_empty(), "{what}: no drag was monitored");
    let longest: Vec<f64> = runs
        .iter()
        .map(|r| r.iter().cloned().fold(0.0, f64::max))
        .collect();
    let frames: usize = runs.iter().map(Vec::len).sum();
    let over = runs.iter().flatten().filter(|&&g| g > 50.0).count();
    figure(&format!(
        "{what}: longest frame gap per drag: {}; frames {frames}, gaps over 50 ms: {over}",
        stats(&longest)
    ));
}

fn numbers(v: &Value, key: &str) -> Vec<f64> {
    v.as_array()
        .map(|a| a.iter().filter_map(|m| m[key].as_f64()).collect())
        .unwrap_or_default()
}

#[test]
fn e2e_measured_figures() {
    e2e_test("figures", async |driver| {
        // Launch to interactive home, three times (the first start creates the data file).
        let mut wall = Vec::new();
        let mut page = Vec::new();
        let mut process = Vec::new();
        for _ in 0..3 {
            let app = driver.launch_home().await;
            wall.push(app.ready_ms);
            page.push(app.in_page_ready_ms);
            if let Some(ms) = app.process_ready_ms {
                process.push(ms);
            }
            app.quit().await;
        }
        figure(&format!(
            "launch to interactive home, session request → ready (wall): {}",
            stats(&wall)
        ));
        figure(&format!(
            "launch to interactive home, navigation start → ready (in page): {}",
            stats(&page)
        ));
        figure(&format!(
            "launch to interactive home, app process start → ready: {}",
            stats(&process)
        ));

        // Move round-trips: 2048 by arrow keys, number slide by taps, each made with the board
        // at rest (a player's next move comes after the last one's animation: 2048's slide,
        // merge and spawn end ≈ 290 ms after the key, a slide tile ≈ 170 ms after the tap).
        // Under Xvfb every animation frame is painted in software on the main thread, so a
        // move made during the last one's animation measures the painting too; the number
        // slide's back-to-back taps are reported as well.
        let (app, _) = driver.launch_open("2048#77").await;
        app.js("document.querySelector('.board').focus()").await;
        let keyseq = [keys::LEFT, keys::DOWN, keys::RIGHT, keys::DOWN];
        for i in 0..60 {
            app.key(keyseq[i % 4]).await;
            tokio::time::sleep(Duration::from_millis(400)).await;
            if i % 10 == 9 && app.board().await.unwrap().status != "playing" {
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
        let moves = app.js("return window.__huarongPerf.moves").await;
        let rt = numbers(&moves, "rt");
        let frame = numbers(&moves, "frame");
        let inv: Vec<f64> = app
            .js("return window.__huarongPerf.invokes.filter((x) => x[0] === 'play').map((x) => x[1])")
            .await
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|x| x.as_f64())
            .collect();
        assert!(
            rt.len() >= 20,
            "at least 20 2048 moves measured ({})",
            rt.len()
        );
        figure(&format!(
            "2048 move (at rest): invoke → DOM updated + layout: {}",
            stats(&rt)
        ));
        figure(&format!(
            "2048 move (at rest): invoke → next animation frame (repaint): {}",
            stats(&frame)
        ));
        figure(&format!("2048 play invoke alone: {}", stats(&inv)));
        figure(&format!(
            "2048 move (at rest) breakdown: ipc {} | apply {} | style+layout {}",
            stats(&numbers(&moves, "ipc")),
            stats(&numbers(&moves, "apply")),
            stats(&numbers(&moves, "layout"))
        ));
        app.quit().await;

        let (app, mut b) = driver.launch_open("slide:4x4#99").await;
        let mut last = 0;
        for _ in 0..30 {
            (b, last) = app.tap_next(&b, last).await;
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        let moves = app.js("return window.__huarongPerf.moves").await;
        figure(&format!(
            "slide 4×4 tap (at rest): invoke → DOM updated + layout: {}",
            stats(&numbers(&moves, "rt"))
        ));
        figure(&format!(
            "slide 4×4 tap (at rest): invoke → next animation frame: {}",
            stats(&numbers(&moves, "frame"))
        ));
        figure(&format!(
            "slide 4×4 tap (at rest) breakdown: ipc {} | apply {} | style+layout {}",
            stats(&numbers(&moves, "ipc")),
            stats(&numbers(&moves, "apply")),
            stats(&numbers(&moves, "layout"))
        ));
        // Back to back: the next tap as soon as the move count changed.
        app.js("window.__huarongPerf.moves.length = 0").await;
        for _ in 0..30 {
            (b, last) = app.tap_next(&b, last).await;
        }
        let moves = app.js("return window.__huarongPerf.moves").await;
        figure(&format!(
            "slide 4×4 taps back to back (last tile still sliding): invoke → DOM updated + layout: {}",
            stats(&numbers(&moves, "rt"))
        ));
        app.quit().await;

        // The longest main-thread stall during drags. WebKitGTK has no PerformanceObserver
        // 'longtask' entries, so the page records every gap between animation frames from
        // pointerdown to pointerup (a 60 Hz display gives ≈ 16.7 ms when nothing stalls).
        let has_longtask = {
            let app = driver
                .launch(&["--open", "klotski:aCCb/aCCb/cdde/cs.e/t..u"])
                .await;
            // Steady state: let the four sound players be created first (the first one wakes
            // WebKit's media stack up, a one-off main-thread cost reported on its own).
            let audio = app
                .wait_js(
                    "const a = window.__huarongPerf.audio; return a.length >= 4 ? a : null",
                    10_000,
                )
                .await;
            let costs: Vec<f64> = audio
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|x| x[1].as_f64())
                .collect();
            figure(&format!(
                "sound players created after start-up (one per 150 ms): first {:.0} ms, others max {:.0} ms of main thread",
                costs[0],
                costs[1..].iter().cloned().fold(0.0, f64::max)
            ));
            let lt = app.js("return !!(window.PerformanceObserver && PerformanceObserver.supportedEntryTypes && PerformanceObserver.supportedEntryTypes.includes('longtask'))").await;
            app.wait_board().await;
            let cell = app.cell_px().await;
            for _ in 0..8 {
                let r = app.rect("[data-piece='s']").await;
                let (x, y) = (r.cx(), r.cy());
                app.drag(
                    &[
                        (x, y),
                        (x, y + cell),
                        (x + cell, y + cell),
                        (x, y + cell),
                        (x, y),
                    ],
                    10,
                )
                .await;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            drag_figures(&app, "Klotski drag (40 pointer moves each)").await;
            app.quit().await;
            lt.as_bool().unwrap_or(false)
        };
        let app = driver.launch(&["--open", "slide:10x10#5"]).await;
        app.wait_js(
            "return window.__huarongPerf.audio.length >= 4 ? true : null",
            10_000,
        )
        .await;
        let b = app.wait_board().await;
        let (w, _, tiles) = parse_slide(&b.state);
        let blank = tiles.iter().position(|&t| t == 0).unwrap();
        // The tile three to the left of the blank (or right): a run of three.
        let (r, c) = (blank / w, blank % w);
        let far = if c >= 3 {
            tiles[r * w + c - 3]
        } else {
            tiles[r * w + c + 3]
        };
        let cell = app.cell_px().await;
        let sign = if c >= 3 { 1.0 } else { -1.0 };
        for _ in 0..8 {
            let rt = app.rect(&format!("[data-tile='{far}']")).await;
            app.drag(
                &[
                    (rt.cx(), rt.cy()),
                    (rt.cx() + sign * cell * 0.8, rt.cy()),
                    (rt.cx(), rt.cy()),
                ],
                15,
            )
            .await;
        }
        drag_figures(&app, "10×10 run drag (30 pointer moves each)").await;
        figure(&format!(
            "PerformanceObserver longtask supported in this WebKitGTK: {has_longtask} (the frame-gap monitor is used instead)"
        ));
        app.quit().await;
    });
}

/// The play loop's screens at 390×844 and 360×780 in both languages: the new-game dialog over
/// a game, the Klotski win animation held half-way, the 2048 direction pad (each audited
/// like every other screen, except the win frame, which is mid-animation by design).
#[test]
fn e2e_play_loop_screenshots() {
    e2e_test("play_loop_shots", async |driver| {
        let app = driver.launch(&[]).await;
        let mut problems = Vec::new();
        for (w, h) in [(390u32, 844u32), (360, 780)] {
            app.set_viewport(w, h).await;
            for lang in ["zh", "en"] {
                app.invoke(
                    "set_settings",
                    json!({ "settings": { "language": lang, "theme": "light", "pad": false } }),
                )
                .await;
                // The new-game question over a 4×4 with a move made.
                show_new_game(&app, "slide", "4x4", 7).await;
                app.tap_moves(1).await;
                app.click("[data-action=new]").await;
                app.wait_for("[data-dialog=confirm]").await;
                app.wait_at_rest("[data-dialog=confirm]").await; // faded in
                let label = format!("{w}x{h}-{lang}-new-game-dialog");
                app.shot(&label).await;
                problems.extend(audit(&app, &label, [0.0; 4], 44.0).await);
                app.click("[data-dialog=confirm] [data-action=cancel]")
                    .await;

                // Cao Cao half-way out through the exit (the animation held at 45 %).
                app.invoke(
                    "open_game",
                    json!({ "id": "klotski:addb/afgb/cCCe/cCCe/s..h", "replace": true }),
                )
                .await;
                show(&app, "game:klotski", None).await;
                app.click("[data-piece='C']").await;
                app.wait_js(
                    "return document.querySelector('[data-status=won]') && document.getAnimations().some((a) => a.id === 'win') ? true : null",
                    10_000,
                )
                .await;
                app.js(
                    "const a = document.getAnimations().find((a) => a.id === 'win');
                     a.pause(); a.currentTime = 1300 * 0.45; return true",
                )
                .await;
                assert!(
                    !app.exists("[data-finish]").await,
                    "the finish dialog waits for the animation"
                );
                app.shot(&format!("{w}x{h}-{lang}-klotski-win-midway"))
                    .await;
                app.js("document.getAnimations().find((a) => a.id === 'win').play(); return true")
                    .await;
                app.wait_finish().await;

                // The 2048 direction pad (setting on).
                app.invoke("set_settings", json!({ "settings": { "pad": true } }))
                    .await;
                show_new_game(&app, "2048", "", 11).await;
                app.wait_for("[data-action=dir-up]").await;
                let label = format!("{w}x{h}-{lang}-2048-pad");
                app.shot(&label).await;
                problems.extend(audit(&app, &label, [0.0; 4], 44.0).await);
            }
        }
        fail_on(&problems, "layout problems");
        app.quit().await;
    });
}

#[test]
fn e2e_wide_fallback_font_keeps_every_label_on_one_line() {
    e2e_test("wide_font", async |driver| {
        let app = launch_with_games(driver).await;
        let mut problems = Vec::new();
        // The one-line check catches a wrapped label (tested on a planted one first).
        app.set_viewport(360, 780).await;
        show(&app, "home", None).await;
        app.js(
            "const b = document.createElement('button'); b.className = 'btn'; b.textContent = 'a label far too long to stay on one line';
             b.style.whiteSpace = 'normal'; b.style.width = '90px'; document.querySelector('.scroll').prepend(b);",
        )
        .await;
        let caught = one_line(&app, "self-test").await.join("\n");
        assert!(
            caught.contains("runs onto"),
            "the one-line check misses a wrapped label:\n{caught}"
        );
        for (w, h) in [(360u32, 780u32), (390, 844)] {
            app.set_viewport(w, h).await;
            for lang in ["zh", "en"] {
                app.invoke(
                    "set_settings",
                    json!({ "settings": { "language": lang, "theme": "light" } }),
                )
                .await;
                for screen in ["home", "game:slide", "game:klotski", "game:2048"] {
                    show(&app, screen, None).await;
                    force_wide_font(&app).await;
                    let label = format!("{w}x{h}-{lang}-widefont-{}", screen.replace(':', "-"));
                    app.shot(&label).await;
                    problems.extend(one_line(&app, &label).await);
                    problems.extend(audit(&app, &label, [0.0; 4], 44.0).await);
                    if screen == "home" {
                        // Today's challenge first; 2048 (with a game of each kind in progress)
                        // still on the first screen.
                        let v = app
                            .js("const b = document.querySelector('.game-card[data-kind=\"2048\"] .card-actions .btn'); return [document.querySelector('.scroll > *').className, b ? b.getBoundingClientRect().bottom : 1e9, innerHeight];")
                            .await;
                        assert_eq!(
                            v[0],
                            json!("today"),
                            "{label}: home leads with today's challenge"
                        );
                        assert!(
                            v[1].as_f64().unwrap() <= v[2].as_f64().unwrap(),
                            "{label}: the 2048 card is below the first screen: {v}"
                        );
                    }
                }
                finish_screen(&app, None).await;
                force_wide_font(&app).await;
                let label = format!("{w}x{h}-{lang}-widefont-finish");
                app.shot(&label).await;
                problems.extend(one_line(&app, &label).await);
                problems.extend(audit(&app, &label, [0.0; 4], 44.0).await);
                seed_games(&app).await;
            }
        }
        // The audit's dialog check catches a sheet that does not lift off its backdrop.
        finish_screen(&app, None).await;
        // Flat: the page's own colour, and no rim.
        app.js("const s = document.querySelector('.overlay .sheet'); s.style.background = getComputedStyle(document.documentElement).backgroundColor; s.style.borderColor = 'transparent';")
            .await;
        let caught = audit(&app, "self-test", [0.0; 4], 44.0).await.join("\n");
        assert!(
            caught.contains("dialog contrast"),
            "the audit misses a flat dialog:\n{caught}"
        );
        fail_on(&problems, "layout problems with a wide fallback font");
        app.quit().await;
    });
}
