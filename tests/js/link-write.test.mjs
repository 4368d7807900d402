// The page writes its state back into the link (web/src/app/link.ts) a quarter second after an
// edit. A link opened in that quarter second (its hashchange event still to come) is newer than
// the state being written, and must not be overwritten by it.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { join } from 'node:path';
import { root } from './engine-helpers.mjs';

let L;
const page = { hash: '', writes: 0 };
before(async () => {
  // Only what link.ts touches of a browser tab: the address, history.replaceState and storage.
  globalThis.location = { get hash() { return page.hash; }, pathname: '/index.html', search: '' };
  globalThis.history = { state: null, replaceState: (_s, _t, url) => { page.writes++; page.hash = url.startsWith('#') ? url : ''; } };
  globalThis.document = { documentElement: { dataset: {} } };
  const store = new Map();
  globalThis.localStorage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, String(v)), removeItem: (k) => store.delete(k) };
  const out = await build({ stdin: { contents: "export * from './app/link'; export { preset } from './state/presets'; export { t } from './i18n';",
    resolveDir: join(root, 'web/src'), loader: 'ts' }, bundle: true, format: 'esm', platform: 'neutral', write: false,
  logLevel: 'silent' });
  L = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
});

test('link: an edit is written into the link, but never over a link opened since that the page has not read', () => {
  page.hash = '#ver=1&preset=causal';
  const opened = L.readLink().state;
  assert.equal(opened.preset, 'causal');
  // An edit: the state is written back.
  L.keep({ ...opened, temperature: 2 });
  assert.match(page.hash, /temperature=2|[&#]t=2/);
  const written = page.hash;
  // The host (or the reader) opens another link; before its hashchange is handled, the pending
  // write of the old state comes due. The new link stays.
  page.hash = '#ver=1&preset=fruit&embed=1&theme=dark';
  const writes = page.writes;
  L.keep({ ...opened, temperature: 3 });
  assert.equal(page.hash, '#ver=1&preset=fruit&embed=1&theme=dark');
  assert.equal(page.writes, writes);
  // Once read, it is the page's link again, and edits are written into it.
  assert.equal(L.readLink().state.preset, 'fruit');
  assert.equal(L.embedOptions().theme, 'dark');
  L.keep({ ...L.readLink().state, temperature: 2 });
  assert.notEqual(page.hash, '#ver=1&preset=fruit&embed=1&theme=dark');
  assert.match(page.hash, /theme=dark/, 'the embedding keys ride along');
  assert.notEqual(page.hash, written);
});

test('link: a link that says what the page shows already, once seen, takes the next edit', () => {
  page.hash = '#ver=1&preset=causal';
  const s = L.readLink().state;
  L.keep({ ...s, temperature: 2 });
  const mine = page.hash;
  page.hash = '#ver=1&preset=painting'; // opened, then the reader goes back to the page's own link
  page.hash = mine;
  L.seenLink();
  L.keep({ ...s, temperature: 3 });
  assert.notEqual(page.hash, mine);
});
