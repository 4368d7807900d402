// A sentence of the reader's own, begun over an example (web/src/state/own-sentence.ts): it is
// read with the vectors learned from real text under plain scaled dot-product self-attention,
// whatever the example had set for its own numbers, and the story above the figure says what
// applies (web/src/views/own-story.ts). The numbers are the engine's, over data/vectors/words.bin.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { join } from 'node:path';
import { loadEngine, root, rowsOf } from './engine-helpers.mjs';

let M, engine, learned;
before(async () => {
  const out = await build({
    stdin: {
      contents: [
        "import './i18n/catalog-en'; import './i18n/catalog-zh-CN'; import './i18n/section-learned';",
        "export * from './model/compute'; export * from './state/presets'; export * from './state/own-sentence';",
        "export { ownStory } from './views/own-story'; export { defaults, PRESETS } from './state/state';",
        "export { translator, setLanguage } from './i18n';",
      ].join('\n'),
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
  const r = engine.loadVectors(readFileSync(join(root, 'data/vectors/words.bin')));
  assert.ok(r.ok, r.error?.message);
  learned = { id: r.id };
});

const en = () => M.translator('en');
const APPLE = 'I ate an apple and an orange';

/** The weights of `s` over the learned vectors, rows of numbers, and the sentence's tokens. */
function weights(s) {
  const r = M.compute(engine, s, learned);
  assert.deepEqual(r.errors, []);
  return { rows: rowsOf(r.model.a.steps.weights), tokens: r.words.tokens, words: r.words };
}

test('typed over any example, a sentence gets the learned vectors and plain scaled softmax attention', () => {
  for (const id of M.PRESETS) {
    const s = M.preset(id, en());
    const own = M.ownSentence(s, { text: APPLE });
    assert.ok(own, id);
    assert.equal(own.text, APPLE);
    assert.equal(own.preset, '', `${id}: its story no longer describes the figure`);
    assert.equal(own.mode, 'words');
    assert.equal(own.lexicon, 'learned', id);
    assert.deepEqual([own.similarity, own.scale, own.temperature, own.normalization, own.compare], ['dot', 'sqrt', 1, 'softmax', 'off'], id);
    assert.deepEqual(own.edits, [], `${id}: the example's made-up words go`);
  }
  // What the reader sees and chose stays: the causal mask, and two heads with their projections.
  assert.equal(M.ownSentence(M.preset('causal', en()), { text: APPLE }).mask, 'causal');
  const heads = M.ownSentence(M.preset('multihead', en()), { text: APPLE });
  assert.deepEqual([heads.heads, heads.projection, heads.dK, heads.seed], [2, 'random', 4, 8]);
  // sqrtdk's one head of 512 random dimensions was for its lesson: back to the vectors themselves.
  const one = M.ownSentence(M.preset('sqrtdk', en()), { text: APPLE });
  assert.deepEqual([one.heads, one.projection, one.dK], [1, 'identity', 0]);
  // A word list of the reader's own file stays theirs.
  assert.equal(M.ownSentence({ ...M.preset('causal', en()), lexicon: 'file' }, { text: APPLE }).lexicon, 'file');
});

test('turning a vectors example to words begins a sentence too; other edits, or none, do not', () => {
  const painting = M.preset('painting', en());
  const words = M.ownSentence(painting, { mode: 'words' });
  assert.deepEqual([words.mode, words.lexicon, words.scale, words.temperature], ['words', 'learned', 'sqrt', 1]);
  assert.equal(M.ownSentence(painting, { temperature: 5 }), null);
  assert.equal(M.ownSentence(painting, { text: painting.text }), null, 'the same text is no new sentence');
  assert.equal(M.ownSentence(M.preset('causal', en()), { mode: 'words' }), null, 'already words');
  const plain = M.defaults();
  assert.equal(M.ownSentence(plain, { text: APPLE }), null, 'no example open: the reader\'s settings stay');
});

test('"I ate an apple and an orange" over the painting: T = 20 flattened it, the own settings show apple with orange', () => {
  const painting = M.preset('painting', en());
  // The painting's T = 20 carried over silently: apple's row nearly even, none above 0.21 (1/7 is
  // 0.14), and orange no higher than "I" or "an".
  const carried = weights({ ...painting, mode: 'words', lexicon: 'learned', text: APPLE });
  const apple = carried.tokens.indexOf('apple');
  console.log('T = 20, apple:', carried.rows[apple].map((w) => w.toFixed(3)).join(' '));
  assert.ok(Math.max(...carried.rows[apple]) < 0.21, carried.rows[apple].join(' '));
  // Begun as a sentence of its own: apple weighs itself most (its vector is most like itself),
  // then orange, the fruit, above every other word.
  const own = weights(M.ownSentence(painting, { text: APPLE }));
  const row = own.rows[apple];
  console.log('own settings, apple:', row.map((w) => w.toFixed(3)).join(' '));
  const order = row.map((w, j) => [w, own.tokens[j]]).sort((a, b) => b[0] - a[0]).map(([, w]) => w);
  assert.deepEqual(order.slice(0, 2), ['apple', 'orange'], row.join(' '));
  // 0.45 on itself, 0.16 on orange, 0.08 or less on each other word (printed above).
  const orange = own.tokens.indexOf('orange');
  assert.ok(row[apple] > 0.4, `apple on itself ${row[apple]}`);
  assert.ok(row.every((w, j) => j === apple || j === orange || 2 * w < row[orange]), row.join(' '));
});

test('the story says what applies, and names the words the vectors lack, which get zeros', () => {
  M.setLanguage('en');
  const s = M.ownSentence(M.preset('causal', en()), { text: 'the zorblat sat' });
  const { words, rows } = weights(s);
  assert.deepEqual(words.unknown, [false, true, false]);
  assert.deepEqual(words.cells[1].map(Number), new Array(words.features.length).fill(0), 'zorblat is zeros');
  // Causal: zorblat sees "the" and itself, with scores 0 and 0, so half each.
  assert.deepEqual(rows[1].slice(0, 2).map((w) => w.toFixed(3)), ['0.500', '0.500']);
  const [story, changed, none0] = M.ownStory(s, words);
  assert.equal(changed, false);
  assert.equal(none0, undefined, 'no offer where nothing can open the Real model view');
  assert.match(story, /^Your own sentence, read with vectors learned from real text\. /);
  // What plain word vectors cannot do, said where the figure is, and a trained model offered.
  assert.match(story, /Alike words attend to each other, which is what word vectors measure, not what a word stands for: “it” weighs words like “it”, not the noun it means\./);
  const asked = [];
  const [, , action] = M.ownStory(s, words, (sentence) => asked.push(sentence));
  assert.equal(action.label, 'Read this sentence with a trained model');
  action.run();
  assert.deepEqual(asked, ['the zorblat sat']);
  assert.match(story, /dot products ÷ √d_k, made weights by softmax; each word sees only itself and the words before it\./);
  assert.match(story, /Not among the learned words: zorblat\. Such a word gets a vector of zeros/);
  // Nothing known at all: every weight of a row is equal, and the story says there is nothing to attend to.
  const none = M.ownSentence(M.preset('painting', en()), { text: 'zorblat 🍎 blick' });
  const all = weights(none);
  assert.deepEqual(all.words.unknown, [true, true, true]);
  for (const r of all.rows) assert.ok(r.every((w) => Math.abs(w - 1 / 3) < 1e-12), r.join(' '));
  assert.match(M.ownStory(none, all.words)[0], /None of these words is among the learned ones/);
  // In Chinese, and with the painting's temperature restored by hand, the story says so.
  M.setLanguage('zh-CN');
  const t20 = { ...M.ownSentence(M.preset('painting', M.translator('zh-CN')), { text: '我喜欢吃苹果和香蕉' }), scale: 'temperature', temperature: 20 };
  assert.match(M.ownStory(t20, weights(t20).words)[0], /^你自己的句子，用从真实文本学到的向量来读。分数是点积 ÷ T = 20，再用 softmax 变成权重。相似的词彼此关注/);
  M.setLanguage('en');
});
