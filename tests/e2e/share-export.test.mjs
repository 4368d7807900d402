// The export menus in the page: clicking a download gives a file with the numbers the
// page shows (read back through the engine's own parser for CSV), the SVG parses, the PNG is the
// SVG's picture at twice its size, the Markdown and LaTeX tables have a column per key and a row
// per query, the copies land on the clipboard, and the whole figure exports as one SVG and one PNG.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root, serve, launch, open, readHeatmap, loadPreset, number } from './page-helpers.mjs';
import { decodePng, rgb, colours } from './png.mjs';

let server, chromium, engine;
before(async () => {
  server = await serve();
  chromium = await launch();
  await chromium.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
  engine = await createRequire(import.meta.url)(join(root, 'dist/attention-engine.js'))();
});
after(async () => { await chromium?.close(); await server?.close(); });

async function downloadOf(page, selector) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

/**
 * Runs `fn(arg)` in a blank page: the playground's own page requires Trusted Types, under which
 * DOMParser.parseFromString takes no plain string (the test parses what the page exported).
 */
async function outside(fn, arg) {
  const blank = await chromium.context.newPage();
  try {
    return await blank.evaluate(fn, arg);
  } finally {
    await blank.close();
  }
}

/**
 * The size of an exported SVG and its cells: the rects that are not a background, placed where
 * they are drawn (a figure nests each heatmap's SVG at its own x and y).
 */
function svgLayout(text) {
  return outside((s) => {
    const doc = new DOMParser().parseFromString(s, 'image/svg+xml');
    const root = doc.documentElement;
    const at = (el, name) => Number(el.getAttribute(name) ?? 0);
    const cells = [];
    for (const r of root.querySelectorAll('rect')) {
      const owner = r.parentElement;
      if (at(r, 'width') === at(owner, 'width') && at(r, 'height') === at(owner, 'height')) continue;
      let x = at(r, 'x'), y = at(r, 'y');
      for (let svg = owner; svg !== root; svg = svg.parentElement) { x += at(svg, 'x'); y += at(svg, 'y'); }
      cells.push({ x, y, fill: r.getAttribute('fill') });
    }
    return { width: at(root, 'width'), height: at(root, 'height'), cells };
  }, text);
}

/** The PNG is the SVG drawn at twice its size: each cell's corner has the cell's colour. */
async function pngDrawsSvg(pngBytes, svgText) {
  const png = decodePng(pngBytes);
  const svg = await svgLayout(svgText);
  assert.deepEqual([png.width, png.height], [svg.width * 2, svg.height * 2], 'twice the SVG\'s size');
  assert.ok(svg.cells.length > 0, 'the SVG has cells');
  for (const r of svg.cells) {
    // Two pixels in from the corner: clear of the number printed in the middle.
    const seen = png.pixel(Math.round((r.x + 2) * 2), Math.round((r.y + 2) * 2));
    const want = rgb(r.fill);
    assert.ok(want.every((v, k) => Math.abs(seen[k] - v) <= 2) && seen[3] === 255,
      `cell at (${r.x}, ${r.y}): ${seen} in the PNG, ${r.fill} in the SVG`);
  }
  return png;
}

/** A Markdown table's rows of trimmed cells, its rule line left out. */
function markdownRows(text) {
  const lines = text.trim().split('\n');
  assert.match(lines[1], /^\|---\|(---:\|)+$/, 'the rule under the header');
  return lines.filter((_, k) => k !== 1).map((line) => {
    assert.match(line, /^\|.*\|$/, line);
    return line.slice(1, -1).split('|').map((c) => c.trim());
  });
}

const close = (a, b, tol, what) => a.forEach((row, i) => row.forEach((x, j) =>
  assert.ok(Math.abs(number(x) - b[i][j]) <= tol, `${what} (${i}, ${j}): ${x} vs ${b[i][j]}`)));

