// The state in the link and in storage: read at the start, written back as the reader edits.
// The embedding keys (how a host frames the page) ride in the same link; they are kept here,
// apart from the reader's state, and never enter undo or storage.
import { t } from '../i18n';
import { defaults, CAPS, type State } from '../state/state';
import { parse, serialise } from '../state/link';
import { splitEmbed, serialiseEmbed, embedDefaults, type EmbedOptions } from '../state/embed-options';
import { readStored, writeStored } from '../state/storage';

/** How the page is framed: embed=1 in the link, or embed.html (<html data-embed="1">). */
let embed: EmbedOptions = embedDefaults();
/** Embed mode's link to the full page, kept pointing at the current state. */
let fullLink: HTMLAnchorElement | null = null;

/** The embedding options the page was opened with. */
export function embedOptions(): EmbedOptions {
  return embed;
}

/** The link to the full page that embed mode shows, kept pointing at the current state. */
export function setFullLink(a: HTMLAnchorElement | null): void {
  fullLink = a;
}

/**
 * The state a link carries: the hash through the state table (whitelisted, validated, capped).
 * `carried`: the link has a hash at all, so it (even when broken) wins over the stored state.
 */
export function readLink(): { state: State; rejected: string[]; carried: boolean } {
  const hash = location.hash.replace(/^#/, '');
  const split = splitEmbed(hash);
  embed = { ...split.options, embed: split.options.embed || document.documentElement.dataset.embed === '1' };
  const r = parse(split.rest);
  return { state: r.state, rejected: [...split.rejected, ...r.rejected], carried: hash !== '' };
}

export type NoticeKind = 'link' | 'stored';

/**
 * The state the page starts from: the link's when it has one; else the one stored by the last
 * visit. An embedded figure never reads storage: it shows what its author chose.
 */
export function initialState(link: ReturnType<typeof readLink>): { state: State; notice: NoticeKind | null } {
  if (link.carried || embed.embed) return { state: link.state, notice: link.rejected.length ? 'link' : null };
  const stored = readStored();
  if (stored.kind === 'ok') return { state: stored.state, notice: null };
  return { state: link.state, notice: stored.kind === 'broken' ? 'stored' : null };
}

/** Keeps the state: in the link, and (unless embedded) in the browser's storage for the next visit. */
export function keep(state: State): void {
  const text = serialise(state, t); // once: a state of large pasted matrices is 300,000 characters
  writeLink(text);
  if (!embed.embed) writeStored(text);
}

/**
 * What an undo step holds: the state without the pointed-at cell and the language, which are not
 * edits (pointing at a number must not add a step, nor undo switch the language back).
 */
export function historyText(state: State): string {
  return serialise({ ...state, focus: null, lang: '' }, t);
}

/** The link's text for a serialised state: the state and the embedding keys. */
export function linkText(stateText: string): string {
  const e = serialiseEmbed(embed);
  return stateText + (e ? '&' + e : '');
}

/** Writes the state into the link without a history entry, so a copied address reproduces it. */
export function writeLink(stateText: string): void {
  if (fullLink) fullLink.href = 'index.html#' + stateText;
  let text = linkText(stateText);
  // A state too long for a link (large pasted matrices) leaves the address bare, so a reload
  // restores it from storage rather than from an older link; the share dialog says why.
  if (text.length > CAPS.link) text = '';
  const now = location.hash.replace(/^#/, '');
  if (now === text || (now === '' && text === serialise(defaults(), t))) return;
  try {
    history.replaceState(history.state, '', text ? '#' + text : location.pathname + location.search);
  } catch {
    // A sandboxed iframe may refuse; the page works the same without the link.
  }
}
