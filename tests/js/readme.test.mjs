// README's engine examples, exactly as a reader copies them: each runs against the built engine
// and prints the numbers README promises, and each type-checks against the shipped .d.ts
// (TypeScript, strict), so the guide, the types and the engine cannot drift apart. Also the core's
// headers as docs/developing.md lists them, and README's pictures.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync }
  from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { artifact, trainerArtifact, modelArtifact, modelFile, root, loadModelModule } from './engine-helpers.mjs';
import { randomGpt2, readSafetensorsHeader } from '../../scripts/model/safetensors.mjs';
import { configJson, tokenizerJson } from '../../scripts/model/hf-files.mjs';

const types = join(root, 'cpp', 'wasm', 'attention-engine.d.ts');
const trainerTypes = join(root, 'cpp', 'wasm', 'attention-trainer.d.ts');
const modelTypes = join(root, 'cpp', 'wasm', 'attention-model.d.ts');
const tsc = join(root, 'node_modules', '.bin', 'tsc');

/** The first ```js block after `heading` in README.md. */
function example(heading) {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const at = readme.indexOf(`\n${heading}\n`);
  assert.ok(at >= 0, `README has "${heading}"`);
  const block = readme.slice(at).match(/```js\n([\s\S]*?)```/);
  assert.ok(block, `README has a js example under "${heading}"`);
  return block[1];
}

function node(file) {
  const r = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', timeout: 60000 });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  return r.stdout.trim().split('\n');
}

function typecheck(file, against = types) {
  const r = spawnSync(tsc, ['--strict', '--noEmit', '--target', 'es2020', '--lib', 'es2020,dom',
    '--types', '', file, against], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, `${file} does not type-check against ${against}:\n${r.stdout}${r.stderr}`);
}

let dir;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'readme-'));
  mkdirSync(join(dir, 'dist'));
  copyFileSync(artifact, join(dir, 'dist', 'attention-engine.js'));
  copyFileSync(trainerArtifact, join(dir, 'dist', 'attention-trainer.js'));
  copyFileSync(modelArtifact, join(dir, 'dist', 'attention-model.js'));
  copyFileSync(modelFile, join(dir, 'dist', 'model.safetensors')); // as web/build.mjs ships it
  copyFileSync(join(root, 'data/vectors/words.bin'), join(dir, 'dist', 'vectors.bin')); // as web/build.mjs ships it
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('README: the web page example prints apple·orange = 6 and its terms', () => {
  const code = example('### In a web page');
  // What the page's <script src="attention-engine.js"> does: define the global.
  writeFileSync(join(dir, 'web.cjs'),
    `globalThis.createAttentionEngine = require('./dist/attention-engine.js');\n${code}`);
  const [score, weights, terms] = node('web.cjs');
  assert.equal(score, '6');
  // Apple's row, scaled by √3: scores 6, 6, 7 → softmax of (6, 6, 7)/√3.
  const e = [6, 6, 7].map((s) => Math.exp(s / Math.sqrt(3)));
  const sum = e[0] + e[1] + e[2];
  const printed = JSON.parse(weights);
  e.forEach((x, j) => assert.ok(Math.abs(printed[j] - x / sum) < 1e-12, `weight ${j}: ${printed[j]}`));
  assert.deepEqual(JSON.parse(terms), [2, 4, 0]);

  writeFileSync(join(dir, 'web.ts'), code);
  typecheck('web.ts');
});

test('README: the node example shows the bird winning under "flying"', () => {
  const code = example('### In node');
  writeFileSync(join(dir, 'fruit.cjs'), code);
  const [line] = node('fruit.cjs');
  const weights = line.match(/\d\.\d{3}/g).map(Number);
  // softmax of (20, 30, 10, 100, 10) / 25, to three decimals.
  const e = [20, 30, 10, 100, 10].map((s) => Math.exp(s / 25));
  const sum = e.reduce((a, b) => a + b);
  assert.deepEqual(weights, e.map((x) => Number((x / sum).toFixed(3))));
  assert.equal(weights.indexOf(Math.max(...weights)), 3);

  // Typed as a TypeScript user of require() sees it: module.exports is createAttentionEngine.
  writeFileSync(join(dir, 'fruit.ts'),
    'declare function require(id: string): typeof globalThis.createAttentionEngine;\nexport {};\n' + code);
  typecheck('fruit.ts');
});

