// dist/real.js: the Real model view, loaded when a link names it or the reader presses the
// header's button, with its styles (lesson.css beside it, unless the page has them already). The
// model runs in real-worker.js. The page's first load carries none of it.
import '../i18n/section-real';
import { RealView } from './view';
import { parseReal, serialiseReal } from '../state/real-link';
import { lazyStyles, provide } from '../lazy/lazy';
import { loadFactory, viewPart } from '../lazy/view-entry';
import type M from '../../../cpp/wasm/attention-model';
import type { ViewPart } from '../lazy/view-entry';

declare module '../lazy/lazy' {
  interface Parts {
    real: ViewPart;
  }
}

const load = () => loadFactory<M.ModelModule>('attention-model.js', 'createAttentionModel');

void lazyStyles();
const part = viewPart(parseReal, serialiseReal, (host, place) => new RealView({ ...host, loadModel: load }, place));
provide('real', part);
