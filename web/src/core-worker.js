// The board's worker: the app core (crates/web, wasm) runs every command of the IPC contract
// here, single-threaded, on files kept in IndexedDB. ui/js/ipc.js starts it when there is no
// Tauri back end and talks to it with messages:
//
//   page → worker  {id, cmd, args}
//   worker → page  {type: 'reply', id, ok | error: {code, message}, share?: {name, png}}
//                  {type: 'event', name, detail}   (huarong-hint, huarong-opened)
//                  {type: 'haptic', kind}          (navigator.vibrate exists only on the page)
//                  {type: 'fatal', message}        (the core could not start)
//
// Storage: every file of the core's in-memory file system is one IndexedDB record (key = path,
// value = base64). At start all are read into the core; after each command the files it wrote
// (Core.changes) are written in ONE transaction, and the reply is posted only when that
// transaction has completed: a reply the page has seen is durable (a finishing move's record
// survives an immediate reload or a closed tab). See ARCHITECTURE.md, "The web shell".
//
// Searches (hint, solve, analysis, the hint proof) run in a second worker (search-worker.js):
// Core.offloadBegin gives the job, the search worker runs it, Core.offloadFinish writes the
// result back. A newer search, a move that changes the slot or `cancel` terminates the search
// worker; the next search starts a new one from the compiled module.

import { compileCore } from './host.js';
import init, { Core, installPdb4x4 } from '../wasm/huarong_web.js';

const WASM_URL = new URL('../wasm/huarong_web_bg.wasm', import.meta.url);
const SEARCH_URL = new URL('./search-worker.js', import.meta.url);
const DB = 'huarong';
const STORE = 'files';
const SEARCHES = new Set(['hint', 'solve', 'analysis']);
const PDB_URL = new URL('../pdb4x4.bin', import.meta.url);
/** The engine's error when a 4×4 solve needs the tables this build leaves out (slide::TABLES_MISSING). */
const TABLES_MISSING = 'the 4x4 pattern tables are not installed';

let core = null;
let db = null;
let module = null;
/** The 4×4 tables' bytes once a search worker fetched them (each new one gets a copy). */
let pdb = null;
const queue = [];
let running = false;
/** Set when a newer tab took the core over (see holdCore): this one stops answering. */
let elsewhere = null;

function post(m, transfer) {
  self.postMessage(m, transfer || []);
}

// ---- IndexedDB ----
//
// One record per chunk of a file: key [path, n], value = base64. A file is its chunks in key
// order; Core.changes says per file whether to store it whole (one chunk, the others deleted)
// or to add one appended chunk (the move journal grows by a move's bytes, not by its size).

/** The next chunk number of each stored file. */
const nextChunk = new Map();

function openDb() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
    req.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
  });
}

function loadAll(database) {
  return new Promise((resolve, reject) => {
    const out = {};
    const tx = database.transaction(STORE, 'readonly');
    const req = tx.objectStore(STORE).openCursor();
    req.onsuccess = () => {
      const c = req.result;
      if (!c) return;
      const [p, n] = Array.isArray(c.key) ? c.key : [String(c.key), 0];
      if (typeof c.value === 'string') {
        (out[p] = out[p] || []).push(c.value);
        nextChunk.set(p, Math.max(nextChunk.get(p) || 0, Number(n) + 1));
      }
      c.continue();
    };
    tx.oncomplete = () => resolve(out);
    tx.onerror = () => reject(tx.error);
  });
}

const chunksOf = (p) => IDBKeyRange.bound([p, 0], [p, Infinity]);

