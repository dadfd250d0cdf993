// Redoc started from a file, not an inline script (the Content-Security-Policy): the page
// gives the schema's address and Redoc's settings (REDOC_UI_SETTINGS) in data attributes.
(function () {
  "use strict";
  var box = document.getElementById("redoc-container");
  if (!box || !window.Redoc) { return; }
  var options = JSON.parse(box.dataset.settings || "{}");
  options.nonce = box.dataset.styleNonce;
  window.Redoc.init(box.dataset.specUrl, options, box);
})();
