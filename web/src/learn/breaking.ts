// Broken heads: which ones the reader pressed, and the line that sets the trainer's accuracy
// without them beside its accuracy with every head (for the same step, or "measuring…").
import { translator, percent } from '../i18n';
import { h } from '../views/dom';
import type { Ablation, Update } from './protocol';

export class Breaking {
  readonly el = h('p', { class: 'learn-ablation', attrs: { role: 'status', 'data-learn-ablation': '' } });
  /** The broken heads, as [layer, head]. */
  heads: [number, number][] = [];
  private ablation: Ablation | null = null;

  clear(): void {
    this.heads = [];
    this.ablation = null;
  }

  /** Breaks a head or mends it; the numbers without the broken ones are to come. */
  toggle(layer: number, head: number): void {
    const at = this.heads.findIndex(([l, k]) => l === layer && k === head);
    this.heads = at >= 0 ? this.heads.filter((_, k) => k !== at) : [...this.heads, [layer, head]];
    this.ablation = null;
  }

  take(a: Ablation): void {
    this.ablation = a;
  }

  draw(u: Update | null, lang: string): void {
    const el = this.el;
    const a = this.ablation;
    if (this.heads.length === 0 || !u) {
      el.textContent = u ? translator(lang)('learn.breakHint') : '';
      delete el.dataset.without;
      delete el.dataset.with;
      return;
    }
    const names = this.heads
      .map(([layer, head]) => translator(lang)('learn.head', { layer: layer + 1, head: head + 1 }))
      .join(', ');
    if (!a || a.steps !== u.steps) {
      el.textContent = translator(lang)('learn.breaking', { heads: names });
      delete el.dataset.without;
      return;
    }
    const share = (x: number) => percent(x, 1, lang);
    el.textContent = translator(lang)('learn.without', { heads: names, without: share(a.accuracy), with: share(u.accuracy) });
    el.dataset.without = String(a.accuracy);
    el.dataset.with = String(u.accuracy);
    el.dataset.step = String(a.steps);
  }
}
