// The finish on the web page, in Debian's chromium with touch. First the one next step
// (Rust's `finish.next`), case by case at 390×844 (English, light) and 360×780 (Chinese,
// dark): a dealt 3×3 won ("again": a new 3×3 at move 0), the first Klotski classic won by a
// drag ("next-level": the second classic), today's daily number slide won with the Klotski
// daily unplayed ("next-daily": that daily), the same daily among two friends (the place on the
// whole board, not the friend whose link was opened), a friend's challenge beaten ("send-back"), tied
// and lost ("retry": the same puzzle at move 0), a 3×3 won after a hint (no record, no
// perfect, under three stars; its replay's counter and chart on one axis) and 2048 over
// ("retry"). For each, the sheet's `data-next` is that value and the one filled button in view
// carries it, its centre in the bottom 40 % of the screen; the solved board is wholly on screen
// and the sheet does not cover it; no scrollbar is drawn and no tag is cut. Screenshots:
// web-<size>-<lang>-<theme>-finish-<case>.png and web-<size>-<lang>-<theme>-replay.png.
//
// Then one truth: shared games played optimally by taps — a 3×3, an easy 4×4 and the 47-move
// 4×4 — each celebrating on the board (`[data-celebration]`, an animation of at least 300 ms),
// then `data-stars="3"` with three lit stars, the optimum in `[data-fin="optimal"]`, and
// `[data-fin="time"]`'s `data-ms` equal to the time `records {scope}` recorded. The 47-move
// board reaches three stars and 47 in place within 20 s; played while its optimum cannot be
// known yet, its sheet is `data-stars="pending"` first. With `prefers-reduced-motion: reduce`
// no animation or transition of the finish flow lasts over 200 ms. Screenshots:
// web-<lang>-<theme>-finish-{win,pending,pending-resolved}.png and the reduced-motion win.
//
// Started by tests/tests/web_chromium.rs (HUARONG_FINISH_CASES: share codes, optimal lines and
// IDs made by the app core and the engine's solver; HUARONG_SHOTS). HUARONG_FINISH_ONLY=a,b
// runs only those cases. Exit codes as common.mjs.

import path from 'node:path';
import fs from 'node:fs';
import { EXIT_FAIL, check, suite, phone, until, call, tap, boardShown, humanStep } from './common.mjs';

const SHOTS = process.env.HUARONG_SHOTS;
/** While the core does not say `finish.next` yet, the page's own choice may pass (development only). */
const ALLOW_UI_NEXT = process.env.HUARONG_FINISH_UI_NEXT === '1';
const CASES = JSON.parse(process.env.HUARONG_FINISH_CASES || 'null');
if (!SHOTS || !CASES) {
  console.error('finish.mjs: HUARONG_SHOTS and HUARONG_FINISH_CASES must be set (run it through cargo test -p huarong-tests --test web_chromium)');
  process.exit(EXIT_FAIL);
}
fs.mkdirSync(SHOTS, { recursive: true });

/** The site and browser of the run (set by the suite below). */
let origin;
let browser;

/** Watches every animation and transition the page runs (from the first frame on): the
 *  longest seen, the longest seen while `[data-celebration]` was in the DOM, and whether it
 *  ever was. Read with `window.__motion`. */
