// The page's inputs and controls as a learner uses them, in real Chromium against the built dist/:
// a query against the keys, words the lexicon lacks, text in Chinese, vectors grown, shrunk and
// pasted as JSON, word vectors pasted as text, the temperature, the numbers toggle and the plot's
// labels. Every expected number is worked out by hand in the comment next to it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, open, andRender, readHeatmap, cell, number, loadPreset, pasteMatrix } from './page-helpers.mjs';

const env = serveAndLaunch();

const page = () => open(env.chromium.context, env.server.url + '#ver=1');
// Two seeded heads over the built-in words (the Multi-head example uses made-up vectors), whose
// numbers the tests below work out from the built-in table.
const BUILTIN_HEADS = '#ver=1&text=the+bird+flies+over+the+mountain&projection=random&heads=2&dK=4&seed=7';
const explanation = (p) => p.locator('.explain-body').innerText();
const rowLabels = (p, view) => p.locator(`.heatmap[data-view="${view}"][data-side="a"] tbody th`).allInnerTexts();
const lit = (p, view) => p.evaluate((v) => {
  const root = document.querySelector(`.heatmap[data-view="${v}"][data-side="a"]`);
  const on = (els) => Array.from(els, (el, k) => (el.classList.contains('hl') ? k : -1)).filter((k) => k >= 0);
  return { rows: on(root.querySelectorAll('tbody tr')), cols: on(root.querySelectorAll('thead th')) };
}, view);

test('query versus keys: one query word against the sentence; an X cell is explained and lit as a key', async () => {
  const { page: p, problems } = await page();
  await andRender(p, () => p.selectOption('select[data-control="lexicon"]', 'fruit'));
  await andRender(p, () => p.fill('#words-text', 'apple orange iPhone'));
  await andRender(p, () => p.check('fieldset[data-control="setup"] input[value="query"]'));
  await andRender(p, () => p.fill('#query-text', 'apple'));
  // apple (1,2,1) against apple, orange (2,2,0), iPhone (0,2,3): 1+4+1, 2+4+0, 0+4+3.
  assert.deepEqual(await readHeatmap(p, 'scores'), [['6', '6', '7']]);
  assert.deepEqual(await rowLabels(p, 'weights'), ['apple']);
  assert.equal(await p.locator('.input-grid[data-view="qx"] tbody tr').count(), 1);
  // X's third row is the key iPhone: its name is explained, and its column lights up in the steps.
  await p.locator('.input-grid[data-view="x"] input[data-i="2"][data-j="0"]').hover();
  assert.match(await explanation(p), /“iPhone”, feature “colour”/);
  assert.deepEqual(await lit(p, 'weights'), { rows: [], cols: [2] });
  // The query's own vector is the query row.
  await p.locator('.input-grid[data-view="qx"] input[data-i="0"][data-j="1"]').hover();
  assert.match(await explanation(p), /“apple”, feature “fruit”/);
  assert.deepEqual((await lit(p, 'weights')).rows, [0]);
  // A word has one vector: editing the query's apple to (1,2,5) edits the key apple too.
  // apple·apple = 1+4+25, apple·orange = 2+4+0, apple·iPhone = 0+4+15.
  await andRender(p, () => p.locator('.input-grid[data-view="qx"] input[data-i="0"][data-j="2"]').fill('5'));
  assert.deepEqual(await readHeatmap(p, 'scores'), [['30', '6', '19']]);
  assert.equal(await p.locator('.input-grid[data-view="x"] input[data-i="0"][data-j="2"]').inputValue(), '5');
  assert.deepEqual(problems, []);
  await p.close();
});

