// The embedding keys of a link (web/src/state/embed-options.ts: embed, views, controls, theme) are
// split from the state, validated and written back by pure functions, checked here under node;
// what an embed shows with them is in tests/e2e/embed.test.mjs.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { join } from 'node:path';
import { root } from './engine-helpers.mjs';

let S;
before(async () => {
  const out = await build({ entryPoints: [join(root, 'web/src/state/embed-options.ts')], bundle: true, format: 'esm', platform: 'neutral',
    write: false, logLevel: 'silent' });
  S = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
});

test('the embedding keys are split from the state, validated, and written back', () => {
  const r = S.splitEmbed('#ver=1&preset=fruit&embed=1&views=pipeline,weights,output&controls=none&theme=dark');
  assert.deepEqual(r.options, { embed: true, views: ['pipeline', 'weights', 'output'], controls: 'none', theme: 'dark' });
  assert.equal(r.rest, 'ver=1&preset=fruit');
  assert.deepEqual(r.rejected, []);
  assert.equal(S.serialiseEmbed(r.options), 'embed=1&controls=none&theme=dark', 'only what differs from the defaults');
  assert.equal(S.serialiseEmbed({ ...r.options, views: ['formula', 'weights'] }), 'embed=1&views=formula%2Cweights&controls=none&theme=dark');
  assert.equal(S.serialiseEmbed(S.embedDefaults()), '');
  for (const bad of ['views=weights,weights', 'views=', 'views=<b>', 'controls=some', 'theme=__proto__', 'embed=yes',
    'embed=1&embed=1']) {
    const b = S.splitEmbed('ver=1&' + bad);
    assert.ok(b.rejected.length > 0, bad);
    assert.deepEqual(b.options, S.embedDefaults(), bad);
  }
  assert.equal(S.splitEmbed('ver=1&mask=causal').rest, 'ver=1&mask=causal');
});
