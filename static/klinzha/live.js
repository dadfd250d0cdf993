// Live pages: the element marked data-live-poll asks the event's version every few seconds
// (data-live-every) with the ETag of its last answer, so the server answers 304 while nothing
// changed; when a result bumps the version, the page is fetched again (the version-keyed
// page cache answers: one render per change, whoever reads) and the element swapped.
// data-live-src names what to fetch (the page itself by default); data-live-fragment asks
// for the element alone (an htmx partial). A region being typed into is left as it is.
(function () {
  "use strict";
  var root = document.querySelector("[data-live-poll]");
  if (!root || !window.fetch || !window.DOMParser) { return; }
  var every = (parseInt(root.getAttribute("data-live-every"), 10) || 15) * 1000;
  var etag = null;
  var STALE = "stale";
  // How soon a page served as the version before is asked for again.
  var RETRY = 1000;

  // The element as the page holds it now: an htmx swap (the console's) may have replaced
  // it, with the version it was rendered at.
  function current() { return document.querySelector("[data-live-poll]") || root; }

  function busy(el) {
    var active = document.activeElement;
    if (active && el.contains(active) && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName)) {
      return true;
    }
    var fields = el.querySelectorAll("input, textarea");
    for (var i = 0; i < fields.length; i++) {
      var f = fields[i];
      // A view's own switch (data-live-view: "show all columns") is carried over, not typing.
      if (f.type === "hidden" || f.hasAttribute("data-live-view")) { continue; }
      if (f.type === "checkbox" || f.type === "radio") {
        if (f.checked !== f.defaultChecked) { return true; }
      } else if (f.value !== f.defaultValue) {
        return true;
      }
    }
    return false;
  }

  // The view switches' states by id, to be set again on the swapped content.
  function views(el) {
    var found = {};
    el.querySelectorAll("input[data-live-view][id]").forEach(function (f) {
      found[f.id] = f.checked;
    });
    return found;
  }

  function viewsRestore(el, states) {
    Object.keys(states).forEach(function (id) {
      var f = el.querySelector("#" + CSS.escape(id));
      if (f) { f.checked = states[id]; }
    });
  }

  function swap(next) {
    root = current();
    if (busy(root)) { return Promise.resolve(false); }
    var fragment = root.hasAttribute("data-live-fragment");
    var headers = fragment ? { "HX-Request": "true" } : {};
    var src = root.getAttribute("data-live-src") || window.location.href;
    return fetch(src, {
      credentials: "same-origin", cache: "no-cache", headers: headers
    }).then(function (r) {
      if (!r.ok) { return false; }
      // The version before, served while the new one is being made: asked again shortly,
      // the version the element shows left as it was.
      if (r.headers.get("X-KZ-Stale")) { return STALE; }
      return r.text().then(function (text) {
        var doc = new DOMParser().parseFromString(text, "text/html");
        var fresh = fragment ? doc.body.firstElementChild : doc.querySelector("[data-live-poll]");
        if (!fresh || busy(root)) { return false; }
        var states = views(root);
        if (fragment) {
          root.replaceWith(fresh);
          root = fresh;
        } else {
          root.innerHTML = fresh.innerHTML;
        }
        viewsRestore(root, states);
        root.setAttribute("data-live-version", next);
        document.dispatchEvent(new CustomEvent("kz:live-updated", { detail: { version: next } }));
        return true;
      });
    });
  }

  function tick() {
    if (document.hidden) { return later(); }
    root = current();
    var version = root.getAttribute("data-live-version");
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(root.getAttribute("data-live-poll"), {
      credentials: "same-origin", cache: "no-store", headers: headers
    }).then(function (r) {
      if (r.status !== 200) { return null; }
      etag = r.headers.get("ETag");
      return r.json();
    }).then(function (data) {
      if (!data || String(data.version) === version) { return false; }
      var next = String(data.version);
      return swap(next);
    }).catch(function () { return null; }).then(function (done) {
      if (done === STALE) { etag = null; }
      later(done === STALE ? RETRY : every);
    });
  }

  function later(wait) { window.setTimeout(tick, wait === undefined ? every : wait); }
  later();
})();
