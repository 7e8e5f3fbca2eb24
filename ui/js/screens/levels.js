// Level select: what the game's descriptor lists (Klotski classics, number-slide sizes with
// difficulties, 2048's new game). Starting one goes through `new_game` / `open_game`, which
// ask before replacing an unfinished game.

import { call } from '../ipc.js';
import { h, icon } from '../dom.js';
import { t } from '../i18n.js';
import { gameOf } from '../boards/index.js';
import { BackScreen } from '../nav.js';
import { loadLevels } from './records.js';

export class LevelsScreen extends BackScreen {
  constructor(app, kind) {
    super(app);
    this.kind = kind;
    this.game = gameOf(kind);
    this.name = `levels:${kind}`;
    this.list = [];
  }

  async prepare() {
    await this.app.refreshProgress();
    if (this.app.levels) delete this.app.levels[this.kind];
    this.list = await loadLevels(this.app, this.kind);
    return true;
  }

  async start(params, extra = {}) {
    await this.launch('new_game', { kind: this.kind, params, ...extra });
  }

  async openLevel(level) {
    await this.launch('open_game', { id: level.id });
  }

  async launch(cmd, args) {
    try {
      const view = await this.app.confirmed(cmd, args);
      if (view) await this.app.go(`game:${view.snapshot.kind}`, { view });
    } catch (e) {
      this.app.error(e);
    }
  }

  render() {
    const header = h(
      'header',
      { class: 'bar' },
      h('button', { class: 'icon-btn', type: 'button', 'aria-label': t('back'), 'data-action': 'back', onclick: () => this.app.back() }, icon('back')),
      h('div', { class: 'bar-title' }, h('h1', { class: 'title', tabindex: '-1' }, t(`game.${this.kind}`)), h('p', { class: 'subtitle' }, t(`levels.${this.kind}`))),
      h('span', { class: 'icon-btn-spacer' }),
    );
    return h('section', { class: `screen levels-screen levels-${this.kind}` }, header, h('div', { class: 'scroll' }, this.game.levelList(this)));
  }
}
