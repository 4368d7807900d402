// The catalogs the page has. Each language is a script of its own (dist/i18n-<tag>.js, built from
// catalog-<tag>.ts) that registers its catalog here, so a reader downloads the one language they
// read; the offline file has them all inline. The registry is on the global object because each
// catalog script is a separate bundle.
import type { Messages } from './en';

const KEY = '__attentionPlaygroundCatalogs';

function registry(): Record<string, Messages> {
  const g = globalThis as unknown as Record<string, Record<string, Messages> | undefined>;
  return (g[KEY] ??= {});
}

export function registerCatalog(tag: string, messages: Messages): void {
  registry()[tag] = messages;
}

/** The catalog of `tag` (a catalog tag, as resolveLanguage gives it), if it is loaded. */
export function catalog(tag: string): Messages | undefined {
  return registry()[tag];
}
