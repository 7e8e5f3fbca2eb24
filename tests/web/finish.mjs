// The win moment on the web page (issue 32), in Debian's chromium with touch at 360×780 (and
// 390×844 for the screenshots): shared games played optimally by taps — a 3×3, an easy 4×4
// and the 47-move 4×4 — in English and Chinese. Each win plays its celebration on the board
// (`[data-celebration]`, an animation of at least 300 ms), then the finish dialog says one
// truth: `data-stars="3"` with three lit stars, the optimum in `[data-fin="optimal"]`, and
// `[data-fin="time"]`'s `data-ms` equal to the time `records {scope}` recorded (read through
// the page's own call path); its title is wholly on screen, exactly one primary action is in
// view and nothing sticks out sideways. The 47-move board, whose finish used to show Optimal
// "—" and grey stars, reaches three stars and 47 in place within 20 s; played while its
// optimum cannot be known yet, its dialog is `data-stars="pending"` first. With
// `prefers-reduced-motion: reduce` no animation or transition of the finish flow lasts over
// 200 ms. Screenshots: web-<lang>-<theme>-finish-{win,pending,pending-resolved}.png and the
// reduced-motion win.
//
// Started by tests/tests/web_chromium.rs (HUARONG_FINISH_CASES: the share codes and optimal
// tap lines made by the app core and the engine's solver; HUARONG_SHOTS). Exit codes as
// common.mjs.

import path from 'node:path';
import fs from 'node:fs';
import { CheckFailed, EXIT_FAIL, check, site, launch, phone, until, call, tap, boardShown } from './common.mjs';

const SHOTS = process.env.HUARONG_SHOTS;
const CASES = JSON.parse(process.env.HUARONG_FINISH_CASES || 'null');
if (!SHOTS || !CASES) {
  console.error('finish.mjs: HUARONG_SHOTS and HUARONG_FINISH_CASES must be set (run it through cargo test -p huarong-tests --test web_chromium)');
  process.exit(EXIT_FAIL);
}
fs.mkdirSync(SHOTS, { recursive: true });

setTimeout(() => {
  console.error('finish.mjs: the run took over 420 s');
  process.exit(EXIT_FAIL);
}, 420_000).unref();

const { server, origin } = await site();
const browser = await launch();
console.log(`chromium ${browser.version()} against ${origin}`);

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
 * The dialog as a player sees it: the title wholly on screen, the big number and the stars
 * in view, exactly one primary action in view, nothing out of view sideways.
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
    const primaries = [...document.querySelectorAll('.btn.primary')].filter((e) => {
      const s = shown(e);
      return s && s.any;
    });
    const title = shown(document.getElementById('finish-title'));
    const big = shown(d.querySelector('.fin-big'));
    const starRow = shown(d.querySelector('.fin-stars'));
    return {
      pageWide: document.documentElement.scrollWidth > W + 1,
      wide,
      scrollers,
      primaries: primaries.map((e) => e.dataset.action),
      title: title && title.whole,
      big: big && big.whole,
      stars: starRow && starRow.whole,
    };
  });
  check(!r.pageWide && !r.wide.length && !r.scrollers.length, `${what}: something sticks out sideways: ${JSON.stringify(r)}`);
  check(r.title, `${what}: the title is not wholly on screen`);
  check(r.big, `${what}: the big number is not on screen`);
  if (stars) check(r.stars, `${what}: the stars are not on screen`);
  check(r.primaries.length === 1 && r.primaries[0] === 'share', `${what}: the primary actions in view are ${JSON.stringify(r.primaries)}`);
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
async function celebrated(page, what, { reduced }) {
  await until(page, `${what}: the celebration`, () => window.__motion.celebration || document.querySelector('[data-celebration]'));
  await until(page, `${what}: the finish dialog`, () => document.querySelector('[data-finish="won"]') && !document.querySelector('[data-celebration]'));
  const m = await motion(page);
  check(m.kinds.includes('slide'), `${what}: the celebration was not the board's: ${JSON.stringify(m)}`);
  if (reduced) check(m.longest <= 200, `${what}: with reduced motion an animation ran ${m.longest} ms (${m.longestWhat})`);
  else check(m.celebrationLongest >= 300, `${what}: the celebration's longest animation is ${m.celebrationLongest} ms`);
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

let failed = false;
try {
  for (const lang of ['en', 'zh']) await run(lang, 'light');
  for (const lang of ['en', 'zh']) await run(lang, 'light', { reduced: true });
  for (const lang of ['en', 'zh']) await run(lang, 'dark', { width: 390, height: 844 });
  for (const lang of ['en', 'zh']) {
    for (const theme of ['light', 'dark']) await pendingRun(lang, theme);
  }
} catch (e) {
  failed = true;
  console.error(e instanceof CheckFailed ? `FAILED: ${e.message}` : e);
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? EXIT_FAIL : 0);
