// The web page only: what happens once the first board is up, so that none of it competes with
// the first load:
// 1. when the page is next idle, the board's worker is told (`{type: 'idle'}`): it fetches and
//    compiles the second wasm (the searches, the generators and the share card), so that the
//    first hint or share does not wait for it;
// 2. then the service worker (sw.js: the site cached for offline play) is registered. It comes
//    after the second wasm so that its precache finds the big files in the HTTP cache (their
//    names carry their hash: cached for good) instead of downloading them a second time.

const WARM_WAIT_MS = 30_000;

function register() {
  if (!('serviceWorker' in navigator) || window.__TAURI__) return;
  navigator.serviceWorker
    .register(new URL('sw.js', document.baseURI), { scope: new URL('./', document.baseURI).pathname, updateViaCache: 'none' })
    .catch(() => {});
}

function idle(fn) {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout: 2000 });
  else setTimeout(fn, 200);
}

function boardUp() {
  const booted = window.__huarongCoreWorker;
  if (!booted || !booted.worker) {
    register();
    return;
  }
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    register();
  };
  booted.worker.addEventListener('message', (e) => {
    if (e.data && e.data.type === 'warm') once();
  });
  setTimeout(once, WARM_WAIT_MS);
  idle(() => booted.worker.postMessage({ type: 'idle' }));
}

function whenReady() {
  if (document.body && document.body.dataset.ready === '1') {
    boardUp();
    return;
  }
  const seen = new MutationObserver(() => {
    if (document.body.dataset.ready === '1') {
      seen.disconnect();
      boardUp();
    }
  });
  seen.observe(document.body, { attributes: true, attributeFilter: ['data-ready'] });
}

if (!window.__TAURI__) {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', whenReady);
  else whenReady();
}
