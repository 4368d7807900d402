// The catalogs the page has, and the language it shows. Each language is a script of its own
// (dist/i18n-<tag>.js, built from catalog-<tag>.ts) that registers its catalog here, so a reader
// downloads the one language they read; the offline file has them all inline. The registry is on
// the global object because each catalog script, and each part of the page loaded later (the cost
// view), is a separate bundle.
import type { Messages } from './en';

const KEY = '__attentionPlaygroundCatalogs';

interface Registry {
  catalogs: Record<string, Messages>;
  /** The language the page shows: shared, so a part of the page loaded later speaks it too. */
  language: string;
}

function registry(): Registry {
  const g = globalThis as unknown as Record<string, Registry | undefined>;
  return (g[KEY] ??= { catalogs: {}, language: 'en' });
}

export function registerCatalog(tag: string, messages: Messages): void {
  registry().catalogs[tag] = messages;
}

/** The catalog of `tag` (a catalog tag, as resolveLanguage gives it), if it is loaded. */
export function catalog(tag: string): Messages | undefined {
  return registry().catalogs[tag];
}

export function sharedLanguage(): string {
  return registry().language;
}

export function setSharedLanguage(tag: string): void {
  registry().language = tag;
}
