// dist/present.js: Present's keys and styles, loaded the first time a reader presses Present
// (app/present-part.ts). It resolves once lesson.css, which holds Present's rules, is in.
import { presenter } from './present';
import { lazyStyles, provide } from '../lazy/lazy';

declare module '../lazy/lazy' {
  interface Parts {
    /** Present's keys, and `styled`: resolved once its styles (lesson.css) are in. */
    present: { presenter: typeof presenter; styled: Promise<void> };
  }
}

provide('present', { presenter, styled: lazyStyles() });
