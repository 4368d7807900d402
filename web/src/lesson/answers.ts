// A question's answer, read from the engine's numbers for the step's state (the model the
// playground shows), and the reply to what the reader gave: right or not, and which cell the
// engine's explanation of it belongs to.
import { num, translator } from '../i18n';
import type { Figure, Run } from '../model/compute';
import type { Lesson, Prediction } from './schema';

export type Answer = {
  text: string;
  right: boolean;
  focusText: string; // the answer alone, for a step answered on an earlier visit
  focus: { view: string; row: number; col: number; side: string };
};

type Kind<K extends Prediction['kind']> = Extract<Prediction, { kind: K }>;

const runOf = (p: { side?: 'a' | 'b' }, model: Figure): Run => (p.side === 'b' && model.b ? model.b : model.a);

/** The key query `row` gives the most weight; `given`: the key's index. */
export function tokenAnswer(p: Kind<'token'>, model: Figure, given: number, lang: string): Answer {
  const run = runOf(p, model);
  const m = run.steps.m;
  const w = run.steps.weights.data;
  let best = 0;
  for (let j = 1; j < m; j++) if (w[p.row * m + j] > w[p.row * m + best]) best = j;
  const answer = `${model.keyLabels[best] ?? ''} (${num(w[p.row * m + best])})`;
  // Tokens of the same word (and vectors) get the same weight: choosing any of them is right.
  const right = given >= 0 && given < m && w[p.row * m + given] === w[p.row * m + best];
  const text = right
    ? translator(lang)('lesson.right', { answer })
    : translator(lang)('lesson.wrong', { answer, given: model.keyLabels[given] ?? '' });
  return { text, right, focusText: answer, focus: { view: 'weights', row: p.row, col: best, side: p.side ?? 'a' } };
}

/** The number at (`step`, `row`, `col`), typed or set on a slider: right within `within` of it. */
export function numberAnswer(p: Kind<'number'> | Kind<'slider'>, model: Figure, given: number, lang: string): Answer {
  const run = runOf(p, model);
  const m = p.step === 'output' ? run.steps.dV : run.steps.m;
  const value = run.steps[p.step].data[p.row * m + p.col];
  // A slider is coarse: within a twentieth of its range. A typed number: within 1 % or 0.01.
  const within = p.kind === 'slider' ? (p.max - p.min) / 20 : 0.01 + 0.01 * Math.abs(value);
  const right = Math.abs(given - value) <= within;
  const answer = num(value);
  const text = right
    ? translator(lang)('lesson.right', { answer })
    : translator(lang)('lesson.wrong', { answer, given: num(given) });
  return { text, right, focusText: answer, focus: { view: p.step, row: p.row, col: p.col, side: p.side ?? 'a' } };
}

/** The largest cell of `step` (of its row `row`, if given); `given`: the cell's index i·m + j. */
export function cellAnswer(p: Kind<'cell'>, model: Figure, given: number, lang: string): Answer {
  const run = runOf(p, model);
  const st = run.steps;
  const cols = p.step === 'output' ? st.dV : st.m;
  const data = st[p.step].data;
  let best = p.row === undefined ? 0 : p.row * cols;
  const first = best,
    end = p.row === undefined ? data.length : first + cols;
  for (let k = first + 1; k < end; k++) if (data[k] > data[best]) best = k;
  const name = (k: number) => {
    const i = Math.floor(k / cols),
      j = k % cols;
    const col = p.step === 'output' ? (model.dvNames[j] ?? String(j + 1)) : (model.keyLabels[j] ?? '');
    return `${model.queryLabels[i] ?? ''} · ${col}`;
  };
  const answer = `${name(best)} (${num(data[best])})`;
  const right = given === best;
  const text = right
    ? translator(lang)('lesson.right', { answer })
    : translator(lang)('lesson.wrong', { answer, given: Number.isInteger(given) ? name(given) : '' });
  const focus = { view: p.step, row: Math.floor(best / cols), col: best % cols, side: p.side ?? 'a' };
  return { text, right, focusText: answer, focus };
}

/** The lesson's last word: how many of its questions the reader got right, and where to go on. */
export function summary(lesson: Lesson, answers: Record<number, 'right' | 'wrong'>, lang: string): string {
  const asked = lesson.steps.flatMap((s, k) => (s.predict ? [k] : []));
  const right = asked.filter((k) => answers[k] === 'right').length;
  const open = asked.filter((k) => answers[k] === undefined).length;
  return translator(lang)(open ? 'lesson.summaryOpen' : 'lesson.summary', { right, n: asked.length, open });
}