/** Write what the last command changed, in one transaction; resolves when it completed. */
function commit() {
  const changes = JSON.parse(core.changes());
  const paths = Object.keys(changes);
  if (!paths.length || !db) return null;
  if (elsewhere) return Promise.reject(new Error(elsewhere.message));
  return new Promise((resolve, reject) => {
    // `relaxed`: complete fires once the browser has the data (it survives a reload, a closed
    // tab, a killed renderer), without waiting for the disk's flush (an OS crash may lose the
    // last moves). Strict durability costs a flush per move, tens of ms on phones.
    const tx = db.transaction(STORE, 'readwrite', { durability: 'relaxed' });
    const store = tx.objectStore(STORE);
    for (const p of paths) {
      const c = changes[p];
      if (c === null || c.whole !== undefined) {
        store.delete(chunksOf(p));
        nextChunk.delete(p);
      }
      if (c === null) continue;
      const data = c.whole !== undefined ? c.whole : c.append;
      const n = nextChunk.get(p) || 0;
      store.put(data, [p, n]);
      nextChunk.set(p, n + 1);
    }
    tx.oncomplete = () => resolve();
    tx.onabort = tx.onerror = () => reject(tx.error || new Error('the IndexedDB transaction was aborted'));
  });
}

/** Events and haptics the core queued go to the page; a card to share rides on the reply. */
function flushOutbox() {
  const o = JSON.parse(core.takeOutbox());
  for (const [name, detail] of o.events) post({ type: 'event', name, detail });
  for (const kind of o.haptics) post({ type: 'haptic', kind });
  return o.share;
}

function b64bytes(s) {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i += 1) out[i] = bin.charCodeAt(i);
  return out;
}

/** Post a command's reply once its writes are durable. */
async function answer(id, parsed) {
  const share = flushOutbox();
  try {
    await commit();
  } catch (e) {
    post({ type: 'reply', id, error: { code: 'storage', message: `the browser did not store the change: ${(e && e.message) || e}` } });
    return;
  }
  const m = { type: 'reply', id };
  if ('error' in parsed && parsed.error) m.error = parsed.error;
  else m.ok = parsed.ok === undefined ? null : parsed.ok;
  if (share && !m.error) {
    const png = b64bytes(share.png);
    m.share = { name: share.name, png };
    post(m, [png.buffer]);
    return;
  }
  post(m);
}

// ---- the search workers ----
//
// Two lanes, each a worker of its own, so a search the player waits for never waits on one
// nobody waits for:
// - `searcher`: hints, solves and analyses. It stays warm between searches; a cancelled one is
//   terminated and a spare (instantiated with its tables) takes over at once.
// - `prover`: the background proof of a hint that was not optimal. A new hint, solve or
//   analysis, a move that changes the slot, or `cancel` terminates it (nobody waits for a
//   proof: its next one starts a worker of its own, and its start-up costs the player nothing).

class Lane {
  constructor(name, withSpare) {
    this.name = name;
    this.withSpare = withSpare;
    /** The worker that runs the current job (or will run the next). */
    this.worker = null;
    /** `searcher` only: a second one, instantiated with its tables, that takes over at once
     *  when the first is terminated (a cancel then costs no start-up on the next search). */
    this.spare = null;
    this.job = null; // {id, text, resolve, kind}
    this.next = 1;
  }

  make() {
    const w = new Worker(SEARCH_URL, { type: 'module' });
    w.hasPdb = !!pdb;
    w.onmessage = (e) => {
      const m = e.data || {};
      if (m.type === 'pdb') {
        pdb = m.bytes.buffer;
        w.hasPdb = true;
        for (const other of [searcher.worker, searcher.spare, prover.worker]) {
          if (other && other !== w && !other.hasPdb) {
            other.postMessage({ type: 'pdb', pdb });
            other.hasPdb = true;
          }
        }
      }
      if (m.type !== 'done' || w !== this.worker || !this.job || this.job.id !== m.id) return;
      const job = this.job;
      this.job = null;
      job.resolve(m.result);
      // The search is over: the spare a cancel used up is made now, not while it searched.
      this.spawn();
    };
    w.onerror = (e) => {
      e.preventDefault();
      if (w === this.worker) this.stop('internal', `the ${this.name} worker failed: ${e.message || 'unknown error'}`);
    };
    w.postMessage({ type: 'init', module, pdb });
    return w;
  }

  /** The lane's workers up (for `searcher`: once the first screen is shown, nothing else
   *  competes any more). */
  spawn() {
    if (!module) return;
    if (!this.worker) this.worker = this.make();
    if (this.withSpare && !this.spare) this.spare = this.make();
  }

