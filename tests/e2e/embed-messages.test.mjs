// Hostile postMessage: every payload of xss-payloads.txt, and height messages of every wrong
// shape (huge, negative, NaN, strings, objects, the right type with a payload as its height),
// sent (a) to a blog page that sizes its playground iframe with embed-resize.js, (b) to the
// <attention-playground> element on the same page, from every sender that is not the playground
// frame in question, and (c) into the playground frames themselves. Nothing may run, no element
// may appear, no frame may change height, and the frames keep their numbers; a valid height from
// the right frame still sizes it (the control that shows the listeners are there to be fooled).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve, launch, readHeatmap, root } from './page-helpers.mjs';
import { startBlog, frameOf, followsContent, frameReady } from './blog-host.mjs';

const TYPE = 'attention-playground:height';
const payloads = readFileSync(join(root, 'tests/e2e/xss-payloads.txt'), 'utf8').split('\n').filter(Boolean);
const BAD_HEIGHTS = [1e9, 20001, 59, 0, -5, -1e9, NaN, Infinity, -Infinity, '500', '1e3', ' 300 ', null, true,
  [500], { height: 500 }, ...payloads];
/** What even the playground frame itself must not get accepted. */
const INVALID = [...payloads, ...BAD_HEIGHTS.map((height) => ({ type: TYPE, height })),
  ...payloads.map((type) => ({ type, height: 500 })), { type: TYPE }, { height: 500 }, [TYPE, 500],
  { type: TYPE + ' ', height: 500 }, { type: [TYPE], height: 500 }, null, 0, 500, ''];
/** What no other sender may get accepted: the above and well-formed heights. */
const FORGED = [...INVALID, { type: TYPE, height: 500 }, { type: TYPE, height: 1234.5 }];

let server, browser, blog;
before(async () => {
  server = await serve();
  browser = await launch();
  blog = await startBlog(server.url.replace(/\/$/, ''));
});
after(async () => { await browser?.close(); await server?.close(); await blog?.close(); });

/** Posts `messages` to `target` ('parent', 'self', or an iframe's selector, '::component' for the element's frame), then a sentinel. */
function post(frame, target, messages, sentinel) {
  return frame.evaluate(([t, list, s]) => {
    const win = t === 'parent' ? window.parent : t === 'self' ? window
      : t === '::component' ? document.querySelector('attention-playground').shadowRoot.querySelector('iframe').contentWindow
        : document.querySelector(t).contentWindow;
    for (const m of list) win.postMessage(m, '*');
    win.postMessage('sentinel:' + s, '*');
  }, [target, messages, sentinel]);
}

/** Records the sentinels a window receives: it has handled every message sent before each. */
const listen = (frame) => frame.evaluate(() => {
  window.__sentinels = [];
  window.addEventListener('message', (e) => {
    if (typeof e.data === 'string' && e.data.startsWith('sentinel:')) window.__sentinels.push(e.data);
  });
});
const received = (frame, count) => frame.waitForFunction((n) => window.__sentinels.length >= n, count);

/** Elements in the document and in every open shadow root, and whether a payload ran. */
const census = (frame) => frame.evaluate(() => {
  const count = (node) => Array.from(node.querySelectorAll('*'))
    .reduce((n, el) => n + 1 + (el.shadowRoot ? count(el.shadowRoot) : 0), 0);
  return { elements: count(document), xss: window.__xss ?? null, handlers: document.querySelectorAll('[onerror],[onload]').length };
});

test('postMessage: hostile messages move no frame, add no element and run nothing; the real frame still sizes its iframe', async () => {
  const page = await browser.context.newPage();
  const problems = [];
  let dialogs = 0;
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('dialog', async (d) => { dialogs++; await d.dismiss(); });
  await page.goto(blog.url('messages.html'));
  const iframe = page.locator('iframe[data-attention-playground]');
  const element = page.locator('attention-playground');
  const marked = await frameOf(iframe);
  const component = await frameOf(element);
  const unmarked = await frameOf(page.locator('#unmarked'));
  const stranger = await frameOf(page.locator('#stranger'));
  for (const f of [marked, component, unmarked]) await frameReady(f);
  const heights = () => page.evaluate(() => ({
    marked: document.querySelector('iframe[data-attention-playground]').clientHeight,
    component: document.querySelector('attention-playground').shadowRoot.querySelector('iframe').clientHeight,
    unmarked: document.querySelector('#unmarked').clientHeight,
  }));
  await followsContent(iframe, marked);
  await followsContent(element.locator('iframe'), component);
  const playgrounds = [marked, component, unmarked];
  for (const f of [page, ...playgrounds]) await listen(f);
  const before = { heights: await heights(), host: await census(page),
    frames: await Promise.all(playgrounds.map(async (f) => ({ ...(await census(f)), weights: await readHeatmap(f, 'weights') }))) };
  assert.equal(before.heights.unmarked, 150, 'a playground frame without the attribute is not sized');

  // (a), (b): to the blog page, from the two playground frames (malformed only), from a playground
  // frame it did not mark, from the blog's own frame and from the blog page itself.
  await post(marked, 'parent', INVALID, 'marked');
  await post(component, 'parent', INVALID, 'component');
  await post(unmarked, 'parent', FORGED, 'unmarked');
  await post(stranger, 'parent', FORGED, 'stranger');
  await post(page.mainFrame(), 'self', FORGED, 'self');
  await received(page, 5);
  // (c): into each playground frame, from the blog page: the playground expects no message.
  await post(page.mainFrame(), 'iframe[data-attention-playground]', FORGED, 'into');
  await post(page.mainFrame(), '::component', FORGED, 'into');
  await post(page.mainFrame(), '#unmarked', FORGED, 'into');
  for (const f of playgrounds) await received(f, 1);
  // A window handles its messages in order, each to every listener: with the sentinels in, every
  // message before them has been handled, and a height one set is laid out when it is read. A frame
  // that a message changed renders on its next animation frame: past it, it would differ below.
  for (const f of playgrounds) await f.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r))));

  assert.deepEqual(await heights(), before.heights);
  for (const h of Object.values(before.heights)) assert.ok(h >= 60 && h <= 20000, `height ${h}`);
  assert.deepEqual(await census(page), before.host);
  assert.deepEqual(await Promise.all(playgrounds.map(async (f) => ({ ...(await census(f)), weights: await readHeatmap(f, 'weights') }))),
    before.frames);
  assert.equal(dialogs, 0);
  assert.deepEqual(problems, []);

  // The control: the same listeners take a valid height from the right frame, and only there.
  await post(marked, 'parent', [{ type: TYPE, height: before.heights.marked + 123 }], 'valid-marked');
  await received(page, 6);
  assert.deepEqual(await heights(), { ...before.heights, marked: before.heights.marked + 123 });
  await post(component, 'parent', [{ type: TYPE, height: 321.2 }], 'valid-component');
  await received(page, 7);
  assert.deepEqual(await heights(), { ...before.heights, marked: before.heights.marked + 123, component: 322 });
  await page.close();
});
