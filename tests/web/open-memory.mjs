// What opening a hostile generator ID costs the web page's memory, in Node
// with the app core built for wasm (`wasm-bindgen --target nodejs`, HUARONG_WASM_NODE, default
// target/wasm-node):
//
//   node tests/web/open-memory.mjs ['klotski:1+:8x8:g12s20#2']
//
// 1. As the page does it now: the board's core only begins the command (`Core.offloadBegin`:
//    a job, no generator), the generator runs in a worker of its own (a worker thread here, with
//    its own wasm instance, as the page's search worker), which is let go once it answered; the
//    board's core then opens the game on the board it made (`Core.offloadFinish`).
// 2. As the board's core did it before: `open_game` dispatched on it, the generator in its own
//    wasm memory (which never shrinks).
// Prints the time, the answer, and the process's resident memory: before, its peak while the
// work ran (sampled every 10 ms) and after, for each.

import { createRequire } from 'node:module';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = process.env.HUARONG_WASM_NODE || path.join(here, '..', '..', 'target', 'wasm-node');

function host() {
  globalThis.huarongNow = () => performance.now();
  globalThis.huarongWallMs = () => Date.now();
  globalThis.huarongUtcOffset = () => 0;
  globalThis.huarongRandom = () => Math.random();
  return createRequire(import.meta.url)(path.join(dir, 'huarong_web.js'));
}

if (!isMainThread) {
  // The search worker's side: one job (and the process's RSS just before and after it, the
  // worker's start-up not counted).
  const web = host();
  const before = process.memoryUsage().rss;
  const result = web.runJob(workerData.job);
  parentPort.postMessage({ result, before, after: process.memoryUsage().rss });
} else {
  const id = process.argv[2] || 'klotski:1+:8x8:g12s20#2';
  const web = host();
  const mb = (b) => (b / 1048576).toFixed(1);
  const rss = () => process.memoryUsage().rss;

  /** Run `work` (a promise maker), sampling the RSS: [result, before, peak, after, seconds]. */
  async function measured(work) {
    global.gc?.();
    const before = rss();
    let peak = before;
    const timer = setInterval(() => {
      peak = Math.max(peak, rss());
    }, 10);
    const t = performance.now();
    const result = await work();
    const s = (performance.now() - t) / 1000;
    clearInterval(timer);
    await new Promise((r) => setTimeout(r, 200));
    const after = rss();
    return [result, before, Math.max(peak, after), after, s];
  }

  const line = (what, [result, before, peak, after, s]) =>
    console.log(`${what}: ${String(result).slice(0, 160)}\n  ${s.toFixed(2)} s; RSS ${mb(before)} MiB before, peak ${mb(peak)} MiB (+${mb(peak - before)}), ${mb(after)} MiB after (+${mb(after - before)})`);

  const core = new web.Core('{}');
  core.dispatch('get_progress', '{}');
  line(
    '1. the board begins it, a worker generates, the board opens it',
    await measured(async () => {
      const begun = JSON.parse(core.offloadBegin('open_game', JSON.stringify({ id })));
      if (!begun.job) return `no job: ${JSON.stringify(begun).slice(0, 120)}`;
      const text = JSON.stringify(begun.job);
      const m = await new Promise((resolve, reject) => {
        const w = new Worker(fileURLToPath(import.meta.url), { workerData: { job: text } });
        w.once('message', (msg) => {
          w.terminate().then(() => resolve(msg));
        });
        w.once('error', reject);
      });
      console.log(`  (the worker's job alone: RSS +${mb(m.after - m.before)} MiB from its start to its answer)`);
      return core.offloadFinish(text, m.result);
    }),
  );
  line('2. the board dispatches open_game itself (before)', await measured(async () => core.dispatch('open_game', JSON.stringify({ id }))));
}
