// The one way a later part comes: later(key) loads its script (once; not at all when it ran
// already, as in the offline file) and resolves to what the script's entry gave provide(key).
// Each part's type is below, so a caller and the entry agree on it at compile time.
import { scriptURL } from '../engine/trusted';
import { SCRIPTS, type PartKey } from './parts';
import type { State } from '../state/state';
import type { Exports } from '../views/exporter';
import type { CanvasForm } from '../views/heatmap-canvas';
import type { ShareDialog, ShareSource } from '../views/share';
import type { Plot } from '../views/plot';
import type { Lesson } from '../lesson/schema';
import type { LessonHost, LessonPlayer, Progress } from '../lesson/player';
import type { PlayData, PlayHandlers, RowPlayer } from '../play/player';
import type { presenter } from '../views/present';
import type { ownStory } from '../views/own-story';

export type { PartKey } from './parts';

export interface LessonPart {
  lessons: Record<string, Lesson>;
  LessonPlayer: new (lesson: Lesson, host: LessonHost, progress: Progress, save: (p: Progress) => void) => LessonPlayer;
  readProgress(id: string, steps: number): Progress;
  writeProgress(id: string, p: Progress): void;
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

/** What each part's script provides. */
export interface Parts {
  cost: () => HTMLElement;
  formats: Exports;
  share: (source: ShareSource) => ShareDialog;
  plot: () => Plot;
  lesson: LessonPart;
  /** Lessons that come in a part of their own, by id. */
  realLesson: Record<string, Lesson>;
  play: { RowPlayer: new (data: PlayData, frame: number, lang: string, on: PlayHandlers) => RowPlayer };
  learn: ViewPart;
  real: ViewPart;
  canvas: typeof CanvasForm;
  /** The learned word vectors: their file, as the engine's loadVectors() reads it, and the story
   * above the figure for a sentence over them, as Story.show takes it (views/own-story.ts). */
  vectors: { bytes: () => Uint8Array; story: typeof ownStory };
  /** Present's keys, and `styled`: resolved once its styles (lesson.css) are in. */
  present: { presenter: typeof presenter; styled: Promise<void> };
}

// One object on the global: each part's script is a bundle of its own, with its own copy of this module.
const provided = ((globalThis as unknown as { __attentionPlaygroundParts?: Partial<Parts> }).__attentionPlaygroundParts ??= {});

const pending = new Map<string, Promise<void>>();

/** Loads the script `name` next to the page unless `present()` says it ran already. */
export function loadScript(name: string, present: () => boolean): Promise<void> {
  if (present()) return Promise.resolve();
  let loading = pending.get(name);
  if (!loading) {
    loading = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = scriptURL(name);
      script.onload = () => resolve();
      script.onerror = () => {
        pending.delete(name); // a later attempt may succeed
        script.remove();
        reject(new Error(`${name} did not load`));
      };
      document.head.append(script);
    });
    pending.set(name, loading);
  }
  return loading;
}

/** The part `key`, its script loaded first unless it ran already. Rejects if the script cannot come. */
export function later<K extends PartKey>(key: K): Promise<Parts[K]> {
  return loadScript(SCRIPTS[key], () => provided[key] !== undefined).then(() => provided[key] as Parts[K]);
}

/** In a part's entry: what later(key) resolves to. */
export function provide<K extends PartKey>(key: K, value: Parts[K]): void {
  provided[key] = value;
}

/**
 * In the entries of the parts that bring styles: lesson.css beside them, unless the page has it
 * already, inline (the offline file) or from another of them. Resolves once it is in (or could
 * not come: the page goes on without it).
 */
export function laterStyles(): Promise<void> {
  if (getComputedStyle(document.documentElement).getPropertyValue('--lesson-styles')) return Promise.resolve();
  let link = document.querySelector<HTMLLinkElement>('link[data-later-styles]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = 'lesson.css';
    link.dataset.laterStyles = '';
    document.head.append(link);
  }
  const sheet = link;
  return new Promise((resolve) => {
    if (sheet.sheet) return resolve();
    sheet.addEventListener('load', () => resolve(), { once: true });
    sheet.addEventListener('error', () => resolve(), { once: true });
  });
}
