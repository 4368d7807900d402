// The article's examples as states. Each is plain data fed to the engine; the numbers the page
// shows for them are the engine's. Labels come from the message catalog of the language asked
// for (`t`), so a preset loads in the reader's language, or in a link's.
import { defaults, type PresetId, type State } from './state';
import type { Translate } from '../i18n';

const cells = (rows: number[][]) => rows.map((r) => r.map(String));
const identity = (k: number) => Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => (i === j ? 1 : 0)));

export function preset(id: PresetId, t: Translate): State {
  const s: State = { ...defaults(), preset: id };
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
      return s;
    }
    case 'fruit':
      s.lexicon = 'fruit';
      s.text = 'apple orange iPhone';
      s.compare = 'similarity';
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
      return s;
    case 'sqrtdk':
      s.text = 'a little bird flies over the tall mountain';
      s.projection = 'random';
      s.dK = 512;
      s.seed = 3;
      s.compare = 'scale';
      s.numbers = true;
      return s;
    case 'causal':
      s.text = 'the dog chases the cat in the garden';
      s.mask = 'causal';
      return s;
    case 'multihead':
      s.text = 'the bird flies over the mountain';
      s.projection = 'random';
      s.heads = 2;
      s.dK = 4;
      s.seed = 7;
      return s;
  }
  return s;
}

/**
 * `s` in another language: the labels of its preset that the reader left as the preset wrote
 * them (in `from`) are written in `to`; labels the reader changed stay as they are.
 */
export function relabel(s: State, from: Translate, to: Translate): State {
  if (!s.preset) return s;
  const before = preset(s.preset, from),
    after = preset(s.preset, to);
  const out = { ...s };
  for (const k of ['qLabels', 'kLabels', 'dkNames', 'dvNames'] as const) {
    if (JSON.stringify(s[k]) === JSON.stringify(before[k])) out[k] = after[k];
  }
  return out;
}
