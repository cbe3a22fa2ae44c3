// A table: the seat's view from the server, its legal actions as buttons, the log, chat and clocks.
// No rule lives here: the server says what is legal, and this page only shows and asks.
"use strict";
const tableId = location.pathname.split("/").pop();
// One browser may hold several seats (hot-seat): one token each, comma-separated, one socket each.
const tokens = (new URLSearchParams(location.hash.slice(1)).get("k") || "").split(",").filter(Boolean).slice(0, 6);
const mine = tokens.map(token => ({ token, socket: null, view: null, log: [], retry: 500 }));
// No link: a finished game's page, or the seat a signed-in account keeps here (an account's hello).
if (!mine.length) mine.push({ token: "", account: false, socket: null, view: null, log: [], retry: 500 });
let view = null, log = [], socket = null, clockOffset = 0, shown = mine[0], curtainUp = false;
let cardTexts = {}, cardNames = [], cardPatterns = [], tableContent = {};

function show(id, ...nodes) { document.getElementById(id).replaceChildren(...nodes); }

// What the table calls each seat: its person's name where they gave one ("Ana", or "Ana (Venus)" where
// the game names its seats), else the game's own name ("seat 2"); bots keep theirs.
function displayNames(v) {
  return v.names.map((name, s) => {
    const given = v.seats[s] && v.seats[s].name;
    if (!given) return name;
    return /^seat \d+$/.test(name) ? given : `${given} (${name})`;
  });
}

// A text of the game's with "seat N" written as that seat's name, and as "you" (or "your") to itself.
function personal(text, v = view, you = true) {
  return String(text).replace(/\bseat (\d+)('s)?/g, (found, digits, owner) => {
    const s = Number(digits);
    if (you && s === v.seat) return owner ? "your" : "you";
    return v.seats[s] && v.seats[s].name ? v.names[s] + (owner || "") : found;
  });
}

// Card texts on hover: the texts of the card names a piece of text mentions (whole words only).
function cardTitle(text) {
  if (cardTexts[text]) return cardTexts[text];
  const found = cardPatterns.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
  return found.slice(0, 3).map(name => cardTexts[name]).join("\n\n");
}

