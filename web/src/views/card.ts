// A card of the steps: a titled section, with a hint under the title where it has one.
import { h } from './dom';

/** Draws one card: now, or in a later task of the same render; a card that throws says so. */
export type Draw = (card: Element, title: string, job: () => void) => void;

export function card(name: string, title: string, hint: string, body: HTMLElement): HTMLElement {
  return h(
    'section',
    { class: 'card step', attrs: { 'data-step': name } },
    h('h3', { text: title }),
    hint ? h('p', { class: 'hint', text: hint }) : null,
    body,
  );
}
