// The host functions the wasm core imports (crates/web/src/lib.rs): clocks, the time zone and
// random seeds. Imported by both workers before the wasm module is instantiated.

/** A time the clocks are held at (`{mono, wall}`), or null: the board's worker holds them while
 *  its first core answers a command, and at that command's time while the core replays it
 *  (core-worker.js), so that both read the same clock. */
let held = null;
export function holdClock(at) {
  held = at;
}
/** The test clock (a page opened by the browser suites: boot.js): milliseconds added to both
 *  clocks, which only grow (`huarongAdvanceClock`, the core's `test_clock` command). Off, and
 *  0, for a player. It lives here, not in the core, so that it outlives a core's move onto
 *  the full build. */
let testClock = false;
let offset = 0;
export function useTestClock() {
  testClock = true;
}
/** Both clocks now, as `holdClock` takes them. */
export function clockNow() {
  return { mono: performance.now() + offset, wall: Date.now() + offset };
}
globalThis.huarongNow = () => (held ? held.mono : performance.now() + offset);
globalThis.huarongWallMs = () => (held ? held.wall : Date.now() + offset);
globalThis.huarongAdvanceClock = (ms) => {
  if (!testClock || !(ms >= 0)) return false;
  offset += ms;
  return true;
};
globalThis.huarongUtcOffset = (ms) => -new Date(ms).getTimezoneOffset();
globalThis.huarongRandom = () => {
  const c = globalThis.crypto;
  if (c && c.getRandomValues) return c.getRandomValues(new Uint32Array(1))[0] / 4294967296;
  return Math.random();
};

/** The wasm module, compiled once (streaming where the server sends application/wasm). */
export async function compileCore(url) {
  if (WebAssembly.compileStreaming) {
    try {
      return await WebAssembly.compileStreaming(fetch(url));
    } catch (_) {
      /* a server with another MIME type: compile from the bytes below */
    }
  }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return WebAssembly.compile(await res.arrayBuffer());
}
