// The Learn view: pick a task and a model, train it in the worker, and watch the loss fall, the
// accuracy rise and the heads' attention on one sequence take the task's pattern. It shows the
// trainer's numbers only; the link keeps the task, the model and the seed, so it retrains the same.
import { h } from '../views/dom';
import type { LearnPlace } from '../state/learn-link';
import { startTrainer, type TrainerLink } from './client';
import { Curve, CurveTable } from './curves';
import { HeadMaps } from './heads';
import { formatNumber } from './format';
import type { Reply, Update } from './protocol';
import { DEFAULT_LEARNING_RATE, SETUPS, TASKS, type TaskName } from './tasks';
import { say, taskWords, type WordKey } from './words';

export interface LearnHost {
  lang(): string;
  root(): HTMLElement;
  /** The view's place for the link, or null when the reader closes it. */
  place(place: LearnPlace | null): void;
}

type Field = 'task' | 'layers' | 'heads' | 'dModel' | 'mlp' | 'lr' | 'seed';

export class LearnView {
  private el: HTMLElement = h('section');
  private lang = '';
  private trainer: TrainerLink | null;
  private run = 0;
  private running = false;
  private steps = 0;
  private tokens: string[] = [];
  private reached: number | null = null;
  // The curves' points, as the trainer gave them: each step's loss, and accuracy per update.
  private lossSteps: number[] = [];
  private losses: number[] = [];
  private accSteps: number[] = [];
  private accuracies: number[] = [];
  private last: Update | null = null;
  private failed = false;
  // The table's rows (step, loss, accuracy), kept to word them again when the language changes.
  private rows: [number, number, number][] = [];
  private parts!: {
    fields: Record<Field, HTMLInputElement | HTMLSelectElement>;
    about: HTMLElement;
    buttons: Record<'train' | 'pause' | 'step' | 'reset', HTMLButtonElement>;
    status: HTMLElement;
    first: HTMLElement;
    note: HTMLElement;
    loss: Curve;
    accuracy: Curve;
    table: CurveTable;
    heads: HeadMaps;
  };

