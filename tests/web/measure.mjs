// The web page's performance figures (the README's performance table): `./dev.sh web measure`
// (or `node tests/web/measure.mjs` on a built web/dist). Headless Debian chromium on a loopback
// server (gzip, as static hosts serve), a 390×844 touch phone, a fresh browser context (cold
// cache; service workers blocked, their precache starts only once the board is up) per load:
// - first load: bytes on the wire (gzipped) until the first board is playable, opening a
//   shared 4×4 link; the 4×4 tables are not among them;
// - time to the first playable board: navigation start → board laid out and the UI ready
//   (median and max of RUNS cold loads);
// - a move: tap → the board redrawn. The slide board shows the run at its destination in the
//   tap's own task (slide.js `preview`; perf.moves `shown` = → laid out, `shownFrame` = → the
//   next animation frame), and Rust's answer confirms it (`rt` = the call → the view applied
//   and laid out, `frame` = → the next frame after it; a browser runs the worker's reply only
//   after the frame that follows a tap). p50/p95 over 60 taps;
// - a hint through the search worker on the hard 4×4 list (crates/engine/src/slide/
//   hard4x4.tsv, the native hintbench's boards), call → reply on the page: the first (which
//   fetches and installs the 4×4 tables) and p50/p95/max of the rest.

import fs from 'node:fs';
import path from 'node:path';
import { root, site, launch, phone, until, call, tap, boardShown } from './common.mjs';

const RUNS = Number(process.env.HUARONG_MEASURE_RUNS || 5);
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const ms = (x) => `${x.toFixed(1)} ms`;

const hard = fs
  .readFileSync(path.join(root, 'crates/engine/src/slide/hard4x4.tsv'), 'utf8')
  .split('\n')
  .filter((l) => l && !l.startsWith('#'))
  .map((l) => l.split('\t')[1].trim().split(/\s+/).join(','));

let sent = null;
const { server, origin } = await site((url, bytes) => {
  if (sent) sent.push([url, bytes]);
});
const browser = await launch();
console.log(`chromium ${browser.version()}, ${origin}, ${RUNS} cold loads`);

// A shared 4×4 link (the core makes the code: encode_code in a throwaway page).
async function codeOf(id) {
  const ctx = await phone(browser);
  const page = await ctx.newPage();
  await page.goto(`${origin}/`);
  await until(page, 'ready', () => document.body.dataset.ready === '1');
  const r = await call(page, 'encode_code', { id });
  await ctx.close();
  return r.ok.code;
}
const code = await codeOf(`slide:4x4:${hard[0]}`);

const loads = [];
const bytes = [];
for (let i = 0; i < RUNS; i += 1) {
  // No service worker: its precache (after the board is up) is not the first load's.
  const ctx = await phone(browser, { serviceWorkers: 'block' });
  const page = await ctx.newPage();
  sent = [];
  await page.goto(`${origin}/?c=${code}`);
  await boardShown(page, `4x4:${hard[0]}`);
  const t = await page.evaluate(() => window.__huarongReadyAt);
  const wire = sent.reduce((a, [, b]) => a + b, 0);
  if (i === 0) {
    const big = [...sent].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([u, b]) => `${u} ${(b / 1024).toFixed(0)} KB`);
    console.log(`  first load: ${sent.length} responses; largest ${big.join(', ')}; pdb4x4.bin among them: ${sent.some(([u]) => u.endsWith('pdb4x4.bin'))}`);
  }
  sent = null;
  loads.push(t);
  bytes.push(wire);
  await ctx.close();
}
console.log(`first load (gzipped, on the wire, until the first board is playable): ${(Math.max(...bytes) / 1e6).toFixed(3)} MB`);
console.log(`time to the first playable board, cold: median ${ms(pct(loads, 50))}, max ${ms(Math.max(...loads))}`);

// Moves and hints on one warm page.
const ctx = await phone(browser);
const page = await ctx.newPage();
await page.goto(`${origin}/?c=${await codeOf('slide:4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15')}`);
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
const frames = moves.map((m) => m.frame);
const rts = moves.map((m) => m.rt);
const part = (k) => `${k} p50 ${ms(pct(moves.map((m) => m[k]), 50))} p95 ${ms(pct(moves.map((m) => m[k]), 95))}`;
console.log(`  parts: ${part('ipc')}; ${part('apply')}; ${part('layout')}`);
const shown = moves.filter((m) => typeof m.shown === 'number');
if (shown.length !== moves.length) throw new Error(`only ${shown.length} of ${moves.length} taps were shown before their answer`);
const shownFrames = shown.map((m) => m.shownFrame).filter((x) => typeof x === 'number');
console.log(`a move, tap → the board shows it (the run laid out at its destination): p50 ${ms(pct(shown.map((m) => m.shown), 50))}, p95 ${ms(pct(shown.map((m) => m.shown), 95))}; → the next frame: p50 ${ms(pct(shownFrames, 50))}, p95 ${ms(pct(shownFrames, 95))}`);
console.log(`  Rust's answer, tap → the view applied and laid out: p50 ${ms(pct(rts, 50))}, p95 ${ms(pct(rts, 95))}; → the next frame: p50 ${ms(pct(frames, 50))}, p95 ${ms(pct(frames, 95))}`);

const hints = [];
let first = null;
for (const b of hard) {
  const opened = await call(page, 'open_game', { id: `slide:4x4:${b}`, replace: true });
  if (!opened.ok) throw new Error(`open ${b}: ${JSON.stringify(opened.error)}`);
  const r = await page.evaluate(() => {
    const t = performance.now();
    return import('./js/ipc.js').then((m) => m.call('hint', { kind: 'slide' })).then((h) => ({ ms: performance.now() - t, h }), (e) => ({ error: e.code }));
  });
  if (r.error) throw new Error(`hint on ${b}: ${r.error}`);
  if (first === null) first = r.ms;
  else hints.push(r.ms);
}
console.log(`a hint through the search worker, hard 4×4 list (${hard.length} boards): first (fetches + installs the 4×4 tables) ${ms(first)}; the rest p50 ${ms(pct(hints, 50))}, p95 ${ms(pct(hints, 95))}, max ${ms(Math.max(...hints))}`);
await ctx.close();
await browser.close();
server.close();
