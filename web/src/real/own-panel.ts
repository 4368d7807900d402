// The Real model view's door for the reader's own model: a button that chooses files, the view as
// a place to drop them, the reading's progress with a way to stop it, and what went wrong in the
// page's words. The files go to the model's side (own-files.ts) and nowhere else.
import { decimals } from '../i18n';
import { h, clear, carriesFiles } from '../views/dom';
import type { ModelUrls, OwnFailure, OwnProgress } from './protocol';
import { fileName } from './url-source';

type OwnWord =
  | 'ownOpen'
  | 'ownNote'
  | 'ownDrop'
  | 'ownReading'
  | 'ownMeasuring'
  | 'ownCancel'
  | 'ownBack'
  | 'ownNoModel'
  | 'ownTwoModels'
  | 'ownUnknown'
  | 'ownRefused'
  | 'ownTooLarge'
  | 'ownCancelled'
  | 'ownOffer'
  | 'ownSizeLater'
  | 'ownAsking'
  | 'ownSizeUnknown'
  | 'ownLoad';

export interface OwnActions {
  open(files: File[]): void;
  url(urls: ModelUrls): void;
  cancel(): void;
  shipped(): void;
}

/** A size for a reader: KB below 1 MB (a 50 KB file is not "0.0 MB"), MB (2^20 bytes) with one
 * decimal, GB from 1,000 MB. */
export function size(bytes: number, lang: string): string {
  const mb = bytes / 2 ** 20;
  if (mb < 1) return decimals(bytes / 1024, 1, lang) + ' KB';
  return mb >= 1000 ? decimals(mb / 1024, 2, lang) + ' GB' : decimals(mb, 1, lang) + ' MB';
}

export class OwnPanel {
  readonly el: HTMLElement;
  private readonly status: HTMLElement;
  /** The model the link offers, until it is loaded. */
  private readonly offered: HTMLElement = h('div', { class: 'real-offer' });
  private readonly back: HTMLButtonElement;
  private readonly choose: HTMLButtonElement;
  /**
   * The reading's words, bar and Stop button, made once and then updated in place: rebuilt at every
   * piece, the button under a reader's pointer (or keyboard focus) would be a new one between the
   * press and the release, and the click that should stop the reading would be lost.
   */
  private reading: { words: HTMLElement; bar: HTMLProgressElement } | null = null;

  constructor(
    private readonly say: (word: OwnWord, params?: Record<string, string | number>) => string,
    private readonly lang: string,
    private readonly actions: OwnActions,
  ) {
    const input = h('input', {
      attrs: { type: 'file', multiple: '', accept: '.safetensors,.json,.txt', hidden: '', 'data-real-own-input': '' },
    });
    input.addEventListener('change', () => {
      const files = [...(input.files ?? [])];
      input.value = ''; // the same files chosen again open again
      if (files.length) actions.open(files);
    });
    this.choose = h('button', { class: 'btn', text: say('ownOpen'), attrs: { type: 'button', 'data-real-own': '' } });
    this.choose.addEventListener('click', () => input.click());
    this.back = h('button', {
      class: 'btn',
      text: say('ownBack'),
      attrs: { type: 'button', hidden: '', 'data-real-shipped': '' },
    });
    this.back.addEventListener('click', () => actions.shipped());
    this.status = h('div', { class: 'real-own-status', attrs: { role: 'status', 'data-real-own-status': '' } });
    this.el = h(
      'div',
      { class: 'real-own' },
      h('div', { class: 'learn-actions' }, this.choose, this.back, input),
      this.offered,
      h('p', { class: 'learn-note', text: say('ownNote') }),
      this.status,
    );
  }

