// A `preview` of a game ID whose generator is costly runs in the search worker, never on the
// board's worker (web/src/core-worker.js, SEARCHES; crates/app/src/offload.rs, Op::Preview).
// Run by tests/tests/web_preview_offload.rs on a built web/dist, Debian's chromium, loopback only.
//
// With a 3×3 number slide on the board, the page previews `klotski:1+:8x8:g12s20#2` as the code
// screen does (`call('preview', {id})` through ipc.js). While it runs (seconds):
// 1. the board answers `snapshot` within 100 ms, each time (timed in the page), and at least
//    MIN_SNAPSHOTS of them are answered before the preview's reply;
// 2. a search worker is busy meanwhile (it does not answer an evaluate), and once the preview
//    answered it is gone (let go with its memory);
// 3. the board worker's wasm memory does not grow, and the page's memory (RSS of chromium's
//    renderer processes, read from /proc) rises while the generator runs (it runs in this page)
//    and is back within PAGE_GROWTH of its value before once the preview answered.
// The board worker's wasm memory is seen by serving its script with a few lines in front that
// keep each instance's `exports.memory` (`self.__wasmMemories`). A search worker is started by
// the board worker, whose requests the route does not see: it runs as built.
//
// Exit codes: 0 passed, 1 a check failed, 3 chromium could not start, 4 playwright-core is missing.

import fs from 'node:fs';
import { suite, phone, until, call, boardShown, check } from './common.mjs';

const ID = 'klotski:1+:8x8:g12s20#2';
const START = '3x3:4,1,3,7,2,5,8,0,6';
/** The board answers within this while the preview runs. */
const ANSWER_MS = 100;
/** Snapshots answered before the preview's reply: less and the preview did not really run. */
const MIN_SNAPSHOTS = 10;
/** The board worker's wasm memory may grow by this much at most. */
const BOARD_GROWTH = 2 * 1048576;
/** The generator ran in this page: the renderers' RSS rose at least this much meanwhile. */
const RUN_GROWTH = 16 * 1048576;
/** The renderers' RSS once the preview answered, over its value before, at most. */
const PAGE_GROWTH = 24 * 1048576;
const MIB = (b) => (b / 1048576).toFixed(1);

/** Put in front of the board worker's script: every wasm instance's memory is kept in
 *  `self.__wasmMemories`. */
const PROBE = `(() => {
  const mems = [];
  Object.defineProperty(self, '__wasmMemories', { value: mems });
  const keep = (i) => { if (i && i.exports && i.exports.memory instanceof WebAssembly.Memory) mems.push(i.exports.memory); return i; };
  const inst = WebAssembly.instantiate;
  WebAssembly.instantiate = function (...a) { return inst.apply(this, a).then((r) => (keep(r instanceof WebAssembly.Instance ? r : r.instance), r)); };
  const streaming = WebAssembly.instantiateStreaming;
  if (streaming) WebAssembly.instantiateStreaming = function (...a) { return streaming.apply(this, a).then((r) => (keep(r.instance), r)); };
  WebAssembly.Instance = new Proxy(WebAssembly.Instance, { construct: (t, a, n) => keep(Reflect.construct(t, a, n)) });
})();
`;