function watchMotion(ctx) {
  return ctx.addInitScript(() => {
    const m = { longest: 0, longestWhat: '', celebration: false, celebrationLongest: 0, kinds: new Set() };
    Object.defineProperty(window, '__motion', { value: m });
    const total = (a) => {
      const t = a.effect && a.effect.getComputedTiming ? a.effect.getComputedTiming() : null;
      if (!t) return 0;
      const d = Number(t.duration) || 0;
      const n = Number.isFinite(t.iterations) ? t.iterations : 1000;
      return d * n;
    };
    const tick = () => {
      const c = document.querySelector('[data-celebration]');
      if (c) {
        m.celebration = true;
        m.kinds.add(c.dataset.celebration);
      }
      for (const a of document.getAnimations()) {
        if (a.playState !== 'running') continue;
        const d = total(a);
        const what = `${a.constructor.name} ${a.animationName || a.transitionProperty || a.id || ''} on ${a.effect && a.effect.target ? a.effect.target.className || a.effect.target.tagName : '?'}`;
        if (d > m.longest) {
          m.longest = d;
          m.longestWhat = what;
        }
        if (c && d > m.celebrationLongest) m.celebrationLongest = d;
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

async function motion(page) {
  return page.evaluate(() => ({ ...window.__motion, kinds: [...window.__motion.kinds] }));
}

/** The longest computed transition in the page now (ms), and on what. */
function longestTransition(page) {
  return page.evaluate(() => {
    let worst = { ms: 0, what: '' };
    const ms = (v) => Math.max(0, ...v.split(',').map((s) => (s.trim().endsWith('ms') ? parseFloat(s) : parseFloat(s) * 1000) || 0));
    for (const e of document.querySelectorAll('*')) {
      const cs = getComputedStyle(e);
      const d = ms(cs.transitionDuration) + ms(cs.transitionDelay);
      const a = ms(cs.animationDuration);
      const worse = Math.max(d, a);
      if (worse > worst.ms) worst = { ms: worse, what: `${e.tagName.toLowerCase()}.${String(e.className && e.className.baseVal === undefined ? e.className : '')}` };
    }
    return worst;
  });
}

async function shot(page, name) {
  // The dialog at rest: stars that just arrived have popped in.
  await until(page, `${name}: the dialog at rest`, () => {
    const d = document.querySelector('[data-finish]');
    return !d || d.getAnimations({ subtree: true }).every((a) => a.playState !== 'running' || a.effect.getComputedTiming().iterations === Infinity);
  });
  await page.evaluate(() => document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))));
  await page.screenshot({ path: path.join(SHOTS, name) });
}

/** `m:ss.t` of `ms`, as the page shows a finish's time. */
function timeText(ms) {
  const total = Math.floor(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}.${Math.floor((ms % 1000) / 100)}`;
}

/**
 * The result sheet as a player sees it: its title wholly on screen, the big number (and the
 * stars) in view, nothing out of view sideways, no scrollbar drawn, the tags never cut; the
 * one primary action is the only filled button in view, carries the finish's `data-next`
 * and sits in the bottom 40 % of the screen; the solved board is wholly on screen and the
 * sheet does not cover it. Returns `data-next`.
 */
async function layout(page, what, { stars = true } = {}) {
  const r = await page.evaluate(() => {
    const W = innerWidth;
    const H = innerHeight;
    // Visible = inside the viewport and inside every clipping (scrolling) ancestor.
    const shown = (e) => {
      if (!e) return null;
      let r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return null;
      let box = { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
      for (let p = e.parentElement; p; p = p.parentElement) {
        const cs = getComputedStyle(p);
        if (/(auto|scroll|hidden|clip)/.test(cs.overflowY + cs.overflowX)) {
          const q = p.getBoundingClientRect();
          box = { top: Math.max(box.top, q.top), bottom: Math.min(box.bottom, q.bottom), left: Math.max(box.left, q.left), right: Math.min(box.right, q.right) };
        }
      }
      box = { top: Math.max(box.top, 0), bottom: Math.min(box.bottom, H), left: Math.max(box.left, 0), right: Math.min(box.right, W) };
      return { box, whole: box.top <= r.top + 0.5 && box.bottom >= r.bottom - 0.5 && box.left <= r.left + 0.5 && box.right >= r.right - 0.5, any: box.bottom - box.top > 1 && box.right - box.left > 1 };
    };
    const d = document.querySelector('[data-finish]');
    const wide = [...d.querySelectorAll('*')].filter((e) => {
      const b = e.getBoundingClientRect();
      return b.width > 0 && (b.left < -0.5 || b.right > W + 0.5);
    }).map((e) => `${e.tagName.toLowerCase()}.${e.className}`);
    const scrollers = [...d.querySelectorAll('*')].filter((e) => e.scrollWidth > e.clientWidth + 1 && /(auto|scroll)/.test(getComputedStyle(e).overflowX)).map((e) => e.className);
    // A scrollbar drawn takes width from its box.
    const bars = [...d.querySelectorAll('*')].filter((e) => /(auto|scroll)/.test(getComputedStyle(e).overflowY) && e.offsetWidth - e.clientWidth > 0.5 && e.clientHeight > 0).map((e) => e.className);
    const primaries = [...document.querySelectorAll('.btn.primary')].filter((e) => {
      const s = shown(e);
      return s && s.any;
    });
    const p = primaries[0] ? primaries[0].getBoundingClientRect() : null;
    const title = shown(document.getElementById('finish-title'));
    const big = shown(d.querySelector('.fin-big'));
    const starRow = shown(d.querySelector('.fin-stars'));
    const tags = [...d.querySelectorAll('.fin-tags > *')].filter((e) => {
      const s = shown(e);
      return !s || !s.whole;
    }).map((e) => e.textContent);
    const sheet = d.querySelector('.sheet').getBoundingClientRect();
    const bel = document.querySelector('.game-screen .board');
    const b = bel ? bel.getBoundingClientRect() : null;
    return {
      pageWide: document.documentElement.scrollWidth > W + 1,
      wide,
      scrollers,
      bars,
      tags,
      next: d.dataset.next,
      from: d.dataset.nextFrom,
      primaries: primaries.map((e) => e.dataset.action),
      primaryY: p ? (p.top + p.bottom) / 2 / H : null,
      title: title && title.whole,
      big: big && big.whole,
      stars: starRow && starRow.whole,
      board: b && { top: b.top, bottom: b.bottom, left: b.left, right: b.right },
      sheetTop: sheet.top,
      W,
      H,
    };
  });
  check(!r.pageWide && !r.wide.length && !r.scrollers.length, `${what}: something sticks out sideways: ${JSON.stringify(r)}`);
  check(!r.bars.length, `${what}: a scrollbar is drawn on ${JSON.stringify(r.bars)}`);
  check(!r.tags.length, `${what}: tags cut: ${JSON.stringify(r.tags)}`);
  check(r.title, `${what}: the title is not wholly on screen`);
  check(r.big, `${what}: the big number is not on screen`);
  if (stars) check(r.stars, `${what}: the stars are not on screen`);
  check(r.from === 'core' || ALLOW_UI_NEXT, `${what}: the next step was not Rust's (finish.next is missing): data-next-from=${r.from}`);
  check(r.primaries.length === 1 && r.primaries[0] === r.next, `${what}: the primary actions in view are ${JSON.stringify(r.primaries)}, data-next is ${r.next}`);
  check(r.primaryY >= 0.6, `${what}: the primary's centre is at ${(r.primaryY * 100).toFixed(0)} % of the height, not in the bottom 40 %`);
  const b = r.board;
  check(b && b.top >= -0.5 && b.left >= -0.5 && b.right <= r.W + 0.5 && b.bottom <= r.H + 0.5, `${what}: the solved board is not wholly on screen: ${JSON.stringify(b)}`);
  check(b.bottom <= r.sheetTop + 0.5, `${what}: the sheet (top ${r.sheetTop.toFixed(1)}) covers the board (bottom ${b.bottom.toFixed(1)})`);
  return r.next;
}

/** The finish's verdict as the dialog shows it. */
function verdict(page) {
  return page.evaluate(() => {
    const d = document.querySelector('[data-finish]');
    if (!d) return null;
    const opt = d.querySelector('[data-fin="optimal"] .stat-value');
    const time = d.querySelector('[data-fin="time"]');
    return {
      stars: d.dataset.stars ?? null,
      lit: d.querySelectorAll('.fin-stars .star.on').length,
      shown: d.querySelectorAll('.fin-stars .star').length,
      finding: !!d.querySelector('.fin-finding'),
      optimal: opt ? opt.textContent.trim() : null,
      ms: time ? Number(time.dataset.ms) : null,
      time: time ? time.querySelector('.stat-value').textContent.trim() : null,
      moves: Number(d.querySelector('[data-fin="moves"] .stat-value').textContent),
      perfect: !!d.querySelector('[data-perfect]'),
    };
  });
}

/** Tap `taps` (tile numbers) in turn, each once its move has been counted. */
async function tapLine(page, taps) {
  for (const [i, tile] of taps.entries()) {
    await tap(page, `[data-tile='${tile}']`);
    if (i < taps.length - 1) await until(page, `move ${i + 1}`, (n) => Number(document.querySelector('[data-game]').dataset.moves) === n, i + 1);
  }
}

/** After the winning tap: the celebration plays, then the dialog opens. */
async function celebrated(page, what, { reduced, kind = 'slide' }) {
  await until(page, `${what}: the celebration`, () => window.__motion.celebration || document.querySelector('[data-celebration]'));
  const t0 = Date.now();
  await until(page, `${what}: the finish dialog`, () => document.querySelector('[data-finish="won"]') && !document.querySelector('[data-celebration]'));
  const took = Date.now() - t0;
  const m = await motion(page);
  check(m.kinds.includes(kind), `${what}: the celebration was not the board's: ${JSON.stringify(m)}`);
  if (reduced) check(m.longest <= 200, `${what}: with reduced motion an animation ran ${m.longest} ms (${m.longestWhat})`);
  else check(m.celebrationLongest >= 300, `${what}: the celebration's longest animation is ${m.celebrationLongest} ms`);
  return took;
}

/** The dialog reached three stars and the optimum `optimal`; its time is the recorded one. */
async function threeStars(page, what, scope, optimal, timeout) {
  await until(
    page,
    `${what}: three stars and the optimum ${optimal}`,
    (o) => {
      const d = document.querySelector('[data-finish]');
      const opt = d && d.querySelector('[data-fin="optimal"] .stat-value');
      return d && d.dataset.stars === '3' && opt && opt.textContent.trim() === String(o);
    },
    optimal,
    timeout,
  );
  const v = await verdict(page);
  check(v.lit === 3 && v.shown === 3 && !v.finding, `${what}: the stars shown ${JSON.stringify(v)}`);
  check(v.moves === optimal && v.perfect, `${what}: an optimal game is not called perfect: ${JSON.stringify(v)}`);
  // The finish is filed under the scope the engine gives this board (its record key).
  const fin = await call(page, 'finish', { kind: 'slide' });
  check(fin.ok && fin.ok.key === `${scope}/${fin.ok.rule}`, `${what}: the finish is filed under ${JSON.stringify(fin.ok && fin.ok.key)}, not ${scope}`);
  const rec = await call(page, 'records', { scope });
  check(rec.ok && Array.isArray(rec.ok.history) && rec.ok.history.length > 0, `records ${scope}: ${JSON.stringify(rec.error || rec.ok)}`);
  const row = rec.ok.history[rec.ok.history.length - 1];
  check(row.ms === v.ms, `${what}: the dialog's time ${v.ms} ms is not the recorded ${row.ms} ms`);
  check(v.time === timeText(row.ms), `${what}: the time reads ${v.time}, the record ${timeText(row.ms)}`);
  check(row.optimal === optimal, `${what}: the records' row says optimal ${row.optimal}`);
  return v;
}

/** One language and theme: the 3×3, the easy 4×4 and the 47-move board, by taps. */
async function run(lang, theme, { width = 360, height = 780, reduced = false } = {}) {
  const ctx = await phone(browser, { width, height, locale: lang === 'zh' ? 'zh-CN' : 'en-US', colorScheme: theme, reducedMotion: reduced ? 'reduce' : 'no-preference' });
  await watchMotion(ctx);
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  const tag = `${lang} ${theme} ${width}×${height}${reduced ? ' reduced motion' : ''}`;
  const name = `web-${lang}-${theme}${width === 390 ? '-390' : ''}${reduced ? '-reduced' : ''}`;

  for (const c of reduced ? [CASES.three] : [CASES.three, CASES.easy, CASES.hard]) {
    const what = `${tag}: ${c.name}`;
    await page.goto(`${origin}/index.html?c=${encodeURIComponent(c.code)}`, { waitUntil: 'load' });
    await boardShown(page, c.board);
    await page.evaluate(() => {
      window.__motion.celebration = false;
      window.__motion.celebrationLongest = 0;
      window.__motion.longest = 0;
      window.__motion.kinds.clear();
    });
    const t0 = Date.now();
    await tapLine(page, c.taps);
    await celebrated(page, what, { reduced });
    await sheetUp(page, what, 'won');
    await layout(page, what, { stars: false });
    // The 47-move board: three stars and 47 in place within 20 s of the winning tap.
    const v = await threeStars(page, what, c.scope, c.optimal, 20_000);
    await layout(page, what);
    console.log(`${what}: ${v.moves} moves, 3 stars, optimum ${v.optimal}, ${v.time} (${Date.now() - t0} ms from the first tap)`);
    if (c === CASES.three) await shot(page, `${name}-finish-win.png`);
    if (reduced) {
      const longest = (await motion(page)).longest;
      check(longest <= 200, `${what}: an animation of ${longest} ms ran`);
      const tr = await longestTransition(page);
      check(tr.ms <= 200, `${what}: a transition or animation of ${tr.ms} ms is set on ${tr.what}`);
    }
  }

  const probe = await page.evaluate(() => window.__probe);
  check(!errors.length && !probe.errors.length && !probe.csp.length, `${tag}: errors ${JSON.stringify([...errors, ...probe.errors, ...probe.csp])}`);
  await ctx.close();
  console.log(`finish ${tag}: passed`);
}

/**
 * The 47-move board won while its optimum cannot be known yet: its line played through the
 * core while the page shows home (no optimum is searched then), the last move by a tap on the
 * board, and the 4×4 tables the optimum's search needs held back on the way (a slow network):
 * the dialog opens `data-stars="pending"`, says the best solution is being found and shows no
 * stars; once the tables arrive it fills in three stars and 47 in place, within 20 s.
 */
async function pendingRun(lang, theme, { width = 360, height = 780 } = {}) {
  const ctx = await phone(browser, { width, height, locale: lang === 'zh' ? 'zh-CN' : 'en-US', colorScheme: theme, serviceWorkers: 'block' });
  let release = null;
  const held = new Promise((r) => (release = r));
  let asked = 0;
  await ctx.route(/\/pdb4x4[^/]*\.bin$/, async (route) => {
    asked += 1;
    await held;
    await route.continue();
  });
  await watchMotion(ctx);
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  const c = CASES.hard;
  const what = `${lang} ${theme} ${width}×${height}: ${c.name}, pending`;
  const name = `web-${lang}-${theme}${width === 390 ? '-390' : ''}`;
  await page.goto(`${origin}/index.html?c=${encodeURIComponent(c.code)}`, { waitUntil: 'load' });
  await boardShown(page, c.board);
  await call(page, 'set_screen', { screen: 'home' });
  for (const tile of c.taps.slice(0, -1)) {
    const r = await call(page, 'play', { kind: 'slide', mv: { tile } });
    check(r.ok, `play ${tile}: ${JSON.stringify(r.error)}`);
  }
  await call(page, 'set_screen', { screen: 'game:slide' });
  await page.reload({ waitUntil: 'load' });
  await boardShown(page, null);
  await tap(page, `[data-tile='${c.taps[c.taps.length - 1]}']`);
  await until(page, `${what}: the finish dialog`, () => document.querySelector('[data-finish="won"]') && !document.querySelector('[data-celebration]'));
  await sheetUp(page, what, 'won');
  const first = await verdict(page);
  check(asked > 0, `${what}: the optimum's search never asked for the 4×4 tables`);
  check(first.stars === 'pending' && first.finding && first.shown === 0, `${what}: not pending while the optimum is unknown: ${JSON.stringify(first)}`);
  check(first.optimal === '', `${what}: the optimum shows ${JSON.stringify(first.optimal)} while it is being found`);
  await layout(page, what, { stars: false });
  await shot(page, `${name}-finish-pending.png`);
  const t0 = Date.now();
  release();
  await threeStars(page, what, c.scope, c.optimal, 20_000);
  await layout(page, what);
  console.log(`${what}: three stars and ${c.optimal} in place ${Date.now() - t0} ms after the tables came`);
  await shot(page, `${name}-finish-pending-resolved.png`);
  const probe = await page.evaluate(() => window.__probe);
  check(!errors.length && !probe.errors.length && !probe.csp.length, `${what}: errors ${JSON.stringify([...errors, ...probe.errors, ...probe.csp])}`);
  await ctx.close();
  console.log(`finish ${what}: passed`);
}

// ---- The finish flow's one next step (Rust's `finish.next`), case by case ----

/** The page's board now: game, ID, state, moves, status. */
function boardNow(page) {
  return page.evaluate(() => {
    const b = document.querySelector('[data-game][data-state]');
    return b ? { game: b.dataset.game, id: b.dataset.id, state: b.dataset.state, moves: Number(b.dataset.moves), status: b.dataset.status } : null;
  });
}

/** The sheet is up and at rest (no celebration, its rise over). */
async function sheetUp(page, what, status = null) {
  await until(page, `${what}: the result sheet`, (st) => {
    const d = document.querySelector('[data-finish]');
    if (!d || document.querySelector('[data-celebration]') || (st && d.dataset.finish !== st)) return false;
    return d.getAnimations({ subtree: true }).every((a) => a.playState !== 'running' || a.effect.getComputedTiming().iterations === Infinity);
  }, status);
  // The board's glide into its place above the sheet is over too.
  await until(page, `${what}: the board at rest`, () => {
    const b = document.querySelector('.game-screen .board');
    return b && b.getAnimations().every((a) => a.playState !== 'running');
  });
}

/** The finish as its sheet says it. */
function sheetSays(page) {
  return page.evaluate(() => {
    const d = document.querySelector('[data-finish]');
    const c = d.querySelector('.fin-challenge');
    const p = d.querySelector('.btn.primary');
    return {
      next: d.dataset.next,
      stars: d.dataset.stars ?? null,
      assisted: d.dataset.assisted,
      record: !!d.querySelector('[data-fin="record"]'),
      perfect: !!d.querySelector('[data-perfect]'),
      text: d.textContent,
      outcome: c ? c.dataset.outcome || null : null,
      place: c ? c.dataset.place || null : null,
      line: c ? c.textContent : null,
      primary: p ? p.textContent.trim() : null,
      tps: !!d.querySelector('[data-fin="tps"]'),
      ms: Number((d.querySelector('[data-fin="time"]') || {}).dataset?.ms ?? NaN),
    };
  });
}

/** Ready with no game yet in view: the page loaded (whatever screen it resumed). */
async function ready(page) {
  await until(page, 'the UI is ready', () => document.body && document.body.dataset.ready === '1');
}

/** Open `id` through the core, play `moves` there, and reload on its game screen. */
async function openPlayed(page, kind, id, moves) {
  await page.goto(`${origin}/index.html`, { waitUntil: 'load' });
  await ready(page);
  const o = await call(page, 'open_game', { id, replace: true });
  check(o.ok, `open_game ${id}: ${JSON.stringify(o.error)}`);
  for (const mv of moves) {
    const r = await call(page, 'play', { kind, mv });
    check(r.ok, `play ${JSON.stringify(mv)}: ${JSON.stringify(r.error)}`);
  }
  await call(page, 'set_screen', { screen: `game:${kind}` });
  await page.reload({ waitUntil: 'load' });
  await boardShown(page, null);
  await resetMotion(page);
}

function resetMotion(page) {
  return page.evaluate(() => {
    window.__motion.celebration = false;
    window.__motion.celebrationLongest = 0;
    window.__motion.longest = 0;
    window.__motion.kinds.clear();
  });
}

/** Tap the one primary action. */
async function tapPrimary(page) {
  await tap(page, '[data-finish] .btn.primary');
}

/** An optimal line of taps for a 3×3 number slide (`tiles`, 0 = the blank), by breadth-first search. */
function solve3(tiles) {
  const goal = '1,2,3,4,5,6,7,8,0';
  const start = tiles.join(',');
  const prev = new Map([[start, null]]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const key = queue[i];
    if (key === goal) break;
    const t = key.split(',').map(Number);
    const z = t.indexOf(0);
    for (const d of [-3, 3, -1, 1]) {
      const j = z + d;
      if (j < 0 || j > 8 || (Math.abs(d) === 1 && Math.floor(j / 3) !== Math.floor(z / 3))) continue;
      const u = t.slice();
      [u[z], u[j]] = [u[j], u[z]];
      const k = u.join(',');
      if (!prev.has(k)) {
        prev.set(k, [key, t[j]]);
        queue.push(k);
      }
    }
  }
  const taps = [];
  for (let k = goal; prev.get(k); k = prev.get(k)[0]) taps.unshift(prev.get(k)[1]);
  return taps;
}

/** Shots of this case, named as the suite's other screenshots are. */
function caseShot(page, env, name) {
  return shot(page, `web-${env.size}-${env.lang}-${env.theme}-finish-${name}.png`);
}

/** A new dealt 3×3 on the game screen: `new_game`'s answer. */
async function dealt3x3(page) {
  await page.goto(`${origin}/index.html`, { waitUntil: 'load' });
  await ready(page);
  const v = await call(page, 'new_game', { kind: 'slide', params: '3x3', replace: true });
  check(v.ok, `new_game 3x3: ${JSON.stringify(v.error)}`);
  await call(page, 'set_screen', { screen: 'game:slide' });
  await page.reload({ waitUntil: 'load' });
  await boardShown(page, null);
  return v;
}

/** A dealt 3×3 won: "Play again" starts a new 3×3 (another deal, move 0). */
async function dealtCase(page, env) {
  const what = `${env.tag}: a dealt 3×3`;
  const v = await dealt3x3(page);
  await resetMotion(page);
  const snap = await call(page, 'snapshot', { kind: 'slide' });
  const taps = solve3(snap.ok.snapshot.view.tiles);
  check(taps.length > 0, `${what}: dealt solved`);
  const before = await boardNow(page);
  await tapLine(page, taps);
  const took = await celebrated(page, what, { reduced: false });
  await sheetUp(page, what, 'won');
  const next = await layout(page, what, { stars: false });
  check(next === 'again', `${what}: data-next is ${next}, not again`);
  await caseShot(page, env, 'dealt');
  await tapPrimary(page);
  await until(page, `${what}: "Play again" deals a new 3×3 at move 0`, (id0) => {
    const b = document.querySelector('[data-game][data-state]');
    return b && !document.querySelector('[data-finish]') && b.dataset.status === 'playing' && b.dataset.moves === '0' && /^slide:3x3/.test(b.dataset.id) && b.dataset.id !== id0;
  }, before.id);
  console.log(`${what}: again, the celebration held the sheet ${took} ms`);
}

/** A 3×3 won after a hint: nothing says record or perfect, fewer than three stars. */
async function hintCase(page, env) {
  const what = `${env.tag}: a 3×3 won after a hint`;
  const v = await dealt3x3(page);
  const c = { taps: solve3(v.ok.snapshot.view.tiles) };
  await tap(page, '[data-action=hint]');
  await until(page, `${what}: the hint`, () => !!document.querySelector('.hinted'));
  await tapLine(page, c.taps);
  await sheetUp(page, what, 'won');
  await until(page, `${what}: its stars`, () => /^\d$/.test(document.querySelector('[data-finish]').dataset.stars || ''));
  await layout(page, what, { stars: true });
  const f = await sheetSays(page);
  check(!f.record && !f.perfect && Number(f.stars) < 3, `${what}: an assisted win says record/perfect or has 3 stars: ${JSON.stringify({ ...f, text: undefined })}`);
  check(!/new record|perfect|新纪录|完美/i.test(f.text), `${what}: the sheet says record or perfect: ${f.text}`);
  check(f.assisted === '1' || ALLOW_UI_NEXT, `${what}: the finish is not marked assisted`);
  await caseShot(page, env, 'hint');
  // Its replay: the counter and the chart count the same moves (the replayed log's).
  await tap(page, '[data-finish] [data-action=watch-replay]');
  await until(page, `${what}: the replay`, () => !!document.querySelector('[data-replay] .replay-pos'));
  await tap(page, '[data-action=replay-step]');
  await tap(page, '[data-action=replay-step]');
  await until(page, `${what}: two moves on`, () => document.querySelector('.replay-pos').dataset.replayAt === '2');
  const rp = await page.evaluate(() => {
    const body = document.querySelector('[data-replay]');
    const chart = document.querySelector('[data-chart="analysis"]');
    return { n: Number(body.dataset.moves), pos: document.querySelector('.replay-pos').textContent, chart: chart ? Number(chart.dataset.moves) : null, cursor: chart ? chart.dataset.cursor : null };
  });
  check(rp.pos.includes(`2 / ${rp.n}`), `${what}: the replay's counter says ${rp.pos} of ${rp.n} moves`);
  check(rp.chart === null || (rp.chart === rp.n && rp.cursor === '2'), `${what}: the replay's chart runs 0–${rp.chart} (cursor ${rp.cursor}) under "${rp.pos}"`);
  // The board at rest (its tiles' slides over), then the shot.
  await page.waitForTimeout(400);
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: path.join(SHOTS, `web-${env.size}-${env.lang}-${env.theme}-replay.png`) });
}

