// The page's parts that come later, each a classic script next to the page: a language's catalog
// (i18n-<tag>.js), the cost view (cost-view.js), the text exports (formats.js), the share dialog
// (share.js), the plot (plot.js), the lessons (lesson.js), the pipeline's animation (play.js),
// the Learn view (learn.js), the canvas form of large heatmaps (heatmap-canvas.js).
// Each is loaded once; in the offline file they are inline already, and then nothing is fetched.
import { scriptURL } from '../engine/trusted';

const pending = new Map<string, Promise<void>>();

/** Loads `name` unless `present()` says it is there already. */
export function loadScript(name: string, present: () => boolean): Promise<void> {
  if (present()) return Promise.resolve();
  let loading = pending.get(name);
  if (!loading) {
    loading = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = scriptURL(name);
      script.onload = () => resolve();
      script.onerror = () => {
        pending.delete(name); // a later attempt may succeed
        script.remove();
        reject(new Error(`${name} did not load`));
      };
      document.head.append(script);
    });
    pending.set(name, loading);
  }
  return loading;
}

/** What a part's script left on the global object under `key`, if it has run. */
export function part<T>(key: string): T | undefined {
  return (globalThis as unknown as Record<string, T | undefined>)[key];
}

/** A part's script: what it leaves under `key`, loading `name` first unless it ran already. */
export function loadPart<T>(name: string, key: string): Promise<T> {
  return loadScript(name, () => part(key) !== undefined).then(() => part<T>(key)!);
}

/** In a part's script: leaves `value` under `key` for loadPart(). */
export function providePart(key: string, value: unknown): void {
  (globalThis as unknown as Record<string, unknown>)[key] = value;
}

/** Where formats.js leaves the text exports on the global object. */
export const FORMATS = '__attentionPlaygroundFormats';

/** Where share.js leaves the share dialog's factory on the global object. */
export const SHARE_DIALOG = '__attentionPlaygroundShare';

/** Where plot.js leaves the plot's factory on the global object. */
export const PLOT = '__attentionPlaygroundPlot';

/** Where lesson.js leaves the lessons and their player on the global object. */
export const LESSONS = '__attentionPlaygroundLessons';

/** Where learn.js leaves the Learn view on the global object. */
export const LEARN = '__attentionPlaygroundLearn';

/** Where heatmap-canvas.js leaves the canvas form of a heatmap on the global object. */
export const CANVAS = '__attentionPlaygroundCanvas';

/** Where play.js leaves the pipeline's animation on the global object. */
export const PLAY = '__attentionPlaygroundPlay';

/**
 * In lesson.js, play.js and learn.js: their styles (lesson.css beside them), unless the page has them
 * already, inline (the offline file) or from the other one.
 */
export function laterStyles(): void {
  if (getComputedStyle(document.documentElement).getPropertyValue('--lesson-styles')) return;
  if (document.querySelector('link[data-later-styles]')) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = 'lesson.css';
  link.dataset.laterStyles = '';
  document.head.append(link);
}
