// The web page's storage in Debian's chromium: nothing the page
// acknowledged is lost, and the page says when it cannot save.
//
// 1. Twenty moves with the eleventh move's IndexedDB transaction aborted (three tries in a
//    row): the eleventh reply waits until a commit succeeds, the page shows
//    `[data-storage-warning="failing"]` meanwhile, and after a reload all twenty moves are
//    there.
// 2. No IndexedDB at all: `[data-storage-warning="unavailable"]`, in English and Chinese.
// 3. Two tabs with Web Locks: the second steals the core while the first does not hear of it
//    for 3 s (its lock's rejection held back): every move the first tab acknowledged is there,
//    its moves after the steal are refused (it never commits again), the second tab's move is
//    kept, and a reload shows exactly that.
// 4. Two tabs without Web Locks: the second is read-only and says so
//    (`[data-storage-warning="read-only"]`); it refuses moves, the first tab's moves are all
//    kept, and once the first is closed a reload of the second plays and saves.
//
// Faults are injected by a prelude put in front of the board's worker script (playwright's
// routing; service workers blocked so that the route sees the script): the worker's own code
// is the shipped one. Screenshots (390×844) go to HUARONG_SHOTS as
// web-<lang>-storage-{unavailable,read-only}.png.
//
// Started by tests/tests/web_storage.rs. Exit codes: 0 passed, 1 a check failed, 3 chromium
// could not start, 4 playwright-core is missing.

import path from 'node:path';
import fs from 'node:fs';
import { CheckFailed, EXIT_FAIL, check, site, launch, phone, until, call } from './common.mjs';

const SHOTS = process.env.HUARONG_SHOTS;
if (!SHOTS) {
  console.error('storage.mjs: HUARONG_SHOTS must be set (run it through cargo test -p huarong-tests --test web_storage)');
  process.exit(EXIT_FAIL);
}
fs.mkdirSync(SHOTS, { recursive: true });

setTimeout(() => {
  console.error('storage.mjs: the run took over 240 s');
  process.exit(EXIT_FAIL);
}, 240_000).unref();

const { server, origin } = await site();
const browser = await launch();
console.log(`chromium ${browser.version()} against ${origin}`);

/** A 4×4 the app deals without a generator's search (a plain shuffle). */
const GAME = 'slide:4x4#7';

/**
 * Worker preludes (`kind`): test hooks put in front of the board's worker script.
 * - `abort`: on the page's message `{__test: 'fail-commits', n}`, the next `n` transactions
 *   that store a file of the games folder are aborted after their writes were issued.
 * - `no-idb`: IndexedDB cannot be opened.
 * - `slow-steal`: a stolen Web Lock is heard of 3 s late.
 * - `no-locks`: no Web Locks.
 */
const PRELUDES = {
  abort: `{
    let failing = 0;
    self.addEventListener('message', (e) => { if (e.data && e.data.__test === 'fail-commits') failing = e.data.n; });
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (value, key) {
      const r = put.call(this, value, key);
      if (failing > 0 && Array.isArray(key) && String(key[0]).includes('/games/')) {
        failing -= 1;
        this.transaction.abort();
      }
      return r;
    };
  }\n`,
  'no-idb': `IDBFactory.prototype.open = function () { throw new Error('test: no IndexedDB here'); };\n`,
  'slow-steal': `{
    const request = LockManager.prototype.request;
    LockManager.prototype.request = function (...args) {
      return request.apply(this, args).catch((e) => new Promise((_, reject) => setTimeout(() => reject(e), 3000)));
    };
  }\n`,
  'no-locks': `Object.defineProperty(WorkerNavigator.prototype, 'locks', { get() { return undefined; }, configurable: true });\n`,
};

/** A phone context whose board worker runs `prelude` first. */
async function context(prelude, lang = 'en') {
  const ctx = await phone(browser, { locale: lang === 'zh' ? 'zh-CN' : 'en-US', serviceWorkers: 'block' });
  await ctx.route(/core-worker[^/]*\.js(\?.*)?$/, async (route) => {
    const res = await route.fetch();
    route.fulfill({ response: res, body: PRELUDES[prelude] + (await res.text()) });
  });
  return ctx;
}

function watchErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return errors;
}

async function ready(page) {
  await page.goto(`${origin}/index.html`, { waitUntil: 'load' });
  await until(page, 'the UI is ready', () => document.body && document.body.dataset.ready === '1');
}

/** The slide game's snapshot: `{moves, board}`. */
async function snap(page) {
  const r = await call(page, 'snapshot', { kind: 'slide' });
  check(r.ok, `snapshot: ${JSON.stringify(r.error)}`);
  return { moves: r.ok.snapshot.moves, board: r.ok.snapshot.board };
}

