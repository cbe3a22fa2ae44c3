// The front page: create a table (game, seats and names, options, clocks), show its links, list the
// tables of this browser ("my tables") and the server's.
"use strict";
const REFRESH_EVERY = 20000;  // ms between two askings of whose turn it is, while the page is in view
let games = [], info = { games: {}, bots: {}, bot_order: [], reference_games: [] };
let onlineBots = [];  // the server's bot accounts online now (GET /api/bots): seats "account:NAME"

function byId(id) { return document.getElementById(id); }

function chosenGame() { return games.find(g => g.name === byId("game").value); }

function gameTitle(name) { return (games.find(g => g.name === name) || { title: name }).title; }

// The bots a seat may have, easiest first: [name, label]; the search bot at three thinking times.
function botChoices(game) {
  const names = game.bots.filter(b => b !== "ismcts");
  if (game.bots.includes("ismcts")) names.push("ismcts:200ms", "ismcts:1s", "ismcts:2s");
  const rank = b => { const i = info.bot_order.indexOf(b); return i < 0 ? info.bot_order.length : i; };
  const ours = names.sort((a, b) => rank(a) - rank(b)).map(b => [b, `bot: ${b}`]);
  return ours.concat(onlineBots.map(name => [`account:${name}`, `online bot: ${name}`]));
}

function seatHelp(value) {
  if (value === "human") return "a person: send them their seat's link";
  if (value.startsWith("account:")) return "a bot account online at this server: its own program plays the seat";
  return info.bots[value] || "a bot";
}

function defaultBot(game) {
  const names = botChoices(game).map(([b]) => b);
  return names.includes("greedy") ? "greedy" : names[0];
}

function drawSeats() {
  const game = chosenGame();
  const count = Number(byId("players").value);
  const box = byId("seats");
  box.replaceChildren();
  for (let s = 0; s < count; s++) {
    const select = el("select", { id: `seat-${s}`, "aria-label": `seat ${s}: who plays it` });
    select.append(el("option", { value: "human" }, "person"));
    for (const [value, label] of botChoices(game)) select.append(el("option", { value }, label));
    select.value = s === 0 ? "human" : defaultBot(game);
    const name = el("input", { id: `name-${s}`, maxlength: "24", placeholder: "name (optional)",
                               "aria-label": `seat ${s}: the person's name`, autocomplete: "off" });
    const auto = el("input", { type: "checkbox", id: `auto-${s}`, checked: "" });
    const autoLabel = el("label", {}, auto, " in reaction windows, ask them only where they can play a card");
    const help = el("span", { class: "muted seat-help", id: `seat-help-${s}` });
    const sync = () => {
      const person = select.value === "human";
      autoLabel.hidden = name.hidden = !person;
      help.textContent = seatHelp(select.value);
    };
    select.addEventListener("change", sync);
    select.addEventListener("change", watchers);
    sync();
    box.append(el("div", { class: "seat-row" }, `Seat ${s} `, select, " ", name, " ", help, " ", autoLabel));
  }
}

// "Let others watch": off for one person and bots (no pauses), on otherwise, until
// the person creating the table ticks or unticks it.
function watchers() {
  const box = byId("spectators");
  if (box.dataset.touched) return;
  const people = [...document.querySelectorAll("#seats select")].filter(s => s.value === "human").length;
  box.checked = people !== 1;  // bots alone: the link is the only way to watch them
}

function words(name) { return name.replaceAll("_", " "); }

// One option as a proper control: a checkbox (two choices), a select (choices), a number (integer).
function optionControl(o) {
  const id = `option-${o.name}`;
  if (o.kind === "boolean") {
    const on = o.choices.includes("yes") ? "yes" : "on";
    const box = el("input", { type: "checkbox", id, "data-on": on, "data-off": on === "yes" ? "no" : "off" });
    box.checked = o.default === on;
    return el("label", { class: "option" }, box, ` ${words(o.name)}: `, el("span", { class: "muted" }, o.doc));
  }
  let input;
  if (o.kind === "integer") {
    input = el("input", { type: "number", id, min: String(o.minimum), step: "1", value: String(o.default) });
  } else {
    input = el("select", { id });
    const values = o.kind === "content" ? ["house"] : o.choices;
    for (const v of values) input.append(el("option", { value: v }, v === o.default ? `${v} (default)` : v));
    input.value = String(o.default);
  }
  return el("label", { class: "option" }, `${words(o.name)} `, input, " ", el("span", { class: "muted" }, o.doc));
}

