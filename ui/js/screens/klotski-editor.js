// The Klotski layout editor, reached from Klotski's levels. The player picks a
// piece (曹操, an upright or a lying general, a soldier) and taps a cell of the 4×5 board to
// place it, or drags it from the tray onto the board; a tap on a placed piece removes it, a
// drag moves it (off the board: removes it). Every change is checked by Rust
// (`klotski_check`): a placement Rust refuses (off the board, on another piece) does not
// happen; otherwise the line under the board says at once what Rust says — what is missing,
// or solvable and its optimum, or no solution. Play opens the layout (`open_game
// {id: "klotski:<board>"}`), Share makes its share code (`encode_code`). The page never
// decides legality: it only draws what it placed and what Rust answered.

import { call } from '../ipc.js';
import { h, icon } from '../dom.js';
import { t, language } from '../i18n.js';
import { feedback, announce, toast, hideToast } from '../feedback.js';
import { Grid, TAP_PX, trackPointer } from '../boards/common.js';
import { BackScreen } from '../nav.js';

/** The editor's board (the engine's `klotski::layout`: 4 wide, 5 tall). */
const COLS = 4;
const ROWS = 5;

/** The pieces the tray offers: Rust's shape names, their size (rows × cols) and look. */
const SHAPES = {
  cao: { h: 2, w: 2, look: 'C' },
  vertical: { h: 2, w: 1, look: 'v' },
  horizontal: { h: 1, w: 2, look: 'h' },
  soldier: { h: 1, w: 1, look: 's' },
};
const TOOLS = ['cao', 'vertical', 'horizontal', 'soldier'];

/** Rust's placement refusals: the piece cannot stand there, so it is not placed. */
const REFUSED = ['out_of_bounds', 'overlap'];

/** The glyph on a placed piece, by shape (as the game board draws pieces without names). */
const GLYPH = { cao: '曹', vertical: '将', horizontal: '将', soldier: '兵' };
/** The game's short names of the shapes (`pieceShort.*`: "General", "Soldier" in English). */
const SHORT = { cao: 'C', vertical: 'v', horizontal: 'h', soldier: 's' };

/**
 * A piece's face: the glyph in Chinese, the game's English word (class `latin`) in English;
 * a piece of a classic layout wears the name its game board gives it (`named`, from Rust's
 * `names`: 关羽 / Guan Yu, the tall generals' names stacked as on the board).
 */
function face(shape, named) {
  const en = language() === 'en';
  if (named && shape !== 'soldier') {
    if (en) return h('span', { class: 'glyph latin' }, named.name_en);
    return h('span', { class: `glyph${shape === 'vertical' ? ' vertical' : ''}` }, named.name_zh);
  }
  return h('span', { class: `glyph${en ? ' latin' : ''}` }, en ? t(`pieceShort.${SHORT[shape]}`) : GLYPH[shape]);
}

export class KlotskiEditorScreen extends BackScreen {
  constructor(app) {
    super(app, 'klotski-editor');
    // The layout survives a trip to the game and back (the app object outlives screens).
    const kept = app.klotskiEditor || { pieces: [], tool: 'cao' };
    app.klotskiEditor = kept;
    this.kept = kept;
    this.result = null;
    this.seq = 0;
    this.chain = Promise.resolve();
    this.drag = null;
    this.els = [];
  }

  get pieces() {
    return this.kept.pieces;
  }

