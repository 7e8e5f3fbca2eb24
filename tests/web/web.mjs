// The web page (web/dist) in Debian's chromium with touch, on a loopback server: a friend's
// shared link played to a win, the record and a half-played game kept across reloads, the
// searches in their worker (the 4×4 tables fetched only then), no request to another origin,
// and offline play after the first visit; then friends' result codes for today's
// daily on the friends' board of home and of the daily's finish, a verified one's replay, the
// board after a reload, and a long game's share card (tall, its QR code read back with
// zbarimg when HUARONG_ZBARIMG names it). Screenshots (390×844, English and Chinese) go to
// HUARONG_SHOTS as web-<lang>-{shared,finish,offline,friends-home,friends-finish,replay}.png,
// the long card as web-<lang>-card-long.png.
//
// Started by tests/tests/web_chromium.rs (HUARONG_WEB_CODES: JSON {win, half, hard} share codes
// and `friends`, the daily number slides of yesterday, today and tomorrow with two friends'
// result codes each, all made by the app core; HUARONG_SHOTS). Exit codes: 0 passed, 1 a check failed, 3 chromium
// could not start, 4 playwright-core is missing.

import path from 'node:path';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';

/** The finish's share action: the primary "send your result back" after a friend's link, else
 *  the outlined Share beside the primary. */
const SHARE = '[data-finish="won"] [data-action="send-back"], [data-finish="won"] [data-action="share"]';
import { EXIT_FAIL, check, suite, phone, until, board, call, tap, boardShown } from './common.mjs';

const SHOTS = process.env.HUARONG_SHOTS;
const ZBARIMG = process.env.HUARONG_ZBARIMG || null;
/** Back-and-forth pairs of taps before the long game's win: a log too long for the card's corner. */
const LONG_PAIRS = 600;
const CODES = JSON.parse(process.env.HUARONG_WEB_CODES || 'null');
if (!SHOTS || !CODES) {
  console.error('web.mjs: HUARONG_SHOTS and HUARONG_WEB_CODES must be set (run it through cargo test -p huarong-tests --test web_chromium)');
  process.exit(EXIT_FAIL);
}
fs.mkdirSync(SHOTS, { recursive: true });


/** The 4×4 tables (assets/pdb4x4-<hash>.bin). */
const isPdb = (u) => /\/pdb4x4(-[0-9a-f]+)?\.bin$/.test(u);

/** Every request the page, its workers and its service worker made, by URL. */
function recordRequests(ctx) {
  const seen = [];
  const note = (r) => seen.push(r.url());
  ctx.on('request', note);
  ctx.on('page', (p) => p.on('worker', () => {}));
  return seen;
}

async function shot(page, name) {
  // A finish dialog at rest (stars that just arrived have popped in).
  await until(page, `${name}: the dialog at rest`, () => {
    const d = document.querySelector('[data-finish]');
    return !d || d.getAnimations({ subtree: true }).every((a) => a.playState !== 'running' || a.effect.getComputedTiming().iterations === Infinity);
  });
  await page.evaluate(() => document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))));
  await page.screenshot({ path: path.join(SHOTS, name) });
}

