// The catalogs the page has, and the language it shows. Each language is a script of its own
// (dist/i18n-<tag>.js, built from catalog-<tag>.ts) that registers its catalog here, so a reader
// downloads the one language they read; the offline file has them all inline. A part of the page
// loaded later (Learn, the lessons, the animation) brings its own section of every language's
// catalog and registers it here too (section-<part>.ts), so the first load carries none of its
// words. The registry is on the global object because each catalog script, and each part of the
// page loaded later, is a separate bundle.
import type { Messages } from './en';

const KEY = '__attentionPlaygroundCatalogs';

interface Registry {
  catalogs: Record<string, Messages>;
  /** The sections of lazy parts, by language: kept apart, so a section is not a loaded catalog. */
  sections?: Record<string, Record<string, string>>;
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

/** A lazy part's messages in `tag`, added to those of the same language it registered before. */
export function registerSection(tag: string, messages: Readonly<Record<string, string>>): void {
  Object.assign(((registry().sections ??= {})[tag] ??= {}), messages);
}

/** The message for `key` in `tag`, from its catalog or from a part's section; undefined if neither has it. */
export function message(tag: string, key: string): string | undefined {
  const r = registry();
  return (r.catalogs[tag] as Record<string, string> | undefined)?.[key] ?? r.sections?.[tag]?.[key];
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
