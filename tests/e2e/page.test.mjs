// The playground page in real Chromium, against the built dist/ (npm run build), served under the
// product's strict CSP. Each test reads the numbers a reader would see and checks them against
// the article's examples and against what the reader just did.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  serveAndLaunch, root, open, andRender, readHeatmap, cell, number, shot, loadPreset, pasteMatrix,
} from './page-helpers.mjs';

const env = serveAndLaunch();

async function page(options) {
  return open(env.chromium.context, env.server.url + '#ver=1', options);
}

const explanation = (p) => p.locator('.explain-body').innerText();
const argmax = (row) => row.map(number).reduce((best, x, j, all) => (x > all[best] ? j : best), 0);
const extraColumn = (p, view, side, k) => p.evaluate(([v, s, k]) =>
  Array.from(document.querySelectorAll(`.heatmap[data-view="${v}"][data-side="${s}"] tbody tr`),
    (tr) => tr.querySelectorAll('td.extra')[k].textContent), [view, side, k]);

// --- each preset shows the article's numbers --------------------------------------------------------

test('Fruit preset: apple·orange reads 6 and its explanation lists 1×2 + 2×2 + 1×0', async () => {
  const { page: p, problems } = await page();
  await loadPreset(p, 'fruit');
  const scores = await readHeatmap(p, 'scores', 'a');
  assert.deepEqual(scores, [['6', '6', '7'], ['6', '8', '4'], ['7', '4', '13']]);
  await cell(p, 'scores', 0, 1).hover();
  const text = await explanation(p);
  assert.match(text, /1×2 \+ 2×2 \+ 1×0 = 6/);
  // Cosine on the right: 6 / (√6·√8) ≈ 0.866, and every word is fully similar to itself.
  const cosine = await readHeatmap(p, 'scores', 'b');
  assert.equal(cosine[0][1], '0.87');
  assert.deepEqual([cosine[0][0], cosine[1][1], cosine[2][2]], ['1', '1', '1']);
  await cell(p, 'scores', 0, 1, 'b').hover();
  assert.match(await explanation(p), /\(1×2 \+ 2×2 \+ 1×0 = 6\) ÷ \(2\.4495 × 2\.8284\) = 0\.86603/);
  assert.deepEqual(problems, []);
  await p.close();
});

test('Painting preset: the article’s scores, and under “flying” the bird has the largest weight', async () => {
  const { page: p, problems } = await page();
  await loadPreset(p, 'painting');
  assert.deepEqual(await readHeatmap(p, 'scores', 'a'), [['80', '60', '50', '30', '10'], ['20', '30', '10', '100', '10']]);
  const weights = await readHeatmap(p, 'weights', 'a');
  assert.equal(argmax(weights[0]), 0, 'with no condition the person wins');
  assert.equal(argmax(weights[1]), 3, 'under "flying" the bird wins');
  assert.ok(number(weights[1][3]) > 0.9);
  const labels = await p.locator('.heatmap[data-view="weights"][data-side="a"] thead th').allInnerTexts();
  assert.deepEqual(labels.slice(0, 5), ['person', 'mountain', 'flower', 'bird', 'ribbon']);
  assert.deepEqual(problems, []);
  await p.close();
});

test('Why softmax preset: sum-normalisation flags the zero-sum row; softmax rows sum to 1', async () => {
  const { page: p, problems } = await page();
  await loadPreset(p, 'softmax');
  const rows = p.locator('.heatmap[data-view="weights"][data-side="a"] tbody tr');
  assert.equal(await rows.nth(0).getAttribute('data-problem'), null);
  assert.equal(await rows.nth(1).getAttribute('data-problem'), 'zero_sum');
  assert.match(await rows.nth(1).innerText(), /sums to 0/);
  assert.equal(await rows.nth(2).getAttribute('data-problem'), 'negative_weights');
  const sum = await readHeatmap(p, 'weights', 'a');
  assert.ok(sum[2].some((x) => number(x) < 0), 'the sign-flipping row has negative weights');
  assert.deepEqual(await extraColumn(p, 'weights', 'b', 0), ['1', '1', '1']);
  const softmax = await readHeatmap(p, 'weights', 'b');
  assert.ok(softmax.flat().every((x) => number(x) > 0));
  await cell(p, 'weights', 1, 0).hover();
  assert.match(await explanation(p), /sums to 0/);
  assert.deepEqual(problems, []);
  await p.close();
});