  render() {
    if (this.grid) this.grid.destroy();
    if (this.untrack) this.untrack();
    this.grid = new Grid(COLS, ROWS, 'klotski-grid editor-grid');
    this.cells = [];
    for (let r = 0; r < ROWS; r++) {
      for (let c = 0; c < COLS; c++) {
        const cell = h('button', {
          class: 'editor-cell',
          type: 'button',
          'data-cell': `${r},${c}`,
          'aria-label': t('editor.cell', { row: r + 1, col: c + 1 }),
          onclick: (e) => e.detail === 0 && this.enqueue(() => this.placeAt(r, c)),
        });
        this.cells.push({ el: cell, r, c });
        this.grid.el.append(cell);
      }
    }
    this.pieceLayer = h('div', { class: 'editor-pieces' });
    this.grid.el.append(this.pieceLayer);
    this.grid.onResize(() => this.layout());
    this.exitEl = h('div', { class: 'exit', 'aria-hidden': 'true' });
    this.boardEl = h(
      'div',
      { class: 'board klotski-frame editor-board', 'data-editor-board': '1', role: 'group', 'aria-label': t('label.board.klotski') },
      this.grid.el,
      this.exitEl,
    );
    this.boardEl.style.setProperty('--aspect', String(COLS / ROWS));

    this.statusEl = h('p', { class: 'editor-status', 'data-editor-status': '', role: 'status', 'aria-live': 'polite' });
    this.toolEls = TOOLS.map((tool) =>
      h(
        'button',
        {
          class: 'editor-tool',
          type: 'button',
          'data-tool': tool,
          'aria-pressed': 'false',
          onclick: (e) => e.detail === 0 && this.pick(tool),
        },
        miniPiece(tool),
        h('span', { class: 'editor-tool-name' }, t(`editor.tool.${tool}`)),
      ),
    );
    this.trayEl = h('div', { class: 'editor-tray', role: 'group', 'aria-label': t('editor.tools') }, this.toolEls);

    this.playBtn = h('button', { class: 'btn primary editor-play', type: 'button', 'data-action': 'editor-play', disabled: true, onclick: () => this.play() }, icon('solve'), t('editor.play'));
    this.shareBtn = h('button', { class: 'btn editor-share-btn', type: 'button', 'data-action': 'editor-share', disabled: true, onclick: () => this.share() }, icon('share'), t('editor.share'));
    this.clearBtn = h('button', { class: 'btn ghost editor-clear', type: 'button', 'data-action': 'editor-clear', onclick: () => this.enqueue(() => this.clearAll()) }, t('editor.clear'));
    this.codeEl = h('output', { class: 'editor-code', 'data-share-code': '' });
    this.sharePanel = h(
      'div',
      { class: 'editor-share', hidden: true },
      h('p', { class: 'editor-share-title' }, t('editor.shareTitle')),
      this.codeEl,
      h('p', { class: 'help' }, t('editor.shareHelp')),
    );
    const actions = h('div', { class: 'editor-actions' }, this.clearBtn, this.shareBtn, this.playBtn);

    const header = h(
      'header',
      { class: 'bar' },
      h('button', { class: 'icon-btn', type: 'button', 'aria-label': t('back'), 'data-action': 'back', onclick: () => this.app.back() }, icon('back')),
      h('div', { class: 'bar-title' }, h('h1', { class: 'title', tabindex: '-1' }, t('editor.title')), h('p', { class: 'subtitle' }, t('editor.subtitle'))),
      h('span', { class: 'icon-btn-spacer' }),
    );
    this.el = h(
      'section',
      { class: 'screen klotski-editor-screen' },
      header,
      h('div', { class: 'editor-stage' }, h('p', { class: 'editor-help' }, t('editor.help')), this.boardEl),
      h('div', { class: 'editor-controls' }, this.statusEl, this.sharePanel, this.trayEl, actions),
    );
    this.untrack = trackPointer(this.el, {
      down: (e) => this.down(e),
      move: (e) => this.move(e),
      up: (e) => this.up(e),
      cancel: () => this.cancelDrag(),
    });
    this.drawPieces();
    this.showTool();
    this.showResult();
    return this.el;
  }

  mounted() {
    this.grid.measure();
    this.layout();
    this.enqueue(() => this.recheck());
  }

  // ---- state changes, one at a time, each checked by Rust ----

  /** Run `f` after the changes before it (taps and drops are applied in the order made). */
  enqueue(f) {
    const run = this.chain.then(() => (this.app.screen === this ? f() : null));
    this.chain = run.catch((e) => this.app.error(e));
    return run;
  }

  check(pieces) {
    return call('klotski_check', { board: pieces.map((p) => ({ shape: p.shape, row: p.row, col: p.col })) });
  }

  async recheck() {
    this.pending();
    const r = await this.check(this.pieces);
    this.result = r;
    this.showResult();
  }

  /**
   * Try the layout `next`: Rust's answer either refuses it (a piece off the board or on
   * another: nothing changes) or is the new layout's verdict. Resolves true when taken.
   */
  async propose(next, { quiet = false } = {}) {
    this.pending();
    const r = await this.check(next);
    if (r.error && REFUSED.includes(r.error.code)) {
      this.showResult();
      if (!quiet) this.refuse(r.error);
      return false;
    }
    this.kept.pieces = next;
    this.result = r;
    this.hideShare();
    this.drawPieces();
    this.showResult();
    return true;
  }

  async clearAll() {
    const ok = await this.propose([]);
    if (ok) this.pick('cao');
  }