async function run({ origin, browser }, lang) {
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
  check(!requests.some((u) => isPdb(u)), 'the 4×4 tables were fetched for a 3×3 puzzle');
  await shot(page, `web-${lang}-shared.png`);

  // 2. Played to a win by touch: the finish offers the card and "Get the app".
  for (const [i, tile] of CODES.win.taps.entries()) {
    await tap(page, `[data-tile='${tile}']`);
    await until(page, `move ${i + 1}`, (n) => Number(document.querySelector('[data-game]').dataset.moves) === n, i + 1);
  }
  await until(page, 'the finish dialog', () => document.querySelector('[data-finish="won"] [data-action="get-app"]'));
  check(await page.$(SHARE), 'the finish offers no share card');
  const getApp = await page.$eval('[data-action="get-app"]', (a) => ({ href: a.getAttribute('href'), text: a.textContent }));
  check(getApp.href === 'get-app.html', `"Get the app" leads to ${getApp.href}`);
  check(getApp.text.includes(lang === 'zh' ? '下载' : 'Get the app'), `"Get the app" reads ${getApp.text}`);
  await shot(page, `web-${lang}-finish.png`);

  // 3. The share card: the PNG made by the core reaches the page (a download here: headless
  // chromium cannot share files).
  // The page asks once (`share`) and sends no result: the moves, time, stars and verdict are the
  // core's own (every command the page sends meanwhile is recorded).
  await page.evaluate(() => {
    const w = window.__huarongCoreWorker.worker;
    const post = w.postMessage.bind(w);
    window.__sent = [];
    w.postMessage = (m, ...rest) => {
      if (m && m.cmd) window.__sent.push({ cmd: m.cmd, args: m.args });
      return post(m, ...rest);
    };
  });
  const download = page.waitForEvent('download', { timeout: 15_000 });
  await tap(page, SHARE);
  const file = await download;
  check(/\.png$/.test(file.suggestedFilename()), `the card downloads as ${file.suggestedFilename()}`);
  const sent = await page.evaluate(() => window.__sent);
  const shares = sent.filter((c) => ['share', 'share_card', 'encode_code', 'result_code', 'card_image'].includes(c.cmd));
  check(shares.length === 1 && shares[0].cmd === 'share', `sharing is one call to share: ${JSON.stringify(shares)}`);
  const keys = Object.keys(shares[0].args).sort();
  check(keys.every((k) => ['kind', 'lang', 'picture', 'theme'].includes(k)) && keys.includes('kind'), `share sends no result field: ${keys}`);
  check(shares[0].args.lang === lang, `share says the page's language: ${shares[0].args.lang}`);

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
  // A shared link's board is exact, not dealt by the app: its record has a scope of its own
  // (`slide:3x3/board:<hash>`), never the 3×3's.
  const recs = (progress.ok && progress.ok.records) || {};
  check(!recs['slide:3x3/tile'], `a shared board set the 3×3 record: ${JSON.stringify(recs)}`);
  const rec = Object.entries(recs).find(([k]) => k.startsWith('slide:3x3/board:') && k.endsWith('/tile'))?.[1];
  check(rec && rec.best_moves === CODES.win.taps.length, `the won puzzle's record after a reload: ${JSON.stringify(rec)}`);

  // 5. Searches run in the search worker: a hint on the board; then a hard 4×4 whose hint
  // fetches the 4×4 tables (only now) and answers within the budget.
  const hint = await call(page, 'hint', { kind: 'slide' });
  check(hint.ok && hint.ok.mv && hint.ok.optimal === true, `a 3×3 hint: ${JSON.stringify(hint)}`);
  check(!requests.some((u) => isPdb(u)), 'the 4×4 tables were fetched before a 4×4 search');
  await page.goto(`${origin}/?c=${encodeURIComponent(CODES.hard.code)}`, { waitUntil: 'load' });
  await boardShown(page, CODES.hard.board);
  // A 4×4 link's first load stays light: its background optimum waits for the first move.
  const opened = await call(page, 'get_settings');
  check(opened.ok, `get_settings: ${JSON.stringify(opened.error)}`);
  check(!requests.some((u) => isPdb(u)), 'opening a 4×4 link fetched the 4×4 tables');
  const hard = await call(page, 'hint', { kind: 'slide' });
  check(hard.ok && hard.ok.mv && typeof hard.ok.mv.tile === 'number', `a 4×4 hint: ${JSON.stringify(hard)}`);
  check(requests.some((u) => isPdb(u)), 'the 4×4 hint did not fetch the tables');
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

/** Listens for script errors, CSP violations aside (checked from the page's probe). */
function watchErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  page.on('response', (r) => r.status() >= 400 && !r.url().endsWith('/favicon.ico') && errors.push(`HTTP ${r.status()} ${r.url()}`));
  return errors;
}

/** Shows `screen` (set_screen, then a reload: the page starts on it) and waits for the UI. */
async function showScreen(page, screen) {
  const r = await call(page, 'set_screen', { screen });
  check(r.ok !== undefined, `set_screen ${screen}: ${JSON.stringify(r.error)}`);
  await page.reload({ waitUntil: 'load' });
  await until(page, 'the UI is ready', () => document.body && document.body.dataset.ready === '1');
}

/** The friends' board lines under `root` (a CSS selector), in their order. */
function boardLines(page, root) {
  return page.$$eval(`${root} .friends .friend`, (els) =>
    els.map((e) => ({
      name: e.dataset.friend,
      me: e.dataset.me === '1',
      rank: Number(e.dataset.rank),
      verified: e.dataset.verified === '1',
      mark: (e.querySelector('.friend-mark') || {}).textContent || '',
      markVerified: !!e.querySelector('.friend-mark.verified'),
      claimed: ((e.querySelector('.friend-time') || {}).dataset || {}).claimed === '1',
    })),
  );
}

