// What the page says under the choice of word list: which list it is (or why the learned vectors
// could not come), and, with learned vectors under self-attention, that each word weighs itself
// most (its vector is most like itself, which hides which other word it is most like), with one
// button that masks each word from itself, or shows it again.
import { h, setText } from './dom';
import { t } from '../i18n';
import type { State } from '../state/state';
import { hideSelf, hidesSelf } from '../state/edits';
import type { Words } from '../model/compute';

export class LearnedNotes {
  private readonly status = h('p', { class: 'hint lexicon-note', attrs: { role: 'status' } });
  private readonly text = h('span');
  private readonly button = h('button', { class: 'btn small', attrs: { type: 'button', 'data-action': 'hide-self' } });
  private readonly self = h('p', { class: 'hint self-note' }, this.text, ' ', this.button);
  readonly els = [this.status, this.self];
  private toggle: () => void = () => undefined;

  constructor(private readonly set: (patch: Partial<State>) => void) {
    this.button.addEventListener('click', () => this.toggle());
  }

  /** What the chosen word list is, or why it could not come. */
  message(text: string, error: boolean): void {
    if (this.status.textContent !== text) this.status.textContent = text;
    this.status.classList.toggle('error', error);
    this.status.hidden = !text;
  }

  update(s: State, words: Words | null): void {
    this.self.hidden = !(words && s.lexicon === 'learned' && s.setup === 'self');
    if (!words || this.self.hidden) return;
    const n = words.tokens.length,
      hiding = hidesSelf(s, n);
    setText(this.text, t(hiding ? 'learned.selfHidden' : 'learned.selfMost'));
    setText(this.button, t(hiding ? 'learned.showSelf' : 'learned.hideSelf'));
    this.toggle = () => this.set(hiding ? { mask: 'none', hidden: [] } : hideSelf(n));
  }
}
