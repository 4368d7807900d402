// The animation's words, in every language: play.js runs this when it loads (play/entry.ts).
// They join each language's catalog, so t() finds them like any other message.
import { registerSection } from './catalogs';
import { playEn } from './play-en';
import { playZhCN } from './play-zh-CN';

registerSection('en', playEn);
registerSection('zh-CN', playZhCN);
