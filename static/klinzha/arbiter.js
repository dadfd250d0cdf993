// The round console's results grid by keyboard: a typed 1, 0, = or + moves on to the next
// board (- waits: it may become --), arrows move up and down, Enter saves the round.
(function () {
  "use strict";
  var DONE = { "1": true, "0": true, "=": true, "+": true, "½": true };
  function boxes() {
    return Array.prototype.slice.call(document.querySelectorAll("input.rescode"));
  }
  function move(from, step) {
    var all = boxes();
    var next = all[all.indexOf(from) + step];
    if (next) { next.focus(); next.select(); }
  }
  document.addEventListener("input", function (e) {
    var box = e.target;
    if (!box.classList || !box.classList.contains("rescode")) { return; }
    box.classList.toggle("typed", box.value.trim() !== "");
    if (DONE[box.value.trim()]) { move(box, 1); }
  });
  document.addEventListener("keydown", function (e) {
    var box = e.target;
    if (!box.classList || !box.classList.contains("rescode")) { return; }
    if (e.key === "ArrowDown") { e.preventDefault(); move(box, 1); }
    if (e.key === "ArrowUp") { e.preventDefault(); move(box, -1); }
  });
})();

// The new tournament's address suggested from its name as it is typed, until the arbiter
// types one of their own (Django's slugify, roughly: the server makes the same one).
(function () {
  "use strict";
  var name = document.getElementById("id_name");
  var slug = document.getElementById("id_slug");
  if (!name || !slug) { return; }
  var own = slug.value !== "";
  slug.addEventListener("input", function () { own = slug.value !== ""; });
  name.addEventListener("input", function () {
    if (own) { return; }
    slug.value = name.value.normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
      .toLowerCase().replace(/[^\w\s-]/g, "").trim().replace(/[-\s]+/g, "-").slice(0, 50);
  });
})();

// The console's games refresh every 3 s, but not while the arbiter is in the grid or has typed
// a result not saved yet: the refresh would throw it away. (In JavaScript here, not an
// hx-trigger filter: htmx evaluates those with eval, which the Content-Security-Policy refuses.)
document.addEventListener("htmx:beforeRequest", function (e) {
  "use strict";
  var games = document.getElementById("games");
  if (!games || e.detail.elt !== games) { return; }
  var focus = document.activeElement;
  if ((focus && games.contains(focus) && focus !== document.body) ||
      games.querySelector("input.rescode.typed")) {
    e.preventDefault();
  }
});
