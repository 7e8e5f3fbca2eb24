// A page opened on one build keeps working after another build is deployed
// to the same origin (its host then has only the new files). Run by tests/tests/web_chromium.rs
// on a built web/dist (build A), Debian's chromium, a 390×844 touch phone, loopback only.
//
// Build B is made here from A's wasm (target/wasm-web: the wasm-bindgen outputs web/build.mjs
// bundles): every wasm's own exports are renamed (`<name>_b`) in the wasm and in its glue,
// then web/build.mjs writes B's site. B is a whole, working site; but B's glue cannot run A's
// wasm, as after any change of the core's exports. The server serves A, then B.
//
// A page opened on A (the service worker installed) stays a page of A:
// 1. after the deploy (the browser has found B's service worker): a hint; two searches stopped
//    by `cancel`, so that a search worker starts after the deploy (it must be A's: today's code
//    gave it B's glue with A's compiled wasm) and a hint on it; a move by touch; a reload:
//    still A, and a move and a hint there;
// 2. once no page of A is open, the next page is B, and B plays: a move and a hint.
// Exit codes as web.mjs's: 0 passed, 1 a check failed, 3 no chromium, 4 no playwright-core.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { CheckFailed, EXIT_FAIL, root, DIST, check, launch, phone, until, board, call, tap, boardShown } from './common.mjs';
import { serve } from '../../web/serve.mjs';

const WASM = process.env.HUARONG_WASM_WEB || path.join(root, 'target', 'wasm-web');
const CODES = JSON.parse(process.env.HUARONG_WEB_CODES || 'null');
if (!CODES) {
  console.error('deploy.mjs: HUARONG_WEB_CODES must be set (run it through cargo test -p huarong-tests --test web_chromium)');
  process.exit(EXIT_FAIL);
}
setTimeout(() => {
  console.error('deploy.mjs: the run took over 240 s');
  process.exit(EXIT_FAIL);
}, 240_000).unref();

// ---- build B ----

function leb(buf, at) {
  let v = 0;
  let shift = 0;
  let b;
  do {
    b = buf[at];
    at += 1;
    v += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return [v, at];
}

function uleb(v) {
  const out = [];
  do {
    let b = v % 128;
    v = Math.floor(v / 128);
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return Buffer.from(out);
}

/** `wasm` with its function exports renamed by `rename(name)` (the export section rewritten). */
function renameExports(wasm, rename) {
  const parts = [wasm.subarray(0, 8)];
  const renamed = new Map();
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at];
    const [size, body] = leb(wasm, at + 1);
    const end = body + size;
    if (id !== 7) {
      parts.push(wasm.subarray(at, end));
    } else {
      let [n, p] = leb(wasm, body);
      const entries = [uleb(n)];
      for (; n > 0; n -= 1) {
        const [len, s] = leb(wasm, p);
        const name = wasm.subarray(s, s + len).toString('utf8');
        const kind = wasm[s + len];
        const [index, next] = leb(wasm, s + len + 1);
        const to = kind === 0 ? rename(name) : name;
        if (to !== name) renamed.set(name, to);
        const bytes = Buffer.from(to, 'utf8');
        entries.push(uleb(bytes.length), bytes, Buffer.from([kind]), uleb(index));
        p = next;
      }
      const section = Buffer.concat(entries);
      parts.push(Buffer.from([7]), uleb(section.length), section);
    }
    at = end;
  }
  return { wasm: Buffer.concat(parts), renamed };
}

/** The wasm-bindgen outputs under `dir` (each dir with a huarong_web_bg.wasm). */
function glueDirs(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) out.push(...glueDirs(path.join(dir, e.name)));
    else if (e.name === 'huarong_web_bg.wasm') out.push(dir);
  }
  return out;
}

