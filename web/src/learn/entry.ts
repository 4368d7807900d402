// dist/learn.js: the Learn view, loaded when a link names it or the reader presses the header's
// button, with its styles (lesson.css beside it, unless the page has them inline already). The
// training itself runs in learn-worker.js. It reads the link's keys and keeps the one view, so
// the page's first load carries neither.
import '../i18n/section-learn';
import { LearnView } from './view';
import { parseLearn, serialiseLearn } from '../state/learn-link';
import { lazyStyles, provide } from '../lazy/lazy';
import { loadFactory, viewPart } from '../lazy/view-entry';
import type T from '../../../cpp/wasm/attention-trainer';
import type { ViewPart } from '../lazy/view-entry';

declare module '../lazy/lazy' {
  interface Parts {
    learn: ViewPart;
  }
}

const load = () => loadFactory<T.TrainerModule>('attention-trainer.js', 'createAttentionTrainer');

void lazyStyles();
const part = viewPart(parseLearn, serialiseLearn, (host, place) => new LearnView({ ...host, loadTrainer: load }, place));
provide('learn', part);
