// The page's header: the title, Undo and Redo, Share, the language switch and the presets.
import { h } from './dom';
import { t, language, LANGUAGES, type MessageKey } from '../i18n';
import { PRESETS, type PresetId } from '../state/state';

export interface HeaderParts {
  undo: HTMLElement;
  present: HTMLElement;
  share: HTMLElement;
  load(id: PresetId): void;
  switchLanguage(tag: string): void;
}

export class Header {
  readonly el: HTMLElement;
  private readonly presets = new Map<PresetId, HTMLButtonElement>();

  constructor(parts: HeaderParts) {
    const nav = h('nav', { class: 'presets', attrs: { 'aria-label': t('presets.label') } });
    for (const id of PRESETS) {
      const b = h('button', {
        class: 'chip',
        text: t(`preset.${id}.title` as MessageKey),
        attrs: { type: 'button', 'data-preset': id },
      });
      b.addEventListener('click', () => parts.load(id));
      this.presets.set(id, b);
      nav.append(b);
    }
    const languages = h('div', { class: 'languages', attrs: { role: 'group', 'aria-label': t('app.language') } });
    for (const l of LANGUAGES) {
      const b = h('button', {
        class: 'chip lang',
        text: l.name,
        attrs: { type: 'button', lang: l.tag, 'data-lang': l.tag, 'aria-pressed': String(l.tag === language()) },
      });
      b.addEventListener('click', () => parts.switchLanguage(l.tag));
      languages.append(b);
    }
    this.el = h(
      'header',
      { class: 'top' },
      h('div', { class: 'brand' }, h('h1', { text: t('app.title') }), h('p', { class: 'tagline', text: t('app.tagline') })),
      h('div', { class: 'top-right' }, h('div', { class: 'share-row' }, parts.undo, parts.present, parts.share, languages), nav),
    );
  }

  /** The preset the state names is pressed. */
  sync(preset: PresetId | ''): void {
    for (const [id, b] of this.presets) b.setAttribute('aria-pressed', String(preset === id));
  }
}

/**
 * A header's button that opens a lazy part: `which` is 'lesson' (the built-in lesson) or
 * 'learn' (the Learn view) or 'real' (the Real model view); its class and data attribute are
 * `<which>-open`.
 */
export function openButton(which: 'lesson' | 'learn' | 'real', open: () => void): HTMLButtonElement {
  const b = h('button', {
    class: `btn ${which}-open`,
    text: t(`${which}.open`),
    attrs: { type: 'button', [`data-${which}-open`]: '' },
  });
  b.addEventListener('click', open);
  return b;
}