/** The replay board as a board body (`3x3:1,2,…,0`), read from where its tiles are drawn. */
function replayLayout(page) {
  return page.evaluate(() => {
    const tiles = [...document.querySelectorAll('[data-replay] [data-tile]')].map((e) => {
      const b = e.getBoundingClientRect();
      return { n: e.dataset.tile, x: Math.round(b.left), y: Math.round(b.top) };
    });
    const xs = [...new Set(tiles.map((t) => t.x))].sort((a, b) => a - b);
    const ys = [...new Set(tiles.map((t) => t.y))].sort((a, b) => a - b);
    const cells = new Array(xs.length * ys.length).fill('0');
    for (const t of tiles) cells[ys.indexOf(t.y) * xs.length + xs.indexOf(t.x)] = t.n;
    return `${xs.length}x${ys.length}:${cells.join(',')}`;
  });
}

/** The replay stands at move `at`: its position and its board as Mei's moves left it. */
async function replayAt(page, day, at, what) {
  const want = day.states[at];
  await until(
    page,
    `${what}: the replay at move ${at} (${want})`,
    ([n]) => document.querySelector('[data-replay-at]') && Number(document.querySelector('.replay-pos').dataset.replayAt) === n,
    [at],
  );
  // The tiles slide into place: wait for the layout, then compare it.
  const layout = () => replayLayout(page);
  const deadline = Date.now() + 10_000;
  let got = await layout();
  while (got !== want && Date.now() < deadline) {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
    got = await layout();
  }
  check(got === want, `${what}: the replay's board at move ${at} is ${got}, not ${want}`);
}

/**
 * Issue 25 on the page: friends' result codes for today's daily (Bo's claim, Mei's with her
 * move log) opened as links; the board on home and in the daily's finish, Mei verified; her
 * replay stepped, played at 2× and paused; the board again after a reload (IndexedDB); the
 * share card of a 1,202-move game, whose result code carries its log.
 */