  /** Files dropped anywhere on `target` open as a model; while they are dragged over it, it says so. */
  dropOn(target: HTMLElement): void {
    target.addEventListener('dragover', (e) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      target.dataset.drop = this.say('ownDrop');
    });
    target.addEventListener('dragleave', (e) => {
      if (e.target === target) delete target.dataset.drop;
    });
    target.addEventListener('drop', (e) => {
      delete target.dataset.drop;
      if (!carriesFiles(e)) return;
      e.preventDefault();
      const files = [...(e.dataTransfer?.files ?? [])];
      if (files.length) this.actions.open(files);
    });
  }

  /**
   * A model on a server that the link names (an embed's model attribute): its name, its site and
   * a button that loads it. Its size is asked of the server before anything is downloaded only
   * when the server is the page's own: a link must not make the reader's browser contact another
   * host before the reader asks.
   */
  offer(urls: ModelUrls): void {
    let host = urls.model;
    let own = false;
    try {
      const url = new URL(urls.model);
      host = url.host;
      own = url.origin === location.origin;
    } catch {
      // the link's check let only absolute URLs through; the whole address is shown otherwise
    }
    const words = h('p', { class: 'learn-note', attrs: { 'data-real-offer': '' } });
    const say = (size: string) => {
      words.textContent = this.say('ownOffer', { name: fileName(urls.model), host, size });
    };
    say(own ? '…' : this.say('ownSizeLater'));
    if (own)
      fetch(urls.model, { method: 'HEAD', credentials: 'omit' })
        .then((r) => {
          const length = r.ok ? r.headers.get('content-length') : null;
          say(length && /^\d+$/.test(length) ? size(Number(length), this.lang) : this.say('ownSizeUnknown'));
        })
        .catch(() => say(this.say('ownSizeUnknown')));
    const load = h('button', { class: 'btn', text: this.say('ownLoad'), attrs: { type: 'button', 'data-real-load': '' } });
    load.addEventListener('click', () => this.actions.url(urls));
    clear(this.offered);
    this.offered.append(words, h('div', { class: 'learn-actions' }, load));
  }

  /** Which model runs: the reader's own (its file's name) or the page's (null). */
  running(own: string | null): void {
    this.back.hidden = own === null;
    if (own !== null) clear(this.offered);
    this.choose.disabled = false;
    this.show();
  }

  progress(p: OwnProgress): void {
    this.choose.disabled = true;
    if (p.stage === 'measuring') {
      this.show(h('p', { class: 'learn-note', text: this.say('ownMeasuring', { name: p.name }) }));
      return;
    }
    if (!this.reading) {
      const words = h('p', { class: 'learn-note' });
      const bar = h('progress', { attrs: { 'data-real-own-progress': '' } });
      const stop = h('button', {
        class: 'btn',
        text: this.say('ownCancel'),
        attrs: { type: 'button', 'data-real-own-cancel': '' },
      });
      stop.addEventListener('click', () => this.actions.cancel());
      this.show(words, h('div', { class: 'learn-try-row' }, bar, stop));
      this.reading = { words, bar };
    }
    const { words, bar } = this.reading;
    bar.setAttribute('aria-label', p.name);
    if (p.stage === 'asking') {
      bar.removeAttribute('value'); // indeterminate: the server has not said how much will come
      words.textContent = this.say('ownAsking', { name: p.name });
      return;
    }
    bar.max = p.total;
    bar.value = p.loaded;
    words.textContent = this.say('ownReading', {
      name: p.name,
      loaded: size(p.loaded, this.lang),
      total: size(p.total, this.lang),
    });
  }

  /** The status says only `parts` now (a new reading starts with a new bar). */
  private show(...parts: HTMLElement[]): void {
    clear(this.status);
    this.reading = null;
    this.status.append(...parts);
  }

  failed(f: OwnFailure): void {
    this.choose.disabled = false;
    let words: string;
    switch (f.reason) {
      case 'no-model':
        words = this.say('ownNoModel');
        break;
      case 'two-models':
        words = this.say('ownTwoModels', { names: f.names.join(', ') });
        break;
      case 'unknown-files':
        words = this.say('ownUnknown', { names: f.names.join(', ') });
        break;
      case 'too-large':
        words = this.say('ownTooLarge', { need: size(f.needBytes, this.lang), free: size(f.freeBytes, this.lang) });
        break;
      case 'cancelled':
        words = this.say('ownCancelled');
        break;
      default:
        words = this.say('ownRefused', { reason: f.message });
    }
    this.show(h('p', { class: 'learn-try-message', text: words, attrs: { 'data-real-own-error': f.reason } }));
  }
}
