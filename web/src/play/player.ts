// One query row's computation played frame by frame: the terms of q·k adding up, the division,
// the mask, the largest taken off, exp, the sum, the division by it, and each value row added into
// the output in its weight. Every number is the engine's trace (engine.traceRow); a frame only
// says how far into the trace the picture is (frames.ts). Steppable, scrubbable, with a speed;
// under reduced motion the same frames change without transitions and nothing plays by itself.
import { h, clear, setText } from '../views/dom';
import { num, translator, type PlayKey } from '../i18n';
import type { Mat, RowTrace } from '../engine/types';
import { framesOf, stage, strides, type Frame, type Ways } from './frames';

export interface PlayData {
  trace: RowTrace;
  ways: Ways;
  query: string;
  keys: string[]; // (m)
  keyRows: Mat; // (m, d_k) the keys' numbers, as the steps hold them: what each term multiplies
  side: string; // the configuration's name when two are compared, else ''
  features: string[]; // (d_k)
  outputs: string[]; // (d_v)
  divisor: string; // "√d_k = 1.73" or "T = 2"
}

export interface PlayHandlers {
  /** The frame shown changed (0-based): the link keeps it. */
  frame(k: number): void;
  close(): void;
}

/** At 1×: an operation's frames share about this long, then a pause before the next one. */
const OP_MS = 2400;
const PAUSE_MS = 900;
const SPEEDS = [0.5, 1, 2];
const OUTPUT_COLUMNS = 8;
/** Up to this many features, a q·k cell writes its terms out as they add up: 1×2 + 2×2 = 6. */
const SPELLED = 4;
const REDUCED = matchMedia('(prefers-reduced-motion: reduce)');

type Column = 'dot' | 'norm' | 'scale' | 'mask' | 'max' | 'exp' | 'divide';

export class RowPlayer {
  readonly el: HTMLElement;
  private readonly caption = h('p', { class: 'play-op' });
  private readonly count = h('span', { class: 'play-count' });
  private readonly table = h('table', { class: 'grid play-table' });
  private readonly mix = h('table', { class: 'grid play-mix' });
  private readonly live = h('p', { class: 'sr-only', attrs: { 'aria-live': 'polite' } });
  private readonly scrub = h('input', { attrs: { type: 'range', min: '1', step: '1', 'data-play-scrub': '' } });
  private readonly toggle = h('button', { class: 'btn', attrs: { type: 'button', 'data-play-toggle': '' } });
  private readonly speed = h('select', { attrs: { 'data-play-speed': '' } });
  private readonly heading = h('h3', { class: 'play-title' });
  private frames: Frame[] = [];
  private k = 0;
  private timer = 0;
  private playing = false;

  constructor(
    private data: PlayData,
    frame: number,
    private readonly lang: string,
    private readonly on: PlayHandlers,
  ) {
    const say = translator(lang);
    const button = (text: string, act: () => void, attr: string) => {
      const b = h('button', { class: 'btn', text, attrs: { type: 'button', [attr]: '' } });
      b.addEventListener('click', act);
      return b;
    };
    for (const s of SPEEDS) this.speed.append(h('option', { text: `${s}×`, attrs: { value: String(s) } }));
    this.speed.value = '1';
    this.speed.setAttribute('aria-label', say('play.speed'));
    this.scrub.setAttribute('aria-label', say('play.scrub'));
    this.scrub.addEventListener('input', () => this.show(Number(this.scrub.value) - 1, true));
    this.toggle.addEventListener('click', () => (this.playing ? this.pause() : this.play()));
    const close = button('×', () => on.close(), 'data-play-close');
    close.setAttribute('aria-label', say('play.close'));
    this.el = h(
      'section',
      { class: 'row-play', attrs: { 'data-play': '', 'aria-label': '' } },
      h('div', { class: 'play-head' }, this.heading, close),
      this.caption,
      // Each table scrolls in its own box on a phone, so each box is a Tab stop of its own.
      h(
        'div',
        { class: 'pipeline-scroll', attrs: { tabindex: '0', role: 'region', 'aria-label': say('play.tableLabel') } },
        this.table,
      ),
      h(
        'div',
        { class: 'pipeline-scroll', attrs: { tabindex: '0', role: 'region', 'aria-label': say('play.mixLabel') } },
        this.mix,
      ),
      h(
        'div',
        { class: 'play-controls' },
        button('◀ ' + say('play.back'), () => this.step(-1), 'data-play-back'),
        this.toggle,
        button(say('play.next') + ' ▶', () => this.step(1), 'data-play-next'),
        this.scrub,
        this.count,
        h('label', { class: 'play-speed' }, say('play.speed') + ' ', this.speed),
      ),
      h('p', { class: 'hint', text: say('play.keys') }),
      this.live,
    );
    this.el.addEventListener('keydown', (e) => this.key(e));
    this.update(data, frame);
  }