test('README: the real-words example shows apple weighing itself, then orange', () => {
  const code = example('### Real words');
  writeFileSync(join(dir, 'words.cjs'), code);
  const [row, near] = node('words.cjs');
  const weights = Object.fromEntries(row.split(', ').map((p) => p.split(' ')).map(([w, x]) => [w, Number(x)]));
  assert.deepEqual(Object.keys(weights), ['I', 'ate', 'an', 'apple', 'and', 'orange']);
  const order = Object.entries(weights).sort((a, b) => b[1] - a[1]).map(([w]) => w);
  assert.deepEqual(order.slice(0, 2), ['apple', 'orange'], row);
  const sum = row.match(/\d\.\d\d/g).map(Number).reduce((a, b) => a + b); // seven weights, "an" twice
  assert.ok(Math.abs(sum - 1) < 0.04, `the row sums to ${sum}`);
  assert.equal(near.split(' ').length, 3);

  writeFileSync(join(dir, 'words.ts'),
    "declare function require(id: 'node:fs'): { readFileSync(path: string): Uint8Array };\n" +
    'declare function require(id: string): typeof globalThis.createAttentionEngine;\nexport {};\n' + code);
  typecheck('words.ts');
});

test('README: the trainer example learns to reverse digits and says how well', () => {
  const code = example('### Train a model in node');
  const lines = code.trim().split('\n');
  assert.ok(lines.length <= 25, `the example is ${lines.length} lines`);
  writeFileSync(join(dir, 'reverse.cjs'), code);
  const [accuracy, answer] = node('reverse.cjs');
  const m = accuracy.match(/^(\d+) steps: ([\d.]+) % held-out accuracy$/);
  assert.ok(m, accuracy);
  assert.ok(Number(m[2]) >= 99, accuracy);
  assert.ok(Number(m[1]) <= 150, accuracy); // the Catch2 suite's bound for this model and seed
  assert.equal(answer, '5 1 4 1 3');

  writeFileSync(join(dir, 'reverse.ts'),
    'declare function require(id: string): typeof globalThis.createAttentionTrainer;\nexport {};\n' + code);
  typecheck('reverse.ts', trainerTypes);
});

/** docs/language-model.md's table of the model's heads: { 'layer 0 head 1': 'previous 0.93', … }. */
function headTable() {
  const readme = readFileSync(join(root, 'docs', 'language-model.md'), 'utf8');
  const rows = [...readme.matchAll(/^\| (\d) \| (\d) \| (previous|first|same|induction) \| ([\d.]+) \|/gm)];
  return Object.fromEntries(rows.map((m) => [`layer ${m[1]} head ${m[2]}`, `${m[3]} ${m[4]}`]));
}

test("README: the model example reads a sentence, guesses on, and names every head as docs/language-model.md's table does", () => {
  const code = example('### Run the model in node');
  writeFileSync(join(dir, 'heads.cjs'), code);
  const [tokens, predictions, ...heads] = node('heads.cjs');
  // The tokens, joined by |, spell <|endoftext|> and the sentence.
  assert.ok(tokens.startsWith('<|endoftext|>|'), tokens);
  assert.equal(tokens.slice('<|endoftext|>|'.length).replaceAll('|', ''), 'The cat sat on the mat. The cat sat on the');
  assert.equal(predictions.split(', ').length, 5);
  assert.equal(heads.length, 16);
  const table = headTable();
  assert.equal(Object.keys(table).length, 16, 'docs/language-model.md has a row for each of the 16 heads');
  for (const line of heads) {
    const [where, what] = line.split(': ');
    assert.equal(what, table[where], `${where} in docs/language-model.md's table`);
  }

  writeFileSync(join(dir, 'heads.ts'),
    "declare function require(id: './dist/attention-model.js'): typeof globalThis.createAttentionModel;\n" +
    "declare function require(id: 'node:fs'): { readFileSync(path: string): Uint8Array };\nexport {};\n" + code);
  typecheck('heads.ts', modelTypes);
});

/** docs/language-model.md's held-out table: { English: { model, bigram, below }, Chinese: … }. */
function heldOutTable() {
  const docs = readFileSync(join(root, 'docs', 'language-model.md'), 'utf8');
  const rows = [...docs.matchAll(/^\| (English|Chinese) \| \d+ \| ([\d.]+) \| ([\d.]+) \| ([\d.]+ %) \|/gm)];
  return Object.fromEntries(rows.map((m) => [m[1], { model: m[2], bigram: m[3], below: m[4] }]));
}

