// A sentence of the reader's own, begun over an example: the example's settings were chosen for
// its own numbers (the painting divides by T = 20, the fruit by T = 0.2, the softmax example sums
// instead), and carried over to a typed sentence they flatten or sharpen its weights without a
// word. So the sentence starts from plain scaled dot-product self-attention over the vectors
// learned from real text; what the reader can see and chose stays (a mask, several heads, a word
// list of their own file), and the story above the figure says what applies (views/own-story.ts).
import { defaults, type State } from './state';

function vectorsOf(s: State): Pick<State, 'q' | 'k' | 'v' | 'qLabels' | 'kLabels' | 'dkNames' | 'dvNames'> {
  const { q, k, v, qLabels, kLabels, dkNames, dvNames } = s;
  return { q, k, v, qLabels, kLabels, dkNames, dvNames };
}

/** The reader starts a sentence over `s`'s example: typed text (`patch.text`), or the words of a
 * vectors example. Null when `patch` does not begin one (no example open, or no change to it). */
export function ownSentence(s: State, patch: Partial<State>): State | null {
  if (!s.preset) return null;
  const typed = patch.text !== undefined && patch.text !== s.text;
  const toWords = patch.mode === 'words' && s.mode === 'vectors';
  if (!typed && !toWords) return null;
  const d = defaults();
  const heads = s.heads > 1; // several heads need their projections
  return {
    ...s,
    ...patch,
    preset: '',
    mode: 'words',
    lexicon: s.lexicon === 'file' ? 'file' : 'learned',
    edits: [], // the example's made-up words, or edits of its vectors
    ...vectorsOf(d), // a vectors example's matrices are not the sentence's
    similarity: d.similarity,
    scale: d.scale,
    temperature: d.temperature,
    normalization: d.normalization,
    compare: d.compare,
    temperatureB: d.temperatureB,
    hidden: s.mask === 'custom' ? [] : s.hidden,
    mask: s.mask === 'custom' ? d.mask : s.mask, // a custom mask is of the example's words
    projection: heads ? s.projection : d.projection,
    dK: heads ? s.dK : d.dK,
    seed: heads ? s.seed : d.seed,
    focus: null,
  };
}