  /** New numbers (an edit, another row): the same frame, as far as the new frames go. */
  update(data: PlayData, frame = this.k): void {
    this.data = data;
    this.frames = framesOf(data.trace, data.ways);
    const title = translator(this.lang)('play.title', { query: data.query }) + (data.side ? ` · ${data.side}` : '');
    setText(this.heading, title);
    this.el.setAttribute('aria-label', title);
    this.scrub.max = String(this.frames.length);
    this.show(Math.max(0, Math.min(frame, this.frames.length - 1)), false);
  }

  get frame(): number {
    return this.k;
  }

  play(): void {
    if (this.k >= this.frames.length - 1) this.show(0, false);
    this.playing = true;
    this.schedule();
    this.drawToggle();
  }

  pause(): void {
    this.playing = false;
    clearTimeout(this.timer);
    this.drawToggle();
  }

  dispose(): void {
    this.pause();
  }

  /** Plays unless the reader asked for reduced motion. */
  start(): void {
    if (!REDUCED.matches) this.play();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    if (!this.playing) return;
    if (this.k >= this.frames.length - 1) return this.pause();
    const f = this.frames[this.k];
    const within = this.frames.filter((g) => g.op === f.op).length;
    const ms = Math.min(1200, Math.max(350, OP_MS / within)) + (f.last ? PAUSE_MS : 0);
    this.timer = window.setTimeout(
      () => {
        this.show(this.k + 1, false);
        this.schedule();
      },
      ms / Number(this.speed.value),
    );
  }

  private step(by: number): void {
    this.pause();
    this.show(Math.max(0, Math.min(this.frames.length - 1, this.k + by)), true);
  }

  private key(e: KeyboardEvent): void {
    const target = e.target as HTMLElement;
    if (target.tagName === 'SELECT' || (target === this.scrub && e.key !== ' ')) return;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') this.step(e.key === 'ArrowLeft' ? -1 : 1);
    else if (e.key === ' ' && target.tagName !== 'BUTTON') this.playing ? this.pause() : this.play();
    else return;
    e.preventDefault();
    e.stopPropagation(); // a lesson's own ← → stay for the lesson
  }

  /** The button, and the state the element reports (data-state), so that a paused player is said, not inferred from stillness. */
  private drawToggle(): void {
    this.el.dataset.state = this.playing ? 'playing' : 'paused';
    setText(this.toggle, this.playing ? '❚❚ ' + translator(this.lang)('play.pause') : '▶ ' + translator(this.lang)('play.play'));
  }

  /** Frame k drawn; `told`: the reader moved to it, so the live region says what it is. */
  private show(k: number, told: boolean): void {
    const before = this.frames[this.k]?.op;
    this.k = k;
    const f = this.frames[k];
    this.scrub.value = String(k + 1);
    this.scrub.setAttribute('aria-valuetext', translator(this.lang)('play.frame', { k: k + 1, n: this.frames.length }));
    setText(this.count, translator(this.lang)('play.frame', { k: k + 1, n: this.frames.length }));
    const text = this.describe(f);
    setText(this.caption, text);
    this.caption.dataset.op = f.op;
    this.drawTable();
    this.drawMix();
    this.drawToggle();
    if (told || f.op !== before) setText(this.live, text);
    this.on.frame(k);
  }

  private describe(f: Frame): string {
    const { trace: r, query } = this.data;
    const w = (key: PlayKey, p: Record<string, string | number> = {}) => translator(this.lang)(key, { query, ...p });
    if (r.problem === 'fully_masked' && f.op !== 'dot' && f.op !== 'norm' && f.op !== 'scale' && f.op !== 'mask')
      return w('play.none');
    if (r.problem === 'zero_sum' && (f.op === 'divide' || f.op === 'mix')) return w('play.zero');
    const sum = num(this.data.ways.normalization === 'softmax' ? r.expSum : r.scoreSum);
    switch (f.op) {
      case 'dot':
        return r.dK <= strides(r.dK).length
          ? w('play.dot', { feature: this.data.features[f.at] ?? String(f.at + 1), q: num(r.query[f.at]), t: f.at + 1, d: r.dK })
          : w('play.dotStride', { t: f.at + 1, d: r.dK });
      case 'norm':
        return w('play.norm', { qn: num(r.queryNorm) });
      case 'scale':
        return w('play.scale', { divisor: this.data.divisor });
      case 'mask':
        return w('play.mask');
      case 'max':
        return w('play.max', { max: num(r.max) });
      case 'exp':
        return w('play.exp');
      case 'sum':
        return w(this.data.ways.normalization === 'softmax' ? 'play.sumExp' : 'play.sumScores', { sum });
      case 'divide':
        return w('play.divide', { sum });
      case 'mix':
        return w('play.mix', { key: this.data.keys[f.at] ?? '', w: num(r.weights[f.at]) });
    }
  }

  private columns(): Column[] {
    const { trace: r, ways } = this.data;
    const cols: Column[] = ['dot'];
    if (ways.similarity === 'cosine') cols.push('norm');
    if (r.divisor !== 1) cols.push('scale');
    if (ways.masked) cols.push('mask');
    if (ways.normalization === 'softmax') cols.push('max', 'exp');
    cols.push('divide');
    return cols;
  }