test('words the lexicon lacks are marked and editable; Chinese text is split into words', async () => {
  const { page: p, problems } = await page();
  await andRender(p, () => p.fill('#words-text', 'the zorblat sat'));
  const rows = p.locator('.input-grid[data-view="x"] tbody tr');
  assert.deepEqual(await Promise.all([0, 1, 2].map((i) => rows.nth(i).getAttribute('data-mark'))), [null, 'unknown', null]);
  assert.match(await p.locator('.words-panel .unknown-note').innerText(), /\? marks a word not in the word list \(zorblat\)/);
  // Its vector is the reader's to set: zorblat = (0, …, 0) scores 0 against every word.
  for (let j = 0; j < 8; j++) await andRender(p, () => p.locator(`.input-grid[data-view="x"] input[data-i="1"][data-j="${j}"]`).fill('0'));
  assert.deepEqual((await readHeatmap(p, 'scores'))[1], ['0', '0', '0']);
  assert.equal(await rows.nth(1).getAttribute('data-mark'), 'edited');
  assert.ok(!(await p.locator('.words-panel .unknown-note').isVisible()), 'an edited word is no longer made up');
  await andRender(p, () => p.fill('#words-text', '我喜欢苹果'));
  assert.deepEqual(await rowLabels(p, 'weights'), ['我', '喜欢', '苹果']);
  assert.deepEqual(problems, []);
  await p.close();
});

test('vectors: a JSON matrix pasted into Q, then queries, keys and d_k added and removed', async () => {
  const { page: p, problems } = await page();
  await loadPreset(p, 'painting');
  await pasteMatrix(p, 'q', '[[1, 0], [0, 1], [1, 1]]');
  // The third query (1, 1) adds both columns of K: 80+20, 60+30, 50+10, 30+100, 10+10.
  assert.deepEqual((await readHeatmap(p, 'scores'))[2], ['100', '90', '60', '130', '20']);
  await andRender(p, () => p.click('button[data-action="vectors.removeKey"]'));
  assert.deepEqual((await readHeatmap(p, 'scores'))[2], ['100', '90', '60', '130'], 'the ribbon is gone');
  await andRender(p, () => p.click('button[data-action="vectors.removeQuery"]'));
  assert.equal((await readHeatmap(p, 'scores')).length, 2);
  // A new feature column starts at 0 in Q and K, so the scores stay; a value in it counts.
  await andRender(p, () => p.click('button[data-action="vectors.addDk"]'));
  assert.equal(await p.locator('.input-grid[data-view="k"] tbody tr').first().locator('input[data-j]').count(), 3);
  assert.deepEqual((await readHeatmap(p, 'scores'))[0], ['80', '60', '50', '30']);
  await andRender(p, () => p.locator('.input-grid[data-view="q"] input[data-i="0"][data-j="2"]').fill('1'));
  await andRender(p, () => p.locator('.input-grid[data-view="k"] input[data-i="0"][data-j="2"]').fill('7'));
  assert.deepEqual((await readHeatmap(p, 'scores'))[0], ['87', '60', '50', '30']);
  assert.deepEqual(problems, []);
  await p.close();
});

test('word vectors pasted as text replace the built-in words', async () => {
  const { page: p, problems } = await page();
  await andRender(p, () => p.fill('#words-text', 'the cat sat'));
  await p.click('details.file summary');
  await p.fill('textarea[data-input="glove-paste"]', 'the 1 0\ncat 0 1\nsat 1 1\n');
  await andRender(p, () => p.click('details.file button'));
  assert.match(await p.locator('.file [role="status"]').innerText(), /3 words with 2 features/);
  // the (1,0), cat (0,1), sat (1,1): every dot product by hand.
  assert.deepEqual(await readHeatmap(p, 'scores'), [['1', '0', '1'], ['0', '1', '1'], ['1', '1', '2']]);
  assert.deepEqual(problems, []);
  await p.close();
});

