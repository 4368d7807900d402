// The Learn view: pick a task and a model, train it in the worker, and watch the loss fall, the
// accuracy rise and the heads' attention on one sequence take the task's pattern. It shows the
// trainer's numbers only; the link keeps the task, the model and the seed, so it retrains the same.
import { translator, decimals, percent, type LearnKey } from '../i18n';
import { h } from '../views/dom';
import type { LearnPlace } from '../state/learn-link';
import type { ViewHost } from '../lazy/view-entry';
import type T from '../../../cpp/wasm/attention-trainer';
import { startTrainer, type TrainerLink } from './client';
import { Curve, CurveTable, explainMeasures } from './curves';
import { LearnForm } from './form';
import { HeadGrid } from '../views/head-grid';
import { tableForm } from '../views/head-table';
import type { Reply, Update } from './protocol';
import { Breaking } from './breaking';
import { Scrubber } from './scrubber';
import { SETUPS, type TaskName } from './tasks';
import { LearnState } from './learn-state';
import { TryPanel } from './try';
import { headState } from '../state/head-state';
import { ModelInLink } from './model-link';
import { Actions, type Action } from './actions';
import { RunState } from './run-state';
import { ReachedNote } from './reached';
import { Sight } from './sight';
import { Throttle } from './throttle';
import { tokenWord } from './sequence';
import { trainerFailure } from './failures';

type LearnWord = LearnKey extends `learn.${infer W}` ? W : never;

export interface LearnHost extends ViewHost<LearnPlace> {
  /** The trainer module on the page, for where no worker can be started. */
  loadTrainer(): Promise<T.TrainerModule>;
}

/** The least time between two drawings of the trainer's updates: ten a second. */
const DRAW_MS = 100;

export class LearnView {
  private el: HTMLElement = h('section');
  private lang = '';
  private trainer: TrainerLink | null;
  private run = 0;
  private readonly training = new RunState(
    (request) => this.trainer?.send({ ...request, run: this.run }),
    () => (this.state.reached === null ? this.target : null),
  );
  private readonly sight = new Sight((inSight) => {
    this.training.sighted(inSight);
    this.redrawButtons();
  });
  /** What is known of the run: the view draws it. */
  private readonly state = new LearnState();
  private readonly drawing = new Throttle(DRAW_MS, () => this.redraw());
  /** The heads the reader broke, and the trainer's numbers without them. */
  private readonly breaking = new Breaking();
  private parts!: {
    form: LearnForm;
    scrubber: Scrubber;
    tryPanel: TryPanel;
    actions: Actions;
    status: HTMLElement;
    reached: ReachedNote;
    first: HTMLElement;
    meanings: HTMLElement;
    note: HTMLElement;
    loss: Curve;
    accuracy: Curve;
    table: CurveTable;
    heads: HeadGrid;
  };

  /** What the opening link held of its model, for the first model only. */
  private opening: ModelInLink;

  constructor(
    private readonly host: LearnHost,
    private place: LearnPlace,
  ) {
    this.opening = new ModelInLink(place);
    this.trainer = startTrainer((reply) => this.receive(reply), host.loadTrainer);
  }

  /** After a mount of the page: the view below the header, worded in the page's language. */
  attach(): void {
    const lang = this.host.lang();
    if (lang !== this.lang || !this.el.isConnected) {
      const fresh = this.lang === '';
      this.lang = lang;
      this.build();
      if (fresh) this.reset();
      else {
        for (const row of this.state.progress.rows) this.parts.table.add(...row, this.lang);
        this.redraw();
      }
    }
    const header = this.host.root().querySelector('header.top');
    if (header) header.after(this.el);
    else this.host.root().prepend(this.el);
    this.sight.watch(this.el);
  }

  dispose(): void {
    this.drawing.stop();
    this.sight.dispose();
    this.parts?.scrubber.dispose();
    this.trainer?.stop();
    this.trainer = null;
    this.el.remove();
  }

  /** A message of the Learn view's section (learn.<word>). */
  private say(word: LearnWord, params: Record<string, string | number> = {}): string {
    return translator(this.lang)(`learn.${word}` as const, params);
  }

