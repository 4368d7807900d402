// The controls card: how scores are made, scaled, masked and normalised, the projection and
// heads of multi-head attention, what to compare, the numbers toggle. Each control shows the
// state through `b` and changes it only through `set`.
import { h } from './dom';
import { t, num } from '../i18n';
import { CAPS, type State } from '../state/state';
import { radios, select, logSlider, numberInput, checkbox } from './controls';
import type { Bindings } from './bindings';
import { setMask } from '../state/edits';

/** `shape`: the queries and keys the figure has now, [n, m] (a custom mask starts from the causal one). */
export function controlsPanel(
  b: Bindings,
  s: () => State,
  set: (patch: Partial<State>, kind?: string, e?: Event) => void,
  shape: () => [number, number],
): HTMLElement {
  const temperature = logSlider(
    t('controls.temperature'),
    'temperature',
    CAPS.temperatureMin,
    1000,
    (v, e) => set({ temperature: v }, 'temperature', e),
    (v) => num(v),
    'T',
  );
  const temperatureB = logSlider(
    t('controls.temperatureB'),
    'temperatureB',
    CAPS.temperatureMin,
    1000,
    (v, e) => set({ temperatureB: v }, 'temperatureB', e),
    (v) => num(v),
    'T',
  );
  const multi = () => s().mode === 'words' && s().setup === 'self';
  const dkOptions: Array<[string, string]> = [
    ['0', t('controls.dkAuto')],
    ...[1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 512].map((k): [string, string] => [String(k), String(k)]),
  ];
  return h(
    'section',
    { class: 'card controls', attrs: { 'aria-labelledby': 'controls-title' } },
    h('h2', { text: t('controls.title'), attrs: { id: 'controls-title' } }),
    b.sync(
      radios<State['similarity']>(
        t('controls.similarity'),
        'similarity',
        [
          ['dot', t('similarity.dot')],
          ['cosine', t('similarity.cosine')],
        ],
        (v) => set({ similarity: v }),
      ),
      () => s().similarity,
    ),
    b.sync(
      radios<State['scale']>(
        t('controls.scale'),
        'scale',
        [
          ['sqrt', t('scale.sqrt')],
          ['none', t('scale.none')],
          ['temperature', t('scale.temperature')],
        ],
        (v) => set({ scale: v }),
      ),
      () => s().scale,
    ),
    b.showWhen(
      b.sync(temperature, () => s().temperature),
      () => s().scale === 'temperature',
    ),
    b.sync(
      radios<State['mask']>(
        t('controls.mask'),
        'mask',
        [
          ['none', t('mask.none')],
          ['causal', t('mask.causal')],
          ['custom', t('mask.custom')],
        ],
        (v) => {
          const [n, m] = shape();
          set(setMask(s(), v, n, m));
        },
      ),
      () => s().mask,
    ),
    b.showWhen(h('p', { class: 'hint', text: t('mask.customHint') }), () => s().mask === 'custom'),
    b.sync(
      radios<State['normalization']>(
        t('controls.normalization'),
        'normalization',
        [
          ['softmax', t('normalization.softmax')],
          ['sum', t('normalization.sum')],
        ],
        (v) => set({ normalization: v }),
      ),
      () => s().normalization,
    ),
    b.sync(
      select<State['compare']>(
        t('controls.compare'),
        'compare',
        [
          ['off', t('compare.off')],
          ['similarity', t('compare.similarity')],
          ['scale', t('compare.scale')],
          ['normalization', t('compare.normalization')],
          ['temperature', t('compare.temperature')],
        ],
        (v) => set({ compare: v }),
      ),
      () => s().compare,
    ),
    b.showWhen(
      b.sync(temperatureB, () => s().temperatureB),
      () => s().compare === 'temperature',
    ),
    b.sync(
      checkbox(t('controls.numbers'), 'numbers', (v) => set({ numbers: v })),
      () => s().numbers,
    ),
    b.showWhen(
      h(
        'div',
        { class: 'group' },
        // After the basics: where Q, K and V come from is the advanced part of the figure.
        h('p', { class: 'group-title', text: t('controls.advanced') }),
        b.sync(
          radios<State['projection']>(
            t('controls.projection'),
            'projection',
            [
              ['identity', t('projection.identity')],
              ['random', t('projection.random')],
            ],
            (v) => set({ projection: v }),
          ),
          () => s().projection,
        ),
        h(
          'div',
          { class: 'row3' },
          b.sync(
            select(
              t('controls.heads'),
              'heads',
              [1, 2, 3, 4, 8].map((k): [string, string] => [String(k), String(k)]),
              (v) => set({ heads: Number(v), head: 0 }),
            ),
            () => String(s().heads),
          ),
          b.sync(
            select(t('controls.dk'), 'dK', dkOptions, (v) => set({ dK: Number(v) })),
            () => String(s().dK),
          ),
          b.sync(
            numberInput(t('controls.seed'), 'seed', 0, CAPS.seed, (v, e) => set({ seed: v }, 'seed', e)),
            () => s().seed,
          ),
        ),
      ),
      multi,
    ),
  );
}
