// The Learn view's words, in every language: learn.js runs this when it loads (learn/entry.ts).
// They join each language's catalog, so t() finds them like any other message.
import { registerSection } from './catalogs';
import { learnEn } from './learn-en';
import { learnZhCN } from './learn-zh-CN';

registerSection('en', learnEn);
registerSection('zh-CN', learnZhCN);
