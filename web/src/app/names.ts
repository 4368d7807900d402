// The model's names in the page's language, and its error values as sentences for the reader.
import { t, num, int, isKey, type MessageKey } from '../i18n';
import type { Limits } from '../engine/types';
import { engineMessage } from '../engine/messages';
import type { MatrixName, Names, PageError } from '../model/compute';

export const PAGE_NAMES: Names = {
  feature(name) {
    const key = 'feature.' + name;
    return isKey(key) ? t(key) : name;
  },
  side(kind, o) {
    switch (kind) {
      case 'similarity':
        return t(o.similarity === 'dot' ? 'similarity.dot' : 'similarity.cosine');
      case 'scale':
        return (
          t(o.scale === 'sqrt' ? 'scale.sqrt' : o.scale === 'none' ? 'scale.none' : 'scale.temperature') +
          (o.scale === 'temperature' ? ' = ' + num(o.temperature ?? 1) : '')
        );
      case 'normalization':
        return t(o.normalization === 'softmax' ? 'normalization.softmax' : 'normalization.sum');
      case 'temperature':
        return 'T = ' + num(o.temperature ?? 1);
      default:
        return '';
    }
  },
};

const MATRIX: Record<MatrixName, MessageKey> = {
  x: 'view.x',
  qx: 'words.queryVectors',
  q: 'vectors.q',
  k: 'vectors.k',
  v: 'vectors.v',
};
const CELL: Record<Extract<PageError, { kind: 'cell' }>['cell'], MessageKey> = {
  empty: 'error.emptyCell',
  not_a_number: 'error.cell',
  too_large: 'error.cellTooLarge', // written as a number, but no double holds it: not "not a number"
};

/** The sentence for an error value, as its box on the page shows it. */
export function pageMessage(e: PageError, limits: Pick<Limits, 'maxTokens' | 'maxDim'>): string {
  switch (e.kind) {
    case 'engine':
      return engineMessage(e.error, limits, e.shapes, e.fromText);
    case 'tooManyTokens':
      return t('error.tooManyTokens', { count: int(e.count), max: int(e.max) });
    case 'cell':
      return t(CELL[e.cell], {
        matrix: t(MATRIX[e.matrix]),
        row: int(e.row + 1),
        rowLabel: e.rowLabel,
        col: int(e.col + 1),
        text: e.text,
      });
  }
}
