// Building DOM without markup strings: the page never parses HTML from text, so nothing a
// reader types or a link carries can become an element.

type Child = Node | string | null | undefined | false;

export interface Props {
  class?: string;
  text?: string;
  attrs?: Record<string, string>;
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.text !== undefined) el.textContent = props.text;
  if (props.attrs) for (const [k, v] of Object.entries(props.attrs)) el.setAttribute(k, v);
  append(el, ...children);
  return el;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  }
}

/** Sets an element's text only when it differs: rewriting the same text still costs a layout. */
export function setText(el: Node, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

export function clear(el: Node): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

export const SVG = 'http://www.w3.org/2000/svg';
export const MATHML = 'http://www.w3.org/1998/Math/MathML';

export function ns(namespace: string, tag: string, attrs: Record<string, string> = {}, ...children: Child[]): Element {
  const el = document.createElementNS(namespace, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  append(el, ...children);
  return el;
}

/** One count for the page: each lazy part is a bundle of its own, and a count each would repeat ids. */
const ids = ((globalThis as unknown as Record<string, { n: number } | undefined>).__attentionPlaygroundIds ??= { n: 0 });

/** A page-unique id for label/aria wiring. */
export function uid(prefix: string): string {
  return `${prefix}-${++ids.n}`;
}

/** Whether a drag carries files (from the reader's file manager), not text or a link. */
export function carriesFiles(e: DragEvent): boolean {
  return [...(e.dataTransfer?.types ?? [])].includes('Files');
}
