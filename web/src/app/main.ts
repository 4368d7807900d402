// The page starts here: the state from the link or storage, the engine, then one App, mounted
// again (with the same history) when the language switches or another link is opened.
import { h, clear } from '../views/dom';
import { t, language, hasCatalog } from '../i18n';
import type { State } from '../state/state';
import { serialise } from '../state/link';
import { History } from '../state/history';
import { loadEngine } from '../engine/load';
import { unavailableMessage } from './faults';
import {
  readLink,
  initialState,
  continued,
  keep,
  historyText,
  linkText,
  startLanguages,
  linkExtras,
  seenLink,
  type NoticeKind,
} from './link';
import { LessonRun } from './lesson-part';
import { pageDrop, viewRun } from './view-part';
import { loadCatalog } from '../lazy/catalogs';
import { lazy } from '../lazy/lazy';
import { provideExports } from '../views/exporter';
import { provideCanvasForm } from '../views/heatmap';
import { applyEmbed, applyLanguage, notice, postHeight } from './frame';
import { App } from './app';

/**
 * Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo (Meta, ⌘ on macOS, instead of Ctrl), everywhere
 * but where the browser's own undo is the right one: the paste boxes (textareas, not part of the
 * state), an open dialog, and text still being composed by an input method.
 */
function historyKey(e: KeyboardEvent): 'undo' | 'redo' | null {
  if (e.defaultPrevented || e.isComposing || e.altKey || e.ctrlKey === e.metaKey) return null;
  const target = e.target instanceof Element ? e.target : null;
  if (target?.closest('textarea, dialog')) return null;
  const key = e.key.toLowerCase();
  if (key === 'z') return e.shiftKey ? 'redo' : 'undo';
  return key === 'y' && !e.shiftKey ? 'redo' : null;
}

// The text exports come with the first one a reader asks for.
provideExports(() => lazy('formats'));
// The canvas form of a heatmap with the first figure too large for a table.
provideCanvasForm(() => lazy('canvas'));

async function start(): Promise<void> {
  const root = document.getElementById('app');
  if (!root) return;
  try {
    await Promise.all(startLanguages().map(loadCatalog));
  } catch {
    // A catalog that did not come: the page in English if that one can be had.
    await loadCatalog('en').catch(() => undefined);
    if (!hasCatalog('en')) {
      root.textContent = 'Attention Playground could not load its text. Reload the page.';
      root.removeAttribute('aria-busy');
      return;
    }
  }
  const first = initialState(readLink());
  applyLanguage(first.state.lang);
  root.append(h('p', { class: 'loading', text: t('app.loading') }));
  postHeight(root); // from the start: an embed frame sized to its message if the engine fails
  try {
    const engine = await loadEngine();
    let app: App | null = null;
    // One history for the tab: a language switch mounts a new App and keeps the steps.
    const history = new History(historyText(first.state));
    const views = viewRun(
      root,
      () => app,
      (state) => {
        history.record(historyText(state), '', performance.now()); // undo goes back to the playground before
        keep(state);
        mount(state, app?.lexiconFile ?? null);
        // The playground starts below the view: the reader's eye goes there.
        root.querySelector('[data-learn] + *, [data-real] + *')?.scrollIntoView({ block: 'start' });
      },
    );
    const lessons = new LessonRun({
      root,
      app: () => app,
      mount: (state, why) => {
        history.record(historyText(state), '', performance.now()); // undo goes back to the step before
        mount(state, app?.lexiconFile ?? null, false, why);
      },
      // The painting the lesson began with, now learned by a model.
      learn: () => views.open('view=learn&task=find_match&seed=1'),
    });
    const mount = (
      state: State,
      fileLexicon: { id: number } | null,
      focusSwitch = false,
      why: NoticeKind | null = null,
    ): void => {
      applyLanguage(state.lang);
      app?.dispose();
      clear(root);
      app = new App(
        engine,
        root,
        (next, lexicon) => {
          keep(next);
          mount(next, lexicon, true);
        },
        history,
        state,
        fileLexicon,
        (sentence) => views.open('view=real&' + new URLSearchParams({ sentence })), // real-link.ts's form
      );
      if (why) root.prepend(notice(why));
      applyEmbed(root, state);
      app.render();
      lessons.attach();
      views.attach();
      document.title = t('app.title');
      if (focusSwitch) (root.querySelector(`[data-lang="${language()}"]`) as HTMLElement | null)?.focus();
    };
    mount(first.state, null, false, first.notice);
    const place = linkExtras.lesson;
    if (place) lessons.open(place);
    views.open(linkExtras.view);
    document.addEventListener('keydown', (e) => {
      const which = historyKey(e);
      // The views' fields keep the browser's own undo; the playground's history is not theirs.
      if (!which || !app || (e.target instanceof Element && e.target.closest('[data-learn], [data-real]'))) return;
      e.preventDefault(); // also the browser's own undo in the text field
      app.step(which);
    });
    // A model's files dropped anywhere on the page open in the Real model view (which takes a
    // drop on itself first); while they are dragged over the page, a banner says so.
    document.addEventListener('dragover', (e) => {
      const take = !e.defaultPrevented && pageDrop(e);
      if (take) e.preventDefault();
      if (take) root.dataset.drop = t('app.drop');
      else delete root.dataset.drop;
    });
    document.addEventListener('dragleave', (e) => {
      if (!e.relatedTarget) delete root.dataset.drop; // out of the window
    });
    document.addEventListener('drop', (e) => {
      delete root.dataset.drop;
      if (e.defaultPrevented || !pageDrop(e)) return;
      e.preventDefault();
      views.give([...(e.dataTransfer?.files ?? [])]);
    });
    // A reload within persist()'s quarter second must not lose the last edit.
    window.addEventListener('pagehide', () => app?.flush());
    window.addEventListener('beforeprint', () => app?.print()); // cards drawn later would print blank
    // Another link opened in the same tab (or the hash edited by hand) is the new state.
    window.addEventListener('hashchange', () => {
      const text = location.hash.replace(/^#/, '');
      if (app && text === linkText(serialise(app.current, t))) return seenLink();
      // The new link's language may need its catalog first.
      void Promise.all(startLanguages().map(loadCatalog))
        .catch(() => undefined)
        .then(() => {
          const next = readLink();
          // A link that only opens the Learn view leaves the playground as the reader has it.
          const state = next.carried || !app ? next.state : continued(app.current, next);
          history.record(historyText(state), '', performance.now()); // undo goes back to before the link
          mount(state, app?.lexiconFile ?? null, false, next.rejected.length > 0 ? 'link' : null);
          const at = linkExtras.lesson;
          if (at) lessons.open(at);
          else lessons.leave();
          views.open(linkExtras.view);
        });
    });
    root.removeAttribute('aria-busy');
  } catch (e) {
    clear(root);
    root.append(unavailableMessage(e));
    root.removeAttribute('aria-busy');
    console.error(e); // the cause, for a bug report; the reader has the message
  }
}

void start();