/** Resident memory of the browser's renderer processes (bytes), from /proc. */
async function rendererRss(cdp) {
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  let sum = 0;
  for (const p of processInfo) {
    if (p.type !== 'renderer') continue;
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p.id}/status`, 'utf8'));
      if (m) sum += Number(m[1]) * 1024;
    } catch (_) {
      /* a renderer that just exited */
    }
  }
  return sum;
}

/** The board worker's wasm memory (bytes, all its instances). */
async function boardWasm(page) {
  const w = page.workers().filter((x) => x.url().includes('/core-worker-'));
  check(w.length === 1, `one board worker expected, found ${w.length}`);
  const bytes = await w[0].evaluate(() => (self.__wasmMemories || []).reduce((s, m) => s + m.buffer.byteLength, 0));
  check(bytes > 0, 'the board worker has no wasm memory (was its script served with the probe?)');
  return bytes;
}

const searchWorkers = (page) => page.workers().filter((w) => w.url().includes('/search-worker-'));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Whether `worker` answers an evaluate within `ms` (a worker running a job does not). */
const answers = (worker, ms) => Promise.race([worker.evaluate(() => true).catch(() => false), sleep(ms).then(() => false)]);

await suite('preview-offload.mjs', 150, async ({ origin, browser }) => {
  const cdp = await browser.newBrowserCDPSession();
  // No service worker: every script comes from the server (and through the route below).
  const ctx = await phone(browser, { serviceWorkers: 'block' });
  await ctx.route(/\/assets\/core-worker-[^/]*\.js$/, async (route) => {
    const r = await route.fetch();
    await route.fulfill({ response: r, body: PROBE + (await r.text()) });
  });
  const page = await ctx.newPage();
  await page.goto(`${origin}/`);
  await until(page, 'ready', () => document.body.dataset.ready === '1', null, 60_000);
  const code = await call(page, 'encode_code', { id: `slide:${START}` });
  check(code.ok, `encode_code: ${JSON.stringify(code.error)}`);
  await page.goto(`${origin}/?c=${code.ok.code}`);
  await boardShown(page, START, 60_000);

  // A hint first: the search lane is up with its spare, as after any search (the preview's
  // worker is let go, the spare takes over and a new spare is made: as many workers after).
  const hint = await call(page, 'hint', { kind: 'slide' });
  check(hint.ok, `hint: ${JSON.stringify(hint.error)}`);
  const spare = async (what) => {
    const end = Date.now() + 30_000;
    while (searchWorkers(page).length < 2) {
      check(Date.now() < end, `${what}: the search lane has no spare after 30 s`);
      await sleep(50);
    }
  };
  await spare('before');
  const boardBefore = await boardWasm(page);
  const rssBefore = await rendererRss(cdp);
  const workersBefore = searchWorkers(page);

  // Meanwhile, from here: the renderers' peak RSS, and which search worker is busy.
  let sampling = true;
  let rssPeak = rssBefore;
  /** Per search worker: [probes answered, probes not answered within 300 ms]. */
  const probes = new Map();
  const sampler = (async () => {
    while (sampling) {
      rssPeak = Math.max(rssPeak, await rendererRss(cdp));
      await Promise.all(
        searchWorkers(page).map(async (w) => {
          const ok = await answers(w, 300);
          const c = probes.get(w) || [0, 0];
          c[ok ? 0 : 1] += 1;
          probes.set(w, c);
        }),
      );
      await sleep(100);
    }
  })();

  // The preview, and snapshots one after another while it runs (timed in the page).
  const run = await page.evaluate(
    async ([id, gap]) => {
      const { call } = await import('./js/ipc.js');
      const settled = (p) => p.then((ok) => ({ ok }), (e) => ({ error: { code: e.code, message: e.message } }));
      let reply = null;
      const t0 = performance.now();
      const preview = settled(call('preview', { id })).then((r) => {
        reply = r;
        return performance.now();
      });
      const snaps = [];
      while (!reply) {
        const t = performance.now();
        const r = await settled(call('snapshot', { kind: 'slide' }));
        // `answered`: before the preview's reply (a snapshot sent meanwhile is timed either way).
        snaps.push({ at: t - t0, ms: performance.now() - t, answered: !reply, board: r.ok && r.ok.snapshot && r.ok.snapshot.board, error: r.error });
        await new Promise((r2) => setTimeout(r2, gap));
      }
      return { reply, replied: (await preview) - t0, snaps };
    },
    [ID, 20],
  );
  sampling = false;
  await sampler;

  // Every snapshot was sent while the preview ran (the loop stops at its reply).
  const running = run.snaps;
  const sorted = running.map((s) => s.ms).sort((a, b) => a - b);
  const worst = sorted[sorted.length - 1] || 0;
  const p50 = sorted[Math.floor(sorted.length / 2)] || 0;
  console.log(`preview of ${ID}: replied after ${(run.replied / 1000).toFixed(2)} s: ${JSON.stringify(run.reply).slice(0, 200)}`);
  console.log(`snapshot while it ran: ${running.length} sent, median ${p50.toFixed(1)} ms, worst ${worst.toFixed(1)} ms (bound ${ANSWER_MS} ms)`);
  // A view of the layout, or the generator's own bound (`unsupported`): nothing else.
  check(run.reply.ok || (run.reply.error && run.reply.error.code === 'unsupported'), `preview: ${JSON.stringify(run.reply)}`);
  for (const s of running) {
    check(s.board === START, `snapshot at ${s.at.toFixed(0)} ms into the preview failed: ${JSON.stringify(s.error || s.board)}`);
    check(s.ms <= ANSWER_MS, `snapshot sent ${s.at.toFixed(0)} ms into the preview took ${s.ms.toFixed(1)} ms (bound ${ANSWER_MS} ms): the board worker was blocked`);
  }
  const meanwhile = running.filter((s) => s.answered).length;
  check(meanwhile >= MIN_SNAPSHOTS, `only ${meanwhile} snapshots were answered before the preview's reply (${(run.replied / 1000).toFixed(2)} s): it did not run long enough to prove anything`);

  // The worker that ran it (the one busiest while the preview ran: it answered hardly any
  // probe) was there before, and is let go once it answered.
  await spare('after');
  const count = (w) => probes.get(w) || [0, 0];
  const ranOn = workersBefore.reduce((a, b) => (count(b)[1] > count(a)[1] ? b : a));
  const [yes, no] = count(ranOn);
  const gone = workersBefore.filter((w) => !searchWorkers(page).includes(w)).length;
  console.log(`search workers probed while it ran (answered/not): ${[...probes.values()].map(([a, b]) => `${a}/${b}`).join(', ')}; the busy one ${yes}/${no}; ${gone} of ${workersBefore.length} from before let go`);
  check(no >= 3 && no >= 2 * yes, `no search worker was busy while the preview ran (the busiest answered ${yes} probes, missed ${no})`);
  check(!searchWorkers(page).includes(ranOn), 'the search worker that ran the generator was not let go');

  // Memory: the board's did not grow; the page's rose meanwhile and is back.
  const boardAfter = await boardWasm(page);
  console.log(`board worker: wasm ${MIB(boardBefore)} MiB before, ${MIB(boardAfter)} MiB after (+${MIB(boardAfter - boardBefore)}, bound +${MIB(BOARD_GROWTH)})`);
  check(boardAfter - boardBefore <= BOARD_GROWTH, `the board worker's wasm memory grew by ${MIB(boardAfter - boardBefore)} MiB (bound ${MIB(BOARD_GROWTH)} MiB)`);
  const end = Date.now() + 10_000;
  let rssAfter = await rendererRss(cdp);
  while (rssAfter - rssBefore > PAGE_GROWTH && Date.now() < end) {
    await sleep(100);
    rssAfter = await rendererRss(cdp);
  }
  const sign = (b) => `${b >= 0 ? '+' : ''}${MIB(b)}`;
  console.log(`renderer RSS: ${MIB(rssBefore)} MiB before, peak ${MIB(rssPeak)} MiB (${sign(rssPeak - rssBefore)}) while it ran, ${MIB(rssAfter)} MiB after (${sign(rssAfter - rssBefore)}, bound +${MIB(PAGE_GROWTH)})`);
  check(rssPeak - rssBefore >= RUN_GROWTH, `the page's RSS rose only ${MIB(rssPeak - rssBefore)} MiB while the preview ran: the generator did not run in this page`);
  check(rssAfter - rssBefore <= PAGE_GROWTH, `the page's renderer RSS stayed ${MIB(rssAfter - rssBefore)} MiB over its value before the preview (bound ${MIB(PAGE_GROWTH)} MiB)`);
  console.log('preview-offload.mjs: passed');
  await ctx.close();
});
