// The colours numbers are drawn in (web/src/views/color.ts, heatmap-data.ts): a number that is not
// finite, as a damaged model's weights give, is drawn in its own grey, never as a crash or as the
// colour of a real number.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { join } from 'node:path';
import { root } from './engine-helpers.mjs';

let C;
before(async () => {
  const out = await build({
    stdin: { contents: "export * from './views/color'; export * from './views/heatmap-data';", resolveDir: join(root, 'web/src'), loader: 'ts' },
    bundle: true, format: 'esm', platform: 'neutral', write: false, logLevel: 'silent' });
  C = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
});

test('color: a weight of 0 is near white, 1 dark purple, and the scale clamps outside [0, 1]', () => {
  const lum = (s) => ((s.rgb >> 16) & 255) + ((s.rgb >> 8) & 255) + (s.rgb & 255);
  assert.ok(lum(C.weightColor(0)) > 700, C.weightColor(0).background);
  assert.ok(lum(C.weightColor(1)) < 300, C.weightColor(1).background);
  assert.equal(C.weightColor(2).rgb, C.weightColor(1).rgb);
  assert.equal(C.weightColor(-1).rgb, C.weightColor(0).rgb);
});

test('color: NaN and ±Infinity are grey, on both scales, with dark text, and differ from every real colour', () => {
  for (const x of [NaN, Infinity, -Infinity]) {
    assert.equal(C.weightColor(x), C.NOT_A_NUMBER, `weightColor(${x})`);
    assert.equal(C.signedColor(x, 5), C.NOT_A_NUMBER, `signedColor(${x}, 5)`);
  }
  assert.equal(C.signedColor(1, NaN).rgb, C.signedColor(0, 1).rgb, 'a NaN limit draws the middle of the scale');
  const real = new Set();
  for (let k = 0; k <= 100; k++) {
    real.add(C.weightColor(k / 100).rgb);
    real.add(C.signedColor(k / 50 - 1, 1).rgb);
  }
  assert.ok(!real.has(C.NOT_A_NUMBER.rgb), 'grey is on neither scale');
});

test('color: a heatmap of a damaged model with a NaN weight draws that cell grey and the others as usual', () => {
  const d = { caption: '', rowLabels: ['a', 'b'], colLabels: ['a', 'b'], scale: 'weights',
    values: { rows: 2, cols: 2, data: new Float64Array([1, 0, NaN, 0.5]) } };
  const s = C.swatches(d);
  assert.equal(s[2], C.NOT_A_NUMBER);
  assert.equal(s[0].rgb, C.weightColor(1).rgb);
  assert.equal(s[3].rgb, C.weightColor(0.5).rgb);
});
