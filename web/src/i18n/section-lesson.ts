// The lesson player's words, in every language: lesson.js runs this when it loads (lesson/entry.ts).
// They join each language's catalog, so t() finds them like any other message.
import { registerSection } from './catalogs';
import { lessonEn } from './lesson-en';
import { lessonZhCN } from './lesson-zh-CN';

registerSection('en', lessonEn);
registerSection('zh-CN', lessonZhCN);