function drawAbout(game) {
  const about = info.games[game.name] || {};
  const players = game.min_players === game.max_players ? `${game.min_players}` : `${game.min_players}–${game.max_players}`;
  byId("about").replaceChildren(
    el("p", {}, about.about || ""),
    el("p", { class: "muted" }, `${players} players. ${about.length || ""} `,
       el("a", { href: `/statistics/${game.name}`, "data-statistics": game.name }, "statistics")));
}

function drawGame() {
  const game = chosenGame();
  byId("create-error").textContent = "";
  drawAbout(game);
  const players = byId("players");
  players.replaceChildren();
  for (let n = game.min_players; n <= game.max_players; n++) players.append(el("option", { value: n }, String(n)));
  players.value = String(Math.min(Math.max(4, game.min_players), game.max_players));
  byId("options").replaceChildren(...game.options.map(o => el("div", {}, optionControl(o))));
  drawSeats();
  watchers();
}

function drawGameList() {
  const select = byId("game");
  const was = select.value;
  const reference = byId("show-reference").checked;
  select.replaceChildren();
  for (const g of games) {
    if (!reference && info.reference_games.includes(g.name)) continue;
    select.append(el("option", { value: g.name }, g.title));
  }
  const names = [...select.options].map(o => o.value);
  select.value = names.includes(was) ? was : (names.includes(info.default_game) ? info.default_game : names[0]);
  if (select.value !== was) drawGame();
}

function readOptions(game) {
  const options = {};
  for (const o of game.options) {
    const input = byId(`option-${o.name}`);
    const value = input.type === "checkbox" ? (input.checked ? input.dataset.on : input.dataset.off) : input.value.trim();
    if (value !== "" && value !== String(o.default)) options[o.name] = o.kind === "integer" ? Number(value) : value;
  }
  return options;
}

function readSeats(count) {
  const seats = [];
  for (let s = 0; s < count; s++) {
    const v = byId(`seat-${s}`).value;
    if (v !== "human") { seats.push({ kind: "bot", bot: v }); continue; }
    // Unticked: asked in every window. Ticked: the server's default (only where they can play a card;
    // at a turn-based table others watch, never: ruling S-2).
    const seat = byId(`auto-${s}`).checked ? { kind: "human" } : { kind: "human", auto_pass: false };
    const name = byId(`name-${s}`).value.trim();
    if (name) seat.name = name;
    seats.push(seat);
  }
  return seats;
}

async function create(event) {
  event.preventDefault();
  const game = chosenGame();
  const seats = readSeats(Number(byId("players").value));
  const body = { game: game.name, seats, options: readOptions(game), spectators: byId("spectators").checked };
  const hours = byId("pace").value;  // turn-based: hours a move (the live clocks below do not apply)
  if (hours) Object.assign(body, { pace: "turn-based", move_hours: Number(hours) });
  for (const k of hours ? [] : ["move_seconds", "game_seconds"]) {
    const v = byId(k).value;
    if (v) body[k] = Number(v);
  }
  byId("create-error").textContent = "";
  const headers = { "content-type": "application/json" };
  if (csrf && byId("rated").checked) {
    body.rated = true;
    headers["x-csrf-token"] = csrf;
  }
  const reply = await fetch("/api/tables", { method: "POST", body: JSON.stringify(body), headers });
  const data = await reply.json();
  if (!reply.ok) { byId("create-error").textContent = data.error; return; }
  const names = {};
  seats.forEach((s, i) => { if (s.name) names[i] = s.name; });
  const links = { ...data.seats, spectator: data.spectator };
  const people = Object.values(data.seats);
  if (people.length > 1) links.hot = `${people[0].split("#k=")[0]}#k=${people.map(u => u.split("#k=")[1]).join(",")}`;
  const mine = Object.keys(data.seats).map(Number)[0];
  MyTables.remember({ table: data.table, game: game.name, created: Date.now(), seat: mine ?? null, links, names });
  showLinks(byId("links"), MyTables.load()[0], true);
  drawMine();
  listTables();
}