function buildB() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'huarong-deploy-'));
  const wasmB = path.join(tmp, 'wasm');
  fs.cpSync(WASM, wasmB, { recursive: true });
  const dirs = glueDirs(wasmB);
  check(dirs.length > 0, `no wasm-bindgen output under ${WASM}: run ./dev.sh web build`);
  for (const dir of dirs) {
    const file = path.join(dir, 'huarong_web_bg.wasm');
    // The core's own exports (not wasm-bindgen's runtime, not the memory).
    const { wasm, renamed } = renameExports(fs.readFileSync(file), (name) => (name.startsWith('__') || name === 'memory' ? name : `${name}_b`));
    check(renamed.size > 3, `only ${renamed.size} exports renamed in ${file}`);
    fs.writeFileSync(file, wasm);
    const gluePath = path.join(dir, 'huarong_web.js');
    let glue = fs.readFileSync(gluePath, 'utf8');
    for (const [from, to] of renamed) glue = glue.replace(new RegExp(`\\bwasm\\.${from}\\b`, 'g'), `wasm.${to}`);
    fs.writeFileSync(gluePath, glue);
  }
  const dist = path.join(tmp, 'dist');
  const r = spawnSync(process.execPath, [path.join(root, 'web', 'build.mjs'), wasmB, dist], { encoding: 'utf8' });
  check(r.status === 0, `web/build.mjs for build B failed: ${r.stderr || r.stdout}`);
  return { tmp, dist };
}

/** A build's service-worker cache name (its sw.js VERSION) and its page's build (index.html). */
function buildOf(dist) {
  const sw = fs.readFileSync(path.join(dist, 'sw.js'), 'utf8');
  const m = /const VERSION = '([0-9a-f]+)'/.exec(sw);
  check(m, `${dist}/sw.js names no version`);
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  return { cache: `huarong-${m[1]}`, html };
}

// ---- the run ----

const B = buildB();
const a = buildOf(DIST);
const b = buildOf(B.dist);
check(a.cache !== b.cache, 'build B has the same cache as build A');
let served = DIST;
const server = await serve(() => served, 0, '127.0.0.1');
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await launch();
console.log(`chromium ${browser.version()} against ${origin}: build A ${a.cache}, build B ${b.cache}`);

/** The page runs build `x` (its index.html's `huarong-build`). */
async function isBuild(page, x, what) {
  const want = (/<meta name="huarong-build" content="([0-9a-f]+)">/.exec(x.html) || [])[1];
  const got = await page.evaluate(() => (document.querySelector('meta[name="huarong-build"]') || {}).content);
  check(want && got === want, `${what}: the page runs build ${got}, not ${want}`);
}

/** Two moves there and back: the position is the start again, and no hint line is held (the
 *  next hint searches: a hint on a held line is answered without one). */
async function unhinted(page, tile) {
  for (let i = 0; i < 2; i += 1) {
    const r = await call(page, 'play', { kind: 'slide', mv: { tile } });
    check(r.ok, `play ${tile}: ${JSON.stringify(r.error)}`);
  }
}

/** A hint (a search: see `unhinted`) through the page's back end; fails the run with its error. */
async function hint(page, what) {
  await unhinted(page, CODES.hard.tile);
  const r = await call(page, 'hint', { kind: 'slide' });
  check(r.ok && r.ok.mv && typeof r.ok.mv.tile === 'number', `${what}: a hint ${JSON.stringify(r.error || r.ok)}`);
  return r.ok;
}

/** A search stopped by `cancel` while it runs: the search worker's spare takes over. */
async function cancelledSearch(page) {
  await unhinted(page, CODES.hard.tile);
  const r = await page.evaluate(() =>
    import('./js/ipc.js').then((m) => {
      const h = m.call('hint', { kind: 'slide' }).then(
        () => 'answered',
        (e) => e.code,
      );
      m.call('cancel', { kind: 'slide' });
      return h;
    }),
  );
  check(r === 'cancelled', `a cancelled hint answered ${r}`);
}

/** One tap on `tile` (next to the blank) moves it: the board shows one move more than it did
 *  (the moves made through `call` are not drawn: the count it shows may be behind). */
