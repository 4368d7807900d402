// Messages and number formatting for the current language. A language is one catalog file with
// every key of en.ts, and one section file for each part of the page loaded later (README.md
// beside this file says how to add one). Every message, the first load's or a part's, is looked
// up here, and every number is formatted here.
import type { MessageKey } from './en';
import type { LearnKey } from './learn-en';
import type { LessonKey } from './lesson-en';
import type { PlayKey } from './play-en';
import type { ShareKey } from './share-en';
import type { CostKey } from './cost-en';
import type { LearnedKey } from './learned-en';
import type { RealKey } from './real-en';
import { catalog, message, sharedLanguage, setSharedLanguage } from './catalogs';

/**
 * The languages, by BCP 47 tag, and each one's name in itself (for the switch). Each catalog is
 * loaded on demand (catalogs.ts); a message asked for before its catalog is loaded is its key.
 */
export const LANGUAGES = [
  { tag: 'en', name: 'English' },
  { tag: 'zh-CN', name: '中文' },
] as const;

export type LanguageTag = (typeof LANGUAGES)[number]['tag'];

/** A text that data carries in every language (a lesson's): a new language is a compile error until it has its text. */
export type Texts = Record<LanguageTag, string>;

const formatters = new Map<string, Intl.NumberFormat>(); // by locale and digits
const fixedFormatters = new Map<string, Intl.NumberFormat>(); // by requested language and digits
const plainByLocale = new Map<string, boolean>(); // whether the locale writes numbers as toFixed does, plus commas

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
  setSharedLanguage(resolveLanguage(lang));
}

export function language(): string {
  return sharedLanguage();
}

/** A key of the first load's catalog or of a lazy part's section (its words come with it). */
export type Key = MessageKey | LearnKey | LessonKey | PlayKey | ShareKey | CostKey | LearnedKey | RealKey;

/** A message function: the message for `key`, with {name} parameters filled in. */
export type Translate = (key: Key, params?: Record<string, string | number>) => string;

function fill(tag: string, key: Key, params?: Record<string, string | number>): string {
  const text = message(tag, key) ?? message('en', key) ?? key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
  );
}

/** The message for `key` in the page's language. */
export const t: Translate = (key, params) => fill(sharedLanguage(), key, params);

/** Whether the catalog of `lang` is loaded. */
export function hasCatalog(lang: string): boolean {
  return catalog(resolveLanguage(lang)) !== undefined;
}

/** The messages of one language, whatever the page shows (a link's preset in the link's language). */
export function translator(lang: string): Translate {
  const tag = resolveLanguage(lang);
  return (key, params) => fill(tag, key, params);
}

/** Whether `key` is a message (for keys built from data, such as an engine's error code). */
export function isKey(key: string): key is Key {
  return (message(sharedLanguage(), key) ?? message('en', key)) !== undefined;
}

/** A text that data carries in every language, such as a lesson's, in `lang` (the page's unless given). */
export function pick(words: Texts, lang: string = sharedLanguage()): string {
  return words[resolveLanguage(lang) as LanguageTag] ?? words.en;
}

function formatter(digits: number): Intl.NumberFormat {
  const locale = sharedLanguage();
  let f = formatters.get(locale + digits);
  if (!f) {
    f = new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: 0 });
    formatters.set(locale + digits, f);
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
  let s = plainLocale() && a < 1e21 ? fixed(x, digits) : formatter(digits).format(x);
  if (s === '-0') s = '0';
  return s.replace('-', '−');
}

/**
 * Whether the locale's numbers are what fixed() writes: "." before the decimals and "," between
 * thousands (English and Chinese both). A page of heatmaps formats thousands of numbers per
 * update, and Intl.NumberFormat's format() cost a millisecond of every update; fixed() is a
 * tenth of that. Other locales keep Intl.
 */
function plainLocale(): boolean {
  const locale = sharedLanguage();
  let plain = plainByLocale.get(locale);
  if (plain === undefined) {
    plain = formatter(2).format(-1234567.5) === '-1,234,567.5' && formatter(2).format(0.125) === '0.13';
    plainByLocale.set(locale, plain);
  }
  return plain;
}

