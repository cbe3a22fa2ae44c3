// The replay viewer of a finished table: any step of the game drawn by the game's own table drawing
// (the code the live table uses, fed the server's replay view), a slider over every step, jumps by
// turn, play/pause, the log up to the step beside it, and any seat's view or everything revealed.
// It runs on table.js's page and uses the page's helpers (el from page.js; svg, clickable, PALETTE from
// drawn.js; cardTitle from table.js...).
// Requests are throttled: one at a time, and a dragged slider fetches only where it rests.
"use strict";
const ParlourReplay = window.ParlourReplay = (() => {
  const PLAY_EVERY = 700;  // ms between two steps while playing
  const SETTLE = 150;  // ms a dragged slider rests before its position is fetched
  const r = {
    mounted: false, data: null, at: 0, seat: "all", moves: 0, turns: [],
    wanted: null, busy: false, timer: null, player: null, shown: null,
    memory: {}, cache: new Map(), contentAsked: false,
  };

  const STYLE = `
#replay-box .replay-controls { display: flex; flex-wrap: wrap; gap: .25rem; align-items: center; }
#replay-box .replay-slider { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .4rem 0; }
#replay-slider { flex: 1 1 16rem; min-width: 10rem; }
#replay-at { flex: 1 1 100%; font-size: .9rem; }
#replay-log { max-height: 24rem; overflow-y: auto; font-size: .9rem; }
#replay-log .turn { font-weight: bold; margin-top: .4rem; }
#replay-log .entry { cursor: pointer; }
#replay-log .entry:hover { text-decoration: underline; }
#replay-log .entry.replay-current { background: #fff3c4; font-weight: bold; }
#replay-revealed pre { white-space: pre-wrap; font-size: .8rem; }`;

  // Builds the viewer's controls above the drawn table and its log in the right column (once).
  function mount() {
    if (r.mounted || !view || !view.over) return;
    r.mounted = true;
    document.head.append(el("style", { id: "replay-style" }, STYLE));
    r.moves = view.version;
    const button = (label, title, handler, attrs = {}) => {
      const b = el("button", { type: "button", class: "replay-step", "data-label": label, title, ...attrs }, label);
      b.addEventListener("click", handler);
      return b;
    };
    const slider = el("input", { type: "range", id: "replay-slider", min: "0", max: String(r.moves), step: "1",
                                 value: String(r.moves), "aria-label": "the replay's step" });
    slider.addEventListener("input", () => { stop(); want(Number(slider.value), SETTLE); });
    const who = el("select", { id: "replay-seat", "aria-label": "whose view the replay shows" },
                   el("option", { value: "all" }, "everything revealed"),
                   ...view.names.map((name, s) => el("option", { value: String(s) }, `as ${name} saw it`)));
    r.seat = who.value = view.seat === null ? "all" : String(view.seat);  // a player's own view first
    who.addEventListener("change", () => { r.seat = who.value; r.shown = null; want(r.at, 0); });
    const play = button("▶ play", "play the game a step every 0.7 s", toggle, { id: "replay-play" });
    const controls = el("div", { class: "replay-controls" },
      button("« start", "the first position (Home)", () => go(0)),
      button("◀◀ turn", "the start of this turn, or of the previous one (Page Up)", () => go(turnStart(-1)),
             { id: "replay-prev-turn" }),
      button("◀ back", "one step back (←)", () => go(r.at - 1)),
      play,
      button("next ▶", "one step on (→)", () => go(r.at + 1)),
      button("turn ▶▶", "the start of the next turn (Page Down)", () => go(turnStart(1)), { id: "replay-next-turn" }),
      button("end »", "the last position (End)", () => go(r.moves)),
      who);
    const box = el("section", { id: "replay-box", "aria-labelledby": "replay-h", "data-version": "" },
      el("h2", { id: "replay-h" }, "Replay"), controls,
      el("div", { class: "replay-slider" }, slider, el("span", { id: "replay-at", "aria-live": "polite" })),
      el("pre", { id: "replay-text", hidden: "" }),
      el("details", { id: "replay-revealed-box", hidden: "" },
         el("summary", {}, "Every seat's own view (hidden cards revealed)"), el("div", { id: "replay-revealed" })));
    // The controls and the log up to the step head the right column: the drawing keeps its place. In
    // one column (a phone) the controls stand just above the drawing instead.
    const seats = document.getElementById("seats").parentNode;
    const narrow = matchMedia("(max-width: 800px)");
    const place = () => {
      const board = document.getElementById("board-box");
      if (narrow.matches) board.parentNode.insertBefore(box, board);
      else seats.parentNode.insertBefore(box, document.getElementById("replay-log-box") || seats);
    };
    place();
    narrow.addEventListener("change", place);
    seats.parentNode.insertBefore(
      el("section", { id: "replay-log-box", "aria-labelledby": "replay-log-h" },
         el("h2", { id: "replay-log-h" }, "Log up to this step"), el("div", { id: "replay-log" })), seats);
    // The replay's log takes the live log's place (the whole game's log ends the same way).
    document.getElementById("log").parentNode.hidden = true;
    document.addEventListener("keydown", keys);
    want(r.moves, 0);
    if (window.ParlourAnalysis) ParlourAnalysis.mount();  // analysis.js: the panel under the results
  }

  // Left/right arrows step, Page Up/Down jump by turn, Home/End go to the ends (not while typing).
  function keys(event) {
    const t = event.target;
    if (t && (t.tagName === "TEXTAREA" || t.tagName === "SELECT" || (t.tagName === "INPUT" && t.type !== "range")
              || t.isContentEditable)) return;
    if (t && t.closest && t.closest("#board-menu")) return;
    const moves = { ArrowLeft: () => r.at - 1, ArrowRight: () => r.at + 1, PageUp: () => turnStart(-1),
                    PageDown: () => turnStart(1), Home: () => 0, End: () => r.moves };
    if (!moves[event.key] || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    go(moves[event.key]());
  }

  // The step where the next (+1) or this/previous (-1) turn starts; the ends where there is none.
  function turnStart(direction) {
    const at = r.wanted === null ? r.at : r.wanted;
    const starts = r.turns.map(t => t.step);
    if (direction > 0) return starts.find(s => s > at) ?? r.moves;
    return [...starts].reverse().find(s => s < at) ?? 0;
  }

  function go(step) { stop(); want(step, 0); }

  // Asks for a step: after ``delay`` ms of rest, and never while a request is out (the latest wins).
  function want(step, delay) {
    r.wanted = Math.max(0, Math.min(r.moves, step));
    document.getElementById("replay-slider").value = String(r.wanted);
    clearTimeout(r.timer);
    r.resting = false;
    r.timer = setTimeout(() => { r.resting = true; fetchWanted(); }, delay);
  }

  async function fetchWanted() {
    if (r.busy || r.wanted === null) return;
    const step = r.wanted, seat = r.seat;
    const key = `${step}/${seat}`;
    let data = r.cache.get(key);
    if (!data) {
      r.busy = true;
      try {
        const content = r.contentAsked ? "" : "&content=1";
        const reply = await fetch(`/api/tables/${tableId}/replay?at=${step}&seat=${seat}${content}`);
        data = await reply.json();
        if (!reply.ok) { document.getElementById("error").textContent = data.error; stop(); return; }
        r.contentAsked = true;
        if (data.table_content && !Object.keys(tableContent).length) tableContent = data.table_content;
        if (data.card_texts && !Object.keys(cardTexts).length) cardTexts = data.card_texts;
        delete data.table_content; delete data.card_texts;
        if (typeof displayNames === "function" && data.seats) data.names = displayNames(data);  // the seats' names
        r.cache.set(key, data);
        if (r.cache.size > 200) r.cache.delete(r.cache.keys().next().value);
      } catch (err) {
        document.getElementById("error").textContent = `the replay could not be fetched: ${err.message}`;
        stop();
        return;
      } finally {
        r.busy = false;
      }
    }
    if (r.wanted === step && r.seat === seat) r.wanted = null;
    showStep(data);
    // The slider moved on meanwhile: its place is asked once it rests there (only the last one).
    if (r.wanted !== null && r.resting) fetchWanted();
  }

  function showStep(data) {
    const previous = r.data;
    const oneStep = previous && previous.seat === data.seat && Math.abs(previous.version - data.version) === 1;
    r.data = data;
    r.at = data.version;
    r.moves = data.moves;
    r.turns = data.turns || [];
    r.before = oneStep ? previous.observation : null;
    const box = document.getElementById("replay-box");
    box.dataset.version = String(data.version);
    box.dataset.seat = data.seat === null ? "all" : String(data.seat);
    document.getElementById("replay-slider").max = String(data.moves);
    if (r.wanted === null) document.getElementById("replay-slider").value = String(data.version);
    const turn = data.turn ? `turn ${data.turn} · ` : "";
    document.getElementById("replay-at").textContent = `Action ${data.version} of ${data.moves}: ${turn}${data.summary}`;
    heading();
    const text = document.getElementById("replay-text");
    text.textContent = data.text;
    const revealedBox = document.getElementById("replay-revealed-box");
    revealedBox.hidden = !data.revealed;
    if (data.revealed) {
      show("replay-revealed", ...data.revealed.map((t, s) => el("div", {}, el("h3", {}, data.names[s]), el("pre", {}, t))));
    }
    drawReplayLog(data);
    redraw();
  }

  // The page's heading (the banner and the tab's title) follows the step shown, not the game's end:
  // "Replay · turn 25 · Ana pays the 19 owed". table.js writes the live view's banner; this runs after.
  function heading() {
    const data = r.data;
    if (!data) return;
    const summary = personal(withoutTurn(data.summary, data.turn), data, false);
    const banner = document.getElementById("banner");
    banner.textContent = `Replay · ${data.turn ? `turn ${data.turn} · ` : ""}${summary}`;
    banner.className = "";
    banner.dataset.replayTurn = String(data.turn);
    document.title = `Replay, turn ${data.turn} · Parlour`;
  }

  // A summary without its own mention of the turn the heading already gives: "… (turn 25)".
  function withoutTurn(summary, turn) {
    return String(summary).replace(new RegExp(`\\s*\\(turn ${turn}\\)$`), "").replace(`(turn ${turn}, `, "(");
  }

  // The log up to the step, grouped by turn, the last entry marked; a click on an entry goes there.
  function drawReplayLog(data) {
    const box = document.getElementById("replay-log");
    box.replaceChildren();
    let heading = null, last = null;
    for (const entry of data.log) {
      const name = entry.turn_player === null ? "" : ` · ${data.names[entry.turn_player]}`;
      const h = `Turn ${entry.turn}${name}`;
      if (h !== heading) { box.append(el("div", { class: "turn" }, h)); heading = h; }
      const lines = entry.lines.length ? entry.lines : [`${data.names[entry.seat]}: ${entry.action}`];
      for (const line of lines) {
        last = el("div", { class: "entry", "data-number": entry.number, title: `go to action ${entry.number}` }, textNode(line));
        last.addEventListener("click", () => go(entry.number));
        box.append(last);
      }
    }
    if (last) last.classList.add("replay-current");
    if (window.ParlourAnalysis) ParlourAnalysis.dressLog();  // analysis.js: the marks beside the moves
    box.scrollTop = box.scrollHeight;
  }

  // Draws the step with the game's own drawing in the table's board (nothing in it can be played).
  function redraw() {
    const data = r.data;
    if (!data) return;
    heading();  // a new live view (a seat connecting) rewrote the banner: the step's turn again
    const table = Parlour.tables[data.game];
    const text = document.getElementById("replay-text");
    if (!table) { loadTable(data.game); text.hidden = false; return; }
    text.hidden = true;
    document.getElementById("board-box").hidden = false;
    if (document.body.dataset.drawn !== data.game) {  // as on the live table: the drawing replaces them
      document.getElementById("actions-box").open = false;
      document.getElementById("observation-box").open = false;
      document.body.dataset.drawn = data.game;
    }
    const root = document.getElementById("board");
    const shown = { ...data, window: null, asked: false, legal: [],
                    clock: { now: Date.now() / 1000, deadline: null, move_seconds: null, game_seconds: null } };
    const api = {
      view: shown, legal: [], seat: data.seat, names: data.names, observation: data.observation,
      content: tableContent, cardTexts, palette: PALETTE, memory: r.memory,
      before: r.before, previous: r.before, log: data.log,
      act() {}, el, svg, clickable, matching: () => [], menu: () => () => {}, taps: () => null, endsTurn: () => false, cardTitle, redraw,
    };
    try {
      table.draw(root, api);
      if (window.ParlourGlossary) ParlourGlossary.dress(root, data.game, redraw);  // glossary.js
      root.dataset.replay = String(data.version);
    } catch (err) {
      console.error(err);
      document.getElementById("error").textContent = `the drawn replay failed: ${err.message}`;
    }
  }

  function toggle() {
    if (r.player) { stop(); return; }
    if (r.at >= r.moves) want(0, 0);
    const b = document.getElementById("replay-play");
    b.textContent = "❚❚ pause";
    b.dataset.label = "❚❚ pause";
    r.player = setInterval(() => {
      if (r.busy || r.wanted !== null) return;  // a slow server: the next step waits for the last
      if (r.at >= r.moves) { stop(); return; }
      want(r.at + 1, 0);
    }, PLAY_EVERY);
  }

  function stop() {
    if (!r.player) return;
    clearInterval(r.player);
    r.player = null;
    const b = document.getElementById("replay-play");
    b.textContent = "▶ play";
    b.dataset.label = "▶ play";
  }

  return { mount, redraw, go, showing: () => r.mounted && r.data !== null, state: r };
})();
// The table's view may have come before this file did (the socket answers while the page still loads
// its scripts): table.js then drew the results without mounting the replay, and will not again.
if (typeof view !== "undefined" && view !== null && view.over) ParlourReplay.mount();
