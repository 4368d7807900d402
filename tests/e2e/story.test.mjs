// <attention-story> on a blog of another origin, under its strict CSP with Trusted Types: as the
// reader scrolls, the one figure follows the section being read, in order and back; on a phone it
// sits after that section; two stories on a page keep their own figures; a story made from an
// inline lesson has a section per step; a broken lesson is said where it is and the rest works.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch } from './page-helpers.mjs';
import { axe } from './a11y-axe.mjs';
import { startBlog, LESSON, readmeStory } from './blog-host.mjs';

let server, chromium, blog;
before(async () => {
  server = await serve();
  chromium = await launch();
  blog = await startBlog(server.url.replace(/\/$/, ''));
});
after(async () => { await chromium?.close(); await server?.close(); await blog?.close(); });

async function openStory(url, viewport, options = {}) {
  const context = await chromium.browser.newContext({ viewport, ...options });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(url);
  await page.waitForFunction(() => customElements.get('attention-story'));
  return { context, page, problems };
}

/** What story `sel`'s figure shows: its state attribute, and the frame's pipeline title once drawn. */
const figureState = (page, sel) => page.evaluate((s) =>
  document.querySelector(s).shadowRoot.querySelector('attention-playground').getAttribute('state'), sel);

async function figureTitle(page, sel) {
  const handle = await page.evaluateHandle((s) => document.querySelector(s).shadowRoot
    .querySelector('attention-playground').shadowRoot.querySelector('iframe'), sel);
  const frame = await handle.asElement().contentFrame();
  await frame.waitForFunction(() => Number(document.getElementById('app')?.dataset.renders ?? 0) > 0, null, { timeout: 20000 });
  return frame;
}

/** Scrolls section k of story `sel` to the middle of the screen and waits for the figure to take its state. */
async function read(page, sel, k) {
  const want = await page.evaluate(([s, n]) => {
    const section = Array.from(document.querySelector(s).children).filter((c) => c.tagName !== 'SCRIPT')[n];
    section.scrollIntoView({ block: 'center' });
    return section.dataset.state ?? null;
  }, [sel, k]);
  // As a reader keeps the section in view: once in a long run the page was still settling from the
  // figure's move (it scrolls by the figure's height on a phone) when the section was scrolled to.
  if (want !== null) await page.waitForFunction(([s, n, w]) => {
    const story = document.querySelector(s);
    if (story.shadowRoot.querySelector('attention-playground').getAttribute('state') === w) return true;
    Array.from(story.children).filter((c) => c.tagName !== 'SCRIPT')[n].scrollIntoView({ block: 'center' });
    return false;
  }, [sel, k, want], { polling: 500 });
  return want;
}

