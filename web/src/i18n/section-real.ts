// The Real model view's words, in every language: real.js runs this when it loads (real/entry.ts).
// They join each language's catalog, so t() finds them like any other message.
import { registerSection } from './catalogs';
import { realEn } from './real-en';
import { realZhCN } from './real-zh-CN';

registerSection('en', realEn);
registerSection('zh-CN', realZhCN);
