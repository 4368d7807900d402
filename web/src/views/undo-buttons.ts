// Undo and Redo: labelled buttons with their shortcuts, disabled when there is no step to take.
import { h } from './dom';
import { t } from '../i18n';

export class UndoButtons {
  readonly el: HTMLElement;
  readonly undo: HTMLButtonElement;
  readonly redo: HTMLButtonElement;

  constructor(step: (which: 'undo' | 'redo') => void) {
    const button = (which: 'undo' | 'redo') => {
      const b = h('button', {
        class: 'btn small ghost',
        text: t(`history.${which}`),
        attrs: {
          type: 'button',
          'data-history': which,
          'aria-keyshortcuts': which === 'undo' ? 'Control+Z Meta+Z' : 'Control+Shift+Z Meta+Shift+Z Control+Y',
          title: t(`history.${which}Keys`),
          disabled: '',
        },
      });
      b.addEventListener('click', () => step(which));
      return b;
    };
    this.undo = button('undo');
    this.redo = button('redo');
    this.el = h('div', { class: 'history', attrs: { role: 'group', 'aria-label': t('history.label') } }, this.undo, this.redo);
  }

  /** The buttons follow the history; a focused button that runs out hands the focus to the other. */
  sync(canUndo: boolean, canRedo: boolean): void {
    const active = document.activeElement;
    this.undo.disabled = !canUndo;
    this.redo.disabled = !canRedo;
    if (active === this.undo && this.undo.disabled) this.redo.focus();
    else if (active === this.redo && this.redo.disabled) this.undo.focus();
  }

  /** Where the focus goes after a step when the field that had it is gone: this action's button, else the other. */
  after(which: 'undo' | 'redo'): HTMLButtonElement {
    const button = which === 'undo' ? this.undo : this.redo;
    const other = which === 'undo' ? this.redo : this.undo;
    return button.disabled ? other : button;
  }
}
