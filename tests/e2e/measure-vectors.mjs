#!/usr/bin/env node
// The learned word vectors in Chromium (npm run measure; reported, not asserted): from choosing
// them to the figure that uses them (the script's download and run, the file read into the
// engine, the first compute and draw), how much of that the script took, and how much the
// engine's memory grew to hold them. Three fresh pages, the median reported.
import { serve, launch, open, andRender, keepPageEngine } from './page-helpers.mjs';

const server = await serve();
const chromium = await launch();
const runs = [];
try {
  for (let k = 0; k < 3; k++) {
    const context = await chromium.browser.newContext();
    await context.addInitScript(keepPageEngine);
    const { page, problems } = await open(context, server.url + '#ver=1&text=I%20ate%20an%20apple%20and%20an%20orange');
    const before = await page.evaluate(() => window.__pageEngine.memoryStats());
    const started = Date.now();
    await andRender(page, () => page.selectOption('select[data-control="lexicon"]', 'learned'));
    const toFigure = Date.now() - started;
    const script = await page.evaluate(() => performance.getEntriesByType('resource').find((e) => e.name.endsWith('vectors.js')));
    const after = await page.evaluate(() => window.__pageEngine.memoryStats());
    runs.push({ toFigure, download: script.responseEnd - script.startTime,
      heap: after.heapBytes - before.heapBytes, allocated: after.allocatedBytes - before.allocatedBytes });
    if (problems.length) console.error(problems);
    await context.close();
  }
} finally {
  await chromium.close();
  await server.close();
}
const median = (key) => [...runs.map((r) => r[key])].sort((a, b) => a - b)[1];
const MiB = 2 ** 20;
console.table([{
  'choose → figure (ms)': median('toFigure'),
  'of which vectors.js download (ms, local server)': Math.round(median('download')),
  'engine heap growth (MiB)': (median('heap') / MiB).toFixed(1),
  'engine allocated growth (MiB)': (median('allocated') / MiB).toFixed(1),
}]);
