// The pipeline's animation: its button opens the lazy part `play`, which plays the shown query's computation
// from the engine's trace of that row. The link keeps the frame (`play=3`), so a link (or a
// lesson's step) opens the animation paused at that frame, and an edit keeps it where it was.
import { language, num } from '../i18n';
import type { Engine } from '../engine/types';
import type { Figure } from '../model/compute';
import type { PipelineView } from '../views/pipeline';
import type { PlayData, RowPlayer } from '../play/player';
import { lazy } from '../lazy/lazy';
import { rowTrace } from '../model/reads';
import { linkExtras } from './link';

export class PlaySlot {
  private player: RowPlayer | null = null;
  private model: Figure | null = null;
  private row = 0;
  private opening = false;

  /** `remember`: writes the link (its frame) soon. */
  constructor(
    private readonly engine: Engine,
    private readonly pipeline: PipelineView,
    private readonly remember: () => void,
  ) {}

  /** After the pipeline drew `row` of `model`: the animation follows it, or opens as the link says. */
  drawn(model: Figure, row: number): void {
    this.model = model;
    this.row = row;
    if (this.player) {
      const data = this.data();
      if (data) this.player.update(data);
    } else if (linkExtras.play !== null) this.open((linkExtras.play ?? 1) - 1, false);
  }

  toggle(): void {
    if (this.player) this.close();
    else this.open(0, true);
  }

  private open(frame: number, autoplay: boolean): void {
    if (this.opening) return;
    this.opening = true;
    void lazy('play').then(
      (mod) => {
        this.opening = false;
        const data = this.data();
        if (this.player || !data || !this.pipeline.el.isConnected) return;
        this.player = new mod.RowPlayer(data, frame, language(), {
          frame: (k) => {
            linkExtras.play = k + 1;
            this.remember();
          },
          close: () => this.close(),
        });
        this.pipeline.playSlot.append(this.player.el);
        this.pipeline.playing(true);
        if (autoplay) {
          this.player.start();
          (this.player.el.querySelector('[data-play-toggle]') as HTMLElement | null)?.focus();
        }
      },
      () => {
        this.opening = false; // offline and not inline: the pipeline stays as it is
      },
    );
  }

  private close(): void {
    if (!this.player) return;
    this.player.dispose();
    this.player.el.remove();
    this.player = null;
    linkExtras.play = null;
    this.remember();
    this.pipeline.playing(false);
  }

  /** The trace of the shown row of the first configuration, with its names. */
  private data(): PlayData | null {
    const model = this.model;
    if (!model) return null;
    const { options, steps } = model.a;
    const trace = rowTrace(this.engine, model, this.row);
    if (!trace) return null;
    return {
      trace,
      ways: {
        similarity: options.similarity === 'cosine' ? 'cosine' : 'dot',
        masked: options.mask !== undefined && options.mask !== 'none',
        normalization: options.normalization === 'sum' ? 'sum' : 'softmax',
      },
      query: model.queryLabels[this.row] ?? '',
      keys: model.keyLabels,
      keyRows: steps.keys,
      side: model.b ? model.sideA : '',
      features: model.dkNames,
      outputs: model.dvNames,
      divisor: (options.scale === 'temperature' ? 'T = ' : '√d_k = ') + num(steps.divisor),
    };
  }
}
