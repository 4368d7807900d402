// dist/lesson.js: the lessons and their player, loaded when a reader opens one (app/lesson-part.ts),
// with their styles (lesson.css beside it, unless the page has them inline already).
import '../i18n/section-lesson';
import { intro } from './intro';
import { realHeads } from './real-heads';
import { LessonPlayer } from './player';
import { readProgress, writeProgress } from './progress';
import { laterStyles, provide } from '../later/later';

laterStyles();
provide('lesson', { lessons: { intro, 'real-heads': realHeads }, LessonPlayer, readProgress, writeProgress });
