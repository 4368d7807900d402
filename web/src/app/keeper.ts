// Keeps the state in the link and in storage (app/link.ts), at most once per quarter second
// while the reader types or drags, and at once when the page is being left or reloaded.
import type { State } from '../state/state';
import { keep } from './link';

const QUIET_MS = 250;

export class Keeper {
  private timer = 0;
  private stopped = false;

  constructor(private readonly state: () => State) {}

  soon(): void {
    clearTimeout(this.timer);
    this.timer = window.setTimeout(() => {
      if (!this.stopped) keep(this.state());
    }, QUIET_MS);
  }

  /** What soon() still holds back, written now. */
  now(): void {
    clearTimeout(this.timer);
    if (!this.stopped) keep(this.state());
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
