// Numbers as the Learn view prints them: fixed decimals, a true minus sign. One formatter per
// language and number of decimals, made once: a redraw prints every cell of every head (880 for
// 16 heads on 10 tokens), and toLocaleString with options builds a new formatter for each.
const formatters = new Map<string, Intl.NumberFormat>();

export function formatNumber(x: number, digits: number, lang: string): string {
  if (!Number.isFinite(x)) return '—';
  const locale = lang === 'zh-CN' ? 'zh-CN' : 'en';
  const key = locale + digits;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    formatters.set(key, f);
  }
  return f.format(x).replace('-', '\u2212');
}

/** A fraction as a percentage; the sign never wraps away from its number. */
export function formatPercent(x: number, digits: number, lang: string): string {
  return formatNumber(x * 100, digits, lang) + '\u00a0%';
}