function escapeRegExp(text) { return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

// A text node, or a span carrying the texts of the cards it names as its title.
function textNode(text) {
  const title = cardNames.length ? cardTitle(text) : "";
  return title ? el("span", { class: "card", title }, text) : document.createTextNode(text);
}

// The observation as readable HTML: objects as definition lists, lists of objects as tables.
function render(value) {
  if (value === null || value === undefined) return document.createTextNode("–");
  if (Array.isArray(value)) {
    if (value.length && value.every(v => v && typeof v === "object" && !Array.isArray(v))) {
      const keys = [...new Set(value.flatMap(Object.keys))];
      const head = el("tr", {}, ...keys.map(k => el("th", {}, k.replaceAll("_", " "))));
      const rows = value.map(v => el("tr", {}, ...keys.map(k => el("td", {}, render(v[k])))));
      return el("table", { class: "obs" }, head, ...rows);
    }
    const items = value.map(v => (v && typeof v === "object") ? render(v) : textNode(String(v)));
    const span = el("span");
    items.forEach((item, i) => { if (i) span.append(", "); span.append(item); });
    if (!items.length) span.append("none");
    return span;
  }
  if (typeof value === "object") {
    const dl = el("dl", { class: "obs" });
    for (const [k, v] of Object.entries(value)) dl.append(el("dt", {}, k.replaceAll("_", " ")), el("dd", {}, render(v)));
    return dl;
  }
  return textNode(String(value));
}

function act(text) {
  if (!socket || !view) return;
  socket.send(JSON.stringify({ type: "act", action: text, version: view.version }));
}

function drawActions() {
  const rows = ParlourActions.rows(view.legal, act, t => (cardNames.length ? cardTitle(t) : ""), endsTurn);
  show("actions", ...(rows.length ? rows : [el("p", { class: "muted" }, view.over ? "The game is over." : "Nothing to decide now.")]));
  show("legal-list", ...view.legal.map(t => el("option", { value: t })));
}

function drawLog() {
  const box = document.getElementById("log");
  box.replaceChildren();
  let heading = null;
  for (const entry of log) {
    const name = entry.turn_player === null ? "" : ` · ${view.names[entry.turn_player]}`;
    const h = `Turn ${entry.turn}${name}`;
    if (h !== heading) { box.append(el("div", { class: "turn" }, h)); heading = h; }
    const lines = entry.lines.length ? [...entry.lines] : [`${view.names[entry.seat]}: ${entry.action}`];  // a copy: redrawn often
    if (entry.note) lines.push(`(${view.names[entry.seat]}: ${entry.note})`);  // e.g. the clock ran out
    for (const line of lines) box.append(el("div", { class: "entry", "data-number": entry.number }, textNode(personal(line, view, false))));
  }
  box.scrollTop = box.scrollHeight;
}

function drawSeats() {
  show("seats", ...view.seats.map(s => {
    const clock = s.time_left === null ? "" : `, ${Math.round(s.time_left)} s left`;
    if (s.bot_account) {  // a server bot account: its profile, no person's controls (away, stand-ins)
      const profile = el("a", { href: `/players/${encodeURIComponent(s.name)}` }, s.name);
      const standing = s.stand_in ? `, bot ${s.stand_in} standing in` : "";
      return el("li", { class: "bot-account" }, `${view.names[s.seat]}: bot `, profile, `${standing}${clock}`);
    }
    const who = s.kind === "bot" ? `bot ${s.bot}` : s.stand_in ? `bot ${s.stand_in} standing in` : "person";
    const status = s.connected ? "here" : "away";
    const mine = s.seat === view.seat ? " (you)" : "";
    const item = el("li", {}, `${view.names[s.seat]}${mine}: ${who}, ${status}${clock}`);
    if (s.kind === "human" && (!s.connected || silent(s.seat)) && view.seat !== null && s.seat !== view.seat && !s.stand_in) {
      const b = el("button", { type: "button" }, "let a bot play it");
      b.addEventListener("click", () => socket.send(JSON.stringify({ type: "stand_in", seat: s.seat, bot: "greedy" })));
      item.append(" ", b);
    }
    if (s.seat === view.seat && !s.stand_in && s.kind === "human" && !view.over) {
      const b = el("button", { type: "button", id: "hand-to-bot" }, "let a bot play for me");
      b.addEventListener("click", () => socket.send(JSON.stringify({ type: "stand_in", seat: s.seat, bot: "greedy" })));
      item.append(" ", b);
    }
    if (s.seat === view.seat && s.stand_in) {
      const b = el("button", { type: "button", id: "take-back" }, "take my seat back");
      b.addEventListener("click", () => socket.send(JSON.stringify({ type: "stand_in", seat: s.seat, bot: null })));
      item.append(" ", b);
    }
    return item;
  }));
}

// Whether a connected person has been asked for longer than the table waits (then the others may put
// a bot in; the server checks it again).
function silent(seat) {
  if (!view.deciders.includes(seat) || view.over) return false;
  return (Date.now() + clockOffset) / 1000 - view.clock.asked_since >= view.clock.away_after;
}

function drawResults() {
  const box = document.getElementById("results-box");
  box.hidden = !view.over;
  if (!view.over || document.getElementById("score-plot")) return;
  const r = view.results;
  const named = s => s.seat === null || s.label.startsWith(`${view.names[s.seat]}:`) ? "" : `${view.names[s.seat]}: `;
  const steps = r.steps.map(s => el("li", {}, `${named(s)}${personal(s.label, view, false)}${s.points === null ? "" : " " + s.points}`));
  const winners = r.winners.map(w => view.names[w]).join(", ");
  const download = el("a", { href: `/api/tables/${tableId}/record`, download: `parlour-${tableId}.json` }, "Download the record");
  show("results", el("p", {}, personal(r.end_reason || "", view, false)), el("ul", {}, ...steps),
       el("p", { class: "winners" }, `Winner${r.winners.length > 1 ? "s" : ""}: ${winners}`),
       el("h2", {}, "Scores over the game"), scorePlot(r.timeline), download);
  if (window.ParlourReplay) ParlourReplay.mount();  // replay.js: the game drawn at any step
}

// A seat's colour: the drawn table's own (a game's seatColour(seat, api), e.g. a planet's colour on the
// map), else the palette's.
function seatColour(seat) {
  const table = Parlour.tables[view.game];
  const own = table && table.seatColour ? table.seatColour(seat, boardApi()) : null;
  return own || PALETTE[seat % PALETTE.length];
}

// The score-over-time plot: one line per seat (colour and name), turns along, scores up.
function scorePlot(timeline) {
  const NS = "http://www.w3.org/2000/svg";
  const make = (tag, attrs, text) => {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const W = 520, H = 220, L = 40, R = 110, T = 10, B = 30;
  const points = timeline || [];
  const last = points.length ? points[points.length - 1] : { move: 1, scores: [] };
  const top = Math.max(1, ...points.flatMap(p => p.scores));
  const bottom = Math.min(0, ...points.flatMap(p => p.scores));
  const x = move => L + (W - L - R) * move / Math.max(1, last.move);
  const y = score => T + (H - T - B) * (top - score) / (top - bottom || 1);
  const svg = make("svg", { id: "score-plot", viewBox: `0 0 ${W} ${H}`, role: "img",
                            "aria-label": "scores over the game, one line per seat" });
  svg.append(make("line", { x1: L, y1: y(bottom), x2: W - R, y2: y(bottom), stroke: "#777" }),
             make("line", { x1: L, y1: T, x2: L, y2: H - B, stroke: "#777" }),
             make("text", { x: L - 4, y: y(top) + 4, "text-anchor": "end", "font-size": 11 }, String(top)),
             make("text", { x: L - 4, y: y(bottom) + 4, "text-anchor": "end", "font-size": 11 }, String(bottom)),
             make("text", { x: (L + W - R) / 2, y: H - 8, "text-anchor": "middle", "font-size": 11 },
                  `moves (turn ${points.length ? points[0].turn : 0} to ${last.turn})`));
  view.names.forEach((name, seat) => {
    const colour = seatColour(seat);
    const path = points.map(p => `${x(p.move).toFixed(1)},${y(p.scores[seat]).toFixed(1)}`).join(" ");
    svg.append(make("polyline", { points: path, fill: "none", stroke: colour, "stroke-width": 2,
                                  "stroke-dasharray": seat % 2 ? "5 3" : "none", "data-seat": seat }));
  });
  // Each line's name at its end, nudged apart so that no two labels overlap.
  const labels = view.names.map((name, seat) => ({ seat, name, end: last.scores[seat] ?? 0 }))
    .map(l => ({ ...l, at: y(l.end) + 4 })).sort((a, b) => a.at - b.at);
  labels.forEach((l, i) => { if (i && l.at < labels[i - 1].at + 13) l.at = labels[i - 1].at + 13; });
  for (const l of labels) {
    svg.append(make("text", { x: W - R + 6, y: l.at, "font-size": 11, fill: seatColour(l.seat) },
                    `${l.name} ${l.end}`));
  }
  return svg;
}

// ------------------------------------------------------------------ drawn tables
// Each game may draw its own table: /static/games/GAME.js calls Parlour.register(GAME, {draw(root, api)}).
// The drawing shows the seat's view and turns clicks into the legal actions the server listed: no rule
// lives in it (docs/browser-tables.md).
const Parlour = window.Parlour = {
  tables: {},
  register(name, table) { this.tables[name] = table; if (view && view.game === name) draw(); },
};
let loading = null, boardMemory = {};

// The games with a drawing in static/games/ (the others show the observation; nothing asked for in vain).
const DRAWN = ["venture", "im-the-boss", "venus-needs-men"];

function loadTable(game) {
  if (loading === game || !DRAWN.includes(game)) return;
  loading = game;
  document.head.append(el("link", { rel: "stylesheet", href: `/static/games/${game}.css` }));
  const script = el("script", { src: `/static/games/${game}.js` });
  script.addEventListener("error", () => {});  // no drawn table: the page shows the observation
  document.head.append(script);
}

// The component last clicked (or pressed): a menu opens beside it.
let menuAnchor = null, tapped = null;

function boardApi() {
  return {
    view, legal: view.legal, seat: view.seat, names: view.names, observation: view.observation,
    content: tableContent, cardTexts, palette: PALETTE, memory: boardMemory,
    before: shown.mark || null, previous: shown.previous || null, log: shown.log,
    act, el, svg, clickable, matching, menu, taps, cardTitle, endsTurn, redraw: () => draw(),
  };
}

function drawBoard() {
  if (window.ParlourReplay && ParlourReplay.showing()) { ParlourReplay.redraw(); return; }  // replay.js
  const table = Parlour.tables[view.game];
  const box = document.getElementById("board-box");
  if (!table) { loadTable(view.game); box.hidden = true; return; }
  if (document.body.dataset.drawn !== view.game) {
    // The drawing takes the place of the buttons and the data (both stay a click away).
    document.getElementById("actions-box").open = false;
    document.getElementById("observation-box").open = false;
    document.body.dataset.drawn = view.game;
  }
  box.hidden = false;
  const root = document.getElementById("board");
  try {
    // A menu offering what is no longer legal closes (one whose choices all stand stays open).
    const open = document.getElementById("board-menu");
    const offered = open.hidden ? [] : JSON.parse(open.dataset.actions || "[]");
    if (offered.some(a => !view.legal.includes(a))) { open.hidden = true; open.replaceChildren(); }
    // Keyboard focus stays on the same component (found by its label) across the redraw.
    const focused = root.contains(document.activeElement) ? document.activeElement.getAttribute("aria-label") : null;
    table.draw(root, boardApi());
    if (window.ParlourGlossary) ParlourGlossary.dress(root, view.game, () => draw());  // glossary.js
    fadeChanges();
    if (focused && !root.contains(document.activeElement)) {
      const again = [...root.querySelectorAll("[aria-label]")].find(n => n.getAttribute("aria-label") === focused);
      if (again) again.focus();
    }
  } catch (err) {
    console.error(err);
    document.getElementById("error").textContent = `the drawn table failed: ${err.message}`;
  }
}

function draw() {
  document.body.dataset.version = String(view.version);
  document.getElementById("title").textContent = `${view.game} · ${view.seat === null ? "spectator" : view.names[view.seat]}`;
  const banner = document.getElementById("banner");
  const myName = view.seat !== null && view.seats[view.seat] ? view.seats[view.seat].name : null;
  // The turn is written once: by the game's own line where it says it ("… (turn 3)"), else here.
  const saysTurn = /\bturn \d+/i.test(view.summary);
  const lead = view.asked && view.answered_for_you ? "Passing for you, as your setting says: "
    : view.asked ? `Your turn${myName ? `, ${myName}` : ""}: ` : (view.turn && !saysTurn ? `Turn ${view.turn} · ` : "");
  const summary = personal(view.summary).replace(/\byou (win|place|hold|owe)s\b/g, "you $1");
  banner.textContent = unplayedText(view) || lead + (view.asked && summary.startsWith("you: ") ? summary.slice(5) : summary);
  banner.className = view.asked ? "asked" : "";
  drawRematch();
  askName();
  document.getElementById("controls").hidden = view.seat === null;  // a spectator has nothing to choose
  document.getElementById("notation").hidden = view.over;  // a finished game takes no more actions
  drawAsk();
  drawActions();
  drawBoard();
  show("observation", render(view.observation));
  document.getElementById("text").textContent = view.text;
  drawLog();
  drawSeats();
  drawResults();
  drawFinish();
  signalTurn();
}

// ------------------------------------------------------------------ what changed, fading
// The outlines of what changed stay while the table moves, and fade once it has been still for
// FADE_AFTER ms on a visible page: the mark then moves to what the page showed, so a later redraw
// outlines only what changes after it. A hidden page keeps them for when the person comes back.
const FADE_AFTER = 4000;
let fadeTimer = null;

function fadeChanges() {
  clearTimeout(fadeTimer);
  if (document.visibilityState !== "visible" || !view) return;
  const seat = shown, seen = view.observation;
  fadeTimer = setTimeout(() => {
    const marked = [...document.querySelectorAll("#board .changed")];
    marked.forEach(node => node.classList.add("seen"));
    if (seat.view && seat.view.observation === seen) seat.mark = seen;
    setTimeout(() => marked.forEach(node => node.classList.remove("changed", "seen")), 1000);
  }, FADE_AFTER);
}

document.addEventListener("visibilitychange", fadeChanges);

// ------------------------------------------------------------------ a finished table
// The winners and the scores on the table itself, the way to the results, "Play again" for a seated
// person (the server makes the next table, seats rotated), and the way there once anyone made it.
function drawFinish() {
  const box = document.getElementById("finish");
  box.hidden = !view.over;
  const key = view.over ? `${view.version}:${view.next_table}:${view.names.join(",")}:${JSON.stringify(view.rematch)}` : "";
  if (!view.over || box.dataset.key === key) return;
  box.dataset.key = key;
  const r = view.results;
  const winners = r.winners.map(w => (w === view.seat ? "you" : view.names[w]));
  const verb = r.winners.length === 1 && r.winners[0] !== view.seat ? "wins" : "win";
  const order = view.names.map((name, seat) => seat).sort((a, b) => r.scores[b] - r.scores[a]);
  const scores = order.map(seat => `${view.names[seat]} ${r.scores[seat]}`).join(" · ");
  const parts = [el("p", { class: "winner" }, winners.length ? `${joinNames(winners)} ${verb}!` : "The game is over."),
                 el("p", { class: "scores" }, scores, " · ", el("a", { href: "#results-box" }, "the results"))];
  const r2 = view.rematch;
  if (r2 && r2.status === "declined") {
    parts.push(el("p", { id: "rematch-declined" }, r2.declined_by === null ? `${expired()}.` : `${oldName(r2.declined_by, true)} declined the rematch.`));
  } else if (view.next_table && view.seat !== null && r2 && r2.waiting_for.includes(newSeat(view.seat))) {
    const others = r2.waiting_for.filter(s => s !== newSeat(view.seat)).map(s => oldName(s, false));
    parts.push(el("p", { id: "rematch-asked" }, "A rematch is asked (seats moved round by one)" +
      (others.length ? `; waiting for you and ${joinNames(others)}.` : ": it starts when you accept.")));
    const yes = el("button", { type: "button", id: "accept-rematch" }, "Accept the rematch");
    const no = el("button", { type: "button", id: "decline-rematch" }, "Decline");
    yes.addEventListener("click", () => answerRematch(view.next_table, "accept", yes, true, newSeat(view.seat)));
    no.addEventListener("click", () => answerRematch(view.next_table, "decline", no, false, newSeat(view.seat)));
    parts.push(yes, " ", no);
  } else if (view.next_table && (tokens.length || view.seat !== null)) {
    if (r2 && r2.waiting_for.length) {
      parts.push(el("p", { id: "rematch-waiting" }, `Waiting for ${joinNames(r2.waiting_for.map(s => oldName(s, false)))} to accept the rematch.`));
    }
    parts.push(el("a", { id: "next-table", class: "button", href: `/t/${view.next_table}${location.hash}` }, "Go to the new table"));
  } else if (view.seat !== null) {
    const again = el("button", { type: "button", id: "play-again" }, "Play again (seats moved round by one)");
    again.addEventListener("click", () => playAgain(again));
    parts.push(again);
  }
  box.replaceChildren(...parts);
}

// A rematch declined by nobody: its week ran out (rematch.EXPIRED, as a sentence starts).
function expired() { return "The rematch expired: not everyone accepted in a week"; }

// A rematch's seat n is this table's seat n + 1 (the seats moved round by one), and back.
function newSeat(seat) { return (seat - 1 + view.players) % view.players; }
function oldName(seat, you) {
  const old = (seat + 1) % view.players;
  return you && old === view.seat ? "You" : view.names[old];
}

// What a table not in play says instead of whose turn it is: a rematch waiting for its accepts, or declined.
function unplayedText(v) {
  if (v.status === "declined" && v.declined_by === null) return `${expired()}: this table is not played.`;
  if (v.status === "declined") {
    const who = v.declined_by === v.seat ? "You" : v.names[v.declined_by];
    return `${who} declined the rematch: this table is not played.`;
  }
  if (v.status !== "waiting") return "";
  const names = v.waiting_for.map(s => (s === v.seat ? "you" : v.names[s]));
  return `A rematch: waiting for ${joinNames(names)} to accept. The game starts once everyone has.`;
}

// At a rematch waiting for this seat: "Accept the rematch" and "Decline" (the server starts the game
// on the last accept; one decline cancels it).
function drawRematch() {
  const box = document.getElementById("rematch");
  const mineWaiting = view.status === "waiting" && view.seat !== null && view.waiting_for.includes(view.seat);
  const key = mineWaiting ? `${view.waiting_for.join(",")}` : "";
  box.hidden = !mineWaiting;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  if (!mineWaiting) { box.replaceChildren(); return; }
  const yes = el("button", { type: "button", id: "accept-here" }, "Accept the rematch");
  const no = el("button", { type: "button", id: "decline-here" }, "Decline");
  yes.addEventListener("click", () => answerRematch(tableId, "accept", yes, false, view.seat));
  no.addEventListener("click", () => answerRematch(tableId, "decline", no, false, view.seat));
  box.replaceChildren(yes, " ", no);
}

// Accepts or declines a rematch with this seat's token (it opens the seat at the new table too), or
// as the account keeping ``seat`` (the rematch's seat number); from a finished table's page an accept
// goes on to the new table.
async function answerRematch(table, answer, button, go, seat) {
  button.disabled = true;
  try {
    const reply = await fetch(`/api/tables/${table}/${answer}${seatQuery(seat)}`, { method: "POST", headers: seatHeaders(), credentials: "same-origin" });
    const body = await reply.json();
    if (!reply.ok) throw new Error(body.error);
    if (go) location.assign(`/t/${table}${location.hash}`);
  } catch (err) {
    button.disabled = false;
    document.getElementById("error").textContent = `not sent: ${err.message}`;
  }
}

// Who asks for play again or answers a rematch: the seat's link (its bearer token), or the account
// that keeps the seat (its session cookie and CSRF token) where the page was opened without a link.
function seatHeaders() {
  return shown.token ? { authorization: `Bearer ${shown.token}` } : { "x-csrf-token": shown.csrf || "" };
}

// The query naming the seat shown, for an account that keeps several at the table (no link: the
// server takes the account's lowest seat otherwise); empty with a link, whose token names its seat.
function seatQuery(seat) {
  return !shown.token && Number.isInteger(seat) ? `?seat=${seat}` : "";
}

function joinNames(names) {
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names.join("");
}

// Asks the server for the next table (the same one whoever asks first) and goes there.
async function playAgain(button) {
  button.disabled = true;
  try {
    const reply = await fetch(`/api/tables/${tableId}/again${seatQuery(view.seat)}`, { method: "POST", headers: seatHeaders(), credentials: "same-origin" });
    const body = await reply.json();
    if (!reply.ok) throw new Error(body.error);
    location.assign(`/t/${body.table}${location.hash}`);
  } catch (err) {
    button.disabled = false;
    document.getElementById("error").textContent = `no new table: ${err.message}`;
  }
}

// ------------------------------------------------------------------ your turn
// The tab's title and icon say when one of this browser's seats is asked (and go back after); a sound
// and a notification too, each only where the person opted in (this browser remembers the choice).
let wasAsked = false;

function signalTurn() {
  // On a shared screen every seat asked counts (whether the server answers for one is its own secret).
  const asked = mine.some(s => s.view && s.view.asked && !s.view.over && (mine.length > 1 || !s.view.answered_for_you));
  const place = `Parlour · ${view.game} · ${view.seat === null ? "spectator" : view.names[view.seat]}`;
  const replaying = window.ParlourReplay && ParlourReplay.showing();  // replay.js titles the step shown
  if (!replaying) document.title = asked ? `(Your turn) ${place}` : place;
  document.getElementById("favicon").href = asked ? "/static/favicon-turn.svg" : "/static/favicon.svg";
  document.getElementById("alerts").hidden = view.seat === null || view.over;
  if (asked && !wasAsked) {
    if (preference("sound")) beep();
    if (preference("notify") && document.hidden) notify(place);
  }
  wasAsked = asked;
}

// Whether the person opted in to an alert ("sound", "notify") in this browser.
function preference(name) {
  try { return localStorage.getItem(`parlour.${name}`) === "1"; } catch (err) { return false; }
}

function setPreference(name, on) {
  try { localStorage.setItem(`parlour.${name}`, on ? "1" : "0"); } catch (err) { /* storage off */ }
}

// A short, quiet tone (no sound file to load).
function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator(), gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.value = 0.08;
    tone.connect(gain).connect(audio.destination);
    tone.onended = () => audio.close();
    tone.start();
    tone.stop(audio.currentTime + 0.2);
  } catch (err) { /* no audio here */ }
}

