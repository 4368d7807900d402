// A lesson on the page: loads the player when a link names a lesson or the reader presses the
// header's button, opens each step's state through the page's own mount, and puts the player
// (or the button) back after every mount, which rebuilds the page.
import { language, t, int } from '../i18n';
import { parse } from '../state/link';
import type { State } from '../state/state';
import type { App } from './app';
import type { LessonPlayer } from '../lesson/player';
import { keep, linkExtras, type NoticeKind } from './link';
import { openButton } from '../views/header';
import { lazy } from '../lazy/lazy';
import type { LessonPart } from '../lesson/entry';
import type { LessonPlace } from '../state/lesson-link';

export interface LessonPage {
  root: HTMLElement;
  app(): App | null;
  mount(state: State, why: NoticeKind | null): void;
  /** Opens the Learn view. */
  learn(): void;
}

/** Lessons whose steps come in a part of their own (lazy/parts.ts), loaded only for their readers. */
const OWN_PART = new Set(['real-heads']);

/** The player and its lessons, with the lesson `id`'s own part when it has one. */
function lessonPart(id: string): Promise<LessonPart> {
  if (!OWN_PART.has(id)) return lazy('lesson');
  return Promise.all([lazy('lesson'), lazy('realLesson')]).then(([mod, own]) => ({
    ...mod,
    lessons: { ...mod.lessons, ...own },
  }));
}

export class LessonRun {
  private player: LessonPlayer | null = null;

  constructor(private readonly page: LessonPage) {}

  /** Opens a lesson at a step (1-based), or (step 0, or no place) where the reader left it. */
  open(place: LessonPlace | null): void {
    const id = place?.lesson ?? 'intro';
    void lessonPart(id).then(
      (mod) => {
        // Own keys only: `#lesson=constructor` must not find Object's.
        const lesson = Object.prototype.hasOwnProperty.call(mod.lessons, id) ? mod.lessons[id] : undefined;
        if (!lesson) {
          // A link to a lesson this page does not have: the playground as the link's state is.
          linkExtras.lesson = null;
          this.page.mount(this.page.app()?.current ?? parse('').state, 'link');
          return;
        }
        const progress = mod.readProgress(id, lesson.steps.length);
        const host = {
          lang: () => language(),
          root: () => this.page.root,
          model: () => this.page.app()?.model ?? null,
          show: (text: string, play: number | null) => {
            const lang = this.page.app()?.current.lang ?? '';
            linkExtras.play = play;
            this.page.mount(parse(text + (lang ? '&lang=' + encodeURIComponent(lang) : '')).state, null);
          },
          learn: () => this.page.learn(),
          place: (step: number | null) => {
            linkExtras.lesson = step === null ? null : { lesson: id, step };
            const app = this.page.app();
            if (app) keep(app.current);
          },
        };
        this.player?.dispose();
        this.player = new mod.LessonPlayer(lesson, host, progress, (p) => mod.writeProgress(id, p));
        const asked = place?.step ?? 0;
        this.player.go(asked ? asked - 1 : progress.step);
        // A step past the lesson's end opens its last step, and says so.
        const n = lesson.steps.length;
        // Said in the step itself, where the page has scrolled to (the top of the page is out of sight).
        if (asked > n) this.player.tell(t('link.lessonStep', { n: int(n), asked: int(asked) }));
      },
      () => undefined, // offline and not inline: the page stays as it is
    );
  }

  /**
   * Another link took the page (opened in the tab): the step's question would ask about a figure
   * no longer there, so the lesson steps aside, with its button to come back to its step.
   */
  leave(): void {
    this.player?.explore();
  }

  /** After a mount: the player in its place, and the button that opens a lesson. */
  attach(): void {
    const row = this.page.root.querySelector('.share-row');
    row?.prepend(openButton('lesson', () => this.open(null)));
    this.player?.attach();
  }
}
