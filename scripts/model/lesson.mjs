#!/usr/bin/env node
// Writes web/src/lesson/real-heads.ts, the lesson "What real heads do", from the shipped model
// (data/model/model.safetensors) run by the core (dist/attention-model.js): each step's state is
// one real head on a sentence (its queries, keys and values, as the Real model view opens a head
// in the playground), and every number its text gives (a head's place and measured score, a
// weight, the model's next token and its probability) is the core's. The lesson's questions are
// answered by the engine from those states, as every lesson's are. A test builds the lesson again
// and compares, so it cannot drift from the model: after retraining, run this again.
//   node scripts/model/lesson.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import * as prettier from 'prettier';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const LESSON_FILE = join(root, 'web/src/lesson/real-heads.ts');

const SENTENCE = 'the cat sat on the mat';
const NAME = 'Mr. and Mrs. Dursley had a nephew, Harry Potter. Harry';

/** The page's own pieces that turn a head into a playground state's text, bundled for node. */
async function pagePieces() {
  const out = await build({
    stdin: {
      contents: "export { headState } from './state/head-state'; export { serialise } from './state/link'; export { shown } from './real/tokens';",
      resolveDir: join(root, 'web/src'),
      loader: 'ts',
    },
    bundle: true, format: 'esm', platform: 'neutral', write: false, logLevel: 'silent',
  });
  return import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
}

const round = (x, digits) => Number(x.toFixed(digits));
const argmax = (row) => row.reduce((best, x, j) => (x > row[best] ? j : best), 0);
const quoted = (text) => ({ en: `“${text}”`, 'zh-CN': `“${text}”` });

/**
 * The lesson, from an opened model. Each part is a head that does on its sentence what the part
 * says, found by the engine's own reading: a previous-token head with a row that looks at the
 * token before it most, an attention sink whose last row looks at <|endoftext|> most, and an
 * induction head whose second "Captain" looks at the token after the first. A part the model
 * has no such head for is left out (the lesson then says less, and never what the model does not do).
 */
