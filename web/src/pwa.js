// The web page only: registers the service worker (sw.js: the app shell cached for offline
// play), once the first board is up so that it never competes with the first load.

function register() {
  if (!('serviceWorker' in navigator) || window.__TAURI__) return;
  navigator.serviceWorker.register(new URL('../sw.js', import.meta.url), { scope: new URL('../', import.meta.url).pathname }).catch(() => {});
}

function whenReady() {
  if (document.body && document.body.dataset.ready === '1') {
    register();
    return;
  }
  const seen = new MutationObserver(() => {
    if (document.body.dataset.ready === '1') {
      seen.disconnect();
      register();
    }
  });
  seen.observe(document.body, { attributes: true, attributeFilter: ['data-ready'] });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', whenReady);
else whenReady();