test('Why √d_k preset: without scaling the rows lose entropy, more so as d_k grows', async () => {
  const { page: p, problems } = await page();
  await loadPreset(p, 'sqrtdk');
  const entropy = async (side) => (await extraColumn(p, 'weights', side, 1)).map(number);
  const total = (xs) => xs.reduce((a, b) => a + b, 0);
  const scaled512 = total(await entropy('a')), unscaled512 = total(await entropy('b'));
  assert.ok(unscaled512 < scaled512, `unscaled ${unscaled512} < scaled ${scaled512}`);
  await andRender(p, () => p.selectOption('select[data-control="dK"]', '4'));
  const unscaled4 = total(await entropy('b'));
  assert.ok(unscaled512 < unscaled4, `d_k 512: ${unscaled512} < d_k 4: ${unscaled4}`);
  assert.deepEqual(problems, []);
  await p.close();
});

test('Causal preset: the upper triangle of the weights is zero and drawn masked', async () => {
  const { page: p, problems } = await page();
  await loadPreset(p, 'causal');
  const weights = await readHeatmap(p, 'weights', 'a');
  assert.equal(weights.length, 8);
  for (let i = 0; i < weights.length; i++) {
    for (let j = i + 1; j < weights.length; j++) assert.equal(weights[i][j], '0', `weight ${i},${j}`);
    assert.ok(number(weights[i][i]) > 0);
  }
  assert.equal(await cell(p, 'weights', 0, 5).getAttribute('data-ink'), 'masked');
  assert.equal((await readHeatmap(p, 'masked', 'a'))[0][1], '−∞');
  assert.deepEqual(problems, []);
  await p.close();
});

test('Multi-head preset: two heads attend differently; their outputs are joined and mixed', async () => {
  const { page: p, problems } = await page();
  await loadPreset(p, 'multihead');
  const tabs = p.locator('.tabs [role="tab"]');
  assert.equal(await tabs.count(), 2);
  const first = await readHeatmap(p, 'weights', 'a');
  await andRender(p, () => tabs.nth(1).click());
  const second = await readHeatmap(p, 'weights', 'a');
  assert.notDeepEqual(first, second);
  const concat = await readHeatmap(p, 'concat', 'a');
  assert.equal(concat[0].length, 8, 'two heads × d_v 4');
  const final = await readHeatmap(p, 'final', 'a');
  assert.equal(final[0].length, 8, 'back to the 8 features');
  assert.deepEqual(problems, []);
  await p.close();
});

// --- what the reader does updates what they see -----------------------------------------------------

test('typing words updates every view', async () => {
  const { page: p, problems } = await page();
  const before = {};
  // No mask here: the masked step is one line, with no heatmap of its own.
  const views = ['scores', 'scaled', 'weights', 'output'];
  for (const v of views) before[v] = await readHeatmap(p, v, 'a');
  await p.fill('#words-text', '');
  await andRender(p, () => p.type('#words-text', 'the bird flies', { delay: 5 }));
  // The last keystroke's render: "the bird fl" has three rows too, one frame earlier.
  await p.waitForFunction(() => {
    const rows = document.querySelectorAll('.input-grid[data-view="x"] tbody tr');
    return rows.length === 3 && /flies/.test(rows[2].querySelector('th')?.textContent ?? '');
  });
  const tokens = await p.locator('.input-grid[data-view="x"] tbody th').allInnerTexts();
  assert.deepEqual(tokens.map((s) => s.replace(/[?✎]/g, '').trim()), ['the', 'bird', 'flies']);
  for (const v of views) {
    const now = await readHeatmap(p, v, 'a');
    assert.equal(now.length, 3, v);
    assert.notDeepEqual(now, before[v], v);
    const rows = await p.locator(`.heatmap[data-view="${v}"][data-side="a"] tbody th`).allInnerTexts();
    assert.deepEqual(rows, ['the', 'bird', 'flies'], v);
  }
  assert.equal(await p.locator('.plot .value-dot').count(), 3);
  assert.deepEqual(problems, []);
  await p.close();
});

