// The article's examples as states. Each is plain data fed to the engine; the numbers the page
// shows for them are the engine's. Labels come from the message catalog of the language asked
// for (`t`), so a preset loads in the reader's language, or in a link's.
import { defaults, type PresetId, type State } from './state';
import type { Translate } from '../i18n';

const cells = (rows: number[][]) => rows.map((r) => r.map(String));
const identity = (k: number) => Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => (i === j ? 1 : 0)));

/**
 * How sharp a preset's weights must be: the smallest row entropy (nats) of side `side`'s
 * weights, of head `head` when there are heads, is at most `maxEntropy`. A figure whose text
 * speaks of a pattern must show one; tests/js/presets.test.mjs holds each preset to it.
 */
export interface Sharpness {
  side: 'a' | 'b';
  maxEntropy: number;
}

export const SHARPNESS: Record<PresetId, Sharpness> = {
  painting: { side: 'a', maxEntropy: 0.35 }, // "flying": 0.93 on the bird
  fruit: { side: 'a', maxEntropy: 0.01 }, // dot product at T = 0.2: each row almost one-hot
  softmax: { side: 'b', maxEntropy: 0.9 }, // the softmax side of the zero-sum row
  sqrtdk: { side: 'b', maxEntropy: 0.01 }, // unscaled at d_k = 512: one-hot
  causal: { side: 'a', maxEntropy: 0 }, // the first word sees only itself
  multihead: { side: 'a', maxEntropy: 0.3 },
};

// Made-up word vectors for the presets whose point is not what the words mean. Why √d_k uses
// the article's assumption, features of mean 0 and variance 1 (these 64 have mean −0.003 and
// variance 0.994); Multi-head's are larger (variance about 2.5), so that each head's scaled
// scores spread enough for its own pattern to show.
const UNIT_VARIANCE = [
  [1.3, 0.1, -1, 1.2, 1.8, 0.3, -1.4, -0.7],
  [-2.3, -1.8, -0.7, 0.9, 0, -1.5, -0.4, -1],
  [1.2, 0.9, -1.5, 1.7, 0.4, 0.3, 0.6, 0.6],
  [-0.2, 0.3, -1.6, -0.9, -2.1, -0.3, 0, 1.1],
  [0.3, 0.3, 0.8, -0.7, -0.4, 0.5, 2, -0.3],
  [0.1, 0.9, 0.9, 0.2, -0.5, -0.4, 0.7, -0.7],
  [-0.9, -0.5, -0.6, 0.2, 1, 0.1, 1.4, 0],
  [-1.2, -0.1, 0.8, 0.1, -1.8, 1.2, 1.6, -0.5],
];
const SPREAD = [
  [2.6, -0.5, 1.8, 1.8, -1.1, 0.2, 2.7, -1.3],
  [-1, -3.4, 0.3, -2.1, -1.1, 1, 0.6, 1.8],
  [1.1, 1, 0.3, -1.9, 3, -1.8, 1.1, -1.3],
  [0.2, -0.8, -0.2, -2.6, 0.5, 0.2, -1.6, -2.2],
  [0.5, 1.9, 0.6, -0.6, 4, -0.6, -0.8, -1.9],
  [2.2, -0.5, -1.8, -1, -1, -0.2, 0.2, 2.1],
];

/**
 * The words of a sentence (as the catalog lists them, `|`-separated, in the order the tokenizer
 * finds them) paired with made-up vectors, as edits: the same numbers in every language.
 */
function madeUp(words: string, vectors: number[][]): Array<[string, string[]]> {
  return words.split('|').map((w, i) => [w, vectors[i].map(String)]);
}

