// The views below the header, Learn and the Real model: each a lazy part (`learn`, `real`),
// loaded when a link names it (`view=learn…`, `view=real…`) or the reader presses its header
// button, and put back after every mount (which rebuilds the page). One is open at a time. Each
// part reads the link's keys and keeps its view (learn/entry.ts, real/entry.ts), so the page's
// first load carries little.
import { openButton } from '../views/header';
import { carriesFiles } from '../views/dom';
import type { App } from './app';
import { keepLink, linkExtras } from './link';
import { notice } from './frame';
import { lazy } from '../lazy/lazy';
import type { ViewPart } from '../lazy/view-entry';
import type { State } from '../state/state';

type Which = 'learn' | 'real';

/** `mount` opens a state in the playground (a learned head, from either view). */
export function viewRun(root: HTMLElement, app: () => App | null, mount: (state: State) => void) {
  const parts: Partial<Record<Which, ViewPart>> = {};
  // The view's keys go into the link only: the stored state is the playground's, and a view's
  // link opening must not write it.
  const keepKeys = (keys: string | null) => {
    linkExtras.view = keys;
    const now = app();
    if (now) keepLink(now.current);
  };
  const open = (keys: string | null, files?: File[]) => {
    const which: Which | null = keys === null ? null : /(^|&)view=real(&|$)/.test(keys) ? 'real' : 'learn';
    for (const k of ['learn', 'real'] as const) if (k !== which) parts[k]?.close();
    if (which && keys)
      void lazy(which).then(
        (m) => {
          (parts[which] = m).open(keys, root, keepKeys, notice, mount);
          if (files) m.give(files);
        },
        () => undefined, // offline and not inline: the page stays as it is
      );
  };
  return {
    /** Opens the view the link's keys name (`view=learn&task=…`, `view=real…`), or closes it (null). */
    open,
    /** Files dropped on the page: to the Real model view, opened for them if it is not. */
    give(files: File[]) {
      if (files.length && !parts.real?.give(files)) open('view=real', files);
    },
    /** After a mount: the view in its place, and the buttons that open them. */
    attach() {
      root.querySelector('.lesson-open')?.after(
        openButton('learn', () => open('view=learn')),
        openButton('real', () => open('view=real')),
      );
      parts.learn?.attach();
      parts.real?.attach();
    },
  };
}

/**
 * A drag of files the page takes: anywhere but a file input, which takes its own. Left to the
 * browser, a dropped file would replace the page and the reader's edits.
 */
export function pageDrop(e: DragEvent): boolean {
  return carriesFiles(e) && (e.target as HTMLInputElement).type !== 'file';
}