/** The first Klotski classic won (its last move dragged): "Next level" opens the second. */
async function classicCase(page, env) {
  const what = `${env.tag}: the first Klotski classic`;
  const c = CASES.classic;
  await openPlayed(page, 'klotski', c.id, c.moves.slice(0, -1));
  const last = c.moves[c.moves.length - 1];
  const snap = await call(page, 'snapshot', { kind: 'klotski' });
  const piece = snap.ok.snapshot.view.pieces.find((p) => p.id === last.piece);
  check(piece, `${what}: no piece ${last.piece} in ${JSON.stringify(snap.ok.snapshot.view)}`);
  const at = await page.evaluate((id) => {
    const el = document.querySelector(`[data-piece="${id}"]`);
    const b = el.getBoundingClientRect();
    const grid = el.parentElement.getBoundingClientRect();
    return { x: b.left + b.width / 2, y: b.top + b.height / 2, cell: grid.width / 4 };
  }, last.piece);
  const dx = (last.to[1] - piece.c) * at.cell;
  const dy = (last.to[0] - piece.r) * at.cell;
  await humanStep(page);
  await page.mouse.move(at.x, at.y);
  await page.mouse.down();
  await page.mouse.move(at.x + dx * 0.5, at.y + dy * 0.5, { steps: 4 });
  await page.mouse.move(at.x + dx, at.y + dy, { steps: 4 });
  await page.mouse.up();
  const took = await celebrated(page, what, { reduced: false, kind: 'klotski' });
  await sheetUp(page, what, 'won');
  const next = await layout(page, what);
  check(next === 'next-level', `${what}: data-next is ${next}, not next-level`);
  await caseShot(page, env, 'klotski');
  await tapPrimary(page);
  await until(page, `${what}: "Next level" opens the second classic`, (id) => {
    const b = document.querySelector('[data-game="klotski"][data-state]');
    return b && !document.querySelector('[data-finish]') && b.dataset.id === id && b.dataset.moves === '0';
  }, c.next);
  console.log(`${what}: next level, the celebration held the sheet ${took} ms`);
}