function notify(place) {
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  try {
    new Notification("Your turn", { body: place, icon: "/static/favicon-turn.svg", tag: `parlour-${tableId}` });
  } catch (err) { /* notifications only from a service worker here */ }
}

// The alert checkboxes: the permission to notify is asked only when the person ticks the box.
function setUpAlerts() {
  const sound = document.getElementById("sound"), notifyBox = document.getElementById("notify");
  sound.checked = preference("sound");
  notifyBox.checked = preference("notify") && "Notification" in window && Notification.permission === "granted";
  sound.addEventListener("change", () => { setPreference("sound", sound.checked); if (sound.checked) beep(); });
  notifyBox.addEventListener("change", async () => {
    if (!notifyBox.checked || !("Notification" in window)) { notifyBox.checked = false; setPreference("notify", false); return; }
    const answer = await Notification.requestPermission();
    notifyBox.checked = answer === "granted";
    setPreference("notify", notifyBox.checked);
    if (answer !== "granted") document.getElementById("error").textContent = "This browser does not allow notifications from this page.";
  });
}

// Shows one of this browser's seats (its hand, its choices).
function display(seat) {
  shown = seat;
  view = seat.view; log = seat.log; socket = seat.socket;
  if (view) draw();
}

// Hot-seat: the next person's hand stays hidden until they confirm they are at the screen.
function raiseCurtain(seat) {
  curtainUp = true;
  document.querySelector("main").hidden = true;
  document.getElementById("curtain-text").textContent = `Pass the screen to ${seat.view.names[seat.view.seat]}.`;
  document.getElementById("curtain").className = "shown";
  const button = document.getElementById("curtain-button");
  button.onclick = () => {
    curtainUp = false;
    document.getElementById("curtain").className = "";
    document.querySelector("main").hidden = false;
    display(seat);
  };
  button.focus();
}

