// The live board of a battle played online (docs/online-play.md): the socket's state, the
// board as the server draws it, the squares a player may choose from the server's `legal`
// plies, the clocks ticking. The server decides everything; this keeps nothing it has not.
(function () {
  "use strict";
  const root = document.getElementById("live");
  if (!root) return;
  const t = root.dataset;
  const side = t.side;
  const boardEl = document.getElementById("live-board");
  const statusEl = document.getElementById("live-status");
  const movesEl = document.getElementById("live-moves");
  const piecesEl = document.getElementById("live-pieces");
  const choiceEl = document.getElementById("live-choice");
  const clockEls = { green: document.getElementById("clock-green"), gold: document.getElementById("clock-gold") };
  const SQUARE = /[A-I][1-9][1-9]/g;

  let ws = null;
  let retry = 500;
  let state = null;
  let clocksAt = 0;
  let note = "";
  let selected = null;   // the chosen warrior: its square, or "place:<kind>" in the setup
  let boardToken = 0;

  // A legal ply in the writer's form: a placement "Fe→A19" (from: the warrior's kind), a
  // move "V@G47 → F47" or a kill "Fl@E49 x Fl@G79" (from: the first square, to: the last).
  function parse(ply) {
    const squares = ply.match(SQUARE) || [];
    const to = squares[squares.length - 1];
    if (ply.indexOf("@") < 0) return { from: "place:" + ply.split("→")[0].trim(), to: to, ply: ply };
    return { from: squares[0], to: to, ply: ply };
  }

  function myTurn() {
    return state && side && state.turn === side && state.legal.length > 0 &&
      (state.status === "waiting" || state.status === "playing");
  }

  function options() { return myTurn() ? state.legal.map(parse) : []; }

  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  }

  function play(ply) {
    send({ type: "move", n: state.plies.length + 1, ply: ply });
    selected = null;
    state.legal = [];  // until the server answers
    decorate();
  }

  // --- drawing ----------------------------------------------------------------------------
  function format(ms) {
    if (ms === null || ms === undefined) return "–";
    const s = Math.max(0, Math.ceil(ms / 1000));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    const mm = (h ? String(m).padStart(2, "0") : String(m)) + ":" + String(sec).padStart(2, "0");
    return h ? h + ":" + mm : mm;
  }

  function tick() {
    if (!state || !state.clocks) return;
    const running = state.status === "waiting" || state.status === "playing";
    ["green", "gold"].forEach(function (colour) {
      let ms = state.clocks[colour];
      const runs = running && colour === state.turn && ms !== null;
      if (runs) ms -= Date.now() - clocksAt;
      clockEls[colour].textContent = format(ms);
      clockEls[colour].classList.toggle("running", runs);
    });
  }

  function statusText() {
    if (!state) return "";
    if (state.status === "over" || state.phase === "over") {
      const won = { green: t.tWonGreen, gold: t.tWonGold, draw: t.tDrawn }[state.result];
      return t.tOver + (won ? ": " + won : "");
    }
    const turn = side ? (state.turn === side ? t.tYourTurn : t.tTheirTurn)
      : (state.turn === "green" ? t.tTurnGreen : t.tTurnGold);
    const how = myTurn() ? " · " + (state.phase === "battle" ? t.tBattle : t.tPlacement) : "";
    return turn + how;
  }

  function showStatus() {
    statusEl.textContent = statusText() + (note ? " · " + note : "");
  }

  function showMoves() {
    movesEl.replaceChildren();
    state.plies.forEach(function (ply) {
      const li = document.createElement("li");
      li.textContent = ply;
      movesEl.appendChild(li);
    });
    movesEl.scrollTop = movesEl.scrollHeight;
  }

  function button(label, pressed, action) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    if (pressed !== null) b.setAttribute("aria-pressed", pressed ? "true" : "false");
    b.addEventListener("click", action);
    return b;
  }

  // The warriors still to place, as buttons (the setup), or nothing.
  function showPieces() {
    if (!piecesEl) return;
    piecesEl.replaceChildren();
    const kinds = [];
    options().forEach(function (o) {
      if (o.from.indexOf("place:") === 0 && kinds.indexOf(o.from) < 0) kinds.push(o.from);
    });
    kinds.forEach(function (kind) {
      piecesEl.appendChild(button(kind.slice(6), selected === kind, function () {
        selected = selected === kind ? null : kind;
        decorate();
      }));
    });
  }

  // The plies one click leads to when several do (a warrior and its Goal, say).
  function showChoice(candidates) {
    if (!choiceEl) return;
    choiceEl.replaceChildren();
    candidates.forEach(function (o) {
      choiceEl.appendChild(button(o.ply, null, function () { choiceEl.replaceChildren(); play(o.ply); }));
    });
    if (candidates.length) choiceEl.querySelector("button").focus();
  }

  // Marks the squares one may choose now: the warriors that can act, then the chosen one's
  // destinations; only those are in the keyboard's tab order.
  function decorate() {
    const opts = options();
    const froms = new Set(opts.map(function (o) { return o.from; }));
    const tos = new Set(opts.filter(function (o) { return o.from === selected; }).map(function (o) { return o.to; }));
    // The squares only: a warrior drawn on one carries its name too, and a click on it
    // counts for its square (activate), but the marks and the focus go to the square.
    boardEl.querySelectorAll(".sq[data-square]").forEach(function (sq) {
      const name = sq.dataset.square;
      const from = froms.has(name), to = tos.has(name);
      sq.classList.toggle("live-from", from);
      sq.classList.toggle("live-chosen", name === selected);
      sq.classList.toggle("live-to", to);
      if (from || to) {
        sq.setAttribute("tabindex", "0");
        sq.setAttribute("role", "button");
        sq.setAttribute("aria-label", (to ? t.tDestination : t.tSquare) + " " + name);
      } else {
        sq.removeAttribute("tabindex");
        sq.removeAttribute("role");
        sq.removeAttribute("aria-label");
      }
    });
    showPieces();
    showStatus();
  }

  function drawBoard() {
    const token = ++boardToken;
    fetch(t.boardUrl + "?n=" + state.plies.length, { credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (svg) {
        if (token !== boardToken) return;  // a later position is on its way
        // The SVG's own <style> is an inline style the Content-Security-Policy refuses:
        // dropped, site.css styles the board (.kz-board).
        boardEl.innerHTML = svg.replace(/<style[\s\S]*?<\/style>/g, "");
        decorate();
      });
  }

  function activate(name) {
    const opts = options();
    const candidates = opts.filter(function (o) { return o.from === selected && o.to === name; });
    if (candidates.length === 1) return play(candidates[0].ply);
    if (candidates.length > 1) return showChoice(candidates);
    selected = opts.some(function (o) { return o.from === name; }) && selected !== name ? name : null;
    if (choiceEl) choiceEl.replaceChildren();
    decorate();
  }

  boardEl.addEventListener("click", function (e) {
    const sq = e.target.closest("[data-square]");
    if (sq) activate(sq.dataset.square);
  });
  boardEl.addEventListener("keydown", function (e) {
    const sq = e.target.closest("[data-square]");
    if (sq && (e.key === "Enter" || e.key === " ")) {
      e.preventDefault();
      const name = sq.dataset.square;
      activate(name);
      // Keep the focus on the board: the chosen warrior, or its first destination.
      const next = boardEl.querySelector(".live-to") || boardEl.querySelector('.sq[data-square="' + name + '"]');
      if (next) next.focus();
    } else if (e.key === "Escape") {
      selected = null;
      decorate();
    }
  });

  // --- the socket -------------------------------------------------------------------------
  function handle(msg) {
    if (msg.type === "state") {
      state = msg;
      clocksAt = Date.now();
      if (selected && !options().some(function (o) { return o.from === selected; })) selected = null;
      showMoves();
      drawBoard();
      tick();
    } else if (msg.type === "moved" || msg.type === "ended") {
      note = "";
      send({ type: "sync" });  // the whole state: turn, phase and legal plies from the server
    } else if (msg.type === "refused") {
      const e = msg.error || {};
      note = t.tRefused + " " + (e.message || "") + (e.article ? " (Art. " + e.article + ")" : "");
      send({ type: "sync" });
    } else if (msg.type === "draw") {
      note = msg.offered_by ? t.tDrawOffered : "";
      showStatus();
    }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(scheme + "//" + location.host + t.socket);
    ws.onopen = function () { retry = 500; note = ""; send({ type: "ping", t: Date.now() }); };
    ws.onmessage = function (e) { handle(JSON.parse(e.data)); };
    ws.onclose = function () {
      note = t.tOffline;
      showStatus();
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }

  const draw = document.getElementById("live-draw");
  if (draw) draw.addEventListener("click", function () { send({ type: "draw", offer: true }); });
  const resign = document.getElementById("live-resign");
  if (resign) resign.addEventListener("click", function () {
    if (window.confirm(t.tConfirmResign)) send({ type: "resign" });
  });
  setInterval(tick, 250);
  setInterval(function () { send({ type: "ping", t: Date.now() }); }, 10000);
  connect();
})();
