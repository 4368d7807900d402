// Exports for writers (web/src/views/formats.ts) on the engine's real results: each format carries the
// same numbers. CSV reads back through the engine's own matrix parser; the SVG is parsed by
// Chromium's DOMParser; the NumPy code is run by Python with NumPy (scripts/setup.sh installs
// Debian's python3-numpy), and the test fails when there is none.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root, launch } from './page-helpers.mjs';

let X; // web/src/views/formats.ts
let engine;
let browser;

before(async () => {
  const out = await build({ entryPoints: [join(root, 'web/src/views/formats.ts')], bundle: true, format: 'esm',
    platform: 'neutral', write: false, logLevel: 'silent' });
  X = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
  engine = await createRequire(import.meta.url)(join(root, 'dist/attention-engine.js'))();
  browser = await launch();
});
after(async () => browser?.close());

/**
 * A Python that imports NumPy: the one on the PATH, else Debian's /usr/bin/python3 (where
 * python3-numpy installs it, when the PATH leads to another Python first).
 */
function pythonWithNumpy() {
  for (const python of ['python3', '/usr/bin/python3']) {
    if (spawnSync(python, ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0) return python;
  }
  assert.fail('no python3 with NumPy: scripts/setup.sh installs python3-numpy');
}

const fruit = [[1, 2, 1], [2, 2, 0], [0, 2, 3]];
const tokens = ['apple', 'orange', 'iPhone'];

function labelled(title, m, rowLabels = tokens, colLabels = tokens) {
  return { title, rows: m.rows, cols: m.cols, data: m.data, rowLabels, colLabels };
}

function fruitSteps(options = {}) {
  const r = engine.attention({ queries: fruit, keys: fruit, values: fruit, ...options });
  assert.ok(r.ok, r.error?.message);
  return r;
}

test('export: bare CSV reads back through the engine to the same doubles', () => {
  const weights = labelled('weights', fruitSteps().weights);
  const back = engine.parseMatrix(X.toCsv(weights, true), 'csv');
  assert.ok(back.ok, back.error?.message);
  assert.deepEqual(Array.from(back.matrix.data), Array.from(weights.data));
});

test('export: labelled CSV has a header and quotes labels that need it', () => {
  const scores = labelled('scores', fruitSteps({ scale: 'none' }).scores, ['apple', 'orange, ripe', 'say "hi"']);
  const lines = X.toCsv(scores).split('\r\n');
  assert.equal(lines[0], ',apple,orange,iPhone');
  assert.equal(lines[1], 'apple,6,6,7');
  assert.equal(lines[2], '"orange, ripe",6,8,4');
  assert.equal(lines[3], '"say ""hi""",7,4,13');
});

test('export: JSON carries labels, numbers and null for masked scores', () => {
  const masked = labelled('masked', fruitSteps({ scale: 'none', mask: 'causal' }).masked);
  const json = JSON.parse(X.toJson(masked));
  assert.deepEqual(json.rowLabels, tokens);
  assert.deepEqual(json.data, [[6, null, null], [6, 8, null], [7, 4, 13]]);
});

test('export: LaTeX is one array, its labels in the same columns as the entries', () => {
  const scores = labelled('scores', fruitSteps({ scale: 'none', mask: 'causal' }).masked,
    ['a_b', 'x & y', 'iPhone']);
  const tex = X.toLatex(scores);
  const body = tex.split('\\begin{array}{r|ccc}\n')[1].split('\n\\end{array}')[0];
  assert.equal(body, [
    '   & \\text{apple} & \\text{orange} & \\text{iPhone} \\\\',
    '  \\hline',
    '  \\text{a\\_b} & 6 & -\\infty & -\\infty \\\\',
    '  \\text{x \\& y} & 6 & 8 & -\\infty \\\\',
    '  \\text{iPhone} & 7 & 4 & 13',
  ].join('\n'));
  // The structure a typesetter needs: every row has the header's number of cells, one array.
  const rows = body.split('\\\\').map((r) => r.replace('\\hline', '').split(' & ').length);
  assert.deepEqual(rows, [4, 4, 4, 4]);
  assert.equal(tex.match(/\\begin\{/g).length, 1);
});

test('export: Markdown table with rounded numbers and escaped labels', () => {
  const weights = labelled('weights', fruitSteps().weights, ['a|b', 'orange', 'iPhone']);
  const md = X.toMarkdown(weights, 3).split('\n');
  assert.equal(md[0], '| weights | apple | orange | iPhone |');
  assert.equal(md[1], '|---|---:|---:|---:|');
  const w = Array.from(weights.data.subarray(0, 3), (x) => Number(x.toPrecision(3)).toString());
  assert.equal(md[2], `| **a\\|b** | ${w.join(' | ')} |`);
});

/** Softmax(QKᵀ / √d) of plain rows, written here from the formula, not taken from the engine. */
function referenceWeights(q, k) {
  const d = q[0].length;
  return q.map((qi) => {
    const s = k.map((kj) => qi.reduce((sum, x, t) => sum + x * kj[t], 0) / Math.sqrt(d));
    const top = Math.max(...s);
    const e = s.map((x) => Math.exp(x - top));
    const total = e.reduce((a, b) => a + b, 0);
    return e.map((x) => x / total);
  });
}

/** Whether `shown` is `x` rounded to `digits` significant digits (half a unit of the last one). */
function roundsTo(shown, x, digits) {
  const value = Number(shown.replace('−', '-'));
  if (x === 0) return value === 0;
  const unit = 10 ** (Math.floor(Math.log10(Math.abs(x))) - digits + 1);
  return Math.abs(value - x) <= unit / 2 + 1e-12 * Math.abs(x);
}

test('export: Markdown is a table with a column per key, a row per query, each weight at 4 digits', () => {
  const expected = referenceWeights(fruit, fruit);
  const md = X.toMarkdown(labelled('weights', fruitSteps().weights)).trim().split('\n');
  const cells = (line) => {
    assert.match(line, /^\|.*\|$/, line);
    return line.slice(1, -1).split('|').map((c) => c.trim());
  };
  assert.deepEqual(cells(md[0]), ['weights', ...tokens]);
  assert.deepEqual(cells(md[1]), ['---', '---:', '---:', '---:']);
  assert.equal(md.length, 2 + tokens.length, 'one row per query');
  md.slice(2).forEach((line, i) => {
    const [label, ...numbers] = cells(line);
    assert.equal(label, `**${tokens[i]}**`);
    assert.equal(numbers.length, tokens.length, `row ${i}`);
    numbers.forEach((n, j) => assert.ok(roundsTo(n, expected[i][j], 4), `(${i}, ${j}): ${n} vs ${expected[i][j]}`));
  });
});

test('export: LaTeX weights are an array of a label column and a column per key, each weight at 4 digits', () => {
  const expected = referenceWeights(fruit, fruit);
  const tex = X.toLatex(labelled('weights', fruitSteps().weights));
  const spec = tex.match(/\\begin\{array\}\{r\|(c+)\}\n([\s\S]*)\n\\end\{array\}/);
  assert.ok(spec, tex);
  assert.equal(spec[1].length, tokens.length, 'a column per key');
  const lines = spec[2].split('\\\\').map((r) => r.replace('\\hline', '').trim()).filter(Boolean);
  assert.equal(lines.length, 1 + tokens.length, 'the header and a row per query');
  assert.deepEqual(lines[0].split(/\s*&\s*/), ['', ...tokens.map((t) => `\\text{${t}}`)]);
  lines.slice(1).forEach((line, i) => {
    const [label, ...numbers] = line.split(/\s*&\s*/);
    assert.equal(label, `\\text{${tokens[i]}}`);
    assert.equal(numbers.length, tokens.length, `row ${i}`);
    numbers.forEach((n, j) => assert.ok(roundsTo(n, expected[i][j], 4), `(${i}, ${j}): ${n} vs ${expected[i][j]}`));
  });
});

test('export: NumPy code rebuilds the numbers', () => {
  const steps = fruitSteps({ mask: 'causal' });
  const code = X.toNumpy(labelled('masked scores', steps.masked));
  assert.match(code, /^import numpy as np$/m);
  assert.match(code, /^masked_scores = np\.array\(\[$/m);
  // Every number in the shortest form that reads back exactly, −∞ as -np.inf.
  for (let i = 0; i < 3; i++) {
    const row = Array.from(steps.masked.data.subarray(i * 3, i * 3 + 3), (x) => (x === -Infinity ? '-np.inf' : String(x)));
    assert.ok(code.includes(`    [${row.join(', ')}],`), `row ${i}: ${row}`);
  }
  const run = spawnSync(pythonWithNumpy(), ['-c', code + '\nprint(repr(masked_scores.tolist()))'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const printed = JSON.parse(run.stdout.replace(/-inf/g, 'null'));
  assert.deepEqual(printed.flat().map((x) => (x === null ? -Infinity : x)), Array.from(steps.masked.data));
});

test('export: the SVG parses and shows every label and value', async () => {
  const weights = labelled('weights <of> "fruit"', fruitSteps().weights, ['apple', 'or&nge', 'iPhone']);
  const svg = X.toSvg(weights, { fill: () => '#336699', ink: () => '#ffffff', digits: 3 });
  const page = await browser.context.newPage();
  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const error = doc.querySelector('parsererror');
    return { error: error ? error.textContent : null, texts: [...doc.querySelectorAll('text')].map((t) => t.textContent),
      rects: doc.querySelectorAll('rect').length, title: doc.querySelector('title')?.textContent };
  }, svg);
  await page.close();
  assert.equal(parsed.error, null);
  assert.equal(parsed.title, 'weights <of> "fruit"');
  assert.equal(parsed.rects, 1 + 9);  // the background and one per cell
  for (const label of ['apple', 'or&nge', 'iPhone']) assert.ok(parsed.texts.includes(label), label);
  for (const x of weights.data) assert.ok(parsed.texts.includes(X.displayNumber(x, 3)), String(x));
});

test('export: the SVG fits every label and number, Chinese and long ones too, with no overlap', async () => {
  const words = ['我', '喜欢', '苹果', '和', '香蕉'];
  const features = ['animal', 'technology', 'person', '一个很长的特征名字', 'can_fly'];
  const r = engine.attention({ queries: fruit.concat([[1, 1, 1], [0, 0, 1]]).map((row) => row.concat([1, 0])),
    keys: fruit.concat([[1, 1, 1], [0, 0, 1]]).map((row) => row.concat([1, 0])),
    values: fruit.concat([[1, 1, 1], [0, 0, 1]]).map((row) => row.concat([-1234.5, 0.0001])) });
  assert.ok(r.ok, r.error?.message);
  const long = 'a word far longer than any column should be, forty chars';
  const cases = {
    weights: labelled('权重', r.weights, words, words),
    output: labelled('输出 = 权重 · V', r.output, words.slice(0, 4).concat([long]), features),
  };
  const page = await browser.context.newPage();
  for (const [name, m] of Object.entries(cases)) {
    const svg = X.toSvg(m, { fill: () => '#336699', ink: () => '#ffffff' });
    await page.setContent(svg);
    const seen = await page.evaluate(() => {
      const root = document.querySelector('svg');
      const texts = [...root.querySelectorAll('text')].map((t) => {
        const b = t.getBBox();
        return { text: t.textContent, x: b.x, y: b.y, right: b.x + b.width };
      });
      return { width: root.width.baseVal.value, texts };
    });
    for (const t of seen.texts) {
      assert.ok(t.x >= 0 && t.right <= seen.width, `${name}: "${t.text}" spans ${t.x.toFixed(1)}–${t.right.toFixed(1)} of ${seen.width}`);
    }
    // Texts on one line (the column labels, each row's numbers) do not overlap.
    const lines = new Map();
    for (const t of seen.texts) lines.set(Math.round(t.y), [...(lines.get(Math.round(t.y)) ?? []), t]);
    for (const line of lines.values()) {
      line.sort((a, b) => a.x - b.x);
      for (let k = 1; k < line.length; k++) {
        assert.ok(line[k - 1].right <= line[k].x, `${name}: "${line[k - 1].text}" runs into "${line[k].text}"`);
      }
    }
    for (const w of words.slice(0, 4)) assert.ok(seen.texts.some((t) => t.text === w), `${name}: ${w}`);
    if (m.rowLabels.includes(long)) {
      assert.ok(seen.texts.some((t) => t.text.endsWith('…') && long.startsWith(t.text.slice(0, -1))), `${name}: the long label shortened`);
    }
  }
  await page.close();
});

test('export: NumPy names its array in the title\'s own script, as valid Python', () => {
  const weights = labelled('权重', fruitSteps().weights);
  const output = labelled('输出 = 权重 · V', fruitSteps().output);
  const scores = labelled('Similarity QKᵀ', fruitSteps().scores);
  assert.match(X.toNumpy(weights), /^权重 = np\.array\(\[$/m);
  assert.match(X.toNumpy(weights), /^权重_rows = \["apple","orange","iPhone"\]$/m);
  assert.match(X.toNumpy(output), /^输出_权重_v = np\.array\(\[$/m);
  assert.match(X.toNumpy(scores), /^similarity_qkt = np\.array\(\[$/m);
  assert.match(X.toNumpy(labelled('√', fruitSteps().weights)), /^matrix = np\.array/m);
  assert.match(X.toNumpy(labelled('2 heads', fruitSteps().weights)), /^m_2_heads = np\.array/m);
  // Run, not only parsed: each name must hold its array in Python.
  const python = pythonWithNumpy();
  for (const m of [weights, output, scores]) {
    const code = X.toNumpy(m);
    const name = code.match(/^(\S+) = np\.array/m)[1];
    const run = spawnSync(python, ['-c', code + `\nprint(${name}.shape)`], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), `(${m.rows}, ${m.cols})`, m.title);
  }
});

test('export: display numbers round and spell minus and infinity as a reader writes them', () => {
  assert.equal(X.displayNumber(0.362441, 3), '0.362');
  assert.equal(X.displayNumber(-1.5), '−1.5');
  assert.equal(X.displayNumber(-Infinity), '−∞');
  assert.equal(X.displayNumber(6), '6');
  assert.equal(X.displayNumber(1234567, 4), '1235000');
});
