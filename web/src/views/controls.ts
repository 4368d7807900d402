// Small form controls that report changes and can be set from the state (for presets and
// links). Radio groups are real radio inputs in a fieldset, so arrow keys work as everywhere.
import { h, uid } from './dom';

export interface Control<T> {
  el: HTMLElement;
  set(value: T): void;
}

export function radios<T extends string>(
  legend: string,
  name: string,
  options: ReadonlyArray<[T, string]>,
  change: (v: T) => void,
): Control<T> {
  const group = uid(name);
  const inputs = options.map(([value, label]) => {
    const input = h('input', { attrs: { type: 'radio', name: group, value } });
    input.addEventListener('change', () => {
      if (input.checked) change(value);
    });
    return [value, input, h('label', { class: 'seg' }, input, h('span', { text: label }))] as const;
  });
  const el = h(
    'fieldset',
    { class: 'control segmented', attrs: { 'data-control': name } },
    h('legend', { text: legend }),
    h('div', { class: 'seg-row' }, ...inputs.map((x) => x[2])),
  );
  return {
    el,
    set: (v) => {
      for (const [value, input] of inputs) input.checked = value === v;
    },
  };
}

export function select<T extends string>(
  label: string,
  name: string,
  options: ReadonlyArray<[T, string]>,
  change: (v: T) => void,
): Control<T> & { select: HTMLSelectElement } {
  const id = uid(name);
  const sel = h(
    'select',
    { attrs: { id, 'data-control': name } },
    ...options.map(([value, text]) => h('option', { text, attrs: { value } })),
  );
  sel.addEventListener('change', () => change(sel.value as T));
  const el = h('div', { class: 'control' }, h('label', { text: label, attrs: { for: id } }), sel);
  return {
    el,
    select: sel,
    set: (v) => {
      if (sel.value !== v) sel.value = v;
    },
  };
}

/** A slider on a log scale, from `min` to `max`, with the value printed beside it. */
export function logSlider(
  label: string,
  name: string,
  min: number,
  max: number,
  change: (v: number, e?: Event) => void,
  format: (v: number) => string,
  symbol: string,
): Control<number> & { input: HTMLInputElement } {
  const id = uid(name);
  const input = h('input', {
    attrs: { id, type: 'range', min: String(Math.log10(min)), max: String(Math.log10(max)), step: '0.01', 'data-control': name },
  });
  const out = h('output', { attrs: { for: id } });
  // A screen reader hears the value as the output shows it ("T = 20"), not the slider's log10.
  let current = min; // the value as set, which the slider's rounded log10 only approximates
  const show = (v: number) => {
    current = v;
    out.textContent = format(v);
    input.setAttribute('aria-valuetext', `${symbol} = ${format(v)}`);
  };
  const pick = (v: number, e: Event) => {
    input.value = String(Math.log10(v));
    show(v);
    change(v, e);
  };
  input.addEventListener('input', (e) => {
    const v = Number((10 ** Number(input.value)).toPrecision(3));
    show(v);
    change(v, e);
  });
  // The arrow keys step through round values (…, 1, 1.5, 2, 3, 5, 7, 10, …) rather than 2 % of a
  // decade a press; Page Up / Down go a decade, Home / End to the ends.
  const stops = roundStops(min, max);
  input.addEventListener('keydown', (e) => {
    const v = current;
    const up = e.key === 'ArrowUp' || e.key === 'ArrowRight',
      down = e.key === 'ArrowDown' || e.key === 'ArrowLeft';
    let next: number | undefined;
    if (up) next = stops.find((x) => x > v * 1.0001);
    else if (down) next = [...stops].reverse().find((x) => x < v * 0.9999);
    else if (e.key === 'PageUp') next = Math.min(max, v * 10);
    else if (e.key === 'PageDown') next = Math.max(min, v / 10);
    else if (e.key === 'Home') next = min;
    else if (e.key === 'End') next = max;
    else return;
    e.preventDefault();
    if (next !== undefined) pick(Number(next.toPrecision(3)), e);
  });
  const el = h(
    'div',
    { class: 'control slider' },
    h('label', { text: label, attrs: { for: id } }),
    h('div', { class: 'slider-row' }, input, out),
  );
  return {
    el,
    input,
    set: (v) => {
      if (Math.abs(10 ** Number(input.value) - v) > v * 0.006) input.value = String(Math.log10(v));
      show(v);
    },
  };
}

/** 1, 1.5, 2, 3, 5 and 7 times each power of ten between `min` and `max`, with both ends. */
export function roundStops(min: number, max: number): number[] {
  const out = new Set<number>([min, max]);
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) {
    for (const m of [1, 1.5, 2, 3, 5, 7]) {
      const x = Number((m * 10 ** e).toPrecision(3));
      if (x >= min && x <= max) out.add(x);
    }
  }
  return [...out].sort((a, b) => a - b);
}

export function numberInput(
  label: string,
  name: string,
  min: number,
  max: number,
  change: (v: number, e?: Event) => void,
): Control<number> {
  const id = uid(name);
  const input = h('input', {
    attrs: { id, type: 'number', min: String(min), max: String(max), step: '1', inputmode: 'numeric', 'data-control': name },
  });
  input.addEventListener('input', (e) => {
    const v = Number(input.value);
    if (input.value !== '' && Number.isInteger(v) && v >= min && v <= max) change(v, e);
  });
  const el = h('div', { class: 'control' }, h('label', { text: label, attrs: { for: id } }), input);
  return {
    el,
    set: (v) => {
      if (document.activeElement !== input) input.value = String(v);
    },
  };
}

export function checkbox(label: string, name: string, change: (v: boolean) => void): Control<boolean> {
  const input = h('input', { attrs: { type: 'checkbox', 'data-control': name } });
  input.addEventListener('change', () => change(input.checked));
  const el = h('label', { class: 'control check' }, input, h('span', { text: label }));
  return {
    el,
    set: (v) => {
      input.checked = v;
    },
  };
}
