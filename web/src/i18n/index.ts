// Messages and number formatting for the current language. A language is one catalog file with
// every key of en.ts (README.md beside this file says how to add one).
import { en, type MessageKey, type Messages } from './en';
import { zhCN } from './zh-CN';

/** The catalogs, by BCP 47 tag, and each language's name in itself (for the switch). */
export const LANGUAGES: ReadonlyArray<{ tag: string; name: string; messages: Messages }> = [
  { tag: 'en', name: 'English', messages: en },
  { tag: 'zh-CN', name: '中文', messages: zhCN },
];

let current: Messages = en;
let locale = 'en';
let formatters = new Map<number, Intl.NumberFormat>();

/**
 * The catalog tag for a requested language ("zh", "zh-Hans-CN", "en-GB", …): an exact match,
 * else the first catalog with the same primary language, else English.
 */
export function resolveLanguage(requested: string | null | undefined): string {
  const want = (requested ?? '').trim().toLowerCase();
  if (!want) return 'en';
  const exact = LANGUAGES.find((l) => l.tag.toLowerCase() === want);
  if (exact) return exact.tag;
  const primary = want.split('-')[0];
  return LANGUAGES.find((l) => l.tag.toLowerCase().split('-')[0] === primary)?.tag ?? 'en';
}

export function setLanguage(lang: string): void {
  const tag = resolveLanguage(lang);
  if (tag === locale && formatters.size) return;
  locale = tag;
  current = LANGUAGES.find((l) => l.tag === tag)?.messages ?? en;
  formatters = new Map();
}

export function language(): string {
  return locale;
}

/** The message for `key`, with {name} parameters filled in. */
export function t(key: MessageKey, params?: Record<string, string | number>): string {
  const text = current[key] ?? en[key];
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole);
}

/** Whether `key` is a message (for keys built from data, such as an engine's error code). */
export function isKey(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(en, key);
}

function formatter(digits: number): Intl.NumberFormat {
  let f = formatters.get(digits);
  if (!f) {
    f = new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: 0 });
    formatters.set(digits, f);
  }
  return f;
}

/** A whole number (a count, a percentage) in the reader's locale. */
export function int(x: number): string {
  return formatter(0).format(x);
}

/**
 * A number for a heatmap cell: short, and never "NaN" or "Infinity". Two decimals below 10,
 * one below 100, none above; −∞ for a masked score; true minus signs.
 */
export function num(x: number, precise = false): string {
  if (x === -Infinity) return '−∞';
  if (x === Infinity) return '∞';
  if (Number.isNaN(x)) return '—';
  const a = Math.abs(x);
  const digits = precise ? (a >= 1000 ? 1 : a >= 1 ? 4 : 5) : a >= 100 ? 0 : a >= 10 ? 1 : 2;
  let s = formatter(digits).format(x);
  if (s === '-0') s = '0';
  return s.replace('-', '−');
}

/** A number inside a formula: negative ones in parentheses, e.g. 1×(−0.5). */
export function term(x: number): string {
  const s = num(x, true);
  return x < 0 ? '(' + s + ')' : s;
}

export type { MessageKey };