/** Today's daily number slide won, the Klotski daily not played: "Next: Klotski (2/3)". */
async function dailyCase(page, env) {
  const what = `${env.tag}: today's daily number slide`;
  const c = CASES.daily;
  await openPlayed(page, 'slide', c.id, c.taps.slice(0, -1).map((tile) => ({ tile })));
  await tap(page, `[data-tile='${c.taps[c.taps.length - 1]}']`);
  await celebrated(page, what, { reduced: false });
  await sheetUp(page, what, 'won');
  const next = await layout(page, what, { stars: false });
  check(next === 'next-daily', `${what}: data-next is ${next}, not next-daily`);
  const f = await sheetSays(page);
  const klotski = env.lang === 'zh' ? '华容道' : 'Klotski';
  check(f.primary.includes(klotski) && f.primary.includes('(2/3)'), `${what}: the primary says ${JSON.stringify(f.primary)}`);
  await caseShot(page, env, 'daily');
  await tapPrimary(page);
  await until(page, `${what}: the next daily opens`, (id) => {
    const b = document.querySelector('[data-game="klotski"][data-state]');
    return b && !document.querySelector('[data-finish]') && b.dataset.id === id && b.dataset.moves === '0';
  }, c.ids.klotski);
}

/**
 * Today's daily number slide among friends: Bo's result code opened first, then Mei's link;
 * won optimally, the sheet states the place on the whole board ("You beat 2 of 2 friends" /
 * "第 1 名，共 3 人"), never a comparison with Mei alone, whose link was opened.
 */
