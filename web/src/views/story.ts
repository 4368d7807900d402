// The example's description above the figure. Its numbers are the example's own, so once the
// reader changes the example a note says so and offers to start it again.
import { h, setText } from './dom';
import { t } from '../i18n';

export class Story {
  readonly el: HTMLElement;
  private readonly text = h('p', { class: 'story' });
  private readonly changed: HTMLElement;

  constructor(restart: () => void) {
    const again = h('button', { class: 'link-button', text: t('preset.restart'), attrs: { type: 'button' } });
    again.addEventListener('click', restart);
    this.changed = h('p', { class: 'story-changed', attrs: { role: 'status' } }, t('preset.changed') + ' ', again);
    this.changed.hidden = true;
    this.el = h('div', { class: 'story-box' }, this.text, this.changed);
  }

  /** `changed`: the figure is no longer the example the text describes. */
  show(text: string, changed: boolean): void {
    setText(this.text, text);
    this.changed.hidden = !changed;
  }
}
