// Venus Needs Men!'s drawn table (docs/browser-tables/venus_needs_men.md): the map from the map data, every
// ship by name at its area, population, planets, Zap hands, the Enhanced game's cards and research, the
// last dice roll and the Zap window's countdown. A click turns into a legal text the server listed (api.legal):
// no rule lives here; the texts are only read (verb, ship, area or target, card number).
(() => {
  "use strict";

  const SHIP_W = 46, SHIP_H = 26, PER_ROW = 4;
  const RADII = { home: 46, space: 32, land: 27, ocean: 27 };
  const FILLS = { space: "#000000", orbit: "#101a3c", land: "#2f7a3c", ocean: "#24589a", refuge: "#1d4d2a" };
  const SOLO = ["infect", "purge", "release"];

  // ---------------------------------------------------------------- reading the legal texts
  // Each legal text split into its parts: verb, ship, target ship, area, card number.
  function parse(text) {
    const w = text.split(" ");
    const verb = w[0];
    const p = { text, verb, ship: "", target: "", area: "", card: null, extra: "" };
    if (verb === "move" || verb === "collect") { p.ship = w[1]; p.area = w[2] && w[2] !== "infected" ? w[2] : ""; p.extra = w[w.length - 1] === "infected" ? "infected" : ""; }
    else if (verb === "attack" || verb === "control") { p.ship = w[1]; p.target = w[2]; p.extra = w[3] || ""; }
    else if (SOLO.includes(verb)) p.ship = w[1];
    else if (verb === "build") p.area = w[1] || "";
    else if (verb === "zap" || verb === "extend") { p.card = Number(w[1]); p.target = w[2] || ""; }
    else if (verb === "research" || verb === "cycle") p.area = w[1];
    return p;
  }

  function isShip(word) { return /^[A-Z][0-9]+$/.test(word); }

  // ---------------------------------------------------------------- the dice, from the log
  const ROLL = /^(.+?) (attacks|researches) (.+?)(?: with (.+?))?: rolls (\d+(?: \d+)*)(.*)$/;

  // Keeps the latest roll seen in the log (attacks and research) in memory, with the lines that followed
  // it (a Zap window may open between the roll and its outcome) until the next attack or turn.
  function readRolls(api) {
    const mem = api.memory;
    for (const entry of api.view.log || []) {
      if (mem.logSeen !== undefined && entry.number <= mem.logSeen) continue;
      mem.logSeen = entry.number;
      for (const line of entry.lines || []) {
        const m = ROLL.exec(line);
        if (m) {
          mem.roll = { who: m[1], kind: m[2], what: m[3], weapon: m[4] || "", dice: m[5].split(" ").map(Number),
                       line, after: [], open: true, version: api.view.version };
        } else if (mem.roll && mem.roll.open) {
          if (/^Turn \d+/.test(line) || / declares an attack /.test(line)) mem.roll.open = false;
          else if (mem.roll.after.length < 8) mem.roll.after.push(line);
        }
      }
    }
  }

  // ---------------------------------------------------------------- drawing helpers
  function planetOfShip(api, ship) {
    for (const [id, p] of Object.entries(api.content.planets)) if (p.ships.includes(ship)) return id;
    return null;
  }
  function colour(api, planet) { const p = api.content.planets[planet]; return p ? p.colour : "#bbbbbb"; }
  function pname(api, planet) { const p = api.content.planets[planet]; return p ? p.name : planet; }
  function ink(hex) {
    const r = parseInt(hex.slice(1, 3), 16), g = parseInt(hex.slice(3, 5), 16), b = parseInt(hex.slice(5, 7), 16);
    return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? "#000000" : "#ffffff";
  }
  function txt(api, x, y, text, size, attrs = {}) {
    const t = api.svg("text", { x, y, "font-size": size, "text-anchor": "middle", "dominant-baseline": "central", ...attrs });
    t.textContent = text;
    return t;
  }
  function title(api, node, text) { const t = api.svg("title"); t.textContent = text; node.prepend(t); return node; }

  // Where the row of ships of an area goes.
  function shipRow(area, ring) {
    if (area.kind === "orbit") return [area.x, area.y - ring + SHIP_H / 2 + 10, 1];
    if (area.kind === "refuge") return [area.x, area.y + 25 + SHIP_H / 2 + 6, 1];
    if (area.kind === "home") return [area.x, area.y + RADII.home + SHIP_H / 2 + 6, area.y > 800 ? -1 : 1];
    return [area.x, area.y - RADII[area.kind] - SHIP_H / 2 - 3, -1];
  }

  // Where the dice tray lies (top of the map, between the Refuge and Pluto): no ship is placed under it.
  const TRAY = { right: 858, y: 30, D: 34, left: 236 };
  const GAP = 3;

  // The boxes nothing may cover: every area's shape and name (as drawn by drawArea), Orbit's plate, the
  // dice tray; each [x1, y1, x2, y2].
  function obstacles(c, areas) {
    const boxes = [[TRAY.left, TRAY.y - TRAY.D / 2 - 6, TRAY.right, TRAY.y + TRAY.D / 2 + 6]];
    const textBox = (x, y, text, size) => { const w = text.length * size * 0.62 + 6; return [x - w / 2, y - size * 0.7, x + w / 2, y + size * 0.7]; };
    const orbit = areas[c.map.orbit];
    boxes.push([orbit.x - 50, orbit.y - c.map.ring - 30, orbit.x + 50, orbit.y - c.map.ring + 2]);
    for (const a of c.map.areas) {
      if (a.kind === "orbit") continue;
      if (a.kind === "refuge") { boxes.push([a.x - 110, a.y - 26, a.x + 110, a.y + 26]); continue; }
      const rx = a.kind === "ocean" ? RADII.ocean + 12 : RADII[a.kind], ry = a.kind === "ocean" ? RADII.ocean - 4 : RADII[a.kind];
      boxes.push([a.x - rx - 1, a.y - ry - 1, a.x + rx + 1, a.y + ry + 1]);
      if (a.kind !== "home") boxes.push(textBox(a.x, a.y + RADII[a.kind] + 13, a.name, a.kind === "space" ? 17 : 15));
      if (a.kind === "land") boxes.push([a.x + RADII.land, a.y - 10, a.x + RADII.land + 28, a.y + 10]);  // infected units
    }
    return boxes;
  }

  // Candidate centres around a point, nearest first (rings outward; within a ring, from the top clockwise).
  let OFFSETS = null;
  function offsets() {
    if (OFFSETS) return OFFSETS;
    OFFSETS = [[0, 0]];
    for (let d = 6; d <= 360; d += 6) {
      const n = Math.max(8, Math.round(2 * Math.PI * d / 10));
      for (let k = 0; k < n; k++) {
        const t = -Math.PI / 2 + 2 * Math.PI * k / n;
        OFFSETS.push([Math.round(d * Math.cos(t)), Math.round(d * Math.sin(t) * 0.8)]);
      }
    }
    return OFFSETS;
  }

  // Each ship's place: the free slot nearest its area (computed from the map's data) where its chip
  // covers no other chip, no area, no area's name and not the dice tray; inside the map.
  function shipPlaces(api, areas, ring) {
    const o = api.observation, c = api.content, S = c.map.size, places = {};
    const by = {};
    for (const [ship, where] of Object.entries(o.ships)) if (where) (by[where] = by[where] || []).push(ship);
    const taken = obstacles(c, areas);
    const free = (x, y) => {
      const b = [x - SHIP_W / 2 - GAP, y - SHIP_H / 2 - GAP, x + SHIP_W / 2 + GAP, y + SHIP_H / 2 + GAP];
      if (b[0] < 0 || b[1] < 0 || b[2] > S || b[3] > S) return false;
      return !taken.some(t => b[0] < t[2] && t[0] < b[2] && b[1] < t[3] && t[1] < b[3]);
    };
    for (const a of c.map.areas) {
      const ships = by[a.id];
      if (!ships) continue;
      ships.sort((p, q) => p.localeCompare(q, "en", { numeric: true }));
      // Orbit's ships gather by its plate, the others around their area.
      const [cx, cy] = a.kind === "orbit" ? [a.x, a.y - ring - 14] : [a.x, a.y];
      for (const ship of ships) {
        const spot = offsets().find(([dx, dy]) => free(cx + dx, cy + dy));
        const [x, y] = spot ? [cx + spot[0], cy + spot[1]] : [cx, cy];
        places[ship] = [x, y];
        taken.push([x - SHIP_W / 2, y - SHIP_H / 2, x + SHIP_W / 2, y + SHIP_H / 2]);
      }
    }
    return places;
  }

  // ---------------------------------------------------------------- the map
  function drawMap(api, ctx) {
    const { content: c, observation: o } = api;
    const S = c.map.size, ring = c.map.ring, areas = ctx.areas;
    const svg = api.svg("svg", { viewBox: `0 0 ${S} ${S}`, class: "vnm-map", role: "group",
      "aria-label": `The map: ${c.map.areas.length} areas; ships by name at their areas` });
    svg.append(api.svg("rect", { x: 0, y: 0, width: S, height: S, fill: "#070716" }));
    const orbit = areas[c.map.orbit];
    const orbitRing = api.svg("circle", { cx: orbit.x, cy: orbit.y, r: ring, fill: FILLS.orbit, stroke: "#a8b0d8", "stroke-width": 3, class: "area", "data-area": orbit.id });
    // Orbit: its ring, and a plate with its name (the Earth areas lie inside the ring).
    const plate = api.svg("rect", { x: orbit.x - 50, y: orbit.y - ring - 30, width: 100, height: 32, rx: 8, fill: FILLS.orbit, stroke: "#a8b0d8", "stroke-width": 2, class: "area hit" });
    const orbitGroup = api.svg("g", { class: "area-g", "data-area": orbit.id, "data-kind": "orbit" }, orbitRing, plate,
      txt(api, orbit.x, orbit.y - ring - 14, "Orbit", 22, { fill: "#e8ecf8", "font-weight": "bold" }));
    const orbitLabel = `Orbit (reaches every Earth area)`;
    orbitGroup.dataset.label = orbitLabel;
    title(api, orbitGroup, orbitLabel);
    svg.append(orbitGroup);
    ctx.areaNodes[orbit.id] = orbitGroup;
    // Neighbour lines.
    const rank = {};
    c.map.areas.forEach((a, i) => { rank[a.id] = i; });
    const lines = api.svg("g", { class: "lines", "aria-hidden": "true" });
    for (const a of c.map.areas) for (const b of a.neighbours) {
      if (rank[b] <= rank[a.id]) continue;
      const end = (p, q) => {
        if (p.kind !== "orbit") return [p.x, p.y];
        const d = Math.hypot(q.x - p.x, q.y - p.y) || 1;
        return [p.x + (q.x - p.x) * ring / d, p.y + (q.y - p.y) * ring / d];
      };
      const [x1, y1] = end(a, areas[b]), [x2, y2] = end(areas[b], a);
      lines.append(api.svg("line", { x1, y1, x2, y2, stroke: "#a8b0d8", "stroke-width": 2, "stroke-dasharray": "7 6" }));
    }
    svg.append(lines);
    for (const a of c.map.areas) if (a.kind !== "orbit") svg.append(drawArea(api, ctx, a));
    // An attack being declared or rolled (a Zap window): an arrow from attacker to target.
    const w = o.window;
    if (w && w.attacker && ctx.places[w.attacker]) {
      const [x1, y1] = ctx.places[w.attacker];
      const to = w.target === "refuge" ? [areas[c.map.refuge].x, areas[c.map.refuge].y] : ctx.places[w.target];
      if (to) svg.append(api.svg("line", { x1, y1, x2: to[0], y2: to[1], class: "attack-line", stroke: "#ffffff", "stroke-width": 5, "marker-end": "url(#vnm-arrow)" }));
    }
    const defs = api.svg("defs", {}, api.svg("marker", { id: "vnm-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto" },
      api.svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "#ffffff" })));
    svg.prepend(defs);
    // Ships destroyed by the last move (ghosts that fade), then every ship.
    if (ctx.fresh && api.previous) {
      for (const [ship, was] of Object.entries(api.previous.ships || {})) {
        if (was && !o.ships[ship] && areas[was]) {
          const [x, y] = shipRow(areas[was], ring);
          const g = api.svg("g", { class: "ghost arrived", "aria-hidden": "true" },
            api.svg("rect", { x: x - SHIP_W / 2, y: y - SHIP_H / 2, width: SHIP_W, height: SHIP_H, rx: 5, fill: "none", stroke: "#ffffff", "stroke-dasharray": "4 3", "stroke-width": 2 }),
            txt(api, x, y, `${ship} ✕`, 15, { fill: "#ffffff", "font-weight": "bold" }));
          svg.append(g);
        }
      }
    }
    // A chip pushed away from its area by others is tied to it by a thin line in its planet's colour.
    const ties = api.svg("g", { class: "ties", "aria-hidden": "true" });
    for (const [ship, where] of Object.entries(o.ships)) {
      const a = areas[where], at = ctx.places[ship];
      if (!a || !at || a.kind === "orbit") continue;
      const d = Math.hypot(at[0] - a.x, at[1] - a.y), r = a.kind === "refuge" ? 110 : RADII[a.kind] || 30;
      if (d > r + SHIP_H + 20) {
        ties.append(api.svg("line", { x1: at[0], y1: at[1], x2: a.x + (at[0] - a.x) * r / d, y2: a.y + (at[1] - a.y) * r / d,
          stroke: colour(api, planetOfShip(api, ship)), "stroke-width": 2, opacity: 0.8 }));
      }
    }
    svg.append(ties);
    for (const [ship, where] of Object.entries(o.ships)) if (where && ctx.places[ship]) svg.append(drawShip(api, ctx, ship, where));
    if (api.memory.roll && api.memory.roll.dice.length <= 3) svg.append(drawDice(api, ctx));
    return svg;
  }

  function drawArea(api, ctx, a) {
    const o = api.observation, enh = o.enhanced;
    const g = api.svg("g", { class: "area-g", "data-area": a.id, "data-kind": a.kind });
    const fill = a.kind === "home" ? colour(api, a.planet) : FILLS[a.kind];
    let shape;
    if (a.kind === "refuge") shape = api.svg("rect", { x: a.x - 110, y: a.y - 26, width: 220, height: 52, rx: 9, fill, stroke: colour(api, "earth"), "stroke-width": 3 });
    else if (a.kind === "ocean") shape = api.svg("ellipse", { cx: a.x, cy: a.y, rx: RADII.ocean + 12, ry: RADII.ocean - 4, fill, stroke: "#9cc3f0", "stroke-width": 2 });
    else shape = api.svg("circle", { cx: a.x, cy: a.y, r: RADII[a.kind], fill, stroke: a.kind === "home" ? "#dddddd" : a.kind === "space" ? "#7f8fbf" : "#b9e4b0", "stroke-width": 2 });
    shape.setAttribute("class", "area hit");
    g.append(shape);
    const lightText = { fill: "#e8ecf8" };
    if (a.kind === "home") {
      g.append(txt(api, a.x, a.y - 8, a.name, a.name.length > 6 ? 17 : 20, { fill: ink(fill), "font-weight": "bold" }));
      const count = o.collected[a.planet];
      if (count !== undefined) {
        const n = txt(api, a.x, a.y + 16, `pop ${count}`, 17, { fill: ink(fill), "font-weight": "bold", class: "count", "data-collected": a.planet });
        if (ctx.before && ctx.before.collected && ctx.before.collected[a.planet] !== count) n.classList.add("changed");
        g.append(n);
      }
    } else if (a.kind === "refuge") {
      g.append(txt(api, a.x, a.y - 9, "Secret Underground Refuge", 15, { ...lightText, "font-weight": "bold" }));
      const count = o.collected.earth;
      g.append(txt(api, a.x, a.y + 11, count === undefined ? "Earth's store" : `Earth's pop ${count}`, 15, { ...lightText, class: "count" }));
    } else {
      const r = RADII[a.kind];
      g.append(txt(api, a.x, a.y + r + 13, a.name, a.kind === "space" ? 17 : 15, lightText));
      if (a.kind === "space" && a.teleport) g.append(txt(api, a.x, a.y, String(a.teleport), 17, { fill: "#8f9bc4" }));
      if (a.kind === "land") {
        const pop = o.population[a.id];
        const n = txt(api, a.x, a.y, String(pop), 22, { fill: "#ffffff", "font-weight": "bold", class: "count", "data-population": a.id });
        if (ctx.before && ctx.before.population && ctx.before.population[a.id] !== pop) n.classList.add("changed");
        if (ctx.fresh && api.previous && api.previous.population && api.previous.population[a.id] !== pop) n.classList.add("arrived");
        g.append(n);
        const sick = enh && enh.infected ? enh.infected[a.id] : 0;
        if (sick) g.append(txt(api, a.x + r + 14, a.y, `+${sick}`, 16, { fill: "#F0E442", "font-weight": "bold", "data-infected": a.id }));
      }
    }
    let label = a.name + ` (${a.kind === "space" ? "space area" : a.kind})`;
    if (a.kind === "land") label += `, population ${o.population[a.id]}`;
    if (a.kind === "home" && o.collected[a.planet] !== undefined) label += `, population collected ${o.collected[a.planet]}`;
    ctx.areaNodes[a.id] = g;
    title(api, g, label);
    g.dataset.label = label;
    return g;
  }

  function drawShip(api, ctx, ship, where) {
    const o = api.observation, enh = o.enhanced || {};
    const [x, y] = ctx.places[ship];
    const planet = planetOfShip(api, ship), fill = colour(api, planet);
    const controller = (enh.controlled || {})[ship] || "";
    const disabled = (enh.disabled || []).includes(ship);
    const g = api.svg("g", { class: "ship", "data-ship": ship, "data-area": where, "data-planet": planet || "" });
    const rect = api.svg("rect", { x: x - SHIP_W / 2, y: y - SHIP_H / 2, width: SHIP_W, height: SHIP_H, rx: 5, fill,
      stroke: controller ? colour(api, controller) : "#ffffff", "stroke-width": controller ? 5 : 1.5 });
    if (controller) rect.setAttribute("stroke-dasharray", "5 3");
    g.append(rect, txt(api, x, y + 1, ship + (controller ? "*" : ""), 17, { fill: ink(fill), "font-weight": "bold" }));
    if (disabled) g.setAttribute("opacity", "0.55");
    let label = `${ship}, ${pname(api, planet)}'s ship in ${ctx.areas[where].name}`;
    if (controller) { label += `, controlled by ${pname(api, controller)} (Mind Control)`; g.dataset.controller = controller; }
    if (disabled) label += ", disabled";
    g.dataset.label = label;
    title(api, g, label);
    if (ctx.before && ctx.before.ships && ctx.before.ships[ship] !== where) g.classList.add("changed");
    if (ctx.fresh && api.previous && api.previous.ships && api.previous.ships[ship] !== where) {
      g.classList.add("arrived");
      const was = api.previous.ships[ship];
      if (was && ctx.areas[was]) {
        const [px, py] = shipRow(ctx.areas[was], api.content.map.ring);
        g.style.transform = `translate(${px - x}px, ${py - y}px)`;
        requestAnimationFrame(() => requestAnimationFrame(() => { g.style.transition = "transform .6s ease-out"; g.style.transform = ""; }));
      }
    }
    if (api.memory.ship === ship) g.classList.add("selected");
    ctx.shipNodes[ship] = g;
    return g;
  }

  // A roll's outcome in a word or two, read from the lines that followed it.
  const OUTCOMES = [[/saved by/, "saved"], [/backfires/, "backfire"], [/destroyed|disabled/, "destroyed"], [/teleports/, "teleport"],
    [/no effect/, "no effect"], [/misses|will miss/, "miss"], [/acquired/, "acquired"], [/no luck/, "no luck"]];
  function outcomeOf(roll) {
    const said = [roll.line, ...roll.after].join(" ");
    const found = OUTCOMES.find(([pattern]) => pattern.test(said));
    return found ? found[1] : "";
  }

  // The latest roll's dice in a tray at the top of the map, with who rolled against what; the ship that
  // rolled is ringed on the map.
  function drawDice(api, ctx) {
    const roll = api.memory.roll;
    const D = TRAY.D, n = roll.dice.length, y = TRAY.y;
    const g = api.svg("g", { class: "vnm-dice" + (roll.version === api.view.version && ctx.fresh ? " arrived" : ""), role: "img", "aria-label": roll.line });
    let label = roll.kind === "attacks" ? `${roll.who} → ${roll.what === "refuge" ? "Refuge" : roll.what}` : `${roll.who} researches`;
    const outcome = outcomeOf(roll);
    // The label, the dice and the outcome side by side, each given room by its length (no text under a die).
    const wide = text => text.length * 18 * 0.62;
    const outW = outcome ? wide(outcome) * 16 / 18 + 12 : 0;
    const room = TRAY.right - TRAY.left - 24 - n * (D + 6) - outW;
    if (wide(label) > room) label = label.slice(0, Math.max(3, Math.floor(room / (18 * 0.62)) - 1)) + "…";
    const width = 24 + wide(label) + 8 + n * (D + 6) + outW;
    const x0 = TRAY.right - width;
    g.append(api.svg("rect", { x: x0, y: y - D / 2 - 6, width, height: D + 12, rx: 8, fill: "#1b1b3a", stroke: "#fff7d6", "stroke-width": 2 }),
      txt(api, x0 + 12, y, label, 18, { fill: "#fff7d6", "font-weight": "bold", "text-anchor": "start", class: "dice-label" }));
    roll.dice.forEach((d, i) => {
      const dx = x0 + 12 + wide(label) + 8 + D / 2 + i * (D + 6);
      g.append(api.svg("rect", { x: dx - D / 2, y: y - D / 2, width: D, height: D, rx: 6, fill: "#fff7d6", stroke: "#000", "stroke-width": 2 }),
        txt(api, dx, y + 1, String(d), 20, { fill: "#000", "font-weight": "bold", class: "die" }));
    });
    if (outcome) g.append(txt(api, TRAY.right - 12, y, outcome, 16, { fill: "#fff7d6", class: "outcome", "text-anchor": "end" }));
    title(api, g, [roll.line, ...roll.after].join(" "));
    const ship = ctx.shipNodes[roll.who];
    if (ship) ship.classList.add("rolled");
    return g;
  }

  // ---------------------------------------------------------------- what a click plays
  // Plays one text, or offers a menu of several.
  function offer(api, heading, texts, labeller) {
    if (!texts.length) return;
    if (texts.length === 1) { api.memory.ship = null; api.memory.card = null; api.act(texts[0]); return; }
    api.menu(heading, texts.map(t => ({ label: labeller ? labeller(t) : t, action: t })));
  }

  function describe(api, text) {
    const p = parse(text), c = api.content;
    if (p.verb === "attack" && p.extra) { const u = c.upgrades[p.extra] || c.technology[p.extra]; return `${text} (${u ? u.name : p.extra})`; }
    if (p.verb === "control") return `${text} (take it over by Mind Control)`;
    if (p.verb === "collect") return p.extra ? `${text} (an infected unit)` : `${text} (a healthy unit)`;
    if (p.verb === "research") { const u = c.upgrades[p.area]; return `${text} (${u ? `${u.name}, roll ${u.roll}+` : p.area})`; }
    if (p.verb === "cycle") { const u = c.upgrades[p.area]; return `${text} (discard ${u ? u.name : p.area}, turn a new one)`; }
    if (p.verb === "zap" || p.verb === "extend") {
      const z = c.zap[String(p.card)];
      return `${text} (${z ? z.name : "Zap card"}${p.verb === "extend" ? ": discard it for one more step" : ""})`;
    }
    return text;
  }

  // Works out from the legal texts what each component would play now.
  function choices(api) {
    const o = api.observation, mem = api.memory;
    const parsed = api.legal.map(parse);
    const ch = { ship: {}, shipTarget: {}, area: {}, card: {}, upgrade: {}, bar: [] };
    const push = (map, key, text) => { (map[key] = map[key] || []).push(text); };
    for (const p of parsed) {
      if (p.ship) push(ch.ship, p.ship, p.text);
      if (p.card !== null) push(ch.card, p.card, p.text);
      if (p.verb === "research" || p.verb === "cycle") push(ch.upgrade, p.area, p.text);
      if (p.verb === "build") {
        if (p.area) push(ch.area, p.area, p.text);
        else {
          ch.bar.push(p.text);
          const home = api.content.planets[o.active] && api.content.planets[o.active].home;
          if (home) push(ch.area, home, p.text);
        }
      }
      if (["pass", "done", "end"].includes(p.verb) || !["move", "collect", "attack", "control", "build", "zap", "extend", "research", "cycle", ...SOLO].includes(p.verb)) ch.bar.push(p.text);
    }
    // What the selected ship or card would do with each area or ship clicked.
    ch.targetArea = {}; ch.targetShip = {};
    if (mem.ship && ch.ship[mem.ship]) {
      for (const t of ch.ship[mem.ship]) {
        const p = parse(t);
        if (p.verb === "move" || (p.verb === "collect" && p.area)) push(ch.targetArea, p.area, t);
        else if (p.verb === "collect") push(ch.targetArea, o.ships[p.ship], t);
        else if ((p.verb === "attack" || p.verb === "control") && p.target === "refuge") push(ch.targetArea, api.content.map.refuge, t);
        else if (p.verb === "attack" || p.verb === "control") push(ch.targetShip, p.target, t);
      }
    } else if (mem.card !== null && mem.card !== undefined && ch.card[mem.card]) {
      for (const t of ch.card[mem.card]) {
        const p = parse(t);
        if (!p.target) continue;
        if (isShip(p.target)) push(ch.targetShip, p.target, t);
        else if (api.content.planets[p.target]) push(ch.targetArea, api.content.planets[p.target].home, t);
        else push(ch.targetArea, p.target, t);
      }
    }
    return ch;
  }

  function wire(api, ctx, ch) {
    const mem = api.memory, o = api.observation;
    // Ships: a target of the selection, or a ship to select.
    for (const [ship, node] of Object.entries(ctx.shipNodes)) {
      const asTarget = ch.targetShip[ship];
      const own = ch.ship[ship];
      if (asTarget) {
        node.classList.add("target");
        api.clickable(node, `${node.dataset.label}: target of ${mem.ship || "Zap card " + mem.card}`, () =>
          offer(api, `${mem.ship || "Zap card " + mem.card} → ${ship}`, asTarget, t => describe(api, t)));
      } else if (own) {
        api.clickable(node, `${node.dataset.label}: ${mem.ship === ship ? "selected; click again to let go" : "select it to " + [...new Set(own.map(t => t.split(" ")[0]))].join(", ")}`, () => {
          const solo = own.every(t => { const p = parse(t); return SOLO.includes(p.verb); });
          if (solo && own.length === 1) { offer(api, ship, own); return; }
          mem.ship = mem.ship === ship ? null : ship; mem.card = null; api.redraw();
        });
      }
    }
    // Areas: a destination or target of the selection, or a build or a move with nothing selected.
    for (const [id, node] of Object.entries(ctx.areaNodes)) {
      let texts = ch.targetArea[id];
      const selecting = mem.ship || (mem.card !== null && mem.card !== undefined);
      if (!texts && !selecting) {
        texts = [...(ch.area[id] || [])];
        for (const list of Object.values(ch.ship)) for (const t of list) { const p = parse(t); if (p.verb === "move" && p.area === id) texts.push(t); }
        if (!texts.length) texts = null;
      }
      if (!texts) continue;
      node.classList.add(ch.targetArea[id] ? "reach" : "open");
      const verbs = [...new Set(texts.map(t => t.split(" ")[0]))].join(" or ");
      api.clickable(node, `${node.dataset.label}: ${verbs} here`, () => offer(api, ctx.areas[id].name, texts, t => describe(api, t)));
    }
  }

  // The map's clickable ships and areas again as buttons (api.taps: on a phone, where the whole map is
  // the screen's width and its chips are too small to tap): by the ship's or the area's name.
  function taps(api, ctx) {
    const nodes = [...Object.values(ctx.shipNodes), ...Object.values(ctx.areaNodes)];
    return api.taps(nodes, node => node.dataset.ship || (ctx.areas[node.dataset.area] || {}).name || node.dataset.area);
  }

  // ---------------------------------------------------------------- the panel
  function bar(api, ch) {
    const mem = api.memory;
    const box = api.el("div", { class: "vnm-bar", role: "toolbar", "aria-label": "actions without a component" });
    const words = { pass: "pass", done: "done (end the steps)", end: "end (no more extending)", build: "build (a new ship)" };
    for (const t of ch.bar) {
      const b = api.el("button", { type: "button", "data-action": t, ...(api.endsTurn(t) ? { "data-ends": "" } : {}) }, words[t] || t);
      b.addEventListener("click", () => { mem.ship = null; mem.card = null; api.act(t); });
      box.append(b);
    }
    const picked = mem.ship || (mem.card !== null && mem.card !== undefined ? mem.card : null);
    if (picked !== null) {
      // The selection's texts that no map component plays (e.g. a Zap card's untargeted use).
      const texts = mem.ship ? (ch.ship[mem.ship] || []).filter(t => SOLO.includes(t.split(" ")[0]))
        : (ch.card[mem.card] || []).filter(t => !parse(t).target);
      for (const t of texts) {
        const b = api.el("button", { type: "button", "data-action": t, ...(api.endsTurn(t) ? { "data-ends": "" } : {}) }, describe(api, t));
        b.addEventListener("click", () => { mem.ship = null; mem.card = null; api.act(t); });
        box.append(b);
      }
      const b = api.el("button", { type: "button", class: "cancel", "data-action": "" }, "cancel selection");
      b.addEventListener("click", () => { mem.ship = null; mem.card = null; api.redraw(); });
      box.append(b);
    }
    return box;
  }

  function hint(api, ch) {
    const mem = api.memory, o = api.observation;
    let text;
    const waiting = (o.deciders || []).map(d => api.names[d]).join(", ");
    if (o.over) text = "The game is over: the results are below.";
    else if (!api.legal.length) text = (api.seat === null ? "Watching. " : "") + (waiting ? `Waiting for ${waiting}.` : "");
    else if (mem.ship) {
      const areas = Object.keys(ch.targetArea), ships = Object.keys(ch.targetShip);
      text = `${mem.ship} selected: click ` + [areas.length ? `a highlighted area (${areas.join(", ")})` : "", ships.length ? `a target (${ships.join(", ")})` : ""].filter(Boolean).join(" or ") + ".";
    } else if (mem.card !== null && mem.card !== undefined) {
      const z = api.content.zap[String(mem.card)];
      text = `Zap ${mem.card} ${z ? z.name : ""}: click a highlighted target (${[...Object.keys(ch.targetArea), ...Object.keys(ch.targetShip)].join(", ")}).`;
    } else {
      const parts = [];
      if (Object.keys(ch.ship).length) parts.push("click a ship (outlined) to move, attack or collect with it");
      if (Object.keys(ch.area).length) parts.push("click an outlined area to build");
      if (Object.keys(ch.card).length) parts.push("click a Zap card");
      if (Object.keys(ch.upgrade).length) parts.push("click a face-up Upgrade to research it");
      text = (parts.length ? "Your move: " + parts.join("; ") : "Your move") + (ch.bar.length ? "; or a button." : ".");
    }
    return api.el("p", { class: "vnm-hint", "aria-live": "polite" }, text);
  }

  function windowBox(api) {
    const o = api.observation, w = o.window, vw = api.view.window, mem = api.memory;
    if (!w && !vw) return null;
    const box = api.el("div", { class: "vnm-window", role: "status", "aria-label": "Zap window" });
    let what = (api.content.moments || {})[w && w.moment] || (w ? w.moment : "a Zap window");
    if (w && w.attacker) what = `${w.attacker} attacks ${w.target === "refuge" ? "the Refuge" : w.target}` + (w.dice ? `, rolled ${w.dice.join(" ")}` : "");
    if (w && w.ship) what = `${w.ship} is about to be destroyed`;
    box.append(api.el("strong", {}, "Zap window: "), what);
    if (vw) {
      const names = vw.waiting.map(s => api.names[s]);
      const line = api.el("div", { class: "vnm-wait" });
      const bar = api.el("progress", { max: "1", value: "0", "aria-label": "time until answers land" });
      box.append(line, bar);
      const tick = () => {
        const left = Math.max(0, vw.answer_at - (Date.now() + (mem.offset || 0)) / 1000);
        const span = Math.max(0.001, vw.answer_at - vw.opened);
        const mine = api.seat !== null && vw.waiting.includes(api.seat);
        line.textContent = (mine ? "You may play a Zap card or pass. " : "") + `Waiting for ${names.join(", then ")}` + (left >= 0.05 ? ` · answers from ${left.toFixed(1)} s` : "");
        bar.value = Math.min(1, 1 - left / span);
      };
      tick();
      mem.timer = setInterval(tick, 100);
    }
    return box;
  }

  function rollBox(api) {
    const roll = api.memory.roll;
    if (!roll) return null;
    const box = api.el("div", { class: "vnm-roll" + (roll.version === api.view.version ? " arrived" : "") });
    box.append(api.el("strong", {}, "Last roll: "), roll.line, ...roll.after.slice(0, 2).map(l => api.el("div", {}, l)));
    box.title = [roll.line, ...roll.after].join("\n");
    return box;
  }

  function planetsTable(api, ctx) {
    const o = api.observation, c = api.content, enh = o.enhanced;
    const table = api.el("table", { class: "vnm-planets" });
    table.append(api.el("caption", {}, `First to ${o.needed} population wins`));
    table.append(api.el("tr", {}, api.el("th", {}, "Planet"), api.el("th", { title: "population collected" }, "Pop"),
      api.el("th", { title: "Zap cards in hand / in deck" }, "Zap"), api.el("th", { title: "ships in supply (not on the map)" }, "Supply")));
    for (const planet of o.planets) {
      const seat = o.seat_of[planet];
      const info = c.planets[planet] || { name: planet, colour: "#bbb", colour_name: "" };
      const ships = Object.entries(o.ships).filter(([s, w]) => planetOfShip(api, s) === planet);
      const supply = ships.filter(([, w]) => !w).length;
      const row = api.el("tr", { "data-planet": planet, class: planet === o.active ? "active" : "" });
      const sw = api.el("span", { class: "swatch", style: `background:${info.colour}`, title: info.colour_name });
      const who = api.el("td", {}, sw, `${planet === o.active ? "▶ " : ""}${info.name} (${info.letter}) `, api.el("span", { class: "who" }, api.names[seat] === info.name ? "" : api.names[seat] || ""));
      const skips = (o.skips || {})[planet];
      if (skips) who.append(api.el("span", { class: "note" }, ` skips ${skips}`));
      const pop = api.el("td", { "data-collected": planet }, String(o.collected[planet]));
      if (ctx.before && ctx.before.collected && ctx.before.collected[planet] !== o.collected[planet]) pop.classList.add("changed");
      row.append(who, pop, api.el("td", {}, `${o.hand_sizes[seat]}/${o.deck_sizes[seat]}`), api.el("td", {}, String(supply)));
      table.append(row);
      if (enh) table.append(techRow(api, planet, enh));
    }
    return table;
  }

  function cardChip(api, name, text, cls) {
    const chip = api.el("span", { class: "vnm-card " + (cls || ""), title: text, tabindex: "0" }, name);
    chip.setAttribute("aria-label", `${name}: ${text}`);
    return chip;
  }

  function techRow(api, planet, enh) {
    const c = api.content, cell = api.el("td", { colspan: "4", class: "tech" });
    for (const id of Object.values(enh.technology[planet] || {})) { const t = c.technology[id]; if (t) cell.append(cardChip(api, t.name, `${t.slot} Technology: ${t.text}`, "tech")); }
    const sp = c.specials[enh.specials[planet]];
    if (sp) cell.append(cardChip(api, sp.name, `Special: ${sp.text}`, "special"));
    for (const id of enh.upgrades[planet] || []) { const u = c.upgrades[id]; if (u) cell.append(cardChip(api, u.name, `Upgrade: ${u.text}`, "upgrade")); }
    for (const id of (enh.pending_upgrades || {})[planet] || []) { const u = c.upgrades[id]; if (u) cell.append(cardChip(api, u.name + " (from the turn's end)", `Upgrade: ${u.text}`, "upgrade pending")); }
    return api.el("tr", { class: "tech-row" }, cell);
  }

  function researchBox(api, ch) {
    const o = api.observation, enh = o.enhanced, c = api.content;
    if (!enh) return null;
    const box = api.el("div", { class: "vnm-research" }, api.el("strong", {}, "Research (face-up Upgrades): "));
    for (const id of enh.face_up) {
      const u = c.upgrades[id] || { name: id, text: "", roll: "?" };
      const chip = api.el("span", { class: "vnm-card upgrade", "data-upgrade": id, title: u.text }, `${u.name} ${u.roll}+`);
      const texts = ch.upgrade[id];
      if (texts) api.clickable(chip, `${u.name}, roll ${u.roll} or more: ${texts.map(t => t.split(" ")[0]).join(" or ")}`, () => offer(api, u.name, texts, t => describe(api, t)));
      else { chip.setAttribute("tabindex", "0"); chip.setAttribute("aria-label", `${u.name}, roll ${u.roll} or more: ${u.text}`); }
      box.append(chip);
    }
    box.append(api.el("span", { class: "muted" }, ` deck ${enh.upgrade_deck_size}`));
    return box;
  }

  function handBox(api, ch, ctx) {
    const o = api.observation, c = api.content, mem = api.memory;
    if (o.hand === null || o.hand === undefined) return null;
    const box = api.el("div", { class: "vnm-hand", role: "group", "aria-label": "your Zap hand" }, api.el("strong", {}, `Your Zap hand (${o.hand.length}):`));
    if (!o.hand.length) box.append(" empty");
    const had = ctx.before && ctx.before.hand ? ctx.before.hand : null;
    for (const n of o.hand) {
      const z = c.zap[String(n)] || { name: "Zap card", text: "" };
      const card = api.el("div", { class: "vnm-zap", "data-card": String(n), title: z.text },
        api.el("span", { class: "num" }, String(n)), api.el("b", {}, ` ${z.name}`), api.el("div", { class: "text" }, z.text));
      if (had && !had.includes(n)) card.classList.add("changed");
      if (mem.card === n) card.classList.add("selected");
      const texts = ch.card[n];
      if (texts) {
        card.classList.add("playable");
        api.clickable(card, `Zap card ${n}, ${z.name}: ${[...new Set(texts.map(t => t.split(" ")[0]))].join(" or ")}. ${z.text}`, () => {
          const targeted = texts.filter(t => parse(t).target);
          if (!targeted.length) { offer(api, `Zap card ${n}, ${z.name}`, texts, t => describe(api, t)); return; }
          mem.card = mem.card === n ? null : n; mem.ship = null; api.redraw();
        });
      }
      box.append(card);
    }
    return box;
  }

  // ---------------------------------------------------------------- draw
  function draw(root, api) {
    const c = api.content, o = api.observation, mem = api.memory;
    if (mem.timer) { clearInterval(mem.timer); mem.timer = null; }
    if (!c || !c.map || !o || !o.ships) { root.replaceChildren(api.el("p", {}, "The map is loading…")); return; }
    const fresh = mem.version !== api.view.version;
    if (fresh) { mem.version = api.view.version; mem.offset = api.view.clock ? api.view.clock.now * 1000 - Date.now() : 0; }
    readRolls(api);
    // A selection is let go when the seat's choices change (a move was made) or no longer name it.
    const key = api.legal.join("|");
    if (mem.legalKey !== key) { mem.legalKey = key; mem.ship = null; mem.card = null; }
    if (mem.ship && !api.legal.some(t => t.split(" ")[1] === mem.ship && !["zap", "extend"].includes(t.split(" ")[0]))) mem.ship = null;
    if (mem.card !== null && mem.card !== undefined && !api.legal.some(t => /^(zap|extend) /.test(t) && Number(t.split(" ")[1]) === mem.card)) mem.card = null;
    const areas = {};
    for (const a of c.map.areas) areas[a.id] = a;
    const ctx = { areas, areaNodes: {}, shipNodes: {}, places: {}, fresh, before: api.before };
    ctx.places = shipPlaces(api, areas, c.map.ring);
    const ch = choices(api);
    const map = drawMap(api, ctx);
    wire(api, ctx, ch);
    const side = api.el("div", { class: "vnm-side" });
    for (const part of [bar(api, ch), hint(api, ch), taps(api, ctx), windowBox(api), rollBox(api), handBox(api, ch, ctx), researchBox(api, ch), planetsTable(api, ctx)]) if (part) side.append(part);
    const wrap = api.el("div", { class: "vnm" }, api.el("div", { class: "vnm-map-box" }, map), side);
    root.replaceChildren(wrap);
  }

  // A seat's colour in the score plot: its (first) planet's colour, as on the map.
  function seatColour(seat, api) {
    const o = api.observation;
    if (!o || !o.seat_of || !api.content || !api.content.planets) return null;
    const planet = (o.planets || Object.keys(o.seat_of)).find(p => o.seat_of[p] === seat);
    return planet ? colour(api, planet) : null;
  }

  Parlour.register("venus-needs-men", { draw, seatColour });
})();
