// The state in the link and in storage: read at the start, written back as the reader edits.
// The link's other keys (how a host frames the page, a lesson's place, the animation's frame, the
// open view's keys: state/link-extras.ts) ride in the same link; they are kept here, apart from
// the reader's state, and never enter undo or storage.
import { t, translator, resolveLanguage } from '../i18n';
import { preset, relabel } from '../state/presets';
import { defaults, CAPS, type State } from '../state/state';
import { parse, serialise } from '../state/link';
import { splitEmbed, type EmbedOptions } from '../state/embed-options';
import { readStored, writeStored, storedLanguage } from '../state/storage';
import { serialiseExtras, splitExtras, type Extras } from '../state/link-extras';

/**
 * The link's other keys as it has them now: the embedding options the page was opened with (also
 * embed.html's own, <html data-embed="1">), a lesson's place, the animation's frame, the open
 * view's keys. The parts that own them set them here, and the next write says so.
 */
export const linkExtras: Extras = splitExtras('').extras;
/** The embedding options the page was opened with. */
export function embedOptions(): EmbedOptions {
  return linkExtras.embed;
}

/** Embed mode's link to the full page, kept pointing at the current state. */
let fullLink: HTMLAnchorElement | null = null;

/**
 * The hash last read or written here. Another one is a link opened since (its hashchange event
 * is still to come), which a pending write of the old state must not overwrite.
 */
let known: string | null = null;

/** The link as it is now has been read (it said what the page shows already). */
export function seenLink(): void {
  known = location.hash.replace(/^#/, '');
}

/** The link to the full page that embed mode shows, kept pointing at the current state. */
export function setFullLink(a: HTMLAnchorElement | null): void {
  fullLink = a;
}

/**
 * The state a link carries: the hash through the state table (whitelisted, validated, capped).
 * `carried`: the link sets the playground, so it (even when broken) wins over the stored state. A
 * link that only opens the Learn view (`#view=learn&task=…`, as a post or a hand writes it) does
 * not: the playground below the view goes on from the reader's own state, which it must not replace.
 */
export function readLink(): { state: State; rejected: string[]; carried: boolean } {
  const hash = location.hash.replace(/^#/, '');
  known = hash;
  const split = splitExtras(hash);
  Object.assign(linkExtras, split.extras);
  // embed.html is in embed mode without the key (its options are a fresh object each read).
  if (document.documentElement.dataset.embed === '1') linkExtras.embed.embed = true;
  const r = parse(withQueryLanguage(split.rest, location.search));
  const rejected = [...split.rejected, ...r.rejected];
  const own = [...new URLSearchParams(split.rest).keys()].some((k) => k !== 'ver' && k !== 'lang');
  return { state: r.state, rejected, carried: hash !== '' && (linkExtras.view === null || own || rejected.length > 0) };
}

/**
 * `?lang=zh-CN` asks for a language as `#lang=zh-CN` does (a link the hash does not carry, such as
 * one typed by hand or made by a site that keeps its own hash); the hash's own wins.
 */
function withQueryLanguage(rest: string, search: string): string {
  const lang = new URLSearchParams(search).get('lang');
  if (!lang || new URLSearchParams(rest).has('lang')) return rest;
  return (rest ? rest + '&' : '') + 'lang=' + encodeURIComponent(lang);
}

/**
 * The languages the start may word the page in, whose catalogs must be loaded first: the link's
 * (hash or query), the last visit's and the browser's.
 */
export function startLanguages(): string[] {
  const text = location.hash.replace(/^#/, '');
  const hash = new URLSearchParams(text).get('lang');
  const query = new URLSearchParams(location.search).get('lang');
  // An embedded figure never touches storage (initialState), not even to read a language.
  const embedded = splitEmbed(text).options.embed || document.documentElement.dataset.embed === '1';
  const asked = [hash, query, embedded ? '' : storedLanguage(), navigator.language].filter((x): x is string => !!x);
  return [...new Set(asked.map(resolveLanguage))];
}

export type NoticeKind = 'link' | 'stored';

/**
 * The state the page starts from: the link's when it has one; else the one stored by the last
 * visit. An embedded figure never reads storage: it shows what its author chose.
 */
export function initialState(link: ReturnType<typeof readLink>): { state: State; notice: NoticeKind | null } {
  if (link.carried || linkExtras.embed.embed) return { state: link.state, notice: link.rejected.length ? 'link' : null };
  const stored = readStored();
  if (stored.kind === 'ok') return { state: continued(stored.state, link), notice: null };
  // A first visit opens on the painting: one query moves the weight from the person to the bird,
  // which is the point of attention in one figure.
  const lang = link.state.lang;
  return {
    state: { ...preset('painting', translator(lang || navigator.language)), lang },
    notice: stored.kind === 'broken' ? 'stored' : null,
  };
}

/**
 * The reader's own state, for a link that does not set the playground: in the link's language
 * (`lang`, `?lang=`) when it names one, over the one the state was kept in.
 */
export function continued(own: State, link: ReturnType<typeof readLink>): State {
  const asked = link.state.lang;
  return asked ? inLanguage(own, own.lang || navigator.language, asked) : own;
}

/** `s`, written in `from`, shown in `lang` (or the browser's language): what its preset or the defaults wrote, translated. */
function inLanguage(s: State, from: string, lang: string): State {
  return { ...relabel(s, translator(from), translator(lang || navigator.language)), lang };
}

/** Keeps the state: in the link, and (unless embedded) in the browser's storage for the next visit. */
export function keep(state: State): void {
  const text = serialise(state, t); // once: a state of large pasted matrices is 300,000 characters
  writeLink(text);
  if (!linkExtras.embed.embed) writeStored(text);
}

/** Writes the link alone: for what is not the reader's playground (the Learn view's keys), storage stays. */
export function keepLink(state: State): void {
  writeLink(serialise(state, t));
}

/**
 * What an undo step holds: the state without the pointed-at cell and the language, which are not
 * edits (pointing at a number must not add a step, nor undo switch the language back).
 */
export function historyText(state: State): string {
  return serialise({ ...state, focus: null, lang: '' }, t);
}

/** The link's text for a serialised state: the state, then the other keys (state/link-extras.ts). */
export function linkText(stateText: string): string {
  const extra = serialiseExtras(linkExtras);
  return stateText + (extra ? '&' + extra : '');
}

/** Writes the state into the link without a history entry, so a copied address reproduces it. */
export function writeLink(stateText: string): void {
  if (fullLink) fullLink.href = 'index.html#' + stateText;
  let text = linkText(stateText);
  // A state too long for a link (large pasted matrices) leaves the address bare, so a reload
  // restores it from storage rather than from an older link; the share dialog says why.
  if (text.length > CAPS.link) text = '';
  const now = location.hash.replace(/^#/, '');
  if (known !== null && now !== known) return;
  if (now === text || (now === '' && text === serialise(defaults(), t))) return;
  try {
    history.replaceState(history.state, '', text ? '#' + text : location.pathname + location.search);
    known = text;
  } catch {
    // A sandboxed iframe may refuse; the page works the same without the link.
  }
}
