// Keeps the state in the link and in storage (app/link.ts), at most once per quarter second
// while the reader types or drags, and at once when the page is being left or reloaded. While a
// write is held back, the page's root says so (data-keeping): what reads the link or storage
// knows when it holds the state on screen.
import type { State } from '../state/state';
import { keep } from './link';

const QUIET_MS = 250;

export class Keeper {
  private timer = 0;
  private stopped = false;

  /** `app`: the state to keep, and the root that says whether a write is held back. */
  constructor(private readonly app: () => { state: State; root: HTMLElement }) {}

  soon(): void {
    clearTimeout(this.timer);
    this.app().root.dataset.keeping = '';
    this.timer = window.setTimeout(() => this.now(), QUIET_MS);
  }

  /** What soon() still holds back, written now. */
  now(): void {
    clearTimeout(this.timer);
    if (!this.stopped) keep(this.app().state);
    delete this.app().root.dataset.keeping;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    delete this.app().root.dataset.keeping;
  }
}