  private build(): void {
    this.parts?.scrubber.dispose();
    const actions = new Actions(this.lang, (action) => this.act(action));
    const close = h('button', {
      class: 'btn learn-close',
      text: this.say('close'),
      attrs: { type: 'button', 'data-learn-close': '' },
    });
    close.addEventListener('click', () => {
      const root = this.host.root();
      this.host.place(null);
      (root.querySelector('[data-learn-open]') as HTMLElement | null)?.focus();
    });
    const title = h('h2', { text: this.say('title'), attrs: { id: 'learn-title' } });
    this.parts = {
      form: new LearnForm(this.lang, this.place, (place) => this.change(place)),
      scrubber: new Scrubber(this.lang, this.state.timeline, () => this.redraw()),
      tryPanel: new TryPanel(
        this.lang,
        (tokens) => this.trainer?.send({ type: 'try', run: this.run, tokens }),
        (head, labels, steps) => {
          this.host.show(headState(head, labels, this.lang));
          this.parts.note.textContent = this.say('tryOpened', { layer: head.layer + 1, head: head.head + 1, n: steps });
        },
      ),
      actions,
      status: h('p', { class: 'learn-status', attrs: { 'data-learn-status': '' } }),
      reached: new ReachedNote(this.lang, () => this.act('train')),
      first: h('p', { class: 'learn-first', attrs: { 'data-learn-first': '' } }),
      meanings: h('p', { class: 'learn-note', attrs: { 'data-learn-meanings': '' } }),
      note: h('p', { class: 'learn-note', attrs: { role: 'status', 'data-learn-note': '' } }),
      loss: new Curve(this.say('lossCurve'), null, (y) => decimals(y, 2, this.lang)),
      accuracy: new Curve(this.say('accuracyCurve'), 1, (y) => percent(y, 0, this.lang)),
      table: new CurveTable(this.say('tableCaption'), [this.say('tableStep'), this.say('loss'), this.say('accuracy')]),
      heads: new HeadGrid(
        {
          name: 'learn',
          form: tableForm(this.lang),
          toggles: true,
          words: {
            caption: (layer, head, score) =>
              this.say('head', { layer, head }) +
              ' · ' +
              this.say('score', { score: score === undefined ? '—' : decimals(score, 2, this.lang) }),
            press: (layer, head) => this.say('breakName', { layer, head }),
            button: this.say('breakButton'),
          },
        },
        (layer, head) => this.toggleHead(layer, head),
      ),
    };
    const p = this.parts;
    this.el = h(
      'section',
      { class: 'learn', attrs: { 'data-learn': '', 'aria-labelledby': 'learn-title' } },
      h('div', { class: 'learn-top' }, title, close),
      h('p', { class: 'learn-intro', text: this.say('intro') }),
      this.trainer?.inPage ? h('p', { class: 'learn-note', text: this.say('inPage'), attrs: { 'data-learn-where': '' } }) : null,
      p.form.setup,
      p.form.size,
      h('div', { class: 'learn-actions' }, ...actions.list, p.status),
      p.reached.el,
      p.note,
      h(
        'div',
        { class: 'learn-results' },
        h(
          'div',
          { class: 'learn-curves' },
          h('h3', { text: this.say('curves') }),
          h('figure', {}, p.loss.el, h('figcaption', { text: this.say('lossCurve') })),
          h('figure', {}, p.accuracy.el, h('figcaption', { text: this.say('accuracyCurve') })),
          p.first,
          p.meanings,
          h(
            'details',
            { class: 'learn-numbers' },
            h('summary', { text: this.say('tableCaption') }),
            h('p', { class: 'learn-note', text: this.say('tableNote') }),
            p.table.el,
          ),
        ),
        h(
          'div',
          {},
          h('h3', { text: this.say('headsTitle') }),
          h('p', { class: 'learn-note', text: this.say('headsNote') }),
          p.heads.el,
          this.breaking.el,
          p.scrubber.el,
        ),
      ),
      p.tryPanel.el,
    );
    this.showReached();
    const { made, tried } = this.state;
    if (made) p.tryPanel.reset(made.tokens, made.seqLen, SETUPS[this.task].probe, this.task);
    if (tried) p.tryPanel.show(tried);
  }

  private change(place: LearnPlace): void {
    this.place = place;
    this.host.place(place);
    this.reset();
  }

  /** Breaks a head, or mends it: the worker measures the model without the broken ones. */
  private toggleHead(layer: number, head: number): void {
    if (!this.trainer || !this.state.last) return;
    this.breaking.toggle(layer, head);
    // Breaking is done to the model as it is now, so the timeline comes back to it.
    this.parts.scrubber.follow();
    this.trainer.send({ type: 'ablate', run: this.run, heads: this.breaking.heads });
    this.redraw();
  }

  private act(action: Action): void {
    if (action === 'reset') {
      this.place = this.parts.form.place(); // a new model: the link's steps and weights go
      this.host.place(this.place);
      return this.reset();
    }
    if (!this.trainer) return;
    if (action === 'share') return this.trainer.send({ type: 'save', run: this.run });
    this.training.pressed(action);
    this.showReached();
    this.redrawButtons();
    this.parts.actions.focusAfter(action);
  }

  /** A new model from the seed: step 0, and the same first loss as every run of this config. */
  private reset(): void {
    this.run += 1;
    this.training.reset();
    this.state.clear();
    this.breaking.clear();
    this.parts.scrubber.follow();
    this.parts.table.clear();
    this.parts.heads.clear();
    this.parts.note.textContent = '';
    this.parts.reached.clear();
    if (this.trainer) {
      this.parts.status.textContent = this.say('starting');
      const c = this.parts.form.config();
      const { weights, trained } = this.run === 1 ? this.opening.asked() : {};
      this.trainer.send({ type: 'create', run: this.run, config: c, probe: SETUPS[c.task].probe, weights, trained });
    }
    this.redraw();
  }

