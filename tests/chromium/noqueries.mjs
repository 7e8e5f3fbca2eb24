// Every board without container queries (issue 24): the real ui/ in Debian's chromium, as an
// engine without container units would see it (iOS 15's WKWebView, Android WebViews before
// Chrome 105).
//
// Started by tests/tests/chromium_touch.rs (`chromium_boards_keep_their_size_without_container_queries`)
// with a fresh app on tauri's mock runtime behind the loopback bridge (HUARONG_BRIDGE); one phone,
// 390×844, touch. Chromium has no switch that turns container queries off (they shipped in 105 and
// their runtime flag is gone), so every stylesheet the page loads is rewritten on its way in
// (Playwright route): each declaration with a cq* length and each `container-type` /
// `container-name` / `container` declaration is dropped, and `@container` blocks with them: what
// an old engine drops when it parses the file. Everything else is the shipped CSS under the
// shipped CSP.
//
// For each board (number slide 3×3 and 5×5, Klotski, 2048): the board (its frame and its grid)
// is at least 280 px wide, fits inside the play area and the screen, and takes a move by touch.
// The test can fail: the same boards with the fallbacks dropped too (the CSS as it was before
// issue 24) must collapse below 280 px, or the rewrite did not do what an old engine does.
// Screenshots (not kept in git): tests/e2e/out/chromium-noqueries-<board>.png, and
// chromium-noqueries-FAILED-<board>.png for a board that failed.
//
// Exit codes: 0 passed, 1 a check failed, 3 chromium could not start, 4 playwright-core missing.

import path from 'node:path';
import fs from 'node:fs';

const EXIT_FAIL = 1;
const EXIT_NO_BROWSER = 3;
const EXIT_NO_DEPS = 4;

const BRIDGE = process.env.HUARONG_BRIDGE;
const CHROMIUM = process.env.HUARONG_CHROMIUM || '/usr/bin/chromium';
const OUT = process.env.HUARONG_FAILED_SHOTS;
const PHONE = { width: 390, height: 844 };
const MIN_WIDTH = 280;
const WAIT_MS = 10_000;

if (!BRIDGE || !OUT) {
  console.error('noqueries.mjs: HUARONG_BRIDGE and HUARONG_FAILED_SHOTS must be set (run it through cargo test)');
  process.exit(EXIT_FAIL);
}

let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch (e) {
  console.error(`noqueries.mjs: playwright-core is missing (npm ci --prefix tests/chromium): ${e.message}`);
  process.exit(EXIT_NO_DEPS);
}

setTimeout(() => {
  console.error('noqueries.mjs: the run took over 100 s');
  process.exit(EXIT_FAIL);
}, 100_000).unref();

class CheckFailed extends Error {}
function check(cond, msg) {
  if (!cond) throw new CheckFailed(msg);
}

// ------------------------------------------------------------------ the old engine's CSS

const CQ = /(?<![\w-])[-+]?(?:\d+\.?\d*|\.\d+)cq(?:w|h|i|b|min|max)\b/i;
const CONTAINER_PROP = /^container(-type|-name)?$/i;

/** Drops `@container` blocks (with nested braces). */
function dropContainerRules(css) {
  let out = '';
  let i = 0;
  for (;;) {
    const at = css.toLowerCase().indexOf('@container', i);
    if (at < 0) return out + css.slice(i);
    out += css.slice(i, at);
    let j = css.indexOf('{', at);
    if (j < 0) return out;
    let depth = 0;
    for (; j < css.length; j++) {
      if (css[j] === '{') depth += 1;
      else if (css[j] === '}' && --depth === 0) break;
    }
    i = j + 1;
  }
}

/**
 * The stylesheet as an engine without container queries keeps it. `alsoFallbacks`: also drop
 * every other declaration of a property that has a cq* one in the same block (the CSS as it was
 * before the fallbacks), for the control run. Returns the text and what was dropped.
 */
