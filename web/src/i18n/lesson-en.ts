// The lesson player’s words (lesson.js), in English: a section of the catalog that comes with its part of the page,
// not with i18n-en.js (the page's first load has a budget, and most readers never open it).
// section-lesson.ts registers it. Another language is a file with the same keys.

export const lessonEn = {
  'lesson.label': 'Lesson',
  'lesson.step': 'Step {k} of {n}',
  'lesson.back': 'Back',
  'lesson.next': 'Next',
  'lesson.done': 'Done',
  'lesson.summary':
    'You answered {right} of the {n} questions right. Next: watch a model learn these patterns by itself, or explore from here: type your own sentence, pick another example, point at any number.',
  'lesson.summaryOpen':
    'You answered {right} of the {n} questions right; {open} are still open (their dots are empty). Next: watch a model learn these patterns by itself, or explore from here: type your own sentence, pick another example, point at any number.',
  'lesson.dot': 'Step {k}',
  'lesson.progress': 'Steps',
  'lesson.explore': 'Explore from here',
  'lesson.learn': 'Now watch a model learn attention',
  'lesson.resume': 'Back to the lesson (step {k})',
  'lesson.leave': 'Leave the lesson',
  'lesson.check': 'Check',
  'lesson.pickCell': 'Click that cell in the figure (or go to it with the arrow keys and press Enter).',
  'lesson.yourAnswer': 'Your answer',
  'lesson.right': 'Right: {answer}.',
  'lesson.wrong': 'Not quite: it is {answer}. You said {given}.',
  'lesson.notNumber': 'Type a number, like 6 or 0.5.',
  'lesson.reveal': 'The explanation of that number is open beside it.',
  'lesson.tapFor': 'Tap that number in the figure to see how it was computed.',
  'lesson.answer': 'The answer: {answer}.',
  'lesson.keys': '← and → move through the steps; Space goes on.',
  'lesson.cannot': 'The engine could not compute this step, so its question has no answer.',
};

export type LessonKey = keyof typeof lessonEn;
export type LessonMessages = Record<LessonKey, string>;