  constructor(
    private readonly host: LearnHost,
    private place: LearnPlace,
  ) {
    this.trainer = startTrainer((reply) => this.receive(reply));
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
        for (const row of this.rows) this.parts.table.add(...row, this.lang);
        this.redraw();
      }
    }
    const header = this.host.root().querySelector('header.top');
    if (header) header.after(this.el);
    else this.host.root().prepend(this.el);
  }

  dispose(): void {
    this.trainer?.stop();
    this.trainer = null;
    this.el.remove();
  }

  private say(key: WordKey, params: Record<string, string | number> = {}): string {
    return say(this.lang, key, params);
  }

  private build(): void {
    const task = this.place.task as TaskName;
    const size = { ...SETUPS[task].size };
    const select = (field: Field, options: [string, string][], value: string) => {
      const el = h('select', { attrs: { 'data-learn-field': field } });
      for (const [v, text] of options) el.append(h('option', { text, attrs: { value: v } }));
      el.value = value;
      return el;
    };
    const counts = (n: number): [string, string][] => Array.from({ length: n }, (_, i) => [String(i + 1), String(i + 1)]);
    const fields: Record<Field, HTMLInputElement | HTMLSelectElement> = {
      task: select(
        'task',
        TASKS.map((name) => [name, taskWords(this.lang, name).name]),
        task,
      ),
      layers: select('layers', counts(4), String(this.place.layers ?? size.layers)),
      heads: select('heads', counts(4), String(this.place.heads ?? size.heads)),
      dModel: select(
        'dModel',
        ['8', '16', '32', '64'].map((d) => [d, d]),
        String(this.place.dModel ?? size.dModel),
      ),
      mlp: select(
        'mlp',
        [
          ['none', '—'],
          ['relu', 'ReLU'],
          ['gelu', 'GELU'],
        ],
        this.place.mlp ?? size.mlp,
      ),
      lr: h('input', {
        attrs: { type: 'number', min: '0.0001', max: '0.1', step: '0.001', 'data-learn-field': 'lr', inputmode: 'decimal' },
      }),
      seed: h('input', { attrs: { type: 'number', min: '0', max: '999999999', step: '1', 'data-learn-field': 'seed' } }),
    };
    fields.lr.value = String(this.place.lr ?? DEFAULT_LEARNING_RATE);
    fields.seed.value = String(this.place.seed);
    const labels: Record<Field, WordKey> = {
      task: 'task',
      layers: 'layers',
      heads: 'heads',
      dModel: 'dModel',
      mlp: 'mlp',
      lr: 'rate',
      seed: 'seed',
    };
    for (const [field, el] of Object.entries(fields) as [Field, HTMLInputElement | HTMLSelectElement][]) {
      el.addEventListener('change', () => this.change(field));
    }
    const label = (field: Field) =>
      h('label', { class: 'learn-field' }, h('span', { text: this.say(labels[field]) }), fields[field]);
    const button = (action: 'train' | 'pause' | 'step' | 'reset') => {
      const b = h('button', { class: 'btn', text: this.say(action), attrs: { type: 'button', 'data-learn-action': action } });
      b.addEventListener('click', () => this.act(action));
      return b;
    };
    const buttons = { train: button('train'), pause: button('pause'), step: button('step'), reset: button('reset') };
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
      fields,
      about: h('div', { class: 'learn-about', attrs: { 'data-learn-about': '' } }),
      buttons,
      status: h('p', { class: 'learn-status', attrs: { 'data-learn-status': '' } }),
      first: h('p', { class: 'learn-first', attrs: { 'data-learn-first': '' } }),
      note: h('p', { class: 'learn-note', attrs: { role: 'status', 'data-learn-note': '' } }),
      loss: new Curve(this.say('lossCurve'), null),
      accuracy: new Curve(this.say('accuracyCurve'), 1),
      table: new CurveTable(this.say('tableCaption'), [this.say('tableStep'), this.say('loss'), this.say('accuracy')]),
      heads: new HeadMaps((layer, head, score) => this.say('head', { layer, head }) + ' · ' + this.say('score', { score })),
    };
    const p = this.parts;
    this.el = h(
      'section',
      { class: 'learn', attrs: { 'data-learn': '', 'aria-labelledby': 'learn-title' } },
      h('div', { class: 'learn-top' }, title, close),
      h('p', { class: 'learn-intro', text: this.say('intro') }),
      h('div', { class: 'learn-setup' }, label('task'), p.about),
      h(
        'fieldset',
        { class: 'learn-size' },
        h('legend', { text: this.say('size') }),
        ...(['layers', 'heads', 'dModel', 'mlp', 'lr', 'seed'] as Field[]).map(label),
      ),
      h('div', { class: 'learn-actions' }, buttons.train, buttons.pause, buttons.step, buttons.reset, p.status),
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
        ),
      ),
    );
    this.describe();
  }

  private describe(): void {
    const task = this.place.task as TaskName;
    const w = taskWords(this.lang, task);
    const target = formatNumber(SETUPS[task].target * 100, 0, this.lang) + ' %';
    this.parts.about.replaceChildren(
      h('p', { text: w.sentence }),
      h('p', { text: this.say('example', { example: w.example }) }),
      h('p', { text: this.say('expect', { pattern: w.pattern }) + ' ' + this.say('target', { target }) }),
    );
  }

  private config() {
    const f = this.parts.fields;
    const task = f.task.value as TaskName;
    const lr = Number(f.lr.value);
    const seed = Math.trunc(Number(f.seed.value));
    return {
      task,
      layers: Number(f.layers.value),
      heads: Number(f.heads.value),
      dModel: Number(f.dModel.value),
      mlp: f.mlp.value as 'none' | 'relu' | 'gelu',
      learningRate: Number.isFinite(lr) && lr > 0 && lr <= 0.1 ? lr : DEFAULT_LEARNING_RATE,
      seed: Number.isFinite(seed) && seed >= 0 && seed < 1e9 ? seed : 1,
    };
  }

  private change(field: Field): void {
    if (field === 'task') {
      // A new task starts from its own size.
      const size = SETUPS[this.parts.fields.task.value as TaskName].size;
      const f = this.parts.fields;
      f.layers.value = String(size.layers);
      f.heads.value = String(size.heads);
      f.dModel.value = String(size.dModel);
      f.mlp.value = size.mlp;
    }
    const c = this.config();
    const size = SETUPS[c.task].size;
    this.place = { task: c.task, seed: c.seed };
    if (c.layers !== size.layers) this.place.layers = c.layers;
    if (c.heads !== size.heads) this.place.heads = c.heads;
    if (c.dModel !== size.dModel) this.place.dModel = c.dModel;
    if (c.mlp !== size.mlp) this.place.mlp = c.mlp;
    if (c.learningRate !== DEFAULT_LEARNING_RATE) this.place.lr = c.learningRate;
    this.host.place(this.place);
    this.describe();
    this.reset();
  }

  private act(action: 'train' | 'pause' | 'step' | 'reset'): void {
    if (action === 'reset') return this.reset();
    if (!this.trainer) return;
    if (action === 'train') this.running = true;
    if (action === 'pause') this.running = false;
    this.trainer.send({ type: action, run: this.run });
    this.redrawButtons();
    // The pressed button is disabled now: focus moves to the one that undoes it.
    const b = this.parts.buttons;
    if (action === 'train') b.pause.focus();
    if (action === 'pause') b.train.focus();
  }

  /** A new model from the seed: step 0, and the same first loss as every run of this config. */
  private reset(): void {
    this.run += 1;
    this.running = false;
    this.failed = false;
    this.steps = 0;
    this.reached = null;
    this.last = null;
    this.lossSteps = [];
    this.losses = [];
    this.accSteps = [];
    this.accuracies = [];
    this.rows = [];
    this.parts.table.clear();
    this.parts.heads.clear();
    this.parts.note.textContent = this.trainer ? '' : this.say('served');
    delete this.parts.note.dataset.reached;
    if (this.trainer) {
      this.parts.status.textContent = this.say('starting');
      const c = this.config();
      this.trainer.send({ type: 'create', run: this.run, config: c, probe: SETUPS[c.task].probe });
    }
    this.redraw();
  }

  private receive(m: Reply): void {
    if (m.run !== this.run && m.run !== -1) return;
    if (m.type === 'error') {
      this.running = false;
      this.failed = true;
      this.parts.note.textContent = this.say('failed', { message: m.message });
    } else if (m.type === 'created') {
      // The probe's tokens as words, for the heatmaps' rows.
      this.tokens = SETUPS[this.place.task as TaskName].probe.map((id) => m.tokens[id] ?? '?');
      this.parts.status.dataset.parameters = String(m.parameters);
    } else {
      this.take(m);
    }
    this.redraw();
  }

  private take(u: Update): void {
    this.last = u;
    const first = u.steps - u.losses.length;
    u.losses.forEach((loss, k) => {
      this.lossSteps.push(first + k + 1);
      this.losses.push(loss);
    });
    this.accSteps.push(u.steps);
    this.accuracies.push(u.accuracy);
    this.steps = u.steps;
    if (u.losses.length) {
      const row: [number, number, number] = [u.steps, u.loss, u.accuracy];
      this.rows.push(row);
      if (this.rows.length > CurveTable.MAX_ROWS) this.rows.splice(1, 1);
      this.parts.table.add(...row, this.lang);
    }
    const target = SETUPS[this.place.task as TaskName].target;
    if (this.reached === null && u.steps > 0 && u.accuracy >= target) {
      this.reached = u.steps;
      this.parts.note.dataset.reached = String(u.steps);
      this.parts.note.textContent = this.say('reached', {
        target: formatNumber(target * 100, 0, this.lang) + ' %',
        step: u.steps,
      });
    }
    if (u.diverged) {
      this.running = false;
      this.parts.note.textContent = this.say('diverged', { message: u.diverged.message });
    }
  }

  private redraw(): void {
    const p = this.parts;
    p.loss.draw(this.lossSteps, this.losses);
    p.accuracy.draw(this.accSteps, this.accuracies);
    const u = this.last;
    p.status.dataset.steps = String(this.steps);
    p.status.dataset.model = this.last ? 'ready' : 'pending';
    if (u) {
      const bits = [this.say('steps', { n: this.steps })];
      if (u.stepsPerSecond > 0) bits.push(this.say('speed', { n: Math.round(u.stepsPerSecond) }));
      bits.push(this.say('accuracy') + ' ' + formatNumber(u.accuracy * 100, 1, this.lang) + ' %');
      p.status.textContent = bits.join(' · ');
      p.heads.draw(u.weights, u.headScores, this.tokens, this.lang);
    }
    p.first.textContent = this.losses.length ? this.say('firstLoss', { loss: formatNumber(this.losses[0], 4, this.lang) }) : '';
    p.first.dataset.loss = this.losses.length ? String(this.losses[0]) : '';
    this.redrawButtons();
  }

  private redrawButtons(): void {
    const b = this.parts.buttons;
    // While a new model is being made the buttons stay: the worker does a press once it is.
    const live = this.trainer !== null && !this.failed;
    b.train.disabled = !live || this.running;
    b.pause.disabled = !live || !this.running;
    b.step.disabled = !live || this.running;
    b.reset.disabled = this.trainer === null;
  }
}
