// The Learn view's set-up: the task with its sentence, example and pattern, and the model's size,
// learning rate and seed. It turns the fields into the trainer's config and into the link's place
// (which writes only what differs from the task's own size).
import { h } from '../views/dom';
import { D_MODELS, type LearnPlace } from '../state/learn-link';
import { percent, translator, type LearnKey } from '../i18n';
import { DEFAULT_LEARNING_RATE, SETUPS, TASKS, type TaskName } from './tasks';

type Field = 'task' | 'layers' | 'heads' | 'dModel' | 'mlp' | 'lr' | 'seed';

const LABELS: Record<Field, LearnKey> = {
  task: 'learn.task',
  layers: 'learn.layers',
  heads: 'learn.heads',
  dModel: 'learn.dModel',
  mlp: 'learn.mlp',
  lr: 'learn.rate',
  seed: 'learn.seed',
};

export interface LearnConfig {
  task: TaskName;
  layers: number;
  heads: number;
  dModel: number;
  mlp: 'none' | 'relu' | 'gelu';
  learningRate: number;
  seed: number;
}

export class LearnForm {
  /** The task and what it is about. */
  readonly setup: HTMLElement;
  /** The model's size, rate and seed. */
  readonly size: HTMLElement;
  private readonly fields: Record<Field, HTMLInputElement | HTMLSelectElement>;
  private readonly about = h('div', { class: 'learn-about', attrs: { 'data-learn-about': '' } });

  /** `changed` runs after the reader changes a field, with the place the link should now hold. */
  constructor(
    private readonly lang: string,
    place: LearnPlace,
    changed: (place: LearnPlace) => void,
  ) {
    const size = SETUPS[place.task as TaskName].size;
    const select = (field: Field, options: [string, string][], value: string) => {
      const el = h('select', { attrs: { 'data-learn-field': field } });
      for (const [v, text] of options) el.append(h('option', { text, attrs: { value: v } }));
      el.value = value;
      return el;
    };
    const counts = (n: number): [string, string][] => Array.from({ length: n }, (_, i) => [String(i + 1), String(i + 1)]);
    this.fields = {
      task: select(
        'task',
        TASKS.map((name) => [name, translator(lang)(`learn.task.${name}.name` as const)]),
        place.task,
      ),
      layers: select('layers', counts(4), String(place.layers ?? size.layers)),
      heads: select('heads', counts(4), String(place.heads ?? size.heads)),
      dModel: select(
        'dModel',
        D_MODELS.map((d) => [String(d), String(d)]),
        String(place.dModel ?? size.dModel),
      ),
      mlp: select(
        'mlp',
        [
          ['none', '—'],
          ['relu', 'ReLU'],
          ['gelu', 'GELU'],
        ],
        place.mlp ?? size.mlp,
      ),
      lr: h('input', {
        attrs: { type: 'number', min: '0.0001', max: '0.1', step: '0.001', 'data-learn-field': 'lr', inputmode: 'decimal' },
      }),
      seed: h('input', { attrs: { type: 'number', min: '0', max: '999999999', step: '1', 'data-learn-field': 'seed' } }),
    };
    this.fields.lr.value = String(place.lr ?? DEFAULT_LEARNING_RATE);
    this.fields.seed.value = String(place.seed);
    for (const [field, el] of Object.entries(this.fields) as [Field, HTMLInputElement | HTMLSelectElement][]) {
      el.addEventListener('change', () => {
        if (field === 'task') this.takeTaskSize();
        this.describe();
        changed(this.place());
      });
    }
    const label = (field: Field) =>
      h('label', { class: 'learn-field' }, h('span', { text: translator(lang)(LABELS[field]) }), this.fields[field]);
    this.setup = h('div', { class: 'learn-setup' }, label('task'), this.about);
    this.size = h(
      'fieldset',
      { class: 'learn-size' },
      h('legend', { text: translator(lang)('learn.size') }),
      ...(['layers', 'heads', 'dModel', 'mlp', 'lr', 'seed'] as Field[]).map(label),
    );
    this.describe();
  }

  get task(): TaskName {
    return this.fields.task.value as TaskName;
  }

  /** The trainer's config; a rate or seed out of range gives the default. */
  config(): LearnConfig {
    const f = this.fields;
    const lr = Number(f.lr.value);
    const seed = Math.trunc(Number(f.seed.value));
    return {
      task: this.task,
      layers: Number(f.layers.value),
      heads: Number(f.heads.value),
      dModel: Number(f.dModel.value),
      mlp: f.mlp.value as LearnConfig['mlp'],
      learningRate: Number.isFinite(lr) && lr > 0 && lr <= 0.1 ? lr : DEFAULT_LEARNING_RATE,
      seed: Number.isFinite(seed) && seed >= 0 && seed < 1e9 ? seed : 1,
    };
  }

  /** The link's place for the config: the task and seed, and what differs from the task's size. */
  place(): LearnPlace {
    const c = this.config();
    const size = SETUPS[c.task].size;
    const place: LearnPlace = { task: c.task, seed: c.seed };
    if (c.layers !== size.layers) place.layers = c.layers;
    if (c.heads !== size.heads) place.heads = c.heads;
    if (c.dModel !== size.dModel) place.dModel = c.dModel;
    if (c.mlp !== size.mlp) place.mlp = c.mlp;
    if (c.learningRate !== DEFAULT_LEARNING_RATE) place.lr = c.learningRate;
    return place;
  }

  /** A new task starts from its own size. */
  private takeTaskSize(): void {
    const size = SETUPS[this.task].size;
    const f = this.fields;
    f.layers.value = String(size.layers);
    f.heads.value = String(size.heads);
    f.dModel.value = String(size.dModel);
    f.mlp.value = size.mlp;
  }

  private describe(): void {
    const say = translator(this.lang);
    const task = (field: 'sentence' | 'example' | 'pattern') => say(`learn.task.${this.task}.${field}` as const);
    const target = percent(SETUPS[this.task].target, 0, this.lang);
    this.about.replaceChildren(
      h('p', { text: task('sentence') }),
      h('p', { text: say('learn.example', { example: task('example') }) }),
      h('p', { text: say('learn.expect', { pattern: task('pattern') }) + ' ' + say('learn.target', { target }) }),
    );
  }
}
