// The view's buttons: Train, Pause, Step, Reset and Link with weights, each pressable only when
// it means something for the model as it stands.
import { translator } from '../i18n';
import { h } from '../views/dom';

export type Action = 'train' | 'pause' | 'step' | 'reset' | 'share';

export interface Standing {
  /** A trainer that has not failed. */
  live: boolean;
  /** A trainer at all (Reset makes a new model even after a failure). */
  trainer: boolean;
  running: boolean;
  /** The model's first numbers came (there is a model to link to). */
  made: boolean;
}

export class Actions {
  readonly buttons: Record<Action, HTMLButtonElement>;

  constructor(lang: string, press: (action: Action) => void) {
    const button = (action: Action) => {
      const b = h('button', {
        class: 'btn',
        text: translator(lang)(`learn.${action}`),
        attrs: { type: 'button', 'data-learn-action': action },
      });
      b.addEventListener('click', () => press(action));
      return b;
    };
    this.buttons = {
      train: button('train'),
      pause: button('pause'),
      step: button('step'),
      reset: button('reset'),
      share: button('share'),
    };
  }

  get list(): HTMLButtonElement[] {
    const b = this.buttons;
    return [b.train, b.pause, b.step, b.reset, b.share];
  }

  /** While a new model is being made the buttons stay: the trainer does a press once it is. */
  draw(s: Standing): void {
    const b = this.buttons;
    b.train.disabled = !s.live || s.running;
    b.pause.disabled = !s.live || !s.running;
    b.step.disabled = !s.live || s.running;
    b.reset.disabled = !s.trainer;
    b.share.disabled = !s.live || s.running || !s.made;
  }

  /** After a press: the pressed button is disabled now, so focus moves to the one that undoes it. */
  focusAfter(action: Action): void {
    if (action === 'train') this.buttons.pause.focus();
    if (action === 'pause') this.buttons.train.focus();
  }
}
