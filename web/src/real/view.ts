// The Real model view: the page's own small language model reads the reader's sentence (or an
// example) in a worker; the view shows the tokens it read, what it expects next, and every head's
// attention, each head named by its measured pattern. A head opens in the playground with its
// learned Q, K and V; Generate adds a token against the KV cache. The link keeps the sentence, the
// open head and how many tokens were generated, so the same link shows the same figure.
import { int, translator, decimals, type RealKey } from '../i18n';
import { h, clear } from '../views/dom';
import { headState } from '../state/head-state';
import type { RealPlace } from '../state/real-link';
import type { ViewHost } from '../lazy/view-entry';
import type M from '../../../cpp/wasm/attention-model';
import { startModel, type ModelLink } from './client';
import { HeadGrid } from '../views/head-grid';
import { canvasForm } from '../views/head-canvas';
import type { Failed, HeadSteps, Opened, Read, Reply } from './protocol';
import { OwnPanel, size } from './own-panel';
import { predictionList, shown, tokenRow } from './tokens';
import { EXAMPLES } from './examples';

type RealWord = RealKey extends `real.${infer W}` ? W : never;

export interface RealHost extends ViewHost<RealPlace> {
  /** The model module on the page, for where no worker can be started. */
  loadModel(): Promise<M.ModelModule>;
}

export class RealView {
  private el: HTMLElement = h('section');
  private lang = '';
  private link: ModelLink | null;
  private opened: Opened | null = null;
  private last: Read | null = null;
  private failure: Failed | null = null;
  /** A head the link named that this model does not have, said beside the reading. */
  private missing: { layer: number; head: number } | null = null;
  /** Numbers each reading, so a reply to an older one is dropped. */
  private id = 0;
  private readonly heads: HeadGrid;
  /** The control the reader last pressed, found again in the view once it is drawn anew. */
  private refocus: string | null = null;
  private parts!: { intro: HTMLElement; input: HTMLTextAreaElement; status: HTMLElement; body: HTMLElement; own: OwnPanel };

  constructor(
    private readonly host: RealHost,
    private place: RealPlace,
  ) {
    this.heads = new HeadGrid(
      {
        name: 'real',
        form: canvasForm('real-head-name'),
        toggles: true,
        words: {
          layer: (layer) => this.say('layer', { layer }),
          caption: (layer, head) =>
            this.say(this.clear(layer, head) ? 'headName' : 'headNameUnclear', { layer, head, ...this.pattern(layer, head) }),
          press: (layer, head) =>
            this.say(this.clear(layer, head) ? 'headLabel' : 'headLabelUnclear', { layer, head, ...this.pattern(layer, head) }),
        },
      },
      (layer, head) => this.openHead(layer, head),
    );
    this.link = startModel((reply) => this.receive(reply), host.loadModel);
  }

  /** After a mount of the page: the view below the header, worded in the page's language. */
  attach(): void {
    const lang = this.host.lang();
    if (lang !== this.lang || !this.el.isConnected) {
      this.lang = lang;
      this.build();
      this.draw();
    }
    const header = this.host.root().querySelector('header.top');
    if (header) header.after(this.el);
    else this.host.root().prepend(this.el);
    this.focusAgain();
  }

  /** Opening a head mounts the page anew, and a reading draws the view anew: the pressed control keeps the focus. */
  private focusAgain(): void {
    const el = this.refocus && this.el.isConnected ? this.el.querySelector<HTMLElement>(this.refocus) : null;
    if (!el) return;
    this.refocus = null;
    el.focus({ preventScroll: true });
  }

  /** Files dropped anywhere on the page open as the reader's model, as if dropped on this view. */
  give(files: File[]): void {
    this.link?.send({ type: 'own', files });
  }

  dispose(): void {
    this.link?.send({ type: 'dispose' });
    this.link?.stop();
    this.link = null;
    this.el.remove();
  }

  private say(word: RealWord, params: Record<string, string | number> = {}): string {
    return translator(this.lang)(`real.${word}` as const, params);
  }

  /** Whether a head's best score names it (the core's measure against heads of random weights). */
  private clear(layer: number, head: number): boolean {
    return this.opened?.survey.heads[layer - 1]?.[head - 1]?.clear ?? true;
  }

  /** A head's measured pattern and score, in words (counted from 1). */
  private pattern(layer: number, head: number): { pattern: string; score: string } {
    const h = this.opened?.survey.heads[layer - 1]?.[head - 1];
    if (!h) return { pattern: '—', score: '—' };
    return { pattern: this.say(`pattern.${h.best}`), score: decimals(h.score, 2, this.lang) };
  }

  private get sentence(): string {
    return this.place.sentence ?? this.say('example');
  }