function withoutContainerQueries(css, alsoFallbacks) {
  const dropped = [];
  const text = dropContainerRules(css.replace(/\/\*[\s\S]*?\*\//g, ''));
  const out = text.replace(/\{([^{}]*)\}/g, (block, body) => {
    const decls = body.split(';');
    const cqProps = new Set();
    for (const d of decls) {
      const m = /^\s*([-a-zA-Z]+)\s*:([\s\S]*)$/.exec(d);
      if (m && CQ.test(m[2])) cqProps.add(m[1].toLowerCase());
    }
    const kept = decls.filter((d) => {
      const m = /^\s*([-a-zA-Z]+)\s*:([\s\S]*)$/.exec(d);
      if (!m) return true;
      const prop = m[1].toLowerCase();
      const drop = CQ.test(m[2]) || CONTAINER_PROP.test(prop) || (alsoFallbacks && cqProps.has(prop));
      if (drop) dropped.push(`${prop}:${m[2].trim()}`);
      return !drop;
    });
    return `{${kept.join(';')}}`;
  });
  return { css: out, dropped };
}

// ------------------------------------------------------------------ the page

/** A command called straight on the bridge. */
async function invoke(cmd, args = {}) {
  const r = await fetch(new URL('__invoke', BRIDGE), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cmd, args }),
  });
  const j = await r.json();
  if (!('ok' in j)) throw new CheckFailed(`${cmd}(${JSON.stringify(args)}) failed: ${JSON.stringify(j.error)}`);
  return j.ok;
}

/** Tauri's `invoke` for the page, backed by the bridge (as in touch.mjs), and an error probe. */
function initScript() {
  const post = async (cmd, args) => {
    const r = await fetch('/__invoke', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cmd, args: args === undefined ? {} : args }),
    });
    const j = await r.json();
    if ('ok' in j) return j.ok;
    throw j.error;
  };
  const internals = { invoke: (cmd, args) => post(cmd, args), metadata: { currentWindow: { label: 'main' }, currentWebview: { label: 'main', windowLabel: 'main' } } };
  Object.defineProperty(window, '__TAURI_INTERNALS__', { value: internals });
  Object.defineProperty(window, '__TAURI__', { value: Object.freeze({ core: Object.freeze({ invoke: (cmd, args) => internals.invoke(cmd, args) }) }) });
  const probe = { csp: [], errors: [] };
  Object.defineProperty(window, '__probe', { value: probe });
  document.addEventListener('securitypolicyviolation', (e) => probe.csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  addEventListener('error', (e) => probe.errors.push(String(e.message)));
  addEventListener('unhandledrejection', (e) => probe.errors.push(`unhandled rejection: ${JSON.stringify(e.reason)}`));
  Object.freeze(Object.prototype);
}

async function openPhone(browser, alsoFallbacks) {
  const ctx = await browser.newContext({
    viewport: PHONE,
    screen: PHONE,
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
    colorScheme: 'light',
  });
  await ctx.addInitScript(initScript);
  const rewritten = [];
  await ctx.route('**/*.css', async (route) => {
    const response = await route.fetch();
    const { css, dropped } = withoutContainerQueries(await response.text(), alsoFallbacks);
    rewritten.push({ url: new URL(route.request().url()).pathname, dropped });
    await route.fulfill({ response, body: css });
  });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('response', (r) => {
    if (r.status() >= 400 && new URL(r.url()).pathname !== '/favicon.ico') errors.push(`HTTP ${r.status()} for ${r.url()}`);
  });
  return { ctx, page, rewritten, errors };
}

/** Open a game ID through the real `open_game`, show its screen, wait for its board. */
async function openBoard(p, id) {
  const view = await invoke('open_game', { id, replace: true });
  const kind = view.snapshot.kind;
  await invoke('set_screen', { screen: `game:${kind}` });
  await p.page.goto(BRIDGE, { waitUntil: 'load' });
  await p.page.waitForFunction(() => document.body && document.body.dataset.ready === '1', null, { timeout: WAIT_MS });
  await p.page.waitForFunction(
    ([k, b]) => {
      const el = document.querySelector('[data-game][data-state]');
      return el && el.dataset.game === k && el.dataset.state === b;
    },
    [kind, view.snapshot.board],
    { timeout: WAIT_MS },
  );
  await p.page.evaluate(() => document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))));
  return view.snapshot;
}

