// The web page's performance figures (the README's performance table): `./dev.sh web measure`
// (or `node tests/web/measure.mjs` on a built web/dist). Headless Debian chromium, a 390×844
// touch phone, a loopback server with the caching headers a static host should send (gzip;
// assets/ cached for good, the rest revalidated), opening a shared 4×4 link (the hard 4×4
// board's code, made by the core). Two networks:
// - "throttled": Lighthouse's mobile "devtools" throttling, 562.5 ms per request, 1,474.56
//   kbit/s down, 675 kbit/s up (Chrome's network emulation on the page: it holds back its
//   workers' requests too), CPU 4× slower (Chrome's CPU throttling: the page's main thread, as
//   in Lighthouse);
// - "loopback": no throttling.
// On each, the median of RUNS (3) cold loads (a fresh browser context: empty caches, service
// workers blocked): first contentful paint; the first playable board (navigation start → the
// shared board laid out and the UI ready; then a tap on a tile must move it: the tap's answer
// is given too); requests and bytes (on the wire, gzipped) until that moment, every request of
// the page and its workers counted at the server; cumulative layout shift; and a second visit
// on the same network (the service worker installed by a first visit: navigation start → the
// board playable; median of RUNS); and when the core took over from the first core (crates/web-first:
// the moves answered before it are stored from then on). The first wasm's sizes are the built file's.
// Then on loopback: a move, tap → drawn (p50/p95 over 60 taps), and a hint through the search
// worker on the hard 4×4 list (crates/engine/src/slide/hard4x4.tsv).
// Last, Lighthouse 12 (tests/web/lighthouse, pinned; CHROME_PATH=/usr/bin/chromium, the flags
// that keep chromium off the network) on the shared link, mobile, with devtools throttling and
// with simulated throttling (median of RUNS each): performance, and the other categories.
// HUARONG_MEASURE_LIGHTHOUSE=0 leaves Lighthouse out.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawn } from 'node:child_process';
import { root, DIST, CHROMIUM, CHROME_FLAGS, launch, phone, until, call, tap, boardShown } from './common.mjs';
import { serve } from '../../web/serve.mjs';

const RUNS = Number(process.env.HUARONG_MEASURE_RUNS || 3);
const LIGHTHOUSE = process.env.HUARONG_MEASURE_LIGHTHOUSE !== '0';
/** Lighthouse's mobile "devtools" throttling (its defaults for mobile). */
const THROTTLE = { latency: 562.5, downloadThroughput: (1474.56 * 1000) / 8, uploadThroughput: (675 * 1000) / 8, cpu: 4 };

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const ms = (x) => `${Math.round(x)} ms`;
const kb = (x) => `${(x / 1024).toFixed(0)} KB`;

const hard = fs
  .readFileSync(path.join(root, 'crates/engine/src/slide/hard4x4.tsv'), 'utf8')
  .split('\n')
  .filter((l) => l && !l.startsWith('#'))
  .map((l) => l.split('\t')[1].trim().split(/\s+/).join(','));

// ---- the built site ----
// (HUARONG_WEB_DIST may name an earlier build, one wasm under wasm/: measured the same way.)
const wasmFiles = (dir) => fs.readdirSync(path.join(DIST, dir)).filter((f) => f.endsWith('.wasm')).map((f) => `${dir}/${f}`);
const wasms = fs.existsSync(path.join(DIST, 'assets')) ? wasmFiles('assets') : wasmFiles('wasm');
const gz = (f) => zlib.gzipSync(fs.readFileSync(path.join(DIST, f)), { level: 9 }).length;
// The first wasm a shared board waits for: the first core's (crates/web-first), else (an earlier
// build) the board's.
const firstWasm = wasms.find((f) => /first-[0-9a-f]+\.wasm$/.test(f)) || wasms.find((f) => /board-[0-9a-f]+\.wasm$/.test(f)) || wasms[0];
console.log(`load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} (${os.cpus().length} cores)`);
// Brotli: the build's sibling (what serve.mjs sends a browser, which asks for br), when there is one.
const br = (f) => (fs.existsSync(path.join(DIST, `${f}.br`)) ? kb(fs.statSync(path.join(DIST, `${f}.br`)).size) : 'none');
console.log(`first wasm (${firstWasm}): ${kb(gz(firstWasm))} gzipped, ${br(firstWasm)} brotli (on the wire); ${wasms.map((f) => `${f} ${kb(gz(f))} gz / ${br(f)} br`).join(', ')}`);

