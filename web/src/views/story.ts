// The example's description above the figure. Its numbers are the example's own, so once the
// reader changes the example a note says so and offers to start it again.
import { h, setText } from './dom';
import { t } from '../i18n';

export class Story {
  readonly el: HTMLElement;
  private readonly text = h('p', { class: 'story' });
  private readonly changed: HTMLElement;
  /** What the text offers to do next (a sentence of the reader's: read it with a trained model). */
  private readonly action = h('button', { class: 'link-button story-action', attrs: { type: 'button' } });
  private run: () => void = () => undefined;

  constructor(restart: () => void) {
    const again = h('button', { class: 'link-button', text: t('preset.restart'), attrs: { type: 'button' } });
    again.addEventListener('click', restart);
    this.changed = h('p', { class: 'story-changed', attrs: { role: 'status' } }, t('preset.changed') + ' ', again);
    this.changed.hidden = true;
    // On a phone the text is cut to a few lines, so the figure comes into view; this opens it.
    const more = h('button', {
      class: 'link-button story-more',
      text: t('story.more'),
      attrs: { type: 'button', 'aria-expanded': 'false' },
    });
    more.addEventListener('click', () => {
      const open = this.el.classList.toggle('open');
      more.setAttribute('aria-expanded', String(open));
      setText(more, t(open ? 'story.less' : 'story.more'));
    });
    this.action.hidden = true;
    this.action.addEventListener('click', () => this.run());
    this.el = h('div', { class: 'story-box' }, this.text, more, this.action, this.changed);
  }

  /** `changed`: the figure is no longer the example the text describes; `action`, what it offers. */
  show(text: string, changed: boolean, action?: { label: string; run: () => void }): void {
    setText(this.text, text);
    this.changed.hidden = !changed;
    this.action.hidden = !action;
    if (action) {
      setText(this.action, action.label);
      this.run = action.run;
    }
  }
}
