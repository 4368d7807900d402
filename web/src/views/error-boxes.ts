// The boxes where errors are shown, each next to the input it concerns; the message is the
// reader's sentence, already worded.
import { h, clear } from './dom';

const SHOWN = 5; // more than this in one box reads as noise: the rest is "…"

export class ErrorBoxes<W extends string> {
  private readonly boxes = new Map<W, HTMLElement>();

  /** The box for `where`, to place on the page. */
  box(where: W): HTMLElement {
    const el = h('div', { class: 'errors', attrs: { 'data-errors': where, role: 'alert' } });
    this.boxes.set(where, el);
    return el;
  }

  /** Every box shows its errors of `errors` and no others; `except` keeps what it shows. */
  show(errors: Array<{ where: W; message: string }>, except: W[] = []): void {
    for (const where of this.boxes.keys()) {
      if (!except.includes(where))
        this.say(
          where,
          errors.filter((e) => e.where === where).map((e) => e.message),
        );
    }
  }

  /** The box for `where` shows `messages` (none: it is empty). */
  say(where: W, messages: string[]): void {
    const box = this.boxes.get(where);
    if (!box || box.textContent === messages.join('\n')) return;
    clear(box);
    for (const m of messages.slice(0, SHOWN)) box.append(h('p', { class: 'error', text: m }));
    if (messages.length > SHOWN) box.append(h('p', { class: 'error', text: '…' }));
  }
}