// Every response the server sent: [url, bytes, time the request came in].
let sent = [];
const server = await serve(DIST, 0, '127.0.0.1', (url, bytes, at) => sent.push([url, bytes, at]));
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await launch();
console.log(`chromium ${browser.version()}, ${origin}, ${RUNS} cold loads per network`);

// A shared 4×4 link (the core makes the code: encode_code in a throwaway page).
const code = await (async () => {
  const ctx = await phone(browser);
  const page = await ctx.newPage();
  await page.goto(`${origin}/`);
  await until(page, 'ready', () => document.body.dataset.ready === '1', null, 60_000);
  const r = await call(page, 'encode_code', { id: `slide:4x4:${hard[0]}` });
  await ctx.close();
  return r.ok.code;
})();
const link = `${origin}/?c=${code}`;
const board = `4x4:${hard[0]}`;
// The hard board's blank is in the top-left corner: tile `first` slides into it.
const first = Number(hard[0].split(',')[1]);

/** Lighthouse's devtools throttling (Chrome's emulation on the page applies to the requests of
 *  the workers it starts as well: checked, a worker's fetch waits the 562.5 ms too). */
async function throttle(ctx, page) {
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: THROTTLE.latency, downloadThroughput: THROTTLE.downloadThroughput, uploadThroughput: THROTTLE.uploadThroughput });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE.cpu });
  return cdp;
}

