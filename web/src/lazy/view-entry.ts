// What the entries of the views below the header (learn/entry.ts, real/entry.ts) share: the one
// view a link's keys name, opened below the header or refused with the page's notice, its place
// written back into the link, closed when the reader leaves it; and a wasm module of its own,
// loaded next to the page where no worker can load it.
import type { State } from '../state/state';
import { loadScript } from './lazy';

/** What a view needs of the page. */
export interface ViewHost<P> {
  lang(): string;
  root(): HTMLElement;
  /** The view's place for the link, or null when the reader closes it. */
  place(place: P | null): void;
  /** Opens a state in the playground below the view. */
  show(state: State): void;
}

/** A view below the page's header that a link's `view=` names: Learn, or the Real model. */
export interface ViewPart {
  /**
   * The view the link's keys name, below the page's header; or, if they are not valid, the
   * page's notice of a link it could not read, and no view. `keep` writes the view's keys (null:
   * closed) into the link; `show` opens a state in the playground below the view.
   */
  open(
    keys: string,
    root: HTMLElement,
    keep: (keys: string | null) => void,
    notice: (kind: 'link') => HTMLElement,
    show: (state: State) => void,
  ): void;
  /** After a mount of the page: the view back in its place. */
  attach(): void;
  /** Files the reader dropped on the page, given to the open view: false when none takes them. */
  give(files: File[]): boolean;
  close(): void;
}

interface View {
  attach(): void;
  dispose(): void;
  /** Files dropped on the page: only the Real model view opens them. */
  give?(files: File[]): void;
}

/** The part an entry provides: a view made by `make` from the place `parse` reads out of the keys. */
export function viewPart<P>(
  parse: (keys: string) => P | null,
  serialise: (place: P) => string,
  make: (host: ViewHost<P>, place: P) => View,
): ViewPart {
  let view: View | null = null;
  let keepKeys: (keys: string | null) => void = () => undefined;
  const close = (): void => {
    if (!view) return;
    view.dispose();
    view = null;
    keepKeys(null);
  };
  return {
    open(keys, root, keep, notice, show) {
      close();
      keepKeys = keep;
      const place = parse(keys);
      if (!place) {
        keep(null);
        root.querySelector('.notice')?.remove();
        root.prepend(notice('link'));
        return;
      }
      keep(serialise(place));
      const host: ViewHost<P> = {
        lang: () => document.documentElement.lang,
        root: () => root,
        place: (p) => (p ? keep(serialise(p)) : close()),
        show,
      };
      view = make(host, place);
      view.attach();
    },
    close,
    attach: () => view?.attach(),
    give(files) {
      if (!view?.give) return false;
      view.give(files);
      return true;
    },
  };
}

/** A module's factory (`createAttentionTrainer`, …), its script loaded next to the page unless it ran already. */
export function loadFactory<M>(script: string, name: string): Promise<M> {
  const global = globalThis as { [name: string]: unknown };
  return loadScript(script, () => typeof global[name] === 'function').then(
    () => (global[name] as () => Promise<M>)(),
    () => Promise.reject(new Error(`${script} did not load: it belongs next to this page`)),
  );
}
