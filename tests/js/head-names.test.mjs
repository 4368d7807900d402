// When the Real model view names a head by its pattern (cpp/core/lm/head_patterns.hpp, kClearPattern):
// only when its best score is beyond what heads of random weights reach on the same probe. This
// measures that again: 480 heads of 30 random checkpoints of the page's model's shape (4 layers of
// 4 heads, width 128, its vocabulary), whose best scores must all stay below 0.3, and the page's
// own model, whose previous-token head and three induction heads clear it and whose other twelve
// do not.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadModelModule, modelFile } from './engine-helpers.mjs';
import { randomGpt2, readSafetensorsHeader } from '../../scripts/model/safetensors.mjs';

const CLEAR = 0.3;
let mod, files;
before(async () => {
  mod = await loadModelModule();
  const meta = readSafetensorsHeader(readFileSync(modelFile)).metadata;
  files = { vocab: meta['vocab.json'], merges: meta['merges.txt'] };
});

test('head names: no head of 30 random checkpoints reaches the score that names a pattern', () => {
  const best = [];
  for (let seed = 1; seed <= 30; seed++) {
    const opened = mod.open(randomGpt2({ vocab: 4165, context: 128, width: 128, layers: 4, heads: 4, seed }), files);
    assert.ok(opened.ok, opened.error?.message);
    const survey = opened.model.survey();
    assert.ok(survey.ok, survey.error?.message);
    for (const h of survey.heads.flat()) {
      best.push(h.score);
      assert.equal(h.clear, h.score >= CLEAR, 'clear is the score against 0.3');
    }
    opened.model.dispose();
  }
  best.sort((a, b) => a - b);
  const at = (p) => best[Math.floor(p * (best.length - 1))];
  console.log(`480 random heads' best scores: median ${at(0.5).toFixed(3)}, 99th percentile ${at(0.99).toFixed(3)}, ` +
    `largest ${best.at(-1).toFixed(3)}`);
  assert.equal(best.length, 480);
  assert.ok(best.at(-1) < CLEAR, `a random head scored ${best.at(-1)}`);
});

test("head names: the page's model names its previous-token head and its three induction heads, and no other", () => {
  const survey = mod.open(readFileSync(modelFile)).model.survey();
  const named = survey.heads.flatMap((layer, l) => layer.filter((h) => h.clear).map((h) => `${l}.${layer.indexOf(h)} ${h.best}`));
  assert.deepEqual(named, ['0.2 previous', '2.1 induction', '2.2 induction', '2.3 induction']);
});
