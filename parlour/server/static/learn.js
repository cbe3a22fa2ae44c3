// The "Learn to play" page: a game's tutorial step by step (POST /api/learn/GAME), the staged table drawn
// by the game's own drawing (static/games/GAME.js, as the table page draws it), the parts the step names
// outlined, the legal actions as buttons (the server lists them: no rule lives here), the answer to each
// action; then the closing game at a real table. The server keeps nothing: the learner's place is the
// path (which intended action each step done was answered with), kept in this browser (localStorage)
// and sent with every request, so a reload resumes.
"use strict";
const game = decodeURIComponent(location.pathname.split("/").pop());
const KEY = `parlour.learn.${game}`;
let lesson = null, view = null, path = [], busy = false, memory = {}, before = null;
let cardTexts = {}, tableContent = {}, contentAsked = false, menuAnchor = null, tapped = null;

function byId(id) { return document.getElementById(id); }

// ------------------------------------------------------------------ the learner's place
function loadPath() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(kept) && kept.every(n => Number.isInteger(n) && n >= 0) ? kept : [];
  } catch (err) { return []; }
}

function savePath() {
  try { localStorage.setItem(KEY, JSON.stringify(path)); } catch (err) { /* storage off: no resuming */ }
}

// Asks the server for the step at ``path`` (trying ``tried`` there, if given) and shows its answer.
async function ask(fields = {}) {
  if (busy) return null;
  busy = true;
  byId("error").textContent = "";
  try {
    const body = { path, ...fields };
    if (!contentAsked) body.content = true;
    const reply = await fetch(`/api/learn/${encodeURIComponent(game)}`, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
    });
    const data = await reply.json();
    if (!reply.ok) {
      if (reply.status === 400 && path.length && !fields.try) {  // a kept place the file no longer has
        path = []; savePath();
        busy = false;
        return ask();
      }
      byId("error").textContent = data.error;
      return null;
    }
    if (data.card_texts) { cardTexts = data.card_texts; tableContent = data.table_content; contentAsked = true; }
    const moved = data.path.length !== path.length;
    if (moved && view) before = data.staged ? null : view.observation;  // a new table: nothing "changed"
    if (moved) memory.chain = null;  // a drawing's planned follow-up never plays the next step for the learner
    path = data.path;
    savePath();
    lesson = data;
    if (data.view) view = data.view;
    showStep(data, moved);
    return data;
  } catch (err) {
    byId("error").textContent = `the tutorial could not be reached: ${err.message}`;
    return null;
  } finally {
    busy = false;
  }
}

function act(text) { if (view && !lesson.step.final) ask({ try: text }); }

// ------------------------------------------------------------------ the step
function showStep(data, moved) {
  const step = data.step;
  document.title = `${data.title} · Parlour`;
  byId("title").textContent = data.title;
  byId("learn-about").textContent = data.about || "";
  byId("learn-title").textContent = step.title;
  byId("learn-text").textContent = step.text;
  const total = step.final ? path.length : step.total;
  byId("learn-number").textContent = step.final ? "The closing game" : `Step ${step.number} of ${step.total}`;
  byId("learn-progress").max = String(Math.max(1, total));
  byId("learn-progress").value = String(step.final ? total : step.number - 1);
  byId("learn-quote").hidden = !step.quote;
  if (step.quote) {
    byId("learn-quote-text").textContent = `“${step.quote.text}”`;
    byId("learn-quote-section").textContent = `Rulebook, ${step.quote.section}`;
  }
  document.body.dataset.step = step.final ? "final" : String(step.number);
  document.body.dataset.stepId = step.final ? "final" : step.id;
  showAnswer(data.answer);
  if (moved && data.staged) byId("log").append(el("div", { class: "turn" }, "A new table"));  // after its events
  const hints = byId("learn-hints");
  hints.hidden = !data.hints;
  hints.replaceChildren(...(data.hints || []).map(line => el("li", {}, line)));
  byId("learn-final").hidden = !step.final;
  byId("controls").hidden = !!step.final;
  byId("board-box").hidden = !!step.final || !Parlour.tables[game];
  if (!step.final) {
    drawActions();
    byId("text").textContent = view.text;
    draw();
  }
  if (moved) byId("learn-step").scrollIntoView({ block: "start" });
}

