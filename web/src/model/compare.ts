// What a comparison puts side by side: the reader's configuration and the one that differs in
// what is compared (dot or cosine, ÷√d_k or not, softmax or the sum, two temperatures).
import type { StepOptions } from '../engine/types';
import type { CompareKind, State } from '../state/state';

function other<T>(pair: readonly [T, T], x: T): T {
  return x === pair[0] ? pair[1] : pair[0];
}

/** The two configurations a comparison of `kind` shows: the reader's, and the one it is compared with. */
export function sides(s: State, base: StepOptions, kind: CompareKind): [StepOptions, StepOptions] {
  let a = base,
    b = base;
  if (kind === 'similarity') b = { ...base, similarity: other(['dot', 'cosine'] as const, base.similarity) };
  if (kind === 'scale') b = { ...base, scale: base.scale === 'none' ? 'sqrt' : 'none' };
  if (kind === 'normalization') b = { ...base, normalization: other(['softmax', 'sum'] as const, base.normalization) };
  if (kind === 'temperature') {
    a = { ...base, scale: 'temperature', temperature: s.temperature };
    b = { ...base, scale: 'temperature', temperature: s.temperatureB };
  }
  return [a, b];
}
