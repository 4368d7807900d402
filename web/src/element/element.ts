// <attention-playground>: the playground as an element, for blog posts. Each instance puts an
// iframe of embed.html (next to this script) in its shadow root, maps its attributes to that
// frame's link, and sizes the frame from the frame's height messages (checked: sender, type,
// bounds). The engine loads once per frame; instances share nothing. Defines nothing global
// except the element.
const TYPE = 'attention-playground:height';
const MIN = 60,
  MAX = 20000;
const ATTRIBUTES = [
  'state',
  'preset',
  'words',
  'query',
  'lang',
  'views',
  'controls',
  'theme',
  'height',
  'model',
  'tokenizer',
  'vocab',
  'merges',
  'config',
] as const;
/** A model on the author's site and the files beside it: the frame's Real model view offers it. */
const MODEL_FILES = ['model', 'tokenizer', 'vocab', 'merges', 'config'];

const script = document.currentScript as HTMLScriptElement | null;
const base = script?.src ? new URL('.', script.src).href : new URL('.', location.href).href;

function absolute(url: string | null): string | null {
  try {
    return url && new URL(url, location.href).href;
  } catch {
    return url; // the frame refuses what is not an http(s) URL, and says so
  }
}

/** The frame's link for the element's attributes (the frame validates every key itself). */
export function frameHash(get: (name: string) => string | null): string {
  const params = new URLSearchParams(get('state') ?? '');
  if (!params.has('ver')) params.set('ver', '1');
  const put = (key: string, value: string | null) => {
    if (value !== null && value !== '') params.set(key, value);
  };
  put('preset', get('preset'));
  put('text', get('words'));
  if (get('query')) {
    params.set('setup', 'query');
    put('queryText', get('query'));
  }
  put('lang', get('lang'));
  params.set('embed', '1');
  put('views', get('views'));
  put('controls', get('controls'));
  put('theme', get('theme'));
  if (get('model')) {
    // Absolute, so that the frame (embed.html, maybe on another site) fetches what the author meant.
    for (const key of MODEL_FILES) put(key, absolute(get(key)));
    if (!params.has('view')) params.set('view', 'real');
  }
  return params.toString();
}

class AttentionPlayground extends HTMLElement {
  static get observedAttributes(): readonly string[] {
    return ATTRIBUTES;
  }

  private readonly frame: HTMLIFrameElement;
  private readonly onMessage = (event: MessageEvent) => {
    const data = event.data as { type?: unknown; height?: unknown } | null;
    if (event.source !== this.frame.contentWindow || !data || typeof data !== 'object' || data.type !== TYPE) return;
    const height = data.height; // a number, as the frame sends it: no string, no object, no NaN
    if (typeof height === 'number' && Number.isFinite(height) && height >= MIN && height <= MAX) {
      this.frame.style.height = Math.ceil(height) + 'px';
    }
  };

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    this.frame = document.createElement('iframe');
    this.frame.setAttribute('loading', 'lazy');
    // Styles set from script: allowed under a strict style-src. (The host's own style attribute
    // must wait for connectedCallback: a constructor may not add attributes.)
    Object.assign(this.frame.style, { display: 'block', width: '100%', height: '480px', border: '0' });
    root.appendChild(this.frame);
  }

  connectedCallback(): void {
    if (!this.style.display) this.style.display = 'block';
    window.addEventListener('message', this.onMessage);
    this.update();
  }

  disconnectedCallback(): void {
    window.removeEventListener('message', this.onMessage);
  }

  attributeChangedCallback(): void {
    if (this.isConnected) this.update();
  }

  private update(): void {
    // The frame's accessible name, as app.title says it in en.ts and zh-CN.ts (the catalogs are
    // not bundled here, to keep this script tiny).
    this.frame.title = /^zh/.test(this.getAttribute('lang') ?? '') ? '注意力游乐场' : 'Attention Playground';
    const h = Number(this.getAttribute('height'));
    if (Number.isFinite(h) && h >= MIN && h <= MAX) this.frame.style.height = h + 'px';
    const src = base + 'embed.html#' + frameHash((n) => this.getAttribute(n));
    if (this.frame.src !== src) {
      // Same document, another hash: the frame reads it on hashchange without reloading.
      if (this.frame.src && this.frame.src.split('#')[0] === src.split('#')[0]) this.frame.contentWindow?.location.replace(src);
      else this.frame.src = src;
    }
  }
}

if (!customElements.get('attention-playground')) customElements.define('attention-playground', AttentionPlayground);
