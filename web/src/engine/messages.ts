// The engine's errors in the reader's language. The engine (C++) says what went wrong in English,
// with a stable code and a place (input, row, column); the page words each code from the message
// catalog with that place, so a Chinese reader gets a Chinese message. The engine's own English
// sentence is used only for a code this table does not know.
import { t, int, isKey, type MessageKey } from '../i18n';
import type { EngineError, Limits } from './types';

/** What the page knows about the inputs it passed, for messages that name a shape. */
export interface Shapes {
  queryCols?: number; // d_k of Q
  keyCols?: number; // d_k of K
  keyRows?: number; // m
  valueRows?: number; // m of V
  heads?: number; // multi-head: the heads asked for
  dK?: number; // multi-head: each head's d_k (0: the engine's default)
}

const TEXT_INPUTS = new Set(['text', 'embeddings', 'matrix']);

function inputName(input: string): string {
  const key = `error.name.${input}`;
  return isKey(key) ? t(key) : t('error.name.other');
}

/** "line 2, column 5: ", "row 3, column 1: ", or nothing, 1-based as people count. */
function place(e: EngineError, text: boolean): string {
  const row = int(e.row + 1),
    col = int(e.col + 1);
  if (e.row >= 0 && e.col >= 0) return text ? t('error.at.line', { line: row, col }) : t('error.at.cell', { row, col });
  if (e.row >= 0) return text ? t('error.at.lineOnly', { line: row }) : t('error.at.row', { row });
  if (e.col >= 0 && text) return t('error.at.char', { col });
  return '';
}

/**
 * The message for an engine error. `fromText`: the error is about text the reader pasted or
 * typed (rows are lines there).
 */
export function engineMessage(
  e: EngineError,
  limits: Pick<Limits, 'maxTokens' | 'maxDim'>,
  shapes: Shapes = {},
  fromText = false,
): string {
  const name = inputName(e.input);
  const text = fromText || TEXT_INPUTS.has(e.input);
  const at = place(e, text);
  switch (e.code) {
    case 'empty_input':
      if (e.input === 'text') return t('error.code.empty_text');
      if (e.input === 'embeddings') return t('error.code.empty_embeddings');
      return t('error.code.empty_input', { name });
    case 'shape_mismatch': {
      let detail: string;
      if (e.row >= 0) detail = at + t('error.shape.rows');
      else if (e.input === 'keys' && shapes.queryCols !== undefined && shapes.keyCols !== undefined) {
        detail = t('error.shape.keys', { a: int(shapes.queryCols), b: int(shapes.keyCols) });
      } else if (e.input === 'values' && shapes.keyRows !== undefined && shapes.valueRows !== undefined) {
        detail = t('error.shape.values', { a: int(shapes.keyRows), b: int(shapes.valueRows) });
      } else if (e.input === 'mask') detail = t('error.shape.mask');
      else detail = t('error.shape.rows');
      return t('error.code.shape_mismatch', { name, detail });
    }
    case 'parse_error':
      if (e.input === 'embeddings') return t('error.code.parse_embeddings', { at });
      if (e.input === 'text') return t('error.code.bad_utf8', { at });
      return t('error.code.parse_error', { name, at });
    case 'zero_vector':
      return t('error.code.zero_vector', { name, row: int(e.row + 1) });
    case 'too_large':
      // Multi-head: the heads side by side are what is too wide, not d_k alone.
      if (e.input === 'dK' && shapes.heads && shapes.dK) {
        return t('error.heads.tooWide', {
          heads: int(shapes.heads),
          dk: int(shapes.dK),
          total: int(shapes.heads * shapes.dK),
          max: int(limits.maxDim),
        });
      }
      return t('error.code.too_large', { name, tokens: int(limits.maxTokens), dims: int(limits.maxDim) });
    case 'not_finite':
      return t('error.code.not_finite', { name, at });
    case 'bad_dimension':
    case 'bad_temperature':
    case 'bad_argument':
    case 'internal_error': {
      const key = `error.code.${e.code}` as MessageKey;
      return t(key, { name });
    }
    default:
      return e.message;
  }
}