export async function buildLesson(lm) {
  const { headState, serialise, shown } = await pagePieces();
  const survey = lm.survey();
  /** Heads by their score for `pattern`, best first. */
  const ranked = (pattern) => survey.heads.flatMap((row, layer) => row.map((h, head) => ({ layer, head, score: h.scores[pattern] })))
    .sort((a, b) => b.score - a.score);
  /** A head on a sentence: its state's text, its tokens as the page labels them, its weights. */
  const read = (text, at) => {
    const run = lm.run(text);
    const labels = run.tokens.map((t, i) => (i === 0 ? '<|endoftext|>' : shown(t.text)));
    const h = lm.head(at.layer, at.head);
    const mat = (rows) => ({ rows: rows.length, cols: rows[0].length, data: Float32Array.from(rows.flat()) });
    const state = headState({ queries: mat(h.q), keys: mat(h.k), values: mat(h.v), weights: mat(h.weights) }, labels, '');
    return { at, state: serialise({ ...state, focus: null }, (k) => k), labels, weights: h.weights, run };
  };
  /** The first head, best first, for which `row(read)` finds a row that does what the part says. */
  const find = (pattern, text, row) => {
    for (const [rank, at] of ranked(pattern).slice(0, 4).entries()) {
      const r = read(text, at);
      const i = row(r);
      if (i !== null) return { ...r, row: i, first: rank === 0 };
    }
    return null;
  };
  // The last row that looks at the token before it most: the sentence's last word, if it does,
  // where a reader asks about a whole word rather than a piece of one.
  const prev = find('previous', SENTENCE, (r) => {
    for (let i = r.weights.length - 1; i >= 2; i--) if (argmax(r.weights[i]) === i - 1) return i;
    return null;
  });
  const sink = find('first', SENTENCE, (r) => (argmax(r.weights[r.weights.length - 1]) === 0 ? r.weights.length - 1 : null));
  const ind = find('induction', NAME, (r) => {
    const again = r.labels.length - 1, earlier = r.labels.indexOf(r.labels[again]);
    return earlier < again && argmax(r.weights[again]) === earlier + 1 ? again : null;
  });
  const where = ({ at }) => ({ en: `layer ${at.layer + 1}, head ${at.head + 1}`, 'zh-CN': `第 ${at.layer + 1} 层第 ${at.head + 1} 个头` });
  const pct = (x) => `${round(100 * x, 1)} %`;
  const pctZh = (x) => `${round(100 * x, 1)}%`;
  const q = (label) => quoted(label).en;
  const steps = [];
  const pair = (part, first, second) => {
    steps.push({ state: part.state, focus: { step: 'weights', row: part.row }, ...first });
    steps.push({ state: part.state, focus: { step: 'weights', row: part.row }, ...second });
  };
  const intro = {
    en: `These numbers are not set by hand. They come from the page’s own language model, whose queries, keys and values were learned from English and Chinese text. A space belongs to the token after it (␣).`,
    'zh-CN': `这些数不是手工设定的。它们来自本页自己的语言模型，它的查询、键和值都是从英文和中文文本里学来的。空格属于它后面的词元（␣）。`,
  };
  if (prev) {
    const w = where(prev), me = q(prev.labels[prev.row]), before = q(prev.labels[prev.row - 1]);
    const sharp = prev.at.score >= 0.6; // the score the literature's previous-token heads reach
    pair(prev, {
      text: {
        en: `${intro.en} Here is ${w.en}, reading the playground’s sentence.`,
        'zh-CN': `${intro['zh-CN']}这是${w['zh-CN']}，读的是演示里的那句英文。`,
      },
      predict: { kind: 'token', row: prev.row, question: { en: `Which token does ${me} look at most?`, 'zh-CN': `${me} 最关注哪个词元？` } },
    }, {
      text: {
        en: `${me} looks at ${before}, the token just before it: ${pct(prev.weights[prev.row][prev.row - 1])} of its weight. On random tokens this head puts ${pct(prev.at.score)} of its weight on the previous token${prev.first ? ', more than any other head' : ''}: ${sharp ? 'a previous-token head' : 'a previous-token head, as far as this model has one'}. What it carries forward lets a later head ask “what came before me?”.`,
        'zh-CN': `${me} 看向紧挨在它前面的 ${before}：${pctZh(prev.weights[prev.row][prev.row - 1])} 的权重。在随机词元上，这个头把 ${pctZh(prev.at.score)} 的权重放在前一个词元上${prev.first ? '，比其他头都多' : ''}：${sharp ? '这是一个' : prev.first ? '这是这个模型里最接近' : '这是这个模型里接近'}“前一个词元”头${sharp ? '' : '的一个'}。它带过来的信息，让后面的头可以问“我前面是什么？”。`,
      },
    });
  }
  if (sink) {
    const s = where(sink), last = q(sink.labels[sink.row]);
    pair(sink, {
      text: {
        en: `${prev ? '' : intro.en + ' '}The playground’s sentence through ${s.en}. Softmax makes every row spend its whole budget: the weights add up to 1 even when a head finds nothing it is looking for.`,
        'zh-CN': `${prev ? '' : intro['zh-CN']}演示里的那句话，这次经过${s['zh-CN']}。softmax 让每一行都花光全部预算：就算一个头没找到它要找的东西，权重加起来也是 1。`,
      },
      predict: { kind: 'token', row: sink.row, question: { en: `Where does the last token, ${last}, put most of its weight?`, 'zh-CN': `最后一个词元 ${last} 把大部分权重放在哪里？` } },
    }, {
      text: {
        en: `On <|endoftext|>: ${pct(sink.weights[sink.row][0])} of its weight, on the token every text starts with and nothing in the sentence. A head with nothing to do parks its budget there, where every position can see it: an attention sink. On random tokens this head puts ${pct(sink.at.score)} of its weight on the first token.`,
        'zh-CN': `放在 <|endoftext|> 上：${pctZh(sink.weights[sink.row][0])} 的权重落在每段文字开头的那个词元上，而不是句子里的任何词。一个无事可做的头会把预算停放在那里，因为每个位置都看得见它：这叫“注意力汇”。在随机词元上，这个头把 ${pctZh(sink.at.score)} 的权重放在第一个词元上。`,
      },
    });
  }
  if (ind) {
    const i = where(ind), cap = q(ind.labels[ind.row]), name = q(ind.labels[ind.labels.indexOf(ind.labels[ind.row]) + 1]);
    const next = ind.run.predictions[0], said = q(shown(next.text));
    pair(ind, {
      text: {
        en: `A name comes back: ${q(NAME)}, through ${i.en}. The model has seen ${cap} once already in this text.`,
        'zh-CN': `一个名字又出现了：${q(NAME)}，这次是${i['zh-CN']}。这段文字里，模型已经见过一次 ${cap}。`,
      },
      predict: { kind: 'token', row: ind.row, question: { en: `Where does the second ${cap} look most?`, 'zh-CN': `第二个 ${cap} 最关注哪里？` } },
    }, {
      text: {
        en: `At ${name}: not at the earlier ${cap} itself, but at the token that came after it. That is an induction head: find where I appeared before, and look at what followed. The model’s likeliest next token here is ${said} (${pct(next.probability)}). On random tokens repeated, this head puts ${pct(ind.at.score)} of its weight there, and the model needs ${round(survey.lossSecond, 1)} bits a token for the second copy, where a blind guess among its ${lm.config.vocab.toLocaleString('en')} tokens needs ${round(survey.lossBlind, 1)}.`,
        'zh-CN': `看向 ${name}：不是先前那个 ${cap} 本身，而是它后面的词元。这就是“归纳头”：找到我上次出现的地方，看看那之后是什么。模型在这里最看好的下一个词元是 ${said}（${pctZh(next.probability)}）。在重复的随机词元上，这个头把 ${pctZh(ind.at.score)} 的权重放在那里；模型读第二遍每个词元只要 ${round(survey.lossSecond, 1)} 比特，而在它的 ${lm.config.vocab} 个词元里盲猜要 ${round(survey.lossBlind, 1)} 比特。`,
      },
    });
  }
  if (!steps.length) throw new Error('no head of the model does on these sentences what a part of the lesson says');
  const lastStep = steps[steps.length - 1].text;
  lastStep.en += ' Try your own sentence in Real model.';
  lastStep['zh-CN'] += '在“真实模型”里试试你自己的句子。';
  return { id: 'real-heads', title: { en: 'What real heads do', 'zh-CN': '真实的头在做什么' }, steps };
}

/** The lesson as the TypeScript file the page bundles, formatted as scripts/format.sh formats it. */
export async function lessonSource(lesson) {
  const source = `// "What real heads do": written by scripts/model/lesson.mjs from data/model/model.safetensors, every
// number the core's. Do not edit: run the script again (tests/js/real-heads.test.mjs checks it).
import type { Lesson } from './schema';

export const realHeads: Lesson = ${JSON.stringify(lesson, null, 2)};
`;
  return prettier.format(source, { ...(await prettier.resolveConfig(LESSON_FILE)), filepath: LESSON_FILE });
}

export async function openShipped() {
  const createAttentionModel = createRequire(import.meta.url)(join(root, 'dist/attention-model.js'));
  const mod = await createAttentionModel();
  const opened = mod.open(readFileSync(join(root, 'data/model/model.safetensors')));
  if (!opened.ok) throw new Error(opened.error.message);
  return opened.model;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const lesson = await buildLesson(await openShipped());
  writeFileSync(LESSON_FILE, await lessonSource(lesson));
  console.log(`wrote ${LESSON_FILE}: ${lesson.steps.length} steps, states of ${lesson.steps.map((s) => s.state.length).join(', ')} characters`);
}
