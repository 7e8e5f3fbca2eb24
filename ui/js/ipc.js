// The only way the UI talks to the app (see ARCHITECTURE.md, "IPC contract"). Two back ends,
// chosen once at start, with the same call(), replies, error codes and DOM events:
// - the Tauri app: Tauri's invoke (window.__TAURI__);
// - a plain browser (the web build, web/): the same app core compiled to wasm, in a Web Worker
//   (web/src/core-worker.js, started before this module by the web build's boot,
//   web/src/boot.js), its files in IndexedDB, its searches in a second worker.
// Nothing here decides rules; every answer comes from Rust.

const tauri = window.__TAURI__;

export class AppError extends Error {
  constructor(code, message) {
    super(message || code);
    this.code = code || 'internal';
  }
}

function normalise(err) {
  if (err instanceof AppError) return err;
  if (err && typeof err === 'object' && 'code' in err) return new AppError(String(err.code), String(err.message || ''));
  return new AppError('internal', typeof err === 'string' ? err : String((err && err.message) || err));
}

/** Performance figures the E2E suite reads (`window.__huarongPerf`). */
export const perf = {
  invokes: [],
  moves: [],
  /** [sound, ms] per audio player created (the first wakes the media stack up). */
  audio: [],
  note(cmd, ms) {
    this.invokes.push([cmd, ms]);
    if (this.invokes.length > 2000) this.invokes.splice(0, 1000);
  },
};
window.__huarongPerf = perf;

function tauriBackend() {
  if (!(tauri && tauri.core && typeof tauri.core.invoke === 'function')) return null;
  return { name: 'tauri', invoke: (cmd, args) => tauri.core.invoke(cmd, args) };
}

/** Vibration patterns (ms) of the core's haptic kinds, where the browser can vibrate. */
const VIBRATE = { tap: 8, move: 12, blocked: [20, 40, 20], merge: 18, win: [30, 60, 60], lose: [80], undo: 8 };

function vibrate(kind) {
  if (typeof navigator.vibrate !== 'function') return;
  try {
    navigator.vibrate(VIBRATE[kind] || 10);
  } catch (_) {
    /* a browser that refuses (no user gesture yet): nothing to feel */
  }
}

/**
 * The card PNG the core made for `share` or `share_card`: the system share sheet with the file where the
 * browser can share files, else a download of the PNG, else (no way to save a file) the link
 * copied. Fills in the reply's `shared` / `saved` as the phone apps do.
 */
async function shareOnPage(reply, share, args) {
  const out = { ...(reply || {}) };
  const file = typeof File === 'function' ? new File([share.png], share.name, { type: 'image/png' }) : null;
  // `share` answers the line of text that goes with the card (`share_card` has none).
  const data = reply && typeof reply.text === 'string' ? { files: [file], text: reply.text } : { files: [file] };
  if (file && navigator.canShare && navigator.share && navigator.canShare(data)) {
    try {
      await navigator.share(data);
      out.shared = true;
      return out;
    } catch (e) {
      if (e && e.name === 'AbortError') {
        out.shared = false;
        return out;
      }
      /* not allowed here (no user gesture left): fall back to a download */
    }
  }
  try {
    const url = URL.createObjectURL(new Blob([share.png], { type: 'image/png' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = share.name;
    a.hidden = true;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    out.saved = share.name;
    return out;
  } catch (_) {
    const code = args && args.card && args.card.code;
    const link = reply && reply.link ? reply.link : code ? new URL(`?c=${encodeURIComponent(code)}`, location.href).href : null;
    if (link && navigator.clipboard) await navigator.clipboard.writeText(link).catch(() => {});
    out.shared = false;
    return out;
  }
}

function webBackend() {
  if (typeof Worker !== 'function' || typeof WebAssembly !== 'object' || typeof indexedDB !== 'object') return null;
  // The web build's boot (web/src/boot.js, the first module of its bundle) started the worker
  // and handed it the board's wasm; messages it posted meanwhile are replayed below. Without
  // it (ui/ served as files, no web build), there is no web back end.
  const booted = window.__huarongCoreWorker;
  const worker = booted && booted.worker;
  if (!worker) return null;
  const waiting = new Map();
  let next = 1;
  let fatal = null;
  worker.onmessage = (e) => {
    const m = e.data || {};
    if (m.type === 'reply') {
      const w = waiting.get(m.id);
      if (!w) return;
      waiting.delete(m.id);
      if (m.error) w.reject(m.error);
      else if (m.share) shareOnPage(m.ok, m.share, w.args).then(w.resolve, w.reject);
      else w.resolve(m.ok);
    } else if (m.type === 'event') {
      // As the Tauri shell does (src-tauri/src/lib.rs, PageEvents).
      window.dispatchEvent(m.detail == null ? new Event(m.name) : new CustomEvent(m.name, { detail: m.detail }));
    } else if (m.type === 'started') {
      // The core is up: its start-up timings and the first core's handover (measure.mjs, tests).
      // From now on this browser keeps games: the next visit's boot skips the first core's wasm
      // (web/src/boot.js `saved`).
      perf.worker = m;
      perf.workerAt = performance.now();
      try {
        window.localStorage.setItem('huarong-saved', '1');
      } catch (_) {
        /* no storage for the mark: the next visit fetches the first wasm as well */
      }
    } else if (m.type === 'haptic') {
      vibrate(m.kind);
    } else if (m.type === 'fatal') {
      fatal = { code: 'no_backend', message: `the app core could not start: ${m.message}` };
      for (const w of waiting.values()) w.reject(fatal);
      waiting.clear();
    }
  };
  worker.onerror = (e) => {
    fatal = { code: 'no_backend', message: `the app core's worker failed: ${e.message || 'unknown error'}` };
    for (const w of waiting.values()) w.reject(fatal);
    waiting.clear();
  };
  if (booted) {
    for (const e of booted.early) (e.type === 'error' ? worker.onerror : worker.onmessage)(e);
    booted.early.length = 0;
  }
  // Leaving the page (a link in the same tab, a reload): the core lets its storage and lock go,
  // so the next page's core does not wait on a page the browser keeps frozen in its
  // back-forward cache; such a page, shown again, starts afresh.
  window.addEventListener('pagehide', () => worker.postMessage({ type: 'leave' }));
  window.addEventListener('pageshow', (e) => {
    if (e.persisted) location.reload();
  });
  // Ask the browser to keep this site's storage (the games and records) under pressure.
  if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
  return {
    name: 'web',
    invoke(cmd, args) {
      if (fatal) return Promise.reject(fatal);
      const id = next++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject, args });
        worker.postMessage({ id, cmd, args: args || {} });
      });
    },
  };
}

const backend = tauriBackend() || webBackend();

/** Which back end answers: 'tauri', 'web' (the wasm core in a worker) or null. */
export function backendName() {
  return backend ? backend.name : null;
}

/** Whether this is the web page (no app installed): the page offers "Get the app". */
export function isWeb() {
  return backendName() === 'web';
}

export function available() {
  return !!backend;
}

export async function call(cmd, args = {}) {
  if (!backend) throw new AppError('no_backend', 'The Tauri back end is not available');
  const t0 = performance.now();
  try {
    return await backend.invoke(cmd, args);
  } catch (e) {
    throw normalise(e);
  } finally {
    perf.note(cmd, performance.now() - t0);
  }
}

/** A field of a reply (every command answers in snake_case); `undefined` when `obj` is absent. */
export function field(obj, snake) {
  return obj ? obj[snake] : undefined;
}