async function move(page, tile, what) {
  const before = await board(page);
  await tap(page, `[data-tile='${tile}']`);
  await until(page, `${what}: the move`, (n) => Number(document.querySelector('[data-game]').dataset.moves) > n, before.moves);
  const after = await board(page);
  check(after.state !== before.state, `${what}: the tap left the board as it was`);
}

/** Waits until the service worker of the build whose cache is `cache` is in one of `states`
 *  (the browser's workers are asked directly: the page's registration cannot tell builds apart). */
async function serviceWorker(ctx, cache, states, what) {
  const seen = async () => {
    const out = [];
    for (const w of ctx.serviceWorkers()) {
      const s = await w.evaluate(() => [CACHE, self.serviceWorker ? self.serviceWorker.state : 'unknown']).catch(() => null);
      if (s) out.push(s);
    }
    return out;
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    const now = await seen();
    if (now.some(([c, st]) => c === cache && states.includes(st))) return;
    check(Date.now() < deadline, `timed out waiting until ${what}: ${JSON.stringify(now)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let failed = false;
try {
  const ctx = await phone(browser);
  const errors = [];
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  const { code, board: start, tile } = CODES.hard;

  // Build A: the friend's 4×4 link; the service worker installed and controlling the page.
  await page.goto(`${origin}/?c=${encodeURIComponent(code)}`, { waitUntil: 'load' });
  await boardShown(page, start);
  await until(page, 'the service worker controls the page', () => !!navigator.serviceWorker.controller, null, 60_000);
  await until(page, "build A's cache", (c) => caches.keys().then((k) => k.includes(c)), a.cache, 60_000);
  await hint(page, 'build A');

  // The deploy: the host now has B only; the browser looks for a new service worker (as it
  // does on a navigation).
  served = B.dist;
  // What the browser's HTTP cache kept of A goes too: from now on only the service worker has A.
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r.update()));
  await serviceWorker(ctx, b.cache, ['installed', 'activating', 'activated'], "build B's service worker installed");

  // 1. The open page goes on. Searches: a hint; a search stopped by `cancel` (its worker is
  // terminated, the spare takes over, and a new spare starts once the next search is over:
  // after the deploy); again, so that the last hint runs on a worker started after the deploy.
  await hint(page, 'after the deploy');
  await cancelledSearch(page);
  await hint(page, 'after the deploy, on the spare');
  await cancelledSearch(page);
  await hint(page, 'after the deploy, on a search worker started after it');
  // A move by touch, then a reload: still build A, and it plays.
  await move(page, tile, 'after the deploy');
  await isBuild(page, a, 'after the deploy');
  await page.reload({ waitUntil: 'load' });
  await boardShown(page, null);
  await isBuild(page, a, 'the reload');
  await move(page, tile, 'after the reload');
  await hint(page, 'after the reload');
  check(!errors.length, `script errors on build A: ${errors.join('; ')}`);
  const appErrors = await page.evaluate(() => window.__huarongErrors || []);
  check(!appErrors.length, `errors on build A: ${appErrors.join('; ')}`);
  await page.close();

  // 2. No page of A is left: B takes over, and B plays.
  await serviceWorker(ctx, b.cache, ['activated'], "build B's service worker took over once no page of A was open");
  const next = await ctx.newPage();
  next.on('pageerror', (e) => errors.push(String(e)));
  await next.goto(`${origin}/?c=${encodeURIComponent(code)}`, { waitUntil: 'load' });
  await boardShown(next, null);
  await isBuild(next, b, 'the next visit');
  await move(next, tile, 'build B');
  await hint(next, 'build B');
  check(!errors.length, `script errors: ${errors.join('; ')}`);
  await ctx.close();
  console.log('deploy: a page of build A kept working after build B was deployed; the next visit was B');
} catch (e) {
  failed = true;
  console.error(e instanceof CheckFailed ? `FAILED: ${e.message}` : e);
} finally {
  await browser.close();
  server.close();
  fs.rmSync(B.tmp, { recursive: true, force: true });
}
process.exit(failed ? EXIT_FAIL : 0);