  refuse(error) {
    feedback('blocked');
    const text = t(`editor.err.${error.code}`);
    toast(text);
    this.boardEl.classList.remove('refused');
    void this.boardEl.offsetWidth;
    this.boardEl.classList.add('refused');
  }

  /**
   * Place the chosen piece so that it covers cell (r, c): its top-left there first, then the
   * other anchors that also cover the cell (a lying general tapped in the last column sits
   * one to the left). Rust judges each; the first it takes is kept.
   */
  async placeAt(r, c, tool = this.kept.tool) {
    const s = SHAPES[tool];
    const tries = [];
    for (let dr = 0; dr < s.h; dr++) for (let dc = 0; dc < s.w; dc++) tries.push([r - dr, c - dc]);
    let first = null;
    for (const [row, col] of tries) {
      const next = this.pieces.concat([{ shape: tool, row, col }]);
      this.pending();
      const res = await this.check(next);
      if (res.error && REFUSED.includes(res.error.code)) {
        first = first || res.error;
        continue;
      }
      this.kept.pieces = next;
      this.result = res;
      this.afterPlace(tool);
      return true;
    }
    this.showResult();
    if (first) this.refuse(first);
    return false;
  }

  afterPlace(tool) {
    feedback('tap');
    announce(t('editor.placedAnnounce', { name: t(`editor.tool.${tool}`) }));
    // One 曹操 per layout: after placing him, the tray moves on to the generals.
    if (tool === 'cao') this.pick('vertical');
    this.hideShare();
    this.drawPieces();
    this.showResult();
  }

  /** Remove the placed piece `p` (the object, so that taps made in a row each mean theirs). */
  async remove(p) {
    if (!this.pieces.includes(p)) return;
    const ok = await this.propose(this.pieces.filter((q) => q !== p));
    if (ok) announce(t('editor.removed', { name: t(`editor.tool.${p.shape}`) }));
  }

  async moveTo(p, row, col) {
    if (!this.pieces.includes(p)) return;
    const next = this.pieces.map((q) => (q === p ? { ...q, row, col } : q));
    const ok = await this.propose(next);
    if (!ok) this.layout();
  }

  pick(tool) {
    this.kept.tool = tool;
    this.showTool();
  }

  // ---- drawing ----

  showTool() {
    for (const el of this.toolEls || []) el.setAttribute('aria-pressed', String(el.dataset.tool === this.kept.tool));
  }

  drawPieces() {
    this.pieceLayer.replaceChildren();
    this.els = this.pieces.map((p, i) => {
      const s = SHAPES[p.shape];
      const el = h(
        'button',
        {
          class: `piece piece-${s.look} editor-piece`,
          type: 'button',
          'data-placed': String(i),
          'data-shape': p.shape,
          'data-at': `${p.row},${p.col}`,
          'data-named': '',
          'aria-label': t('editor.placed', { name: t(`editor.tool.${p.shape}`), row: p.row + 1, col: p.col + 1 }),
          onclick: (e) => e.detail === 0 && this.enqueue(() => this.remove(p)),
          onkeydown: (e) => {
            if (e.key === 'Delete' || e.key === 'Backspace') {
              e.preventDefault();
              this.enqueue(() => this.remove(p));
            }
          },
        },
        h('span', { class: 'face', 'aria-hidden': 'true' }, face(p.shape)),
      );
      this.pieceLayer.append(el);
      return el;
    });
    this.layout();
  }

  /** The placed pieces' faces: a classic's by name (Rust's `names`, by cell), else by kind. */
  nameFaces() {
    const r = this.result;
    const names = (r && r.valid && Array.isArray(r.names) && r.names) || [];
    this.pieces.forEach((p, i) => {
      const el = this.els[i];
      if (!el || el.dataset.shape !== p.shape) return;
      const named = names.find((n) => n.row === p.row && n.col === p.col) || null;
      const key = named ? named.name_zh : '';
      if (el.dataset.named === key) return;
      el.dataset.named = key;
      el.querySelector('.face').replaceChildren(face(p.shape, named));
    });
  }

