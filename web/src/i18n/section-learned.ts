// The learned word vectors' words, in every language: vectors.js runs this when it loads (views/vectors-entry.ts).
// They join each language's catalog, so t() finds them like any other message.
import { registerSection } from './catalogs';
import { learnedEn } from './learned-en';
import { learnedZhCN } from './learned-zh-CN';

registerSection('en', learnedEn);
registerSection('zh-CN', learnedZhCN);
