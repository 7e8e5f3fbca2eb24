// The service worker of the Huarong web page (web/build.mjs fills in the version and the list).
// Every file of the site is precached at install under a cache named by the build, so the page
// plays offline after the first visit; the 4×4 pattern tables (assets/pdb4x4-<hash>.bin,
// 2.9 MB) are cached the first time a search fetches them.
//
// A new build (a deploy) and a page that is open: the page keeps the
// workers and wasm of the build it was opened with (their names carry their hash), and those
// must still be served after the deploy, whose host no longer has them. So a new service
// worker does not take over open pages: it installs and waits (no skipWaiting) while a page of
// the old one is open, and the old one goes on serving its own cache to it (a reload too stays
// on the build the page has). Once no page of the old build is left, the new one activates,
// deletes the old caches (nobody can use them any more) and serves the next visit.
// Files under assets/ are matched in every cache of this site: a hashed name is one content.
// A file named by the SHA-256 of its bytes (`<stem>-<12 hex>.<ext>`, web/build.mjs `hashed`) is
// cached only if its bytes have that hash: a captive portal's page or a cut download answered
// with a 200 under `pdb4x4-<hash>.bin` is never kept (nor served: the page gets a 502).

const VERSION = '__VERSION__';
const CACHE = `huarong-${VERSION}`;
const PRECACHE = __PRECACHE__;
/** Cached on first use, not at install. */
const LAZY = /^assets\/pdb4x4-[0-9a-f]+\.bin$/;
/** Names that carry their content's hash: the HTTP cache keeps them for good. */
const HASHED = /^assets\//;
/** A name carrying the first 12 hex digits of the SHA-256 of its bytes. */
const SHA_NAMED = /-([0-9a-f]{12})\.[0-9a-z]+$/;

/** Whether `res`'s bytes fit the hash in `rel`'s name (true for a name without one). */
async function fits(rel, res) {
  const m = SHA_NAMED.exec(rel);
  if (!m) return true;
  const bytes = await res.clone().arrayBuffer();
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  const hex = Array.from(digest.subarray(0, 6), (b) => b.toString(16).padStart(2, '0')).join('');
  return hex === m[1];
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const c = await caches.open(CACHE);
      try {
        await Promise.all(
          PRECACHE.map(async (p) => {
            // Hashed files may come from the HTTP cache (the page fetched them already); the
            // others are checked with the server.
            const res = await fetch(new Request(p, { cache: HASHED.test(p) ? 'default' : 'no-cache' }));
            if (!res.ok) throw new Error(`${p}: HTTP ${res.status}`);
            if (!(await fits(p, res))) throw new Error(`${p}: its bytes are not the ones its name says`);
            await c.put(p, res);
          }),
        );
      } catch (e) {
        // Nothing half-checked is kept: the next visit installs again.
        await caches.delete(CACHE);
        throw e;
      }
    })(),
  );
});

self.addEventListener('activate', (event) => {
  // No page of an older build is open (else this one would still be waiting): their caches go.
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
      const hit =
        (await cache.match(req, { ignoreSearch: req.mode === 'navigate' || rel === '' })) ||
        (HASHED.test(rel) ? await caches.match(req) : undefined);
      if (hit) return hit;
      const res = await fetch(req);
      if (res.ok && SHA_NAMED.test(rel) && !(await fits(rel, res))) {
        return new Response(null, { status: 502, statusText: 'not the bytes its name says' });
      }
      if (res.ok && LAZY.test(rel)) await cache.put(req, res.clone()).catch(() => {});
      return res;
    })(),
  );
});