function absolute(url) { return new URL(url, location.origin).href; }

async function copy(text, input, button) {
  try {
    await navigator.clipboard.writeText(text);
  } catch (err) {  // no clipboard API (a page over plain http): copy the selected text
    input.select();
    document.execCommand("copy");
  }
  button.textContent = "copied";
  setTimeout(() => { button.textContent = "copy"; }, 1500);
}

// One link: its label (a link to open it), its full address to read, and a copy button.
function linkRow(label, url, cls, seat) {
  const full = absolute(url);
  const attrs = { href: url, class: cls };
  if (seat !== undefined) attrs["data-seat"] = seat;
  const input = el("input", { class: "link-url", readonly: "", value: full, "aria-label": `address: ${label}` });
  input.addEventListener("focus", () => input.select());
  const button = el("button", { type: "button", class: "copy" }, "copy");
  button.addEventListener("click", () => copy(full, input, button));
  return el("li", {}, el("a", attrs, label), " ", input, " ", button);
}

function seatLabel(entry, seat) {
  const name = entry.names && entry.names[seat];
  const you = entry.seat === Number(seat) ? " (you)" : "";
  return `Seat ${seat}${name ? ` · ${name}` : ""}${you}`;
}

// A table's links: each seat's, everyone at one screen (hot-seat), the spectators'.
function showLinks(box, entry, fresh) {
  const list = el("ul", { class: "links" });
  const seats = Object.keys(entry.links).filter(k => /^\d+$/.test(k)).sort((a, b) => a - b);
  for (const seat of seats) list.append(linkRow(seatLabel(entry, seat), entry.links[seat], "seat-link", seat));
  if (entry.links.hot) list.append(linkRow("Everyone at this screen (hot-seat)", entry.links.hot, "hot-seat-link"));
  if (entry.links.spectator) list.append(linkRow("Spectators", entry.links.spectator, "spectator-link"));
  const intro = fresh ? [el("p", {}, `${gameTitle(entry.game)}: send each person their own link (it is their seat's key; `
                              + "it is also kept under \"My tables\" in this browser):")] : [];
  box.replaceChildren(...intro, list);
}

function drawMine() {
  const list = byId("my-tables");
  const tables = MyTables.load();
  list.replaceChildren();
  if (!tables.length) list.append(el("li", { class: "muted" }, "none yet"));
  for (const entry of tables) {
    const when = entry.created ? new Date(entry.created).toLocaleString() : "";
    const you = entry.seat === null || entry.seat === undefined ? "" : `, your seat: ${seatLabel({ ...entry, seat: null }, entry.seat)}`;
    const forget = el("button", { type: "button", class: "forget" }, "forget");
    forget.addEventListener("click", () => { MyTables.forget(entry.table); drawMine(); });
    const links = el("div");
    showLinks(links, entry, false);
    const turn = el("span", { class: "my-turn", "aria-live": "polite" });
    list.append(el("li", { class: "my-table", "data-table": entry.table },
                   el("strong", {}, gameTitle(entry.game)), " ", turn, ` ${when}${you} `, forget, links));
  }
  drawTurns(tables);
}

