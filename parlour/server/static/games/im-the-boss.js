// I'm the Boss!'s drawn table: the board's 16 spaces (covered deals, the marker), the placards, the
// players, your hand, and the open deal as a live panel (who can supply each investor, offers, the
// terms, the Stop window and the Boss's "going once, going twice" countdown). No rule lives here:
// every click plays a text from api.legal (the server's list), found by api.matching (docs/browser-tables.md).
// api.observation is views.Observation of parlour/games/im_the_boss/views.py (every field typed there,
// the negotiation's as views.NegotiationView); api.content is table.table_content.
"use strict";
(() => {
  const CW = 92, CH = 70, COLS = 6, ROWS = 4;
  const BAR = [
    ["deal", "Let's make a deal!"], ["roll", "Roll the die"], ["draw", "Draw three cards"],
    ["pass", "Pass (wait)"], ["agree", "Agree to the terms"], ["refuse", "Refuse the terms"],
    ["call", "Call: going once, going twice…"], ["fail", "Fail the deal"],
    ["boss", "Boss card: I'm the Boss!"], ["stop", "Stop card"],
  ];
  // The countdown bar runs between updates: the draw leaves its nodes here for the ticker.
  const tick = { window: null, offset: 0, version: -1, fill: null, time: null };

  // ------------------------------------------------------------------ helpers
  function clockwiseCells() {
    const cells = [];
    for (let c = 0; c < COLS; c++) cells.push([c, 0]);
    for (let r = 1; r < ROWS - 1; r++) cells.push([COLS - 1, r]);
    for (let c = COLS - 1; c >= 0; c--) cells.push([c, ROWS - 1]);
    for (let r = ROWS - 2; r >= 1; r--) cells.push([0, r]);
    return cells;
  }

  function context(api) {
    const obs = api.observation, content = api.content || {};
    const investors = {};
    for (const inv of content.investors || []) investors[inv.colour] = inv;
    return { api, obs, content, investors, nego: obs.negotiation, me: api.seat, legal: api.legal,
             now: facts(obs), before: api.before ? facts(api.before) : null,
             previous: api.previous ? facts(api.previous) : null };
  }

  const name = (ctx, seat) => ctx.api.names[seat] ?? `seat ${seat}`;
  const clan = (ctx, colour) => {
    const inv = ctx.investors[colour];
    return inv ? `${colour} (${inv.name})` : colour;
  };
  const exact = (ctx, text) => (ctx.legal.includes(text) ? [text] : []);
  const has = (ctx, text) => ctx.legal.includes(text);

  // What each drawn part shows, as a comparable string: a part whose string changed is highlighted.
  function facts(obs) {
    const found = {};
    const n = obs.negotiation;
    (obs.covered || []).forEach((card, i) => { found[`space-${i + 1}`] = `${card}|${obs.marker === i + 1}|${Boolean(n && n.space === i + 1)}`; });
    for (const [colour, seat] of Object.entries(obs.placards || {})) {
      found[`placard-${colour}`] = `${seat}|${n ? n.travelling.includes(colour) : false}`;
    }
    (obs.hand_sizes || []).forEach((size, s) => {
      found[`seat-${s}`] = `${obs.money[s]}|${size}|${n ? JSON.stringify(n.laid[s]) + n.counted[s] : ""}`;
    });
    const hand = {};
    for (const card of obs.hand || []) hand[card] = (hand[card] || 0) + 1;
    for (const [card, count] of Object.entries(hand)) found[`card-${card}`] = String(count);
    found.stack = JSON.stringify(obs.deal_cards);
    if (n) {
      for (const [c, s, a] of n.offers) found[`offer-${c}-${s}`] = String(a);
      for (const [c, t] of Object.entries(n.terms)) found[`term-${c}`] = JSON.stringify(t);
      for (const [s, t] of Object.entries(n.tips)) found[`tip-${s}`] = JSON.stringify(t);
      n.laid.forEach((laid, s) => { found[`laid-${s}`] = JSON.stringify(laid); });
      found.pending = String(n.pending);
      found.deal = `${n.boss}|${n.called}|${n.stands}`;
    }
    return found;
  }

  // Marks a part: "changed" since this seat's last move, "arrived" with the update just received.
  function mark(ctx, node, key) {
    const value = ctx.now[key];
    if (ctx.before && ctx.before[key] !== value) node.classList.add("changed");
    if (ctx.previous && ctx.previous[key] !== value) node.classList.add("arrived");
    return node;
  }

  // Friendly words for a legal text (the menu's labels); the text itself is what is played.
  function describe(ctx, text) {
    const w = text.split(" ");
    const seat = w.find(x => x.startsWith("@"));
    const who = seat ? name(ctx, Number(seat.slice(1))) : "";
    const last = w[w.length - 1];
    switch (w[0]) {
      case "offer": return `offer ${clan(ctx, w[1])} for ${last} million`;
      case "include": return `propose ${last} million to ${who} for ${clan(ctx, w[1])}`;
      case "accept": {
        const offer = ctx.nego && ctx.nego.offers.find(o => o[0] === w[1] && `@${o[1]}` === seat);
        return `accept ${who}'s ${clan(ctx, w[1])}${offer ? ` at ${offer[2]} million` : ""}`;
      }
      case "tip": return last === "0" ? `withdraw the payment to ${who}` : `pay ${who} ${last} million for no investor`;
      case "travel": return seat ? `Travel card on ${who}'s ${clan(ctx, w[1])} Clan card` : `Travel card on the ${clan(ctx, w[1])} placard`;
      case "recruit": return `Recruitment triple: take the ${clan(ctx, w[1])} placard`;
      case "lay": return `lay a ${clan(ctx, w[1])} Clan card`;
      case "use": return `bring in your own ${clan(ctx, w[1])}`;
      case "drop": return `drop ${clan(ctx, w[1])} from the terms`;
      case "withdraw": return `withdraw your ${clan(ctx, w[1])} offer`;
      case "discard": return `discard a ${cardLabel(ctx, w[1])} card`;
      case "marker": return `place the marker on space ${w[1]}`;
      default: {
        const bar = BAR.find(b => b[0] === text);
        return bar ? bar[1] : text;
      }
    }
  }

  // A menu of prices reads "3 million" when its texts differ only in their last number; in a mixed menu
  // each run of prices reads "ask 3 M", "propose 3 M", "pay 3 M" after the one-off choices.
  const SHORT = { offer: "ask", include: "propose", tip: "pay" };
  function labels(ctx, texts) {
    const stem = t => t.replace(/ \d+$/, "");
    const runs = {};
    for (const t of texts) if (SHORT[t.split(" ")[0]]) runs[stem(t)] = (runs[stem(t)] || 0) + 1;
    const single = Object.keys(runs).length === 1 && texts.every(t => runs[stem(t)]);
    const label = t => {
      const verb = t.split(" ")[0], n = t.split(" ").pop();
      if (!runs[stem(t)] || runs[stem(t)] < 2 || (verb === "tip" && n === "0")) return describe(ctx, t);
      return single ? `${n} million` : `${SHORT[verb]} ${n} M`;
    };
    const ordered = [...texts.filter(t => !(runs[stem(t)] >= 2)), ...texts.filter(t => runs[stem(t)] >= 2)];
    return ordered.map(t => ({ label: label(t), action: t }));
  }

  function choose(ctx, title, texts) {
    if (texts.length === 1) ctx.api.act(texts[0]);
    else if (texts.length > 1) ctx.api.menu(title, labels(ctx, texts));
  }

  // A drawn part: named (data-part), labelled, and a button when some legal texts belong to it.
  function hot(ctx, node, part, label, texts, title) {
    node.setAttribute("data-part", part);
    const unique = [...new Set(texts)];
    if (unique.length) {
      node.setAttribute("data-actions", unique.join("|"));
      const what = unique.length === 1 ? describe(ctx, unique[0]) : `${unique.length} choices`;
      ctx.api.clickable(node, `${label}: ${what}`, () => choose(ctx, title || label, unique));
    } else {
      node.setAttribute("aria-label", label);
      if (node instanceof SVGElement) node.setAttribute("role", "img");
    }
    return mark(ctx, node, part);
  }

  function chip(ctx, colour, extra = {}) {
    const inv = ctx.investors[colour];
    return ctx.api.el("span", { class: "itb-clan", style: `background:${inv ? inv.fill : "#999"};color:${inv ? inv.ink : "#000"}`,
                                title: inv ? `${inv.name} (${inv.investor})` : colour, ...extra }, colour);
  }

  function cardLabel(ctx, card) {
    const info = (ctx.content.cards || {})[card];
    return info ? info.label : card;
  }

  // ------------------------------------------------------------------ the board
  function svgBox(ctx, x, y, size, colour) {
    const { svg } = ctx.api;
    const inv = ctx.investors[colour] || { fill: "#999", ink: "#000" };
    return svg("g", { class: "box" },
      svg("rect", { x, y, width: size, height: size, rx: 2, fill: inv.fill, stroke: "#1a1a1a" }),
      svg("text", { x: x + size / 2, y: y + size * 0.74, "text-anchor": "middle", "font-size": Math.round(size * 0.7),
                    "font-weight": "bold", fill: inv.ink }, colour));
  }

  function spacePart(ctx, index, col, row) {
    const { svg } = ctx.api;
    const space = ctx.content.spaces[index];
    const obs = ctx.obs, number = index + 1;
    const x = col * CW, y = row * CH;
    const covered = obs.covered[index];
    const open = ctx.nego && ctx.nego.space === number;
    const g = svg("g", { class: `itb-space${open ? " open" : ""}${covered ? " covered" : ""}` });
    g.append(svg("rect", { class: "cell", x: x + 2, y: y + 2, width: CW - 4, height: CH - 4, rx: 6 }));
    g.append(svg("text", { x: x + 7, y: y + 15, "font-size": 12, "font-weight": "bold" }, String(number)));
    g.append(svg("text", { x: x + CW - 7, y: y + 15, "font-size": 10, "text-anchor": "end" }, `${space.dividends} div`));
    let title = `Space ${number}: ${space.text}, ${space.dividends} dividends`;
    if (covered) {
      g.append(svg("rect", { class: "deal-card", x: x + 10, y: y + 21, width: CW - 20, height: CH - 30, rx: 3 }));
      g.append(svg("text", { x: x + CW / 2, y: y + 40, "text-anchor": "middle", "font-size": 10, "font-weight": "bold" }, "deal card"));
      g.append(svg("text", { x: x + CW / 2, y: y + 54, "text-anchor": "middle", "font-size": 12, "font-weight": "bold" }, String(covered)));
      title += `; covered by deal card ${covered}`;
      const text = ctx.api.cardTexts[`deal card ${covered}`];
      if (text) title += `\n${text}`;
    } else {
      let line = y + 20;
      if (space.required) {
        [...space.required].forEach((c, i) => g.append(svgBox(ctx, x + 7 + 18 * i, line, 16, c)));
        line += 19;
      }
      for (const group of space.groups) {
        const colours = [...group.colours];
        g.append(svg("text", { x: x + 7, y: line + 11, "font-size": 10 }, `${group.count} of`));
        colours.forEach((c, i) => g.append(svgBox(ctx, x + 27 + 14 * (i % 4), line + 15 * Math.floor(i / 4), 13, c)));
        line += 15 * Math.ceil(colours.length / 4);
      }
    }
    if (obs.marker === number) {
      g.append(svg("circle", { cx: x + CW - 14, cy: y + CH - 14, r: 9, fill: "#000" }));
      g.append(svg("text", { x: x + CW - 14, y: y + CH - 10, "text-anchor": "middle", "font-size": 12, "font-weight": "bold", fill: "#fff" }, "$"));
      title += "; the marker is here";
    }
    if (open) title += "; the open deal";
    g.prepend(svg("title", {}, title));
    const texts = [...exact(ctx, `marker ${number}`), ...(obs.marker === number ? exact(ctx, "deal") : [])];
    return hot(ctx, g, `space-${number}`, title.split("\n")[0], texts, `Space ${number}`);
  }

  function middle(ctx) {
    const { svg } = ctx.api;
    const obs = ctx.obs;
    const x = CW + 8, y = CH + 6;
    const g = svg("g", { class: "itb-middle" });
    const top = obs.deal_cards.length ? ctx.content.deal_cards[obs.deal_cards[0] - 1] : null;
    const head = top ? `Deal card ${top.number} on top: ${top.value} million a dividend` : "No deal card left";
    g.append(svg("text", { x, y: y + 12, "font-size": 12, "font-weight": "bold" }, head));
    const stack = svg("g", {});
    obs.deal_cards.slice(0, 15).forEach((number, i) => {
      const card = ctx.content.deal_cards[number - 1];
      const cx = x + 24 * i, cy = y + 18;
      const one = svg("g", { class: `itb-deal${i === 0 ? " top" : ""}` },
        svg("title", {}, ctx.api.cardTexts[card.name] || card.name),
        svg("rect", { x: cx, y: cy, width: 22, height: 28, rx: 3 }),
        svg("text", { x: cx + 11, y: cy + 11, "text-anchor": "middle", "font-size": 10, "font-weight": "bold" }, String(number)),
        svg("text", { x: cx + 11, y: cy + 23, "text-anchor": "middle", "font-size": 9 }, `${card.value}M`));
      stack.append(one);
    });
    stack.setAttribute("aria-label", `deal cards left, top first: ${obs.deal_cards.join(", ")}`);
    stack.setAttribute("role", "img");
    g.append(mark(ctx, stack, "stack"));
    const travelling = ctx.nego ? ctx.nego.travelling : [];
    (ctx.content.investors || []).forEach((inv, i) => {
      const px = x + 122 * (i % 3), py = y + 52 + 28 * Math.floor(i / 3);
      const holder = obs.placards[inv.colour];
      const away = travelling.includes(inv.colour);
      const who = holder === null || holder === undefined ? "spare" : name(ctx, holder);
      const p = svg("g", { class: `itb-placard${away ? " away" : ""}`, ...(who === "spare" ? { "data-spare": "" } : {}) },
        svg("rect", { class: "cell", x: px, y: py, width: 118, height: 25, rx: 4 }),
        svgBox(ctx, px + 4, py + 4, 17, inv.colour),
        svg("text", { x: px + 25, y: py + 11, "font-size": 10, "font-weight": "bold" }, `${inv.name} placard`),
        svg("text", { x: px + 25, y: py + 22, "font-size": 10 }, away ? `${who}, travelling` : who));
      const texts = [...exact(ctx, `recruit ${inv.colour}`), ...exact(ctx, `travel ${inv.colour}`)];
      const label = `${inv.name} placard (${inv.investor}): ${who}${away ? ", travelling" : ""}`;
      g.append(hot(ctx, p, `placard-${inv.colour}`, label, texts, `The ${clan(ctx, inv.colour)} placard`));
    });
    const pile = `Influence deck ${obs.draw_size} · discard ${obs.discard.length} · deals closed ${obs.deals.length}`;
    g.append(svg("text", { x, y: y + 124, "font-size": 10 }, pile));
    return g;
  }

  function board(ctx) {
    const { svg } = ctx.api;
    const ring = svg("svg", { class: "itb-ring", viewBox: `0 0 ${CW * COLS} ${CH * ROWS}`, role: "group",
                              "aria-label": "the board: 16 spaces clockwise from the top left" });
    clockwiseCells().slice(0, ctx.content.spaces.length).forEach(([c, r], i) => ring.append(spacePart(ctx, i, c, r)));
    ring.append(middle(ctx));
    return ctx.api.el("div", { class: "itb-ring-wrap" }, ring);
  }

  // ------------------------------------------------------------------ players and hand
  function players(ctx) {
    const { el } = ctx.api;
    const obs = ctx.obs, nego = ctx.nego;
    const head = el("tr", {}, ...["Seat", "Money", "Cards", "Placards", "Deal"].map(h => el("th", { scope: "col" }, h)));
    const rows = obs.hand_sizes.map((size, s) => {
      const badges = [];
      if (s === ctx.me) badges.push("you");
      if (obs.turn > 0 && obs.current === s && !obs.over) badges.push("turn");
      if (nego && nego.boss === s) badges.push("Boss");
      if (obs.deciders.includes(s) && !obs.over) badges.push("asked");
      const who = el("td", {}, el("span", { class: "itb-dot", style: `background:${ctx.api.palette[s % ctx.api.palette.length]}` }),
                     ` ${name(ctx, s)} `, ...badges.map(b => el("span", { class: `itb-badge ${b.toLowerCase()}` }, b)));
      const final = obs.over && ctx.api.view.results ? ctx.api.view.results.scores[s] : null;
      const money = final !== null ? `${final} M` : obs.money[s] === null ? "?" : `${obs.money[s]} M`;
      const owned = Object.entries(obs.placards).filter(([, h]) => h === s).map(([c]) => c);
      const placards = el("td", {}, ...owned.map(c => chip(ctx, c, nego && nego.travelling.includes(c) ? { class: "itb-clan away" } : {})));
      const deal = el("td", {});
      if (nego) {
        const laid = mark(ctx, el("span", { class: "itb-laid" }), `laid-${s}`);
        for (const c of nego.laid[s]) laid.append(chip(ctx, c, { title: `a ${clan(ctx, c)} Clan card laid face up` }));
        const paid = nego.gets[s];  // the server's sum of what the terms pay this seat
        deal.append(laid, el("span", { title: "actions used in this negotiation (pass, agree, refuse free)" }, `${nego.counted[s]}/${nego.limit}`),
                    s !== nego.boss && paid ? el("span", { title: `gets ${paid} million under the terms` }, ` +${paid} M`) : "");
      }
      const row = el("tr", {}, who, el("td", money === "?" ? { title: "hidden (option money: hidden)" } : {}, money),
                     el("td", {}, String(size)), placards, deal);
      const label = `${name(ctx, s)}${badges.length ? ` (${badges.join(", ")})` : ""}: money ${money === "?" ? "hidden" : money}, ${size} cards`;
      return hot(ctx, row, `seat-${s}`, label, ctx.api.matching(`tip @${s}`), `Pay ${name(ctx, s)} for no investor`);
    });
    return el("table", { class: "itb-players", "aria-label": "the players" }, el("thead", {}, head), el("tbody", {}, ...rows));
  }

  function handTexts(ctx, card) {
    const [kind, colour] = card.split(":");
    const texts = [];
    if (kind === "clan") texts.push(...exact(ctx, `lay ${colour}`));
    if (kind === "travel" && colour !== "any") texts.push(...ctx.api.matching(`travel ${colour}`));
    if (kind === "travel" && colour === "any") texts.push(...ctx.legal.filter(t => t.startsWith("travel ")));
    if (kind === "recruit") texts.push(...ctx.legal.filter(t => t.startsWith("recruit ")));
    if (kind === "boss") texts.push(...exact(ctx, "boss"));
    if (kind === "stop") texts.push(...exact(ctx, "stop"));
    texts.push(...exact(ctx, `discard ${card}`));
    return texts;
  }

  function hand(ctx) {
    const { el } = ctx.api;
    const obs = ctx.obs;
    if (obs.hand === null) return el("p", { class: "itb-hand muted" }, "Spectating: every hand is hidden (sizes in the table above).");
    const counts = {};
    for (const card of obs.hand) counts[card] = (counts[card] || 0) + 1;
    const cards = Object.entries(counts).map(([card, count]) => {
      const info = (ctx.content.cards || {})[card] || { label: card, fill: "#fff", ink: "#000", kind: card };
      const node = el("span", { class: `itb-card ${info.kind}`, title: ctx.api.cardTitle(card) || card },
        el("span", { class: "stripe", style: `background:${info.fill}` }), info.label, count > 1 ? el("b", {}, ` ×${count}`) : "");
      return hot(ctx, node, `card-${card}`, `your ${info.label} card${count > 1 ? ` ×${count}` : ""}`, handTexts(ctx, card), info.label);
    });
    return el("div", { class: "itb-hand", "aria-label": "your hand" }, el("span", { class: "itb-label" }, `Your hand (${obs.hand.length}):`), ...(cards.length ? cards : [" empty"]));
  }

  // ------------------------------------------------------------------ the open deal
  function colourRow(ctx, colour) {
    const { el } = ctx.api;
    const nego = ctx.nego, obs = ctx.obs;
    const inv = ctx.investors[colour] || { name: colour, investor: "" };
    const about = ctx.legal.filter(t => t.split(" ")[1] === colour && !t.startsWith("discard"));
    const head = hot(ctx, el("span", { class: "itb-head" }, chip(ctx, colour), ` ${inv.name}`),
                     `investor-${colour}`, `${inv.name} investor (${inv.investor})`, about, `${clan(ctx, colour)}: your choices`);
    const term = nego.terms[colour];
    const line = el("span", { class: "itb-term" });
    if (term) {
      const [s, amount, agreed] = term;
      const own = s === nego.boss;
      const words = own ? `${name(ctx, s)}, the Boss's own` : `${name(ctx, s)} for ${amount} M`;
      const texts = [...exact(ctx, `drop ${colour}`), ...(s === ctx.me && !agreed ? [...exact(ctx, "agree"), ...exact(ctx, "refuse")] : [])];
      line.append(hot(ctx, el("span", { class: `itb-line ${agreed ? "agreed" : "proposed"}` }, `${words} ${agreed ? "✓ agreed" : "? not agreed"}`),
                      `term-${colour}`, `terms: ${clan(ctx, colour)} from ${words}, ${agreed ? "agreed" : "not agreed yet"}`, texts));
    } else {
      line.append(el("span", { class: "itb-line none" }, "not in the terms"));
    }
    const supply = el("span", { class: "itb-supply" });
    const sources = nego.suppliers[colour] || [];
    for (const s of sources) {
      const placard = obs.placards[colour] === s && !nego.travelling.includes(colour);
      const laid = nego.laid[s].filter(c => c === colour).length;
      const how = [placard ? "placard" : "", laid ? `Clan card${laid > 1 ? ` ×${laid}` : ""}` : ""].filter(Boolean).join(" + ");
      const texts = [...ctx.api.matching(`include ${colour} @${s}`), ...(s === nego.boss ? exact(ctx, `use ${colour}`) : []),
                     ...(placard ? exact(ctx, `travel ${colour}`) : []), ...(laid ? exact(ctx, `travel ${colour} @${s}`) : []),
                     ...(s === ctx.me ? [...ctx.api.matching(`offer ${colour}`), ...exact(ctx, `withdraw ${colour}`)] : [])];
      const title = s === ctx.me ? `Offer your ${clan(ctx, colour)}: your ask` : `${name(ctx, s)}'s ${clan(ctx, colour)}: what you propose`;
      supply.append(hot(ctx, el("span", { class: "itb-source" }, `${name(ctx, s)} · ${how}`), `supplier-${colour}-${s}`,
                        `${name(ctx, s)} can supply ${inv.name} (${how})`, texts, title));
      const offer = nego.offers.find(o => o[0] === colour && o[1] === s);
      if (offer) {
        const take = [...exact(ctx, `accept ${colour} @${s}`), ...(s === ctx.me ? exact(ctx, `withdraw ${colour}`) : [])];
        supply.append(hot(ctx, el("span", { class: "itb-offer" }, `asks ${offer[2]} M`), `offer-${colour}-${s}`,
                          `${name(ctx, s)} offers ${inv.name} for ${offer[2]} million`, take));
      }
    }
    if (nego.travelling.includes(colour)) {
      const holder = obs.placards[colour];
      supply.append(el("span", { class: "itb-source away", title: "a Travel card lies on it until the negotiation ends" },
                       `${holder === null ? "spare" : name(ctx, holder)}'s placard travelling`));
    }
    if (!sources.length && !nego.travelling.includes(colour)) supply.append(el("span", { class: "muted" }, "nobody can supply it"));
    return el("div", { class: "itb-row", "data-colour": colour }, head, supply, line);
  }

  function dealPanel(ctx) {
    const { el } = ctx.api;
    const nego = ctx.nego;
    const space = ctx.content.spaces[nego.space - 1];
    const top = el("div", { class: "itb-deal-head" },
      el("b", {}, `Space ${space.number} deal: ${space.text}`), ` · proceeds ${nego.proceeds} million`,
      el("br"), `Boss: ${name(ctx, nego.boss)} (keeps ${nego.keeps} M) · still needs: ${nego.still_needs}`);
    const state = nego.called ? "called: “going once, going twice…”" : nego.stands ? "the agreed terms cover the space: the Boss may call"
      : nego.quiet ? "everyone has passed: the Boss decides" : "bargaining: anyone may act";
    top.append(el("br"), mark(ctx, el("span", { class: `itb-state${nego.called ? " called" : ""}` }, state), "deal"));
    const rows = [];
    if (space.required) rows.push(el("div", { class: "itb-group", "data-required": "" }, "Required, each:"), ...[...space.required].map(c => colourRow(ctx, c)));
    for (const group of space.groups) {
      rows.push(el("div", { class: "itb-group" }, `${group.count} of ${[...group.colours].join(" ")}:`));
      rows.push(...[...group.colours].map(c => colourRow(ctx, c)));
    }
    const extra = [];
    for (const [s, [seat, amount, agreed]] of Object.entries(nego.tips)) {
      const texts = [...exact(ctx, `tip @${s} 0`), ...(seat === ctx.me && !agreed ? [...exact(ctx, "agree"), ...exact(ctx, "refuse")] : [])];
      extra.push(hot(ctx, el("div", { class: `itb-line tip ${agreed ? "agreed" : "proposed"}` },
                             `${name(ctx, seat)}: ${amount} M for no investor · ${agreed ? "agreed ✓" : "not agreed yet ?"}`),
                     `tip-${s}`, `a payment of ${amount} million to ${name(ctx, seat)} for no investor`, texts));
    }
    if (nego.pending) {
      extra.push(hot(ctx, el("div", { class: "itb-pending" }, `Played: ${nego.pending} — a Stop may cancel it`), "pending",
                     `played: ${nego.pending}; a Stop card may cancel it`, exact(ctx, "stop")));
    }
    return el("section", { class: "itb-panel", "aria-label": "the open deal" }, top, ...rows, ...extra);
  }

  function markerPanel(ctx) {
    const { el } = ctx.api;
    const obs = ctx.obs;
    const parts = [];
    if (obs.marker) {
      const space = ctx.content.spaces[obs.marker - 1];
      const top = obs.deal_cards.length ? ctx.content.deal_cards[obs.deal_cards[0] - 1] : null;
      const proceeds = top && obs.marker_proceeds !== null ? ` × ${top.value} million = ${obs.marker_proceeds} million` : "";
      parts.push(el("b", {}, `The marker is on space ${space.number}: ${space.text}`), el("br"), `${space.dividends} dividends${proceeds}`);
      const holders = [...space.colours].map(c => {
        const h = obs.placards[c];
        return el("span", { class: "itb-source" }, chip(ctx, c), ` ${h === null ? "spare" : name(ctx, h)}`);
      });
      parts.push(el("div", {}, el("span", { class: "itb-label" }, "placards:"), ...holders));
    } else {
      parts.push(el("b", {}, "The marker is still to be placed: click a space."));
    }
    const last = obs.deals[obs.deals.length - 1];
    if (last) {
      const paid = Object.entries(last.payments).map(([s, a]) => `${name(ctx, Number(s))} ${a} M`).join(", ") || "nobody";
      parts.push(el("div", { class: "itb-last" }, `Last deal: space ${last.space} (deal card ${last.card}), Boss ${name(ctx, last.boss)}, proceeds ${last.proceeds} M; paid ${paid}`));
    }
    return el("section", { class: "itb-panel", "aria-label": "the deal where the marker stands" }, ...parts);
  }

  // ------------------------------------------------------------------ bar, countdown, news
  function bar(ctx) {
    const { el } = ctx.api;
    const buttons = BAR.filter(([verb]) => has(ctx, verb)).map(([verb, label]) => {
      const ends = ctx.api.endsTurn(verb) ? { "data-ends": "" } : {};
      const b = el("button", { type: "button", class: `itb-verb ${verb}`, "data-verb": verb, "data-actions": verb, ...ends }, label);
      b.addEventListener("click", () => ctx.api.act(verb));
      return b;
    });
    const idle = ctx.obs.over ? "The game is over." : ctx.me === null ? "Watching." : ctx.legal.length ? "Click the table to act." : "Waiting for the others.";
    return el("div", { class: "itb-bar", role: "toolbar", "aria-label": "actions without a component" },
              ...(buttons.length ? buttons : []), el("span", { class: "muted" }, buttons.length ? "" : idle));
  }

  function countdown(ctx) {
    const { el } = ctx.api;
    const w = ctx.api.view.window;
    tick.window = w;
    if (!w) { tick.fill = tick.time = null; return el("div", { class: "itb-countdown", hidden: "" }); }
    const nego = ctx.nego;
    const queue = nego && nego.asking && nego.asking.length ? nego.asking : w.waiting;
    const names = queue.map(s => name(ctx, s)).join(", then ");
    let text;
    if (nego && nego.window === "closing") text = `“Going once, going twice…” still to answer: ${names}`;
    else if (nego && nego.window === "respond") text = `Stop window: ${names} may stop ${nego.pending}`;
    else if (nego && nego.quiet) text = `Everyone has passed: only the Boss, ${name(ctx, nego.boss)}, is asked`;
    else text = `Bargaining: waiting for ${w.waiting.map(s => name(ctx, s)).join(", ")}`;
    const fill = el("span", { class: "itb-fill" });
    const time = el("span", { class: "itb-time" });
    tick.fill = fill; tick.time = time;
    return el("div", { class: `itb-countdown ${nego ? nego.window : ""}`, role: "timer", "aria-label": text },
              el("span", { class: "itb-track" }, fill), el("span", {}, text), time);
  }

  function updateCountdown() {
    const w = tick.window;
    if (!w || !tick.fill || !tick.fill.isConnected) return;
    const span = Math.max(0.001, w.answer_at - w.opened);
    const left = Math.max(0, w.answer_at - (Date.now() + tick.offset) / 1000);
    tick.fill.style.width = `${(100 * Math.min(1, left / span)).toFixed(1)}%`;
    tick.time.textContent = left >= 0.05 ? ` · ${left.toFixed(1)} s` : "";
  }

  function news(ctx) {
    const { el } = ctx.api;
    const lines = (ctx.api.log || ctx.api.view.log).flatMap(e => (e.lines.length ? e.lines : [`${name(ctx, e.seat)}: ${e.action}`])).slice(-3);
    const box = el("div", { class: "itb-news", "aria-live": "polite", "aria-label": "just played" });
    for (const line of lines) {
      const title = ctx.api.cardTitle(line);
      box.append(el("div", title ? { class: ctx.previous ? "arrived" : "", title } : { class: ctx.previous ? "arrived" : "" }, line));
    }
    return box;
  }

  // ------------------------------------------------------------------ the table
  function draw(root, api) {
    if (!api.content || !api.content.spaces) { root.replaceChildren(api.el("p", {}, "The table's content has not arrived yet.")); return; }
    const ctx = context(api);
    if (api.view.version !== tick.version) {
      tick.version = api.view.version;
      tick.offset = api.view.clock ? api.view.clock.now * 1000 - Date.now() : 0;  // the learn page has no clock
    }
    const { el } = api;
    const ring = board(ctx);
    // On a phone the board's clickable spaces and placards are buttons too (api.taps).
    const tapList = api.taps ? api.taps(ring.querySelectorAll(".hot")) : null;
    const left = el("div", { class: "itb-left" }, ring, ...(tapList ? [tapList] : []), ctx.nego ? dealPanel(ctx) : markerPanel(ctx));
    const right = el("div", { class: "itb-right" }, bar(ctx), countdown(ctx), players(ctx), hand(ctx), news(ctx));
    root.replaceChildren(el("div", { class: "itb", role: "region", "aria-label": "I'm the Boss! table" }, left, right));
    updateCountdown();
  }

  setInterval(updateCountdown, 100);
  Parlour.register("im-the-boss", { draw });
})();
