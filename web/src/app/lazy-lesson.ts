// The way into a lesson: lesson.js (the lessons, their player and their styles), loaded when a
// link names a lesson or the reader presses the header's button.
import { h } from '../views/dom';
import { t } from '../i18n';
import type { Lesson } from '../lesson/schema';
import type { LessonHost, LessonPlayer, Progress } from '../lesson/player';
import { loadPart, LESSONS } from './scripts';

export interface LessonModule {
  lessons: Record<string, Lesson>;
  LessonPlayer: new (lesson: Lesson, host: LessonHost, progress: Progress, save: (p: Progress) => void) => LessonPlayer;
  readProgress(id: string, steps: number): Progress;
  writeProgress(id: string, p: Progress): void;
}

export function loadLessons(): Promise<LessonModule> {
  return loadPart<LessonModule>('lesson.js', LESSONS);
}

/**
 * A header's button that opens a later part: `which` is 'lesson' (the built-in lesson) or
 * 'learn' (the Learn view); its class and data attribute are `<which>-open`.
 */
export function openButton(which: 'lesson' | 'learn', open: () => void): HTMLButtonElement {
  const b = h('button', {
    class: `btn ${which}-open`,
    text: t(`${which}.open`),
    attrs: { type: 'button', [`data-${which}-open`]: '' },
  });
  b.addEventListener('click', open);
  return b;
}
