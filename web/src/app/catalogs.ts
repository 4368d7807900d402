// A language's catalog is a script of its own (dist/i18n-<tag>.js): loaded once, before the page
// shows a word in that language. In the offline file every catalog is inline already.
import { hasCatalog, resolveLanguage } from '../i18n';
import { scriptURL } from '../engine/trusted';

const pending = new Map<string, Promise<void>>();

export function loadCatalog(lang: string): Promise<void> {
  const tag = resolveLanguage(lang);
  if (hasCatalog(tag)) return Promise.resolve();
  let loading = pending.get(tag);
  if (!loading) {
    loading = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = scriptURL(`i18n-${tag}.js`);
      script.onload = () => resolve();
      script.onerror = () => {
        pending.delete(tag); // a later attempt may succeed
        script.remove();
        reject(new Error(`i18n-${tag}.js did not load`));
      };
      document.head.append(script);
    });
    pending.set(tag, loading);
  }
  return loading;
}