test('the plot draws each arrow from its token\'s value point to its output point, its axes through the origin, and follows the temperature', async () => {
  const { page: p, problems } = await page();
  await loadPreset(p, 'fruit');
  const geometry = () => p.evaluate(() => {
    const at = (el, x, y) => [Number(el.getAttribute(x)), Number(el.getAttribute(y))];
    const plot = document.querySelector('[data-view="plot"]');
    return {
      lines: Array.from(plot.querySelectorAll('line.move'), (l) => [...at(l, 'x1', 'y1'), ...at(l, 'x2', 'y2')]),
      values: Array.from(plot.querySelectorAll('circle.value-dot'), (c) => at(c, 'cx', 'cy')),
      outputs: Array.from(plot.querySelectorAll('circle.output-dot'), (c) => at(c, 'cx', 'cy')),
      labels: Array.from(plot.querySelectorAll('text.value-label'), (t) => {
        const b = t.getBBox();
        return [b.x, b.y, b.x + b.width, b.y + b.height];
      }),
      axes: Array.from(plot.querySelectorAll('line.axis'), (l) => [...at(l, 'x1', 'y1'), ...at(l, 'x2', 'y2')]),
      box: plot.querySelector('svg').getAttribute('viewBox').split(' ').map(Number),
    };
  });
  const check = (g) => {
    assert.equal(g.lines.length, 3);
    g.lines.forEach(([x1, y1, x2, y2], i) => {
      assert.ok(Math.hypot(x1 - g.values[i][0], y1 - g.values[i][1]) < 0.01, `arrow ${i} starts at its value`);
      assert.ok(Math.hypot(x2 - g.outputs[i][0], y2 - g.outputs[i][1]) < 0.01, `arrow ${i} ends at its output`);
      // A label sits beside its point (on whichever side leaves the other labels clear).
      const [left, top, right, bottom] = g.labels[i], [x, y] = g.values[i];
      const gap = Math.hypot(Math.max(left - x, 0, x - right), Math.max(top - y, 0, y - bottom));
      assert.ok(gap < 16, `label ${i} beside its point (${gap.toFixed(1)} px away)`); // 13 px labels, a line's height
      for (const [x, y] of [g.values[i], g.outputs[i]]) assert.ok(x >= 0 && x <= g.box[2] && y >= 0 && y <= g.box[3], 'inside the plot');
    });
    // The axes cross at the plane's origin, the mean of all the points the engine placed.
    const all = [...g.values, ...g.outputs];
    const mean = [0, 1].map((c) => all.reduce((s, p) => s + p[c], 0) / all.length);
    const [horizontal, vertical] = g.axes;
    assert.ok(Math.abs(horizontal[1] - mean[1]) < 0.01 && Math.abs(horizontal[3] - mean[1]) < 0.01, 'the x axis passes through the mean');
    assert.ok(Math.abs(vertical[0] - mean[0]) < 0.01 && Math.abs(vertical[2] - mean[0]) < 0.01, 'the y axis passes through the mean');
  };
  const before = await geometry();
  check(before);
  // Fruit divides by a temperature already (T = 0.2): the slider's far end sharpens it further.
  await andRender(p, () => p.evaluate(() => {
    const el = document.querySelector('input[data-control="temperature"]');
    el.value = el.min; // the coldest: each output moves towards its strongest key's value
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }));
  const after = await geometry();
  check(after);
  assert.ok(after.outputs.some((o, i) => Math.hypot(o[0] - before.outputs[i][0], o[1] - before.outputs[i][1]) > 1),
    'the outputs moved');
  assert.deepEqual(problems, []);
  await p.close();
});

