// Numbers as the Learn view prints them: fixed decimals, a true minus sign.
export function formatNumber(x: number, digits: number, lang: string): string {
  if (!Number.isFinite(x)) return '—';
  return x
    .toLocaleString(lang === 'zh-CN' ? 'zh-CN' : 'en', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    .replace('-', '\u2212');
}

/** A fraction as a percentage; the sign never wraps away from its number. */
export function formatPercent(x: number, digits: number, lang: string): string {
  return formatNumber(x * 100, digits, lang) + '\u00a0%';
}
