// The only way the UI talks to the app: Tauri commands (see ARCHITECTURE.md, "IPC contract").
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

export function available() {
  return !!(tauri && tauri.core && typeof tauri.core.invoke === 'function');
}

export async function call(cmd, args = {}) {
  if (!available()) throw new AppError('no_backend', 'The Tauri back end is not available');
  const t0 = performance.now();
  try {
    return await tauri.core.invoke(cmd, args);
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
