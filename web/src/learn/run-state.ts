// Whether the model trains, as the page and the trainer come to agree on it. A press changes the
// buttons at once; the trainer's replies say whether it runs, and count only once it has read every
// press (a reply sent before a press reached it would undo the press). A run goes to a link's step
// when there is one, else to the task's target until that is reached, then on until paused; out
// of sight it is held, and goes on when the view is seen again.
import type { Stop } from './protocol';

export type Press = 'train' | 'pause' | 'step';
type Send = (request: { type: 'train'; until?: number; target?: number } | { type: 'pause' | 'step' }) => void;

export class RunState {
  running = false;
  /** The link's step training goes to (it stops there, not at the target). */
  until: number | null = null;
  /** Training stopped by itself at the target, and waits for the reader. */
  stoppedAtTarget = false;
  /** Stopped by itself, at the link's step or the target. */
  private done = false;
  /** The trainer has answered every press: no chunk it trained before reading one is still on its way. */
  private settled = false;
  /** Paused because the view went out of sight, to go on when it comes back. */
  private held = false;
  /** Presses sent for this model. */
  private asked = 0;

  /** `send` takes the request to the trainer; `target` is the accuracy to stop at, or null once reached. */
  constructor(
    private readonly send: Send,
    private readonly target: () => number | null,
  ) {}

  /** A new model. */
  reset(): void {
    this.running = this.held = this.stoppedAtTarget = this.done = this.settled = false;
    this.until = null;
    this.asked = 0;
  }

  /** The reader pressed: a pause also ends a link's run, and nothing is held any more. */
  pressed(action: Press): void {
    this.held = false;
    if (action === 'pause') this.until = null;
    this.request(action);
  }

  /** Trains without a press (a link's steps, autoplay): at once if the view is seen, else once it is. */
  start(inSight: boolean, until: number | null): void {
    this.until = until;
    if (inSight) this.request('train');
    else this.held = true;
  }

  /** The view came into sight or left it. */
  sighted(inSight: boolean): void {
    if (!inSight && this.running) {
      this.request('pause');
      this.held = true;
    } else if (inSight && this.held) {
      this.held = false;
      this.request('train');
    }
  }

  /**
   * A reply's word on training, after `asked` presses: whether it counts and says training is
   * stopped (the link then keeps the model's steps).
   */
  follow(running: boolean, asked: number, stopped: Stop | null = null): boolean {
    if (asked !== this.asked) return false;
    if (stopped === 'until') this.until = null;
    if (stopped === 'target') this.stoppedAtTarget = true;
    this.done = stopped !== null;
    this.settled = true;
    this.running = running;
    return !running;
  }

  /**
   * What the view reports of the run (its status's data-run): training until the trainer has
   * answered every press, so that paused means no more steps are coming; '' before the model's first
   * numbers.
   */
  get word(): '' | 'training' | 'paused' | 'done' {
    if (this.running || (!this.settled && this.asked > 0)) return 'training';
    if (!this.settled) return '';
    return this.done ? 'done' : 'paused';
  }

  private request(action: Press): void {
    this.asked += 1;
    this.settled = false;
    this.running = action === 'train';
    if (action !== 'train') return this.send({ type: action });
    this.stoppedAtTarget = false;
    const target = this.until === null ? this.target() : null;
    this.send({ type: 'train', until: this.until ?? undefined, target: target ?? undefined });
  }
}
