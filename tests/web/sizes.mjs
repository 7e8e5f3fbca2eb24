// 2048 on other board sizes on the web page, in Debian's chromium with touch: from
// home into 2048's levels, the size choice (`[data-size="5x5"]`, `aria-pressed`), then a 5×5 at
// 390×844 and an 8×8 at 360×780 (the narrowest phone the suites use) started with the primary
// button and played by swipes (CDP touch events, one move per frame). After each swipe the
// board Rust sent is checked against the rule written here (the slide of every line, one merge
// per tile, then exactly one new tile); the test picks a direction that moves, so every swipe
// is a move and every wait is on the move count. The board must fit the screen at every size,
// its numbers legible (a face's text at least 10 px and inside its tile), also for an 8×8
// whose first row shows three- to six-digit tiles. Screenshots:
// web-en-2048-sizes.png (levels), web-en-2048-5x5.png, web-zh-2048-8x8.png,
// web-zh-2048-8x8-big.png.
//
// Started by tests/tests/web_chromium.rs (HUARONG_SHOTS). Exit codes as common.mjs.

import path from 'node:path';
import fs from 'node:fs';
import { EXIT_FAIL, check, suite, phone, until, call, tap, humanStep } from './common.mjs';

const SHOTS = process.env.HUARONG_SHOTS;
if (!SHOTS) {
  console.error('sizes.mjs: HUARONG_SHOTS must be set (run it through cargo test -p huarong-tests --test web_chromium)');
  process.exit(EXIT_FAIL);
}
fs.mkdirSync(SHOTS, { recursive: true });

const DIRS = ['left', 'right', 'up', 'down'];

/** One line of tile values slid toward its start: each tile merges at most once. */
function slideLine(line) {
  const tiles = line.filter((v) => v !== 0);
  const out = [];
  for (let i = 0; i < tiles.length; i++) {
    if (i + 1 < tiles.length && tiles[i] === tiles[i + 1] && tiles[i] < 131072) {
      out.push(tiles[i] * 2);
      i++;
    } else out.push(tiles[i]);
  }
  while (out.length < line.length) out.push(0);
  return out;
}

/** The board slid in `dir` (n×n, row-major values), by the rule. */
function slide(cells, n, dir) {
  const out = cells.slice();
  for (let k = 0; k < n; k++) {
    const idx = [];
    for (let j = 0; j < n; j++) {
      idx.push(dir === 'left' ? n * k + j : dir === 'right' ? n * k + n - 1 - j : dir === 'up' ? n * j + k : n * (n - 1 - j) + k);
    }
    const moved = slideLine(idx.map((c) => cells[c]));
    idx.forEach((c, j) => (out[c] = moved[j]));
  }
  return out;
}

async function shown(page) {
  return page.evaluate(() => {
    const b = document.querySelector('[data-game][data-state]');
    return b ? { game: b.dataset.game, state: b.dataset.state, moves: Number(b.dataset.moves), status: b.dataset.status } : null;
  });
}

async function rect(page, css) {
  const r = await page.evaluate((s) => {
    const el = document.querySelector(s);
    if (!el) return null;
    const b = el.getBoundingClientRect();
    return { x: b.left, y: b.top, w: b.width, h: b.height, cx: b.left + b.width / 2, cy: b.top + b.height / 2 };
  }, css);
  check(r, `nothing matches ${css}`);
  return r;
}

/** A one-finger swipe by CDP touch events, one move per painted frame. */
async function swipe(page, cdp, from, to) {
  await humanStep(page);
  const frame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
  const touch = (type, pts) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: pts.map((p) => ({ x: p.x, y: p.y, id: 0, radiusX: 4, radiusY: 4, force: 1 })) });
  await touch('touchStart', [from]);
  await frame();
  for (let i = 1; i <= 5; i++) {
    const t = i / 5;
    await touch('touchMove', [{ x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t }]);
    await frame();
  }
  await touch('touchEnd', []);
  await frame();
}

