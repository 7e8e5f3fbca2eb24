// Play without looking: the board as a grid a screen reader walks cell by cell (roving
// tabindex, arrow keys between cells, Enter / Space / a click activates a cell), and a toolbar
// of questions about the board, each one action. The board modules fill in the words; moves go
// through the board's own `ctx.play`, as a tap does.

import { h } from './dom.js';
import { t, language, addStrings } from './i18n.js';
import { announce } from './feedback.js';
import { strings } from './a11y.strings.js';

addStrings(strings);

const STEP = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/**
 * A `role=grid` of `cols` × `rows` cells laid over the drawn board (css/a11y.css: it takes no
 * pointer, so touch and drag reach the board under it). `activate(r, c)` runs on Enter, Space
 * or a click (a screen reader's default action). The drawn board is hidden from assistive
 * technology (`hideDrawn`): the grid is its one reading.
 */
export class AccessGrid {
  constructor(label, activate) {
    this.activate = activate;
    this.r = 0;
    this.c = 0;
    this.cells = [];
    this.el = h('div', { class: 'a11y-grid', role: 'grid', 'aria-label': label });
    this.el.addEventListener('keydown', (e) => this.onKey(e));
    this.el.addEventListener('click', (e) => {
      const cell = e.target.closest && e.target.closest('[role="gridcell"]');
      if (!cell) return;
      e.stopPropagation();
      this.focus(Number(cell.dataset.r), Number(cell.dataset.c), false);
      this.activate(this.r, this.c);
    });
    this.el.addEventListener('focusin', (e) => {
      const cell = e.target.closest && e.target.closest('[role="gridcell"]');
      if (cell) this.rove(Number(cell.dataset.r), Number(cell.dataset.c));
    });
  }

  /** (Re)build the rows and cells for a `cols` × `rows` board. */
  size(cols, rows) {
    if (this.cols === cols && this.rows === rows) return;
    this.cols = cols;
    this.rows = rows;
    this.el.style.setProperty('--cols', String(cols));
    this.el.style.setProperty('--rows', String(rows));
    this.cells = [];
    const rowEls = [];
    for (let r = 0; r < rows; r++) {
      const cells = [];
      for (let c = 0; c < cols; c++) {
        const cell = h('div', { class: 'a11y-cell', role: 'gridcell', tabindex: '-1', 'data-r': String(r), 'data-c': String(c) });
        this.cells.push(cell);
        cells.push(cell);
      }
      rowEls.push(h('div', { class: 'a11y-row', role: 'row' }, cells));
    }
    this.el.replaceChildren(...rowEls);
    this.r = Math.min(this.r, rows - 1);
    this.c = Math.min(this.c, cols - 1);
    this.rove(this.r, this.c);
  }

  /** Name the cell at (r, c); `data` are kept on it (`data-*`, for the tests and styles). */
  label(r, c, text, data = {}) {
    const cell = this.cells[r * this.cols + c];
    if (!cell) return;
    if (cell.getAttribute('aria-label') !== text) cell.setAttribute('aria-label', text);
    for (const [k, v] of Object.entries(data)) if (cell.dataset[k] !== String(v)) cell.dataset[k] = String(v);
  }

  /** The one cell in the tab order. */
  rove(r, c) {
    const prev = this.cells[this.r * this.cols + this.c];
    if (prev) prev.tabIndex = -1;
    this.r = r;
    this.c = c;
    const cell = this.cells[r * this.cols + c];
    if (cell) cell.tabIndex = 0;
    return cell;
  }

  focus(r, c, move = true) {
    const cell = this.rove(r, c);
    if (cell && move) cell.focus({ preventScroll: true });
  }

  onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const step = STEP[e.key];
    let r = this.r;
    let c = this.c;
    if (step) {
      r = Math.max(0, Math.min(this.rows - 1, r + step[0]));
      c = Math.max(0, Math.min(this.cols - 1, c + step[1]));
    } else if (e.key === 'Home') c = 0;
    else if (e.key === 'End') c = this.cols - 1;
    else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      e.stopPropagation();
      this.activate(this.r, this.c);
      return;
    } else return;
    e.preventDefault();
    e.stopPropagation();
    this.focus(r, c);
  }
}

/** The drawn board's pieces leave the accessibility tree (and the tab order). */
export function hideDrawn(el) {
  el.setAttribute('aria-hidden', 'true');
  el.removeAttribute('role');
  if (el.tagName === 'BUTTON' || el.tabIndex >= 0) el.tabIndex = -1;
}

/** "row 2, column 3" (1-based). */
export function where(r, c) {
  return t('a11y.where', { row: r + 1, col: c + 1 });
}

/** A list in the language's way: "a, b and c" is kept simple as "a, b, c". */
export function list(items) {
  return items.join(language() === 'en' ? ', ' : '、');
}

/** Sentences of one announcement: "7 left; row 1 done". */
export function sentences(parts) {
  return parts.filter(Boolean).join(language() === 'en' ? '; ' : '；');
}

/** A number in the language's way (1,240). */
export function num(n) {
  return Number(n).toLocaleString(t('locale'));
}

/** Words for a step of (dr, dc) cells: "down 1", "down 1, right 1". */
export function stepWords(dr, dc) {
  const parts = [];
  if (dr) parts.push(t('a11y.step', { dir: t(`a11y.dir.${dr > 0 ? 'down' : 'up'}`), n: Math.abs(dr) }));
  if (dc) parts.push(t('a11y.step', { dir: t(`a11y.dir.${dc > 0 ? 'right' : 'left'}`), n: Math.abs(dc) }));
  return parts.join(language() === 'en' ? ', ' : '，');
}

/**
 * The screen reader's toolbar under the board: visually hidden until something in it has the
 * focus (css/a11y.css). `items`: `{ label, run }` buttons (each says its answer through the
 * live region), or `{ field: label, run(value) }` a number field answered on Enter.
 */
export function toolbar(items) {
  const bar = h('div', { class: 'a11y-tools', role: 'group', 'aria-label': t('a11y.tools') });
  for (const it of items) {
    if (it.field) {
      const input = h('input', { class: 'a11y-field', type: 'number', min: '0', inputmode: 'numeric', 'aria-label': it.field, 'data-a11y': it.id });
      input.addEventListener('keydown', (e) => {
        if (e.key !== 'Enter') return;
        e.preventDefault();
        e.stopPropagation();
        const said = it.run(input.value.trim());
        if (said) announce(said);
      });
      // Typing digits must not reach the game's keys (n = new game…).
      input.addEventListener('keydown', (e) => e.stopPropagation());
      bar.append(h('label', { class: 'a11y-label' }, input));
    } else {
      bar.append(
        h('button', {
          class: 'a11y-btn',
          type: 'button',
          'data-a11y': it.id,
          onclick: () => {
            const said = it.run();
            if (typeof said === 'string' && said) announce(said);
          },
        }, it.label),
      );
    }
  }
  return bar;
}
