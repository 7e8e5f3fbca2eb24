// The web page (web/dist) in Debian's chromium with touch, on a loopback server: a friend's
// shared link played to a win, the record and a half-played game kept across reloads, the
// searches in their worker (the 4×4 tables fetched only then), no request to another origin,
// and offline play after the first visit. Screenshots (390×844, English and Chinese) go to
// HUARONG_SHOTS as web-<lang>-shared.png, web-<lang>-finish.png, web-<lang>-offline.png.
//
// Started by tests/tests/web_chromium.rs (HUARONG_WEB_CODES: JSON {win, half, hard} share codes
// made by the app core; HUARONG_SHOTS). Exit codes: 0 passed, 1 a check failed, 3 chromium
// could not start, 4 playwright-core is missing.

import path from 'node:path';
import fs from 'node:fs';
import { CheckFailed, EXIT_FAIL, check, site, launch, phone, until, board, call, tap, boardShown } from './common.mjs';

const SHOTS = process.env.HUARONG_SHOTS;
const CODES = JSON.parse(process.env.HUARONG_WEB_CODES || 'null');
if (!SHOTS || !CODES) {
  console.error('web.mjs: HUARONG_SHOTS and HUARONG_WEB_CODES must be set (run it through cargo test -p huarong-tests --test web_chromium)');
  process.exit(EXIT_FAIL);
}
fs.mkdirSync(SHOTS, { recursive: true });

setTimeout(() => {
  console.error('web.mjs: the run took over 150 s');
  process.exit(EXIT_FAIL);
}, 150_000).unref();

const { server, origin } = await site();
const browser = await launch();
console.log(`chromium ${browser.version()} against ${origin}`);

/** Every request the page, its workers and its service worker made, by URL. */
function recordRequests(ctx) {
  const seen = [];
  const note = (r) => seen.push(r.url());
  ctx.on('request', note);
  ctx.on('page', (p) => p.on('worker', () => {}));
  return seen;
}

async function shot(page, name) {
  await page.evaluate(() => document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))));
  await page.screenshot({ path: path.join(SHOTS, name) });
}