/** The laid-out sizes that make a board playable. */
async function measure(page) {
  return page.evaluate(() => {
    const r = (e) => {
      if (!e) return null;
      const b = e.getBoundingClientRect();
      return { x: b.left, y: b.top, w: b.width, h: b.height, right: b.right, bottom: b.bottom };
    };
    const board = document.querySelector('[data-game]');
    return {
      board: r(board),
      grid: r(board && board.querySelector('.grid')),
      play: r(document.querySelector('.play-area')),
      foot: r(document.querySelector('.game-foot')),
      supportsCq: CSS.supports('width', '1cqw'),
      viewport: [innerWidth, innerHeight],
      overflow: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
    };
  });
}

async function state(page) {
  return page.evaluate(() => document.querySelector('[data-game][data-state]').dataset.state);
}

async function waitChange(page, from, what) {
  try {
    await page.waitForFunction((s) => document.querySelector('[data-game][data-state]').dataset.state !== s, from, { timeout: WAIT_MS });
  } catch (e) {
    throw new CheckFailed(`${what}: the board did not take the move (still ${from})`);
  }
}

async function rectOf(page, css) {
  const r = await page.evaluate((s) => {
    const e = document.querySelector(s);
    if (!e) return null;
    const b = e.getBoundingClientRect();
    return { cx: b.left + b.width / 2, cy: b.top + b.height / 2, w: b.width, h: b.height };
  }, css);
  check(r, `no element matches ${css}`);
  return r;
}

/** One finger from a to b in six steps (CDP touches, one per frame), then lifted. */
async function drag(page, cdp, a, b) {
  const frame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
  const touch = (type, pts) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: pts.map((q) => ({ x: q.x, y: q.y, id: 0, radiusX: 4, radiusY: 4, force: 1 })) });
  await touch('touchStart', [a]);
  await frame();
  for (let i = 1; i <= 6; i++) {
    const t = i / 6;
    await touch('touchMove', [{ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t }]);
    await frame();
  }
  await touch('touchEnd', []);
  await frame();
}

// The boards, each with one move by touch.
const BOARDS = [
  {
    name: 'slide-3x3',
    id: 'slide:3x3:1,2,3,4,0,6,7,5,8',
    async move(page) {
      const r = await rectOf(page, "[data-tile='6']");
      await page.touchscreen.tap(r.cx, r.cy);
    },
  },
  {
    name: 'slide-5x5',
    id: 'slide:5x5:1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,0,24',
    async move(page) {
      const r = await rectOf(page, "[data-tile='24']");
      await page.touchscreen.tap(r.cx, r.cy);
    },
  },
  {
    name: 'klotski',
    id: 'klotski:aCCb/aCCb/cdde/cs.e/t..u',
    async move(page, cdp) {
      const r = await rectOf(page, "[data-piece='s']");
      await drag(page, cdp, { x: r.cx, y: r.cy }, { x: r.cx, y: r.cy + r.h });
    },
  },
  {
    name: '2048',
    id: '2048:2,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0#5',
    async move(page, cdp) {
      const r = await rectOf(page, '[data-game]');
      await drag(page, cdp, { x: r.cx + r.w * 0.3, y: r.cy }, { x: r.cx - r.w * 0.3, y: r.cy });
    },
  },
];

const fmt = (m) => `board ${JSON.stringify(m.board)}, grid ${JSON.stringify(m.grid)}, play area ${JSON.stringify(m.play)}`;

