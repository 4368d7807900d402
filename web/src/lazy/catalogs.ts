// A language's catalog is a script of its own (dist/i18n-<tag>.js): loaded once, before the page
// shows a word in that language.
import { hasCatalog, resolveLanguage } from '../i18n';
import { loadScript } from './lazy';

export function loadCatalog(lang: string): Promise<void> {
  const tag = resolveLanguage(lang);
  return loadScript(`i18n-${tag}.js`, () => hasCatalog(tag));
}
