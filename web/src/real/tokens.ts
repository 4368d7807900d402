// What the model read and what it expects next, as the reader sees them: the tokens in order
// (spaces and line ends made visible, a byte of an unknown character dashed, the tokens Generate
// wrote underlined), each with its surprise in bits, and the five likeliest next tokens with
// their probabilities. The numbers are the core's; this only writes them.
import { decimals, percent } from '../i18n';
import { h } from '../views/dom';
import type { ModelToken, Prediction } from './protocol';

/** A token's text as the page shows it: a space as ␣, a line end as ↵ and a tab as ⇥, so none
 * vanishes, and any other control character as its code, ⟨1B⟩, which no font draws but as a box. */
export function shown(text: string): string {
  return (
    text
      .replace(/ /g, '␣')
      .replace(/\n/g, '↵')
      .replace(/\t/g, '⇥')
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => '⟨' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0') + '⟩') ||
    '∅'
  );
}

export interface TokenWords {
  start: string;
  bits(bits: string): string;
  partial: string;
}

/** The row of tokens: the first is <|endoftext|>, which the page calls the start. */
export function tokenRow(tokens: readonly ModelToken[], generated: number, words: TokenWords, lang: string): HTMLElement {
  const list = h('ol', { class: 'real-tokens', attrs: { 'data-real-tokens': '' } });
  tokens.forEach((t, i) => {
    const first = i === 0;
    const mine = i >= tokens.length - generated;
    const item = h(
      'li',
      {
        class: ['real-token', t.partial ? 'real-partial' : '', mine ? 'real-generated' : ''].filter(Boolean).join(' '),
        attrs: { 'data-id': String(t.id), ...(t.partial ? { title: words.partial } : {}) },
      },
      h('span', { class: 'real-text', text: first ? words.start : shown(t.text), attrs: first ? { title: t.text } : {} }),
      h('span', { class: 'real-bits', text: first ? ' ' : words.bits(decimals(t.bits, 1, lang)) }),
    );
    list.append(item);
  });
  return list;
}

/** The five likeliest next tokens, each with its probability as a number and a bar. */
export function predictionList(predictions: readonly Prediction[], lang: string): HTMLElement {
  const list = h('ol', { class: 'real-next', attrs: { 'data-real-next': '' } });
  for (const p of predictions) {
    const bar = h('span', { class: 'real-bar' });
    bar.style.width = `${Math.max(1, Math.round(p.probability * 100))}%`;
    list.append(
      h(
        'li',
        { class: p.partial ? 'real-partial' : '', attrs: { 'data-id': String(p.id), 'data-probability': String(p.probability) } },
        h('span', { class: 'real-text', text: shown(p.text) }),
        h('span', { class: 'real-track' }, bar),
        h('span', { class: 'real-p', text: percent(p.probability, 1, lang) }),
      ),
    );
  }
  return list;
}