test('editing one vector cell changes the output', async () => {
  const { page: p, problems } = await page();
  await loadPreset(p, 'painting');
  const output = await readHeatmap(p, 'output', 'a');
  const input = p.locator('.input-grid[data-view="k"] input[data-i="3"][data-j="1"]');
  assert.equal(await input.inputValue(), '100');
  await andRender(p, () => input.fill('0'));
  const changed = await readHeatmap(p, 'output', 'a');
  assert.notDeepEqual(changed, output);
  assert.notEqual(argmax(changed[1]), 3, 'the bird no longer wins under "flying"');
  // In words mode too: an edited word vector is marked and used.
  await loadPreset(p, 'fruit');
  const fruitOutput = await readHeatmap(p, 'output', 'a');
  await andRender(p, () => p.locator('.input-grid[data-view="x"] input[data-i="0"][data-j="2"]').fill('5'));
  assert.notDeepEqual(await readHeatmap(p, 'output', 'a'), fruitOutput);
  assert.equal(await p.locator('.input-grid[data-view="x"] tbody tr').nth(0).getAttribute('data-mark'), 'edited');
  assert.deepEqual(problems, []);
  await p.close();
});

test('the causal mask control zeroes the upper triangle of the weights', async () => {
  const { page: p, problems } = await page();
  const before = await readHeatmap(p, 'weights', 'a');
  assert.ok(number(before[0][5]) > 0);
  await andRender(p, () => p.check('fieldset[data-control="mask"] input[value="causal"]'));
  const weights = await readHeatmap(p, 'weights', 'a');
  for (let i = 0; i < weights.length; i++) {
    for (let j = i + 1; j < weights.length; j++) assert.equal(weights[i][j], '0');
  }
  // A custom mask starts from the causal one; clicking a cell of the masked view shows that key again.
  await andRender(p, () => p.check('fieldset[data-control="mask"] input[value="custom"]'));
  assert.equal((await readHeatmap(p, 'weights', 'a'))[0][5], '0');
  await andRender(p, () => cell(p, 'masked', 0, 5).click());
  assert.ok(number((await readHeatmap(p, 'weights', 'a'))[0][5]) > 0);
  assert.notEqual((await readHeatmap(p, 'masked', 'a'))[0][5], '−∞');
  await andRender(p, () => cell(p, 'masked', 0, 5).click());
  assert.equal((await readHeatmap(p, 'masked', 'a'))[0][5], '−∞');
  assert.deepEqual(problems, []);
  await p.close();
});

