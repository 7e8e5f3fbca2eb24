// The board's worker: the app core (crates/web, wasm) runs every command of the IPC contract
// here, single-threaded, on files kept in IndexedDB. ui/js/ipc.js starts it when there is no
// Tauri back end and talks to it with messages:
//
//   page → worker  {id, cmd, args}
//   worker → page  {type: 'reply', id, ok | error: {code, message}, share?: {name, png}}
//                  {type: 'event', name, detail}   (huarong-hint, huarong-finish, huarong-opened)
//                  {type: 'haptic', kind}          (navigator.vibrate exists only on the page)
//                  {type: 'fatal', message}        (the core could not start)
//
// Storage: every file of the core's in-memory file system is kept in IndexedDB as chunks. At
// start all are read into the core; after each command the files it wrote (Core.changes) are
// written in ONE transaction, and the reply is posted only when a transaction holding its
// changes has completed: a reply the page has seen is durable (a finishing move's record
// survives an immediate reload or a closed tab). A transaction that fails (quota, abort) hands
// its files back to the core (Core.failed: written whole next time, so no chunk follows a
// gap), and the replies wait until a later one succeeds; the page shows a warning meanwhile
// (`huarong-storage`). See ARCHITECTURE.md, "The web shell".
//
// Searches (hint, solve, analysis, the hint proof) run in a second worker (search-worker.js):
// Core.offloadBegin gives the job, the search worker runs it, Core.offloadFinish writes the
// result back. A newer search, a move that changes the slot or `cancel` terminates the search
// worker; the next search starts a new one from the compiled module.
//
// Two wasm builds of the core (crates/web; see ARCHITECTURE.md, "The web shell"):
// - the board's (`board-<hash>.wasm`, without the `full` feature): rules, codes, slots, the
//   journal, records. The page hands its download over as it arrives (`{type: 'board'}`), it is
//   compiled here as it streams in, and the core starts on it.
// - the full one (`full-<hash>.wasm`): the searches, generators and the share card besides.
//   Fetched and compiled when the page is first idle after the board is up (`{type: 'idle'}`)
//   or when first needed. The search workers run it; and when a command answers
//   `unsupported` "not in this build" (a generated Klotski layout, a share card, a replay…),
//   or a saved game needs it at start (`Core.needsFull`), the core moves onto it: the files
//   as stored are opened on the full build, as a reload would, and the command runs again.
// Every URL carries the build's hash: a page keeps the workers and wasm it was opened with.
//
// The first core (crates/web-first, `first-<hash>.wasm`, a few times smaller than the board's):
// a friend opening a shared link on a phone waits seconds for the board's wasm. The page fetches
// the first wasm before it (`{type: 'first'}`), and when nothing is saved in this browser yet the
// first core answers the commands of a first visit meanwhile: settings, progress, opening the
// shared game, its levels and screen, and moves that do not end it. Whatever else comes (or an
// error, a finishing move, a daily's code) waits in the queue for the core, and so does every
// command after it. When the core has started, every command the first core answered is replayed
// into it at the time it was made (host.js holds the clocks), its reply compared with the first
// core's, and the result committed: only then is any of it stored (until then a reload loses
// those moves). Should a reply differ (a bug: crates/web/tests/first.rs compares them), the page
// is told to show what the core has (`huarong-opened`).

import { clockNow, compileCore, holdClock, useTestClock } from './host.js';
import initBoard, { Core as BoardCore } from 'huarong-glue-board';
import initFirst, { First } from 'huarong-glue-first';

/* global __HUARONG_FULL__, __HUARONG_SEARCH__, __HUARONG_PDB__ */
// Files of this build (web/build.mjs names them), beside this one under assets/.
const FULL_URL = new URL(__HUARONG_FULL__, import.meta.url);
const SEARCH_URL = new URL(__HUARONG_SEARCH__, import.meta.url);
const DB = 'huarong';
const STORE = 'files';
/** Commands whose work runs in the search worker (Core.offloadBegin decides per call: an
 *  `open_game`/`new_game` whose ID runs no costly generator is answered at once). */
