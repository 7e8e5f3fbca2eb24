// The service worker (web/src/sw.js) keeps only what its name says: a file named by the SHA-256
// of its bytes (`pdb4x4-<hash>.bin`, the wasm) is cached only if its bytes have that hash. The
// worker runs here in a VM context with a cache store, fetch and the worker's events stood in
// for; no build is needed. Run: node --test tests/web/sw-cache.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SOURCE = fs.readFileSync(path.join(ROOT, 'web', 'src', 'sw.js'), 'utf8');
const BASE = 'https://huarong.test/';

const hashOf = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 12);
const TABLES = crypto.randomBytes(4096);
const PDB = `assets/pdb4x4-${hashOf(TABLES)}.bin`;
const WASM_BYTES = crypto.randomBytes(2048);
const WASM = `assets/board-${hashOf(WASM_BYTES)}.wasm`;
const PORTAL = '<!doctype html><title>Sign in to the Wi-Fi</title>';

/** A cache of the Cache API: URL → Response. */
class FakeCache {
  constructor() {
    this.store = new Map();
  }
  key(req) {
    return new URL(typeof req === 'string' ? req : req.url, BASE).href;
  }
  async match(req, opts = {}) {
    let k = this.key(req);
    if (opts.ignoreSearch) k = k.split('?')[0];
    const hit = this.store.get(k);
    return hit ? hit.clone() : undefined;
  }
  async put(req, res) {
    this.store.set(this.key(req), new Response(await res.arrayBuffer(), { status: res.status }));
  }
  async addAll(reqs) {
    const got = await Promise.all(reqs.map(async (r) => [r, await this.world.fetch(r)]));
    for (const [, res] of got) if (!res.ok) throw new TypeError('a request failed');
    for (const [r, res] of got) await this.put(r, res);
  }
}

/** The service worker in a context of its own; `serve(url)` answers its network fetches. */
function worker(precache, serve) {
  const listeners = {};
  const caches = new Map();
  const world = {
    fetch: async (req) => serve(new URL(typeof req === 'string' ? req : req.url, BASE)),
  };
  const cacheStorage = {
    open: async (name) => {
      if (!caches.has(name)) {
        const c = new FakeCache();
        c.world = world;
        caches.set(name, c);
      }
      return caches.get(name);
    },
    delete: async (name) => caches.delete(name),
    keys: async () => [...caches.keys()],
    match: async (req) => {
      for (const c of caches.values()) {
        const hit = await c.match(req);
        if (hit) return hit;
      }
      return undefined;
    },
  };
  // The worker's relative requests resolve against its own address.
  const WorkerRequest = class extends Request {
    constructor(input, init = {}) {
      const { cache: _mode, ...rest } = init;
      super(typeof input === 'string' ? new URL(input, BASE) : input, rest);
    }
  };
  const context = vm.createContext({
    self: {
      addEventListener: (type, fn) => {
        listeners[type] = fn;
      },
      location: new URL('sw.js', BASE),
      registration: { scope: BASE },
      clients: { claim: async () => {} },
    },
    caches: cacheStorage,
    fetch: world.fetch,
    crypto: globalThis.crypto,
    Request: WorkerRequest,
    Response,
    URL,
    Uint8Array,
    Array,
    Promise,
    Error,
  });
  const code = SOURCE.replace('__VERSION__', 'test').replace('__PRECACHE__', JSON.stringify(precache));
  vm.runInContext(code, context);
  return {
    caches,
    async install() {
      let done;
      listeners.install({ waitUntil: (p) => (done = p) });
      return done;
    },
    async get(rel) {
      let answer;
      listeners.fetch({
        request: new Request(new URL(rel, BASE), { method: 'GET' }),
        respondWith: (p) => (answer = p),
      });
      return answer;
    },
    cached(rel) {
      return [...caches.values()].some((c) => c.store.has(new URL(rel, BASE).href));
    },
  };
}

test('a captive portal page under the 4x4 tables name is not cached', async () => {
  let portal = true;
  const sw = worker(['./'], (url) => {
    if (url.pathname === `/${PDB}`) {
      return portal ? new Response(PORTAL, { status: 200, headers: { 'content-type': 'text/html' } }) : new Response(TABLES);
    }
    return new Response('page');
  });
  await sw.install();
  const res = await sw.get(PDB);
  assert.notEqual(res.status, 200, 'the poisoned response was served as the tables');
  assert.equal(sw.cached(PDB), false, 'the poisoned response was cached');
  // Out of the portal: the real tables are cached and then served from the cache.
  portal = false;
  const good = await sw.get(PDB);
  assert.equal(good.status, 200);
  assert.deepEqual(Buffer.from(await good.arrayBuffer()), TABLES);
  assert.equal(sw.cached(PDB), true, 'the right tables were not cached');
});

test('a cut download of the tables is not cached either', async () => {
  const sw = worker(['./'], (url) => (url.pathname === `/${PDB}` ? new Response(TABLES.subarray(0, 1000)) : new Response('page')));
  await sw.install();
  const res = await sw.get(PDB);
  assert.notEqual(res.status, 200);
  assert.equal(sw.cached(PDB), false);
});

test('an install whose hashed file comes back poisoned keeps nothing', async () => {
  const sw = worker(['./', WASM], (url) => (url.pathname === `/${WASM}` ? new Response(PORTAL) : new Response('page')));
  await assert.rejects(sw.install());
  assert.equal(sw.cached(WASM), false, 'the poisoned wasm was precached');
  // With the right bytes the install keeps both.
  const ok = worker(['./', WASM], (url) => (url.pathname === `/${WASM}` ? new Response(WASM_BYTES) : new Response('page')));
  await ok.install();
  assert.equal(ok.cached(WASM), true);
  assert.equal(ok.cached('./'), true);
});