/** Plays `count` moves by swipes on the shown n×n board, each checked against the rule. */
async function playBySwipes(page, cdp, n, count, tag) {
  const r = await rect(page, '[data-game]');
  const d = Math.min(r.w, r.h) * 0.3;
  const vec = { left: [-d, 0], right: [d, 0], up: [0, -d], down: [0, d] };
  for (let k = 0; k < count; k++) {
    const b = await shown(page);
    check(b && b.status === 'playing', `${tag}: the game is on (${JSON.stringify(b)})`);
    const cells = b.state.split(',').map(Number);
    check(cells.length === n * n, `${tag}: ${n * n} cells, not ${cells.length}`);
    // A corner habit (down, left, right), up only when nothing else moves.
    const order = k % 2 ? ['left', 'down', 'right', 'up'] : ['down', 'left', 'right', 'up'];
    const dir = order.find((dd) => slide(cells, n, dd).some((v, i) => v !== cells[i]));
    check(dir, `${tag}: some direction moves`);
    const want = slide(cells, n, dir);
    const [dx, dy] = vec[dir];
    await swipe(page, cdp, { x: r.cx - dx / 2, y: r.cy - dy / 2 }, { x: r.cx + dx / 2, y: r.cy + dy / 2 });
    await until(page, `${tag}: swipe ${dir} made move ${b.moves + 1}`, (m) => {
      const el = document.querySelector('[data-game][data-state]');
      return el && Number(el.dataset.moves) === m;
    }, b.moves + 1);
    const after = (await shown(page)).state.split(',').map(Number);
    const changed = after.map((v, i) => [v, i]).filter(([v, i]) => v !== want[i]);
    check(changed.length === 1 && want[changed[0][1]] === 0 && (changed[0][0] === 2 || changed[0][0] === 4), `${tag}: swipe ${dir} gave the rule's board plus one new tile (${want} → ${after})`);
  }
}

/** The board fits the screen and every numbered face keeps its text legible and inside it. */
async function fits(page, n, tag) {
  const m = await page.evaluate(() => {
    const vw = innerWidth;
    const vh = innerHeight;
    const g = document.querySelector('[data-game] .g2048-grid');
    const gb = g.getBoundingClientRect();
    const faces = [...g.querySelectorAll('.cell .face')].filter((f) => f.textContent);
    const small = [];
    const over = [];
    for (const f of faces) {
      const px = parseFloat(getComputedStyle(f).fontSize);
      if (px < 10) small.push(`${f.textContent}: ${px}px`);
      if (f.scrollWidth > f.clientWidth + 1) over.push(`${f.textContent}: ${f.scrollWidth} > ${f.clientWidth}`);
    }
    return { vw, vh, left: gb.left, right: gb.right, top: gb.top, bottom: gb.bottom, w: gb.width, cells: g.querySelectorAll('.cell').length, small, over, wide: document.documentElement.scrollWidth };
  });
  check(m.cells === n * n, `${tag}: ${n * n} cells shown, not ${m.cells}`);
  check(m.left >= 0 && m.right <= m.vw + 0.5 && m.top >= 0 && m.bottom <= m.vh + 0.5, `${tag}: the board is on screen (${JSON.stringify(m)})`);
  check(m.wide <= m.vw, `${tag}: nothing sticks out sideways (${m.wide} > ${m.vw})`);
  check(m.w >= m.vw * 0.8, `${tag}: the board uses the screen's width (${m.w} of ${m.vw})`);
  check(!m.small.length, `${tag}: tile numbers under 10 px: ${m.small.join(', ')}`);
  check(!m.over.length, `${tag}: tile numbers wider than their tile: ${m.over.join(', ')}`);
  return m;
}

/** The board at rest: no sliding copy of a tile, no tile waiting for its arrival. */
async function atRest(page) {
  await until(page, 'the tiles at rest', () => !document.querySelector('.gtile:not(.idle)') && !document.querySelector('.cell.arriving') && !document.getAnimations().some((a) => a.playState === 'running'));
}

async function toLevels(page) {
  await until(page, 'the UI is ready', () => document.body && document.body.dataset.ready === '1');
  await tap(page, "[data-action='play-2048']");
  await until(page, "2048's size choice", () => document.querySelectorAll('.g2048-sizes [data-size]').length === 6);
}

