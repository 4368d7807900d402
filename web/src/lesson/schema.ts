// A lesson is data: an ordered list of steps, each a playground state (in the link's format, so a
// step is exactly reproducible), its text in both languages, what to point at, and optionally a
// question whose answer the engine computes from the step's state. validateLesson() checks one
// from anywhere (a JSON file, a page's inline script) and says what is wrong and where.
//
//   { "id": "intro", "title": { "en": "…", "zh-CN": "…" },
//     "steps": [ { "state": "ver=2&preset=painting",
//                  "text": { "en": "…", "zh-CN": "…" },
//                  "focus": { "step": "weights", "row": 1, "col": 3 },
//                  "predict": { "kind": "token", "row": 1,
//                               "question": { "en": "…", "zh-CN": "…" } },
//                  "play": { "frame": 1 } } ] }
//
// predict.kind: "token": the reader picks the key that query `row` gives the most weight (of side
// a or b); "number": the reader types the number in (`step`, `row`, `col`), within 1 % or 0.01;
// "slider": the reader sets that number on a slider from `min` to `max`, within a twentieth of it;
// "cell": the reader clicks the largest cell of `step`'s heatmap (of its row `row`, if given).
// play: the pipeline's animation of the step's row opens, paused at `frame` (1-based, default 1).

import { LANGUAGES, type Texts } from '../i18n';
import { MAX_FRAME } from '../state/lesson-link';
import { CAPS } from '../state/state';

/** A lesson has its text in every language of the page. */
const TAGS: string[] = LANGUAGES.map((l) => l.tag);

export const LESSON_STEPS = ['pipeline', 'formula', 'scores', 'scaled', 'masked', 'weights', 'output', 'plot'] as const;
export type LessonStep = (typeof LESSON_STEPS)[number];
export const NUMBER_STEPS = ['scores', 'scaled', 'masked', 'weights', 'output'] as const;

export type Words = Texts;

export interface LessonFocus {
  step: LessonStep;
  row?: number;
  col?: number;
  side?: 'a' | 'b';
}

type NumberStep = (typeof NUMBER_STEPS)[number];
export type Prediction =
  | { kind: 'token'; question: Words; row: number; side?: 'a' | 'b' }
  | { kind: 'number'; question: Words; step: NumberStep; row: number; col: number; side?: 'a' | 'b' }
  | { kind: 'slider'; question: Words; step: NumberStep; row: number; col: number; min: number; max: number; side?: 'a' | 'b' }
  | { kind: 'cell'; question: Words; step: NumberStep; row?: number; side?: 'a' | 'b' };

export interface LessonStepData {
  state: string;
  text: Words;
  focus?: LessonFocus;
  predict?: Prediction;
  play?: { frame?: number };
}

export interface Lesson {
  id: string;
  title: Words;
  steps: LessonStepData[];
}

// A step's state is a link's state, so it may be as long as a link: a real head on a sentence of
// 17 tokens writes 52,000 characters of queries, keys and values.
export const LESSON_LIMITS = { steps: 64, text: 2000, state: CAPS.link } as const;

type Problem = { where: string; message: string };

