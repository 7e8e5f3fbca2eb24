// The per-board input queue: every tap, key press, swipe, pad press, undo/redo/restart and new
// game becomes one job, run one at a time in the order the player made them. A tap made while
// the last move's IPC is in flight waits its turn instead of being dropped.

/** Jobs waiting at most (more is a stuck finger or a stuck back end, not a player). */
const MAX_WAITING = 16;

export class InputQueue {
  /** `alive()`: false once the screen is gone (the rest is then dropped). */
  constructor(alive, onError) {
    this.alive = alive;
    this.onError = onError;
    this.jobs = [];
    this.running = false;
  }

  /** Queue `job` (an async function); resolves to its result, false when dropped. */
  push(job) {
    if (this.jobs.length >= MAX_WAITING) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.jobs.push({ job, resolve });
      this.run();
    });
  }

  async run() {
    if (this.running) return;
    this.running = true;
    try {
      while (this.jobs.length && this.alive()) {
        const { job, resolve } = this.jobs.shift();
        let result = false;
        try {
          result = await job();
        } catch (e) {
          this.onError(e);
        }
        resolve(result);
      }
    } finally {
      this.running = false;
    }
    this.drop();
  }

  /** Forget every waiting job (the game ended, the screen went). */
  drop() {
    for (const { resolve } of this.jobs.splice(0)) resolve(false);
  }

  /** Jobs waiting or running (the E2E tests read it). */
  get size() {
    return this.jobs.length + (this.running ? 1 : 0);
  }
}
