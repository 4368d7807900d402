// Presentation mode, for a teacher at a projector: numbers and labels large, the controls and the
// inputs out of the way, ← and → step through the examples. The button or Escape leaves it. It is
// a way of looking, not part of the state: a link never opens in it. Its keys and its styles (in
// lesson.css) come in the lazy part `present` the first time a reader presses the button
// (app/present-part.ts makes the button).
import { PRESETS, type PresetId, type State } from '../state/state';

/** Presenting on or off: the page's class and the button's state. */
export type Presenter = (on: boolean) => void;

/** `signal`: the App's lifetime; the document's listener goes with it (a re-mount must not keep it). */
export function presenter(
  root: HTMLElement,
  button: HTMLElement,
  state: () => State,
  load: (id: PresetId) => void,
  signal: AbortSignal,
): Presenter {
  const toggle = (on: boolean) => {
    root.classList.toggle('presenting', on);
    button.setAttribute('aria-pressed', String(on));
  };
  document.addEventListener(
    'keydown',
    (e) => {
      if (!root.classList.contains('presenting') || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === 'Escape') return toggle(false);
      // Arrows that move inside a grid, a group of chips or a field are theirs.
      const target = e.target instanceof Element ? e.target : null;
      if (target?.closest('input, select, textarea, td, [role="group"], .pipeline-queries')) return;
      const by = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
      if (!by) return;
      e.preventDefault();
      const at = PRESETS.indexOf(state().preset as PresetId);
      load(PRESETS[(at + by + PRESETS.length) % PRESETS.length]);
    },
    { signal },
  );
  return toggle;
}
