// The frames of one query row's animation, in the order the computation goes: which operation
// each frame shows, and which term or key it has reached. The numbers are the engine's trace
// (engine.traceRow); a frame only says how far into it the picture is.
import type { RowTrace } from '../engine/types';

export type Op = 'dot' | 'norm' | 'scale' | 'mask' | 'max' | 'exp' | 'sum' | 'divide' | 'mix';

export interface Frame {
  op: Op;
  /** dot: the feature just added (0-based); mix: the key just added; else 0. */
  at: number;
  /** The operation's last frame: a pause follows it when playing. */
  last: boolean;
}

export interface Ways {
  similarity: 'dot' | 'cosine';
  masked: boolean;
  normalization: 'softmax' | 'sum';
}

/** At most this many frames for one operation: d_k = 512 adds its terms in eight strides. */
export const MAX_STRIDES = 8;

/** `count` things shown in at most MAX_STRIDES frames: the index each frame reaches. */
export function strides(count: number): number[] {
  if (count <= MAX_STRIDES) return Array.from({ length: count }, (_, k) => k);
  return Array.from({ length: MAX_STRIDES }, (_, k) => Math.round(((k + 1) * count) / MAX_STRIDES) - 1);
}

export function framesOf(trace: RowTrace, ways: Ways): Frame[] {
  const frames: Frame[] = [];
  const op = (o: Op, at = 0, last = true) => frames.push({ op: o, at, last });
  const each = (o: Op, count: number) => {
    const at = strides(count);
    at.forEach((k, n) => op(o, k, n === at.length - 1));
  };
  each('dot', trace.dK);
  if (ways.similarity === 'cosine') op('norm');
  if (trace.divisor !== 1) op('scale');
  if (ways.masked) op('mask');
  if (ways.normalization === 'softmax') {
    op('max');
    op('exp');
  }
  op('sum');
  op('divide');
  each('mix', trace.m);
  return frames;
}

/** How far a frame is from each operation: done, now, or to come. */
export function stage(frames: Frame[], k: number, o: Op): 'done' | 'now' | 'later' {
  const here = frames[k]?.op;
  if (here === o) return 'now';
  const first = frames.findIndex((f) => f.op === o);
  return first >= 0 && first < k ? 'done' : 'later';
}
