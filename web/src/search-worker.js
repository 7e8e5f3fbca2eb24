// The search worker: hints, solves, the background hint proof and the analysis of the web
// page run here, never on the board's worker (core-worker.js). One job at a time; a job is
// cancelled by terminating this worker (core-worker.js starts a new one from the compiled
// module).
//
// Messages in: {type: 'init', module, pdb?} (the full build's compiled WebAssembly.Module: the
// core's searches are not in the board's build; the 4×4 tables' bytes when core-worker.js
// already has them), then {type: 'job', id, job} (the JSON of
// huarong_core::offload::Job). Out: {type: 'done', id, result} (the JSON text `{"ok": …}` /
// `{"error": {code, message}}`), {type: 'ready'}, {type: 'pdb', bytes} (the tables fetched
// here, for core-worker.js to hand to the next search worker).
// A number slide of 4×4 or more needs the 4×4 pattern tables: fetched (pdb4x4.bin, 2.9 MB,
// cached by the service worker) and installed on first use, never built here.

import './host.js';
import init, { runJob, installPdb4x4 } from 'huarong-glue-full';

/* global __HUARONG_PDB__ */
const PDB_URL = new URL(__HUARONG_PDB__, import.meta.url);
/** The engine's error when a 4×4 search needs the tables (slide::TABLES_MISSING). */
const TABLES_MISSING = 'the 4x4 pattern tables are not installed';
let ready = null;
let tables = null;

function fail(code, message) {
  return JSON.stringify({ error: { code, message } });
}

async function ensureTables() {
  if (!tables) {
    tables = (async () => {
      const res = await fetch(PDB_URL);
      if (!res.ok) throw new Error(`pdb4x4.bin: HTTP ${res.status}`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      installPdb4x4(bytes);
      self.postMessage({ type: 'pdb', bytes }, [bytes.buffer]);
    })();
    tables.catch(() => {
      tables = null;
    });
  }
  return tables;
}

self.onmessage = async (e) => {
  const m = e.data || {};
  if (m.type === 'init') {
    ready = init({ module_or_path: m.module });
    await ready;
    if (m.pdb) {
      installPdb4x4(new Uint8Array(m.pdb));
      tables = Promise.resolve();
    }
    self.postMessage({ type: 'ready' });
    return;
  }
  if (m.type === 'pdb') {
    await ready;
    if (!tables) {
      installPdb4x4(new Uint8Array(m.pdb));
      tables = Promise.resolve();
    }
    return;
  }
  if (m.type !== 'job') return;
  let result;
  try {
    await ready;
    const job = JSON.parse(m.job);
    if (job.pdb4x4) await ensureTables();
    result = runJob(m.job);
    // The job could not know (the board's core may hold the tables itself): install, run again.
    if (result.includes(TABLES_MISSING)) {
      const r = JSON.parse(result);
      if (r.error && r.error.code === 'unsupported' && String(r.error.message).includes(TABLES_MISSING)) {
        await ensureTables();
        result = runJob(m.job);
      }
    }
  } catch (err) {
    result = fail('internal', `the search worker: ${(err && err.message) || err}`);
  }
  self.postMessage({ type: 'done', id: m.id, result });
};