  private receive(m: Reply): void {
    if (m.run !== this.run && m.run !== -1) return;
    if (m.type === 'error') {
      this.training.running = false;
      this.state.failed = true;
      this.parts.note.textContent = this.say('failed', { message: trainerFailure(this.lang, m.error) });
    } else if (m.type === 'created') {
      const probe = SETUPS[this.task].probe;
      this.state.created(m, probe);
      this.parts.tryPanel.reset(m.tokens, m.seqLen, probe, this.task);
      explainMeasures(this.parts.loss, this.parts.meanings, m.tokens.length, this.lang);
      this.parts.status.dataset.parameters = String(m.parameters);
      // A link's steps: the model it held, or the same model trained again from its seed.
      const until = this.run === 1 ? this.opening.created(m, (text) => (this.parts.note.textContent = text), this.lang) : null;
      // A link's autoplay trains the first model at once, unless the reader asked for less motion
      // (and without moving focus: an embed must not pull the host page's scroll to itself).
      const autoplay = this.place.autoplay && this.run === 1 && !matchMedia('(prefers-reduced-motion: reduce)').matches;
      if (until !== null || autoplay) this.training.start(this.sight.inSight, until);
    } else if (m.type === 'ablation') {
      this.breaking.take(m);
    } else if (m.type === 'saved') {
      this.place = this.opening.saved(this.place, m, (text) => (this.parts.note.textContent = text), this.lang);
      this.host.place(this.place);
    } else if (m.type === 'tried') {
      this.state.tried = m;
      this.parts.tryPanel.show(m);
    } else if (m.type === 'state') {
      if (this.training.follow(m.running, m.asked)) this.stepped(m.steps);
    } else {
      this.take(m);
    }
    this.drawing.soon(); // what the reader does is drawn at once; the trainer's updates, at most ten a second
  }

  private take(u: Update): void {
    const { row } = this.state.take(u, this.target, this.opening.loadedAt);
    if (row) this.parts.table.add(...row, this.lang);
    const pauseFocused = document.activeElement === this.parts.actions.buttons.pause;
    if (this.training.follow(u.running, u.asked, u.stopped)) this.stepped(u.steps);
    this.showReached();
    if (pauseFocused && this.training.stoppedAtTarget) {
      // Pause is disabled now: focus goes on to the button that trains on, not to the page's start.
      this.redrawButtons();
      this.parts.reached.focus();
    }
    if (u.diverged) {
      this.parts.note.textContent = this.say('diverged', { message: trainerFailure(this.lang, u.diverged) });
    }
  }

  /** Not training (paused, a step, a link's step or the target reached): the link keeps the model's steps. */
  private stepped(steps: number): void {
    this.place = this.opening.stepped(this.place, steps);
    this.host.place(this.place);
  }

  private showReached(): void {
    const reached = this.state.reached;
    if (reached === null) this.parts.reached.clear();
    else this.parts.reached.show(this.target, reached, this.training.stoppedAtTarget);
  }

  private get task(): TaskName {
    return this.place.task as TaskName;
  }

  /** The task's held-out accuracy to reach. */
  private get target(): number {
    return SETUPS[this.task].target;
  }

  private redraw(): void {
    const p = this.parts;
    const { progress, formed, status } = this.state;
    p.loss.draw(progress.lossSteps, progress.losses);
    p.accuracy.draw(progress.accSteps, progress.accuracies);
    p.scrubber.redraw(this.state.steps);
    p.loss.mark(formed, p.scrubber.step);
    p.accuracy.mark(formed, p.scrubber.step);
    p.status.dataset.steps = String(this.state.steps);
    p.status.dataset.model = status ? 'ready' : 'pending';
    p.status.dataset.run = this.training.word;
    if (status) {
      const bits = [this.say('steps', { n: status.steps })];
      if (status.speed > 0) bits.push(this.say('speed', { n: status.speed }));
      bits.push(this.say('accuracy') + ' ' + percent(status.accuracy, 1, this.lang));
      p.status.textContent = bits.join(' · ');
    }
    // The heads as the timeline shows them: a snapshot, or the model as it is now.
    const shown = this.state.shown(p.scrubber.step);
    if (shown) {
      const words = this.state.tokens.map((t) => tokenWord(this.lang, t));
      p.heads.draw(shown.weights, words, shown.headScores);
      p.heads.el.dataset.step = String(shown.step);
    }
    p.heads.press(this.breaking.heads.map(([layer, head]) => ({ layer, head })));
    this.breaking.draw(this.state.last, this.lang);
    const first = progress.firstLoss;
    p.first.textContent = first === null ? '' : this.say('firstLoss', { loss: decimals(first, 4, this.lang) });
    p.first.dataset.loss = first === null ? '' : String(first);
    this.redrawButtons();
  }

  private redrawButtons(): void {
    const live = this.trainer !== null && !this.state.failed;
    const made = this.state.last !== null;
    this.parts.actions.draw({ live, trainer: this.trainer !== null, running: this.training.running, made });
  }
}
