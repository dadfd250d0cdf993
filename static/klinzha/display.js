// The display screen: one screen of the page at a time, the next every few seconds
// (data-display-every), round and round; the live poll (live.js) swaps in new screens
// when a result comes, and the turn goes on from where it was.
(function () {
  "use strict";
  var root = document.querySelector("[data-display-every]");
  if (!root) { return; }
  var every = (parseInt(root.getAttribute("data-display-every"), 10) || 12) * 1000;
  var at = 0;
  // Paged to fit: with no ?rows= asked, the page asks again with as many rows as this
  // screen holds (the server pages by it; each count is a page of its own in the cache).
  var params = new URLSearchParams(window.location.search);
  var first = document.querySelector("[data-slide] tbody");
  if (!params.has("rows") && first && first.rows.length) {
    var rowHeight = first.rows[0].getBoundingClientRect().height;
    var room = window.innerHeight - first.getBoundingClientRect().top - 8;
    var fit = Math.max(5, Math.min(60, Math.floor(room / rowHeight)));
    if (rowHeight > 0 && fit !== parseInt(root.getAttribute("data-display-rows"), 10)) {
      params.set("rows", String(fit));
      window.location.replace(window.location.pathname + "?" + params.toString());
      return;
    }
  }
  function show(n) {
    var slides = document.querySelectorAll("[data-slide]");
    if (!slides.length) { return; }
    at = n % slides.length;
    for (var i = 0; i < slides.length; i++) { slides[i].hidden = i !== at; }
  }
  document.addEventListener("kz:live-updated", function () { show(at); });
  window.setInterval(function () { show(at + 1); }, every);
})();