test('hovering a cell explains it and lights its row and column in every view', async () => {
  const { page: p, problems } = await page();
  await loadPreset(p, 'fruit');
  await cell(p, 'weights', 1, 2).hover();
  const text = await explanation(p);
  assert.match(text, /orange → iPhone/);
  assert.match(text, /exp\(/);
  const lit = (view, side = 'a') => p.evaluate(([v, s]) => {
    const root = document.querySelector(`.heatmap[data-view="${v}"][data-side="${s}"]`) ??
      document.querySelector(`.input-grid[data-view="${v}"]`);
    return {
      rows: Array.from(root.querySelectorAll('tbody tr'), (tr, i) => (tr.classList.contains('hl') ? i : -1)).filter((i) => i >= 0),
      cols: Array.from(root.querySelectorAll('thead th'), (th, j) => (th.classList.contains('hl') ? j : -1)).filter((j) => j >= 0),
    };
  }, [view, side]);
  for (const v of ['scores', 'scaled', 'weights']) { // no mask: the masked step is one line
    assert.deepEqual(await lit(v, 'a'), { rows: [1], cols: [2] }, v);
    assert.deepEqual(await lit(v, 'b'), { rows: [1], cols: [2] }, v + ' (right)');
  }
  assert.deepEqual((await lit('output')).rows, [1]);
  assert.deepEqual((await lit('x')).rows, [1, 2], 'the query word and the key word');
  assert.ok(await p.locator('.formula .f-on').count() > 0, 'the formula highlights the step');
  // An output entry: Σ_j w_ij·v_j[t].
  await cell(p, 'output', 0, 1).hover();
  assert.match(await explanation(p), /Σ_j w_ij·v_j = .*×2 \+ .*×2 \+ .*×2 = 2\b/);
  assert.deepEqual(problems, []);
  await p.close();
});

test('focusing a cell by keyboard explains it; arrow keys move between cells', async () => {
  const { page: p, problems } = await page();
  await loadPreset(p, 'fruit');
  await cell(p, 'scores', 0, 0).focus();
  assert.match(await explanation(p), /apple → apple/);
  await p.keyboard.press('ArrowRight');
  assert.match(await explanation(p), /apple → orange/);
  assert.match(await explanation(p), /1×2 \+ 2×2 \+ 1×0 = 6/);
  assert.equal(await p.evaluate(() => document.activeElement.dataset.j), '1');
  await p.keyboard.press('ArrowDown');
  assert.match(await explanation(p), /orange → orange/);
  const rows = await p.locator('.heatmap[data-view="weights"][data-side="a"] tbody tr.hl').count();
  assert.equal(rows, 1);
  assert.deepEqual(problems, []);
  await p.close();
});

// --- bad input: a located message, and the last good result stays ------------------------------------

test('a letter in a number cell: located message, the last result stays, the text is kept', async () => {
  const { page: p, problems } = await page();
  await loadPreset(p, 'painting');
  const weights = await readHeatmap(p, 'weights', 'a');
  const input = p.locator('.input-grid[data-view="q"] input[data-i="1"][data-j="0"]');
  await andRender(p, () => input.fill('0x'));
  const message = await p.locator('[data-errors="q"]').innerText();
  assert.match(message, /row 2 \(flying\), column 1: “0x” is not a number/);
  assert.equal(await input.getAttribute('aria-invalid'), 'true');
  assert.equal(await input.inputValue(), '0x');
  assert.deepEqual(await readHeatmap(p, 'weights', 'a'), weights);
  assert.ok(await p.locator('.stale').isVisible());
  await andRender(p, () => input.fill('0'));
  assert.equal(await p.locator('[data-errors="q"]').innerText(), '');
  assert.ok(!(await p.locator('.stale').isVisible()));
  assert.deepEqual(problems, []);
  await p.close();
});

test('the plot labels three tokens whose values coincide on three sides of their point, not on top of each other', async () => {
  const { page: p, problems } = await page();
  await loadPreset(p, 'painting');
  // Person, mountain and flower get the same value vector: one point, three names.
  await pasteMatrix(p, 'v', '1 0 0 0 0\n1 0 0 0 0\n1 0 0 0 0\n0 0 0 1 0\n0 0 0 0 1');
  const { points, boxes } = await p.evaluate(() => {
    const plot = document.querySelector('[data-view="plot"]');
    return {
      points: Array.from(plot.querySelectorAll('circle.value-dot'), (c) => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]),
      boxes: Array.from(plot.querySelectorAll('text.value-label'), (t) => {
        const b = t.getBBox();
        return [b.x, b.y, b.x + b.width, b.y + b.height];
      }),
    };
  });
  assert.equal(boxes.length, 5);
  for (const i of [1, 2]) assert.ok(Math.hypot(points[i][0] - points[0][0], points[i][1] - points[0][1]) < 0.01, `point ${i} on point 0`);
  for (let a = 0; a < 3; a++) {
    for (let b = a + 1; b < 3; b++) {
      const [p0, q0] = [boxes[a], boxes[b]];
      const w = Math.min(p0[2], q0[2]) - Math.max(p0[0], q0[0]), h = Math.min(p0[3], q0[3]) - Math.max(p0[1], q0[1]);
      assert.ok(w <= 1 || h <= 1, `labels ${a} and ${b} overlap by ${w.toFixed(1)} × ${h.toFixed(1)} px`);
    }
  }
  assert.deepEqual(problems, []);
  await p.close();
});

