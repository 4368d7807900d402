// dist/lesson.js: the lessons and their player, loaded when a reader opens one (lazy-lesson.ts),
// with their styles (lesson.css beside it, unless the page has them inline already).
import '../i18n/section-lesson';
import { intro } from '../lesson/intro';
import { LessonPlayer } from '../lesson/player';
import { validateLesson } from '../lesson/schema';
import { readProgress, writeProgress } from '../lesson/progress';
import { LESSONS, laterStyles, providePart } from './scripts';

laterStyles();
providePart(LESSONS, { lessons: { intro }, LessonPlayer, validateLesson, readProgress, writeProgress });
