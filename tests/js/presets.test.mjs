// Every example says what its figure shows: the numbers in a preset's text, in each language, are
// the engine's numbers for that preset in that language, and its weights are as sharp as its
// definition (SHARPNESS in web/src/state/presets.ts) promises. A preset whose data changes without
// its text fails here.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { join } from 'node:path';
import { loadEngine, root, rowsOf } from './engine-helpers.mjs';

let M, engine;
before(async () => {
  const out = await build({
    stdin: {
      contents:
        "import './i18n/catalog-en'; import './i18n/catalog-zh-CN'; export * from './model/compute'; export * from './state/presets'; export { defaults } from './state/state'; export { translator } from './i18n';",
      resolveDir: join(root, 'web/src'),
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    logLevel: 'silent',
  });
  M = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
  engine = await loadEngine();
});

const LANGS = ['en', 'zh-CN'];

/** The computed preset, and the weights and row entropies of one side (and head) of it. */
function run(id, lang) {
  const s = M.preset(id, M.translator(lang));
  const r = M.compute(engine, s, s.lexicon);
  assert.deepEqual(r.errors, [], `${id} (${lang}) computes without errors`);
  const side = (which, head) => {
    const multi = which === 'a' ? r.model.multiA : r.model.multiB;
    const steps = multi && multi.heads.length > 1 ? multi.heads[head] : r.model[which].steps;
    return { weights: rowsOf(steps.weights), scores: rowsOf(steps.scores), entropy: steps.rowStats.map((x) => x.entropy) };
  };
  return { s, r, side };
}

// What each text states, as [side, head, what, row, col, decimals]; `what` is a matrix or the
// smallest / largest row entropy. The same claims hold in both languages unless given per language.
const CLAIMS = {
  painting: [
    ['a', 0, 'weights', 0, 0, 2], // no condition → person 0.59
    ['a', 0, 'weights', 1, 3, 2], // flying → bird 0.93
  ],
  fruit: [
    ['a', 0, 'scores', 0, 1, 0], // apple·orange = 6
    ['a', 0, 'scores', 0, 2, 0], // apple·iPhone = 7
    ['a', 0, 'weights', 0, 2, 2], // 0.99 on iPhone
    ['b', 0, 'scores', 0, 1, 2], // cos 0.87
    ['b', 0, 'scores', 0, 2, 2], // cos 0.79
    ['b', 0, 'weights', 0, 1, 2], // 0.27
    ['b', 0, 'weights', 0, 2, 2], // 0.19
  ],
  softmax: [
    ['a', 0, 'weights', 2, 0, 2], // −1.67
    ['a', 0, 'weights', 2, 1, 2], // 3.33
    ['a', 0, 'weights', 2, 2, 2], // −0.67
    ['b', 0, 'weights', 1, 0, 2], // 0.69
    ['b', 0, 'weights', 1, 1, 2], // 0.15
  ],
  sqrtdk: [
    ['a', 0, 'minEntropy', 0, 0, 2], // 1.00
    ['a', 0, 'maxEntropy', 0, 0, 2], // 1.86
  ],
  causal: {
    en: [
      ['a', 0, 'weights', 1, 0, 2], // "dog": 0.42 on "the"
      ['a', 0, 'weights', 1, 1, 2], // 0.58 on itself
    ],
    'zh-CN': [
      ['a', 0, 'weights', 2, 0, 2], // 花园: 0.24, 0.28, 0.48
      ['a', 0, 'weights', 2, 1, 2],
      ['a', 0, 'weights', 2, 2, 2],
    ],
  },
  multihead: [
    ['a', 0, 'weights', 2, 5, 2], // head 1: 0.98
    ['a', 1, 'weights', 2, 1, 2], // head 2: 0.83
  ],
};

/** A number as the texts write it: fixed decimals, a minus sign for negatives. */
const written = (x, decimals) => x.toFixed(decimals).replace(/^-/, '−');

for (const id of Object.keys(CLAIMS)) {
  for (const lang of LANGS) {
    test(`presets: ${id} (${lang}) states the engine's numbers`, () => {
      const { side } = run(id, lang);
      const story = M.translator(lang)(`preset.${id}.story`);
      const claims = Array.isArray(CLAIMS[id]) ? CLAIMS[id] : CLAIMS[id][lang];
      for (const [which, head, what, row, col, decimals] of claims) {
        const sideData = side(which, head);
        const value =
          what === 'minEntropy'
            ? Math.min(...sideData.entropy)
            : what === 'maxEntropy'
              ? Math.max(...sideData.entropy)
              : sideData[what][row][col];
        const text = written(value, decimals);
        assert.ok(story.includes(text), `${id} (${lang}): the engine's ${what}[${row}][${col}] is ${text}, not in: ${story}`);
      }
    });
  }
}

test('presets: every preset is as sharp as its definition says, in both languages', () => {
  for (const lang of LANGS) {
    for (const [id, { side: which, maxEntropy }] of Object.entries(M.SHARPNESS)) {
      const { r, side } = run(id, lang);
      const heads = r.model.multiA?.heads.length ?? 1;
      for (let head = 0; head < heads; head++) {
        const smallest = Math.min(...side(which, head).entropy);
        assert.ok(smallest <= maxEntropy + 1e-12, `${id} (${lang}) head ${head + 1}: smallest row entropy ${smallest} > ${maxEntropy}`);
      }
    }
  }
});

test('presets: Why √d_k saturates unscaled and stays spread, not flat, scaled', () => {
  const { side } = run('sqrtdk', 'en');
  const unscaled = side('b', 0).entropy,
    scaled = side('a', 0).entropy;
  assert.ok(Math.max(...unscaled) < 0.01, `unscaled entropies ${unscaled}`);
  // ln 8 = 2.079 is uniform over 8 words; every scaled row stays well below it and well above 0.
  assert.ok(Math.max(...scaled) < Math.log(8) - 0.2 && Math.min(...scaled) > 0.9, `scaled entropies ${scaled}`);
});

test('presets: Multi-head’s two heads put the same word’s weight on different words', () => {
  const { r } = run('multihead', 'en');
  const [h1, h2] = r.model.multiA.heads.map((h) => rowsOf(h.weights).map((row) => row.indexOf(Math.max(...row))));
  assert.ok(h1.filter((key, i) => key !== h2[i]).length >= 4, `largest weights per row: head 1 ${h1}, head 2 ${h2}`);
});

test('presets: made-up vectors belong to the words the engine finds in the sentence', () => {
  for (const lang of LANGS) {
    for (const id of ['sqrtdk', 'multihead']) {
      const { s, r } = run(id, lang);
      assert.deepEqual(r.words.tokens, s.edits.map(([w]) => w), `${id} (${lang})`);
      assert.ok(r.words.edited.every(Boolean), `${id} (${lang}): every word uses its made-up vector`);
    }
  }
});

test('presets: a Chinese page’s examples are written in Chinese', () => {
  const t = M.translator('zh-CN');
  // Names that stay Latin in Chinese text: the product, the function names, the matrices.
  const allowed = /\b(iPhone|softmax|W_[QKVO]|T|d_k|d_v|Q|K|V|QK)\b/g;
  for (const id of Object.keys(CLAIMS)) {
    const s = M.preset(id, t);
    const texts = [t(`preset.${id}.story`), s.text, ...s.qLabels, ...s.kLabels, ...s.dkNames, ...s.dvNames];
    for (const text of texts.filter((x) => s.mode === 'words' || x !== s.text)) {
      const latin = text.replace(allowed, '').match(/[A-Za-z]{2,}/g);
      assert.equal(latin, null, `${id}: Latin words ${latin} in “${text}”`);
    }
  }
  assert.equal(M.relabel(M.defaults(), M.translator('en'), t).text, t('default.sentence'));
});

test('presets: switching language keeps what the reader changed and translates the rest', () => {
  const en = M.translator('en'),
    zh = M.translator('zh-CN');
  const causal = M.preset('causal', en);
  assert.equal(M.relabel(causal, en, zh).text, '小狗在花园里追小猫');
  assert.equal(M.relabel({ ...causal, text: 'my own words' }, en, zh).text, 'my own words');
  const sqrtdk = M.relabel(M.preset('sqrtdk', en), en, zh);
  assert.deepEqual(sqrtdk.edits, M.preset('sqrtdk', zh).edits);
  assert.equal(M.defaults().text, en('default.sentence'), 'the defaults are the English catalog’s sentence');
});