  private drawTable(): void {
    const { trace: r, keys } = this.data;
    const cols = this.columns();
    const heads: Record<Column, string> = {
      dot: 'q·k',
      norm: '÷ |q||k|',
      scale: '÷ ' + this.data.divisor,
      mask: translator(this.lang)('play.maskHead'),
      max: '− max',
      exp: 'exp',
      divide: '÷ Σ',
    };
    clear(this.table);
    const head = h('tr', {}, h('th', { text: translator(this.lang)('play.key'), attrs: { scope: 'col' } }));
    for (const c of cols)
      head.append(h('th', { text: heads[c], attrs: { scope: 'col', 'data-stage': stage(this.frames, this.k, c) } }));
    const body = h('tbody');
    for (let j = 0; j < r.m; j++) {
      const tr = h('tr', {}, h('th', { text: keys[j] ?? '', attrs: { scope: 'row' } }));
      for (const c of cols) {
        const st = stage(this.frames, this.k, c);
        const td = h('td', { attrs: { 'data-stage': st, 'data-col': c } });
        if (st !== 'later') td.append(...this.cell(c, st, j));
        if (!r.visible[j]) td.dataset.hidden = '';
        tr.append(td);
      }
      body.append(tr);
    }
    // The sum the weights divide by, under the column it adds up.
    const summed: Column = this.data.ways.normalization === 'softmax' ? 'exp' : cols[cols.length - 2];
    const foot = h('tr', {}, h('th', { text: translator(this.lang)('play.sum'), attrs: { scope: 'row' } }));
    const sumStage = stage(this.frames, this.k, 'sum');
    for (const c of cols) {
      const td = h('td', { attrs: { 'data-stage': c === summed ? sumStage : 'later' } });
      if (c === summed && sumStage !== 'later')
        td.append(num(this.data.ways.normalization === 'softmax' ? r.expSum : r.scoreSum));
      foot.append(td);
    }
    this.table.append(h('thead', {}, head), body, h('tfoot', {}, foot));
  }

  /** What cell (key j, column c) shows: q·k as it adds up (its terms written out when few), or the step's number. */
  private cell(c: Column, st: 'done' | 'now', j: number): (string | HTMLElement)[] {
    const r = this.data.trace;
    if (c !== 'dot') return [num(this.value(c, j))];
    const at = st === 'now' ? this.frames[this.k].at : r.dK - 1;
    const sum = num(r.partial.data[j * r.dK + at]);
    if (st === 'done') return [sum];
    if (r.dK <= SPELLED) {
      const kj = this.data.keyRows.data;
      const terms = Array.from({ length: at + 1 }, (_, t) => `${num(r.query[t])}×${num(kj[j * r.dK + t])}`);
      return [h('small', { class: 'play-term', text: terms.join(' + ') + ' = ' }), sum];
    }
    return [sum, h('small', { class: 'play-term', text: ` (+${num(r.terms.data[j * r.dK + at])})` })];
  }

  private value(c: Exclude<Column, 'dot'>, j: number): number {
    const r = this.data.trace;
    return { norm: r.scores, scale: r.scaled, mask: r.masked, max: r.shifted, exp: r.exps, divide: r.weights }[c][j];
  }

  private drawMix(): void {
    const { trace: r, keys, outputs } = this.data;
    const f = this.frames[this.k];
    const mixing = stage(this.frames, this.k, 'mix');
    const reached = mixing === 'now' ? f.at : mixing === 'done' ? r.m - 1 : -1;
    const shown = Math.min(r.dV, OUTPUT_COLUMNS);
    clear(this.mix);
    const head = h('tr', {}, h('th', { text: 'w · v', attrs: { scope: 'col' } }));
    for (let c = 0; c < shown; c++) head.append(h('th', { text: outputs[c] ?? String(c + 1), attrs: { scope: 'col' } }));
    const body = h('tbody');
    for (let j = 0; j < r.m; j++) {
      const now = mixing === 'now' && j === f.at;
      const tr = h('tr', { attrs: { 'data-stage': j <= reached ? (now ? 'now' : 'done') : 'later' } });
      tr.append(h('th', { text: keys[j] ?? '', attrs: { scope: 'row' } }));
      for (let c = 0; c < shown; c++) tr.append(h('td', { text: j <= reached ? num(r.mixed.data[j * r.dV + c]) : '' }));
      body.append(tr);
    }
    const foot = h(
      'tr',
      { attrs: { 'data-stage': mixing } },
      h('th', { text: translator(this.lang)('play.output'), attrs: { scope: 'row' } }),
    );
    for (let c = 0; c < shown; c++) {
      foot.append(
        h('td', { text: reached >= 0 ? num(r.filled.data[reached * r.dV + c]) : '', attrs: { 'data-out': String(c) } }),
      );
    }
    this.mix.append(h('thead', {}, head), body, h('tfoot', {}, foot));
  }
}