/**
 * x with at most `digits` decimals, trailing zeros dropped, thousands grouped: what
 * Intl.NumberFormat writes for English with maximumFractionDigits. Like Intl, it rounds the
 * shortest decimal that reads back as x (String(x): 0.015, not the double's 0.01499…), half away
 * from zero. Needs |x| < 1e21, where String(x) has no exponent above 1e-7.
 */
function fixed(x: number, digits: number): string {
  const a = Math.abs(x);
  if (a < 1e-6) return '0'; // rounds to zero at five decimals or fewer; "−0" reads as "0"
  // Most numbers round by arithmetic: below 1e9 units of the last digit, a·10^digits is within
  // 2.4e-7 of the shortest decimal's, so unless it is that close to a tie (….5) both round alike.
  // Ties and large numbers take the decimal string below. String(a) is most of the cost.
  const unit = TENS[digits];
  const scaled = a * unit;
  const r = Math.round(scaled);
  if (scaled < 1e9 && Math.abs(Math.abs(scaled - r) - 0.5) > 1e-6) {
    if (r === 0) return '0';
    const whole = Math.floor(r / unit);
    let fraction = r - whole * unit;
    let places = digits;
    while (fraction !== 0 && fraction % 10 === 0) {
      fraction /= 10;
      places--;
    }
    return (x < 0 ? '-' : '') + group(String(whole)) + (fraction ? '.' + String(fraction).padStart(places, '0') : '');
  }
  const text = String(a);
  const dot = text.indexOf('.');
  let whole = dot < 0 ? text : text.slice(0, dot);
  let fraction = dot < 0 ? '' : text.slice(dot + 1);
  if (fraction.length > digits) {
    const up = fraction.charCodeAt(digits) >= 53; // '5'..'9': half or more away from zero
    fraction = fraction.slice(0, digits);
    if (up) [whole, fraction] = carry(whole, fraction);
  }
  fraction = fraction.replace(/0+$/, '');
  const sign = x < 0 && (/[1-9]/.test(whole) || fraction !== '') ? '-' : '';
  return sign + group(whole) + (fraction ? '.' + fraction : '');
}

const TENS = [1, 10, 100, 1000, 10000, 100000];

/** Adds one unit in the last place of whole.fraction, as decimal digits. */
function carry(whole: string, fraction: string): [string, string] {
  const all = whole + fraction;
  let k = all.length - 1;
  while (k >= 0 && all.charCodeAt(k) === 57) k--; // trailing nines become zeros
  const bumped = (k < 0 ? '1' : all.slice(0, k) + String.fromCharCode(all.charCodeAt(k) + 1)) + '0'.repeat(all.length - 1 - k);
  const cut = bumped.length - fraction.length;
  return [bumped.slice(0, cut), bumped.slice(cut)];
}

/** 1234567 → 1,234,567. */
function group(whole: string): string {
  if (whole.length <= 3) return whole;
  let out = whole.slice(0, ((whole.length - 1) % 3) + 1);
  for (let k = out.length; k < whole.length; k += 3) out += ',' + whole.slice(k, k + 3);
  return out;
}

/**
 * x with exactly `digits` decimals, as `lang` writes it (the page's language unless given), with a
 * true minus sign; "—" if it is not finite. One formatter per language and digits, made once: a
 * redraw of the Learn view prints every cell of every head (880 for 16 heads on 10 tokens).
 */
export function decimals(x: number, digits: number, lang: string = sharedLanguage()): string {
  if (!Number.isFinite(x)) return '—';
  const key = lang + '|' + digits;
  let f = fixedFormatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(resolveLanguage(lang), { minimumFractionDigits: digits, maximumFractionDigits: digits });
    fixedFormatters.set(key, f);
  }
  return f.format(x).replace('-', '\u2212');
}

/** A fraction as a percentage with `digits` decimals; the sign never wraps away from its number. */
export function percent(x: number, digits: number, lang: string = sharedLanguage()): string {
  return decimals(x * 100, digits, lang) + '\u00a0%';
}

/** A number inside a formula: negative ones in parentheses, e.g. 1×(−0.5). */
export function term(x: number): string {
  const s = num(x, true);
  return x < 0 ? '(' + s + ')' : s;
}

export type { MessageKey, LearnKey, LessonKey, PlayKey, ShareKey, CostKey, LearnedKey, RealKey };