  layout() {
    const cell = this.grid && this.grid.cell;
    if (!cell) return;
    this.pieces.forEach((p, i) => {
      const el = this.els[i];
      if (!el) return;
      const s = SHAPES[p.shape];
      el.style.width = `${s.w * cell}px`;
      el.style.height = `${s.h * cell}px`;
      el.style.transform = `translate3d(${p.col * cell}px, ${p.row * cell}px, 0)`;
    });
    for (const { el, r, c } of this.cells) {
      el.style.width = `${cell}px`;
      el.style.height = `${cell}px`;
      el.style.transform = `translate3d(${c * cell}px, ${r * cell}px, 0)`;
    }
    this.exitEl.style.width = `${2 * cell}px`;
    this.exitEl.style.transform = `translateX(${cell}px)`;
  }

  pending() {
    this.seq += 1;
    this.statusEl.dataset.checking = '1';
  }

  /** The line under the board: Rust's verdict, in the player's words. */
  showResult() {
    const r = this.result;
    const el = this.statusEl;
    delete el.dataset.checking;
    // A refusal's notice is about the layout before this verdict: it goes.
    hideToast();
    this.nameFaces();
    if (!r) {
      el.textContent = t('editor.checking');
      return;
    }
    el.dataset.valid = String(!!r.valid);
    el.dataset.solvable = r.solvable === true ? 'true' : r.solvable === false ? 'false' : '';
    el.dataset.optimal = r.optimal === null || r.optimal === undefined ? '' : String(r.optimal);
    el.dataset.error = r.error ? r.error.code : '';
    el.classList.toggle('ok', r.valid && r.solvable === true);
    el.classList.toggle('bad', r.valid && r.solvable === false);
    let text;
    if (!r.valid) {
      const e = r.error || {};
      if (e.code === 'empty_cells') text = t(Number(e.empty) > 2 ? 'editor.err.more' : 'editor.err.less', { n: e.empty });
      else {
        const key = `editor.err.${e.code}`;
        text = t(key);
        if (text === key) text = t('editor.err.other', { message: e.message || '' });
      }
    } else if (r.solvable) {
      text = t('editor.solvable', { n: r.optimal });
      if (r.classic) text += ` · ${t('editor.classic', { name: language() === 'en' ? r.classic.name_en : r.classic.name_zh })}`;
    } else {
      text = t('editor.unsolvable');
    }
    el.textContent = text;
    const playable = !!(r.valid && r.solvable && r.id);
    this.playBtn.disabled = !playable;
    this.shareBtn.disabled = !playable;
    this.boardEl.dataset.valid = String(!!r.valid);
    if (r.id) this.boardEl.dataset.id = r.id;
    else delete this.boardEl.dataset.id;
  }

  hideShare() {
    this.sharePanel.hidden = true;
    this.codeEl.textContent = '';
  }

  // ---- play and share ----

  async play() {
    const r = this.result;
    if (!r || !r.valid || !r.solvable || !r.id) return;
    try {
      const view = await this.app.confirmed('open_game', { id: r.id, origin: 'editor' });
      if (view) await this.app.go(`game:${view.snapshot.kind}`, { view });
    } catch (e) {
      this.app.error(e);
    }
  }

  async share() {
    const r = this.result;
    if (!r || !r.valid || !r.solvable || !r.id) return;
    this.shareBtn.disabled = true;
    try {
      const info = await call('encode_code', { id: r.id });
      this.codeEl.textContent = info.code;
      this.codeEl.dataset.link = info.link;
      this.sharePanel.hidden = false;
      // The link on the clipboard where the platform lets the page write it (said only then).
      const copied = navigator.clipboard && navigator.clipboard.writeText ? await navigator.clipboard.writeText(info.link).then(() => true, () => false) : false;
      if (copied) toast(t('editor.copied'));
    } catch (e) {
      this.app.error(e);
    } finally {
      this.shareBtn.disabled = false;
    }
  }

  // ---- touch: tap a tool, tap a cell, tap a piece, drag a tool or a piece ----

  down(e) {
    if (this.app.modal) return false;
    const target = e.target.closest && e.target.closest('[data-tool],[data-placed],[data-cell]');
    if (!target || !this.el.contains(target)) return false;
    const d = { x0: e.clientX, y0: e.clientY, moved: false, x: e.clientX, y: e.clientY };
    if (target.dataset.tool) {
      d.tool = target.dataset.tool;
    } else if (target.dataset.placed !== undefined) {
      const p = this.pieces[Number(target.dataset.placed)];
      if (!p) return false;
      d.piece = p;
      const g = this.grid.el.getBoundingClientRect();
      const cell = this.grid.cell;
      // Where in the piece the finger holds it, in cells.
      d.grab = { x: (e.clientX - g.left) / cell - p.col, y: (e.clientY - g.top) / cell - p.row };
      d.el = target;
    } else {
      const [r, c] = target.dataset.cell.split(',').map(Number);
      d.cell = { r, c };
    }
    this.drag = d;
    return true;
  }

