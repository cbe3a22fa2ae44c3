// The front page: create a table (game, seats, options, clocks) and list the tables.
"use strict";
let games = [];

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

function chosenGame() { return games.find(g => g.name === document.getElementById("game").value); }

// The bots a seat may have: each game's own, and the search bot at three strengths (its thinking time).
const SEARCH_LEVELS = [["ismcts:200ms", "search, quick"], ["ismcts:1s", "search, 1 s"], ["ismcts:2s", "search, 2 s"]];

function botChoices(game) {
  const plain = game.bots.filter(b => b !== "ismcts").map(b => [b, `bot: ${b}`]);
  return game.bots.includes("ismcts") ? plain.concat(SEARCH_LEVELS.map(([v, l]) => [v, `bot: ${l}`])) : plain;
}

function drawSeats() {
  const game = chosenGame();
  const count = Number(document.getElementById("players").value);
  const box = document.getElementById("seats");
  box.replaceChildren();
  for (let s = 0; s < count; s++) {
    const select = el("select", { id: `seat-${s}`, "aria-label": `seat ${s}` });
    select.append(el("option", { value: "human" }, "person"));
    for (const [value, label] of botChoices(game)) select.append(el("option", { value }, label));
    if (s > 0) select.value = game.bots.includes("greedy") ? "greedy" : game.bots[0];
    const auto = el("input", { type: "checkbox", id: `auto-${s}`, checked: "" });
    const autoLabel = el("label", {}, auto, " pass for them where they may only pass");
    const sync = () => { autoLabel.hidden = select.value !== "human"; };
    select.addEventListener("change", sync);
    sync();
    box.append(el("div", {}, `Seat ${s} `, select, " ", autoLabel));
  }
}

function drawGame() {
  const game = chosenGame();
  const players = document.getElementById("players");
  players.replaceChildren();
  for (let n = game.min_players; n <= game.max_players; n++) players.append(el("option", { value: n }, String(n)));
  players.value = String(Math.min(Math.max(4, game.min_players), game.max_players));
  const options = document.getElementById("options");
  options.replaceChildren();
  for (const o of game.options) {
    const input = el("input", { id: `option-${o.name}`, placeholder: String(o.default), title: o.doc });
    options.append(el("div", {}, el("label", {}, `${o.name} (${o.values}) `, input)));
  }
  drawSeats();
}

async function create(event) {
  event.preventDefault();
  const game = chosenGame();
  const count = Number(document.getElementById("players").value);
  const seats = [];
  for (let s = 0; s < count; s++) {
    const v = document.getElementById(`seat-${s}`).value;
    const auto = document.getElementById(`auto-${s}`).checked;
    seats.push(v === "human" ? { kind: "human", auto_pass: auto } : { kind: "bot", bot: v });
  }
  const options = {};
  for (const o of game.options) {
    const v = document.getElementById(`option-${o.name}`).value.trim();
    if (v) options[o.name] = v;
  }
  const body = { game: game.name, seats, options };
  for (const k of ["move_seconds", "game_seconds"]) {
    const v = document.getElementById(k).value;
    if (v) body[k] = Number(v);
  }
  const reply = await fetch("/api/tables", { method: "POST", body: JSON.stringify(body),
                                             headers: { "content-type": "application/json" } });
  const data = await reply.json();
  const links = document.getElementById("links");
  links.replaceChildren();
  if (!reply.ok) { links.append(el("p", { class: "error" }, data.error)); return; }
  links.append(el("p", {}, "Send each person their own link (it is their seat's key):"));
  const list = el("ul");
  for (const [seat, url] of Object.entries(data.seats)) {
    list.append(el("li", {}, el("a", { href: url, class: "seat-link", "data-seat": seat }, `Seat ${seat}`)));
  }
  const people = Object.values(data.seats);
  if (people.length > 1) {
    const all = people.map(url => url.split("#k=")[1]).join(",");
    const link = `${people[0].split("#k=")[0]}#k=${all}`;
    list.append(el("li", {}, el("a", { href: link, class: "hot-seat-link" }, "Everyone at this screen (hot-seat)")));
  }
  list.append(el("li", {}, el("a", { href: data.spectator, class: "spectator-link" }, "Spectators")));
  links.append(list);
  listTables();
}

async function listTables() {
  const tables = await (await fetch("/api/tables")).json();
  const list = document.getElementById("tables");
  list.replaceChildren();
  for (const t of tables) {
    const who = t.seats.map(s => s.kind === "bot" ? s.bot : "person").join(", ");
    const item = el("li", {}, `${t.game}, ${t.players} players (${who}): ${t.status}, ${t.version} moves`);
    // A finished game is open to everyone (results, record, replay); one in play only by its links.
    if (t.status === "over") item.append(" ", el("a", { href: `/t/${t.table}`, class: "results-link" }, "results and replay"));
    list.append(item);
  }
}

async function start() {
  games = await (await fetch("/api/games")).json();
  const select = document.getElementById("game");
  for (const g of games) select.append(el("option", { value: g.name }, g.title));
  select.addEventListener("change", drawGame);
  document.getElementById("players").addEventListener("change", drawSeats);
  document.getElementById("create").addEventListener("submit", create);
  drawGame();
  listTables();
}
start();