  private build(): void {
    const close = h('button', {
      class: 'btn learn-close',
      text: this.say('close'),
      attrs: { type: 'button', 'data-real-close': '' },
    });
    close.addEventListener('click', () => {
      const root = this.host.root();
      this.host.place(null);
      (root.querySelector('[data-real-open]') as HTMLElement | null)?.focus();
    });
    const input = h('textarea', { class: 'real-input', attrs: { id: 'real-sentence', rows: '2', 'data-real-input': '' } });
    input.value = this.parts ? this.parts.input.value : this.sentence; // a rebuild keeps what the reader typed
    const read = h('button', { class: 'btn', text: this.say('read'), attrs: { type: 'submit', 'data-real-read': '' } });
    const form = h(
      'form',
      { class: 'real-form' },
      h('label', { text: this.say('sentence'), attrs: { for: 'real-sentence' } }),
      h('div', { class: 'learn-try-row' }, input, read),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.readText(input.value);
    });
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        this.readText(input.value);
      }
    });
    const examples = h('div', { class: 'real-examples', attrs: { role: 'group', 'aria-label': this.say('examples') } });
    examples.append(h('span', { class: 'learn-note', text: this.say('examples') + ':' }));
    for (const ex of EXAMPLES) {
      const b = h('button', { class: 'chip', text: ex.text, attrs: { type: 'button', lang: ex.lang, 'data-real-example': '' } });
      b.addEventListener('click', () => {
        input.value = ex.text;
        this.readText(ex.text);
      });
      examples.append(b);
    }
    const own = new OwnPanel((word, params) => this.say(word, params), this.lang, {
      open: (files) => this.link?.send({ type: 'own', files }),
      url: (urls) => this.link?.send({ type: 'url', urls }),
      cancel: () => this.link?.send({ type: 'cancel' }),
      shipped: () => this.link?.send({ type: 'shipped' }),
    });
    if (this.opened) own.running(this.opened.own);
    if (this.place.urls && !this.opened?.own) own.offer(this.place.urls);
    this.parts = {
      intro: h('p', { class: 'learn-intro' }),
      input,
      status: h('p', { class: 'learn-note', attrs: { role: 'status', 'data-real-status': '' } }),
      body: h('div', { class: 'real-body', attrs: { 'data-real-body': '' } }),
      own,
    };
    this.el = h(
      'section',
      { class: 'learn real', attrs: { 'data-real': '', 'aria-labelledby': 'real-title' } },
      h('div', { class: 'learn-top' }, h('h2', { text: this.say('title'), attrs: { id: 'real-title' } }), close),
      this.parts.intro,
      form,
      examples,
      own.el,
      this.parts.status,
      this.parts.body,
    );
    own.dropOn(this.el);
  }

  private readText(text: string): void {
    // A new sentence starts without generated tokens; the open head stays open, on the new sentence.
    this.place = { sentence: text, ...(this.place.open ? { open: this.place.open } : {}) };
    this.host.place(this.place);
    this.request();
  }

  /** Asks the model to read the place's sentence (and generate as the link says). */
  private request(): void {
    if (this.last) this.missing = null; // said with the reading the link asked for, not after
    this.id += 1;
    this.last = null;
    this.failure = null;
    if (this.sentence.trim() === '') return this.draw();
    this.link?.send({ type: 'run', id: this.id, text: this.sentence, generate: this.place.generate ?? 0 });
    this.draw();
  }

  private receive(m: Reply): void {
    if (m.type === 'opened') {
      this.opened = m;
      this.parts?.own.running(m.own);
      this.request();
      return;
    }
    if (m.type === 'progress') return this.parts?.own.progress(m);
    if (m.type === 'own-failed') return this.parts?.own.failed(m.failure);
    if (m.type === 'error') {
      if (m.id !== -1 && m.id !== this.id) return;
      this.failure = m;
      return this.draw();
    }
    if (m.id !== this.id) return;
    if (m.type === 'read') {
      this.last = m;
      const open = this.place.open;
      const config = this.opened?.config;
      if (open && config && (open.layer > config.layers || open.head > config.heads)) {
        // A head this model does not have: said once, and taken out of the link, so that neither a
        // later reading nor the link's next visit asks for it again.
        this.missing = open;
        this.place = { ...this.place, open: undefined };
        this.host.place(this.place);
      } else if (open) this.link?.send({ type: 'head', id: this.id, layer: open.layer - 1, head: open.head - 1 });
      this.draw();
      return;
    }
    this.showHead(m);
  }

  private openHead(layer: number, head: number): void {
    this.refocus = `.real-head[data-layer="${layer + 1}"][data-head="${head + 1}"]`;
    this.place = { ...this.place, sentence: this.sentence, open: { layer: layer + 1, head: head + 1 } };
    this.host.place(this.place);
    this.heads.press([{ layer, head }]);
    this.link?.send({ type: 'head', id: this.id, layer, head });
  }

  private showHead(m: HeadSteps): void {
    const labels = (this.last?.tokens ?? []).map((t, i) => (i === 0 ? '<|endoftext|>' : shown(t.text)).slice(0, 40));
    this.host.show(headState(m, labels, this.lang));
    this.parts.status.textContent = this.say('opened', { layer: m.layer + 1, head: m.head + 1 });
  }

  private generate(): void {
    this.refocus = '[data-real-generate]';
    this.place = { ...this.place, sentence: this.sentence, generate: (this.place.generate ?? 0) + 1 };
    this.host.place(this.place);
    this.link?.send({ type: 'extend', id: this.id });
  }

  private draw(): void {
    if (!this.parts) return;
    const { intro, status, body } = this.parts;
    const o = this.opened;
    const shape = o
      ? { layers: o.config.layers, heads: o.config.heads, width: o.config.width, size: size(o.bytes, this.lang) }
      : null;
    intro.textContent = !shape ? '' : o?.own ? this.say('ownIntro', { ...shape, name: o.own }) : this.say('intro', shape);
    clear(body); // the heads' squares stay built, to be drawn again on the next reading
    status.textContent = '';
    const f = this.failure;
    if (f) {
      const reason = f.message.replace(/\.$/, '');
      const words =
        f.stage === 'load'
          ? this.say('loadFailed', { reason }) + (location.protocol === 'file:' ? ' ' + this.say('fromFile') : '')
          : this.say(f.stage === 'open' ? 'openFailed' : 'runFailed', { reason: f.message });
      body.append(h('p', { class: 'learn-try-message', text: words, attrs: { 'data-real-error': f.stage } }));
      this.el.dataset.state = 'error';
      return;
    }
    if (this.sentence.trim() === '') {
      body.append(h('p', { class: 'learn-try-message', text: this.say('empty'), attrs: { 'data-real-error': 'empty' } }));
      this.el.dataset.state = 'empty';
      return;
    }
    if (!o || !this.last) {
      status.textContent = this.say(o ? 'reading' : 'loading');
      this.el.dataset.state = o ? 'reading' : 'loading';
      return;
    }
    this.drawRead(this.last, o);
    this.el.dataset.state = 'ready';
    if (!this.place.open) this.focusAgain(); // with a head open, the page's mount comes next
  }

  private drawRead(r: Read, o: Opened): void {
    const body = this.parts.body;
    const n = r.tokens.length;
    const partial = r.tokens.filter((t) => t.partial).length;
    const notes = [
      r.dropped > 0
        ? o.window < o.config.context
          ? this.say('droppedWindow', {
              window: o.window,
              heads: o.config.layers * o.config.heads,
              kept: n - 1,
              dropped: r.dropped,
            })
          : this.say('dropped', { context: o.config.context, kept: n - 1, dropped: r.dropped })
        : '',
      partial > 0 ? this.say('partialNote', { n: partial }) : '',
      r.generated > 0 ? this.say('generated', { n: r.generated }) : '',
      this.missing ? this.say('noSuchHead', { ...this.missing, layers: o.config.layers, heads: o.config.heads }) : '',
    ].filter(Boolean);
    const generate = h('button', {
      class: 'btn',
      text: this.say('generate'),
      attrs: { type: 'button', 'data-real-generate': '' },
    });
    generate.addEventListener('click', () => this.generate());
    const full = n >= o.window;
    generate.disabled = full;
    const perToken = 2 * o.config.layers * o.config.width;
    this.heads.draw(r.weights);
    const open = this.place.open;
    this.heads.press(open ? [{ layer: open.layer - 1, head: open.head - 1 }] : []);
    const s = o.survey;
    body.append(
      h('h3', { text: this.say('tokens', { n: int(n) }) }),
      h('p', { class: 'learn-note', text: this.say('tokensNote') }),
      tokenRow(
        r.tokens,
        r.generated,
        { start: this.say('start'), bits: (bits) => this.say('bits', { bits }), partial: this.say('partial') },
        this.lang,
      ),
      ...notes.map((text) => h('p', { class: 'real-warning', text, attrs: { 'data-real-note': '' } })),
      h('h3', { text: this.say('predictions') }),
      predictionList(r.predictions, this.lang),
      h('div', { class: 'learn-actions' }, generate),
      h('p', {
        class: 'learn-note',
        text: !full
          ? this.say('generateNote')
          : o.window < o.config.context
            ? this.say('fullWindow', { window: o.window })
            : this.say('full', { context: o.config.context }),
      }),
      h('p', {
        class: 'learn-note',
        text: this.say('cache', { n: int(n), heads: o.config.layers * o.config.heads, numbers: int(n * perToken) }),
        attrs: { 'data-real-cache': '' },
      }),
      h('h3', { text: this.say('heads') }),
      h('p', { class: 'learn-note', text: this.say('headsNote', { clear: decimals(o.survey.clearScore, 1, this.lang) }) }),
      // The lesson's questions and answers are about the page's model, not the reader's.
      ...(o.own
        ? []
        : [
            h('a', {
              class: 'btn real-lesson',
              text: this.say('lesson'),
              attrs: { href: '#lesson=real-heads&step=1', 'data-real-lesson': '' },
            }),
          ]),
      this.heads.el,
      h('p', {
        class: 'learn-note',
        text: this.say('inContext', {
          first: decimals(s.lossFirst, 1, this.lang),
          second: decimals(s.lossSecond, 1, this.lang),
          blind: decimals(s.lossBlind, 1, this.lang),
        }),
      }),
    );
  }
}
