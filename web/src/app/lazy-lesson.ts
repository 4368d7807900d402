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

/** The header's button that opens the built-in lesson. */
export function lessonButton(open: () => void): HTMLButtonElement {
  const b = h('button', { class: 'btn lesson-open', text: t('lesson.open'), attrs: { type: 'button', 'data-lesson-open': '' } });
  b.addEventListener('click', open);
  return b;
}
