// dist/lesson.js: the player and the first lesson, loaded when a reader opens a lesson
// (app/lesson-part.ts; "What real heads do" comes in its own part, real-entry.ts), with their
// styles (lesson.css beside it, unless the page has them inline already).
import '../i18n/section-lesson';
import { intro } from './intro';
import { LessonPlayer } from './player';
import { readProgress, writeProgress } from './progress';
import { lazyStyles, provide } from '../lazy/lazy';
import type { Lesson } from './schema';
import type { LessonHost, Progress } from './player';

export interface LessonPart {
  lessons: Record<string, Lesson>;
  LessonPlayer: new (lesson: Lesson, host: LessonHost, progress: Progress, save: (p: Progress) => void) => LessonPlayer;
  readProgress(id: string, steps: number): Progress;
  writeProgress(id: string, p: Progress): void;
}

declare module '../lazy/lazy' {
  interface Parts {
    lesson: LessonPart;
  }
}

void lazyStyles();
provide('lesson', { lessons: { intro }, LessonPlayer, readProgress, writeProgress });
