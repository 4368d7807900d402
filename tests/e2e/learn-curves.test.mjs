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
    const curves = await page.evaluate(() => Array.from(document.querySelectorAll('.learn-curve'), (svg) => ({
      first: svg.querySelector('[data-first]')?.textContent, last: svg.querySelector('[data-last]')?.textContent,
      top: svg.querySelector('[data-top]')?.textContent, zero: svg.querySelector('[data-zero]')?.textContent,
      reference: svg.querySelector('.learn-reference text')?.textContent ?? null,
    })));
    // The step in "Reached 99 % at step 55" / "第 55 步达到 99 %": the number that is not a percentage.
    const note = await page.textContent('[data-learn-target]');
    const stopped = Number([...note.matchAll(/(\d+)(?!\d|\s*%)/g)][0][1]);
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
