// Leaderboards and players' profiles (issue 32). Every name and text from the server is written with
// textContent (never as markup); the rating history is an SVG line plot drawn here, no library.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

function cell(row, text) {
  const td = document.createElement("td");
  td.textContent = text;
  row.append(td);
  return td;
}

async function getJSON(url) {
  const reply = await fetch(url, { headers: { accept: "application/json" } });
  const body = await reply.json();
  if (!reply.ok) throw new Error(body.error || `${reply.status}`);
  return body;
}

const fixed = (x) => Number(x).toFixed(2);

function playerLink(name, username) {
  if (!username) return document.createTextNode(name);
  const a = document.createElement("a");
  a.href = `/players/${encodeURIComponent(username)}`;
  a.textContent = name;
  return a;
}

// ------------------------------------------------------------------ the leaderboard
async function leaderboard() {
  const games = await getJSON("/api/games");
  const params = new URLSearchParams(location.search);
  const game = $("board-game"), players = $("board-players");
  for (const g of games) game.append(new Option(g.title, g.name));
  if (games.some((g) => g.name === params.get("game"))) game.value = params.get("game");
  const fillPlayers = () => {
    const info = games.find((g) => g.name === game.value);
    const wanted = players.value || params.get("players");
    players.replaceChildren();
    for (let n = info.min_players; n <= info.max_players; n++) players.append(new Option(`${n}`, `${n}`));
    if (wanted && [...players.options].some((o) => o.value === wanted)) players.value = wanted;
  };
  let asked = 0;  // the latest board asked for: an earlier answer landing after it is not drawn
  const show = async () => {
    $("board-error").textContent = "";
    const query = new URLSearchParams({ game: game.value, players: players.value });
    history.replaceState(null, "", `/leaderboard?${query}`);
    const mine = ++asked;
    try {
      const found = await getJSON(`/api/leaderboard?${query}`);
      if (mine !== asked) return;
      const rows = $("board-rows");
      rows.replaceChildren();
      for (const entry of found.board) {
        const tr = document.createElement("tr");
        cell(tr, `${entry.place}`);
        const who = cell(tr, "");
        who.append(playerLink(entry.name, entry.username));
        if (entry.bot) who.append(document.createTextNode(" (bot)"));
        cell(tr, fixed(entry.ordinal));
        cell(tr, fixed(entry.mu));
        cell(tr, fixed(entry.sigma));
        cell(tr, `${entry.games}`);
        cell(tr, `${entry.wins}`);
        rows.append(tr);
      }
      $("board-empty").hidden = found.board.length > 0;
    } catch (err) {
      if (mine === asked) $("board-error").textContent = err.message;
    }
  };
  fillPlayers();
  game.addEventListener("change", () => { players.value = ""; fillPlayers(); show(); });
  players.addEventListener("change", show);
  await show();
}

