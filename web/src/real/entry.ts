// dist/real.js: the Real model view, loaded when a link names it or the reader presses the
// header's button, with its styles (lesson.css beside it, unless the page has them already). The
// model runs in real-worker.js. The page's first load carries none of it.
import '../i18n/section-real';
import { RealView } from './view';
import { parseReal, serialiseReal } from '../state/real-link';
import { laterStyles, provide } from '../later/later';
import { loadFactory, viewPart } from '../later/view-entry';
import type M from '../../../cpp/wasm/attention-model';
import type { ViewPart } from '../later/view-entry';

declare module '../later/later' {
  interface Parts {
    real: ViewPart;
  }
}

const load = () => loadFactory<M.ModelModule>('attention-model.js', 'createAttentionModel');

void laterStyles();
const part = viewPart(parseReal, serialiseReal, (host, place) => new RealView({ ...host, loadModel: load }, place));
provide('real', part);
