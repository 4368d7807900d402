// Undo and redo of the reader's edits. A step is a whole serialised state (state.ts), not a
// diff, so stepping back shows exactly the numbers that were on screen, and no edit needs its own
// inverse. Pure (no DOM, and the caller passes the time), so it is tested in node.

/** Undo steps kept: older ones are dropped first. */
export const HISTORY_STEPS = 200;
/** Edits of one kind closer together than this are one step (typing a word, one slider drag). */
export const COALESCE_MS = 600;
/**
 * Characters kept in all steps together (~16 MB of UTF-16): 200 steps of a state with three
 * 64 × 64 matrices would be ~70 MB, so big states keep fewer steps rather than more memory.
 */
export const HISTORY_CHARS = 8_000_000;

export class History {
  private readonly entries: string[]; // oldest first; entries[at] is the state now
  private at = 0;
  private chars: number;
  private lastKind = '';
  private lastTime = -Infinity;

  constructor(
    initial: string,
    private readonly steps = HISTORY_STEPS,
    private readonly window = COALESCE_MS,
    private readonly maxChars = HISTORY_CHARS,
  ) {
    this.entries = [initial];
    this.chars = initial.length;
  }

  get canUndo(): boolean {
    return this.at > 0;
  }

  get canRedo(): boolean {
    return this.at < this.entries.length - 1;
  }

  /** How many steps back are kept (for tests and the bound). */
  get length(): number {
    return this.entries.length;
  }

  /**
   * Records the state after an edit; a new edit drops what could be redone. `kind` names a
   * continuous edit (one text field, one slider, one grid cell): the same kind again within
   * `window` ms replaces the last step instead of adding one. '' (a click) is always its own step.
   * An edit that changes nothing adds nothing, so a click on the selected radio is not a step.
   */
  record(state: string, kind: string, now: number): void {
    if (state === this.entries[this.at]) return;
    this.truncate(this.at + 1);
    const coalesce = kind !== '' && kind === this.lastKind && now - this.lastTime <= this.window && this.at > 0;
    this.lastKind = kind;
    this.lastTime = now;
    if (coalesce) {
      this.chars += state.length - this.entries[this.at].length;
      this.entries[this.at] = state;
      // Typed and deleted back within one step: the step changes nothing, so it goes.
      if (state === this.entries[this.at - 1]) {
        this.truncate(this.at);
        this.at--;
      }
      return;
    }
    this.entries.push(state);
    this.chars += state.length;
    this.at++;
    while (this.at > 0 && (this.entries.length > this.steps + 1 || this.chars > this.maxChars)) {
      this.chars -= this.entries.shift()!.length;
      this.at--;
    }
  }

  /** The state one step back, or null; the next edit never merges into a step undo returned to. */
  undo(): string | null {
    if (!this.canUndo) return null;
    this.lastKind = '';
    return this.entries[--this.at];
  }

  redo(): string | null {
    if (!this.canRedo) return null;
    this.lastKind = '';
    return this.entries[++this.at];
  }

  /** Drops the entries from `from` on. */
  private truncate(from: number): void {
    for (let k = from; k < this.entries.length; k++) this.chars -= this.entries[k].length;
    this.entries.length = from;
  }
}
