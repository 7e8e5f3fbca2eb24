// Settings: language, theme, haptics, sound, the move-count rule of each game. Rust stores
// and validates them (get_settings / set_settings).

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { KINDS, gameOf } from '../boards/index.js';
import { BackScreen } from '../nav.js';
import { call } from '../ipc.js';
import { toast } from '../feedback.js';
import { moveSection } from './transfer.js';

// A counting rule's label is the string `rule.<name>` (a game with a new rule brings it in its
// strings file); `unit` predates that and keeps its key.
const ruleLabel = (r) => (r === 'unit' ? 'rule.cell' : `rule.${r}`);

export class SettingsScreen extends BackScreen {
  constructor(app) {
    super(app, 'settings');
  }

  group(id, label, options, current, onpick) {
    const name = `set-${id}`;
    return h(
      'fieldset',
      { class: 'setting', 'data-setting': id },
      h('legend', null, label),
      h(
        'div',
        { class: 'segmented' },
        options.map(([value, text]) => {
          const input = h('input', { type: 'radio', name, value, id: `${name}-${value}`, checked: value === current, onchange: () => onpick(value) });
          return h('label', { class: 'seg', for: `${name}-${value}`, 'data-value': value }, input, h('span', null, text));
        }),
      ),
    );
  }

  toggle(id, label, on, onflip) {
    const input = h('input', { type: 'checkbox', role: 'switch', id: `set-${id}`, checked: !!on, onchange: (e) => onflip(e.target.checked) });
    return h('div', { class: 'setting switch-row', 'data-setting': id }, h('label', { for: `set-${id}` }, label), input);
  }

  /** The display name result codes carry; Rust trims and checks it. */
  nameField(value) {
    const error = h('p', { class: 'form-error', role: 'alert', id: 'set-name-error' });
    const input = h('input', {
      type: 'text',
      id: 'set-name',
      class: 'name-input',
      maxlength: '16',
      value,
      autocomplete: 'nickname',
      spellcheck: 'false',
      placeholder: t('settings.namePlaceholder'),
      'aria-describedby': 'set-name-help set-name-error',
      'data-setting-input': 'name',
      onchange: async () => {
        error.textContent = '';
        try {
          const next = await call('set_settings', { settings: { name: input.value } });
          if (next) this.app.settings = next;
          input.value = (next && next.name) || '';
          toast(t('settings.nameSaved'));
        } catch (e) {
          error.textContent = e && e.message ? e.message : String(e);
        }
      },
    });
    return h(
      'div',
      { class: 'setting name-setting', 'data-setting': 'name' },
      h('label', { for: 'set-name', class: 'field-label' }, t('settings.name')),
      input,
      h('p', { class: 'help', id: 'set-name-help' }, t('settings.nameHelp')),
      error,
    );
  }

  render() {
    const app = this.app;
    const s = app.settings || {};
    const rules = s.rules || {};
    const lang = s.language === 'zh' || s.language === 'en' ? s.language : 'auto';
    const header = this.backBar(t('settings'));
    const body = h(
      'div',
      { class: 'scroll settings-list' },
      this.group('language', t('language'), [['auto', t('lang.system')], ['zh', t('lang.zh')], ['en', t('lang.en')]], lang, async (v) => {
        await app.saveSettings({ language: v });
        app.rerender();
      }),
      this.group('theme', t('theme'), [['system', t('theme.system')], ['light', t('theme.light')], ['dark', t('theme.dark')]], s.theme || 'system', (v) => app.saveSettings({ theme: v })),
      this.toggle('haptics', t('haptics'), s.haptics !== false, (v) => app.saveSettings({ haptics: v })),
      this.toggle('sound', t('sound'), !!s.sound, (v) => app.saveSettings({ sound: v })),
      this.toggle('pad', t('padSetting'), !!s.pad, (v) => app.saveSettings({ pad: v })),
      // The number slide's control: tap (and the run-drag), trail, or both.
      this.group('slide-control', t('slideControl'), [['tap', t('slideControl.tap')], ['trail', t('slideControl.trail')], ['both', t('slideControl.both')]], s.slide_control || 'both', (v) => app.saveSettings({ slide_control: v })),
      // Play without time pressure: no timer on the game screen.
      this.group('clock', t('clock'), [['on', t('clock.on')], ['off', t('clock.off')]], s.clock === 'off' ? 'off' : 'on', (v) => app.saveSettings({ clock: v })),
      this.nameField(s.name || ''),
      // Progress that moves to another device (export_progress / import_progress).
      moveSection(app),
      h(
        'section',
        { class: 'rules', 'aria-labelledby': 'rules-title' },
        h('h2', { id: 'rules-title', class: 'section-title' }, t('moveRule')),
        KINDS.filter((k) => gameOf(k).rules).map((kind) => [kind, gameOf(kind).rules]).map(([kind, list]) =>
          this.group(`rule-${kind}`, t(`rule.${kind}`), list.map((r) => [r, t(ruleLabel(r))]), rules[kind] || list[0], (v) => app.saveSettings({ rules: { ...rules, ...(app.settings.rules || {}), [kind]: v } })),
        ),
      ),
    );
    return h('section', { class: 'screen settings-screen' }, header, body);
  }
}
