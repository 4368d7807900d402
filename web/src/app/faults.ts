// Faults the reader should see rather than a blank or frozen page: the engine that cannot start
// (engine/load.ts says why), and one view that throws while the rest of the page renders.
import { h } from '../views/dom';
import { t } from '../i18n';
import { EngineUnavailable } from '../engine/load';

/** The message shown in place of the figure when the engine is unavailable. */
export function unavailableMessage(e: unknown): HTMLElement {
  const noWasm = e instanceof EngineUnavailable && e.fault === 'no-wasm';
  return h('p', {
    class: 'error engine-failed',
    text: t(noWasm ? 'app.noWasm' : 'app.engineFailed'),
    attrs: { role: 'alert', 'data-fault': noWasm ? 'no-wasm' : 'engine' },
  });
}

/**
 * A boundary around each view's update: a view that throws gets a message in its card (the other
 * views still render), and the next time it renders cleanly the message goes. Usage: run() for
 * each view drawn (in a render pass, or one view on its own), then settle().
 */
export class ViewFaults {
  private readonly ran = new Set<Element>(); // cards drawn since the last settle()
  private readonly failed = new Set<Element>(); // … and of those, the ones that threw
  private readonly shown = new Map<Element, HTMLElement>(); // card → its message

  /** Runs `update` for the view in `el`'s card, named `name` in the message if it throws. */
  run(el: Element, name: string, update: () => void): void {
    const card = el.closest('section') ?? el;
    this.ran.add(card);
    try {
      update();
    } catch (error) {
      this.failed.add(card);
      if (this.shown.has(card)) return;
      const box = h('p', {
        class: 'error view-fault',
        text: t('app.viewFailed', { view: name }),
        attrs: { role: 'alert', 'data-fault': 'view' },
      });
      const title = card.querySelector(':scope > h2, :scope > h3');
      if (title) title.after(box);
      else card.prepend(box);
      this.shown.set(card, box);
      card.classList.add('faulted'); // dims what it drew before it threw: not to be read as right
      console.error(error); // once per fault, for a bug report; the reader has the message
    }
  }

  /**
   * Clears the messages of the cards drawn cleanly since the last call. A card not drawn (a plot
   * deferred to after the frame, a hidden view) keeps its message until it is.
   */
  settle(): void {
    for (const [card, box] of this.shown) {
      if (!this.ran.has(card) || this.failed.has(card)) continue;
      box.remove();
      card.classList.remove('faulted');
      this.shown.delete(card);
    }
    this.ran.clear();
    this.failed.clear();
  }
}