/** Before any page script: FCP and layout shifts recorded. */
async function observe(ctx) {
  await ctx.addInitScript(() => {
    const m = { cls: 0 };
    Object.defineProperty(window, '__measure', { value: m });
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) if (!e.hadRecentInput) m.cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** Open the shared link in `page` and take its figures (the clock is the page's). */
async function load(page, state = board) {
  sent = [];
  await page.goto(link, { waitUntil: 'commit', timeout: 120_000 });
  await boardShown(page, state, 120_000);
  // (A page whose first paint is the board records it a frame after the board is laid out.)
  await until(page, 'the first contentful paint is recorded', () => performance.getEntriesByName('first-contentful-paint').length > 0, null, 10_000);
  const t = await page.evaluate(() => ({
    ready: window.__huarongReadyAt,
    origin: performance.timeOrigin,
    fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime,
    cls: window.__measure ? window.__measure.cls : null,
  }));
  const boardAt = t.origin + t.ready;
  const before = sent.filter(([, , at]) => at <= boardAt);
  // The board is playable: a tap moves a tile (its answer's time too).
  const moves0 = await page.evaluate(() => Number(document.querySelector('[data-game]').dataset.moves));
  const tapped = await page.evaluate(() => performance.now());
  await tap(page, `[data-tile='${first}']`);
  await until(page, 'the first tap moved its tile', (n) => Number(document.querySelector('[data-game]').dataset.moves) === n + 1, moves0, 60_000);
  const moved = await page.evaluate(() => performance.now());
  // When the core took over from the first core (its `started` message; the moves answered
  // before it are stored from then on).
  await until(page, 'the core started', () => !!(window.__huarongPerf && window.__huarongPerf.worker), null, 60_000);
  const core = await page.evaluate(() => ({ at: window.__huarongPerf.workerAt, replay: window.__huarongPerf.worker.replay }));
  return {
    fcp: t.fcp,
    ready: t.ready,
    tap: moved - tapped,
    cls: t.cls,
    core: core.at,
    replayed: core.replay ? core.replay.replayed : 0,
    differed: core.replay ? core.replay.differed.length : 0,
    requests: before.length,
    bytes: before.reduce((a, [, b]) => a + b, 0),
    urls: before.map(([u, b]) => `${u} ${kb(b)}`),
  };
}

async function network(name, throttled) {
  const cold = [];
  for (let i = 0; i < RUNS; i += 1) {
    const ctx = await phone(browser, { serviceWorkers: 'block' });
    await observe(ctx);
    const page = await ctx.newPage();
    if (throttled) await throttle(ctx, page);
    cold.push(await load(page));
    await ctx.close();
  }
  // A second visit: the first one installs the service worker (once the full build is in);
  // then the link again in a new tab of the same browser.
  const ctx = await phone(browser);
  await observe(ctx);
  const page = await ctx.newPage();
  if (throttled) await throttle(ctx, page);
  await load(page);
  await until(page, 'the service worker controls the page and has its cache', () => navigator.serviceWorker.controller && caches.keys().then((k) => k.some((n) => n.startsWith('huarong-'))), null, 180_000);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.close();
  // The same link again, RUNS times, each in a new tab: the game it opened goes on (a tile
  // moved; a tap moves it back or on).
  const second = [];
  for (let i = 0; i < RUNS; i += 1) {
    const again = await ctx.newPage();
    if (throttled) await throttle(ctx, again);
    second.push(await load(again, null));
    await again.close();
  }
  await ctx.close();

  const med = (k) => median(cold.map((r) => r[k]));
  console.log(`${name}: median of ${RUNS} cold loads of the shared 4×4 link`);
  console.log(`  first contentful paint ${ms(med('fcp'))} (${cold.map((r) => ms(r.fcp)).join(', ')})`);
  console.log(`  first playable board ${ms(med('ready'))} (${cold.map((r) => ms(r.ready)).join(', ')}); then a tap moved its tile in ${ms(med('tap'))}`);
  console.log(`  the core took over (its wasm started, the first core's replies replayed and stored) at ${ms(med('core'))} (${cold.map((r) => `${ms(r.core)}: ${r.replayed} replayed, ${r.differed} differed`).join('; ')})`);
  console.log(`  before the board: ${med('requests')} requests, ${kb(med('bytes'))} on the wire (every request begun before it, finished or not); cumulative layout shift ${med('cls').toFixed(3)}`);
  console.log(`    ${cold[0].urls.join(', ')}`);
  const again = (k) => median(second.map((r) => r[k]));
  console.log(`  second visit (the service worker installed by a first one), median of ${RUNS}: first contentful paint ${ms(again('fcp'))}, first playable board ${ms(again('ready'))} (${second.map((r) => ms(r.ready)).join(', ')}), ${again('requests')} requests, ${kb(again('bytes'))}`);
}

await network('throttled (devtools: 562.5 ms, 1,474.56/675 kbit/s, CPU 4×)', true);
await network('loopback', false);

// ---- moves and hints on one warm page (loopback) ----
const ctx = await phone(browser);
const page = await ctx.newPage();
await page.goto(`${origin}/`);
await until(page, 'ready', () => document.body.dataset.ready === '1');
const nearlySolved = (await call(page, 'encode_code', { id: 'slide:4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15' })).ok.code;
await page.goto(`${origin}/?c=${nearlySolved}`);
await boardShown(page, '4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15');
// Back and forth along the last row: 14 and 15's runs never finish the puzzle.
for (let i = 0; i < 60; i += 1) {
  // Tap where the tile rests (not mid-slide): the previous move's animation has ended.
  await until(page, 'the board at rest', () => document.getAnimations().every((a) => a.playState !== 'running'));
  const n = await page.evaluate(() => window.__huarongPerf.moves.length);
  const state = await page.evaluate(() => document.querySelector('[data-game]').dataset.state);
  const cells = state.split(':')[1].split(',').map(Number);
  const blank = cells.indexOf(0);
  const target = blank % 4 === 0 ? cells[blank + 2] : cells[blank - 1] === 13 ? cells[blank + 1] : cells[blank - 1];
  await tap(page, `[data-tile='${target}']`);
  await until(page, `move ${i + 1} drawn`, (k) => window.__huarongPerf.moves.length > k, n);
}
const moves = await page.evaluate(() => window.__huarongPerf.moves.slice(-60));
const shown = moves.filter((m) => typeof m.shown === 'number');
if (shown.length !== moves.length) throw new Error(`only ${shown.length} of ${moves.length} taps were shown before their answer`);
const shownFrames = shown.map((m) => m.shownFrame).filter((x) => typeof x === 'number');
console.log(`loopback, a move, tap → the board shows it: p50 ${pct(shown.map((m) => m.shown), 50).toFixed(1)} ms, p95 ${pct(shown.map((m) => m.shown), 95).toFixed(1)} ms; → the next frame: p50 ${pct(shownFrames, 50).toFixed(1)} ms, p95 ${pct(shownFrames, 95).toFixed(1)} ms`);
console.log(`  Rust's answer, tap → the view applied and laid out: p50 ${pct(moves.map((m) => m.rt), 50).toFixed(1)} ms, p95 ${pct(moves.map((m) => m.rt), 95).toFixed(1)} ms`);
const hints = [];
let firstHint = null;
for (const b of hard) {
  const opened = await call(page, 'open_game', { id: `slide:4x4:${b}`, replace: true });
  if (!opened.ok) throw new Error(`open ${b}: ${JSON.stringify(opened.error)}`);
  const r = await page.evaluate(() => {
    const t = performance.now();
    return import('./js/ipc.js').then((m) => m.call('hint', { kind: 'slide' })).then((h) => ({ ms: performance.now() - t, h }), (e) => ({ error: e.code }));
  });
  if (r.error) throw new Error(`hint on ${b}: ${r.error}`);
  if (firstHint === null) firstHint = r.ms;
  else hints.push(r.ms);
}
console.log(`loopback, a hint through the search worker, hard 4×4 list (${hard.length} boards): first (fetches + installs the 4×4 tables) ${ms(firstHint)}; the rest p50 ${ms(pct(hints, 50))}, p95 ${ms(pct(hints, 95))}, max ${ms(Math.max(...hints))}`);
await ctx.close();
await browser.close();

// ---- Lighthouse ----

/** `cmd args` with `env`, within 5 minutes: {status, stderr}. */
function run(cmd, args, env) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill(), 300_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stderr });
    });
  });
}
if (LIGHTHOUSE) {
  const bin = path.join(root, 'tests', 'web', 'lighthouse', 'node_modules', '.bin', 'lighthouse');
  if (!fs.existsSync(bin)) throw new Error('Lighthouse is missing: npm ci --prefix tests/web/lighthouse');
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'huarong-lh-'));
  for (const method of ['devtools', 'simulate']) {
    const runs = [];
    for (let i = 0; i < RUNS; i += 1) {
      const file = path.join(out, `${method}-${i}.json`);
      // Not spawnSync: the site's server runs in this process and must go on answering.
      const r = await run(bin, [link, '--quiet', '--output=json', `--output-path=${file}`, '--form-factor=mobile', `--throttling-method=${method}`, '--only-categories=performance,accessibility,best-practices,seo', `--chrome-flags=${['--headless=new', '--no-sandbox', ...CHROME_FLAGS].join(' ')}`], {
        ...process.env,
        CHROME_PATH: CHROMIUM,
      });
      if (r.status !== 0) throw new Error(`lighthouse (${method}) failed (${r.status}): ${r.stderr.slice(-600)}`);
      const lhr = JSON.parse(fs.readFileSync(file, 'utf8'));
      const a = (id) => lhr.audits[id] && lhr.audits[id].numericValue;
      runs.push({
        perf: lhr.categories.performance.score,
        others: ['accessibility', 'best-practices', 'seo'].map((c) => `${c} ${lhr.categories[c].score}`).join(', '),
        fcp: a('first-contentful-paint'),
        lcp: a('largest-contentful-paint'),
        tbt: a('total-blocking-time'),
        cls: a('cumulative-layout-shift'),
        si: a('speed-index'),
      });
    }
    const m = (k) => median(runs.map((r) => r[k]));
    console.log(`Lighthouse ${method} throttling (median of ${RUNS}): performance ${m('perf')} (${runs.map((r) => r.perf).join(', ')}); FCP ${ms(m('fcp'))}, LCP ${ms(m('lcp'))}, TBT ${ms(m('tbt'))}, CLS ${m('cls').toFixed(3)}, speed index ${ms(m('si'))}; ${runs[0].others}`);
  }
  fs.rmSync(out, { recursive: true, force: true });
}
server.close();
console.log(`load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
