// How the Real model view writes a token's text (web/src/real/tokens.ts): nothing a token holds
// may vanish or be drawn as a box. Spaces, line ends and tabs get their signs; every other control
// character (the model's byte-level vocabulary has all 33 of C0 and DEL) its code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { build } from 'esbuild';
import { root } from './engine-helpers.mjs';

const bundle = await build({ entryPoints: [join(root, 'web/src/real/tokens.ts')], bundle: true, format: 'esm',
  platform: 'neutral', write: false, logLevel: 'silent' });
const { shown } = await import('data:text/javascript;base64,' + Buffer.from(bundle.outputFiles[0].text).toString('base64'));

test('real tokens: spaces, line ends and tabs are signs, other control characters their codes', () => {
  assert.equal(shown(' the'), '␣the');
  assert.equal(shown('\n\n'), '↵↵');
  assert.equal(shown('\t'), '⇥');
  assert.equal(shown(''), '∅');
  // The three the tokens of a brought model showed as boxes: U+12, U+1B, U+0B.
  assert.equal(shown('\u0012'), '⟨12⟩');
  assert.equal(shown('a\u001bb'), 'a⟨1B⟩b');
  assert.equal(shown('\u000b'), '⟨0B⟩');
  assert.equal(shown('\u0000\r\u007f\u0085'), '⟨00⟩⟨0D⟩⟨7F⟩⟨85⟩');
  // Text is left as it is.
  assert.equal(shown('床前 é'), '床前␣é');
  for (let c = 0; c < 0x20; c++) assert.doesNotMatch(shown(String.fromCharCode(c)), /[\u0000-\u001f]/);
});
