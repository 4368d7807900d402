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
 * drawn (off screen they are estimates), so the place is kept until it has held for five frames.
 * A fixed eight frames was not enough on two loaded cores, where the cards above were still being
 * drawn; two seconds bound it, so a page that never settles does not hold the reader's scroll.
 */
export function keepInView(el: HTMLElement, until = performance.now() + 2000, held = 0): void {
  const off = Math.abs(el.getBoundingClientRect().top - 8) > 2;
  if (off) el.scrollIntoView({ block: 'start' });
  const still = off ? 0 : held + 1;
  if (still < 5 && performance.now() < until) requestAnimationFrame(() => el.isConnected && keepInView(el, until, still));
}
