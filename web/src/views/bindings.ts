// Controls that follow the state: each control registers how to read its value from the state,
// each conditional part when it shows; apply() brings them all in line after a change.
import type { Control } from './controls';

export class Bindings {
  private readonly syncs: Array<() => void> = [];

  /** `c` shows get() after every apply(); returns its element, to place it. */
  sync<T>(c: Control<T>, get: () => T): HTMLElement {
    this.syncs.push(() => c.set(get()));
    return c.el;
  }

  /** `el` is shown only while when() holds. */
  showWhen<E extends HTMLElement>(el: E, when: () => boolean): E {
    this.syncs.push(() => {
      el.hidden = !when();
    });
    return el;
  }

  /** Any other part to refresh from the state. */
  also(refresh: () => void): void {
    this.syncs.push(refresh);
  }

  apply(): void {
    for (const s of this.syncs) s();
  }
}