async function friendsLoop({ origin, browser }, lang) {
  const zh = lang === 'zh';
  const ctx = await phone(browser, { locale: zh ? 'zh-CN' : 'en-US', colorScheme: 'light' });
  const page = await ctx.newPage();
  const errors = watchErrors(page);
  await page.goto(`${origin}/index.html`, { waitUntil: 'load' });
  await until(page, 'the UI is ready', () => document.body && document.body.dataset.ready === '1');
  const info = await call(page, 'daily_info');
  check(info.ok, `daily_info: ${JSON.stringify(info.error)}`);
  const day = CODES.friends.find((d) => d.number === info.ok.number);
  check(day, `no codes for the page's daily ${info.ok.number} (${info.ok.date})`);
  check(info.ok.slide === day.id, `the page's daily slide ${info.ok.slide} is not ${day.id}`);
  const n = day.states.length - 1;
  // A ✓ (its words for screen readers) on verified rows only; nothing on the others.
  const [verified, plain] = zh ? ['已回放', ''] : ['replayed', ''];

  // 1. The friends' links, as they arrive in a chat, each on a fresh page (a board worker that
  // has not made today's 4×4 yet, so it has no 4×4 tables: it installs them and opens again):
  // each opens that daily with its result, not a plain challenge.
  for (const [name, c] of [['Bo', day.bo], ['Mei', day.mei]]) {
    await page.goto(`${origin}/index.html?c=${encodeURIComponent(c)}`, { waitUntil: 'load' });
    await boardShown(page, day.start);
    await until(page, `${name}'s result to beat is shown`, () => {
      const el = document.querySelector('[data-challenge]');
      return el && el.dataset.challenge && !el.hidden;
    });
  }

  // 2. Home: the daily card's board, best first, Mei marked verified, Bo plain.
  await showScreen(page, 'home');
  const homeBoard = async (what) => {
    await until(page, `${what}: the friends on home's daily card`, () => document.querySelectorAll(".today .friends .friend[data-me='0']").length === 2);
    const lines = (await boardLines(page, '.today')).filter((l) => !l.me);
    check(lines.map((l) => l.name).join(',') === 'Mei,Bo', `${what}: home's board ${JSON.stringify(lines)}`);
    check(lines[0].verified && lines[0].markVerified && lines[0].mark.trim() === verified, `${what}: Mei is not marked ${verified}: ${JSON.stringify(lines[0])}`);
    check(!lines[1].verified && !lines[1].markVerified && lines[1].mark.trim() === plain, `${what}: Bo is not shown plain: ${JSON.stringify(lines[1])}`);
    check(lines[0].rank < lines[1].rank, `${what}: ranks ${JSON.stringify(lines)}`);
    // A friend's time is shown as their claim, verified moves or not.
    check(lines.every((l) => l.claimed), `${what}: a friend's time is not marked as claimed: ${JSON.stringify(lines)}`);
  };
  await homeBoard('after the links');
  await page.$eval('.today .friends', (el) => el.scrollIntoView({ block: 'center' }));
  await shot(page, `web-${lang}-friends-home.png`);

  // 3. A reload reads the board back from the page's storage (IndexedDB).
  await page.reload({ waitUntil: 'load' });
  await until(page, 'the UI is ready', () => document.body && document.body.dataset.ready === '1');
  await homeBoard('after a reload');
  const kept = await call(page, 'friends', { daily: day.number, kind: 'slide' });
  check(Array.isArray(kept.ok) && kept.ok.some((l) => l.name === 'Mei' && l.verified) && kept.ok.some((l) => l.name === 'Bo' && !l.verified), `friends after a reload: ${JSON.stringify(kept)}`);

  // 4. Today's daily solved optimally (all but the last move through the core, the last by
  // touch): the finish's board ranks the player first, Mei verified below.
  const opened = await call(page, 'open_game', { id: day.id, replace: true });
  check(opened.ok, `open_game ${day.id}: ${JSON.stringify(opened.error)}`);
  for (const mv of day.solution.slice(0, -1)) {
    const r = await call(page, 'play', { kind: 'slide', mv });
    check(r.ok, `play ${JSON.stringify(mv)}: ${JSON.stringify(r.error)}`);
  }
  await showScreen(page, 'game:slide');
  await boardShown(page, null);
  await tap(page, `[data-tile='${day.solution[day.solution.length - 1].tile}']`);
  await until(page, "the finish's friends' board with the player", () => document.querySelector("[data-finish='won'] .friends .friend[data-me='1']"));
  await until(page, "the finish's board with both friends", () => document.querySelectorAll("[data-finish='won'] .friends .friend[data-me='0']").length === 2);
  const fin = await boardLines(page, "[data-finish='won']");
  check(fin.map((l) => (l.me ? 'me' : l.name)).join(',') === 'me,Mei,Bo', `the finish's board ${JSON.stringify(fin)}`);
  check(fin[0].rank === 1, `the player's rank ${JSON.stringify(fin[0])}`);
  check(fin[1].verified && fin[1].mark.trim() === verified && !fin[2].verified && fin[2].mark.trim() === plain, `the finish's marks ${JSON.stringify(fin)}`);
  // The player's line is this finish, at the time the dialog shows (as recorded).
  const times = await page.evaluate(() => ({
    board: document.querySelector("[data-finish] .friend[data-me='1'] .friend-time").textContent,
    dialog: document.querySelector('[data-finish] [data-fin="time"] .stat-value').textContent,
    ms: Number(document.querySelector('[data-finish] [data-fin="time"]').dataset.ms),
  }));
  const rec = await call(page, 'records', { scope: 'slide:4x4' });
  const row = rec.ok && rec.ok.history[rec.ok.history.length - 1];
  check(times.board === times.dialog && row && row.ms === times.ms, `the finish's times: ${JSON.stringify(times)}, recorded ${JSON.stringify(row)}`);
  await page.$eval("[data-finish='won'] .friends", (el) => el.scrollIntoView({ block: 'center' }));
  await shot(page, `web-${lang}-friends-finish.png`);

  // 5. Mei's replay from her code (the code screen's "Watch the replay"): steps each way, 2×,
  // play and pause; every position shows the board her moves left.
  await showScreen(page, 'code');
  await page.$eval('#code-input', (el, c) => {
    el.value = c;
    el.dispatchEvent(new Event('input'));
  }, day.mei);
  // Decoded and settled (the code's card shown above the buttons): the button stays put.
  await until(page, 'the code offers its replay', () => {
    const b = document.querySelector("[data-action='watch-replay']");
    return b && !b.hidden && document.querySelector('#code-input[data-decoded]');
  });
  await tap(page, "[data-action='watch-replay']");
  await until(page, 'the replay screen', () => document.querySelector('[data-replay] [data-tile]'));
  const moves = await page.$eval('[data-replay]', (el) => Number(el.dataset.moves));
  check(moves === n, `the replay has ${moves} moves, Mei made ${n}`);
  await replayAt(page, day, 0, 'opened');
  check(await page.$eval("[data-action='replay-step-back']", (b) => b.disabled), 'a step back from the start is offered');
  await tap(page, "[data-action='replay-step']");
  await replayAt(page, day, 1, 'a step');
  await tap(page, "[data-action='replay-step']");
  await replayAt(page, day, 2, 'a second step');
  await tap(page, "[data-action='replay-step-back']");
  await replayAt(page, day, 1, 'a step back');
  await tap(page, "[data-action='replay-speed']");
  await until(page, 'the speed is 2×', () => document.querySelector("[data-action='replay-speed']").dataset.speed === '2');
  await tap(page, "[data-action='replay-play']");
  await until(page, 'the replay plays on', () => Number(document.querySelector('.replay-pos').dataset.replayAt) >= 3);
  await tap(page, "[data-action='replay-pause']");
  await until(page, 'paused: play is offered again', () => {
    const play = document.querySelector("[data-action='replay-play']");
    const pause = document.querySelector("[data-action='replay-pause']");
    return play && !play.hidden && pause && pause.hidden;
  });
  const paused = await page.$eval('.replay-pos', (el) => Number(el.dataset.replayAt));
  // Paused means a step goes exactly one move on (a running timer would add its own).
  if (paused < n) {
    await tap(page, "[data-action='replay-step']");
    await replayAt(page, day, paused + 1, 'a step after the pause');
  }
  await shot(page, `web-${lang}-replay.png`);
  // To the end: the last position is the solved board, and the step forward is disabled.
  for (let at = await page.$eval('.replay-pos', (el) => Number(el.dataset.replayAt)); at < n; at += 1) {
    await tap(page, "[data-action='replay-step']");
  }
  await replayAt(page, day, n, 'the end');
  check(await page.$eval("[data-action='replay-step']", (b) => b.disabled), 'a step past the end is offered');

  // The replay changed nothing: the player's slide game is still their won daily.
  const snap = await call(page, 'snapshot', { kind: 'slide' });
  check(snap.ok && snap.ok.snapshot.id === day.id && snap.ok.snapshot.status === 'won', `the player's game after the replay: ${JSON.stringify(snap.ok ? snap.ok.snapshot.id : snap.error)}`);

  // 6. A long game's share card: its result code carries the move log, so the card is the
  // tall one and its QR code holds the whole link (read back with zbarimg where installed).
  const id = `slide:${CODES.win.board}`;
  const o = await call(page, 'open_game', { id, replace: true });
  check(o.ok, `open_game ${id}: ${JSON.stringify(o.error)}`);
  const [there, last] = CODES.win.taps;
  for (let i = 0; i < 2 * LONG_PAIRS + 1; i += 1) {
    const r = await call(page, 'play', { kind: 'slide', mv: { tile: there } });
    check(r.ok, `play ${i}: ${JSON.stringify(r.error)}`);
  }
  await showScreen(page, 'game:slide');
  await boardShown(page, null);
  await tap(page, `[data-tile='${last}']`);
  await until(page, 'the long game is won', (sel) => document.querySelector(sel), SHARE);
  const download = page.waitForEvent('download', { timeout: 30_000 });
  await tap(page, SHARE);
  const file = await download;
  const png = fs.readFileSync(await file.path());
  const shared = await page.$eval('[data-finish]', (el) => ({ code: el.dataset.shared, replay: el.dataset.sharedReplay }));
  check(shared.replay === '1' && shared.code && shared.code.length > 400, `the long game's shared code: ${JSON.stringify(shared)}`);
  const [w, h] = [png.readUInt32BE(16), png.readUInt32BE(20)];
  // The 5:4 card is 1000×800; the long one taller (its exact size: crates/card's tests).
  check(w === 1000 && h > 800, `the long game's card is ${w}×${h}, not the tall one`);
  const cardPath = path.join(SHOTS, `web-${lang}-card-long.png`);
  fs.writeFileSync(cardPath, png);
  if (ZBARIMG) {
    const text = execFileSync(ZBARIMG, ['--raw', '-q', cardPath], { encoding: 'utf8' }).trim();
    check(text === `${CODES.link_base}?c=${shared.code}`, `the card's QR code reads ${text.slice(0, 80)}… (${text.length} characters), not the shared link`);
  } else {
    console.log('web.mjs: zbarimg is not installed: the long card\'s QR code was not read back');
  }
  const probe = await page.evaluate(() => window.__probe);
  check(probe.csp.length === 0, `CSP violations: ${probe.csp.join('; ')}`);
  const appErrors = await page.evaluate(() => window.__huarongErrors || []);
  check(!errors.length && !probe.errors.length && !appErrors.length, `errors: ${[...errors, ...probe.errors, ...appErrors].join('; ')}`);
  await ctx.close();
  console.log(`web ${lang}: the friends' board and the replay passed`);
}

await suite('web.mjs', 300, async (site) => {
  console.log(`chromium ${site.browser.version()} against ${site.origin}`);
  for (const lang of ['en', 'zh']) await run(site, lang);
  for (const lang of ['en', 'zh']) await friendsLoop(site, lang);
});