async function run(lang) {
  const ctx = await phone(browser, { locale: lang === 'zh' ? 'zh-CN' : 'en-US', colorScheme: 'light' });
  const requests = recordRequests(ctx);
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  page.on('response', (r) => r.status() >= 400 && !r.url().endsWith('/favicon.ico') && errors.push(`HTTP ${r.status()} ${r.url()}`));

  // 1. The friend's link: the puzzle, ready to play, with the challenge to beat.
  await page.goto(`${origin}/index.html?c=${encodeURIComponent(CODES.win.code)}`, { waitUntil: 'load' });
  await boardShown(page, CODES.win.board);
  check(!new URL(page.url()).searchParams.has('c'), `the link's code stays in the address: ${page.url()}`);
  await until(page, 'the challenge to beat is shown', () => {
    const c = document.querySelector('[data-challenge]');
    return c && c.dataset.challenge && !c.hidden;
  });
  check(!requests.some((u) => u.endsWith('/pdb4x4.bin')), 'the 4×4 tables were fetched for a 3×3 puzzle');
  await shot(page, `web-${lang}-shared.png`);

  // 2. Played to a win by touch: the finish offers the card and "Get the app".
  for (const [i, tile] of CODES.win.taps.entries()) {
    await tap(page, `[data-tile='${tile}']`);
    await until(page, `move ${i + 1}`, (n) => Number(document.querySelector('[data-game]').dataset.moves) === n, i + 1);
  }
  await until(page, 'the finish dialog', () => document.querySelector('[data-finish="won"] [data-action="get-app"]'));
  check(await page.$('[data-finish="won"] [data-action="share"]'), 'the finish offers no share card');
  const getApp = await page.$eval('[data-action="get-app"]', (a) => ({ href: a.getAttribute('href'), text: a.textContent }));
  check(getApp.href === 'get-app.html', `"Get the app" leads to ${getApp.href}`);
  check(getApp.text.includes(lang === 'zh' ? '下载' : 'Get the app'), `"Get the app" reads ${getApp.text}`);
  await shot(page, `web-${lang}-finish.png`);

  // 3. The share card: the PNG made by the core reaches the page (a download here: headless
  // chromium cannot share files).
  const download = page.waitForEvent('download', { timeout: 15_000 });
  await tap(page, '[data-finish="won"] [data-action="share"]');
  const file = await download;
  check(/\.png$/.test(file.suggestedFilename()), `the card downloads as ${file.suggestedFilename()}`);

  // 4. A second friend's puzzle, half played; a reload keeps it and the first one's record.
  await page.goto(`${origin}/?c=${encodeURIComponent(CODES.half.code)}`, { waitUntil: 'load' });
  await boardShown(page, CODES.half.board);
  await tap(page, `[data-tile='${CODES.half.taps[0]}']`);
  await until(page, 'the first move', () => Number(document.querySelector('[data-game]').dataset.moves) === 1);
  const half = await board(page);
  await page.reload({ waitUntil: 'load' });
  await boardShown(page, half.state);
  check((await board(page)).moves === 1, 'the half-played game lost its move');
  const progress = await call(page, 'get_progress');
  const rec = progress.ok && progress.ok.records && progress.ok.records['slide:3x3/tile'];
  check(rec && rec.best_moves === CODES.win.taps.length, `the won puzzle's record after a reload: ${JSON.stringify(rec)}`);

  // 5. Searches run in the search worker: a hint on the board; then a hard 4×4 whose hint
  // fetches the 4×4 tables (only now) and answers within the budget.
  const hint = await call(page, 'hint', { kind: 'slide' });
  check(hint.ok && hint.ok.mv && hint.ok.optimal === true, `a 3×3 hint: ${JSON.stringify(hint)}`);
  check(!requests.some((u) => u.endsWith('/pdb4x4.bin')), 'the 4×4 tables were fetched before a 4×4 search');
  await page.goto(`${origin}/?c=${encodeURIComponent(CODES.hard.code)}`, { waitUntil: 'load' });
  await boardShown(page, CODES.hard.board);
  const hard = await call(page, 'hint', { kind: 'slide' });
  check(hard.ok && hard.ok.mv && typeof hard.ok.mv.tile === 'number', `a 4×4 hint: ${JSON.stringify(hard)}`);
  check(requests.some((u) => u.endsWith('/pdb4x4.bin')), 'the 4×4 hint did not fetch the tables');
  // While the board's worker is idle and the search worker proves the hint, moves go on.
  if (hard.ok.pending) {
    const before = (await board(page)).moves;
    await tap(page, `[data-tile='${hard.ok.mv.tile}']`);
    await until(page, 'a move during the proof', (n) => Number(document.querySelector('[data-game]').dataset.moves) > n, before);
  }

  // 6. Offline after the first visit: the service worker has the whole shell.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await until(page, 'the service worker controls the page', () => !!navigator.serviceWorker.controller);
  await ctx.setOffline(true);
  await page.goto(`${origin}/?c=${encodeURIComponent(CODES.half.code)}`, { waitUntil: 'load' });
  await boardShown(page, null);
  const off = await board(page);
  check(off && off.state === half.state && off.moves === 1, `offline, the half-played game: ${JSON.stringify(off)}`);
  await tap(page, `[data-tile='${CODES.half.taps[1]}']`);
  await until(page, 'a move offline', () => Number(document.querySelector('[data-game]').dataset.moves) === 2);
  await shot(page, `web-${lang}-offline.png`);
  await ctx.setOffline(false);

  // No request left the origin; no CSP violation, no script error.
  const foreign = requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:') && !u.startsWith('blob:'));
  check(foreign.length === 0, `requests to other origins: ${foreign.join(', ')}`);
  const probe = await page.evaluate(() => window.__probe);
  check(probe.csp.length === 0, `CSP violations: ${probe.csp.join('; ')}`);
  const appErrors = await page.evaluate(() => window.__huarongErrors || []);
  check(!errors.length && !probe.errors.length && !appErrors.length, `errors: ${[...errors, ...probe.errors, ...appErrors].join('; ')}`);
  // Every game and the daily challenge: today's three puzzles open and draw on the page.
  const daily = await call(page, 'daily_info');
  check(daily.ok && daily.ok.date, `daily_info: ${JSON.stringify(daily)}`);
  for (const kind of ['klotski', '2048', 'slide']) {
    const opened = await call(page, 'open_game', { id: daily.ok[kind], replace: true });
    check(opened.ok && opened.ok.snapshot.kind === kind, `today's ${kind}: ${JSON.stringify(opened.error || null)}`);
    await call(page, 'set_screen', { screen: `game:${kind}` });
    await page.reload({ waitUntil: 'load' });
    await boardShown(page, opened.ok.snapshot.board);
    check((await board(page)).game === kind, `today's ${kind} is not the board shown`);
  }
  check(!errors.length, `errors: ${errors.join('; ')}`);
  check(requests.every((u) => u.startsWith(`${origin}/`) || u.startsWith('data:') || u.startsWith('blob:')), 'a request left the origin');

  // A second tab takes the core over (one writer of the storage); the first one says so.
  const second = await ctx.newPage();
  await second.goto(`${origin}/`, { waitUntil: 'load' });
  await boardShown(second, null);
  const again = await board(second);
  check(again.game === 'slide' && again.moves === 0, `the second tab shows the game the first left: ${JSON.stringify(again)}`);
  const stale = await call(page, 'snapshot', { kind: 'slide' });
  check(stale.error && stale.error.code === 'storage', `the first tab still answers: ${JSON.stringify(stale)}`);
  await ctx.close();
  console.log(`web ${lang}: passed (${requests.length} requests, all to ${origin})`);
}

let failed = false;
try {
  for (const lang of ['en', 'zh']) await run(lang);
} catch (e) {
  failed = true;
  console.error(e instanceof CheckFailed ? `FAILED: ${e.message}` : e);
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? EXIT_FAIL : 0);