const SEARCHES = new Set(['hint', 'solve', 'analysis', 'replay', 'open_game', 'new_game', 'preview']);
const PDB_URL = new URL(__HUARONG_PDB__, import.meta.url);
/** The engine's error when a 4×4 solve needs the tables this build leaves out (slide::TABLES_MISSING). */
const TABLES_MISSING = 'the 4x4 pattern tables are not installed';
/** In the `unsupported` message of a part the board's build leaves out (huarong_engine::NOT_IN_BUILD). */
const NOT_IN_BUILD = 'not in this build';

let core = null;
let db = null;
/** The full build's compiled wasm (the search workers', and this core's once it needs it). */
let fullModule = null;
let fullCompiling = null;
/** The full build's glue, set up here (only when this worker needs the full build itself). */
let fullLoading = null;
let fullGlue = null;
/** Whether `core` runs on the full build. */
let coreIsFull = false;
/** The board's wasm, compiled from what the page sends. */
let boardModule = null;
const boardArrived = new Promise((resolve) => (boardModule = resolve));
/** The first wasm, compiled from what the page sends (null when it did not come). */
let firstModule = null;
const firstArrived = new Promise((resolve) => (firstModule = resolve));
/** The first core while it answers (before the core has started; see the top of this file). */
let first = null;
/** It deferred a command: from then on everything waits for the core. */
let firstDeferred = false;
/** What it answered, in order, for the core to replay: `{cmd, args, at, reply}`. */
const firstLog = [];
/** Resolves once the core has started (or could not). */
let coreUp = null;
const coreStarted = new Promise((resolve) => (coreUp = resolve));
/** The last `set_screen` arguments: given again to a core that takes over (see upgrade). */
let lastScreen = null;
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
// One more record, OWNER (its value an object, so no build reads it as a file), says which
// tab's core writes: every commit checks it in its own transaction and writes nothing when
// another tab has claimed the files since (IndexedDB runs a store's read-write transactions
// one after the other, so a claim and a commit never interleave).

/** The next chunk number of each stored file. */
const nextChunk = new Map();
const OWNER = ['#owner', 0];
/** This core's name in OWNER. */
const me = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
/** Without Web Locks, how often the owner says it is alive, and when it no longer is. */
const BEAT_MS = 2000;
const STALE_MS = 3 * BEAT_MS;
/** A tab that found another one writing (no Web Locks): it shows the saved state and changes
 *  nothing (every command that would write is refused and undone). */
let readOnly = false;
/** The files the core was started on (a read-only tab starts over from them). */
let startFiles = '{}';

function openDb() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
    req.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
  });
}

/**
 * Read every file, and claim the files for this core (OWNER = this core) in the same
 * transaction: a commit of an older tab either completed before it (and is read here) or comes
 * after it (and finds OWNER changed: it writes nothing). `locked`: this tab holds the Web Lock;
 * without Web Locks a live owner (its beat younger than STALE_MS) keeps the files, and this
 * tab is read-only.
 */
