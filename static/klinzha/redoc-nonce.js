// Before Redoc's bundle: every <style> element a script makes on this page carries the style
// nonce of this response's Content-Security-Policy (klinzha_site/security.py). Redoc writes
// its styles into such elements, some of them as its bundle loads (before Redoc.init could
// pass a nonce); styles in the page's markup stay refused.
(function () {
  "use strict";
  var box = document.getElementById("redoc-container");
  var nonce = box && box.dataset.styleNonce;
  if (!nonce) { return; }
  var create = document.createElement;
  document.createElement = function (name) {
    var el = create.apply(document, arguments);
    if (String(name).toLowerCase() === "style") { el.setAttribute("nonce", nonce); }
    return el;
  };
})();