test('a ragged row pasted as a matrix: located message, nothing replaced', async () => {
  const { page: p, problems } = await page();
  await loadPreset(p, 'painting');
  const weights = await readHeatmap(p, 'weights', 'a');
  await p.click('details.paste summary');
  await p.selectOption('select[data-control="paste-target"]', 'k');
  await p.fill('textarea[data-input="matrix-paste"]', '1 2\n3');
  await p.click('button[data-action="paste"]');
  const message = await p.locator('[data-errors="paste"]').innerText();
  assert.match(message, /line 2/i);
  assert.deepEqual(await readHeatmap(p, 'weights', 'a'), weights);
  assert.equal(await p.locator('.input-grid[data-view="k"] tbody tr').count(), 5);
  // A matrix of the wrong width is refused by the engine, and said so next to the inputs.
  await p.fill('textarea[data-input="matrix-paste"]', '1 2 3\n4 5 6\n7 8 9\n1 1 1\n2 2 2');
  await andRender(p, () => p.click('button[data-action="paste"]'));
  const shape = await p.locator('.vectors-panel [data-errors]').allInnerTexts();
  assert.match(shape.join('\n'), /3/);
  assert.match(shape.join('\n'), /2/);
  assert.deepEqual(await readHeatmap(p, 'weights', 'a'), weights);
  assert.ok(await p.locator('.stale').isVisible());
  assert.deepEqual(problems, []);
  await p.close();
});

test('a file that is not word vectors: located message, the built-in words stay', async () => {
  const { page: p, problems } = await page();
  const weights = await readHeatmap(p, 'weights', 'a');
  await p.click('details.file summary');
  await p.setInputFiles('#glove-file', { name: 'notes.txt', mimeType: 'text/plain',
    buffer: Buffer.from('apple 1 2 3\norange 1 two 3\n') });
  await p.waitForSelector('[data-error="file"]');
  assert.match(await p.locator('[data-error="file"]').innerText(), /line 2/i);
  assert.deepEqual(await readHeatmap(p, 'weights', 'a'), weights);
  // A good file is used instead of the built-in words.
  await andRender(p, () => p.setInputFiles('#glove-file', { name: 'tiny.txt', mimeType: 'text/plain',
    buffer: Buffer.from('the 1 0\ncat 0 1\nsat 1 1\n') }));
  assert.match(await p.locator('.file [role="status"]').innerText(), /3 words with 2 features/);
  assert.deepEqual((await readHeatmap(p, 'scores', 'a'))[0].slice(0, 3), ['1', '0', '1'], 'the·(the, cat, sat)');
  assert.equal((await readHeatmap(p, 'scaled', 'a'))[0][0], '0.71', 'the·the ÷ √2');
  assert.deepEqual(problems, []);
  await p.close();
});

test('an empty sentence: a message at the text box, the last result stays', async () => {
  const { page: p, problems } = await page();
  const weights = await readHeatmap(p, 'weights', 'a');
  await andRender(p, () => p.fill('#words-text', '   '));
  assert.notEqual(await p.locator('[data-errors="text"]').innerText(), '');
  assert.deepEqual(await readHeatmap(p, 'weights', 'a'), weights);
  assert.ok(await p.locator('.stale').isVisible());
  assert.deepEqual(problems, []);
  await p.close();
});

