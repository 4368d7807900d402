// dist/present.js: Present's keys and styles, loaded the first time a reader presses Present
// (app/present-part.ts). It resolves once lesson.css, which holds Present's rules, is in.
import { presenter } from './present';
import { laterStyles, provide } from '../later/later';

declare module '../later/later' {
  interface Parts {
    /** Present's keys, and `styled`: resolved once its styles (lesson.css) are in. */
    present: { presenter: typeof presenter; styled: Promise<void> };
  }
}

provide('present', { presenter, styled: laterStyles() });
