// A blog that embeds the playground, for the embedding tests: another origin (another port, on
// loopback too, since Chromium keeps public pages from framing local ones), its own strict CSP
// with Trusted Types, and the playground's scripts and frames by full address. Pages:
//   blog-post.html   dist/examples/blog-post.html (an iframe and an <attention-playground>)
//   wordpress.html   what WordPress makes of an oEmbed link: a sandboxed iframe (opaque origin)
//   messages.html    a playground iframe, a component, an unmarked playground frame and a frame
//                    of the blog's own (stranger.html): the senders for the postMessage tests
//   story.html, story.zh.html   dist/examples/: a scrolling <attention-story> in each language
//   readme-story.html   README's story example ("Write a lesson or a story"), as a reader copies it
//   frame-story.html the iframe form of a story: sections and a playground iframe in a
//                    [data-attention-story] element
//   two-stories.html two stories on one page: one of states, one made from an inline lesson, and
//                    a third whose lesson is broken
//   story-faults.html a story whose lesson file is not there, and one whose section names a step
//                    its lesson does not have
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dist } from './page-helpers.mjs';

export const BLOG_CSP = (play) => "default-src 'self'; script-src 'self' " + play + '; frame-src ' + play +
  " 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; " +
  "require-trusted-types-for 'script'; trusted-types 'none'";

const HEAD = (title) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<link rel="icon" href="data:,">`;

const WORDS = (en, zh) => ({ en, 'zh-CN': zh });
/** A lesson written inline in a post: three steps, each a state and its text. */
export const LESSON = {
  id: 'mine',
  title: WORDS('Mine', '我的'),
  steps: [
    { state: 'ver=1&preset=fruit&compare=off', text: WORDS('Dot products of fruit.', '水果的点积。') },
    { state: 'ver=1&preset=softmax', text: WORDS('Softmax, not the sum.', '用 softmax，而不是总和。') },
    { state: 'ver=1&preset=sqrtdk', text: WORDS('Divide by the root of d_k.', '除以 d_k 的平方根。') },
  ],
};
const BROKEN = { ...LESSON, steps: [{ ...LESSON.steps[0], state: 'preset=fruit' }, { ...LESSON.steps[1], extra: 1 }] };

/** README's story example: the html block of its "Write a lesson or a story" section. */
export function readmeStory() {
  const readme = readFileSync(join(dist, '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Write a lesson or a story'));
  return /```html\n([\s\S]*?)```/.exec(section)[1];
}

function pages(play) {
  return {
    'readme-story.html': `${HEAD('readme story')}</head><body>
${readmeStory().replace('https://example.org/attention/', play + '/')}</body></html>`,
    'wordpress.html': `${HEAD('wp')}
<script src="${play}/embed-resize.js" async></script></head><body>
<iframe data-attention-playground sandbox="allow-scripts" src="${play}/embed.html#ver=1&amp;preset=fruit&amp;embed=1"
 width="600" height="200" title="Attention Playground"></iframe></body></html>`,
    'messages.html': `${HEAD('messages')}
<script src="${play}/embed-resize.js" async></script><script src="${play}/embed.js" defer></script></head><body>
<iframe data-attention-playground src="${play}/embed.html#ver=1&amp;preset=fruit&amp;embed=1&amp;views=weights"
 width="600" height="200" title="Attention Playground"></iframe>
<attention-playground preset="causal" views="weights" controls="none"></attention-playground>
<iframe id="unmarked" src="${play}/embed.html#ver=1&amp;embed=1&amp;views=weights" width="600" height="150"
 title="a playground frame without the attribute"></iframe>
<iframe id="stranger" src="stranger.html" width="600" height="100" title="the blog's own frame"></iframe>
</body></html>`,
    'stranger.html': `${HEAD('stranger')}</head><body><p>Not a playground.</p></body></html>`,
    'frame-story.html': `${HEAD('frame story')}
<script src="${play}/story.js" defer></script><script src="${play}/embed-resize.js" async></script>
<link rel="stylesheet" href="blog-post.css"></head><body>
<div data-attention-story>
  <iframe data-attention-playground src="${play}/embed.html#ver=1&amp;preset=painting&amp;embed=1&amp;views=weights&amp;controls=none"
    width="100%" height="300" title="Attention Playground"></iframe>
  <section data-state="ver=1&amp;preset=painting"><h2>Painting</h2></section>
  <section data-state="ver=1&amp;preset=causal"><h2>Causal</h2></section>
</div></body></html>`,
    'two-stories.html': `${HEAD('two stories')}