/** With the fallbacks (the shipped CSS minus what an old engine drops): playable. */
async function fallbackBoard(browser, b) {
  const p = await openPhone(browser, false);
  try {
    const cdp = await p.ctx.newCDPSession(p.page);
    await openBoard(p, b.id);
    const m = await measure(p.page);
    const dropped = p.rewritten.flatMap((x) => x.dropped);
    check(dropped.some((d) => CQ.test(d)) && dropped.some((d) => d.startsWith('container-type')),
      `${b.name}: the rewrite dropped no cq* length or container-type (${JSON.stringify(p.rewritten)})`);
    check(m.board && m.grid, `${b.name}: no board laid out`);
    check(m.board.w >= MIN_WIDTH && m.grid.w >= MIN_WIDTH - 40, `${b.name}: the board is ${m.board.w.toFixed(1)} px wide (grid ${m.grid.w.toFixed(1)}), want >= ${MIN_WIDTH}: ${fmt(m)}`);
    check(m.grid.h >= MIN_WIDTH * 0.5, `${b.name}: the grid is ${m.grid.h.toFixed(1)} px tall: ${fmt(m)}`);
    const inside = (r, o) => r.x >= o.x - 0.5 && r.y >= o.y - 0.5 && r.right <= o.right + 0.5 && r.bottom <= o.bottom + 0.5;
    check(inside(m.board, m.play), `${b.name}: the board spills out of the play area: ${fmt(m)}`);
    check(inside(m.board, { x: 0, y: 0, right: m.viewport[0], bottom: m.viewport[1] }), `${b.name}: the board leaves the screen: ${fmt(m)}`);
    check(!m.foot || m.board.bottom <= m.foot.y + 0.5, `${b.name}: the board covers the buttons below it: ${fmt(m)}, foot ${JSON.stringify(m.foot)}`);
    check(m.overflow[0] <= m.overflow[1], `${b.name}: horizontal overflow ${JSON.stringify(m.overflow)}`);
    const before = await state(p.page);
    await b.move(p.page, cdp);
    await waitChange(p.page, before, b.name);
    const probe = await p.page.evaluate(() => window.__probe);
    check(probe.csp.length === 0 && probe.errors.length === 0 && p.errors.length === 0,
      `${b.name}: page errors ${JSON.stringify({ probe, errors: p.errors })}`);
    const png = await p.page.screenshot({ animations: 'disabled', caret: 'hide', scale: 'css' });
    fs.writeFileSync(path.join(OUT, `chromium-noqueries-${b.name}.png`), png);
    return `board ${m.board.w.toFixed(0)}×${m.board.h.toFixed(0)} px (cq units ${m.supportsCq ? 'parsed by this engine, but dropped from the CSS' : 'unsupported'})`;
  } catch (e) {
    await p.page.screenshot({ path: path.join(OUT, `chromium-noqueries-FAILED-${b.name}.png`) }).catch(() => {});
    throw e;
  } finally {
    await p.ctx.close();
  }
}

/** Control: without the fallbacks the board collapses (what issue 24 found on iOS 15). */
async function collapsedBoard(browser, b) {
  const p = await openPhone(browser, true);
  try {
    await openBoard(p, b.id);
    const m = await measure(p.page);
    check(m.board && m.board.w < MIN_WIDTH, `${b.name}: with the fallbacks dropped too the board is still ${m.board && m.board.w.toFixed(1)} px wide: this run does not reproduce an engine without container units`);
    return `collapses to ${m.board.w.toFixed(0)} px`;
  } finally {
    await p.ctx.close();
  }
}

fs.mkdirSync(OUT, { recursive: true });
for (const f of fs.readdirSync(OUT)) if (f.startsWith('chromium-noqueries-') && f.endsWith('.png')) fs.rmSync(path.join(OUT, f));
let browser;
try {
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, timeout: 60_000 });
} catch (e) {
  console.error(`noqueries.mjs: chromium (${CHROMIUM}) could not start: ${e.message}`);
  process.exit(EXIT_NO_BROWSER);
}
console.log(`chromium ${browser.version()}`);
let failed = 0;
try {
  for (const b of BOARDS) {
    for (const [what, run] of [['without container queries', fallbackBoard], ['control, no fallbacks', collapsedBoard]]) {
      try {
        console.log(`ok   ${b.name} ${what}: ${await run(browser, b)}`);
      } catch (e) {
        failed += 1;
        console.log(`FAIL ${b.name} ${what}: ${e instanceof CheckFailed ? e.message : e.stack}`);
      }
    }
  }
} finally {
  await browser.close();
}
process.exit(failed ? EXIT_FAIL : 0);
