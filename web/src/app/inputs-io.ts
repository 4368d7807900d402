// Text the reader pastes or loads, read by the engine: a matrix for Q, K or V (kept only within
// the page's caps), or a word-vector file (kept in the engine until the next one replaces it).
import { t, int } from '../i18n';
import type { Engine } from '../engine/types';
import { engineMessage } from '../engine/messages';
import { readMatrix, readVectors } from '../model/reads';
import { CAPS, type State } from '../state/state';
import { paste, type MatrixKey, type Patch } from '../state/edits';

const INPUT: Record<MatrixKey, string> = { q: 'queries', k: 'keys', v: 'values' };

/** The edit a pasted matrix makes, or the sentence that says why there is none. */
export function pastedMatrix(
  engine: Engine,
  s: State,
  target: MatrixKey,
  text: string,
): { patch: Patch; done: string } | { error: string } {
  const r = readMatrix(engine, text, INPUT[target]);
  if (!r.ok) return { error: engineMessage(r.error, engine.limits, {}, true) };
  const { rows, cols } = r.matrix,
    name = target.toUpperCase();
  const patch = paste(s, target, r.matrix);
  if (!patch)
    return {
      error: t('vectors.pasteTooLarge', {
        name,
        rows: int(rows),
        cols: int(cols),
        maxRows: int(CAPS.rows),
        maxCols: int(CAPS.cols),
      }),
    };
  return { patch, done: t('vectors.pasted', { name, rows, cols }) };
}

/** A word-vector file loaded in place of `previous` (freed), or the sentence that says why not. */
export function loadedVectors(
  engine: Engine,
  text: string,
  previous: { id: number } | null,
): { lexicon: { id: number }; done: string } | { error: string } {
  const r = readVectors(engine, text, previous);
  if (!r.ok) return { error: engineMessage(r.error, engine.limits, {}, true) };
  return { lexicon: r.lexicon, done: t('words.fileLoaded', { count: int(r.size), dims: int(r.dims) }) };
}