function claimAndLoad(database, locked) {
  return new Promise((resolve, reject) => {
    const out = {};
    const tx = database.transaction(STORE, 'readwrite');
    const store = tx.objectStore(STORE);
    const owner = store.get(OWNER);
    owner.onsuccess = () => {
      const o = owner.result;
      const alive = o && o.id !== me && typeof o.beat === 'number' && Date.now() - o.beat < STALE_MS && o.beat !== 0;
      readOnly = !locked && !!alive;
      if (!readOnly) store.put({ id: me, beat: Date.now() }, OWNER);
    };
    const req = store.openCursor();
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

/**
 * Write `changes` (Core.changes) in one transaction, after checking that this core still owns
 * the files. Resolves 'ok', 'stolen' (another tab claimed them: nothing written) or 'failed'.
 */
function write(changes) {
  return new Promise((resolve) => {
    let tx;
    try {
      // `relaxed`: complete fires once the browser has the data (it survives a reload, a
      // closed tab, a killed renderer), without waiting for the disk's flush (an OS crash may
      // lose the last moves). Strict durability costs a flush per move, tens of ms on phones.
      tx = db.transaction(STORE, 'readwrite', { durability: 'relaxed' });
    } catch (_) {
      resolve('failed');
      return;
    }
    let stolen = false;
    const store = tx.objectStore(STORE);
    const owner = store.get(OWNER);
    owner.onsuccess = () => {
      const o = owner.result;
      if (!o || o.id !== me) {
        stolen = true;
        tx.abort();
        return;
      }
      for (const p of Object.keys(changes)) {
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
    };
    tx.oncomplete = () => resolve('ok');
    tx.onabort = tx.onerror = () => resolve(stolen ? 'stolen' : 'failed');
  });
}

// ---- commits and replies ----
//
// Replies wait in `held` (in order) for a commit that holds their command's changes. One commit
// runs at a time: it takes everything the core wrote so far (so replies that arrived meanwhile
// share it) and, when it completes, posts the replies it covers. A failed commit hands its files
// back to the core (written whole next time) and is tried again after a back-off, the replies
// still held; after HOLD_MS of failing they are posted (the page shows that nothing is saved)
// and saving is tried again with every command.

/** Replies waiting for their commit, in order: `{ m, share }` (the message and a card). */
const held = [];
/** A commit is wanted (a command ran, or a failed one is to be tried again). */
let dirty = false;
let committing = false;
let failingSince = 0;
let failures = 0;
let retryTimer = 0;
const HOLD_MS = 5000;
/** What the page was last told about storage ('ok', 'failing', 'unavailable', 'read-only',
 *  'elsewhere'). */
let told = 'ok';

function tell(state) {
  if (state === told) return;
  told = state;
  post({ type: 'event', name: 'huarong-storage', detail: state });
}

/** Post reply `m` (with a card to share) once a commit holds its command's changes. */
function settle(m, share) {
  held.push({ m, share });
  dirty = true;
  commitNow();
}

/** Post the first `n` held replies; with `error`, as that error (their changes were not
 *  stored: another tab took the files over). */
function release(n, error) {
  for (const { m, share } of held.splice(0, n)) {
    if (error) {
      post({ type: 'reply', id: m.id, error });
    } else if (share && !m.error) {
      const png = b64bytes(share.png);
      m.share = { name: share.name, png };
      post(m, [png.buffer]);
    } else {
      post(m);
    }
  }
}

/** The commits, one at a time (see above). */
async function commitNow() {
  if (committing) return;
  committing = true;
  try {
    while (dirty || held.length) {
      dirty = false;
      const covered = held.length;
      const changes = JSON.parse(core.changes());
      const paths = Object.keys(changes);
      if (!paths.length || !db || readOnly) {
        release(covered);
        continue;
      }
      if (elsewhere) {
        release(held.length, elsewhere);
        break;
      }
      const r = await write(changes);
      if (r === 'ok') {
        failures = 0;
        failingSince = 0;
        if (told === 'failing') tell('ok');
        release(covered);
        continue;
      }
      // Nothing of it was stored: its files are written whole by the next commit.
      core.failed(JSON.stringify(paths));
      dirty = true;
      if (r === 'stolen') {
        lostTheFiles();
        release(held.length, elsewhere);
        break;
      }
      failures += 1;
      if (!failingSince) failingSince = performance.now();
      tell('failing');
      if (performance.now() - failingSince >= HOLD_MS) {
        // Storage keeps failing: the game goes on (the page says it cannot save); what the core
        // holds is written whole once a commit succeeds again.
        release(held.length);
      }
      const wait = Math.min(50 * 2 ** (failures - 1), 2000);
      clearTimeout(retryTimer);
      retryTimer = setTimeout(() => {
        dirty = true;
        commitNow();
      }, wait);
      break;
    }
  } finally {
    committing = false;
  }
}

/** Another tab claimed the files: this core stops answering and storing. */
function lostTheFiles() {
  if (elsewhere) return;
  elsewhere = { code: 'storage', message: 'Huarong was opened in another tab: reload this one to play here' };
  post({ type: 'event', name: 'huarong-elsewhere', detail: null });
  tell('elsewhere');
}

/** Without Web Locks: say this core is alive (OWNER's beat), or learn that another took over. */
function beat() {
  if (!db || readOnly || elsewhere || leaving) return;
  try {
    const tx = db.transaction(STORE, 'readwrite', { durability: 'relaxed' });
    const store = tx.objectStore(STORE);
    const owner = store.get(OWNER);
    owner.onsuccess = () => {
      const o = owner.result;
      if (o && o.id !== me) lostTheFiles();
      else store.put({ id: me, beat: Date.now() }, OWNER);
    };
  } catch (_) {
    /* the database is closing: nothing to say */
  }
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

/** Post a command's reply once a commit holds its writes (see "commits and replies"). */
function answer(id, parsed) {
  const share = flushOutbox();
  if (readOnly) {
    answerReadOnly(id, parsed, share);
    return;
  }
  const m = { type: 'reply', id };
  if ('error' in parsed && parsed.error) m.error = parsed.error;
  else m.ok = parsed.ok === undefined ? null : parsed.ok;
  settle(m, share);
}

/** A read-only tab (another tab writes): a command that changed what is saved is undone (the
 *  core starts over from the files as loaded) and refused; one that only read is answered. */
function answerReadOnly(id, parsed, share) {
  const wrote = Object.keys(JSON.parse(core.changes())).length > 0;
  if (wrote) {
    core.free();
    core = coreIsFull ? new fullGlue.Core(startFiles) : new BoardCore(startFiles);
    core.changes();
    flushOutbox();
    post({ type: 'reply', id, error: READ_ONLY });
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

const READ_ONLY = { code: 'storage', message: 'Huarong is open in another tab: this tab only shows your progress (close the other tab and reload this one to play here)' };

// ---- the search workers ----
//
// Two lanes, each a worker of its own, so a search the player waits for never waits on one
// nobody waits for:
// - `searcher`: hints, solves and analyses, replays, and the generators of opened and previewed
//   games (so neither a replay's analysis nor a Klotski generator ever holds up the board). It
//   stays warm between searches; a cancelled one is terminated and a spare (instantiated with
//   its tables) takes over at once. A worker that ran a replay or a generator is let go once
//   it answers (its memory with it) and the spare takes over.
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
    const module = fullModule;
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
      if (job.recycle) {
        w.terminate();
        this.worker = this.withSpare ? this.spare : null;
        this.spare = null;
      }
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

  /** The lane's workers up, once the full build is compiled; `spare`: its spare too (made
   *  after a search, not while the first board is being played: each new worker compiles). */
  spawn(spare = true) {
    if (!fullModule) return;
    if (!this.worker) this.worker = this.make();
    if (spare && this.withSpare && !this.spare) this.spare = this.make();
  }

  /** Run a job; a running one is cancelled first (one job per lane). `recycle`: let the worker
   *  go once it answers (a job that may have grown its memory). */
  async run(text, kind, recycle = false) {
    this.stop('cancelled', 'the search was overtaken by a newer request');
    const id = this.next++;
    const answered = new Promise((resolve) => {
      this.job = { id, text, resolve, kind, recycle };
    });
    const job = this.job;
    try {
      await compileFull();
    } catch (e) {
      if (this.job === job) {
        this.job = null;
        job.resolve(JSON.stringify({ error: { code: 'internal', message: `the search module did not load: ${(e && e.message) || e}` } }));
      }
      return answered;
    }
    // Stopped (a move, a newer search) while the module loaded: already answered.
    if (this.job !== job) return answered;
    if (!this.worker) this.worker = this.make();
    this.worker.postMessage({ type: 'job', id, job: text });
    return answered;
  }

  /** Terminate the worker (the only way to stop a search) and answer its job with `code`; the
   *  spare takes over (a new spare is made once the next search is over). A lane without a
   *  spare makes its next worker when it next has a job. */
  stop(code, message) {
    if (!this.job) return;
    const job = this.job;
    this.job = null;
    if (this.worker) this.worker.terminate();
    // (Stopped while the full build still loads: no worker yet, none to make.)
    this.worker = this.withSpare ? this.spare || (fullModule ? this.make() : null) : null;
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
  if (!core || elsewhere || leaving || readOnly || prover.job) return;
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
    if (readOnly || elsewhere) return false;
    core.offloadFinish(text, result);
    flushOutbox();
    dirty = true;
    commitNow();
    return !JSON.parse(result).error;
  });
}

/** Whether a reply is the engine's "the 4×4 tables are missing" (slide::TABLES_MISSING). */
function tablesMissing(reply) {
  const e = reply && reply.error;
  return !!e && e.code === 'unsupported' && String(e.message).includes(TABLES_MISSING);
}

/** A command of SEARCHES, begun (`Core.offloadBegin`): answered at once, or its job run in the
 *  search lane and written back. */
async function search(id, begun) {
  if (!begun.job) {
    if (begun.proof) startProof(begun.proof);
    return answer(id, begun);
  }
  // The search runs beside the board: later commands are not held up by it. A proof still
  // running is given up: this search starts its own if it needs one.
  prover.stop('cancelled', 'a newer search was asked for');
  const text = JSON.stringify(begun.job);
  const heavy = begun.job.op === 'replay' || begun.job.op === 'open' || begun.job.op === 'preview';
  const result = await searcher.run(text, begun.job.kind, heavy);
  if (elsewhere) return post({ type: 'reply', id, error: elsewhere });
  const fin = JSON.parse(core.offloadFinish(text, result));
  if (fin.proof) startProof(fin.proof);
  // As natively (`end_search`): the optimum this search stopped may run again; a finish still
  // waiting for it gets its verdict (`huarong-finish`) when it arrives.
  else startOptimum();
  return answer(id, fin);
}

// ---- one tab at a time ----
//
// Two tabs with a core each would both write the same files (a journal's chunks numbered twice).
// The core is a Web Lock: a tab that starts takes it over (`steal`, the newest tab wins, as a link
// opened in a second tab should), and claims the files in IndexedDB (OWNER) in the transaction
// that reads them. The older tab's commits check OWNER in their own transactions, so from the
// claim on they write nothing, even before the older tab hears of the steal; it then answers
// every command `storage` (reload to play there). Without Web Locks, OWNER has a heartbeat: a
// tab that finds another one alive is read-only and says so (`huarong-storage: read-only`).

/** Take the Web Lock; resolves true when this tab holds it, false without Web Locks. */
function holdCore() {
  if (!(self.navigator && navigator.locks && navigator.locks.request)) return Promise.resolve(false);
  let acquired = false;
  return new Promise((resolve) => {
    navigator.locks
      .request('huarong-core', { steal: true }, () => {
        acquired = true;
        resolve(true);
        return new Promise((r) => (releaseCore = r)); // held for the worker's life
      })
      .catch(() => {
        // Held, then stolen by a newer tab (whose claim already fenced our commits off); or
        // never granted (no lock to rely on: OWNER's heartbeat instead).
        if (acquired) lostTheFiles();
        else resolve(false);
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
    (await loadFull()).glue.installPdb4x4(new Uint8Array(pdb));
    boardTables = true;
  } catch (_) {
    /* offline before they were ever fetched: the command's error stands */
  }
}

// ---- the first core ----

/** Answer what the first core can of the queue's head, in order, until it defers one. */
function pumpFirst() {
  while (first && !firstDeferred && queue.length) {
    const m = queue[0];
    const at = clockNow();
    let out;
    holdClock(at);
    try {
      out = JSON.parse(first.dispatch(m.cmd, JSON.stringify(m.args || {})));
    } catch (_) {
      out = { defer: true };
    } finally {
      holdClock(null);
    }
    if (out.defer) {
      firstDeferred = true;
      return;
    }
    queue.shift();
    const ok = out.ok === undefined ? null : out.ok;
    firstLog.push({ cmd: m.cmd, args: m.args || {}, at, reply: JSON.stringify(ok) });
    for (const kind of JSON.parse(first.takeHaptics())) post({ type: 'haptic', kind });
    post({ type: 'reply', id: m.id, ok });
  }
}

/** The first core for a page with nothing saved, if its wasm comes before the board's. */
async function startFirst(files) {
  if (readOnly || Object.keys(files || {}).length) return false;
  const module = await Promise.race([firstArrived, boardArrived.then(() => null, () => null)]);
  if (!module) return false;
  try {
    await initFirst({ module_or_path: module });
    first = new First();
  } catch (_) {
    first = null;
    return false;
  }
  pumpFirst();
  return true;
}

/**
 * The core has started: every command the first core answered runs again on it, at the time it
 * was made, and its reply is compared with the one the page got. Its haptics were felt already;
 * its changes are committed by the caller. Returns `{replayed, differed}` (the commands whose
 * replies differed: then the page shows what the core has).
 */
function handover() {
  const log = firstLog.splice(0);
  first.free();
  first = null;
  const differed = [];
  for (const e of log) {
    let parsed;
    holdClock(e.at);
    try {
      parsed = JSON.parse(core.dispatch(e.cmd, JSON.stringify(e.args)));
    } finally {
      holdClock(null);
    }
    if (e.cmd === 'set_screen') lastScreen = e.args;
    if (!('ok' in parsed) || JSON.stringify(parsed.ok) !== e.reply) differed.push(e.cmd);
  }
  core.takeOutbox();
  if (differed.length) post({ type: 'event', name: 'huarong-opened', detail: null });
  return { replayed: log.length, differed };
}

// ---- commands, in order ----

async function pump() {
  if (!core) {
    pumpFirst();
    return;
  }
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
        let begun = JSON.parse(core.offloadBegin(cmd, JSON.stringify(args || {})));
        if (!coreIsFull && notInBuild(begun)) {
          // The board's build cannot begin this one: the core moves onto the full build and
          // begins it again there (see upgrade).
          await upgrade();
          begun = JSON.parse(core.offloadBegin(cmd, JSON.stringify(args || {})));
        }
        if (tablesMissing(begun) && !boardTables) {
          // Opening today's 4×4 (made to a difficulty) needs the tables here too: installed
          // (milliseconds; never built) and begun again, later commands waiting meanwhile.
          await installBoardTables();
          begun = JSON.parse(core.offloadBegin(cmd, JSON.stringify(args || {})));
        }
        if (!begun.job) {
          // Answered here (an opening that ran no generator): it may have changed the game.
          searcher.check(cmd, args);
          prover.check(cmd, args);
        }
        search(id, begun); // not awaited: the board goes on
        continue;
      }
      let parsed = JSON.parse(core.dispatch(cmd, JSON.stringify(args || {})));
      if (!coreIsFull && notInBuild(parsed)) {
        // The board's build cannot do this one (a generator, the share card, a replay): the
        // core moves onto the full build and the command runs again there. Later commands
        // wait in the queue meanwhile.
        await upgrade();
        parsed = JSON.parse(core.dispatch(cmd, JSON.stringify(args || {})));
      }
      if (cmd === 'set_screen') lastScreen = args;
      if (parsed.error && parsed.error.code === 'unsupported' && String(parsed.error.message).includes(TABLES_MISSING) && !boardTables) {
        // Not a search, but it needs a 4×4 optimum (today's 4×4 is made to a difficulty): the
        // tables are installed here too (milliseconds; never built) and the command runs again.
        // Nothing else runs meanwhile: later commands wait in the queue.
        await installBoardTables();
        parsed = JSON.parse(core.dispatch(cmd, JSON.stringify(args || {})));
      }
      searcher.check(cmd, args);
      prover.check(cmd, args);
      // The next command runs at once; this reply waits for a commit holding its changes.
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
/** This worker holds the Web Lock (see holdCore). */
let lockHeld = false;
let leaving = false;

async function leave() {
  if (leaving) return;
  leaving = true;
  while (running || queue.length || committing || (held.length && !failingSince)) await new Promise((r) => setTimeout(r, 5));
  // Without Web Locks, the files are marked free for the next page at once (else it would wait
  // for the beat to go stale). With them no transaction starts here: the next page steals the
  // lock and claims the files itself, and WebKit may suspend this worker as the page goes into
  // its back-forward cache, leaving a transaction begun now open for good, and the next page's
  // claim waiting behind it. Transactions already made still complete after close().
  if (db && !lockHeld && !readOnly && !elsewhere) {
    try {
      const tx = db.transaction(STORE, 'readwrite');
      const store = tx.objectStore(STORE);
      const owner = store.get(OWNER);
      owner.onsuccess = () => {
        if (owner.result && owner.result.id === me) store.put({ id: me, beat: 0 }, OWNER);
      };
    } catch (_) {
      /* closing already */
    }
  }
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
  if (m.type === 'board' || m.type === 'first') {
    // A wasm from the page (boot.js): its response's body as it streams in, or its bytes.
    // Compiled here, off the page's main thread.
    let compiled;
    if (m.stream && WebAssembly.compileStreaming) compiled = WebAssembly.compileStreaming(new Response(m.stream, { headers: { 'content-type': 'application/wasm' } }));
    else if (m.stream) compiled = new Response(m.stream).arrayBuffer().then((b) => WebAssembly.compile(b));
    else if (m.bytes) compiled = WebAssembly.compile(m.bytes);
    else compiled = Promise.reject(new Error(m.error || `the page sent no ${m.type} wasm`));
    // Without the first wasm the page waits for the core, as it would have.
    if (m.type === 'first') firstModule(compiled.catch(() => null));
    else boardModule(compiled);
    return;
  }
  if (m.type === 'test-clock') {
    // The browser suites' settable clock (boot.js): `test_clock` moves the core's clocks.
    useTestClock();
    return;
  }
  if (m.type === 'idle') {
    // The page is up and idle: the full build now (compiled only), and one search worker warm
    // for the first hint. Not before the core has started: while the first core plays, the
    // board's wasm is still downloading, and the full one would share the line with it.
    coreStarted.then(compileFull).then(
      () => {
        searcher.spawn(false);
        post({ type: 'warm' });
      },
      () => post({ type: 'warm' }),
    );
    return;
  }
  if (leaving) return;
  if (typeof m.id !== 'number' || typeof m.cmd !== 'string') return;
  queue.push(m);
  pump();
};

/** Whether a reply is the board build's "not in this build" (huarong_engine::NOT_IN_BUILD). */
function notInBuild(parsed) {
  return !!(parsed && parsed.error && parsed.error.code === 'unsupported' && String(parsed.error.message).includes(NOT_IN_BUILD));
}

/** The full build's wasm, compiled (fetched once, shared with the search workers); its glue is
 *  fetched with it (not set up: see loadFull), so that a page open across a deploy has it. */
function compileFull() {
  if (!fullCompiling) {
    fullCompiling = Promise.all([import('huarong-glue-full'), compileCore(FULL_URL)]).then(([, module]) => (fullModule = module));
    fullCompiling.catch(() => {
      fullCompiling = null;
    });
  }
  return fullCompiling;
}

/** The full build set up in this worker: {glue (its wasm-bindgen module), module}. */
function loadFull() {
  if (!fullLoading) {
    fullLoading = Promise.all([import('huarong-glue-full'), compileFull()]).then(async ([glue, module]) => {
      await glue.default({ module_or_path: module });
      fullGlue = glue;
      return { glue, module };
    });
    fullLoading.catch(() => {
      fullLoading = null;
    });
  }
  return fullLoading;
}

/** A core on the full build over `files` (the 4×4 tables first when a saved game needs them). */
async function fullCore(files) {
  const { glue } = await loadFull();
  // A saved 4×4 game made to a difficulty (`slide:4x4/medium#…`, today's 4×4) is made again
  // from its ID when the core restores it, which needs the 4×4 tables: install them first.
  if (!boardTables && Object.values(files).some((chunks) => [].concat(chunks).some((c) => atob(c).includes('slide:4x4/')))) await installBoardTables();
  coreIsFull = true;
  return new glue.Core(JSON.stringify(files));
}

/**
 * The core moves from the board's build onto the full one, between two commands: the running
 * searches are stopped and the game clocks paused (as when the page is hidden); then every file
 * the board's core holds, stored or not, is opened on the full build (what a reload would do
 * once everything is stored) and the screen is set again. What no commit has taken yet is
 * handed to the new core as not stored (`Core.failed`: its next commit writes those files
 * whole), and a commit still running hands its files back to the new core if it fails: nothing
 * acknowledged or played is lost, and replies still wait for their commits.
 */
async function upgrade() {
  await loadFull();
  searcher.stop('cancelled', 'the search module was loaded');
  prover.stop('cancelled', 'the search module was loaded');
  core.dispatch('pause', '{}');
  flushOutbox();
  const files = JSON.parse(core.files());
  const pending = Object.keys(JSON.parse(core.changes()));
  const old = core;
  core = await fullCore(files);
  old.free();
  flushOutbox();
  if (readOnly) core.changes();
  else if (pending.length) core.failed(JSON.stringify(pending));
  if (lastScreen) core.dispatch('set_screen', JSON.stringify(lastScreen));
  if (!readOnly) {
    dirty = true;
    commitNow();
  }
}

async function start() {
  // When each step was done (ms on this worker's clock; posted with `started` for measure.mjs).
  const at = { script: performance.now() };
  try {
    let locked = false;
    const compiled = boardArrived.then((m) => ((at.compiled = performance.now()), m));
    compiled.catch(() => null);
    db = await holdCore()
      .then((held) => {
        locked = held;
        lockHeld = held;
        return openDb();
      })
      .then((d) => ((at.db = performance.now()), d))
      .catch(() => null);
    const files = db ? await claimAndLoad(db, locked).catch(() => null) : null;
    if (!files) db = null;
    startFiles = JSON.stringify(files || {});
    at.loaded = performance.now();
    // Nothing saved yet (a friend's first visit): the first core answers until the core is up.
    if (await startFirst(files)) at.first = performance.now();
    await initBoard({ module_or_path: await compiled });
    core = new BoardCore(startFiles);
    at.core = performance.now();
    if (core.needsFull()) {
      // A saved game the board's build cannot restore (a generated Klotski layout, a slide
      // made to a difficulty): this core is dropped before anything of it is stored, and the
      // same files are opened on the full build.
      core.free();
      core = await fullCore(files || {});
    }
    flushOutbox();
    // What the first core answered, replayed into the core (and committed below).
    const replay = first ? handover() : null;
    if (!db) tell('unavailable');
    else if (readOnly) {
      core.changes();
      tell('read-only');
    } else {
      dirty = true;
      await commitNow();
      if (!locked) setInterval(beat, BEAT_MS);
    }
    post({ type: 'started', at, replay });
    coreUp();
    pump();
    if (replay && replay.replayed) startOptimum();
  } catch (e) {
    post({ type: 'fatal', message: String((e && e.message) || e) });
    coreUp();
  }
}

start();