async function friendsCase(page, env) {
  const what = `${env.tag}: the daily among friends`;
  const c = CASES.friends;
  for (const code of [c.bo, c.mei]) {
    await page.goto(`${origin}/index.html?c=${encodeURIComponent(code)}`, { waitUntil: 'load' });
    await boardShown(page, c.start);
  }
  const taps = CASES.daily.taps;
  for (const tile of taps.slice(0, -1)) {
    const r = await call(page, 'play', { kind: 'slide', mv: { tile } });
    check(r.ok, `${what}: play ${tile}: ${JSON.stringify(r.error)}`);
  }
  await page.reload({ waitUntil: 'load' });
  await boardShown(page, null);
  await tap(page, `[data-tile='${taps[taps.length - 1]}']`);
  await sheetUp(page, what, 'won');
  await layout(page, what, { stars: false });
  const f = await sheetSays(page);
  check(f.place === '1/3', `${what}: the place said is ${f.place}: ${f.line}`);
  check(f.line && !f.line.includes('Mei'), `${what}: the sentence compares with the friend whose link was opened: ${f.line}`);
  await caseShot(page, env, 'daily-friends');
}

/** A friend's challenge on the 3×3: beaten (send back), lost (retry restarts it), or tied on
 *  the two-move board. */
async function challengeCase(page, env, outcome) {
  const what = `${env.tag}: a friend's challenge ${outcome}`;
  const c = outcome === 'tied' ? CASES.two : CASES.three;
  await page.goto(`${origin}/index.html?c=${encodeURIComponent(CASES[outcome])}`, { waitUntil: 'load' });
  await boardShown(page, c.board);
  if (outcome === 'tied') {
    // One tap slides the run 7 8 left: two tile moves at one instant, as the friend's 2 moves
    // in 0.05 s (the same tenth).
    await tap(page, `[data-tile='${c.taps[c.taps.length - 1]}']`);
  } else {
    await tapLine(page, c.taps);
  }
  await sheetUp(page, what, 'won');
  const next = await layout(page, what, { stars: false });
  const f = await sheetSays(page);
  const want = outcome === 'beaten' ? 'send-back' : 'retry';
  check(next === want, `${what}: data-next is ${next}, not ${want}`);
  check(f.outcome === outcome, `${what}: the sentence's outcome is ${f.outcome}: ${f.line}`);
  if (outcome === 'tied') check(!/beat|赢/i.test(f.line), `${what}: a tie argues: ${f.line}`);
  if (outcome === 'lost') check(!f.perfect, `${what}: "Perfect" stands apart from the loss: ${f.text}`);
  // No picture of the tie: its two moves come in one tap, so its time reads 0:00.0, which no
  // screenshot shows (a tie at a player's pace would need the page's clock held between two
  // moves).
  if (outcome !== 'tied') await caseShot(page, env, `challenge-${outcome}`);
  if (outcome !== 'lost') {
    // Closed by a swipe down on its head (beaten) or by back (tied): the solved board stays.
    if (outcome === 'beaten') {
      const h = await page.evaluate(() => {
        const b = document.querySelector('[data-finish] .sheet-head').getBoundingClientRect();
        return { x: b.left + b.width / 3, y: b.top + 10 };
      });
      await page.mouse.move(h.x, h.y);
      await page.mouse.down();
      await page.mouse.move(h.x, h.y + 120, { steps: 6 });
      await page.mouse.move(h.x, h.y + 260, { steps: 6 });
      await page.mouse.up();
    } else {
      await page.goBack();
    }
    await until(page, `${what}: the sheet closed, the solved board left`, () => {
      const b = document.querySelector('[data-game="slide"][data-state]');
      const r = b && b.getBoundingClientRect();
      return b && !document.querySelector('[data-finish]') && !document.querySelector('.game-screen.finishing') && b.dataset.status === 'won' && r.top >= 0 && r.bottom <= innerHeight;
    });
    return;
  }
  await tapPrimary(page);
  // The friend's result to beat stays with it.
  await until(page, `${what}: "Try again" opens the same puzzle at move 0, the result to beat still shown`, (state) => {
    const b = document.querySelector('[data-game="slide"][data-state]');
    const line = document.querySelector('.challenge-line');
    return b && !document.querySelector('[data-finish]') && b.dataset.state === state && b.dataset.moves === '0' && b.dataset.status === 'playing' && line && !line.hidden && line.dataset.challenge;
  }, c.board);
}

