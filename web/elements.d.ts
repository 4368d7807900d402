// Types of dist/embed.js and dist/story.js: the elements they define, for a page written in
// TypeScript (document.querySelector('attention-story') is then typed). Their attributes are
// README's: "A web component" and "Write a lesson or a story".
declare global {
  interface HTMLElementTagNameMap {
    'attention-playground': HTMLElement;
    'attention-story': HTMLElement;
  }
}
export {};
