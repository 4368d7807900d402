/* Attention Playground: makes embedded playground iframes as tall as their content.
 * Include once on a page that has <iframe data-attention-playground src=".../embed.html#...">.
 * The frame posts {type: 'attention-playground:height', height}; this only accepts it from one of
 * those iframes (event.source, since a sandboxed frame's origin is "null"), with a height that is
 * a number within bounds.
 * Defines no globals. */
(function () {
  'use strict';
  var TYPE = 'attention-playground:height', MIN = 60, MAX = 20000;
  window.addEventListener('message', function (event) {
    var data = event.data;
    if (!data || typeof data !== 'object' || data.type !== TYPE) return;
    var height = data.height; // a number, as the frame sends it: no string, no object, no NaN
    if (typeof height !== 'number' || !isFinite(height) || height < MIN || height > MAX) return;
    var frames = document.querySelectorAll('iframe[data-attention-playground]');
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === event.source) {
        frames[i].style.height = Math.ceil(height) + 'px';
        return;
      }
    }
  });
})();