// Keeps the seat on screen while it is asked; otherwise hands the screen to another of this
// browser's seats that is asked, behind the curtain.
function chooseSeat() {
  if (curtainUp) return;
  if (mine.length > 1 && !(shown.view && shown.view.asked)) {
    const next = mine.find(s => s !== shown && s.view && s.view.asked);
    if (next) { raiseCurtain(next); return; }
  }
  display(shown);
}

function receive(seat, message) {
  if (message.type === "table") {
    if (seat.view && message.version < seat.view.version) return;  // an older update than the one shown
    if (message.log_since === 0) seat.log = [];
    seat.log = seat.log.filter(e => e.number <= message.log_since).concat(message.log);
    // One log entry a move, so the log ends at the table's version. An update may carry several moves
    // (the version jumps), but one that leaves a hole (an update lost between the servers) asks for
    // the whole view again, which comes as the next message (once a version: never a loop).
    const last = seat.log.length ? seat.log[seat.log.length - 1].number : 0;
    const open = seat.socket && seat.socket.readyState === WebSocket.OPEN;
    if (last !== message.version && open && seat.askedView !== message.version) {
      seat.askedView = message.version;
      seat.socket.send(JSON.stringify({ type: "view" }));
    }
    // What changed since this seat's last own decision: the table as it stood just after it (a pass
    // in a reaction window is no decision of note); a spectator's mark moves at every new turn. The
    // mark also moves to what the page showed once its outlines faded (fadeChanges).
    const prev = seat.view;
    const decided = message.seat !== null && message.log.some(e => e.seat === message.seat && e.action !== "pass");
    const newTurn = message.seat === null && prev && prev.turn_player !== message.turn_player;
    if (!seat.mark || decided || newTurn) seat.mark = message.observation;
    seat.previous = seat.view ? seat.view.observation : null;
    message.names = displayNames(message);
    if (message.card_texts) remember(seat, message);  // the connection's first view
    seat.view = message;
    if (message.table_content) tableContent = message.table_content;
    if (message.chat && seat === mine[0]) {
      document.getElementById("chatlines").replaceChildren();
      for (const line of message.chat) receive(seat, { type: "chat", ...line });
    }
    if (message.card_texts) {
      cardTexts = message.card_texts;
      cardNames = Object.keys(cardTexts).sort((a, b) => b.length - a.length);
      // Names with a letter are looked for inside texts (whole words), each pattern made once.
      cardPatterns = cardNames.filter(name => /[a-z]/i.test(name))
        .map(name => [name, new RegExp(`(^|[^\\w:-])${escapeRegExp(name)}($|[^\\w:-])`)]);
    }
    clockOffset = message.clock.now * 1000 - Date.now();
    if (seat === shown) document.getElementById("error").textContent = "";
    chooseSeat();
  } else if (message.type === "error") {
    boardMemory.chain = null;  // a refused action plans no follow-up
    if (seat === shown) document.getElementById("error").textContent = message.error;
  } else if (message.type === "chat" && seat === mine[0]) {
    const who = message.seat === null ? "spectator" : (view ? view.names[message.seat] : `seat ${message.seat}`);
    const box = document.getElementById("chatlines");
    box.append(el("div", {}, `${who}: ${message.text}`));
    box.scrollTop = box.scrollHeight;
  }
}