// Whose turn it is at each of my tables and how long the person asked has left, from the tables'
// public status (no link is sent); a finished table's is asked once. The list is then ordered by
// urgency: your turn first, then the least time left.
const finished = new Map();
async function drawTurns(tables) {
  const statuses = new Map();
  const item = entry => document.querySelector(`#my-tables li[data-table="${CSS.escape(entry.table)}"]`);
  await Promise.all(tables.map(async entry => {
    const status = finished.get(entry.table) || await MyTables.status(entry.table);
    if (status && (status.over || status.missing)) finished.set(entry.table, status);
    const box = item(entry)?.querySelector(".my-turn");
    if (!box || !status) return;
    statuses.set(entry.table, status);
    const text = status.missing ? "no longer on this server" : MyTables.turnText(status, entry.seat);
    const left = MyTables.timeLeftText(status);
    box.textContent = `· ${text}${left ? `, ${left}` : ""} ·`;
    box.dataset.turn = status.missing ? "missing" : status.over ? "over" : text === "your turn" ? "yours" : "other";
    if (typeof status.time_left === "number" && !status.over) box.dataset.left = String(Math.round(status.time_left));
  }));
  const list = byId("my-tables");
  for (const entry of MyTables.byUrgency(tables, statuses)) {
    const found = item(entry);
    if (found) list.append(found);  // moved to the end, in order of urgency
  }
}

async function listTables() {
  const tables = await (await fetch("/api/tables")).json();
  const list = byId("tables");
  list.replaceChildren();
  for (const t of tables) {
    const who = t.seats.map(s => MyTables.called(s)).join(", ");
    const item = el("li", {}, `${gameTitle(t.game)}, ${t.players} players (${who}): ${t.status}, ${t.version} moves`);
    // A finished game is open to everyone (results, record, replay); one in play only by its links.
    if (t.status === "over") item.append(" ", el("a", { href: `/t/${t.table}`, class: "results-link" }, "results and replay"));
    list.append(item);
  }
}

async function start() {
  [games, info] = await Promise.all([(await fetch("/api/games")).json(), (await fetch("/static/lobby.json")).json()]);
  try { onlineBots = (await (await fetch("/api/bots")).json()).bots || []; } catch (err) { onlineBots = []; }
  const clear = () => { byId("create-error").textContent = ""; };
  byId("game").addEventListener("change", drawGame);
  byId("players").addEventListener("change", () => { clear(); drawSeats(); watchers(); });
  byId("spectators").addEventListener("change", event => { event.target.dataset.touched = "1"; });
  byId("create").addEventListener("input", clear);
  byId("create").addEventListener("submit", create);
  byId("show-reference").addEventListener("change", drawGameList);
  drawGameList();  // draws the default game
  drawMine();
  listTables();
  // Turns move on: both lists are asked again every 20 s while the page is in view.
  setInterval(() => {
    if (document.visibilityState !== "visible") return;
    drawTurns(MyTables.load());
    listTables();
  }, REFRESH_EVERY);
}

// "Learn to play": a link to each game's tutorial (GET /api/learn lists them), the others named as to come.
async function drawLearn() {
  try {
    const tutorials = await (await fetch("/api/learn")).json();
    const list = byId("learn-links");
    const shown = games.filter(g => !info.reference_games.includes(g.name));
    list.replaceChildren(...shown.map(g => {
      const t = tutorials.find(x => x.game === g.name);
      if (!t) return el("li", { class: "muted" }, `${g.title}: a tutorial is on its way`);
      return el("li", {}, el("a", { href: `/learn/${g.name}`, "data-learn": g.name }, `Learn to play ${g.title}`),
                ` (${t.steps} steps, then a short game)`);
    }));
  } catch (err) { /* no tutorials listed */ }
}
start().then(drawLearn);

// The header's account link names the signed-in account (written as text).
// Signed in, a table may be made rated (docs/server.md "Ratings"): the request carries the CSRF token.
let csrf = null;
fetch("/api/me", { credentials: "same-origin" }).then(r => r.json()).then(me => {
  if (!me.account) return;
  document.getElementById("account-link").textContent = `Account: ${me.account.display_name}`;
  csrf = me.csrf;
  document.getElementById("rated-row").hidden = false;
}).catch(() => {});
