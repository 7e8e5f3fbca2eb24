// The service worker of the Huarong web page (web/build.mjs fills in the version and the list).
// Every file of the site is precached at install under a cache named by the hash of the site,
// so the page plays offline after the first visit; the 4×4 pattern tables (pdb4x4.bin, 2.9 MB)
// are cached the first time a search fetches them. A new build has a new name: the old cache
// is deleted when the new worker activates.

const VERSION = '__VERSION__';
const CACHE = `huarong-${VERSION}`;
const PRECACHE = __PRECACHE__;
const LAZY = ['pdb4x4.bin'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((c) => c.addAll(PRECACHE.map((p) => new Request(p, { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('huarong-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  const scope = new URL(self.registration.scope);
  if (!url.pathname.startsWith(scope.pathname)) return;
  const rel = url.pathname.slice(scope.pathname.length);
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      // A page opened from a link (`?c=<code>`) is the same page: match without the query.
      const hit = await cache.match(req, { ignoreSearch: req.mode === 'navigate' || rel === '' });
      if (hit) return hit;
      const res = await fetch(req);
      if (res.ok && LAZY.includes(rel)) cache.put(req, res.clone()).catch(() => {});
      return res;
    })(),
  );
});
