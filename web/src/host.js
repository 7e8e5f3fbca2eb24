// The host functions the wasm core imports (crates/web/src/lib.rs): clocks, the time zone and
// random seeds. Imported by both workers before the wasm module is instantiated.

globalThis.huarongNow = () => performance.now();
globalThis.huarongWallMs = () => Date.now();
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
