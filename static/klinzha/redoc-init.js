// Redoc started from a file, not an inline script (the Content-Security-Policy): the page
// gives the schema's address and Redoc's settings (REDOC_UI_SETTINGS) in data attributes.
(function () {
  "use strict";
  var box = document.getElementById("redoc-container");
  if (!box || !window.Redoc) { return; }
  window.Redoc.init(box.dataset.specUrl, JSON.parse(box.dataset.settings || "{}"), box);
})();
