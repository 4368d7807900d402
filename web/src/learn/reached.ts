// The line that says the model reached its task's target: the step, and when training stopped
// there by itself, a button to train on (the model is learned; more steps only sharpen it).
import { translator, percent } from '../i18n';
import { h } from '../views/dom';

export class ReachedNote {
  readonly el: HTMLElement;
  private readonly text = h('span');
  private readonly goOn: HTMLButtonElement;

  constructor(
    private readonly lang: string,
    trainOn: () => void,
  ) {
    this.goOn = h('button', {
      class: 'btn',
      text: translator(lang)('learn.trainOn'),
      attrs: { type: 'button', 'data-learn-train-on': '' },
    });
    this.goOn.addEventListener('click', trainOn);
    this.el = h('p', { class: 'learn-note learn-reached', attrs: { role: 'status', 'data-learn-target': '' } }, this.text);
  }

  /** Nothing reached yet (a new model). */
  clear(): void {
    this.text.textContent = '';
    this.goOn.remove();
    delete this.el.dataset.reached;
    delete this.el.dataset.stopped;
  }

  /** `target` reached at `step`; `stopped`: training stopped there and waits for the reader. */
  show(target: number, step: number, stopped: boolean): void {
    const words = { target: percent(target, 0, this.lang), step };
    this.el.dataset.reached = String(step);
    if (stopped) this.el.dataset.stopped = '';
    else delete this.el.dataset.stopped;
    this.text.textContent =
      translator(this.lang)(stopped ? 'learn.reachedStopped' : 'learn.reached', words) + (stopped ? ' ' : '');
    if (stopped) this.el.append(this.goOn);
    else this.goOn.remove();
  }

  /** Focus on its button, if it shows one. */
  focus(): boolean {
    if (!this.goOn.isConnected) return false;
    this.goOn.focus();
    return true;
  }
}