/** A tile next to the blank of the current slide game. */
async function movable(page) {
  const r = await call(page, 'snapshot', { kind: 'slide' });
  const v = r.ok.snapshot.view;
  const b = v.tiles.indexOf(0);
  const [r0, c0] = [Math.floor(b / v.w), b % v.w];
  for (const [dr, dc] of [[0, 1], [0, -1], [1, 0], [-1, 0]]) {
    const [r1, c1] = [r0 + dr, c0 + dc];
    if (r1 >= 0 && r1 < v.h && c1 >= 0 && c1 < v.w) return v.tiles[r1 * v.w + c1];
  }
  throw new CheckFailed('no movable tile');
}

async function play(page) {
  return call(page, 'play', { kind: 'slide', mv: { tile: await movable(page) } });
}

async function banner(page) {
  return page.evaluate(() => {
    const el = document.querySelector('[data-storage-warning]');
    return el ? { state: el.dataset.storageWarning, text: el.textContent } : null;
  });
}

async function shot(page, name) {
  await page.evaluate(() => document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))));
  await page.screenshot({ path: path.join(SHOTS, name) });
}

/** 1. Twenty moves, the eleventh's commit aborted three times in a row. */
async function failedCommit() {
  const ctx = await context('abort');
  const page = await ctx.newPage();
  const errors = watchErrors(page);
  await ready(page);
  // What the worker says about storage, and whether the page showed the banner for it.
  await page.evaluate(() => {
    window.__storage = [];
    addEventListener('huarong-storage', (e) => window.__storage.push(e.detail));
    window.__bannerSeen = false;
    new MutationObserver(() => {
      if (document.querySelector('[data-storage-warning="failing"]')) window.__bannerSeen = true;
    }).observe(document.body, { childList: true, subtree: true, attributes: true });
  });
  check((await call(page, 'open_game', { id: GAME, replace: true })).ok, 'the game opens');
  let acked = 0;
  let eleventh = null;
  for (let i = 1; i <= 20; i += 1) {
    if (i === 11) await page.evaluate(() => window.__huarongCoreWorker.worker.postMessage({ __test: 'fail-commits', n: 3 }));
    const r = await play(page);
    if (i === 11) eleventh = { r, banner: await banner(page), said: await page.evaluate(() => window.__storage.slice()), seen: await page.evaluate(() => window.__bannerSeen) };
    if (r.ok) acked += 1;
  }
  const before = await snap(page);
  await page.reload({ waitUntil: 'load' });
  await until(page, 'the UI is ready', () => document.body && document.body.dataset.ready === '1');
  const after = await snap(page);
  // Nothing acknowledged is lost (before the fix: 10 moves after the reload, though moves
  // 12–20 had been answered as saved).
  check(after.moves === acked && after.board === before.board, `acknowledged ${acked} moves (last ${JSON.stringify(before)}); after a reload ${JSON.stringify(after)}`);
  check(acked === 20, `acknowledged ${acked} of 20 moves (the 11th: ${JSON.stringify(eleventh.r)})`);
  // The 11th reply waited for a commit that succeeded: the page had been told it could not
  // save, and was told it could again, before the reply.
  check(eleventh.said.includes('failing') && eleventh.said[eleventh.said.length - 1] === 'ok', `storage events before the 11th reply: ${JSON.stringify(eleventh.said)}`);
  check(eleventh.banner === null, `the 11th move was answered while the page could not save: ${JSON.stringify(eleventh.banner)}`);
  check(eleventh.seen, 'the page never showed [data-storage-warning="failing"] while it could not save');
  const p = await call(page, 'get_progress');
  const warnings = (p.ok.notices || []).filter((n) => n.level === 'warning').map((n) => n.code);
  check(!warnings.length, `warnings after the reload: ${warnings}`);
  check(!errors.length, `page errors: ${errors}`);
  await ctx.close();
  console.log('storage: 20 moves, the 11th commit failing three times: all 20 kept');
}

/** 2. No IndexedDB: the banner, in both languages. */
async function unavailable(lang) {
  const ctx = await context('no-idb', lang);
  const page = await ctx.newPage();
  await ready(page);
  await until(page, 'the page says it cannot save', () => {
    const el = document.querySelector('[data-storage-warning]');
    return el && el.dataset.storageWarning === 'unavailable' && el.getBoundingClientRect().height > 20;
  });
  const b = await banner(page);
  check(lang === 'zh' ? /保存/.test(b.text) : /save/.test(b.text), `the ${lang} banner reads ${b.text}`);
  // The app moved down below it: the banner covers nothing.
  const clear = await page.evaluate(() => {
    const w = document.querySelector('[data-storage-warning]').getBoundingClientRect();
    const a = document.querySelector('.app').getBoundingClientRect();
    return a.top >= w.bottom - 1;
  });
  check(clear, 'the banner covers the app');
  await shot(page, `web-${lang}-storage-unavailable.png`);
  await ctx.close();
  console.log(`storage ${lang}: no IndexedDB, the page says so`);
}

