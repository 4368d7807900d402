// dist/lesson-real.js: the lesson "What real heads do", loaded beside dist/lesson.js only when a
// reader opens it (app/lesson-part.ts): its steps carry the real model's heads whole.
import { realHeads } from './real-heads';
import { provide } from '../lazy/lazy';
import type { Lesson } from './schema';

declare module '../lazy/lazy' {
  interface Parts {
    /** Lessons that come in a part of their own, by id. */
    realLesson: Record<string, Lesson>;
  }
}

provide('realLesson', { 'real-heads': realHeads });
