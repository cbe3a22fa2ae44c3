// "My games": the signed-in account's tables (GET /api/me/tables) and this browser's links ("My
// tables", mytables.js), each table once, the ones where it is your turn first. A row is one link to
// the table: a browser link with its token, an account's seat as /t/TABLE (the page then asks for the
// account's seat). Every name is written as text.
"use strict";
const REFRESH_EVERY = 20000;
let titles = null;  // game name -> title, asked once when a browser link needs one
const browserStatus = new Map();  // table -> a finished (or vanished) table's status, asked once

async function getJson(url) {
  const reply = await fetch(url, { credentials: "same-origin" });
  return { ok: reply.ok, status: reply.status, body: await reply.json().catch(() => ({})) };
}

// The account's tables, or null when nobody is signed in.
async function accountTables() {
  const found = await getJson("/api/me/tables");
  if (found.status === 401) return null;
  if (!found.ok) throw new Error(found.body.error || "the server could not list your games");
  return found.body.tables;
}

async function gameTitle(name) {
  if (!titles) {
    titles = new Map();
    try { for (const g of (await getJson("/api/games")).body) titles.set(g.name, g.title); } catch (err) { /* names then */ }
  }
  return titles.get(name) || name;
}

// One row of the list from an account's table (its own status fields) or a browser link's status.
function row({ table, title, href, mine, status }) {
  const seats = status && Array.isArray(status.seats) ? status.seats : [];
  const others = seats.filter(s => !mine.includes(s.seat)).map(s => MyTables.called(s));
  let turn, state;
  if (!status) { turn = "in play"; state = "other"; }
  else if (status.missing) { turn = "no longer on this server"; state = "over"; }
  else if (status.status === "declined") { turn = MyTables.turnText(status, mine[0]); state = "over"; }
  else if (status.status === "waiting") { turn = MyTables.turnText(status, mine[0]); state = "waiting"; }
  else if (status.over) {
    const won = mine.find(s => status.winners.includes(s));
    turn = MyTables.turnText(status, won ?? mine[0]); state = "over";
  } else if (status.yours || (Array.isArray(status.deciders) && mine.some(s => status.deciders.includes(s)))) {
    turn = "your turn"; state = "yours";
  } else if (!Array.isArray(status.deciders)) { turn = "in play"; state = "other"; }
  else { turn = MyTables.turnText(status, mine[0]); state = "other"; }
  const left = MyTables.timeLeftText(status);
  const link = el("a", { class: "game-row", href, "data-table": table, "data-turn": state },
    el("strong", { class: "game-title" }, title),
    el("span", { class: "game-others" }, others.length ? `with ${others.join(", ")}` : "alone"),
    el("span", { class: "game-turn" }, turn),
    el("span", { class: "game-left" }, left));
  return { node: el("li", {}, link), key: urgency(status, state) };
}

// Your turn first, then the others in play (least time left first each), then the rematches waiting
// for their accepts (newest first), then the finished or declined ones (newest first).
function urgency(status, state) {
  if (state === "over") return [3, -(status && (status.ended || status.created) || 0)];
  if (state === "waiting") return [2, -(status.created || 0)];
  const left = status && typeof status.time_left === "number" ? status.time_left : Infinity;
  return [state === "yours" ? 0 : 1, left];
}

// The link a browser entry opens: its own seat's, else any it holds.
function browserLink(entry) {
  const links = entry.links || {};
  const own = entry.seat === null || entry.seat === undefined ? null : links[String(entry.seat)];
  return own || links.hot || Object.values(links)[0] || `/t/${encodeURIComponent(entry.table)}`;
}

async function draw() {
  let kept = null;
  try { kept = await accountTables(); } catch (err) { document.getElementById("games-error").textContent = err.message; }
  document.getElementById("games-invite").hidden = kept !== null;
  const rows = [];
  const shown = new Set();
  for (const t of kept || []) {
    shown.add(t.table);
    const stored = MyTables.load().find(e => e.table === t.table);
    const href = stored && t.mine.includes(stored.seat) ? browserLink(stored) : `/t/${encodeURIComponent(t.table)}`;
    rows.push(row({ table: t.table, title: t.title, href, mine: t.mine, status: t }));
  }
  const entries = MyTables.load().filter(e => !shown.has(e.table));
  const found = await Promise.all(entries.map(async entry => {
    const status = browserStatus.get(entry.table) || await MyTables.status(entry.table);
    if (status && (status.over || status.missing)) browserStatus.set(entry.table, status);
    const mine = entry.seat === null || entry.seat === undefined ? [] : [entry.seat];
    return row({ table: entry.table, title: await gameTitle(entry.game), href: browserLink(entry), mine, status });
  }));
  rows.push(...found);
  rows.sort((a, b) => a.key[0] - b.key[0] || (a.key[1] === b.key[1] ? 0 : a.key[1] < b.key[1] ? -1 : 1));
  const list = document.getElementById("games-list");
  list.replaceChildren(...rows.map(r => r.node));
  if (!rows.length) list.append(el("li", { class: "muted" }, "No games yet: create a table in the lobby."));
  document.body.dataset.drawn = String(Date.now());
}

fetch("/api/me", { credentials: "same-origin" }).then(r => r.json()).then(me => {
  if (me.account) document.getElementById("account-link").textContent = `Account: ${me.account.display_name}`;
}).catch(() => {});
draw();
setInterval(() => { if (document.visibilityState === "visible") draw(); }, REFRESH_EVERY);
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") draw(); });