async function startSize(page, size, tag) {
  await tap(page, `.g2048-sizes [data-size='${size}']`);
  await until(page, `${tag}: ${size} chosen`, (s) => document.querySelector(`.g2048-sizes [data-size='${s}']`).getAttribute('aria-pressed') === 'true', size);
  await tap(page, "[data-action='new-2048']");
  const n = Number(size.split('x')[0]);
  await until(page, `${tag}: a ${size} board`, (k) => {
    const el = document.querySelector('[data-game="2048"][data-state]');
    return el && el.dataset.state.split(',').length === k && el.getBoundingClientRect().width > 100;
  }, n * n);
  return n;
}

await suite('sizes.mjs', 240, async ({ origin, browser }) => {
  console.log(`chromium ${browser.version()} against ${origin}`);
  // A 5×5 at 390×844 in English.
  {
    const ctx = await phone(browser, { width: 390, height: 844, locale: 'en-US' });
    const page = await ctx.newPage();
    const cdp = await ctx.newCDPSession(page);
    await page.goto(`${origin}/index.html`, { waitUntil: 'load' });
    await toLevels(page);
    // The 4×4 is chosen first on a fresh page (the game of before).
    const pressed = await page.evaluate(() => [...document.querySelectorAll('.g2048-sizes [aria-pressed="true"]')].map((e) => e.dataset.size));
    check(pressed.join() === '4x4', `the 4×4 is chosen first (${pressed})`);
    await page.screenshot({ path: path.join(SHOTS, 'web-en-2048-sizes.png') });
    const n = await startSize(page, '5x5', '5x5');
    const levels = await call(page, 'levels', { kind: '2048' });
    check(levels.ok && levels.ok.levels.some((l) => l.size === 5 && l.scope === '2048:5x5'), `levels lists the 5×5 (${JSON.stringify(levels)})`);
    await playBySwipes(page, cdp, n, 14, '5x5');
    await fits(page, n, '5x5');
    const snap = await call(page, 'snapshot', { kind: '2048' });
    check(snap.ok && /^2048:5x5#\d+$/.test(snap.ok.snapshot.id), `the game ID names its size (${JSON.stringify(snap.ok && snap.ok.snapshot.id)})`);
    check(snap.ok.snapshot.view.win === 2048, 'a 5×5 is won at 2048');
    await atRest(page);
    await page.screenshot({ path: path.join(SHOTS, 'web-en-2048-5x5.png') });
    const probe = await page.evaluate(() => window.__probe);
    check(!probe.errors.length && !probe.csp.length, `no page errors or CSP reports: ${JSON.stringify(probe)}`);
    await ctx.close();
  }
  // An 8×8 at 360×780 in Chinese.
  {
    const ctx = await phone(browser, { width: 360, height: 780, locale: 'zh-CN' });
    const page = await ctx.newPage();
    const cdp = await ctx.newCDPSession(page);
    await page.goto(`${origin}/index.html`, { waitUntil: 'load' });
    await toLevels(page);
    const n = await startSize(page, '8x8', '8x8');
    await playBySwipes(page, cdp, n, 12, '8x8');
    await fits(page, n, '8x8');
    await atRest(page);
    await page.screenshot({ path: path.join(SHOTS, 'web-zh-2048-8x8.png') });
    // Big numbers on the smallest cells. No game may start with them (a start at its win tile
    // is already won, and Rust refuses it), so the first cells are dressed as the board module
    // dresses a cell of that value (its text, data-value and digit class) to measure the CSS.
    await page.evaluate(() => {
      const cells = [...document.querySelectorAll('[data-game] .g2048-grid .cell')];
      const big = [128, 1024, 2048, 4096, 16384, 32768, 65536, 131072];
      big.forEach((v, i) => {
        const c = cells[i];
        const d = String(v).length;
        c.dataset.value = String(v);
        c.firstChild.textContent = String(v);
        c.classList.toggle('mid', d === 3);
        c.classList.toggle('big', d === 4);
        c.classList.toggle('huge', d >= 5);
      });
    });
    const m = await fits(page, n, '8x8 big tiles');
    console.log(`8x8 at 360×780: board ${Math.round(m.w)} px wide`);
    await page.screenshot({ path: path.join(SHOTS, 'web-zh-2048-8x8-big.png') });
    const probe = await page.evaluate(() => window.__probe);
    check(!probe.errors.length && !probe.csp.length, `no page errors or CSP reports: ${JSON.stringify(probe)}`);
    await ctx.close();
  }
  console.log('sizes.mjs: a 5×5 and an 8×8 played by swipes, both fit');
});