// Keeps this link under "My tables" in this browser (the lobby lists them), with the seats' names.
function remember(seat, v) {
  if (!seat.token) return;
  const links = {};
  links[v.seat === null ? "spectator" : String(v.seat)] = `${location.pathname}#k=${seat.token}`;
  if (mine.length > 1) links.hot = location.pathname + location.hash;
  const names = {};
  v.seats.forEach(s => { if (s.name) names[s.seat] = s.name; });
  const entry = { table: tableId, game: v.game, links, names };
  if (v.seat !== null && seat === mine[0]) entry.seat = v.seat;
  MyTables.remember(entry);
}

// Asks a person once for their name, if their seat has none yet ("not now" is remembered too).
function askName() {
  const form = document.getElementById("name-form");
  const s = view.seat === null ? null : view.seats[view.seat];
  const asked = `parlour.asked-name.${tableId}.${view.seat}`;
  let skipped = false;
  try { skipped = localStorage.getItem(asked) === "1"; } catch (err) { /* storage off */ }
  const wanted = s && s.kind === "human" && !s.name && !view.over && !skipped;
  if (form.hidden === !wanted) return;
  form.hidden = !wanted;
  form.dataset.key = asked;
}

function connect(seat) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/${tableId}`);
  seat.socket = ws;
  if (seat === shown) socket = ws;
  ws.addEventListener("open", () => {
    seat.retry = 500;
    ws.send(JSON.stringify(seat.account ? { type: "hello", account: true } : { type: "hello", token: seat.token }));
  });
  ws.addEventListener("message", event => receive(seat, JSON.parse(event.data)));
  ws.addEventListener("close", event => {
    if (event.code === 4401 || event.code === 4403 || event.code === 4404) return;  // a wrong link: do not knock again
    if (event.code === 4409) {  // this seat was opened in more windows: the newest ones keep it
      document.getElementById("error").textContent = "This seat is open in other windows; reload to take it here.";
      return;
    }
    setTimeout(() => connect(seat), seat.retry);
    seat.retry = Math.min(seat.retry * 2, 8000);
  });
}

let silentShown = "";
function tick() {
  countdown();
  const nowSilent = view ? view.seats.filter(s => silent(s.seat)).map(s => s.seat).join(",") : "";
  if (nowSilent !== silentShown) { silentShown = nowSilent; drawSeats(); }  // "let a bot play it" appears
  const box = document.getElementById("clock");
  if (!view || !view.clock.deadline || view.over) { box.textContent = ""; return; }
  const left = Math.max(0, Math.round(view.clock.deadline - (Date.now() + clockOffset) / 1000));
  // A turn-based table's hours read as hours ("clock: 23 h 5 min for Ana"), a live table's as seconds.
  const shown = left >= 3600 ? `${Math.floor(left / 3600)} h ${Math.floor((left % 3600) / 60)} min` : `${left} s`;
  box.textContent = `clock: ${shown} for ${view.deciders.map(d => view.names[d]).join(", ")}`;
}

// A reaction window's countdown, shown to everyone: who is still asked, in order, and when the first
// answer lands (I'm the Boss!'s "going once, going twice" closing round is one such window).
function countdown() {
  const box = document.getElementById("countdown");
  const w = view && view.window;
  box.hidden = !w;
  if (!w) return;
  const left = Math.max(0, w.answer_at - (Date.now() + clockOffset) / 1000);
  const span = Math.max(0.001, w.answer_at - w.opened);
  const names = w.waiting.map(s => view.names[s]);
  document.getElementById("countdown-text").textContent =
    `Waiting for ${names.join(", then ")}` + (left >= 0.05 ? ` · answers from ${left.toFixed(1)} s` : "");
  document.getElementById("countdown-bar").value = Math.min(1, 1 - left / span);
}

document.getElementById("notation").addEventListener("submit", event => {
  event.preventDefault();
  const input = document.getElementById("notation-input");
  if (input.value.trim()) act(input.value.trim());
  input.value = "";
});
document.getElementById("chat").addEventListener("submit", event => {
  event.preventDefault();
  const input = document.getElementById("chat-input");
  if (input.value.trim() && socket) socket.send(JSON.stringify({ type: "chat", text: input.value }));
  input.value = "";
});
document.getElementById("name-form").addEventListener("submit", event => {
  event.preventDefault();
  const text = document.getElementById("name-input").value.trim();
  if (text && socket) socket.send(JSON.stringify({ type: "name", text }));
});
document.getElementById("name-later").addEventListener("click", () => {
  const form = document.getElementById("name-form");
  try { localStorage.setItem(form.dataset.key, "1"); } catch (err) { /* storage off */ }
  form.hidden = true;
});
// The seat's reaction-window setting ("ask me"): the server applies it; the page only shows and sends it.
let reactionCards = [];
// The setting just sent, until a view shows it (or 5 s pass: the server may refuse it): a view the server
// sent before it had the setting does not redraw the old one over what the person just chose.
let sentAsk = null;
function askShown() {
  if (!sentAsk || sentAsk.seat !== view.seat) return true;  // another seat's screen (hot seat): its own
  const same = view.ask.mode === sentAsk.mode && view.ask.cards.join("|") === sentAsk.cards.join("|");
  if (same || Date.now() > sentAsk.until) sentAsk = null;
  return sentAsk === null;
}
function drawAsk() {
  const box = document.getElementById("ask-box");
  if (view.reaction_cards) reactionCards = view.reaction_cards;  // a full view carries the names
  box.hidden = view.seat === null || !view.ask || view.over;  // nothing more to be asked
  if (box.hidden) return;
  const select = document.getElementById("ask-mode");
  const allowed = view.ask_modes || ["always", "playable", "only", "never"];  // the server says which
  for (const option of select.options) option.hidden = !allowed.includes(option.value);
  select.querySelector('option[value="only"]').hidden ||= reactionCards.length === 0;
  const settled = askShown();
  if (settled && document.activeElement !== select && !select.dataset.choosing) select.value = view.ask.mode;
  const cards = document.getElementById("ask-cards");
  cards.hidden = select.value !== "only";
  if (cards.dataset.names !== reactionCards.join("|")) {
    cards.dataset.names = reactionCards.join("|");
    cards.replaceChildren(...reactionCards.map(name => el("label", {},
      el("input", { type: "checkbox", value: name, "aria-label": `ask me for ${name}` }), ` ${name}`)));
  }
  if (settled && !select.dataset.choosing) {
    for (const box of cards.querySelectorAll("input")) box.checked = view.ask.cards.includes(box.value);
  }
}
function sendAsk() {
  const mode = document.getElementById("ask-mode").value;
  const cards = [...document.querySelectorAll("#ask-cards input:checked")].map(box => box.value);
  const select = document.getElementById("ask-mode");
  if (mode === "only" && cards.length === 0) {  // wait for a card before telling the server
    select.dataset.choosing = "1";
    document.getElementById("ask-cards").hidden = false;
    return;
  }
  delete select.dataset.choosing;
  if (!socket) return;
  sentAsk = { seat: view.seat, mode, cards: mode === "only" ? cards : [], until: Date.now() + 5000 };
  setTimeout(() => { if (view) drawAsk(); }, 5100);  // not shown by then (refused?): the server's setting
  socket.send(JSON.stringify(mode === "only" ? { type: "ask", mode, cards } : { type: "ask", mode }));
}
document.getElementById("ask-mode").addEventListener("change", sendAsk);
document.getElementById("ask-cards").addEventListener("change", sendAsk);
setUpAlerts();
setInterval(tick, 100);
// Opened without a link by a signed-in person: the socket asks for the seat their account keeps here.
(tokens.length ? Promise.resolve() : fetch("/api/me", { credentials: "same-origin" }).then(r => r.json())
  .then(me => { mine[0].account = Boolean(me.account); mine[0].csrf = me.csrf || ""; }).catch(() => {}))
  .then(() => mine.forEach(connect));