test('temperature: a scaled score reads ÷ T; two temperatures compared side by side with their difference', async () => {
  const { page: p, problems } = await page();
  await loadPreset(p, 'painting');
  await cell(p, 'scaled', 1, 3).hover();
  assert.match(await explanation(p), /100 ÷ 20 = 5/);
  await andRender(p, () => p.selectOption('select[data-control="compare"]', 'temperature'));
  assert.deepEqual(await p.locator('[data-step="weights"] .side-label').allInnerTexts(), ['T = 20', 'T = 5']);
  assert.equal((await readHeatmap(p, 'scaled', 'b'))[1][3], '20', '100 ÷ 5');
  // flying at T = 20: e⁵ / (e¹ + e^1.5 + e^0.5 + e⁵ + e^0.5) = 0.934; at T = 5 the bird takes all: 1.
  const a = await readHeatmap(p, 'weights', 'a'), b = await readHeatmap(p, 'weights', 'b');
  assert.equal(a[1][3], '0.93');
  assert.equal(b[1][3], '1');
  assert.equal((await readHeatmap(p, 'diff'))[1][3], '0.07');
  // Pointing at the difference explains it: right − left, then the right-hand weight's arithmetic.
  await cell(p, 'diff', 1, 3).hover();
  const text = await explanation(p);
  assert.match(text, /on the right \(T = 5\) minus the one on the left \(T = 20\)\.\n+1 − 0\.93394 = 0\.06606/);
  assert.match(text, /100 ÷ 5 = 20/);
  assert.deepEqual(await lit(p, 'weights'), { rows: [1], cols: [3] });
  // The slider sets T: its far left end is the smallest temperature, which sharpens the first row too.
  const slider = p.locator('input[data-control="temperature"]');
  const min = await slider.getAttribute('min');
  await andRender(p, () => slider.fill(min));
  assert.equal((await readHeatmap(p, 'weights', 'a'))[0][0], '1');
  assert.deepEqual(problems, []);
  await p.close();
});

test('the numbers toggle hides the printed numbers and brings them back', async () => {
  const { page: p, problems } = await page();
  const ink = () => p.evaluate(() => getComputedStyle(document.querySelector('.heatmap[data-view="weights"] td[data-i]')).color);
  const shown = await ink();
  assert.notEqual(shown, 'rgba(0, 0, 0, 0)');
  await andRender(p, () => p.uncheck('input[data-control="numbers"]'));
  assert.equal(await ink(), 'rgba(0, 0, 0, 0)');
  await andRender(p, () => p.check('input[data-control="numbers"]'));
  assert.equal(await ink(), shown);
  assert.deepEqual(problems, []);
  await p.close();
});

test('the formula is MathML and lights the part of the step pointed at', async () => {
  const { page: p, problems } = await page();
  assert.equal(await p.locator('.formula math').count(), 1);
  const on = () => p.evaluate(() => Array.from(document.querySelectorAll('.formula .f-on'), (el) => el.dataset.part));
  await cell(p, 'scores', 0, 0).hover();
  assert.deepEqual(await on(), ['scores']);
  await cell(p, 'weights', 0, 0).hover();
  assert.deepEqual(await on(), ['weights']);
  assert.deepEqual(problems, []);
  await p.close();
});

test('the plot’s labels do not cover one another, even where two points meet', async () => {
  const { page: p, problems } = await page();
  // Painting: the output of “flying” lands on the bird, Why softmax: the apple's output on the apple.
  for (const id of ['painting', 'softmax', 'fruit']) {
    await loadPreset(p, id);
    const boxes = await p.evaluate(() => Array.from(document.querySelectorAll('.plot-svg text'), (el) => {
      const b = el.getBBox();
      return { text: el.textContent, x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height };
    }));
    assert.ok(boxes.length >= 3, id);
    for (let a = 0; a < boxes.length; a++) {
      for (let b = a + 1; b < boxes.length; b++) {
        const A = boxes[a], B = boxes[b];
        const apart = A.x1 <= B.x0 || B.x1 <= A.x0 || A.y1 <= B.y0 || B.y1 <= A.y0;
        assert.ok(apart, `${id}: “${A.text}” covers “${B.text}”`);
      }
    }
  }
  assert.deepEqual(problems, []);
  await p.close();
});