/** 3. Two tabs with Web Locks, the older hearing of the steal 3 s late. */
async function steal() {
  const ctx = await context('slow-steal');
  const a = await ctx.newPage();
  await ready(a);
  check((await call(a, 'open_game', { id: GAME, replace: true })).ok, 'the game opens');
  for (let i = 0; i < 3; i += 1) check((await play(a)).ok, `tab A, move ${i + 1}`);
  const ackedA = await snap(a);
  const tile = await movable(a);
  const b = await ctx.newPage();
  await ready(b);
  check((await snap(b)).board === ackedA.board, 'tab B starts from tab A\'s moves');
  // Tab A has not heard of the steal from its lock yet: its moves (a tile there and back) must
  // not be acknowledged, nor stored.
  const late = [];
  for (let i = 0; i < 2; i += 1) late.push(await call(a, 'play', { kind: 'slide', mv: { tile } }));
  check(late.every((r) => r.error && r.error.code === 'storage'), `tab A's moves after the steal: ${JSON.stringify(late)}`);
  const r = await play(b);
  check(r.ok, `tab B's move: ${JSON.stringify(r.error)}`);
  const ackedB = { moves: r.ok.snapshot.moves, board: r.ok.snapshot.board };
  check(ackedB.moves === ackedA.moves + 1, `tab B's move follows tab A's: ${JSON.stringify(ackedB)}`);
  await b.reload({ waitUntil: 'load' });
  await until(b, 'the UI is ready', () => document.body && document.body.dataset.ready === '1');
  const after = await snap(b);
  check(after.moves === ackedB.moves && after.board === ackedB.board, `after a reload: ${JSON.stringify(after)}, acknowledged ${JSON.stringify(ackedB)}`);
  const p = await call(b, 'get_progress');
  const warnings = (p.ok.notices || []).filter((n) => n.level === 'warning').map((n) => n.code);
  check(!warnings.length, `warnings after the reload: ${warnings}`);
  await until(a, 'tab A says another tab took over', () => {
    const el = document.querySelector('[data-storage-warning]');
    return el && el.dataset.storageWarning === 'elsewhere';
  });
  await ctx.close();
  console.log('storage: a stolen tab never commits; every acknowledged move is kept');
}

/** 4. Two tabs without Web Locks: the second is read-only and says so. */
async function noLocks(lang) {
  const ctx = await context('no-locks', lang);
  const a = await ctx.newPage();
  await ready(a);
  check((await call(a, 'open_game', { id: GAME, replace: true })).ok, 'the game opens');
  for (let i = 0; i < 3; i += 1) check((await play(a)).ok, `tab A, move ${i + 1}`);
  const b = await ctx.newPage();
  await ready(b);
  await until(b, 'tab B says it is read-only', () => {
    const el = document.querySelector('[data-storage-warning]');
    return el && el.dataset.storageWarning === 'read-only';
  });
  const seen = await snap(b);
  check(seen.moves === 3, `tab B shows tab A's game: ${JSON.stringify(seen)}`);
  const refused = await play(b);
  check(refused.error && refused.error.code === 'storage', `tab B played: ${JSON.stringify(refused)}`);
  check((await snap(b)).moves === 3, 'a refused move changed tab B\'s game');
  await shot(b, `web-${lang}-storage-read-only.png`);
  for (let i = 0; i < 2; i += 1) check((await play(a)).ok, `tab A, move ${i + 4}`);
  const ackedA = await snap(a);
  // Tab A closes (its page goes away: the files are free at once); tab B, reloaded, plays.
  await a.close({ runBeforeUnload: true });
  await b.reload({ waitUntil: 'load' });
  await until(b, 'the UI is ready', () => document.body && document.body.dataset.ready === '1');
  const now = await snap(b);
  check(now.moves === ackedA.moves && now.board === ackedA.board, `tab A's moves after its close: ${JSON.stringify(now)}, acknowledged ${JSON.stringify(ackedA)}`);
  check((await banner(b)) === null, `tab B still says ${JSON.stringify(await banner(b))}`);
  const r = await play(b);
  check(r.ok, `tab B plays once tab A is gone: ${JSON.stringify(r.error)}`);
  await b.reload({ waitUntil: 'load' });
  await until(b, 'the UI is ready', () => document.body && document.body.dataset.ready === '1');
  check((await snap(b)).moves === ackedA.moves + 1, 'tab B\'s move was not kept');
  await ctx.close();
  console.log(`storage ${lang}: without Web Locks the second tab is read-only and says so`);
}

// Each part runs whatever an earlier one found (each says what it checks).
let failed = false;
const parts = [['a failed commit', failedCommit], ...['en', 'zh'].map((l) => [`no IndexedDB (${l})`, () => unavailable(l)]), ['a stolen tab', steal], ...['en', 'zh'].map((l) => [`no Web Locks (${l})`, () => noLocks(l)])];
for (const [name, part] of parts) {
  try {
    await part();
  } catch (e) {
    failed = true;
    console.error(e instanceof CheckFailed ? `FAILED (${name}): ${e.message}` : e);
  }
}
await browser.close();
server.close();
process.exit(failed ? EXIT_FAIL : 0);