test('export: each step downloads as CSV, JSON, SVG, PNG, LaTeX, Markdown and NumPy with the shown numbers', async () => {
  const { page, problems } = await open(chromium.context, server.url + '#ver=1&preset=fruit&compare=off'); // one side
  const shown = await readHeatmap(page, 'weights');
  const menu = '[data-export="weights"]';
  await page.click(`${menu} summary`);

  const csv = await downloadOf(page, `${menu} [data-download="csv"]`);
  assert.equal(csv.name, 'attention-weights.csv');
  const lines = csv.bytes.toString('utf8').trim().split('\r\n');
  const bare = lines.slice(1).map((l) => l.split(',').slice(1).join(',')).join('\n');
  const parsed = engine.parseMatrix(bare, 'csv');
  assert.ok(parsed.ok, parsed.error?.message);
  const rows = Array.from({ length: parsed.matrix.rows }, (_, i) =>
    Array.from(parsed.matrix.data.subarray(i * parsed.matrix.cols, (i + 1) * parsed.matrix.cols)));
  close(shown, rows, 0.006, 'csv');

  assert.notEqual(csv.bytes[0], 0xef, 'English labels: no byte-order mark');

  const json = JSON.parse((await downloadOf(page, `${menu} [data-download="json"]`)).bytes.toString('utf8'));
  close(shown, json.data, 0.006, 'json');
  assert.equal(json.rowLabels.length, shown.length);

  const svg = await downloadOf(page, `${menu} [data-download="svg"]`);
  assert.equal(svg.name, 'attention-weights.svg');
  const texts = await outside((s) => {
    const doc = new DOMParser().parseFromString(s, 'image/svg+xml');
    if (doc.querySelector('parsererror')) return null;
    return Array.from(doc.querySelectorAll('text'), (t) => t.textContent);
  }, svg.bytes.toString('utf8'));
  assert.ok(texts, 'the SVG parses');
  for (const row of rows) for (const x of row) {
    assert.ok(texts.some((s) => Math.abs(number(s) - x) < 0.0006), `the SVG shows ${x}`);
  }

  const png = await downloadOf(page, `${menu} [data-download="png"]`);
  assert.equal(png.name, 'attention-weights.png');
  await pngDrawsSvg(png.bytes, svg.bytes.toString('utf8'));

  const tex = (await downloadOf(page, `${menu} [data-download="latex"]`)).bytes.toString('utf8');
  assert.match(tex, /\\begin\{array\}[\s\S]*\\end\{array\}/);
  // After the header and its rule, each row is its label and then the numbers.
  const body = tex.split('\\hline')[1].split('\\end{array}')[0].trim().split('\\\\')
    .map((r) => r.split('&').slice(1).map((x) => Number(x.trim())));
  assert.equal(tex.match(/\\begin\{array\}\{r\|(c*)\}/)[1].length, shown.length, 'a column per key');
  assert.equal(body.length, shown.length, 'a row per query');
  body.forEach((row, i) => assert.equal(row.length, shown[i].length, `row ${i}`));
  close(shown, body, 0.006, 'latex');
  const md = markdownRows((await downloadOf(page, `${menu} [data-download="markdown"]`)).bytes.toString('utf8'));
  const keys = await page.locator('.heatmap[data-view="weights"][data-side="a"] thead th[scope="col"]:not(.extra)').allTextContents();
  assert.deepEqual(md[0].slice(1), keys.map((k) => k.trim()), 'a column per key, named as the page names it');
  assert.equal(md.length - 1, shown.length, 'a row per query');
  md.slice(1).forEach((row, i) => assert.equal(row.length - 1, shown[i].length, `row ${i}`));
  close(shown, md.slice(1).map((row) => row.slice(1).map(number)), 0.006, 'markdown');
  const py = (await downloadOf(page, `${menu} [data-download="numpy"]`)).bytes.toString('utf8');
  assert.match(py, /^import numpy as np/);
  assert.ok(py.includes(String(rows[0][0])), 'NumPy code keeps every digit');
  assert.deepEqual(problems, []);
  await page.close();
});

