// The Real model view's link keys (web/src/state/real-link.ts): the sentence, the open head and
// the tokens generated, read back as written, refused whole when any is out of range or said
// twice, and taken out of a link beside `view=` as the Learn view's are (learn-link.ts).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { join } from 'node:path';
import { root } from './engine-helpers.mjs';

let R, L;
async function load(file) {
  const out = await build({ entryPoints: [join(root, file)], bundle: true, format: 'esm', platform: 'neutral', write: false,
    logLevel: 'silent' });
  return import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
}
before(async () => {
  R = await load('web/src/state/real-link.ts');
  L = await load('web/src/state/learn-link.ts');
});

test('real link: the sentence, the head and the generated tokens read back as written', () => {
  assert.deepEqual(R.parseReal('view=real'), { sentence: null });
  const place = { sentence: 'Harry Potter & 哈利·波特 = 1+1?', open: { layer: 2, head: 3 }, generate: 5 };
  const text = R.serialiseReal(place);
  assert.equal(text, 'view=real&sentence=Harry+Potter+%26+%E5%93%88%E5%88%A9%C2%B7%E6%B3%A2%E7%89%B9+%3D+1%2B1%3F&open=2.3&generate=5');
  assert.deepEqual(R.parseReal(text), place);
  assert.deepEqual(R.parseReal('view=real&sentence='), { sentence: '' }); // an empty sentence is the reader's, said in the view
  assert.deepEqual(R.parseReal('view=real&generate=0'), { sentence: null });
});

test('real link: a head out of form, a count past the context, a key said twice or a sentence too long is refused whole', () => {
  for (const keys of [
    'view=learn',
    'view=real&open=0.1',
    'view=real&open=1',
    'view=real&open=1.2.3',
    'view=real&open=a.b',
    'view=real&generate=1024',
    'view=real&generate=-1',
    'view=real&generate=1e2',
    'view=real&sentence=a&sentence=b',
    'view=real&view=real',
    'view=real&sentence=' + 'a'.repeat(2001),
  ])
    assert.equal(R.parseReal(keys), null, keys);
  assert.deepEqual(R.parseReal('view=real&sentence=' + 'a'.repeat(2000)).sentence.length, 2000);
});

test('real link: the view\'s keys come out of a link beside view= only, the playground\'s stay', () => {
  assert.deepEqual(L.takeLearn('text=the+cat&head=2&view=real&sentence=hi&open=1.2&generate=3'), {
    keys: 'view=real&sentence=hi&open=1.2&generate=3',
    rest: 'text=the+cat&head=2',
  });
  assert.deepEqual(L.takeLearn('text=the+cat&sentence=hi'), { keys: null, rest: 'text=the+cat&sentence=hi' });
});

test('real link: a model on a server, with the files beside it, reads back; anything but an http(s) URL is refused', () => {
  const urls = { model: 'https://example.org/models/gpt2/model.safetensors', tokenizer: 'https://example.org/models/gpt2/tokenizer.json',
    config: 'https://example.org/models/gpt2/config.json' };
  const text = R.serialiseReal({ sentence: 'Hello', urls });
  assert.deepEqual(R.parseReal(text), { sentence: 'Hello', urls });
  // Beside view=, they go to the view, not to the playground.
  assert.deepEqual(L.takeLearn(`preset=fruit&${text}`).rest, 'preset=fruit');
  for (const keys of [
    'view=real&model=javascript:alert(1)',
    'view=real&model=file:///etc/passwd',
    'view=real&model=/relative/model.safetensors',
    'view=real&model=https://a.org/m.safetensors&model=https://b.org/m.safetensors',
    'view=real&tokenizer=https://example.org/tokenizer.json', // a tokenizer without its model
    `view=real&model=https://example.org/${'x'.repeat(2048)}`,
  ])
    assert.equal(R.parseReal(keys), null, keys);
});
