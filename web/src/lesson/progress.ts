// A reader's place and answers in each lesson, kept in storage, so a lesson left and opened again
// goes on where it was.
import type { Progress } from './player';

const KEY = 'attention-playground:lesson';

/** What storage kept of lesson `id`: the step and the answers, or a fresh start. */
export function readProgress(id: string, steps: number): Progress {
  try {
    const all = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Record<string, unknown>;
    const p = all[id] as { step?: unknown; answers?: unknown } | undefined;
    const step = Number.isInteger(p?.step) && (p!.step as number) >= 0 && (p!.step as number) < steps ? (p!.step as number) : 0;
    const answers: Progress['answers'] = {};
    if (p && typeof p.answers === 'object' && p.answers) {
      for (const [k, v] of Object.entries(p.answers))
        if (/^\d+$/.test(k) && Number(k) < steps && (v === 'right' || v === 'wrong')) answers[Number(k)] = v;
    }
    return { step, answers };
  } catch {
    return { step: 0, answers: {} }; // no storage, or what it holds is not ours
  }
}

export function writeProgress(id: string, p: Progress): void {
  try {
    const all = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Record<string, unknown>;
    all[id] = p;
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // Storage refused (private mode, full): the lesson works, it only forgets.
  }
}
