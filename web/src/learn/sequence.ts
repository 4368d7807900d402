// A reader's own sequence for the trained model: words separated by spaces, each one of the task's
// tokens (as the trainer names them, or as any language of the page writes them), read into token
// ids; or what is wrong and where, to say next to the field.
import { isKey, LANGUAGES, translator } from '../i18n';

export type ReadSequence =
  | { ok: true; ids: number[]; /** How many "·" were left out (they are no token). */ dropped: number }
  | { ok: false; key: 'learn.tryEmpty' | 'learn.tryUnknown' | 'learn.tryTooLong'; params: Record<string, string | number> };

/** "·" may stand between the painting and its query word, as in the task's example: it is no token. */
const SEPARATORS = new Set(['·']);

/**
 * A trainer's token as `lang` writes it: the painting's words are messages (learn.token.<name>);
 * digits, letters and the bar read the same in every language.
 */
export function tokenWord(lang: string, token: string): string {
  const key = 'learn.token.' + token;
  return isKey(key) ? translator(lang)(key) : token;
}

export function readSequence(text: string, tokens: readonly string[], max: number): ReadSequence {
  const all = text.split(/\s+/).filter((w) => w !== '');
  const words = all.filter((w) => !SEPARATORS.has(w));
  if (words.length === 0) return { ok: false, key: 'learn.tryEmpty', params: {} };
  if (words.length > max) return { ok: false, key: 'learn.tryTooLong', params: { n: max, given: words.length } };
  const ids: number[] = [];
  for (const [k, word] of words.entries()) {
    const id = tokens.findIndex(
      (t) => t.toLowerCase() === word.toLowerCase() || LANGUAGES.some((l) => tokenWord(l.tag, t) === word),
    );
    if (id < 0) return { ok: false, key: 'learn.tryUnknown', params: { token: word, k: k + 1 } };
    ids.push(id);
  }
  return { ok: true, ids, dropped: all.length - words.length };
}
