// The story above the figure for a sentence of the reader's own over the vectors learned from real
// text: what applies to its numbers (so no setting of an earlier example works unsaid), and what
// was done with the words the vectors lack, where the reader looks first.
import { t, num } from '../i18n';
import type { State } from '../state/state';
import type { Words } from '../model/compute';
import type { Story } from './story';

/** The story, as Story.show takes it: the settings, then the words without a learned vector, if
 * any; and, where `read` can, the offer to read the sentence with a trained model. */
export function ownStory(s: State, words: Words | null, read?: (sentence: string) => void): Parameters<Story['show']> {
  const action = read && { label: t('learned.readWithModel'), run: () => read(s.text) };
  return [storyText(s, words), false, action];
}

function storyText(s: State, words: Words | null): string {
  const scores = t(s.similarity === 'cosine' ? 'learned.scoresCosine' : 'learned.scoresDot');
  const scaled =
    s.scale === 'sqrt'
      ? t('learned.scaleSqrt', { scores })
      : s.scale === 'none'
        ? t('learned.scaleNone', { scores })
        : t('learned.scaleT', { scores, t: num(s.temperature) });
  let more = s.mask === 'causal' ? t('learned.causal') : s.mask === 'custom' ? t('learned.custom') : '';
  if (s.heads > 1) more += t('learned.heads', { n: String(s.heads) });
  const story = t('learned.story', {
    scores: scaled,
    weights: t(s.normalization === 'sum' ? 'learned.sum' : 'learned.softmax'),
    more,
  });
  return [story, unknownNote(words)].filter(Boolean).join(' ');
}

/** The words with no learned vector (each once, as typed), unless the reader gave them one. */
function unknownNote(words: Words | null): string {
  if (!words) return '';
  const missing = words.tokens.filter((_, i) => words.unknown[i] && !words.edited[i]);
  if (!missing.length) return '';
  if (missing.length === words.tokens.length) return t('learned.unknownAll');
  return t('learned.unknownSome', { words: [...new Set(missing)].join(t('learned.separator')) });
}
