// Where a reader is in a lesson, as the link says it: `lesson=intro&step=4` beside the state, and
// the frame of the pipeline's animation, `play=3`. Like the embedding keys these are not the
// reader's state: undo and storage never see them.

export interface LessonPlace {
  lesson: string; // a lesson's id
  step: number; // 1-based, as a reader counts; 0: where the reader left it
}

const ID = /^[a-z0-9-]{1,32}$/;

/** Takes `lesson` and `step` out of a link's text: the place (null if absent or invalid) and the rest. */
export function splitLesson(text: string): { value: LessonPlace | null; rest: string; rejected: string[] } {
  if (!/(^|&)(lesson|step)=/.test(text)) return { value: null, rest: text, rejected: [] };
  const params = new URLSearchParams(text);
  const lesson = params.getAll('lesson');
  const step = params.getAll('step');
  params.delete('lesson');
  params.delete('step');
  const rest = params.toString();
  const ok =
    lesson.length === 1 && ID.test(lesson[0]) && step.length <= 1 && (step.length === 0 || /^[1-9][0-9]?$/.test(step[0]));
  if (!ok) return { value: null, rest, rejected: ['lesson'] };
  return { value: { lesson: lesson[0], step: step.length ? Number(step[0]) : 0 }, rest, rejected: [] };
}

export function serialiseLesson(place: LessonPlace | null): string {
  return place ? `lesson=${place.lesson}&step=${place.step}` : '';
}

/** The most frames an animation has: eight strides of terms, nine operations, eight of keys. */
export const MAX_FRAME = 64;

/** Takes `play` (the animation's frame, 1-based) out of a link's text. */
export function splitPlay(text: string): { value: number | null; rest: string; rejected: string[] } {
  if (!/(^|&)play=/.test(text)) return { value: null, rest: text, rejected: [] };
  const params = new URLSearchParams(text);
  const frame = params.getAll('play');
  params.delete('play');
  const rest = params.toString();
  const n = frame.length === 1 && /^[1-9][0-9]?$/.test(frame[0]) ? Number(frame[0]) : 0;
  if (n < 1 || n > MAX_FRAME) return { value: null, rest, rejected: ['play'] };
  return { value: n, rest, rejected: [] };
}

export function serialisePlay(frame: number | null): string {
  return frame === null ? '' : `play=${frame}`;
}