  /** Run a job; a running one is cancelled first (one job per lane). */
  run(text, kind) {
    this.stop('cancelled', 'the search was overtaken by a newer request');
    if (!this.worker) this.worker = this.make();
    const id = this.next++;
    return new Promise((resolve) => {
      this.job = { id, text, resolve, kind };
      this.worker.postMessage({ type: 'job', id, job: text });
    });
  }

  /** Terminate the worker (the only way to stop a search) and answer its job with `code`; the
   *  spare takes over (a new spare is made once the next search is over). A lane without a
   *  spare makes its next worker when it next has a job. */
  stop(code, message) {
    if (!this.job) return;
    const job = this.job;
    this.job = null;
    if (this.worker) this.worker.terminate();
    this.worker = this.withSpare ? this.spare || this.make() : null;
    this.spare = null;
    job.resolve(JSON.stringify({ error: { code, message } }));
  }

  /** After a command: stop a job whose slot moved on (a move, leaving the game). */
  check(cmd, args) {
    if (!this.job) return;
    const kind = args && args.kind;
    if (cmd === 'cancel' && (!kind || kind === this.job.kind)) this.stop('cancelled', 'cancelled');
    else if (this.job && !core.offloadCurrent(this.job.text)) this.stop('cancelled', 'the game changed');
  }
}

const searcher = new Lane('search', true);
const prover = new Lane('proof', false);

/** The background proof of a hint that was not optimal: its answer comes as `huarong-hint`. */
function startProof(job) {
  runBehind(job).then(() => startOptimum());
}

/** The background optimum of the shown game (`Core.offloadOptimum`), when the proof lane is
 *  free: the finish's optimal length and stars, as the native thread gives them. Asked after
 *  every move and every proof; one found, failed or for a game left is not redone. */
function startOptimum() {
  if (!core || elsewhere || leaving || prover.job) return;
  const o = JSON.parse(core.offloadOptimum());
  if (!o.job) return;
  runBehind(o.job).then((answered) => {
    if (answered) startOptimum();
  });
}

/** Run `job` in the proof lane (nobody waits for it) and write its result back, as a command's
 *  changes are (stored, its events posted). Resolves true when the worker answered it, false
 *  when it failed or was stopped. */
function runBehind(job) {
  const text = JSON.stringify(job);
  return prover.run(text, job.kind).then((result) => {
    core.offloadFinish(text, result);
    flushOutbox();
    const c = commit();
    if (c) c.catch(() => {});
    return !JSON.parse(result).error;
  });
}

async function search(id, cmd, args) {
  const begun = JSON.parse(core.offloadBegin(cmd, JSON.stringify(args)));
  if (!begun.job) {
    if (begun.proof) startProof(begun.proof);
    return answer(id, begun);
  }
  // The search runs beside the board: later commands are not held up by it. A proof still
  // running is given up: this search starts its own if it needs one.
  prover.stop('cancelled', 'a newer search was asked for');
  const text = JSON.stringify(begun.job);
  const result = await searcher.run(text, begun.job.kind);
  const fin = JSON.parse(core.offloadFinish(text, result));
  if (fin.proof) startProof(fin.proof);
  return answer(id, fin);
}

// ---- one tab at a time ----
//
// Two tabs with a core each would both write the same files (a journal's chunks numbered twice).
// The core is a Web Lock: a tab that starts takes it over (`steal`, the newest tab wins, as a link
// opened in a second tab should), the older tab's worker stops answering (`storage`: reload to
// play there) and stores nothing more. The newer tab loads the files after the older one's
// last transaction (IndexedDB orders them).

function holdCore() {
  if (!(self.navigator && navigator.locks && navigator.locks.request)) return Promise.resolve();
  return new Promise((resolve) => {
    navigator.locks
      .request('huarong-core', { steal: true }, () => {
        resolve();
        return new Promise((r) => (releaseCore = r)); // held for the worker's life
      })
      .catch(() => {
        elsewhere = { code: 'storage', message: 'Huarong was opened in another tab: reload this one to play here' };
        post({ type: 'event', name: 'huarong-elsewhere', detail: null });
        resolve();
      });
  });
}

/** Whether the board's own core has the 4×4 tables (only some commands besides searches need them). */
let boardTables = false;

