// The one way a lazy part comes: lazy(key) loads its script (once; not at all when it ran
// already, as in the offline file) and resolves to what the script's entry gave provide(key).
import { scriptURL } from '../engine/trusted';
import { SCRIPTS, type PartKey } from './parts';
export type { PartKey } from './parts';

/**
 * What each part's script provides, by its key: each entry adds its own part's type here
 * (`declare module '../lazy/lazy' { interface Parts { … } }`), so that the loader names no
 * feature's types and a caller and the entry agree on them at compile time.
 */
export interface Parts {}

/** Compiles only while every part of parts.ts has its type in Parts. */
export const everyPartTyped: [Exclude<PartKey, keyof Parts>] extends [never] ? true : never = true;

// One object on the global: each part's script is a bundle of its own, with its own copy of this module.
const provided = ((globalThis as unknown as { __attentionPlaygroundParts?: Partial<Parts> }).__attentionPlaygroundParts ??= {});

const pending = new Map<string, Promise<void>>();

/** Loads the script `name` next to the page unless `present()` says it ran already. */
export function loadScript(name: string, present: () => boolean): Promise<void> {
  if (present()) return Promise.resolve();
  let loading = pending.get(name);
  if (!loading) {
    loading = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = scriptURL(name);
      script.onload = () => resolve();
      script.onerror = () => {
        pending.delete(name); // a later attempt may succeed
        script.remove();
        reject(new Error(`${name} did not load`));
      };
      document.head.append(script);
    });
    pending.set(name, loading);
  }
  return loading;
}

/** The part `key`, its script loaded first unless it ran already. Rejects if the script cannot come. */
export function lazy<K extends PartKey>(key: K): Promise<Parts[K]> {
  return loadScript(SCRIPTS[key], () => provided[key] !== undefined).then(() => provided[key] as Parts[K]);
}

/** In a part's entry: what lazy(key) resolves to. */
export function provide<K extends PartKey>(key: K, value: Parts[K]): void {
  provided[key] = value;
}

/**
 * In the entries of the parts that bring styles: lesson.css beside them, unless the page has it
 * already, inline (the offline file) or from another of them. Resolves once it is in (or could
 * not come: the page goes on without it).
 */
export function lazyStyles(): Promise<void> {
  if (getComputedStyle(document.documentElement).getPropertyValue('--lesson-styles')) return Promise.resolve();
  let link = document.querySelector<HTMLLinkElement>('link[data-lazy-styles]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = 'lesson.css';
    link.dataset.lazyStyles = '';
    document.head.append(link);
  }
  const sheet = link;
  return new Promise((resolve) => {
    if (sheet.sheet) return resolve();
    sheet.addEventListener('load', () => resolve(), { once: true });
    sheet.addEventListener('error', () => resolve(), { once: true });
  });
}