test("README: the model's measures are docs/language-model.md's, and its strongest heads the shipped model's survey", async () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const held = heldOutTable();
  assert.deepEqual(Object.keys(held), ['English', 'Chinese']);
  const row = (name) => readme.match(new RegExp(`^\\| ${name} \\| ([^|]+) \\| ([^|]+) \\|$`, 'm'))?.slice(1).map((x) => x.trim());
  assert.deepEqual(row('held-out bits per character'), [held.English.model, held.Chinese.model]);
  assert.deepEqual(row('a character bigram'), [held.English.bigram, held.Chinese.bigram]);
  assert.deepEqual(row('the model below the bigram'), [held.English.below, held.Chinese.below]);

  const lm = (await loadModelModule()).open(readFileSync(modelFile)).model;
  const survey = lm.survey(), vocab = lm.config.vocab;
  lm.dispose();
  const best = (pattern) => survey.heads.flatMap((r, layer) => r.map((h, head) => ({ layer, head, score: h.scores[pattern] })))
    .reduce((a, b) => (b.score > a.score ? b : a));
  for (const [pattern, name] of [['induction', 'an induction head'], ['previous', 'a previous-token head']]) {
    const { layer, head, score } = best(pattern);
    assert.ok(readme.includes(`${name} (layer ${layer}, head ${head}) at ${score.toFixed(2)}`), `README names ${name}: layer ${layer}, head ${head} at ${score.toFixed(2)}`);
  }
  assert.ok(readme.includes(`the second copy costs ${survey.lossSecond.toFixed(2)} bits a token against ${survey.lossFirst.toFixed(2)} for the first,\nwhere a blind guess among its ${vocab.toLocaleString('en')} tokens costs ${survey.lossBlind.toFixed(2)}`),
    `README gives the loss on the copies: ${survey.lossSecond.toFixed(2)}, ${survey.lossFirst.toFixed(2)} and a blind guess's ${survey.lossBlind.toFixed(2)}`);
});

test("README: the own-checkpoint example opens a model from its folder and names each head as the module's survey does", async () => {
  const code = example('### Open your own checkpoint in node');
  // A checkpoint as Hugging Face lays one out: random weights over the shipped model's tokenizer.
  const size = { vocab: 4165, context: 32, width: 32, layers: 2, heads: 4 };
  const { 'vocab.json': vocab, 'merges.txt': merges } = readSafetensorsHeader(readFileSync(modelFile)).metadata;
  const model = randomGpt2({ ...size, prefix: 'transformer.', metadata: false, seed: 11 });
  mkdirSync(join(dir, 'my-model'), { recursive: true });
  writeFileSync(join(dir, 'my-model', 'model.safetensors'), model);
  writeFileSync(join(dir, 'my-model', 'tokenizer.json'), tokenizerJson(vocab, merges));
  writeFileSync(join(dir, 'my-model', 'config.json'), configJson(size));
  writeFileSync(join(dir, 'own.cjs'), code);
  const [shape, ...heads] = node('own.cjs');
  assert.equal(shape, '2 layers of 4 heads, width 32');
  const mod = await loadModelModule();
  const opened = mod.open(model, { tokenizer: tokenizerJson(vocab, merges), config: configJson(size) });
  const survey = opened.model.survey({ sequences: 2 });
  assert.deepEqual(heads, survey.heads.flatMap((layer, l) => layer.map((h, i) => `layer ${l} head ${i}: ${h.best} ${h.score.toFixed(2)}`)));

  writeFileSync(join(dir, 'own.ts'),
    "declare function require(id: './dist/attention-model.js'): typeof globalThis.createAttentionModel;\n" +
    "declare function require(id: 'node:fs'): { readFileSync(path: string): Uint8Array; existsSync(path: string): boolean };\nexport {};\n" + code);
  typecheck('own.ts', modelTypes);
});

test('docs/developing.md: every core header is in its table and has its test file', () => {
  const doc = readFileSync(join(root, 'docs', 'developing.md'), 'utf8');
  const table = doc.slice(doc.indexOf('\n## The core\n'), doc.indexOf('\n## ', doc.indexOf('\n## The core\n') + 1));
  // The core's own headers and the language model's wing (cpp/core/lm/), named from cpp/core as
  // their includes name them ("lm/gpt2.hpp").
  const headersIn = (folder) =>
    readdirSync(join(root, 'cpp', 'core', folder)).filter((f) => f.endsWith('.hpp')).map((f) => (folder ? folder + '/' : '') + f);
  const headers = [...headersIn(''), ...headersIn('lm')];
  assert.ok(headersIn('lm').length >= 5);
  for (const header of headers) {
    assert.ok(table.includes('`' + header + '`'), `docs/developing.md's core table names ${header}`);
    const tests = join(root, 'tests', 'cpp', `test_${header.replace(/^lm\//, '').replace(/\.hpp$/, '')}.cpp`);
    assert.ok(existsSync(tests), `${header} has ${tests}`);
    assert.match(readFileSync(tests, 'utf8'), new RegExp(`#include "${header.replace('.', '\\.')}"`));
  }
});

test('README: its pictures are the ones scripts/readme-pictures.mjs takes from the built page, and each is there', async () => {
  const { PICTURES } = await import(join(root, 'scripts', 'readme-pictures.mjs'));
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const shown = [...readme.matchAll(/!\[[^\]]*\]\(docs\/([^)]+\.png)\)/g)].map((m) => m[1]).sort();
  assert.deepEqual(shown, Object.keys(PICTURES).sort());
  for (const [name, p] of Object.entries(PICTURES)) {
    const png = readFileSync(join(root, 'docs', name));
    assert.equal(png.toString('latin1', 1, 4), 'PNG', name);
    // The size the script takes it at: the screen times its scale (IHDR: width and height at 16 and 20).
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [p.width * p.scale, p.height * p.scale], name);
  }
});