<script src="${play}/story.js" defer></script><link rel="stylesheet" href="blog-post.css"></head><body>
<attention-story id="a" views="weights" controls="none">
  <section data-state="ver=1&amp;preset=painting"><h2>Painting</h2><p>The painting.</p></section>
  <section data-state="ver=1&amp;preset=causal"><h2>Causal</h2><p>The causal mask.</p></section>
</attention-story>
<attention-story id="b" views="weights" controls="none">
  <script type="application/json" data-lesson>${JSON.stringify(LESSON)}</script>
</attention-story>
<attention-story id="broken" views="weights" controls="none">
  <script type="application/json" data-lesson>${JSON.stringify(BROKEN)}</script>
  <section data-state="ver=1&amp;preset=fruit"><h2>Still here</h2><p>Its own state.</p></section>
</attention-story>
</body></html>`,
    'story-faults.html': `${HEAD('story faults')}
<script src="${play}/story.js" defer></script><link rel="stylesheet" href="blog-post.css"></head><body>
<attention-story id="gone" views="weights" controls="none" lesson="missing.json"></attention-story>
<attention-story id="astray" views="weights" controls="none">
  <script type="application/json" data-lesson>${JSON.stringify(LESSON)}</script>
  <section data-step="2"><h2>Step two</h2></section>
  <section data-step="99"><h2>No such step</h2></section>
</attention-story>
</body></html>`,
  };
}

/** Starts the blog; resolves to { origin, url(name), close() }. `play` is the playground's origin. */
export async function startBlog(play) {
  const own = pages(play);
  const server = createServer((req, res) => {
    const name = new URL(req.url, 'http://x').pathname.replace(/^\//, '') || 'blog-post.html';
    const type = name.endsWith('.css') ? 'text/css' : 'text/html; charset=utf-8';
    let body = own[name];
    if (body === undefined && ['blog-post.html', 'blog-post.css', 'story.html', 'story.zh.html'].includes(name)) {
      body = readFileSync(join(dist, 'examples', name), 'utf8');
      if (name.endsWith('.html')) body = body.replaceAll('"../', `"${play}/`);
    }
    if (body === undefined) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': type, 'content-security-policy': BLOG_CSP(play) });
    res.end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { origin, url: (name = 'blog-post.html') => `${origin}/${name}`, close: () => new Promise((r) => server.close(r)) };
}

/** The frame inside an <iframe> element or inside an <attention-playground>'s shadow root, once it has its document. */
export async function frameOf(locator) {
  await locator.scrollIntoViewIfNeeded(); // the frames load lazily
  const handle = await locator.evaluateHandle((el) => el.shadowRoot ? el.shadowRoot.querySelector('iframe') : el);
  const frame = await handle.asElement().contentFrame();
  if (!frame) throw new Error('no frame');
  // Every frame starts on about:blank; its own document has come once it has navigated away.
  await frame.waitForURL((url) => url.href !== 'about:blank', { waitUntil: 'commit', timeout: 10000 });
  return frame;
}

/**
 * Waits until an iframe (a locator of the element) is as tall as its content, within 2 px: the
 * frame posts its content's height whenever it changes and keeps the last it posted on its root
 * (data-height), and the host sizes the iframe when the message comes. The first message may come
 * before fonts and the last render settle, so first the frame has posted the height it has now,
 * then the host has taken it. `box`: the iframe's height with its border, else inside it. Fails
 * with both numbers after 10 s.
 */
export async function followsContent(iframe, frame, { box = false } = {}) {
  const told = () => {
    const app = document.getElementById('app');
    return app.dataset.height === String(Math.ceil(app.getBoundingClientRect().height));
  };
  await frame.waitForFunction(told, null, { timeout: 10000 }).catch(() => {});
  const posted = Number(await frame.evaluate(() => document.getElementById('app').dataset.height));
  const element = await iframe.elementHandle();
  await iframe.page().waitForFunction(([el, want, inBox]) => Math.abs((inBox ? el.getBoundingClientRect().height : el.clientHeight) - want) <= 2,
    [element, posted, box], { timeout: 10000 }).catch(() => {});
  const height = await element.evaluate((el, inBox) => (inBox ? el.getBoundingClientRect().height : el.clientHeight), box);
  const content = await frame.evaluate(() => Math.ceil(document.getElementById('app').getBoundingClientRect().height));
  if (Math.abs(height - content) > 2) assert.fail(`iframe ${height}px, content ${content}px`);
}

export async function frameReady(frame) {
  await frame.waitForFunction(() => Number(document.getElementById('app')?.dataset.renders ?? 0) > 0, null, { timeout: 20000 });
}
