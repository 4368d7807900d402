// The text a reader copies out of the share dialog: the link, an iframe (with the resize script),
// the web component, a Hugo shortcode and an image with a link. Pure functions of the page's
// address, the state and the author's choices, so they are tested without a browser.
import { serialiseEmbed, type EmbedOptions } from '../state/embed-options';

/** What the author chose for the embed: the steps, the controls, the theme, and its height. */
export type EmbedChoice = Pick<EmbedOptions, 'views' | 'controls' | 'theme'> & { height: number };

export const HEIGHTS = { min: 200, max: 2000, initial: 520 } as const;

/**
 * Where the embeds point when the page was opened from a file: a file address would work on this
 * computer only, so the snippets name a host the author replaces (share.fileHint says so).
 */
export const FILE_HOST = 'https://your-site.example/attention-playground/';

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The embedding keys of a choice, as a link writes them (defaults left out). */
export function embedKeys(choice: EmbedChoice): string {
  return serialiseEmbed({ embed: true, views: choice.views, controls: choice.controls, theme: choice.theme });
}

/**
 * Every snippet for the state `state`, with the page's own address as the base. The link opens
 * the page it was made on (index.html, or the one-file attention-playground.html, which may be
 * all a reader has); the embeds use embed.html beside it, or FILE_HOST from a file.
 */
export function snippets(base: string, state: string, title: string, choice: EmbedChoice): Record<string, string> {
  const here = new URL(base);
  here.hash = '';
  const named = /\/[^/]+\.html?$/i.test(here.pathname) && !/\/embed\.html?$/i.test(here.pathname);
  const page = (named ? here.href : new URL('index.html', here).href) + '#' + state;
  const host = here.protocol === 'file:' ? FILE_HOST : here.href;
  const embed = new URL('embed.html', host).href + '#' + state + '&' + embedKeys(choice);
  const height = String(choice.height);
  const component = [`state="${attr(state)}"`, `views="${choice.views.join(',')}"`, `controls="${choice.controls}"`];
  if (choice.theme !== 'auto') component.push(`theme="${choice.theme}"`);
  component.push(`height="${height}"`);
  return {
    link: page,
    iframe:
      `<iframe data-attention-playground src="${attr(embed)}" title="${attr(title)}" width="100%" height="${height}" frameborder="0" loading="lazy"></iframe>\n` +
      `<script src="${attr(new URL('embed-resize.js', host).href)}" async></script>`,
    component:
      `<script src="${attr(new URL('embed.js', host).href)}" defer></script>\n` +
      `<attention-playground ${component.join(' ')}></attention-playground>`,
    hugo: `{{< attention-playground src="${embed.replace(/"/g, '%22')}" >}}`,
    image: `[![${title}](attention-figure.png)](${page})`,
  };
}

/** The preview's address: this page itself in embed mode, which needs no other file beside it. */
export function previewAddress(base: string, state: string, choice: EmbedChoice): string {
  const here = new URL(base);
  here.hash = '';
  return here.href + '#' + state + '&' + embedKeys(choice);
}
