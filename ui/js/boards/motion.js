// Klotski motion. A drag follows the finger along the graph of the cells the piece can reach
// (around corners, never through a piece). Any other move goes along its path, cell by cell, so it never passes through
// another piece in any frame (taps, undo, redo, hints, auto-solve). The path comes from Rust
// (the move's `effect.path`); a view without one (undo/redo) gets a shortest path found here
// over the free cells of the new board — for the animation only, legality is Rust's.

export const cellKey = (r, c) => `${r},${c}`;
const key = cellKey;

const MS_PER_CELL = 85;
const MAX_MS = 520;

/** [r, c] or {r, c} → [r, c]. */
function rc(p) {
  if (Array.isArray(p)) return [Number(p[0]), Number(p[1])];
  return [Number(p.r), Number(p.c)];
}

/** The corner points of a path from `from` through `path` (cells of the top-left corner). */
export function pathPoints(from, path, to) {
  const pts = [rc(from), ...(path || []).map(rc), rc(to)];
  const out = [];
  for (const p of pts) {
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  return out;
}

/**
 * A shortest unit-step path of `piece` (w × h) from `from` to `to` on a board of `cols` × `rows`
 * whose other pieces and walls are `blocked(r, c)`; null if there is none.
 */
export function findPath(piece, from, to, cols, rows, blocked) {
  const fits = (r, c) => {
    if (r < 0 || c < 0 || r + piece.h > rows || c + piece.w > cols) return false;
    for (let dr = 0; dr < piece.h; dr++) for (let dc = 0; dc < piece.w; dc++) if (blocked(r + dr, c + dc)) return false;
    return true;
  };
  const key = (r, c) => r * cols + c;
  const prev = new Map([[key(from[0], from[1]), null]]);
  const queue = [from];
  for (let i = 0; i < queue.length && queue.length <= cols * rows; i++) {
    const [r, c] = queue[i];
    if (r === to[0] && c === to[1]) break;
    for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const n = [r + dr, c + dc];
      const k = key(n[0], n[1]);
      if (prev.has(k) || !fits(n[0], n[1])) continue;
      prev.set(k, [r, c]);
      queue.push(n);
    }
  }
  if (!prev.has(key(to[0], to[1]))) return null;
  const out = [];
  for (let p = to; p; p = prev.get(key(p[0], p[1]))) out.unshift(p);
  return out;
}

/**
 * Animate `el` through `points` ([r, c] each) at `cell` px per cell with the Web Animations
 * API; the element ends (style) at the last point. Resolves when done (or cancelled).
 */
export function animateAlong(el, points, cell) {
  const at = ([r, c]) => `translate3d(${c * cell}px, ${r * cell}px, 0)`;
  const end = at(points[points.length - 1]);
  el.style.transform = end;
  if (points.length < 2 || !el.animate) return Promise.resolve();
  let total = 0;
  const lengths = [0];
  for (let i = 1; i < points.length; i++) {
    total += Math.abs(points[i][0] - points[i - 1][0]) + Math.abs(points[i][1] - points[i - 1][1]);
    lengths.push(total);
  }
  const frames = points.map((p, i) => ({ transform: at(p), offset: total ? lengths[i] / total : i / (points.length - 1) }));
  el.classList.add('instant'); // no CSS transition under the path (it would cut the corner)
  const anim = el.animate(frames, { duration: Math.min(MAX_MS, 60 + total * MS_PER_CELL), easing: 'ease-in-out' });
  const token = {};
  el.huarongMotion = token;
  const done = () => {
    if (el.huarongMotion === token) el.classList.remove('instant');
  };
  return anim.finished.then(done, done);
}

/** Build the move graph: the start cell plus every reachable top-left cell, joined when adjacent. */
export function moveGraph(p, targets) {
  const nodes = new Map();
  nodes.set(key(p.r, p.c), { r: p.r, c: p.c });
  for (const tg of targets) {
    const to = tg.to || tg;
    nodes.set(key(to[0], to[1]), { r: to[0], c: to[1] });
  }
  const adj = new Map();
  for (const [k, n] of nodes) {
    const list = [];
    for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const nk = key(n.r + dr, n.c + dc);
      if (nodes.has(nk)) list.push(nk);
    }
    adj.set(k, list);
  }
  return { nodes, adj };
}

/**
 * Where a dragged piece goes when the finger is at `want` (cells): along the segments of its
 * move graph from `from` (on the segment at `anchor0`), one segment at a time, never jumping.
 */
export function followGraph(graph, from, anchor0, want) {
  const { nodes, adj } = graph;
  let cur = from;
  let anchor = anchor0;
  for (let iter = 0; iter < 24; iter++) {
    const a = nodes.get(anchor);
    let best = { dist: Math.hypot(want.x - cur.x, want.y - cur.y), pt: cur, anchor };
    const ends = [anchor];
    // If the point sits inside a segment, both of its ends count as anchors.
    for (const nk of adj.get(anchor)) {
      const n = nodes.get(nk);
      const onSeg = (n.r === a.r && Math.abs(cur.y - a.r) < 1e-6 && (cur.x - a.c) * (n.c - a.c) > 1e-6) ||
        (n.c === a.c && Math.abs(cur.x - a.c) < 1e-6 && (cur.y - a.r) * (n.r - a.r) > 1e-6);
      if (onSeg) ends.push(nk);
    }
    for (const ek of ends) {
      const e0 = nodes.get(ek);
      const cand = [{ x: e0.c, y: e0.r, k: ek }];
      for (const nk of adj.get(ek)) {
        const n = nodes.get(nk);
        // Project `want` onto the segment e0 → n.
        const vx = n.c - e0.c;
        const vy = n.r - e0.r;
        let tt = (want.x - e0.c) * vx + (want.y - e0.r) * vy;
        tt = Math.max(0, Math.min(1, tt));
        cand.push({ x: e0.c + vx * tt, y: e0.r + vy * tt, k: tt > 0.5 ? nk : ek });
      }
      for (const c of cand) {
        const dist = Math.hypot(want.x - c.x, want.y - c.y);
        if (dist < best.dist - 1e-9) best = { dist, pt: { x: c.x, y: c.y }, anchor: c.k };
      }
    }
    const moved = Math.abs(best.pt.x - cur.x) + Math.abs(best.pt.y - cur.y) > 1e-6 || best.anchor !== anchor;
    cur = best.pt;
    anchor = best.anchor;
    if (!moved) break;
  }
  return { cur, anchor };
}