export function preset(id: PresetId, t: Translate): State {
  // The words mode of a vectors preset starts from the default sentence in the same language.
  // Its words are the hand-set ones, whose named features the article's examples are about.
  const s: State = { ...defaults(), text: t('default.sentence'), preset: id, lexicon: 'builtin' };
  switch (id) {
    case 'painting': {
      // Keys: each element's two features, (draws the eye, about flying): the first column is the
      // unconditioned score, the second the score under "flying". A query picks a column, so
      // q·k reproduces the article's table: no condition → 80 60 50 30 10, flying → 20 30 10 100 10.
      const elements = ['painting.person', 'painting.mountain', 'painting.flower', 'painting.bird', 'painting.ribbon'] as const;
      s.mode = 'vectors';
      s.q = cells([
        [1, 0],
        [0, 1],
      ]);
      s.qLabels = [t('painting.noCondition'), t('painting.flying')];
      s.k = cells([
        [80, 20],
        [60, 30],
        [50, 10],
        [30, 100],
        [10, 10],
      ]);
      s.kLabels = elements.map((k) => t(k));
      s.dkNames = [t('painting.salience'), t('painting.aboutFlying')];
      s.v = cells(identity(5)); // one-hot: each element's numeric form
      s.dvNames = s.kLabels.slice();
      s.scale = 'temperature';
      s.temperature = 20;
      s.focus = { view: 'weights', row: 1, col: 3, side: 'a' }; // flying → bird, 0.93
      return s;
    }
    case 'fruit':
      // Cosine lies in [−1, 1]: divided by √3 its weights would be flat, so both sides divide by
      // a temperature small enough for cosine's differences to show.
      s.lexicon = 'fruit';
      s.text = t('preset.fruit.sentence');
      s.compare = 'similarity';
      s.scale = 'temperature';
      s.temperature = 0.2;
      s.focus = { view: 'scores', row: 0, col: 1, side: 'a' }; // apple·orange = 1×2 + 2×2 + 1×0 = 6
      return s;
    case 'softmax':
      // K is the identity, so each query row is its own similarity row; V holds the fruit vectors.
      s.mode = 'vectors';
      s.q = cells([
        [1, 0.71, 0.5],
        [1, -0.5, -0.5],
        [0.5, -1, 0.2],
      ]);
      s.qLabels = [t('softmax.apple'), t('softmax.balanced'), t('softmax.flipped')];
      s.k = cells(identity(3));
      s.kLabels = [t('softmax.apple'), t('softmax.orange'), t('softmax.iphone')];
      s.dkNames = s.kLabels.slice();
      s.v = cells([
        [1, 2, 1],
        [2, 2, 0],
        [0, 2, 3],
      ]);
      s.dvNames = [t('softmax.colour'), t('softmax.fruit'), t('softmax.tech')];
      s.scale = 'none';
      s.normalization = 'sum';
      s.compare = 'normalization';
      s.focus = { view: 'weights', row: 2, col: 1, side: 'a' }; // 3.33: a sum below zero flips the signs
      return s;
    case 'sqrtdk':
      s.text = t('preset.sqrtdk.sentence');
      s.edits = madeUp(t('preset.sqrtdk.words'), UNIT_VARIANCE);
      s.projection = 'random';
      s.dK = 512;
      s.seed = 4;
      s.compare = 'scale';
      s.numbers = true;
      return s;
    case 'causal':
      s.text = t('preset.causal.sentence');
      s.mask = 'causal';
      return s;
    case 'multihead':
      s.text = t('preset.multihead.sentence');
      s.edits = madeUp(t('preset.multihead.words'), SPREAD);
      s.projection = 'random';
      s.heads = 2;
      s.dK = 4;
      s.seed = 8;
      s.focus = { view: 'weights', row: 2, col: 5, side: 'a' }; // head 1: 0.98 on the last word
      return s;
  }
  return s;
}

/**
 * `s` in another language: what its preset wrote in `from` (labels, the sentence, the made-up
 * vectors of its words) and the reader left as it was is written in `to`; what the reader changed
 * stays. Without a preset, the default sentence is translated the same way.
 */
export function relabel(s: State, from: Translate, to: Translate): State {
  const before = s.preset ? preset(s.preset, from) : { ...defaults(), text: from('default.sentence') };
  const after = s.preset ? preset(s.preset, to) : { ...defaults(), text: to('default.sentence') };
  const out: Record<string, unknown> = { ...s };
  for (const k of ['qLabels', 'kLabels', 'dkNames', 'dvNames', 'text', 'edits'] as const) {
    if (JSON.stringify(s[k]) === JSON.stringify(before[k])) out[k] = after[k];
  }
  return out as unknown as State;
}

// What a preset's text speaks of: the view (the pointed-at cell, the head shown, numbers in cells)
// and the labels may change without making its numbers wrong.
const DESCRIBED = [
  'mode',
  'text',
  'setup',
  'queryText',
  'lexicon',
  'edits',
  'q',
  'k',
  'v',
  'similarity',
  'scale',
  'temperature',
  'mask',
  'hidden',
  'normalization',
  'projection',
  'heads',
  'dK',
  'seed',
  'compare',
  'temperatureB',
] as const;

/** The reader has changed `s` since its preset opened: the preset's text no longer describes it. */
export function changedFromPreset(s: State, t: Translate): boolean {
  if (!s.preset) return false;
  const original = preset(s.preset, t);
  return DESCRIBED.some((k) => JSON.stringify(s[k]) !== JSON.stringify(original[k]));
}