/** 2048 one move from its end: over, "Try again" restarts the same board at move 0. */
async function over2048Case(page, env) {
  const what = `${env.tag}: 2048 over`;
  // A dealt game played to one swipe before its end (its score and time are a game's), then
  // the last swipe by key.
  const { id, moves, last } = CASES.over2048;
  await openPlayed(page, '2048', id, moves);
  await humanStep(page);
  await page.keyboard.press(`Arrow${last[0].toUpperCase()}${last.slice(1)}`);
  await sheetUp(page, what, 'lost');
  const next = await layout(page, what, { stars: false });
  check(next === 'retry', `${what}: data-next is ${next}, not retry`);
  await caseShot(page, env, '2048-over');
  await tapPrimary(page);
  await until(page, `${what}: "Try again" opens the same board at move 0`, (gid) => {
    const b = document.querySelector('[data-game="2048"][data-state]');
    return b && !document.querySelector('[data-finish]') && b.dataset.id === gid && b.dataset.moves === '0' && b.dataset.status === 'playing';
  }, id);
}

/** Every case in one size, language and theme. */
async function casesRun(lang, theme, width, height, only = null) {
  const ctx = await phone(browser, { width, height, locale: lang === 'zh' ? 'zh-CN' : 'en-US', colorScheme: theme });
  await watchMotion(ctx);
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  const env = { lang, theme, size: `${width}x${height}`, tag: `${lang} ${theme} ${width}×${height}` };
  const all = {
    dealt: () => dealtCase(page, env),
    klotski: () => classicCase(page, env),
    daily: () => dailyCase(page, env),
    friends: () => friendsCase(page, env),
    beaten: () => challengeCase(page, env, 'beaten'),
    tied: () => challengeCase(page, env, 'tied'),
    lost: () => challengeCase(page, env, 'lost'),
    hint: () => hintCase(page, env),
    over2048: () => over2048Case(page, env),
  };
  for (const [name, run] of Object.entries(all)) {
    if (only && !only.includes(name)) continue;
    const t0 = Date.now();
    await run();
    console.log(`${env.tag}: ${name} passed (${Date.now() - t0} ms)`);
  }
  const probe = await page.evaluate(() => window.__probe);
  check(!errors.length && !probe.errors.length && !probe.csp.length, `${env.tag}: errors ${JSON.stringify([...errors, ...probe.errors, ...probe.csp])}`);
  await ctx.close();
}

await suite('finish.mjs', 420, async (site) => {
  ({ origin, browser } = site);
  console.log(`chromium ${browser.version()} against ${origin}`);
  const only = process.env.HUARONG_FINISH_ONLY ? process.env.HUARONG_FINISH_ONLY.split(',') : null;
  // Every case at each size, in each language and each theme (two of the eight together).
  await casesRun('en', 'light', 390, 844, only);
  await casesRun('zh', 'dark', 360, 780, only);
  if (!only) {
    await run('en', 'light');
    await run('en', 'light', { reduced: true });
    await run('zh', 'dark', { width: 390, height: 844 });
    await pendingRun('en', 'light');
    await pendingRun('zh', 'dark');
  }
});