async function installBoardTables() {
  try {
    if (!pdb) {
      const res = await fetch(PDB_URL);
      if (!res.ok) throw new Error(`pdb4x4.bin: HTTP ${res.status}`);
      pdb = await res.arrayBuffer();
    }
    installPdb4x4(new Uint8Array(pdb));
    boardTables = true;
  } catch (_) {
    /* offline before they were ever fetched: the command's error stands */
  }
}

// ---- commands, in order ----

async function pump() {
  if (running) return;
  running = true;
  while (queue.length && core) {
    const { id, cmd, args } = queue.shift();
    if (elsewhere) {
      post({ type: 'reply', id, error: elsewhere });
      continue;
    }
    try {
      if (SEARCHES.has(cmd)) {
        search(id, cmd, args); // not awaited: the board goes on
        continue;
      }
      let parsed = JSON.parse(core.dispatch(cmd, JSON.stringify(args || {})));
      if (parsed.error && parsed.error.code === 'unsupported' && String(parsed.error.message).includes(TABLES_MISSING) && !boardTables) {
        // Not a search, but it needs a 4×4 optimum (today's 4×4 is made to a difficulty): the
        // tables are installed here too (milliseconds; never built) and the command runs again.
        // Nothing else runs meanwhile: later commands wait in the queue.
        await installBoardTables();
        parsed = JSON.parse(core.dispatch(cmd, JSON.stringify(args || {})));
      }
      searcher.check(cmd, args);
      prover.check(cmd, args);
      // The first screen is up: start the search worker now, warm for the first hint.
      if (cmd === 'set_screen' && !searcher.worker) searcher.spawn();
      // Not awaited: the next command runs at once; this reply waits for its own transaction
      // (IndexedDB completes transactions on one store in the order they were made).
      answer(id, parsed);
      // From the game's first move on: a page opened from a link stays light (the 4×4 tables
      // are fetched for it only once the player plays, not with the first load).
      if (cmd === 'play') startOptimum();
    } catch (e) {
      post({ type: 'reply', id, error: { code: 'internal', message: String((e && e.message) || e) } });
    }
  }
  running = false;
}

// ---- leaving the page ----
//
// The page is going away (a link opened in the same tab, a reload, the tab closed). A browser
// may keep the old page frozen in its back-forward cache with this worker, its IndexedDB
// connection and its lock (WebKit does): the next page's core would then wait on them. So
// the core stops: the commands already queued run and their transactions complete
// (`db.close()` waits for them), then the lock is let go and the worker closes itself.
let releaseCore = null;
let leaving = false;

async function leave() {
  if (leaving) return;
  leaving = true;
  while (running || queue.length) await new Promise((r) => setTimeout(r, 5));
  // Transactions already made still complete after close(); nothing new starts.
  if (db) db.close();
  db = null;
  elsewhere = { code: 'storage', message: 'the page was left: reload it to play' };
  if (releaseCore) releaseCore();
}

self.onmessage = (e) => {
  const m = e.data || {};
  if (m.type === 'leave') {
    leave();
    return;
  }
  if (leaving) return;
  if (typeof m.id !== 'number' || typeof m.cmd !== 'string') return;
  queue.push(m);
  pump();
};

async function start() {
  try {
    const [mod, database] = await Promise.all([compileCore(WASM_URL), holdCore().then(() => openDb()).catch(() => null)]);
    module = mod;
    await init({ module_or_path: module });
    db = database;
    const files = db ? await loadAll(db) : {};
    // A saved 4×4 game made to a difficulty (`slide:4x4/medium#…`, today's 4×4) is made again
    // from its ID when the core restores it, which needs the 4×4 tables: install them first.
    if (Object.values(files).some((chunks) => chunks.some((c) => atob(c).includes('slide:4x4/')))) await installBoardTables();
    core = new Core(JSON.stringify(files));
    flushOutbox();
    await commit();
    if (!db) post({ type: 'event', name: 'huarong-storage', detail: 'unavailable' });
    post({ type: 'started' });
    pump();
  } catch (e) {
    post({ type: 'fatal', message: String((e && e.message) || e) });
  }
}

start();
