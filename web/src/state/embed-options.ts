// How a host page frames the playground: embed mode, the steps shown, the controls, the theme.
// These keys ride in the same link as the state but are not the reader's state: undo, storage
// and presets never touch them.
import { CAPS, bool, oneOf, type Codec } from './state';

export const EMBED_VIEWS = ['formula', 'pipeline', 'scores', 'scaled', 'masked', 'weights', 'output', 'plot'] as const;
export const CONTROLS = ['none', 'minimal', 'all'] as const;
export const THEMES = ['auto', 'light', 'dark'] as const;
export type EmbedView = (typeof EMBED_VIEWS)[number];

export interface EmbedOptions {
  embed: boolean; // the compact layout for an iframe or the web component
  views: EmbedView[]; // the steps it shows, in the page's order
  controls: (typeof CONTROLS)[number]; // none: the figure only; minimal: its explanation and sentence; all: inputs and settings
  theme: (typeof THEMES)[number];
}

export function embedDefaults(): EmbedOptions {
  return { embed: false, views: ['pipeline', 'weights', 'output'], controls: 'minimal', theme: 'auto' };
}

const EMBED_CODECS: { [K in keyof EmbedOptions]: Codec<EmbedOptions[K]> } = {
  embed: bool,
  views: {
    write: (v) => v.join(','),
    read: (s) => {
      const list = s.split(',');
      const ok =
        list.length >= 1 &&
        list.length <= EMBED_VIEWS.length &&
        new Set(list).size === list.length &&
        list.every((x) => (EMBED_VIEWS as readonly string[]).includes(x));
      return ok ? (list as EmbedView[]) : undefined;
    },
  },
  controls: oneOf(CONTROLS),
  theme: oneOf(THEMES),
};
const isEmbedKey = (k: string): k is keyof EmbedOptions => Object.prototype.hasOwnProperty.call(EMBED_CODECS, k);

/**
 * Takes the embedding keys (embed, views, controls, theme) out of a link: the options they set,
 * the rest of the text (the state, for parse()), and the keys that were invalid. Any invalid key
 * gives the default options, as parse() does for the state.
 */
export function splitEmbed(
  serialised: string,
  maxLength = CAPS.link,
): { options: EmbedOptions; rest: string; rejected: string[] } {
  const options = embedDefaults();
  const text = serialised.replace(/^#/, '');
  if (text.length > maxLength || !/(^|&)(embed|views|controls|theme)=/.test(text)) return { options, rest: text, rejected: [] };
  const params = new URLSearchParams(text);
  const rest = new URLSearchParams();
  const rejected: string[] = [];
  const seen = new Set<string>();
  const read: Partial<Record<keyof EmbedOptions, unknown>> = {};
  for (const [key, value] of params) {
    if (!isEmbedKey(key)) {
      rest.append(key, value);
      continue;
    }
    const v = EMBED_CODECS[key].read(value);
    if (v === undefined || seen.has(key)) rejected.push(key);
    else read[key] = v;
    seen.add(key);
  }
  if (!rejected.length) Object.assign(options, read);
  return { options: rejected.length ? embedDefaults() : options, rest: rest.toString(), rejected };
}

/** The embedding keys for a link: nothing when not embedded, else those that differ from the defaults. */
export function serialiseEmbed(o: EmbedOptions): string {
  if (!o.embed) return '';
  const base = embedDefaults();
  const params = new URLSearchParams();
  params.set('embed', '1');
  for (const key of ['views', 'controls', 'theme'] as const) {
    const codec = EMBED_CODECS[key] as Codec<unknown>;
    const value = codec.write(o[key]);
    if (value !== codec.write(base[key])) params.set(key, value);
  }
  return params.toString();
}
