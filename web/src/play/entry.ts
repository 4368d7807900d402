// dist/play.js: the pipeline's animation of one query row, loaded when the reader presses Play or
// a link names a frame (app/play-part.ts), with its styles (in lesson.css, shared with the lessons).
import '../i18n/section-play';
import { RowPlayer } from './player';
import { lazyStyles, provide } from '../lazy/lazy';
import type { PlayData, PlayHandlers } from './player';

declare module '../lazy/lazy' {
  interface Parts {
    play: { RowPlayer: new (data: PlayData, frame: number, lang: string, on: PlayHandlers) => RowPlayer };
  }
}

void lazyStyles();
provide('play', { RowPlayer });