test('export: a CSV of Chinese tokens starts with a byte-order mark, so spreadsheets read it as UTF-8', async () => {
  const { page, problems } = await open(chromium.context, server.url + '#ver=1&lang=zh-CN&text=' + encodeURIComponent('我 喜欢 苹果'));
  const shown = await readHeatmap(page, 'weights');
  await page.click('[data-export="weights"] summary');
  const csv = await downloadOf(page, '[data-export="weights"] [data-download="csv"]');
  assert.deepEqual([...csv.bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  const lines = csv.bytes.subarray(3).toString('utf8').trim().split('\r\n');
  assert.equal(lines[0], ',我,喜欢,苹果');
  assert.deepEqual(lines.slice(1).map((l) => l.split(',')[0]), ['我', '喜欢', '苹果']);
  close(shown, lines.slice(1).map((l) => l.split(',').slice(1).map(Number)), 0.006, 'csv');
  assert.deepEqual(problems, []);
  await page.close();
});

test('export: copy puts the format on the clipboard; the figure exports as one SVG and one PNG', async () => {
  const { page, problems } = await open(chromium.context, server.url + '#ver=1');
  await loadPreset(page, 'causal');
  const menu = '[data-export="masked"]';
  await page.click(`${menu} summary`);
  await page.click(`${menu} [data-copy="latex"]`);
  await page.locator(`${menu} [role="status"]`).filter({ hasText: /LaTeX/ }).waitFor();
  const tex = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(tex, /\\begin\{array\}/);
  assert.match(tex, /-\\infty/, 'masked scores are −∞');
  await page.click(`${menu} [data-copy="numpy"]`);
  await page.waitForFunction(() => navigator.clipboard.readText().then((s) => s.startsWith('import numpy')));

  const svg = await downloadOf(page, '[data-figure="svg"]');
  assert.equal(svg.name, 'attention-figure.svg');
  const count = await outside((s) => {
    const doc = new DOMParser().parseFromString(s, 'image/svg+xml');
    return doc.querySelector('parsererror') ? -1 : doc.documentElement.querySelectorAll(':scope > svg').length;
  }, svg.bytes.toString('utf8'));
  assert.equal(count, 5, 'the five steps');
  const png = await pngDrawsSvg((await downloadOf(page, '[data-figure="png"]')).bytes, svg.bytes.toString('utf8'));
  assert.ok(colours(png) > 10, 'the figure is not blank');
  // Fruit compares dot product with cosine: the figure has both sides of each step, side by side.
  await loadPreset(page, 'fruit');
  const pairs = await outside((s) => {
    const doc = new DOMParser().parseFromString(s, 'image/svg+xml');
    const parts = Array.from(doc.documentElement.querySelectorAll(':scope > svg'), (p) => ({
      x: Number(p.getAttribute('x')), y: Number(p.getAttribute('y')), title: p.querySelector('title').textContent }));
    return parts;
  }, (await downloadOf(page, '[data-figure="svg"]')).bytes.toString('utf8'));
  // Fruit has no mask, so the masked step is one line and not in the figure: four steps, two sides.
  assert.equal(pairs.length, 8, 'four steps, two sides');
  for (let k = 0; k < 8; k += 2) {
    assert.equal(pairs[k].y, pairs[k + 1].y, pairs[k + 1].title);
    assert.ok(pairs[k + 1].x > pairs[k].x, pairs[k + 1].title);
    assert.match(pairs[k].title, /Dot product/);
    assert.match(pairs[k + 1].title, /Cosine/);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('export: a comparison exports both sides, each named, not only the left one', async () => {
  const { page, problems } = await open(chromium.context, server.url + '#ver=1&preset=fruit');
  const menu = '[data-export="weights"]';
  await page.click(`${menu} summary`);
  const json = JSON.parse((await downloadOf(page, `${menu} [data-download="json"]`)).bytes.toString('utf8'));
  assert.equal(json.length, 2);
  assert.match(json[0].title, /Dot product/);
  assert.match(json[1].title, /Cosine/);
  // apple's row: by dot product almost all on iPhone (0.987), by cosine apple 0.54 first.
  assert.ok(json[0].data[0][2] > 0.98 && json[1].data[0][0] > 0.5, JSON.stringify(json.map((s) => s.data[0])));
  const csv = (await downloadOf(page, `${menu} [data-download="csv"]`)).bytes.toString('utf8').split('\r\n');
  assert.deepEqual(csv.filter((l) => /^"/.test(l)), ['"Weights (Dot product)"', '"Weights (Cosine)"']);
  const tex = (await downloadOf(page, `${menu} [data-download="latex"]`)).bytes.toString('utf8');
  assert.equal(tex.match(/\\begin\{array\}/g).length, 2);
  assert.deepEqual(problems, []);
  await page.close();
});
