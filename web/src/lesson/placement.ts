// Where a lesson step sits on the page: right above the card it talks about (its focus), with
// that card outlined, so the reader reads the step and sees its figure at once; a step about no
// card, or a lesson set aside, sits under the header.

/** Puts the lesson's element `el` above the card of `focus` (a step's name, or 'formula'). */
export function place(el: HTMLElement, root: HTMLElement, focus: string | undefined): void {
  for (const marked of Array.from(root.querySelectorAll('[data-lesson-target]'))) marked.removeAttribute('data-lesson-target');
  const target = focus ? shown(root, focus === 'formula' ? '.intro' : `[data-step="${focus}"]`) : null;
  const header = root.querySelector('header.top');
  if (target) {
    target.before(el);
    target.setAttribute('data-lesson-target', '');
  } else if (header) header.after(el);
  else root.prepend(el);
}

/** The first element of `selector` that is drawn now (not hidden by the step or the embed). */
function shown(root: HTMLElement, selector: string): HTMLElement | null {
  return Array.from(root.querySelectorAll<HTMLElement>(selector)).find((el) => el.offsetParent !== null) ?? null;
}

/**
 * Scrolls `el` to the top of the screen. The cards above come to their real heights as they are
 * drawn (off screen they are estimates), so the place is kept for a few frames until it holds.
 */
export function keepInView(el: HTMLElement, frames = 8): void {
  if (Math.abs(el.getBoundingClientRect().top - 8) > 2) el.scrollIntoView({ block: 'start' });
  if (frames > 0) requestAnimationFrame(() => el.isConnected && keepInView(el, frames - 1));
}
