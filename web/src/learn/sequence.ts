// A reader's own sequence for the trained model: words separated by spaces, each one of the task's
// tokens (as the trainer names them, or as the page's language writes them), read into token ids;
// or what is wrong and where, to say next to the field.
import { tokenWord, type WordKey } from './words';

export type ReadSequence =
  | { ok: true; ids: number[]; /** How many "·" were left out (they are no token). */ dropped: number }
  | { ok: false; key: Extract<WordKey, 'tryEmpty' | 'tryUnknown' | 'tryTooLong'>; params: Record<string, string | number> };

/** "·" may stand between the painting and its query word, as in the task's example: it is no token. */
const SEPARATORS = new Set(['·']);

export function readSequence(text: string, tokens: readonly string[], max: number): ReadSequence {
  const all = text.split(/\s+/).filter((w) => w !== '');
  const words = all.filter((w) => !SEPARATORS.has(w));
  if (words.length === 0) return { ok: false, key: 'tryEmpty', params: {} };
  if (words.length > max) return { ok: false, key: 'tryTooLong', params: { n: max, given: words.length } };
  const ids: number[] = [];
  for (const [k, word] of words.entries()) {
    const id = tokens.findIndex((t) => t.toLowerCase() === word.toLowerCase() || tokenWord('zh-CN', t) === word);
    if (id < 0) return { ok: false, key: 'tryUnknown', params: { token: word, k: k + 1 } };
    ids.push(id);
  }
  return { ok: true, ids, dropped: all.length - words.length };
}
