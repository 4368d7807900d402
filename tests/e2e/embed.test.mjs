// Embedding: embed.html and embed=1 give the compact layout with the chosen views and
// controls; the example blog post, served from another origin under a strict CSP, shows an
// iframe (sized by embed-resize.js) and a web component, and two components stay independent;
// the offline file works from file:// with every network request blocked.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { dist, serve, launch, open, ready, readHeatmap, andRender } from './page-helpers.mjs';
import { startBlog, frameOf, followsContent, frameReady } from './blog-host.mjs';

let server, chromium, blog;

before(async () => {
  server = await serve();
  chromium = await launch();
  blog = await startBlog(server.url.replace(/\/$/, ''));
});
after(async () => { await chromium?.close(); await server?.close(); await blog?.close(); });

const visibleSteps = (page) => page.evaluate(() => Array.from(document.querySelectorAll('.card.step[data-step]'))
  .filter((c) => c.offsetParent !== null).map((c) => c.dataset.step));

test('embed: embed.html shows the chosen views compactly, with a link to the full playground', async () => {
  const { page, problems } = await open(chromium.context, server.url + 'embed.html#ver=1&preset=fruit&views=weights,output&controls=none&theme=dark');
  assert.deepEqual(await visibleSteps(page), ['weights', 'output']);
  assert.equal(await page.locator('header.top').isVisible(), false);
  assert.equal(await page.locator('.inputs').isVisible(), false);
  assert.equal(await page.locator('.controls').isVisible(), false);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  const href = await page.locator('a[data-full]').getAttribute('href');
  assert.match(href, /^index\.html#ver=2&preset=fruit/);
  const weights = await readHeatmap(page, 'weights');
  // preset=fruit alone is the Fruit example: the numbers of the page with Fruit clicked.
  const { page: clicked } = await open(chromium.context, server.url + '#ver=1');
  await andRender(clicked, () => clicked.click('button[data-preset="fruit"]'));
  assert.deepEqual(weights, await readHeatmap(clicked, 'weights'));
  assert.equal(weights.length, 3, 'apple, orange, iPhone');
  const { page: full } = await open(chromium.context, new URL(href, page.url()).href);
  assert.deepEqual(await readHeatmap(full, 'weights'), weights, 'the full page shows the same numbers');
  assert.equal(await full.locator('.app.embed').count(), 0);
  // embed=1 on index.html does the same; minimal is the example's explanation, its sentence and the
  // figure: no word-vector loader, no vector table, no settings.
  const { page: flagged } = await open(chromium.context, server.url + '#ver=1&embed=1&controls=minimal&preset=fruit');
  assert.deepEqual(await visibleSteps(flagged), ['weights', 'output']);
  assert.equal(await flagged.locator('#words-text').isVisible(), true);
  for (const part of ['.controls', '#glove-file', '.inputs .input-grid', 'select[data-control="lexicon"], [data-control="lexicon"]', '.inputs-head', '.formula'])
    assert.equal(await flagged.locator(part).first().isVisible(), false, part);
  assert.match(await flagged.locator('.story-box .story').innerText(), /apple·orange = 1×2 \+ 2×2 \+ 1×0 = 6/);
  // In a blog's 760 px column: the inputs card was 450 px of it; now only the sentence's field.
  await flagged.setViewportSize({ width: 760, height: 600 });
  const card = await flagged.locator('.inputs').evaluate((el) => el.getBoundingClientRect().height);
  assert.ok(card < 130, `the inputs card is ${card} px tall at 760 px wide`);
  // A figure of vectors has no sentence: no inputs card at all.
  const { page: vectors } = await open(chromium.context, server.url + '#ver=1&embed=1&controls=minimal&preset=painting');
  assert.equal(await vectors.locator('.inputs').isVisible(), false);
  await vectors.close();
  // Bad embedding keys: the notice, like any bad link.
  const { page: bad } = await open(chromium.context, server.url + 'embed.html#ver=1&views=<b>&controls=some');
  assert.equal(await bad.locator('[data-notice="link"]').count(), 1);
  assert.deepEqual([...problems], []);
  for (const p of [page, clicked, full, flagged, bad]) await p.close();
});

test('embed: the blog post on another origin under a strict CSP shows both embeds; the iframe follows its content', async () => {
  const page = await chromium.context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(blog.url());
  const iframe = page.locator('iframe[data-attention-playground]');
  const component = page.locator('attention-playground');
  const frames = () => page.frames().filter((f) => f.url().includes('/embed.html'));
  await page.waitForFunction(() => document.querySelectorAll('attention-playground').length === 1);
  await page.waitForFunction(() => true);
  await iframe.scrollIntoViewIfNeeded();
  await component.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('attention-playground')?.shadowRoot?.querySelector('iframe') !== null);
  const fruitFrame = await frameOf(iframe);
  const wordsFrame = await frameOf(component);
  assert.equal(frames().length, 2, 'two embedded frames: ' + frames().map((f) => f.url()).join(' '));
  await frameReady(fruitFrame);
  await frameReady(wordsFrame);
  assert.deepEqual(await visibleSteps(fruitFrame), ['weights', 'output']);
  assert.deepEqual(await visibleSteps(wordsFrame), ['scaled', 'weights']);
  // The iframe took its content's height from the frame's message.
  const heightOf = () => iframe.evaluate((el) => el.getBoundingClientRect().height);
  await page.waitForFunction(() => document.querySelector('iframe[data-attention-playground]').style.height !== '');
  await followsContent(iframe, fruitFrame, { box: true });
  const before = await heightOf();
  // More rows: a taller figure, a taller iframe.
  if (await fruitFrame.locator('.vectors-panel').isVisible()) {
    for (let k = 0; k < 4; k++) await andRender(fruitFrame, () => fruitFrame.click('[data-action="vectors.addQuery"]'));
  } else {
    await andRender(fruitFrame, () => fruitFrame.fill('#words-text', 'apple orange iPhone apple orange iPhone apple orange'));
  }
  await page.waitForFunction((b) => document.querySelector('iframe[data-attention-playground]').getBoundingClientRect().height > b + 20, before);
  // The component's frame is sized too (by the element itself).
  await followsContent(component.locator('iframe'), wordsFrame, { box: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('embed: the keyboard goes into each embed and out again, both ways (no focus trap)', async () => {
  const page = await chromium.context.newPage();
  await page.goto(blog.url());
  await frameReady(await frameOf(page.locator('iframe[data-attention-playground]')));
  await frameReady(await frameOf(page.locator('attention-playground')));
  await page.evaluate(() => window.scrollTo(0, 0));
  /**
   * The host page's focused element at each key press, runs of the same one folded, for up to
   * `presses` presses: once `enough(runs)`, further presses could not change what is checked.
   */
  const walk = async (key, presses, enough) => {
    const runs = [];
    for (let k = 0; k < presses && !enough(runs); k++) {
      await page.keyboard.press(key);
      const where = await page.evaluate(() => document.activeElement?.tagName.toLowerCase() ?? 'none');
      if (runs.at(-1) !== where) runs.push(where);
    }
    return runs;
  };
  // Forwards: through the iframe's controls, the component's, out of the page and round again.
  const forwards = await walk('Tab', 250, (runs) => runs.length >= 4);
  assert.deepEqual(forwards.slice(0, 4), ['iframe', 'attention-playground', 'body', 'iframe'], forwards.join(' → '));
  // Backwards from the top: into the component from its end, then the iframe, then out.
  await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
  // (Chromium's first wrap from the top may skip the page's own stop, so the pattern is looked for
  // anywhere in the walk: from the component to the iframe and then out of both.)
  const out = (runs) => runs.some((_, k) => runs.slice(k, k + 3).join() === 'attention-playground,iframe,body');
  const backwards = await walk('Shift+Tab', 250, out);
  assert.ok(out(backwards), backwards.join(' → '));
  await page.close();
});

test('embed: two web components on one page do not affect each other', async () => {
  const page = await chromium.context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(blog.url());
  await page.evaluate(() => {
    const second = document.createElement('attention-playground');
    second.setAttribute('preset', 'causal');
    second.setAttribute('views', 'weights');
    second.setAttribute('controls', 'none');
    second.setAttribute('lang', 'zh-CN');
    document.querySelector('article').append(second);
    second.scrollIntoView();
  });
  const first = await frameOf(page.locator('attention-playground').first());
  const second = await frameOf(page.locator('attention-playground').nth(1));
  await frameReady(first);
  await frameReady(second);
  const secondWeights = await readHeatmap(second, 'weights');
  assert.equal(await second.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.equal(await first.evaluate(() => document.documentElement.lang), 'en');
  // Change the first element's words: its frame follows, the second stays as it was.
  await page.evaluate(() => document.querySelector('attention-playground').setAttribute('words', 'a dog ran'));
  await first.waitForFunction(() => document.querySelectorAll('.heatmap[data-view="weights"][data-side="a"] tbody tr').length === 3);
  assert.deepEqual(await readHeatmap(second, 'weights'), secondWeights);
  assert.equal(await second.evaluate(() => document.documentElement.lang), 'zh-CN');
  // The element defines nothing global besides itself.
  assert.equal(await page.evaluate(() => typeof window.frameHash + typeof window.AttentionPlayground), 'undefinedundefined');
  assert.deepEqual(problems, []);
  await page.close();
});

test('offline: attention-playground.html works from file:// with every network request blocked', async () => {
  const context = await chromium.browser.newContext();
  const requests = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    requests.push(url.slice(0, 60));
    return route.abort();
  });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  const file = pathToFileURL(join(dist, 'attention-playground.html')).href;
  await page.goto(file + '#ver=1&preset=fruit');
  await ready(page);
  const offline = await readHeatmap(page, 'weights');
  // Its share link opens this one file again (which may be all the reader has), and the dialog
  // says that addresses of files are for this computer only.
  await page.click('[data-share-open]');
  assert.ok((await page.locator('[data-snippet="link"]').inputValue()).startsWith(file + '#ver=2&preset=fruit&'));
  assert.equal(await page.locator('[data-file-hint]').isVisible(), true);
  // The embeds name a host to replace, not this computer's files.
  assert.match(await page.locator('[data-snippet="iframe"]').inputValue(), /src="https:\/\/your-site\.example\/attention-playground\/embed\.html#ver=2&amp;preset=fruit/);
  await page.keyboard.press('Escape');
  const { page: online } = await open(chromium.context, server.url + '#ver=1&preset=fruit');
  assert.deepEqual(offline, await readHeatmap(online, 'weights'));
  assert.deepEqual(requests.filter((u) => !u.startsWith('data:')), []);
  assert.deepEqual(problems, []);
  await online.close();
  await context.close();
});

test('share dialog: the link, iframe, component and Hugo snippets and the image fallback; oEmbed discovery', async () => {
  const context = await chromium.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
  const { page, problems } = await open(context, server.url + '#ver=1');
  await andRender(page, () => page.click('button[data-preset="fruit"]'));
  await page.click('[data-share-open]');
  await page.locator('dialog[data-share]').waitFor();
  const snippet = (key) => page.locator(`[data-snippet="${key}"]`).inputValue();
  const link = await snippet('link');
  assert.match(link, /index\.html#ver=2&preset=fruit/);
  assert.equal(await page.locator('[data-file-hint]').isVisible(), false, 'served over http: no file hint');
  assert.match(await snippet('iframe'), /<iframe data-attention-playground src="[^"]*embed\.html#ver=2&amp;preset=fruit[^"]*&amp;embed=1"/);
  assert.match(await snippet('iframe'), /<script src="[^"]*embed-resize\.js" async><\/script>/);
  assert.match(await snippet('component'), /<script src="[^"]*embed\.js" defer><\/script>\n<attention-playground state="ver=2&amp;preset=fruit/);
  assert.match(await snippet('hugo'), /^\{\{< attention-playground src="[^"]*embed\.html#ver=2&preset=fruit[^"]*" >\}\}$/);
  assert.match(await snippet('image'), /^\[!\[[^\]]+\]\(attention-figure\.png\)\]\(http/);
  await page.click('[data-copy-snippet="link"]');
  await page.waitForFunction((l) => navigator.clipboard.readText().then((s) => s === l), link);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-share-png]')]);
  assert.equal(download.suggestedFilename(), 'attention-figure.png');
  const weights = await readHeatmap(page, 'weights');
  const { page: shared } = await open(context, link);
  assert.deepEqual(await readHeatmap(shared, 'weights'), weights);
  // oEmbed: discovered from the page, a rich type with an iframe.
  const href = await page.locator('link[rel="alternate"][type="application/json+oembed"]').getAttribute('href');
  const oembed = JSON.parse(await (await fetch(new URL(href, server.url))).text());
  assert.equal(oembed.type, 'rich');
  assert.match(oembed.html, /<iframe data-attention-playground src="[^"]*embed\.html/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('share dialog: the author picks the steps, controls, theme and height; the snippets and the preview follow', async () => {
  const context = await chromium.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await open(context, server.url + '#ver=1&preset=causal');
  await page.click('[data-share-open]');
  const dialog = page.locator('dialog[data-share]');
  await dialog.waitFor();
  const snippet = (key) => page.locator(`[data-snippet="${key}"]`).inputValue();
  // By default: the pipeline, the weights and the output, the inputs, the reader's theme.
  assert.match(await snippet('component'), /views="pipeline,weights,output" controls="minimal" height="520"><\/attention-playground>$/);
  assert.match(await snippet('iframe'), /height="520"/);
  const preview = await frameOf(page.locator('iframe[data-share-preview]'));
  await frameReady(preview);
  assert.equal(await preview.locator('.card.pipeline').isVisible(), true, 'the preview shows the pipeline');
  // The author drops the weights, adds the formula, hides the controls, asks for dark and 700 px.
  await dialog.getByLabel('Weights', { exact: true }).uncheck();
  await dialog.getByLabel('The formula', { exact: true }).check();
  await dialog.getByRole('radio', { name: 'Nothing' }).check();
  await dialog.getByRole('radio', { name: 'Dark' }).check();
  await page.fill('[data-share-height]', '700');
  const iframe = await snippet('iframe');
  assert.match(iframe, /embed=1&amp;views=formula%2Cpipeline%2Coutput&amp;controls=none&amp;theme=dark"/);
  assert.match(iframe, /height="700"/);
  assert.match(await snippet('component'), /views="formula,pipeline,output" controls="none" theme="dark" height="700">/);
  assert.match(await snippet('hugo'), /views=formula%2Cpipeline%2Coutput&controls=none&theme=dark" >\}\}$/);
  // The preview is the embed those snippets make.
  await preview.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  assert.deepEqual(await visibleSteps(preview), ['output']);
  assert.equal(await preview.locator('.intro').isVisible(), true, 'the formula is shown');
  assert.equal(await preview.locator('.inputs').isVisible(), false, 'no controls');
  // A height out of range is refused beside the field, and the snippets keep the last good one.
  await page.fill('[data-share-height]', '5');
  assert.equal(await page.getAttribute('[data-share-height]', 'aria-invalid'), 'true');
  assert.match(await page.locator('#' + (await page.getAttribute('[data-share-height]', 'aria-describedby'))).innerText(), /200 to 2,000.*700/);
  assert.match(await snippet('iframe'), /height="700"/);
  // The last step checked cannot be unchecked: an embed shows at least one.
  await dialog.getByLabel('Output = weights · V', { exact: true }).uncheck();
  await dialog.getByLabel('One query, step by step', { exact: true }).uncheck();
  assert.equal(await dialog.getByLabel('The formula', { exact: true }).isDisabled(), true);
  assert.match(await snippet('component'), /views="formula"/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('embed: inside a sandboxed iframe (WordPress oEmbed) it works and still sizes its frame', async () => {
  const page = await chromium.context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(blog.url('wordpress.html'));
  const iframe = page.locator('iframe[data-attention-playground]');
  const frame = await frameOf(iframe);
  await frameReady(frame);
  assert.deepEqual(await visibleSteps(frame), ['weights', 'output']);
  await page.waitForFunction(() => document.querySelector('iframe').style.height !== '');
  await followsContent(iframe, frame); // inside its (default) border
  assert.deepEqual(problems, []);
  await page.close();
});