  move(e) {
    const d = this.drag;
    if (!d) return;
    d.x = e.clientX;
    d.y = e.clientY;
    if (!d.moved && Math.hypot(d.x - d.x0, d.y - d.y0) > TAP_PX) {
      d.moved = true;
      if (d.tool) d.ghost = this.ghost(d.tool);
      if (d.el) d.el.classList.add('dragging', 'instant');
    }
    if (!d.moved) return;
    const cell = this.grid.cell;
    const g = this.grid.el.getBoundingClientRect();
    if (d.ghost) {
      const s = SHAPES[d.tool];
      d.ghost.style.transform = `translate3d(${d.x - (s.w * cell) / 2}px, ${d.y - (s.h * cell) / 2}px, 0)`;
    } else if (d.el) {
      d.el.style.transform = `translate3d(${d.x - g.left - d.grab.x * cell}px, ${d.y - g.top - d.grab.y * cell}px, 0)`;
    }
  }

  /** A piece of `tool`'s shape under the finger while it is dragged from the tray. */
  ghost(tool) {
    const s = SHAPES[tool];
    const cell = this.grid.cell;
    const el = h('div', { class: `piece piece-${s.look} editor-ghost`, 'aria-hidden': 'true' }, h('span', { class: 'face' }, face(tool)));
    el.style.setProperty('--cell', `${cell}px`);
    el.style.width = `${s.w * cell}px`;
    el.style.height = `${s.h * cell}px`;
    this.el.append(el);
    return el;
  }

  /** The top-left cell a dragged piece of size `s` lands on, or null when dropped off the board. */
  landing(d, s, grab) {
    const g = this.grid.el.getBoundingClientRect();
    const cell = this.grid.cell;
    const margin = cell * 0.5;
    if (d.x < g.left - margin || d.x > g.right + margin || d.y < g.top - margin || d.y > g.bottom + margin) return null;
    return { row: Math.round((d.y - g.top) / cell - grab.y), col: Math.round((d.x - g.left) / cell - grab.x) };
  }

  up() {
    const d = this.drag;
    this.drag = null;
    if (!d) return;
    if (d.ghost) d.ghost.remove();
    if (d.el) d.el.classList.remove('dragging', 'instant');
    if (d.tool) {
      if (!d.moved) return this.pick(d.tool);
      const s = SHAPES[d.tool];
      const at = this.landing(d, s, { x: s.w / 2, y: s.h / 2 });
      if (!at) return;
      this.pick(d.tool);
      return this.enqueue(() => this.dropNew(d.tool, at));
    }
    if (d.piece) {
      const p = d.piece;
      if (!d.moved) return this.enqueue(() => this.remove(p));
      const at = this.landing(d, SHAPES[p.shape], d.grab);
      if (!at) return this.enqueue(() => this.remove(p));
      if (at.row === p.row && at.col === p.col) return this.layout();
      return this.enqueue(() => this.moveTo(p, at.row, at.col));
    }
    if (d.cell && !d.moved) return this.enqueue(() => this.placeAt(d.cell.r, d.cell.c));
    return undefined;
  }

  async dropNew(tool, at) {
    const next = this.pieces.concat([{ shape: tool, row: at.row, col: at.col }]);
    this.pending();
    const res = await this.check(next);
    if (res.error && REFUSED.includes(res.error.code)) {
      this.showResult();
      this.refuse(res.error);
      return false;
    }
    this.kept.pieces = next;
    this.result = res;
    this.afterPlace(tool);
    return true;
  }

  cancelDrag() {
    const d = this.drag;
    this.drag = null;
    if (!d) return;
    if (d.ghost) d.ghost.remove();
    if (d.el) d.el.classList.remove('dragging');
    this.layout();
  }

  destroy() {
    if (this.grid) this.grid.destroy();
    if (this.untrack) this.untrack();
    this.untrack = null;
  }
}

/** The tray's picture of a piece: its cells in its colours. */
function miniPiece(tool) {
  const s = SHAPES[tool];
  const el = h('span', { class: `editor-mini mini-${tool}`, 'aria-hidden': 'true' });
  el.append(h('span', { class: `editor-mini-face piece-${s.look}` }));
  return el;
}
