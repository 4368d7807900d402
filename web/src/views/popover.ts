// "Why this number?" where the eye is. On a wide screen with a mouse the explanation is a panel
// beside the pointed-at cell, above or below its row (views/place.ts), so its key line is never
// off screen nor over the row it explains. On a narrow or touch screen it is a sheet at the foot
// of the screen, opened by a tap and closed by its × (or Escape), with the page scrolled so the
// tapped row stays above it. Either way the panel shows only while a number is pointed at.
import { placeBeside, type Box } from './place';

const CELLS = '.heatmap td[data-i], .pipeline td[data-view]';
const HIDE_DELAY_MS = 350; // long enough to move the mouse from the cell into the panel

export class ExplainPopover {
  private anchor: { cell: Box; row: Box; el: Element | null } | null = null;
  private sticky = false; // opened by a click or the keyboard: stays until closed or moved away
  private returning = false;
  private timer = 0;
  private readonly sheet = matchMedia('(max-width: 900px), (pointer: coarse)');

  constructor(
    root: HTMLElement,
    private readonly panel: HTMLElement,
    signal: AbortSignal, // the App's lifetime: the document's and window's listeners go with it
  ) {
    // The root outlives the App (every mount fills it again): its listeners go with the App too.
    root.addEventListener('mouseover', (e) => this.point(e, false), { signal });
    root.addEventListener('focusin', (e) => this.point(e, true), { signal });
    root.addEventListener('click', (e) => this.point(e, true), { signal });
    root.addEventListener('mouseout', (e) => this.leave(e), { signal });
    panel.addEventListener('mouseover', () => clearTimeout(this.timer));
    panel.addEventListener('mouseleave', () => this.sticky || this.later());
    panel.querySelector('.explain-close')?.addEventListener('click', () => this.close(true));
    document.addEventListener(
      'keydown',
      (e) => {
        if (e.key === 'Escape' && this.panel.classList.contains('open')) this.close(true);
      },
      { signal },
    );
    window.addEventListener('scroll', () => this.place(), { passive: true, signal });
    window.addEventListener('resize', () => this.place(), { signal });
    signal.addEventListener('abort', () => clearTimeout(this.timer));
  }

  private point(e: Event, sticky: boolean): void {
    if (this.returning) return;
    const target = e.target instanceof Element ? e.target : null;
    if (!target || this.panel.contains(target)) return;
    const cell = target.closest(CELLS) ?? target.closest('.heatmap canvas');
    if (!cell) {
      if (e.type === 'click' && !this.sheet.matches) this.close(false);
      return;
    }
    // The touch sheet opens on a tap (or the keyboard), not on the hover a tap also fires.
    if (this.sheet.matches && !sticky) return;
    clearTimeout(this.timer);
    this.sticky = sticky || this.sticky;
    const box = cell.getBoundingClientRect();
    let row: Box = (cell.closest('tr') ?? cell).getBoundingClientRect();
    if (cell instanceof HTMLCanvasElement && e instanceof MouseEvent) {
      // A canvas heatmap has no row element: the band of the pointer's row is kept clear.
      row = { left: box.left, right: box.right, top: e.clientY - 12, bottom: e.clientY + 12 };
    }
    this.anchor = { cell: box, row, el: cell };
    this.panel.classList.add('open');
    requestAnimationFrame(() => this.place(true));
  }

  private leave(e: MouseEvent): void {
    if (this.sticky || this.sheet.matches) return;
    const to = e.relatedTarget instanceof Element ? e.relatedTarget : null;
    if (to && (to.closest(CELLS) || this.panel.contains(to))) return;
    this.later();
  }

  private later(): void {
    clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.close(false), HIDE_DELAY_MS);
  }

  private close(returnFocus: boolean): void {
    clearTimeout(this.timer);
    const had = this.anchor?.el;
    this.anchor = null;
    this.sticky = false;
    this.panel.classList.remove('open');
    this.panel.style.removeProperty('left');
    this.panel.style.removeProperty('top');
    this.panel.style.removeProperty('max-height');
    if (returnFocus && had instanceof HTMLElement && this.panel.contains(document.activeElement)) {
      this.returning = true; // the focus going back to the cell must not open the panel again
      had.focus();
      this.returning = false;
    }
  }

  /** Puts the panel beside its cell (`fresh`: just opened, so a sheet may scroll the row into view). */
  private place(fresh = false): void {
    if (!this.anchor || !this.panel.classList.contains('open')) return;
    const el = this.anchor.el;
    if (el && el.isConnected) {
      const box = el.getBoundingClientRect();
      const dy = box.top - this.anchor.cell.top;
      this.anchor.cell = box;
      this.anchor.row =
        el instanceof HTMLCanvasElement ? shift(this.anchor.row, dy) : (el.closest('tr') ?? el).getBoundingClientRect();
    }
    if (this.sheet.matches) {
      this.panel.style.removeProperty('left');
      this.panel.style.removeProperty('top');
      const covered = this.anchor.row.bottom - (innerHeight - this.panel.offsetHeight) + 8;
      if (fresh && covered > 0) window.scrollBy(0, covered);
      return;
    }
    const { row, cell } = this.anchor;
    if (row.bottom < 0 || row.top > innerHeight) return this.close(false); // scrolled away
    this.panel.style.removeProperty('max-height');
    const size = { width: this.panel.offsetWidth, height: this.panel.offsetHeight };
    const screen = { width: document.documentElement.clientWidth, height: innerHeight };
    // Clear of a lesson's reply and Next too, where the whole panel fits so; else beside the row.
    const clear = placeBeside(cell, keepClear(row), size, screen);
    const spot = clear.maxHeight >= size.height ? clear : placeBeside(cell, row, size, screen);
    this.panel.style.left = `${spot.left}px`;
    this.panel.style.top = `${spot.top}px`;
    this.panel.style.maxHeight = `${spot.maxHeight}px`;
    this.panel.dataset.side = spot.side;
  }
}

function shift(b: Box, dy: number): Box {
  return { left: b.left, right: b.right, top: b.top + dy, bottom: b.bottom + dy };
}

/**
 * The row's band, grown up to a part of the page the panel must not cover either, when it is
 * right above the row (a lesson step's text, its reply and its Next, above the figure it asks
 * about: it marks itself data-keep-clear).
 */
function keepClear(row: Box): Box {
  const keep = document.querySelector('[data-keep-clear]')?.getBoundingClientRect();
  if (!keep || keep.bottom > row.top + 1 || keep.bottom < 0 || keep.height === 0) return row;
  return { ...row, top: Math.min(row.top, keep.top) };
}