test('numbers too large: a cell beyond a double says so and is marked; 1e−5 is a number; a step that overflows is named', async () => {
  const { page: p, problems } = await page();
  await loadPreset(p, 'painting');
  const weights = await readHeatmap(p, 'weights');
  const input = p.locator('.input-grid[data-view="q"] input[data-i="0"][data-j="0"]');
  await andRender(p, () => input.fill('1e400'));
  assert.match(await p.locator('[data-errors="q"]').innerText(), /row 1 \(no condition\), column 1: “1e400” is too large/);
  assert.equal(await input.getAttribute('aria-invalid'), 'true', 'the cell the message names is marked');
  // 1e308 is a double, but 1e308 × 80 (the person's first feature) is not: the scores overflow.
  await andRender(p, () => input.fill('1e308'));
  assert.equal(await p.locator('[data-errors="q"]').innerText(), '');
  assert.match(await p.locator('[data-errors="steps"]').innerText(), /^The similarity QKᵀ: row 1, column 1: a number is too large/);
  assert.deepEqual(await readHeatmap(p, 'weights'), weights, 'the last result stays');
  assert.equal(await input.inputValue(), '1e308');
  // A typographic minus in the exponent is the same number: 1e−5 is computed with, and not marked.
  await andRender(p, () => input.fill('1e\u22125'));
  assert.equal(await p.locator('[data-errors="q"]').innerText(), '');
  assert.equal(await input.getAttribute('aria-invalid'), null);
  assert.equal(await p.locator('[data-errors="steps"]').innerText(), '');
  assert.deepEqual(problems, []);
  await p.close();
});

test('vectors on a desktop: no row name is cut off and no grid hides columns', async () => {
  const { page: p, problems } = await page();
  for (const id of ['painting', 'softmax']) {
    await loadPreset(p, id);
    const cut = await p.evaluate(() => [
      ...Array.from(document.querySelectorAll('.vectors-panel .label-input'), (el) => [el.value, el.scrollWidth - el.clientWidth]),
      ...Array.from(document.querySelectorAll('.vectors-panel .qkv > .scroll'), (el) => [el.querySelector('caption, .grid-caption')?.textContent ?? 'grid', el.scrollWidth - el.clientWidth]),
    ].filter(([, over]) => over > 0));
    assert.deepEqual(cut, [], id);
  }
  assert.deepEqual(problems, []);
  await p.close();
});

test('words and cosine: an all-zero word vector is reported at X, by the name the reader sees', async () => {
  const { page: p, problems } = await page();
  await loadPreset(p, 'fruit');
  await andRender(p, () => p.check('fieldset[data-control="similarity"] input[value="cosine"]'));
  for (let j = 0; j < 3; j++) await andRender(p, () => p.locator(`.input-grid[data-view="x"] input[data-i="1"][data-j="${j}"]`).fill('0'));
  assert.match(await p.locator('[data-errors="x"]').innerText(), /^Word vectors X, row 2, is all zeros/);
  assert.deepEqual(problems, []);
  await p.close();
});

test('on a phone the explanation of a tapped cell is on screen, wherever the cell is', async () => {
  const { page: p, problems } = await open(env.chromium.context, env.server.url + '#ver=1', { width: 360, height: 780 });
  await loadPreset(p, 'fruit');
  for (const [view, i, j, text] of [['output', 2, 2, /iPhone · tech/], ['weights', 1, 2, /orange → iPhone/]]) {
    await cell(p, view, i, j).scrollIntoViewIfNeeded();
    await cell(p, view, i, j).click();
    assert.match(await explanation(p), text);
    const box = await p.locator('.explain').boundingBox(); // relative to the viewport
    assert.ok(box.y >= 0 && box.y + box.height <= 780, `the panel is at ${Math.round(box.y)}..${Math.round(box.y + box.height)}`);
  }
  const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
  assert.deepEqual(problems, []);
  await p.close();
});

test('the projection seed: another seed, other weights; the same seed, the same weights again', async () => {
  const { page: p, problems } = await open(env.chromium.context, env.server.url + BUILTIN_HEADS);
  const seven = await readHeatmap(p, 'weights');
  await andRender(p, () => p.fill('input[data-control="seed"]', '8'));
  const eight = await readHeatmap(p, 'weights');
  assert.notDeepEqual(eight, seven);
  await andRender(p, () => p.fill('input[data-control="seed"]', '7'));
  assert.deepEqual(await readHeatmap(p, 'weights'), seven);
  // One head with X·W: the seeded projection changes the scores from X·Xᵀ.
  await andRender(p, () => p.selectOption('select[data-control="heads"]', '1'));
  const projected = await readHeatmap(p, 'scores');
  await andRender(p, () => p.check('fieldset[data-control="projection"] input[value="identity"]'));
  const plain = await readHeatmap(p, 'scores');
  assert.notDeepEqual(projected, plain);
  // Q = K = V = X: "bird" (1,0,0,0,0,0,1,−0.5) with itself: 1 + 1 + 0.25.
  assert.equal(plain[1][1], '2.25');
  assert.deepEqual(problems, []);
  await p.close();
});

