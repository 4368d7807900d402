// The message catalogs as the page registers them (web/src/i18n/): each language's catalog, and
// the section each part loaded later (Learn, the lessons, the animation) brings of every language.
// Every language has every key of English, with the same parameters; a section's keys are its
// own; and a Chinese message holds no English word its English message does not hold too.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './engine-helpers.mjs';

const dir = join(root, 'web/src/i18n');
const CATALOGS = readdirSync(dir).filter((f) => /^catalog-.+\.ts$/.test(f)).map((f) => f.slice(8, -3));
const PARTS = readdirSync(dir).filter((f) => /^section-.+\.ts$/.test(f)).map((f) => f.slice(8, -3));
let registry, I18n;

before(async () => {
  const imports = [...CATALOGS.map((tag) => `catalog-${tag}`), ...PARTS.map((part) => `section-${part}`)];
  const contents = imports.map((f) => `import './${f}';`).join('\n') + "\nexport * from './index';";
  const out = await build({ stdin: { contents, resolveDir: dir, loader: 'ts' }, bundle: true, format: 'esm',
    platform: 'neutral', write: false, logLevel: 'silent' });
  I18n = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
  registry = globalThis.__attentionPlaygroundCatalogs;
});

const params = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** Each part's section in `tag`, by part: its keys are those it registered that start with `<part>.`. */
function sections(tag) {
  const all = registry.sections?.[tag] ?? {};
  return Object.fromEntries(PARTS.map((part) => [part,
    Object.fromEntries(Object.entries(all).filter(([key]) => key.startsWith(part + '.')))]));
}

test('catalogs: a catalog file for every language of the switch, and seven parts with sections', () => {
  assert.deepEqual(CATALOGS.sort(), I18n.LANGUAGES.map((l) => l.tag).sort());
  assert.deepEqual(PARTS.sort(), ['cost', 'learn', 'learned', 'lesson', 'play', 'real', 'share']);
});

test('catalogs: every language has every key, with the same parameters, none empty, in its catalog and every section', () => {
  const en = { catalog: registry.catalogs.en, ...sections('en') };
  for (const tag of CATALOGS.filter((t) => t !== 'en')) {
    const other = { catalog: registry.catalogs[tag], ...sections(tag) };
    for (const [part, messages] of Object.entries(en)) {
      assert.ok(Object.keys(messages).length > 0, `${part} has messages`);
      assert.deepEqual(Object.keys(other[part]).sort(), Object.keys(messages).sort(), `${tag} ${part}: the same keys`);
      for (const [key, text] of Object.entries(messages)) {
        assert.ok(text.trim() !== '' && other[part][key].trim() !== '', `${tag} ${key}: not empty`);
        assert.deepEqual(params(other[part][key]), params(text), `${tag} ${key}: the same parameters`);
      }
    }
  }
});

test('catalogs: a part registers only keys of its own, none of the first load’s catalog', () => {
  for (const tag of CATALOGS) {
    const registered = Object.keys(registry.sections[tag]);
    const own = Object.values(sections(tag)).flatMap((s) => Object.keys(s));
    assert.deepEqual(registered.filter((k) => !own.includes(k)), [], `${tag}: every section key starts with its part`);
    assert.deepEqual(registered.filter((k) => k in registry.catalogs[tag]), [], `${tag}: no key in both`);
  }
});

test('catalogs: a Chinese message holds no English word that its English message does not hold', () => {
  const en = { ...registry.catalogs.en, ...registry.sections.en };
  const zh = { ...registry.catalogs['zh-CN'], ...registry.sections['zh-CN'] };
  const english = Object.entries(zh).flatMap(([key, text]) =>
    (text.replace(/\{\w+\}/g, '').match(/[A-Za-z]{4,}/g) ?? [])
      .filter((w) => !en[key].toLowerCase().includes(w.toLowerCase()))
      .map((w) => `${key}: ${w}`));
  assert.deepEqual(english, []);
});

test('catalogs: one lookup for every part, in the language asked for; a text carried in every language is picked the same way', () => {
  I18n.setLanguage('zh-CN');
  assert.equal(I18n.t('learn.train'), registry.sections['zh-CN']['learn.train']);
  assert.equal(I18n.t('app.title'), registry.catalogs['zh-CN']['app.title']);
  assert.equal(I18n.translator('en')('play.play'), 'Play');
  assert.equal(I18n.pick({ en: 'Step', 'zh-CN': '步骤' }), '步骤');
  assert.equal(I18n.pick({ en: 'Step', 'zh-CN': '步骤' }, 'fr'), 'Step');
  assert.ok(I18n.isKey('learn.token.bird') && !I18n.isKey('learn.token.7'));
  I18n.setLanguage('en');
});

test('numbers: fixed decimals and percentages in the language’s own way, with a true minus sign', () => {
  assert.equal(I18n.decimals(-1234.5, 2, 'en'), '−1,234.50');
  assert.equal(I18n.decimals(0.5, 0, 'zh-CN'), '1');
  assert.equal(I18n.decimals(NaN, 2, 'en'), '—');
  assert.equal(I18n.percent(0.987, 1, 'zh-CN'), '98.7\u00a0%');
  I18n.setLanguage('zh-CN');
  assert.equal(I18n.percent(0.5, 0), '50\u00a0%', 'the page’s language unless one is given');
  I18n.setLanguage('en');
});
