// The Learn view on the page: the later part `learn`, loaded when a link names the view or the reader presses
// the header's button, and put back after every mount (which rebuilds the page). learn.js reads
// the link's keys and keeps the view (learn/entry.ts), so the page's first load carries little.
import { openButton } from '../views/header';
import type { App } from './app';
import { keepLink, setLearnKeys } from './link';
import { notice } from './frame';
import { later, type LearnPart } from '../later/later';
import type { State } from '../state/state';

/** `mount` opens a state in the playground (a trained head, from the view's "try it"). */
export function learnRun(root: HTMLElement, app: () => App | null, mount: (state: State) => void) {
  let mod: LearnPart | null = null;
  // The view's keys go into the link only: the stored state is the playground's, and a Learn
  // link opening must not write it.
  const keepKeys = (keys: string | null) => {
    setLearnKeys(keys);
    const now = app();
    if (now) keepLink(now.current);
  };
  const open = (keys: string | null) =>
    keys === null
      ? mod?.close()
      : void later('learn').then(
          (m) => (mod = m).open(keys, root, keepKeys, notice, mount),
          () => undefined, // offline and not inline: the page stays as it is
        );
  return {
    /** Opens the view the link's keys name (`view=learn&task=…`), or closes it (null). */
    open,
    /** After a mount: the view in its place, and the button that opens it. */
    attach() {
      root.querySelector('.lesson-open')?.after(openButton('learn', () => open('view=learn')));
      mod?.attach();
    },
  };
}