test('multi-head: a cell of a head’s Q, the joined heads or the output is explained and its token lit', async () => {
  const { page: p, problems } = await open(env.chromium.context, env.server.url + BUILTIN_HEADS);
  // The products written out add up to the result, which is the number in the cell.
  const check = (math, printed) => {
    const [, lhs, total] = math.match(/^\S+ = (.*) = (\S+)$/);
    const terms = lhs.split(' + ').map((s) => s.replace(/[()]/g, '').split('×').map(number));
    const sum = terms.reduce((acc, [a, b]) => acc + a * b, 0);
    assert.ok(Math.abs(sum - number(total)) < 1e-4, `${lhs} = ${sum}, not ${total}`);
    assert.equal(Math.round(number(total) * 100) / 100, number(printed));
    return terms;
  };
  const math = () => p.locator('.explain-body .explain-math').first().innerText();
  // bird = (1, 0, 0, 0, 0, 0, 1, −0.5) in the built-in words: the x factors of x·W_Q.
  await cell(p, 'head-q', 1, 2).hover();
  assert.match(await explanation(p), /Head 1 · Queries Q\s+bird · 3/);
  const terms = check(await math(), (await readHeatmap(p, 'head-q'))[1][2]);
  assert.deepEqual(terms.map(([x]) => x), [1, 0, 0, 0, 0, 0, 1, -0.5]);
  assert.deepEqual(await p.evaluate(() => Array.from(document.querySelectorAll('.formula .f-on'), (el) => el.dataset.part)), ['q']);
  assert.deepEqual(await lit(p, 'weights'), { rows: [1], cols: [] });
  // Joined column 6 is head 2's output column 2 (d_v = 4): the number in head 2's output view.
  await cell(p, 'concat', 1, 5).hover();
  assert.match(await explanation(p), /column 2 of head 2’s output/);
  const joined = await math();
  await andRender(p, () => p.locator('.tabs [data-head="1"]').click());
  assert.equal(Math.round(number(joined) * 100) / 100, number((await readHeatmap(p, 'output'))[1][1]));
  // The final output: the joined row times a column of W_O.
  await cell(p, 'final', 1, 6).hover();
  assert.match(await explanation(p), /“bird”, feature “can fly”/);
  check(await math(), (await readHeatmap(p, 'final'))[1][6]);
  assert.deepEqual((await lit(p, 'concat')).rows, [1], 'the joined heads light the same token');
  assert.deepEqual(await lit(p, 'final'), { rows: [1], cols: [6] });
  assert.deepEqual(problems, []);
  await p.close();
});

test('Why softmax: an output row made from a failed row of weights is flagged as well', async () => {
  const { page: p, problems } = await page();
  await loadPreset(p, 'softmax');
  const flags = (side) => p.evaluate((s) => Array.from(document.querySelectorAll(`.heatmap[data-view="output"][data-side="${s}"] tbody tr`),
    (tr) => tr.dataset.problem ?? ''), side);
  // Divide by sum: the balanced row sums to 0 (1 − 0.5 − 0.5), the flipped one to a negative number.
  assert.deepEqual(await flags('a'), ['', 'zero_sum', 'negative_weights']);
  assert.deepEqual((await readHeatmap(p, 'output', 'a'))[1], ['0', '0', '0']);
  assert.match(await p.locator('.heatmap[data-view="output"][data-side="a"] tbody tr').nth(1).innerText(), /sums to 0/);
  assert.deepEqual(await flags('b'), ['', '', ''], 'softmax never fails');
  assert.deepEqual(problems, []);
  await p.close();
});
