// The display screen: one screen of the page at a time, the next every few seconds
// (data-display-every), round and round; the live poll (live.js) swaps in new screens
// when a result comes, and the turn goes on from where it was.
(function () {
  "use strict";
  var root = document.querySelector("[data-display-every]");
  if (!root) { return; }
  var every = (parseInt(root.getAttribute("data-display-every"), 10) || 12) * 1000;
  var at = 0;
  function show(n) {
    var slides = document.querySelectorAll("[data-slide]");
    if (!slides.length) { return; }
    at = n % slides.length;
    for (var i = 0; i < slides.length; i++) { slides[i].hidden = i !== at; }
  }
  document.addEventListener("kz:live-updated", function () { show(at); });
  window.setInterval(function () { show(at + 1); }, every);
})();