// ------------------------------------------------------------------ a profile
function plot(history) {
  // The ordinal (mu - 3 sigma) after each rated game, with mu as a second, lighter line.
  const width = 480, height = 160, pad = 32;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", `${width}`);
  svg.setAttribute("height", `${height}`);
  svg.setAttribute("role", "img");
  svg.classList.add("rating-plot");
  const values = history.flatMap((h) => [h.ordinal, h.mu]);
  let low = Math.min(...values), high = Math.max(...values);
  if (high - low < 1) { low -= 0.5; high += 0.5; }
  const x = (i) => pad + (history.length > 1 ? (i * (width - 2 * pad)) / (history.length - 1) : (width - 2 * pad) / 2);
  const y = (v) => height - pad + ((v - low) * (2 * pad - height)) / (high - low);
  const line = (key, colour, dash) => {
    const path = document.createElementNS(SVG, "polyline");
    path.setAttribute("points", history.map((h, i) => `${x(i).toFixed(1)},${y(h[key]).toFixed(1)}`).join(" "));
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", colour);
    path.setAttribute("stroke-width", "2");
    if (dash) path.setAttribute("stroke-dasharray", "4 3");
    svg.append(path);
  };
  const axis = document.createElementNS(SVG, "path");
  axis.setAttribute("d", `M${pad},${pad / 2} V${height - pad} H${width - pad / 2}`);
  axis.setAttribute("stroke", "#555");
  axis.setAttribute("fill", "none");
  svg.append(axis);
  for (const [value, dy] of [[high, 4], [low, 0]]) {
    const label = document.createElementNS(SVG, "text");
    label.setAttribute("x", "2");
    label.setAttribute("y", `${y(value) + dy}`);
    label.setAttribute("font-size", "10");
    label.textContent = value.toFixed(1);
    svg.append(label);
  }
  const caption = document.createElementNS(SVG, "text");
  caption.setAttribute("x", `${pad}`);
  caption.setAttribute("y", `${height - 8}`);
  caption.setAttribute("font-size", "10");
  caption.textContent = `${history.length} rated game${history.length === 1 ? "" : "s"}: rating (solid), μ (dashed)`;
  svg.append(caption);
  line("mu", "#999", true);
  line("ordinal", "#00529b", false);
  history.forEach((h, i) => {
    const dot = document.createElementNS(SVG, "circle");
    dot.setAttribute("cx", x(i).toFixed(1));
    dot.setAttribute("cy", y(h.ordinal).toFixed(1));
    dot.setAttribute("r", "3");
    dot.setAttribute("fill", "#00529b");
    const tip = document.createElementNS(SVG, "title");
    tip.textContent = `${new Date(h.at * 1000).toLocaleString()}: place ${h.place}, rating ${fixed(h.ordinal)}`;
    dot.append(tip);
    svg.append(dot);
  });
  return svg;
}

async function profile() {
  const username = decodeURIComponent(location.pathname.split("/").pop() || "");
  let found;
  try {
    found = await getJSON(`/api/players/${encodeURIComponent(username)}`);
  } catch (err) {
    $("profile-error").textContent = err.message;
    return;
  }
  document.title = `${found.display_name} · Parlour`;
  $("profile-name").textContent = found.display_name;
  $("profile-username").textContent = found.bot ? `(${found.username}, a bot)` : `(${found.username})`;
  $("profile-timeouts").textContent = `The clock ran out on this player ${found.timeouts} time${found.timeouts === 1 ? "" : "s"}.`;
  // Each game by its title (the server's list of games), its name where the list has none.
  const titles = new Map((await getJSON("/api/games").catch(() => [])).map((g) => [g.name, g.title]));
  const titled = (name) => titles.get(name) || name;
  const games = $("profile-games");
  for (const g of found.games) {
    const tr = document.createElement("tr");
    cell(tr, titled(g.game));
    cell(tr, `${g.played}`);
    cell(tr, `${g.playing}`);
    cell(tr, `${g.wins}`);
    cell(tr, Object.entries(g.places).map(([place, count]) => `${place}: ${count}×`).join(", "));
    games.append(tr);
  }
  const ratings = $("profile-ratings");
  if (!found.ratings.length) {
    const p = document.createElement("p");
    p.className = "muted";
    p.textContent = "No rated game yet.";
    ratings.append(p);
  }
  for (const r of found.ratings) {
    const box = document.createElement("div");
    box.className = "rating";
    const title = document.createElement("h3");
    const link = document.createElement("a");
    link.href = `/leaderboard?${new URLSearchParams({ game: r.game, players: `${r.players}` })}`;
    link.textContent = `${titled(r.game)}, ${r.players} players`;
    title.append(link);
    const line = document.createElement("p");
    line.textContent = `Rating ${fixed(r.ordinal)} (μ ${fixed(r.mu)}, σ ${fixed(r.sigma)}), ${r.games} games, ${r.wins} wins`;
    box.append(title, line, plot(r.history));
    ratings.append(box);
  }
}

window.Ratings = { leaderboard, profile };
if ($("board")) leaderboard();
if ($("profile-games")) profile();