/** The lesson, or every problem found in it, each with where it is ("steps[3].predict.row"). */
export function validateLesson(input: unknown): { ok: true; lesson: Lesson } | { ok: false; problems: Problem[] } {
  const problems: Problem[] = [];
  const bad = (where: string, message: string): void => void problems.push({ where, message });
  const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  const only = (o: Record<string, unknown>, where: string, keys: string[]) => {
    for (const k of Object.keys(o)) if (!keys.includes(k)) bad(where ? `${where}.${k}` : k, 'is not a key a lesson has');
  };
  const words = (x: unknown, where: string): void => {
    if (!isObject(x)) return bad(where, `must be an object with ${TAGS.map((t) => `"${t}"`).join(' and ')} texts`);
    only(x, where, TAGS);
    for (const lang of TAGS) {
      const s = x[lang];
      if (typeof s !== 'string' || !s.trim()) bad(`${where}.${lang}`, 'must be a text that is not empty');
      else if (s.length > LESSON_LIMITS.text) bad(`${where}.${lang}`, `is longer than ${LESSON_LIMITS.text} characters`);
    }
  };
  const index = (x: unknown, where: string) => {
    if (!Number.isInteger(x) || (x as number) < 0 || (x as number) > 1023) bad(where, 'must be a whole number from 0 to 1023');
  };
  const side = (x: unknown, where: string) => {
    if (x !== undefined && x !== 'a' && x !== 'b') bad(where, 'must be "a" or "b"');
  };
  if (!isObject(input)) return { ok: false, problems: [{ where: '(lesson)', message: 'must be an object' }] };
  only(input, '', ['id', 'title', 'steps']);
  if (typeof input.id !== 'string' || !/^[a-z0-9-]{1,32}$/.test(input.id)) bad('id', 'must be 1 to 32 of a–z, 0–9 and -');
  words(input.title, 'title');
  const steps = input.steps;
  if (!Array.isArray(steps) || steps.length === 0) bad('steps', 'must be a list of at least one step');
  else if (steps.length > LESSON_LIMITS.steps) bad('steps', `has more than ${LESSON_LIMITS.steps} steps`);
  else {
    steps.forEach((step: unknown, k): void => {
      const at = `steps[${k}]`;
      if (!isObject(step)) return bad(at, 'must be an object');
      only(step, at, ['state', 'text', 'focus', 'predict', 'play']);
      if (typeof step.state !== 'string' || !/^ver=[12](&|$)/.test(step.state))
        bad(`${at}.state`, 'must be a playground link’s state, starting ver=2 (or ver=1)');
      else if (step.state.length > LESSON_LIMITS.state) bad(`${at}.state`, `is longer than ${LESSON_LIMITS.state} characters`);
      words(step.text, `${at}.text`);
      if (step.focus !== undefined) {
        const f = step.focus;
        if (!isObject(f)) bad(`${at}.focus`, 'must be an object');
        else {
          only(f, `${at}.focus`, ['step', 'row', 'col', 'side']);
          if (!(LESSON_STEPS as readonly unknown[]).includes(f.step))
            bad(`${at}.focus.step`, `must be one of ${LESSON_STEPS.join(', ')}`);
          if (f.row !== undefined) index(f.row, `${at}.focus.row`);
          if (f.col !== undefined) index(f.col, `${at}.focus.col`);
          side(f.side, `${at}.focus.side`);
        }
      }
      if (step.play !== undefined) {
        const p = step.play;
        if (!isObject(p)) bad(`${at}.play`, 'must be an object');
        else {
          only(p, `${at}.play`, ['frame']);
          const f = p.frame;
          if (f !== undefined && (!Number.isInteger(f) || (f as number) < 1 || (f as number) > MAX_FRAME))
            bad(`${at}.play.frame`, `must be a whole number from 1 to ${MAX_FRAME}`);
        }
      }
      if (step.predict !== undefined) {
        const p = step.predict;
        const where = `${at}.predict`;
        if (!isObject(p)) return bad(where, 'must be an object');
        words(p.question, `${where}.question`);
        if (p.kind !== 'cell' || p.row !== undefined) index(p.row, `${where}.row`);
        side(p.side, `${where}.side`);
        const numberStep = () => {
          if (!(NUMBER_STEPS as readonly unknown[]).includes(p.step))
            bad(`${where}.step`, `must be one of ${NUMBER_STEPS.join(', ')}`);
        };
        if (p.kind === 'token') only(p, where, ['kind', 'question', 'row', 'side']);
        else if (p.kind === 'number' || p.kind === 'slider') {
          only(p, where, ['kind', 'question', 'step', 'row', 'col', 'side', ...(p.kind === 'slider' ? ['min', 'max'] : [])]);
          numberStep();
          index(p.col, `${where}.col`);
          if (p.kind === 'slider' && !(Number.isFinite(p.min) && Number.isFinite(p.max) && (p.min as number) < (p.max as number)))
            bad(`${where}.max`, 'min and max must be numbers, min below max');
        } else if (p.kind === 'cell') {
          only(p, where, ['kind', 'question', 'step', 'row', 'side']);
          numberStep();
        } else bad(`${where}.kind`, 'must be "token", "number", "slider" or "cell"');
      }
    });
  }
  return problems.length ? { ok: false, problems } : { ok: true, lesson: input as unknown as Lesson };
}
