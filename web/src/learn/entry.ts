// dist/learn.js: the Learn view, loaded when a link names it or the reader presses the header's
// button, with its styles (lesson.css beside it, unless the page has them inline already). The
// training itself runs in learn-worker.js. It reads the link's keys and keeps the one view, so
// the page's first load carries neither.
import '../i18n/section-learn';
import { LearnView } from './view';
import { parseLearn, serialiseLearn } from '../state/learn-link';
import type { State } from '../state/state';
import { laterStyles, loadScript, provide } from '../later/later';
import type T from '../../../cpp/wasm/attention-trainer';

let view: LearnView | null = null;

type TrainerFactory = () => Promise<T.TrainerModule>;
const TRAINER = 'createAttentionTrainer';

/** The trainer on the page itself, next to the page (where no worker can load it). */
function loadTrainer(): Promise<T.TrainerModule> {
  const global = globalThis as { [TRAINER]?: TrainerFactory };
  return loadScript('attention-trainer.js', () => typeof global[TRAINER] === 'function').then(
    () => (global[TRAINER] as TrainerFactory)(),
    () => Promise.reject(new Error('attention-trainer.js did not load: it belongs next to this page.')),
  );
}
let keepKeys: (keys: string | null) => void = () => undefined;

function close(): void {
  if (!view) return;
  view.dispose();
  view = null;
  keepKeys(null);
}

function open(
  keys: string,
  root: HTMLElement,
  keep: (keys: string | null) => void,
  notice: (kind: 'link') => HTMLElement,
  show: (state: State) => void,
): void {
  close();
  keepKeys = keep;
  const place = parseLearn(keys);
  if (!place) {
    keep(null);
    root.querySelector('.notice')?.remove();
    root.prepend(notice('link'));
    return;
  }
  keep(serialiseLearn(place));
  view = new LearnView(
    {
      lang: () => document.documentElement.lang,
      root: () => root,
      place: (p) => (p ? keep(serialiseLearn(p)) : close()),
      show,
      loadTrainer,
    },
    place,
  );
  view.attach();
}

laterStyles();
provide('learn', { open, close, attach: () => view?.attach() });
