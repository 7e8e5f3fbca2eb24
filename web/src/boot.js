// The web page only (web/build.mjs puts it first in dist/index.html, `async`): start the board's
// worker before the UI's modules are even fetched, so the wasm core downloads and compiles while
// they load. ipc.js takes the worker (and any message it posted meanwhile) from here.

// `async` means no order with main.js: when ipc.js ran first it has started the worker
// itself (and says so in the same global), and a second one here would take the storage over
// from it (one core writes per site) and leave the page without a back end.
if (!window.__TAURI__ && typeof Worker === 'function' && !window.__huarongCoreWorker) {
  try {
    const worker = new Worker(new URL('../worker/core-worker.js', import.meta.url), { type: 'module' });
    const early = [];
    worker.onmessage = (e) => early.push(e);
    worker.onerror = (e) => early.push(e);
    window.__huarongCoreWorker = { worker, early };
  } catch (_) {
    /* ipc.js starts it, or says why it cannot */
  }
}