test('more words than the page draws: a message with the count, the last result stays', async () => {
  const { page: p, problems } = await page();
  const words = (n) => Array.from({ length: n }, (_, i) => ['cat', 'sat', 'on', 'the', 'mat'][i % 5]).join(' ');
  const rowCount = () => p.locator('.heatmap[data-view="weights"][data-side="a"] [role="grid"]').getAttribute('aria-rowcount');
  await andRender(p, () => p.fill('#words-text', words(64)));
  assert.equal(await p.locator('#app').getAttribute('data-state'), 'ok');
  assert.equal(await rowCount(), '65', '64 tokens and the header row');
  await andRender(p, () => p.fill('#words-text', words(65)));
  assert.match(await p.locator('[data-errors="text"]').innerText(), /65\b.*\b64\b/);
  assert.equal(await rowCount(), '65', 'the last result stays');
  assert.ok(await p.locator('.stale').isVisible());
  assert.equal(await p.inputValue('#words-text'), words(65), 'the text is kept');
  assert.deepEqual(problems, []);
  await p.close();
});

test('multi-head: heads side by side wider than the limit: the message names heads × d_k', async () => {
  const { page: p, problems } = await open(env.chromium.context, env.server.url + '#ver=1&preset=multihead&heads=16&dK=1024');
  assert.equal(await p.locator('#app').getAttribute('data-state'), 'error');
  assert.match(await p.locator('.error').first().innerText(), /16 heads of d_k = 1,024 .* 16,384 features, above the limit of 1,024/);
  assert.deepEqual(problems, []);
  await p.close();
});

// --- every preset, light and dark: no console error, a screenshot ------------------------------------

test('no console errors on any preset, in light and dark; a screenshot of each', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const { page: p, problems } = await page({ colorScheme });
    await shot(p, `page-default-${colorScheme}`);
    for (const id of ['painting', 'fruit', 'softmax', 'sqrtdk', 'causal', 'multihead']) {
      await loadPreset(p, id);
      await cell(p, 'weights', 0, 0).hover();
      assert.equal(await p.locator('#app').getAttribute('data-state'), 'ok', id);
      const text = await p.locator('.views').textContent(); // cards off screen have no innerText
      assert.doesNotMatch(text, /NaN|undefined|Infinity/, id);
      await shot(p, `page-${id}-${colorScheme}`);
    }
    assert.deepEqual(problems, [], colorScheme);
    await p.close();
  }
});

test('the page works on a 360 px wide phone', async () => {
  const { page: p, problems } = await page({ width: 360, height: 780 });
  await loadPreset(p, 'fruit');
  const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
  await shot(p, 'page-fruit-phone');
  assert.deepEqual(problems, []);
  await p.close();
});

test('the page opens from file:// (classic scripts, no fetch)', async () => {
  const p = await env.chromium.context.newPage();
  const problems = [];
  p.on('pageerror', (e) => problems.push(e.message));
  await p.goto(pathToFileURL(join(root, 'dist', 'index.html')).href);
  await p.waitForFunction(() => Number(document.getElementById('app')?.dataset.renders ?? 0) > 0, null, { timeout: 20000 });
  assert.equal(await p.locator('#app').getAttribute('data-state'), 'ok');
  assert.deepEqual(problems, []);
  await p.close();
});

// --- large inputs, multi-head inputs, and the entropy by d_k ------------------------------------------

test('Why √d_k: a table of the engine’s row entropy at several d_k; unscaled it falls as d_k grows', async () => {
  const { page: p, problems } = await page();
  await loadPreset(p, 'sqrtdk');
  const rows = await p.evaluate(() => Array.from(document.querySelectorAll('[data-view="entropy"] tbody tr'), (tr) => ({
    dK: Number(tr.querySelector('th').textContent),
    scaled: tr.querySelector('td[data-kind="scaled"] .value').textContent,
    unscaled: tr.querySelector('td[data-kind="unscaled"] .value').textContent,
  })));
  assert.ok(rows.length >= 6, `${rows.length} values of d_k`);
  assert.deepEqual(rows.map((r) => r.dK).slice(0, 3), [1, 2, 4]);
  const first = rows[0], last = rows.at(-1);
  assert.equal(last.dK, 512);
  assert.ok(number(last.unscaled) < number(first.unscaled) - 0.3, `unscaled: ${first.unscaled} at d_k 1, ${last.unscaled} at 512`);
  assert.ok(number(last.unscaled) < number(last.scaled), 'at d_k 512 scaling keeps more entropy');
  // The row for the d_k on screen is marked, and matches the weights' entropy column on the right.
  assert.equal(await p.locator('[data-view="entropy"] tr.current th').textContent(), '512');
  assert.deepEqual(problems, []);
  await p.close();
});