test('story: scrolling through the English example, the figure follows each section in order, and back', async () => {
  const { context, page, problems } = await openStory(blog.url('story.html'), { width: 1280, height: 800 });
  const n = await page.locator('attention-story > section').count();
  assert.equal(n, 6);
  const titles = [/no condition/, /flying/, /apple/, /apple/, /“/, /“/];
  for (let k = 0; k < n; k++) {
    await read(page, 'attention-story', k);
    const frame = await figureTitle(page, 'attention-story');
    await frame.waitForFunction((re) => new RegExp(re).test(document.querySelector('.pipeline h2')?.textContent ?? ''), titles[k].source);
    // Beside the prose, on screen while it is read.
    const box = await page.evaluate(() => document.querySelector('attention-story').shadowRoot.querySelector('.figure').getBoundingClientRect().toJSON());
    // (A figure taller than the screen scrolls with the last section, as the story ends.)
    assert.ok(box.top < 400 && box.bottom > 400 && box.left > 500, `section ${k + 1}: the figure beside it, ${JSON.stringify(box)}`);
  }
  await read(page, 'attention-story', 0);
  assert.match(await figureState(page, 'attention-story'), /preset=painting&focus=/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('story: on a phone, in Chinese, the figure sits after the section being read', async () => {
  const { context, page, problems } = await openStory(blog.url('story.zh.html'), { width: 375, height: 740 }, { isMobile: true, hasTouch: true });
  for (const k of [0, 2, 4]) {
    await read(page, 'attention-story', k);
    const [section, next, figure] = await page.evaluate((n) => {
      const story = document.querySelector('attention-story');
      const s = story.querySelectorAll(':scope > section');
      return [s[n], s[n + 1], story.shadowRoot.querySelector('.figure')].map((el) => el.getBoundingClientRect().toJSON());
    }, k);
    assert.ok(figure.top >= section.bottom - 1 && figure.bottom <= next.top + 1, `section ${k + 1}: figure between it and the next`);
  }
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 375), 'no sideways scrolling');
  assert.deepEqual(problems, []);
  await context.close();
});

test('story: two stories on one page keep their own figures; one made from an inline lesson has a section per step', async () => {
  const { context, page, problems } = await openStory(blog.url('two-stories.html'), { width: 1280, height: 800 });
  assert.equal(await page.locator('#b > section').count(), LESSON.steps.length);
  assert.equal(await page.locator('#b > section').nth(1).innerText(), LESSON.steps[1].text.en);
  await read(page, '#a', 1);
  const a = await figureState(page, '#a');
  assert.match(a, /preset=causal/);
  await read(page, '#b', 2);
  await page.waitForFunction((w) => document.querySelector('#b').shadowRoot.querySelector('attention-playground').getAttribute('state') === w, LESSON.steps[2].state);
  assert.equal(await figureState(page, '#a'), a, 'the other story stays where it was');
  // The broken lesson: said in that story, where it is; its own section still has its figure.
  const said = await page.evaluate(() => document.querySelector('#broken').shadowRoot.querySelector('.problems').textContent);
  assert.match(said, /steps\[0\]\.state .*ver=1/);
  assert.match(said, /steps\[1\]\.extra/);
  await read(page, '#broken', 0);
  assert.match(await figureState(page, '#broken'), /preset=fruit/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('story: a lesson file that is not there is said as not fetched (not as JSON), a step the lesson lacks is named', async () => {
  const { context, page } = await openStory(blog.url('story-faults.html'), { width: 1280, height: 800 });
  const said = (id) => page.waitForFunction((s) => document.querySelector(s).shadowRoot.querySelector('.problems').textContent, id)
    .then((h) => h.jsonValue());
  assert.match(await said('#gone'), /the lesson missing\.json could not be fetched \(HTTP 404/);
  assert.doesNotMatch(await said('#gone'), /JSON/);
  const astray = await said('#astray');
  assert.match(astray, new RegExp(`steps 1 to ${LESSON.steps.length}; section 2 names data-step="99"`));
  assert.doesNotMatch(astray, /section 1 /, 'the section of step 2 is right');
  await context.close();
});

test('story: in a blog\'s 700 px column the figure goes under the section, and its pipeline is not cut', async () => {
  const { context, page, problems } = await openStory(blog.url('story.html'), { width: 1280, height: 800 });
  await page.evaluate(() => { document.querySelector('attention-story').style.maxWidth = '700px'; }); // a 700 px column
  const story = page.locator('attention-story');
  await page.waitForFunction(() => document.querySelector('attention-story').hasAttribute('data-narrow'));
  assert.ok((await story.evaluate((el) => el.clientWidth)) <= 700);
  await read(page, 'attention-story', 1);
  const frame = await figureTitle(page, 'attention-story');
  await frame.waitForSelector('.pipeline td[data-view="weights"]');
  const cut = await frame.evaluate(() => ({
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    parts: Array.from(document.querySelectorAll('.pipeline-scroll'), (el) => el.scrollWidth - el.clientWidth),
    width: document.documentElement.clientWidth,
  }));
  assert.ok(cut.width >= 680, `the figure is ${cut.width} px wide: the column's width`);
  assert.equal(cut.page, 0, 'nothing scrolls sideways');
  assert.deepEqual(cut.parts.filter((d) => d > 0), [], 'no part of the pipeline is cut');
  assert.deepEqual(problems, []);
  await context.close();
});

test('story: axe finds no serious problem in the story, English at 1280 px and Chinese at 375', async () => {
  const found = [];
  for (const [name, width] of [['story.html', 1280], ['story.zh.html', 375]]) {
    const { context, page } = await openStory(blog.url(name), { width, height: 800 });
    await read(page, 'attention-story', 1);
    const tags = ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice'];
    found.push(...(await axe(page, { only: 'attention-story', tags, frames: false })).map((v) => `${name} ${width}: ${v}`));
    await context.close();
  }
  assert.deepEqual(found, []);
});

test('story: README’s example, under 30 lines, works as a reader copies it', async () => {
  assert.ok(readmeStory().trim().split('\n').length < 30);
  const { context, page, problems } = await openStory(blog.url('readme-story.html'), { width: 1280, height: 800 });
  assert.equal(await page.locator('attention-story > section').count(), 2);
  // The whole story fits on the screen: the reader points at the section to read.
  assert.match(await figureState(page, 'attention-story'), /painting/);
  await page.hover('attention-story > section:nth-of-type(2)');
  await page.waitForFunction(() => /fruit/.test(document.querySelector('attention-story').shadowRoot.querySelector('attention-playground').getAttribute('state')));
  const frame = await figureTitle(page, 'attention-story');
  await frame.waitForFunction(() => /apple/.test(document.querySelector('.pipeline h2')?.textContent ?? ''));
  assert.deepEqual(problems, []);
  await context.close();
});

test('story: the iframe form follows the sections too, and keeps the frame’s own embedding keys', async () => {
  const { context, page, problems } = await openStory(blog.url('frame-story.html'), { width: 1280, height: 800 });
  await page.waitForFunction(() => document.querySelector('iframe').src.includes('preset=painting'));
  await page.evaluate(() => document.querySelectorAll('section')[1].scrollIntoView({ block: 'start' }));
  await page.waitForFunction(() => document.querySelector('iframe').src.includes('preset=causal'));
  assert.match(await page.evaluate(() => document.querySelector('iframe').src), /preset=causal&embed=1&views=weights&controls=none$/);
  const frame = await (await page.$('iframe')).contentFrame();
  await frame.waitForFunction(() => /causal/.test(location.hash) && document.querySelector('.card.step[data-step="weights"]'));
  assert.deepEqual(problems, []);
  await context.close();
});