// The answer to the learner's action: moved on (and what the others did), or why not.
function showAnswer(answer) {
  const box = byId("learn-answer");
  if (!answer) { box.replaceChildren(); delete box.dataset.answer; return; }
  box.dataset.answer = answer.answer;
  const parts = [el("p", {}, answer.why || "")];
  if (answer.events && answer.events.length) {
    parts.push(el("ul", {}, ...answer.events.map(line => el("li", {}, line))));
    const log = byId("log");
    for (const line of answer.events) log.append(el("div", { class: "entry" }, line));
    log.scrollTop = log.scrollHeight;
  }
  box.replaceChildren(...parts);
}

function drawActions() {
  const rows = ParlourActions.rows(view.legal, act, () => "", endsTurn);
  byId("actions").replaceChildren(...(rows.length ? rows : [el("p", { class: "muted" }, "Nothing to decide now.")]));
}

// ------------------------------------------------------------------ the drawn table
// The game's own drawing (static/games/GAME.js) registers itself here, as on the table page.
const Parlour = window.Parlour = {
  tables: {},
  register(name, table) { this.tables[name] = table; if (view && !lesson.step.final) draw(); },
};

function loadDrawing() {
  document.head.append(el("link", { rel: "stylesheet", href: `/static/games/${encodeURIComponent(game)}.css` }));
  const script = el("script", { src: `/static/games/${encodeURIComponent(game)}.js` });
  script.addEventListener("error", () => {});  // no drawing: the buttons and the text still teach
  document.head.append(script);
}

function cardTitle(text) { return cardTexts[text] || ""; }

function draw() {
  const table = Parlour.tables[game];
  const root = byId("board");
  if (!table || !view) return;
  byId("board-box").hidden = false;
  byId("board-menu").hidden = true;
  const api = {
    view, legal: view.legal, seat: view.seat, names: view.names, observation: view.observation,
    content: tableContent, cardTexts, palette: PALETTE, memory,
    before, previous: before, log: [],
    act, el, svg, clickable, matching, menu, taps, cardTitle, endsTurn, redraw: draw,
  };
  try {
    table.draw(root, api);
    if (window.ParlourGlossary) ParlourGlossary.dress(root, game, draw);
    highlight(root);
    root.dataset.version = String(view.version);
  } catch (err) {
    console.error(err);
    byId("error").textContent = `the drawn table failed: ${err.message}`;
  }
}

// Outlines the parts of the drawing the step names (its selectors, from the tutorial file).
function highlight(root) {
  const step = lesson && lesson.step;
  for (const node of root.querySelectorAll(".learn-highlight")) node.classList.remove("learn-highlight");
  for (const selector of (step && step.highlight) || []) {
    try {
      for (const node of root.querySelectorAll(selector)) node.classList.add("learn-highlight");
    } catch (err) { /* a selector this browser cannot read: nothing outlined */ }
  }
}

// ------------------------------------------------------------------ the closing game
async function playAtTable() {
  const button = byId("learn-play");
  button.disabled = true;
  try {
    const reply = await fetch(`/api/learn/${encodeURIComponent(game)}/table`, { method: "POST" });
    const body = await reply.json();
    if (!reply.ok) throw new Error(body.error);
    location.assign(body.seat);
  } catch (err) {
    button.disabled = false;
    byId("error").textContent = `no table: ${err.message}`;
  }
}

byId("learn-notation").addEventListener("submit", event => {
  event.preventDefault();
  const input = byId("notation-input");
  if (input.value.trim()) act(input.value.trim());
  input.value = "";
});
byId("learn-hint").addEventListener("click", () => ask({ hint: true }));
byId("learn-play").addEventListener("click", playAtTable);
byId("learn-restart").addEventListener("click", () => {
  path = []; before = null; memory = {};
  byId("log").replaceChildren();
  savePath();
  ask();
});

path = loadPath();
loadDrawing();
ask();
