// The web page only: start the board's worker and hand it the board's wasm, so that the core
// loads beside the UI instead of after it. index.html runs this inline (web/build.mjs; the CSP
// names its hash) while the page is parsed, before its first paint and before the bundle's
// modules; the bundle (web/src/entry.js) runs it too, for a page where that failed: whichever
// runs first starts the worker (`window.__huarongCoreWorker`), the other does nothing.
// - The worker is started at once (its script downloads while the page paints).
// - The stylesheet of all but the first paint is added at once (see addStyles).
// - The first wasm is fetched right after the first paint (the shell: index.html's inline CSS,
//   no request), and the board's once the first's bytes are all here: neither competes with
//   what the first paint needs (Lighthouse's simulation would count a wasm fetched before it
//   into the largest paint), and the first starts long before the UI's script has arrived. Its response goes to the worker as it
//   arrives: the body stream is transferred, and the worker compiles it while it streams in
//   (nothing of it on the page's main thread); where a stream cannot be transferred, the bytes
//   are, once they are all here.
// ipc.js takes the worker (and any message it posted meanwhile) from `window.__huarongCoreWorker`.
//
// The file names carry the build (web/build.mjs fills `__HUARONG_WEB__` in): a page keeps
// using the worker and wasm of the build it was opened on, whatever is deployed later.

/* global __HUARONG_WEB__ */
const BUILD = __HUARONG_WEB__;

/** Whether this browser has saved games (ipc.js marks it once the core has started): then the
 *  first core would not be used (it plays only for a player with nothing saved), so its wasm is
 *  not fetched. */
function saved() {
  try {
    return window.localStorage.getItem('huarong-saved') === '1';
  } catch (_) {
    return false;
  }
}

/** Whether the page was opened from a shared link (`?c=<code>`, ui/js/main.js): the first core
 *  plays only a shared board; any other first screen needs the core anyway. Read while the page
 *  is parsed: main.js takes the link out of the address once it runs. */
const LINKED = new URLSearchParams(location.search).has('c');

/** A wasm to `worker` as `type`: `{type, stream}` once its response has begun, or
 *  `{type, bytes}` once it is all here. */
async function send(worker, url, type) {
  const res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  if (res.body) {
    try {
      worker.postMessage({ type, stream: res.body }, [res.body]);
      return;
    } catch (_) {
      /* streams are not transferable here: the bytes below */
    }
  }
  const bytes = await res.arrayBuffer();
  worker.postMessage({ type, bytes }, [bytes]);
}

/** The first wasm (crates/web-first: a shared board playable before the core arrives, see
 *  core-worker.js) whole, then the board's: on a slow network the first's bytes are all the
 *  first board waits for, so nothing shares the line with them. */
async function sendBoth(worker) {
  const fail = (type) => (e) => worker.postMessage({ type, error: String((e && e.message) || e) });
  const url = (file) => new URL(file, document.baseURI).href;
  if (BUILD.first && LINKED && !saved()) {
    await fetch(url(BUILD.first), { credentials: 'same-origin' })
      .then((res) => {
        if (!res.ok) throw new Error(`${BUILD.first}: HTTP ${res.status}`);
        return res.arrayBuffer();
      })
      .then((bytes) => worker.postMessage({ type: 'first', bytes }, [bytes]))
      .catch(fail('first'));
  }
  await send(worker, url(BUILD.board), 'board').catch(fail('board'));
}

/**
 * The stylesheet of everything but the first paint (index.html's <head> has the first paint's):
 * added here, not by the page's HTML, so that it never holds the first paint up; it loads from
 * the start, and main.js waits for it before the first screen (`window.__huarongStyles`: resolves to null, or the error). At the boards' marker,
 * where index.html's order puts it; `data-bundle`: boards/index.js adds no board stylesheet.
 */
function addStyles() {
  if (window.__huarongStyles || !BUILD.styles) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL(BUILD.styles, document.baseURI).href;
  link.dataset.bundle = '';
  window.__huarongStyles = new Promise((resolve) => {
    link.addEventListener('load', () => resolve(null), { once: true });
    link.addEventListener('error', () => resolve(new Error(`stylesheet ${BUILD.styles} did not load`)), { once: true });
  });
  const marker = document.querySelector('meta[name="board-styles"]');
  if (marker) marker.after(link);
  else document.head.append(link);
}

if (!window.__TAURI__) addStyles();

/** `fn` once the next frame has been painted (or after 100 ms: a hidden page paints none). */
function afterFirstPaint(fn) {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    fn();
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 100);
}

/** Whether the page is inside a frame of another page: then it starts no core (a frame could
 *  otherwise take the Web Lock of the player's own tab, or be played under another page's
 *  clicks). The host's `frame-ancestors 'none'` header (docs/web-shell.md) keeps it from being
 *  framed at all; a `<meta>` CSP cannot say that. */
function framed() {
  try {
    return window.top !== window.self;
  } catch (_) {
    return true;
  }
}

if (framed()) window.__huarongFramed = true;

if (!window.__TAURI__ && !window.__huarongFramed && typeof Worker === 'function' && typeof WebAssembly === 'object' && !window.__huarongCoreWorker) {
  try {
    const worker = new Worker(new URL(BUILD.worker, document.baseURI), { type: 'module' });
    const early = [];
    worker.onmessage = (e) => early.push(e);
    worker.onerror = (e) => early.push(e);
    // The browser suites set `__huarongTestClock` before the page runs (tests/web/common.mjs):
    // then the core's clocks can be moved forward (`test_clock`). Never set for a player.
    if (window.__huarongTestClock === true) worker.postMessage({ type: 'test-clock' });
    window.__huarongCoreWorker = { worker, early, at: performance.now() };
    afterFirstPaint(() => sendBoth(worker));
  } catch (_) {
    /* no worker: ipc.js says the page has no back end */
  }
}
