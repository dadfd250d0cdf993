// The game page's signatures (Art. 8.2) checked in this browser with WebCrypto Ed25519,
// against the exact text that was signed: each line says whether its signature holds.
(function () {
  "use strict";
  const section = document.getElementById("signatures");
  if (!section) return;
  const words = section.dataset;

  function unb64(text) {
    const bin = atob(text.trim());
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  function importKey(text) {
    text = text.trim();
    const algo = { name: "Ed25519" };
    if (text.startsWith("-----BEGIN")) {
      // A PEM key (stored before keys were kept in one spelling): its body is the SPKI.
      const body = text.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "");
      return crypto.subtle.importKey("spki", unb64(body), algo, false, ["verify"]);
    }
    return crypto.subtle.importKey("raw", unb64(text), algo, false, ["verify"]);
  }

  function mark(li, state, text) {
    li.dataset.verified = state;
    const el = li.querySelector(".sig-check");
    el.dataset.verified = state;
    el.textContent = text;  // its colour from site.css, by data-verified
  }

  async function checkOne(li, signed) {
    let key;
    try {
      key = await importKey(li.dataset.publicKey);
    } catch (err) {
      if (err && err.name === "NotSupportedError") {
        mark(li, "unsupported", words.textUnsupported);
      } else {
        mark(li, "invalid", words.textInvalid + " (" + (err && err.message || err) + ")");
      }
      return;
    }
    try {
      const ok = await crypto.subtle.verify({ name: "Ed25519" }, key, unb64(li.dataset.signature), signed);
      mark(li, ok ? "valid" : "invalid", ok ? "✓ " + words.textValid : "✗ " + words.textInvalid);
    } catch (err) {
      mark(li, "invalid", "✗ " + words.textInvalid + " (" + (err && err.message || err) + ")");
    }
  }

  async function checkList(list) {
    const items = Array.from(list.querySelectorAll("li.signature"));
    let signed;
    try {
      const r = await fetch(list.dataset.canonicalUrl);
      if (!r.ok) throw new Error("HTTP " + r.status);
      signed = new Uint8Array(await r.arrayBuffer());
    } catch (err) {
      items.forEach((li) => mark(li, "invalid", "✗ " + words.textInvalid + " (" + err.message + ")"));
      return;
    }
    for (const li of items) await checkOne(li, signed);
  }

  async function run() {
    const lists = Array.from(section.querySelectorAll(".signature-list"));
    for (const list of lists) await checkList(list);
    const all = Array.from(section.querySelectorAll("li.signature"));
    const held = all.filter((li) => li.dataset.verified === "valid").length;
    const summary = document.getElementById("signature-summary");
    if (summary && all.length) summary.textContent = held + " / " + all.length + " ✓";
    section.dataset.checked = String(all.length);
    section.dataset.held = String(held);
  }

  run();
})();
