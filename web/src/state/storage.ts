// The working state kept in the browser (localStorage), so a reload, or the page opened again
// without a link, continues where the reader stopped. One versioned record under one key:
//   { v: 1, state: "<the serialised state, as in the link>", saved: "<ISO time>" }
// Every access is guarded: storage may be disabled, full, or refused outright (reading
// window.localStorage throws in a sandboxed iframe), and the page then works without it.
import type { State } from './state';
import { parse } from './link';

export const STORAGE_KEY = 'attention-playground:state';
export const STORAGE_VERSION = 1;
/**
 * The longest stored state read back. Larger than the link's cap (100,000): three 64 × 64
 * matrices serialise to ~350,000 characters, and a state the page wrote must come back.
 */
const MAX_STATE = 2_000_000;

export type Stored =
  | { kind: 'none' } // nothing stored, or no storage
  | { kind: 'ok'; state: State }
  | { kind: 'broken' }; // a record that could not be read: it has been removed

/** The storage, or null where even asking for it throws. */
function storage(): Storage | null {
  try {
    return window.localStorage ?? null;
  } catch {
    return null;
  }
}

/** The serialised state of a record this version wrote, or null. */
function recordText(text: string): string | null {
  let x: unknown;
  try {
    x = JSON.parse(text);
  } catch {
    return null;
  }
  if (x === null || typeof x !== 'object' || Array.isArray(x)) return null;
  const record = x as Record<string, unknown>;
  return record.v === STORAGE_VERSION && typeof record.state === 'string' ? record.state : null;
}

/** The state a stored record holds, or null for anything but a record this version wrote. */
export function decodeRecord(text: string): State | null {
  const serialised = recordText(text);
  if (serialised === null) return null;
  const r = parse(serialised, MAX_STATE);
  return r.rejected.length ? null : r.state;
}

/** The `lang` of the stored state, read without parsing it (its catalog may not be loaded yet), or ''. */
export function storedLanguage(): string {
  let text: string | null = null;
  try {
    text = storage()?.getItem(STORAGE_KEY) ?? null;
  } catch {
    return '';
  }
  const serialised = text === null ? null : recordText(text);
  return serialised === null ? '' : (new URLSearchParams(serialised).get('lang') ?? '');
}

/** Reads the stored state; a broken record is removed, so the notice about it shows once. */
export function readStored(): Stored {
  const s = storage();
  if (!s) return { kind: 'none' };
  let text: string | null;
  try {
    text = s.getItem(STORAGE_KEY);
  } catch {
    return { kind: 'none' };
  }
  if (text === null) return { kind: 'none' };
  const state = decodeRecord(text);
  if (state) return { kind: 'ok', state };
  try {
    s.removeItem(STORAGE_KEY);
  } catch {
    // Could not remove it: it is ignored again next time.
  }
  return { kind: 'broken' };
}

let lastWritten = '';

/** Stores a serialised state (skipped when it is what was stored last). */
export function writeStored(serialised: string): void {
  if (serialised === lastWritten) return;
  const s = storage();
  if (!s) return;
  try {
    s.setItem(STORAGE_KEY, JSON.stringify({ v: STORAGE_VERSION, state: serialised, saved: new Date().toISOString() }));
    lastWritten = serialised;
  } catch {
    // Full (QuotaExceededError) or refused: the link still holds the state.
  }
}