test('Multi-head: each head’s projected Q, K and V are shown, and change with the head', async () => {
  const { page: p, problems } = await page();
  await loadPreset(p, 'multihead');
  const card = p.locator('[data-step="qkv"]');
  assert.ok(await card.isVisible());
  const q1 = await readHeatmap(p, 'head-q', 'a');
  assert.equal(q1.length, 6, 'one row per token');
  assert.equal(q1[0].length, 4, 'd_k = 4');
  assert.equal((await readHeatmap(p, 'head-v', 'a'))[0].length, 4, 'd_v = 4');
  await andRender(p, () => p.locator('.tabs [data-head="1"]').click());
  assert.notDeepEqual(await readHeatmap(p, 'head-q', 'a'), q1);
  assert.match(await card.locator('h3').innerText(), /2/);
  // Single-head presets do not show it.
  await loadPreset(p, 'fruit');
  assert.ok(!(await card.isVisible()));
  assert.deepEqual(problems, []);
  await p.close();
});

test('a large heatmap is a canvas in a keyboard grid: arrows move the cursor and explain the cell', async () => {
  const { page: p, problems } = await page();
  const fetched = () => p.evaluate(() => performance.getEntriesByType('resource').some((r) => r.name.endsWith('/heatmap-canvas.js')));
  assert.equal(await fetched(), false, 'a first figure of tables does not fetch the canvas form');
  await andRender(p, () => p.check('fieldset[data-control="mode"] input[value="vectors"]'));
  const rows = (n, d, f) => Array.from({ length: n }, (_, i) => Array.from({ length: d }, (_, j) => f(i, j)).join(' ')).join('\n');
  for (const [target, f] of [['q', (i, j) => ((i + j) % 5) - 2], ['k', (i, j) => ((i * j) % 3) - 1], ['v', (i, j) => (i === j ? 1 : 0)]]) {
    await pasteMatrix(p, target, rows(40, 30, f));
  }
  assert.equal(await p.locator('#app').getAttribute('data-state'), 'ok');
  const grid = p.locator('.heatmap[data-view="scores"][data-side="a"] [role="grid"]');
  await grid.waitFor(); // the canvas form comes in a script of its own, with the first large figure
  assert.equal(await grid.count(), 1, '40 × 40 = 1,600 cells: drawn on a canvas');
  assert.ok(await fetched(), 'fetched when first needed');
  assert.equal(await p.locator('.heatmap[data-view="scores"][data-side="a"] td').count(), 0);
  assert.equal(await grid.getAttribute('aria-rowcount'), '41');
  await grid.focus();
  assert.match(await p.locator('.explain-body').innerText(), /q1 → k1/);
  await p.keyboard.press('ArrowRight');
  await p.keyboard.press('ArrowDown');
  const text = await p.locator('.explain-body').innerText();
  assert.match(text, /q2 → k2/);
  // Row 2 of Q: (1+j) % 5 − 2, column 2 of K: j % 3 − 1, over 30 features; the engine's sum.
  assert.match(text, /q·k = .* = /);
  const active = await p.locator('.heatmap[data-view="scores"][data-side="a"] [role="gridcell"]').innerText();
  assert.match(active, /^k2: /);
  await p.keyboard.press('Control+End');
  assert.match(await p.locator('.explain-body').innerText(), /q40 → k40/);
  // Hovering the canvas explains the cell under the pointer.
  const box = await p.locator('.heatmap[data-view="weights"][data-side="a"] canvas.hm-overlay').boundingBox();
  await p.mouse.move(box.x + box.width - 2, box.y + box.height - 2);
  assert.match(await p.locator('.explain-body').innerText(), /q40 → k40/);
  assert.deepEqual(problems, []);
  await p.close();
});
