// The Learn view's curves read on their own: the axes carry their numbers (0 and the top, step 0
// and the latest), the loss has the line of guessing (ln of the number of tokens) across it, and
// one sentence each says what loss, accuracy and the pattern score are, in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, open } from './page-helpers.mjs';

const env = serveAndLaunch();

for (const [lang, train, guess, said] of [
  ['en', 'Train', 'guessing: ln 11 = 2.40', /Loss: .*ln 11 = 2\.40.*Accuracy: .*Pattern score: .*0\.5/],
  ['zh-CN', '训练', '瞎猜：ln 11 = 2.40', /损失：.*ln 11 = 2\.40.*准确率：.*模式分数：.*0\.5/],
]) {
  test(`learn curves (${lang}): numbered axes, the line of guessing, and what each measure means`, async () => {
    const { page, problems } = await open(env.chromium.context, env.server.url + `#view=learn&task=reverse&lang=${lang}`);
    await page.waitForSelector('[data-learn] button');
    await page.getByRole('button', { name: train, exact: true }).click();
    await page.waitForFunction(() => /99/.test(document.querySelector('[data-learn-target]')?.textContent ?? ''), null, { timeout: 60000 });
    // The step in "Reached 99 % at step 55" / "第 55 步达到 99 %": the number that is not a percentage.
    const note = await page.textContent('[data-learn-target]');
    const stopped = Number([...note.matchAll(/(\d+)(?!\d|\s*%)/g)][0][1]);
    // The curves are drawn at most ten times a second: the last draw follows the note.
    await page.waitForFunction((n) => document.querySelector('.learn-curve [data-last]')?.textContent === String(n), stopped);
    const curves = await page.evaluate(() => Array.from(document.querySelectorAll('.learn-curve'), (svg) => ({
      first: svg.querySelector('[data-first]')?.textContent, last: svg.querySelector('[data-last]')?.textContent,
      top: svg.querySelector('[data-top]')?.textContent, zero: svg.querySelector('[data-zero]')?.textContent,
      reference: svg.querySelector('.learn-reference text')?.textContent ?? null,
    })));
    const [loss, accuracy] = curves;
    assert.equal(loss.first, '0');
    assert.equal(loss.last, String(stopped), `the step axis ends at the step training stopped at (${stopped})`);
    assert.equal(loss.reference, guess);
    assert.ok(Number(loss.top) >= 2.4, `the loss axis reaches the first loss: ${loss.top}`);
    assert.deepEqual([accuracy.top, accuracy.zero, accuracy.reference], ['100\u00a0%', '0\u00a0%', null]);
    assert.match(await page.textContent('[data-learn-meanings]'), said);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('learn try: positions the task asks nothing about are marked, "·" is said to be left out, and an error clears the old predictions', async () => {
  const { page, problems } = await open(env.chromium.context, env.server.url + '#view=learn&task=reverse');
  await page.waitForSelector('[data-learn-predictions] li');
  // The probe 3 1 4 1 5 | 5 1 4 1: the five digits before the bar are asked nothing.
  const asked = await page.$$eval('[data-learn-predictions] li', (lis) => lis.map((li) => li.dataset.asked));
  assert.deepEqual(asked, ['false', 'false', 'false', 'false', 'false', 'true', 'true', 'true', 'true', 'true']);
  assert.equal(await page.isVisible('[data-learn-unasked]'), true);
  await page.fill('[data-learn-try]', '3 1 · 4 | 4');
  await page.click('[data-learn-try-run]');
  await page.waitForFunction(() => document.querySelectorAll('[data-learn-predictions] li').length === 5);
  assert.match(await page.textContent('[data-learn-try-note]'), /“·” only separates/);
  await page.fill('[data-learn-try]', '3 1 x');
  await page.click('[data-learn-try-run]');
  assert.match(await page.textContent('[data-learn-try-message]'), /“x” \(token 3\)/);
  assert.equal(await page.locator('[data-learn-predictions] li').count(), 0, 'no predictions of the sequence before');
  assert.equal(await page.textContent('[data-learn-answer]'), '');
  // Time is the subject: no answer the worker sends later brings the old sequence back, and a
  // reply that does not come has no event to wait for.
  await page.waitForTimeout(600);
  assert.equal(await page.locator('[data-learn-predictions] li').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});
