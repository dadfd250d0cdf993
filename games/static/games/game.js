// The game page: live validation status, the board viewer, and signing with WebCrypto.
(function () {
  "use strict";
  const verdict = document.getElementById("verdict");
  const statusEl = document.getElementById("status");

  function poll() {
    if (!verdict || !statusEl) return;
    fetch(verdict.dataset.statusUrl).then((r) => r.json()).then((s) => {
      statusEl.textContent = s.status_text;
      if (s.status === "done") {
        if (!verdict.dataset.done) { verdict.dataset.done = "1"; window.location.reload(); }
      } else if (s.status !== "failed") {  // a failed validation waits for an arbiter
        setTimeout(poll, 1000);
      }
    }).catch(() => setTimeout(poll, 3000));
  }
  // A validated record (data-done) needs no polling.
  if (statusEl && verdict && !verdict.dataset.done) poll();

  const viewer = document.getElementById("viewer");
  if (viewer) {
    const total = parseInt(viewer.dataset.plies, 10);
    const board = document.getElementById("board");
    const label = document.getElementById("ply-label");
    let ply = total;
    function show(n) {
      ply = Math.max(0, Math.min(total, n));
      fetch(viewer.dataset.boardUrl + "&ply=" + ply).then((r) => r.text()).then((svg) => {
        // The SVG's own <style> would be an inline style the Content-Security-Policy
        // refuses: it is dropped, and site.css styles the board (.kz-board).
        board.innerHTML = svg.replace(/<style[\s\S]*?<\/style>/g, "");
        label.textContent = ply + " / " + total;
        document.querySelectorAll("#moves li").forEach((li) => {
          li.classList.toggle("current", parseInt(li.dataset.ply, 10) === ply);
        });
      });
    }
    document.getElementById("first").onclick = () => show(0);
    document.getElementById("prev").onclick = () => show(ply - 1);
    document.getElementById("next").onclick = () => show(ply + 1);
    document.getElementById("last").onclick = () => show(total);
    document.querySelectorAll("#moves li").forEach((li) => {
      li.onclick = () => show(parseInt(li.dataset.ply, 10));
    });
    document.addEventListener("keydown", (e) => {
      if (e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT") return;
      if (e.key === "ArrowLeft") show(ply - 1);
      else if (e.key === "ArrowRight") show(ply + 1);
      else if (e.key === "Home") show(0);
      else if (e.key === "End") show(total);
    });
    show(total);
  }

  // Signing: the private key is made and kept by WebCrypto (not extractable) in IndexedDB;
  // only the public key leaves the browser.
  function csrf() {
    const m = document.cookie.match(/csrftoken=([^;]+)/);
    return m ? m[1] : "";
  }
  function b64(buf) { return btoa(String.fromCharCode.apply(null, new Uint8Array(buf))); }
  function db() {
    return new Promise((ok, fail) => {
      const req = indexedDB.open("kz-keys", 1);
      req.onupgradeneeded = () => req.result.createObjectStore("keys");
      req.onsuccess = () => ok(req.result);
      req.onerror = () => fail(req.error);
    });
  }
  async function keyPair() {
    const store = await db();
    const get = () => new Promise((ok) => {
      const r = store.transaction("keys").objectStore("keys").get("ed25519");
      r.onsuccess = () => ok(r.result);
      r.onerror = () => ok(undefined);
    });
    let pair = await get();
    if (!pair) {
      pair = await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]);
      await new Promise((ok) => {
        const tx = store.transaction("keys", "readwrite");
        tx.objectStore("keys").put(pair, "ed25519");
        tx.oncomplete = ok;
      });
    }
    return pair;
  }
  const signBtn = document.getElementById("sign");
  if (signBtn) {
    signBtn.onclick = async () => {
      const out = document.getElementById("sign-status");
      try {
        const pair = await keyPair();
        const pub = b64(await crypto.subtle.exportKey("raw", pair.publicKey));
        const headers = { "Content-Type": "application/json", "X-CSRFToken": csrf() };
        await fetch(signBtn.dataset.keysUrl, { method: "POST", headers, body: JSON.stringify({ public_key: pub }) });
        const text = await (await fetch(signBtn.dataset.canonicalUrl)).text();
        const sig = b64(await crypto.subtle.sign({ name: "Ed25519" }, pair.privateKey, new TextEncoder().encode(text)));
        const submission = verdict.dataset.submission;
        const r = await fetch(signBtn.dataset.signUrl, { method: "POST", headers,
          body: JSON.stringify({ submission, public_key: pub, signature: sig }) });
        const body = await r.json();
        out.textContent = r.ok ? "signed as " + body.role + (body.locked ? " (locked)" : "") : JSON.stringify(body.error);
        out.dataset.result = r.ok ? "signed" : "error";
      } catch (err) {
        out.textContent = String(err);
        out.dataset.result = "error";
      }
    };
  }
})();
