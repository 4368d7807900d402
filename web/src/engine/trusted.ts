// Trusted Types: the served CSP has `require-trusted-types-for 'script'`, so a script URL must be
// a TrustedScriptURL made by a named policy. The page needs one for the cost view's
// `new Worker('cost-worker.js')`, inside that worker `importScripts('attention-engine.js')`, the
// page's lazy parts (`cost-view.js`, `formats.js`, `heatmap-canvas.js` and the others below), the
// script of a language's catalog (`i18n-zh-CN.js`), and the same for the Learn view (`learn.js`,
// its `learn-worker.js` and the trainer that worker imports) and the Real model view (`real.js`,
// `real-worker.js` and the model module it imports). The policy `attention-playground`
// accepts those same-origin names and nothing else.
// Browsers without Trusted Types (Firefox, Safari today) get the plain string.

/** The only script URLs the policy makes: files next to the page, by exact name (a catalog per language of i18n/index.ts). */
const SCRIPTS = new Set([
  'cost-worker.js',
  'attention-engine.js',
  'cost-view.js',
  'formats.js',
  'share.js',
  'plot.js',
  'lesson.js',
  'lesson-real.js',
  'play.js',
  'heatmap-canvas.js',
  'vectors.js',
  'present.js',
  'learn.js',
  'learn-worker.js',
  'attention-trainer.js',
  'real.js',
  'real-worker.js',
  'attention-model.js',
  'i18n-en.js',
  'i18n-zh-CN.js',
]);

interface Policy {
  createScriptURL(url: string): unknown;
}
interface TrustedTypesFactory {
  createPolicy(name: string, rules: { createScriptURL(url: string): string }): Policy;
}

// Created once per global (the page, the worker): a second createPolicy with the same name is
// refused under the CSP's `trusted-types attention-playground`. It is kept on the global object,
// since the page's lazy parts (cost-view.js) are bundles of their own with their own copy of
// this module.
const KEY = '__attentionPlaygroundPolicy';
const held = globalThis as unknown as Record<string, Policy | null | undefined>;

/**
 * `url` as the sinks accept it: a TrustedScriptURL where Trusted Types exist (it stringifies to
 * the URL, and Worker and importScripts take it in place of a string), else `url` itself.
 * Throws for any URL but the known scripts.
 */
export function scriptURL(url: string): string {
  if (!SCRIPTS.has(url)) throw new TypeError(`not a known script: ${url}`);
  let policy = held[KEY];
  if (policy === undefined) {
    const factory = (globalThis as { trustedTypes?: TrustedTypesFactory }).trustedTypes;
    policy = held[KEY] = factory
      ? factory.createPolicy('attention-playground', {
          createScriptURL: (u) => {
            if (!SCRIPTS.has(u)) throw new TypeError(`not a known script: ${u}`);
            return u;
          },
        })
      : null;
  }
  return policy ? (policy.createScriptURL(url) as string) : url;
}
