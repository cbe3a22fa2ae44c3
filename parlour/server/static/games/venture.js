// Venture's drawn table: the center, every player's stacks, the hand, and a bar of verbs.
// No rule lives here: what can be clicked or dragged, and what it plays, comes from api.legal (the
// server's list of legal texts); the numbers shown (profits, fees, what is owed, the cheapest payment,
// the sets a hand makes) come from the observation (docs/browser-tables/venture.md).
"use strict";
(() => {
  const SYMBOL_GLYPHS = { triangle: "▲", circle: "●", square: "■" };
  let current = null;  // the latest draw's context, for handlers that outlive a draw (a drag)

  Parlour.register("venture", { draw(root, api) { draw(root, api); } });

  function draw(root, api) {
    const memory = api.memory;
    const obs = api.observation;
    const fresh = memory.drawnVersion !== api.view.version;
    if (fresh) {
      memory.drawnVersion = api.view.version;
      memory.note = "";
      memory.refused = null;
      runChain(api);
    }
    const ctx = {
      api, obs, memory, fresh,
      content: api.content || {},
      legal: new Set(api.legal),
      now: places(obs), before: places(api.before), previous: places(api.previous),
    };
    current = ctx;
    if (obs.decision !== "turn" || !api.view.asked) memory.target = null;
    if (obs.decision !== "pay") memory.payKey = null;
    const board = api.el("div", { class: "vt", "data-decision": obs.decision || "over" });
    board.append(centerRow(ctx), playersBlock(ctx));
    if (api.seat !== null && obs.hand) board.append(handBlock(ctx));
    board.append(bar(ctx));
    const focused = focusKey(root);
    root.replaceChildren(board);
    fit(root, board);
    if (focused) {
      const again = root.querySelector(focused);
      if (again && again.getAttribute("tabindex") !== null) again.focus();
    }
  }

  // The keyboard's place survives a redraw: the focused part is found again by its data attributes.
  const KEYS = ["data-corp", "data-card", "data-index", "data-action", "data-role", "data-drop"];
  function focusKey(root) {
    const node = document.activeElement;
    if (!node || node === root || !root.contains(node)) return "";
    const parts = KEYS.filter(k => node.hasAttribute(k)).map(k => `[${k}="${CSS.escape(node.getAttribute(k))}"]`);
    return parts.length ? node.tagName.toLowerCase() + parts.join("") : "";
  }

  // On a laptop-sized window the whole drawing stays in view: a table grown tall (many stacks) is
  // zoomed out until it fits; on a narrow (phone) window it scrolls instead.
  function fit(root, board) {
    board.style.zoom = "";
    if (innerWidth < 700) return;
    const box = document.getElementById("board-box");
    const below = box.getBoundingClientRect().bottom - root.getBoundingClientRect().bottom;
    const room = innerHeight - (root.getBoundingClientRect().top + scrollY) - below - 4;
    const need = board.getBoundingClientRect().height;
    if (need > room && room > 0) board.style.zoom = String(Math.max(0.5, Math.floor(100 * room / need) / 100));
  }

  addEventListener("resize", () => { if (current) current.api.redraw(); });

  // A follow-up action planned by a control (the done after a payment line, the best arrangement after
  // a cancel): played once the next version arrives, only if the server lists it.
  function runChain(api) {
    const chain = api.memory.chain;
    if (!chain || api.view.version <= chain.after) return;
    api.memory.chain = null;
    // Only right after the first action landed (a refused one plans nothing further).
    if (api.view.version === chain.after + 1 && api.legal.includes(chain.action)) api.act(chain.action);
  }

  function plan(ctx, first, then) {
    ctx.memory.chain = { after: ctx.api.view.version, action: then };
    ctx.api.act(first);
  }

  // ---------------------------------------------------------------- where each corporation is
  function places(obs) {
    const found = new Map();
    if (!obs) return found;
    (obs.center || []).forEach(name => found.set(name, "center"));
    (obs.holdings || []).forEach((stacks, seat) => stacks.forEach(stack => stack.cards.forEach((name, i) =>
      found.set(name, `${seat}:${stack.cards[0]}:${i}`))));
    if (obs.pending && obs.pending.corp) found.set(obs.pending.corp, "pending");
    return found;
  }

  function highlight(ctx, node, name) {
    if (ctx.api.before && ctx.before.get(name) !== ctx.now.get(name)) node.classList.add("changed");
    if (ctx.fresh && ctx.api.previous && ctx.previous.get(name) !== ctx.now.get(name)) node.classList.add("arrived");
  }

  function highlightValue(ctx, node, pick) {
    const now = pick(ctx.obs);
    if (ctx.api.before && pick(ctx.api.before) !== now) node.classList.add("changed");
    if (ctx.fresh && ctx.api.previous && pick(ctx.api.previous) !== now) node.classList.add("arrived");
    return node;
  }

  // ---------------------------------------------------------------- cards
  function industryOf(ctx, code) {
    return (ctx.content.industries || []).find(i => i.code === code) || { code, name: code, colour: "#dddddd" };
  }

  function corpFacts(ctx, name) {
    const facts = (ctx.content.corporations || {})[name];
    if (facts) return facts;
    const [code, letters] = name.split("-");
    return { industry: code, letters: letters || "", value: 0 };
  }

  // A corporation: its industry's colour with code and name, the letters A–F in their columns (the
  // letters common to its conglomerate marked), and its value.
  function corpCard(ctx, name, common = "") {
    const { api } = ctx;
    const facts = corpFacts(ctx, name);
    const industry = industryOf(ctx, facts.industry);
    const letters = api.el("span", { class: "vt-letters", "aria-hidden": "true" });
    for (const letter of ctx.content.letters || "ABCDEF") {
      const has = facts.letters.includes(letter);
      const cls = has ? (common.includes(letter) ? "vt-l common" : "vt-l") : "vt-l vt-none";
      letters.append(api.el("span", { class: cls }, has ? letter : ""));
    }
    const shared = common ? `, common to its conglomerate ${[...common].join(" ")}` : "";
    const label = `${industry.name} ${name}, letters ${[...facts.letters].join(" ")}${shared}, ${facts.value} million`;
    const card = api.el("div", {
      class: "vt-corp", "data-corp": name, "data-industry": facts.industry, role: "img", "aria-label": label,
      title: api.cardTitle(name) || label, style: `--ind: ${industry.colour}`,
    },
    api.el("span", { class: "vt-band" }, api.el("b", {}, industry.code), " ", api.el("small", {}, industry.name)),
    letters, api.el("span", { class: "vt-val" }, `${facts.value}`));
    highlight(ctx, card, name);
    return card;
  }

  function resourceFacts(ctx, name) {
    return (ctx.content.resources || {})[name] || { kind: name.startsWith("x") ? "proxy" : "capital" };
  }

  // A resources card of the hand: capital (value and set symbol) or a proxy fight.
  function resourceCard(ctx, name, index) {
    const { api } = ctx;
    const facts = resourceFacts(ctx, name);
    let face, label;
    if (facts.kind === "proxy") {
      face = [api.el("span", { class: "vt-rk" }, "proxy"), api.el("span", { class: "vt-rv" }, facts.multiplier || name)];
      label = `proxy fight ${facts.multiplier || name}`;
    } else if (facts.kind === "capital") {
      const glyph = facts.symbol ? SYMBOL_GLYPHS[facts.symbol] || "" : "";
      face = [api.el("span", { class: "vt-rv" }, String(facts.value ?? name)),
              api.el("span", { class: "vt-rk" }, facts.symbol ? `${glyph} ${facts.symbol[0]}` : "capital")];
      label = `capital ${facts.value ?? name} million${facts.symbol ? " " + facts.symbol : ""}`;
    } else {
      face = [api.el("span", { class: "vt-rv" }, name)];
      label = name;
    }
    const card = api.el("div", {
      class: `vt-res vt-${facts.kind}`, "data-card": name, "data-index": String(index),
      role: "img", "aria-label": label, title: api.cardTitle(name) || label,
    }, ...face);
    return card;
  }

  // ---------------------------------------------------------------- the center
  function centerRow(ctx) {
    const { api, obs } = ctx;
    const cards = (obs.center || []).map(name => {
      const card = corpCard(ctx, name);
      const take = api.matching(`take ${name}`);
      if (take.length) {
        const facts = corpFacts(ctx, name);
        api.clickable(card, `take over ${name} for ${facts.value} million`, () => api.act(take[0]));
      }
      return card;
    });
    const discard = obs.discard || [];
    const top = discard.length ? discard[discard.length - 1] : "";
    const piles = api.el("div", { class: "vt-piles" },
      highlightValue(ctx, api.el("span", { class: "vt-pile", "data-field": "stock" }, `stock ${obs.stock_size}`), o => o.stock_size),
      highlightValue(ctx, api.el("span", { class: "vt-pile", "data-field": "deck" }, `deck ${obs.draw_size}`), o => o.draw_size),
      highlightValue(ctx, api.el("span", { class: "vt-pile", "data-field": "discard", title: top ? api.cardTitle(top) : "" },
        `discard ${discard.length}${top ? ` (top ${top})` : ""}`), o => (o.discard || []).length));
    return api.el("section", { class: "vt-center", "aria-label": "the center's corporations and the piles" },
      api.el("span", { class: "vt-label" }, "Center"), api.el("div", { class: "vt-row" }, ...cards), piles);
  }

  // ---------------------------------------------------------------- the players
  function playersBlock(ctx) {
    const { api, obs } = ctx;
    const players = obs.holdings.length;
    const me = api.seat;
    const order = [];
    for (let i = 1; i <= players; i++) order.push(me === null ? i - 1 : (me + i) % players);
    const others = order.filter(s => s !== me).map(s => playerPanel(ctx, s));
    const block = api.el("div", { class: "vt-players" }, api.el("div", { class: "vt-others" }, ...others));
    if (me !== null) block.append(playerPanel(ctx, me));
    return block;
  }

  function playerPanel(ctx, seat) {
    const { api, obs } = ctx;
    const mine = seat === api.seat;
    const name = api.names[seat] + (mine ? " (you)" : "");
    const head = api.el("div", { class: "vt-head" },
      api.el("b", {}, name),
      highlightValue(ctx, api.el("span", { "data-field": "score" }, `score ${obs.profits[seat]}`), o => o.profits[seat]),
      highlightValue(ctx, api.el("span", { "data-field": "earns" }, `earns ${obs.holdings_profit[seat]} at a Profit card`),
        o => o.holdings_profit[seat]),
      api.el("span", { "data-field": "hand" }, `${obs.hand_sizes[seat]} card${obs.hand_sizes[seat] === 1 ? "" : "s"} in hand`));
    if (obs.current === seat && !obs.over) head.append(api.el("span", { class: "vt-turn" }, "▶ to play"));
    const stacks = api.el("div", { class: "vt-stacks" });
    obs.holdings[seat].forEach(stack => stacks.append(stackNode(ctx, seat, stack)));
    if (!obs.holdings[seat].length) stacks.append(api.el("span", { class: "vt-empty" }, "no corporations"));
    if (mine) addOwnZones(ctx, stacks);
    const cls = `vt-player${mine ? " vt-me" : ""}${obs.current === seat ? " vt-current" : ""}`;
    return api.el("section", { class: cls, "data-seat": String(seat), "aria-label": `${name}'s holdings` }, head, stacks);
  }

  // A stack: its cards bottom to top (the bottom card drawn lowest), the common letters and what it
  // would earn at a Profit card.
  function stackNode(ctx, seat, stack) {
    const { api, obs } = ctx;
    const mine = seat === api.seat;
    const cards = stack.cards;
    const topName = cards[cards.length - 1];
    const column = api.el("div", { class: "vt-column" });
    cards.forEach((name, i) => {
      const card = corpCard(ctx, name, cards.length > 1 ? stack.common : "");
      if (i === cards.length - 1) card.classList.add("vt-top");
      if (mine) ownCard(ctx, card, name);
      else if (i === cards.length - 1) opponentTop(ctx, card, name, seat);
      column.append(card);
    });
    const foot = cards.length > 1
      ? `${cards.length} · common ${[...stack.common].join(" ") || "none"} · earns ${stack.profit}`
      : "alone";
    const node = api.el("div", { class: "vt-stack", "data-top": topName, "aria-label":
      `${cards.length > 1 ? "conglomerate" : "lone corporation"} ${cards.join(" ")} (bottom to top), earns ${stack.profit}` },
      column, api.el("div", { class: "vt-foot" }, foot));
    if (mine) {
      node.dataset.drop = `on ${topName}`;
      const place = api.matching(`place on ${topName}`);
      if (obs.decision === "place" && place.length) {
        node.classList.add("vt-target");
        api.clickable(node, `place ${obs.pending.corp} on the conglomerate topped by ${topName}`, () => api.act(place[0]));
      }
    }
    return node;
  }

  // The zone for "alone" (placing or moving a corporation by itself), and the corporation to place.
  function addOwnZones(ctx, stacks) {
    const { api, obs } = ctx;
    if (obs.decision === "place" && obs.pending.corp && api.view.asked) {
      const pending = corpCard(ctx, obs.pending.corp);
      pending.classList.add("vt-pending");
      stacks.prepend(api.el("div", { class: "vt-stack vt-placing" },
        api.el("div", { class: "vt-column" }, pending), api.el("div", { class: "vt-foot" }, "to place")));
    }
    const placing = obs.decision === "place" && api.legal.includes("place alone");
    const moving = obs.decision === "reorganise" && api.legal.some(t => t.startsWith("move ") && t.endsWith(" alone"));
    if (!placing && !moving) return;
    const zone = api.el("div", { class: "vt-stack vt-alone", "data-drop": "alone" },
      api.el("div", { class: "vt-column" }, api.el("span", {}, placing ? "place alone" : "drop here: alone")),
      api.el("div", { class: "vt-foot" }, "by itself"));
    if (placing) {
      zone.classList.add("vt-target");
      api.clickable(zone, `place ${obs.pending.corp} alone`, () => api.act("place alone"));
    }
    stacks.append(zone);
  }

  // An opponent's top or lone corporation: a proxy fight's target, picked before the proxy card.
  function opponentTop(ctx, card, name, seat) {
    const { api, memory } = ctx;
    const fights = api.legal.filter(t => t.startsWith("proxy ") && t.split(" ")[2] === name);
    if (!fights.length) return;
    card.classList.add("vt-target");
    if (memory.target === name) card.classList.add("selected");
    api.clickable(card, `proxy fight for ${name} of ${api.names[seat]}: then click your proxy card`, () => {
      memory.target = memory.target === name ? null : name;
      api.redraw();
    });
  }

  // One of my corporations: while reorganising, dragged onto a stack or "alone" (or clicked for a menu).
  function ownCard(ctx, card, name) {
    const { api, memory } = ctx;
    if (ctx.obs.decision !== "reorganise") return;
    const moves = api.matching(`move ${name}`);
    if (memory.refused === name) card.classList.add("vt-refused");
    if (!moves.length) return;
    card.classList.add("vt-drag");
    card.addEventListener("pointerdown", event => startDrag(card, name, event));
    api.clickable(card, `move ${name}: drag it, or press Enter for the places it may go`, () => {
      if (Date.now() - (memory.dragged || 0) < 400) return;
      api.menu(`Move ${name}`, moves.map(t => ({ label: t.endsWith(" alone") ? "alone" : `on ${t.split(" on ")[1]}`, action: t })));
    });
  }

  function startDrag(card, name, event) {
    if (event.button !== 0) return;
    const start = { x: event.clientX, y: event.clientY };
    let ghost = null;
    const move = e => {
      if (!ghost && Math.hypot(e.clientX - start.x, e.clientY - start.y) < 5) return;
      if (!ghost) {
        ghost = card.cloneNode(true);
        ghost.classList.add("vt-ghost");
        ghost.removeAttribute("tabindex");
        document.body.append(ghost);
        card.classList.add("vt-dragging");
        markTargets(name);
      }
      ghost.style.left = `${e.clientX + 8}px`;
      ghost.style.top = `${e.clientY + 8}px`;
    };
    const up = e => {
      document.removeEventListener("pointermove", move);
      document.removeEventListener("pointerup", up);
      if (!ghost) return;  // no drag: the click opens the menu
      ghost.remove();
      drop(name, e.clientX, e.clientY);
    };
    document.addEventListener("pointermove", move);
    document.addEventListener("pointerup", up);
  }

  function markTargets(name) {
    const legal = current.api.legal;
    for (const zone of document.querySelectorAll("#board [data-drop]")) {
      zone.classList.add(legal.includes(`move ${name} ${zone.dataset.drop}`) ? "vt-drop-ok" : "vt-drop-no");
    }
  }

  // A drop plays the matching legal move; a drop that matches none is refused here and sends nothing.
  function drop(name, x, y) {
    const ctx = current, { api, memory } = ctx;
    memory.dragged = Date.now();
    const under = document.elementFromPoint(x, y);
    const zone = under && under.closest("#board [data-drop]");
    const text = zone ? `move ${name} ${zone.dataset.drop}` : "";
    if (text && api.legal.includes(text)) {
      memory.note = "";
      api.act(text);
      return;
    }
    memory.refused = name;
    memory.note = zone ? `${name} cannot go ${zone.dataset.drop === "alone" ? "alone" : zone.dataset.drop} now: nothing was played.`
                       : `Drop ${name} on one of your conglomerates or on “alone”.`;
    api.redraw();
  }

  // ---------------------------------------------------------------- the hand
  function handBlock(ctx) {
    const { api, obs, memory } = ctx;
    const hand = obs.hand;
    const paying = obs.decision === "pay" && api.view.asked;
    if (paying) preselect(ctx);
    const selected = new Set(paying ? memory.paySelection : []);
    // The sets the hand makes at its best grouping (from the observation), card by card.
    const inSet = new Map();
    (obs.hand_sets || []).forEach((set, number) => set.cards.forEach(name => {
      const index = hand.findIndex((card, i) => card === name && !inSet.has(i));
      if (index >= 0) inSet.set(index, number);
    }));
    const newSince = mark => {
      const left = [...(mark && mark.hand ? mark.hand : [])];
      return hand.map(name => { const at = left.indexOf(name); if (at >= 0) { left.splice(at, 1); return false; } return true; });
    };
    const changed = api.before ? newSince(api.before) : hand.map(() => false);
    const arrived = ctx.fresh && api.previous ? newSince(api.previous) : hand.map(() => false);
    const cards = hand.map((name, index) => {
      const card = resourceCard(ctx, name, index);
      if (changed[index]) card.classList.add("changed");
      if (arrived[index]) card.classList.add("arrived");
      handCardAction(ctx, card, name, index, paying, selected);
      return card;
    });
    const groups = [];
    const bySymbol = {};
    hand.forEach((name, index) => {
      const facts = resourceFacts(ctx, name);
      const key = facts.kind === "capital" ? (facts.symbol || "plain") : facts.kind;
      (bySymbol[key] = bySymbol[key] || []).push(index);
    });
    for (const key of ["triangle", "circle", "square", "plain", "proxy", "profit"]) {
      const indices = bySymbol[key];
      if (!indices) continue;
      const title = key in SYMBOL_GLYPHS ? `${SYMBOL_GLYPHS[key]} ${key}` : key === "plain" ? "capital" : "proxy fights";
      const parts = [];
      const sets = [...new Set(indices.filter(i => inSet.has(i)).map(i => inSet.get(i)))];
      for (const number of sets) {
        const set = obs.hand_sets[number];
        parts.push(api.el("div", { class: "vt-set", "aria-label": `a set of ${set.cards.length}, worth ${set.worth}` },
          ...indices.filter(i => inSet.get(i) === number).map(i => cards[i]),
          api.el("span", { class: "vt-set-worth" }, `set of ${set.cards.length}: ${set.worth}`)));
      }
      parts.push(...indices.filter(i => !inSet.has(i)).map(i => cards[i]));
      groups.push(api.el("div", { class: `vt-group vt-group-${key}` }, api.el("span", { class: "vt-label" }, title), ...parts));
    }
    if (!hand.length) groups.push(api.el("span", { class: "vt-empty" }, "no cards"));
    return api.el("section", { class: "vt-hand", "aria-label": "your hand" },
      api.el("span", { class: "vt-label" }, "Your hand"), ...groups);
  }

  function handCardAction(ctx, card, name, index, paying, selected) {
    const { api, memory } = ctx;
    if (paying) {
      if (!api.legal.includes(`pay ${name}`)) return;
      const on = selected.has(index);
      if (on) card.classList.add("selected");
      card.setAttribute("aria-pressed", on ? "true" : "false");
      api.clickable(card, `${on ? "do not lay" : "lay"} ${name} down`, () => {
        const chosen = new Set(memory.paySelection);
        if (chosen.has(index)) chosen.delete(index); else chosen.add(index);
        memory.paySelection = [...chosen];
        api.redraw();
      });
      return;
    }
    const fights = api.legal.filter(t => t.startsWith(`proxy ${name} `));
    if (memory.target && api.legal.includes(`proxy ${name} ${memory.target}`)) {
      card.classList.add("vt-target");
      api.clickable(card, `proxy fight ${name} for ${memory.target}`, () => {
        const text = `proxy ${name} ${memory.target}`;
        memory.target = null;
        api.act(text);
      });
      return;
    }
    const choices = [...api.matching(`discard ${name}`), ...fights];
    if (!choices.length) return;
    const label = fights.length ? `${name}: a proxy fight, or discard it` : `discard ${name}`;
    api.clickable(card, label, () => {
      if (choices.length === 1) { api.act(choices[0]); return; }
      api.menu(`${name}`, choices.map(t => ({
        action: t, label: t.startsWith("proxy ") ? `proxy fight for ${t.split(" ")[2]}` : `discard ${name} (ends the turn)`,
        ends: !t.startsWith("proxy "),
      })));
    });
  }

  // The cheapest covering payment (from the observation) is chosen when a payment opens or changes.
  function preselect(ctx) {
    const { obs, memory } = ctx;
    const key = `${obs.turn}:${obs.owed}:${(obs.payment || []).join(" ")}`;
    if (memory.payKey === key) return;
    memory.payKey = key;
    const left = [...obs.hand.keys()];
    memory.paySelection = (obs.cheapest_payment || []).map(name => {
      const at = left.findIndex(i => obs.hand[i] === name);
      return at >= 0 ? left.splice(at, 1)[0] : null;
    }).filter(i => i !== null);
  }

  // ---------------------------------------------------------------- the bar: prompt and verbs
  function bar(ctx) {
    const { api, obs, memory } = ctx;
    const box = api.el("section", { class: "vt-bar", "aria-label": "what to do" });
    const prompt = api.el("div", { class: "vt-prompt", "aria-live": "polite" }, promptText(ctx));
    box.append(prompt);
    if (memory.note) box.append(api.el("div", { class: "vt-note", role: "alert" }, memory.note));
    const noUndo = undoNote(ctx);
    if (noUndo) box.append(api.el("div", { class: "vt-undo-note", "data-field": "no-undo" }, noUndo));
    if (obs.owed || obs.decision === "pay") box.append(paymentInfo(ctx));
    const buttons = api.el("div", { class: "vt-buttons" });
    const button = (label, action, role = "") => {
      const b = api.el("button", { type: "button", class: "vt-btn", "data-action": action, ...(role ? { "data-role": role } : {}) }, label);
      b.addEventListener("click", () => api.act(action));
      buttons.append(b);
      return b;
    };
    const has = text => ctx.legal.has(text);
    if (obs.decision === "turn") {
      if (has("reorganise")) button(`Reorganise (fee ${obs.reorganise_fee})`, "reorganise");
      if (has("reorganise best")) button(`Best arrangement (fee ${obs.reorganise_fee})`, "reorganise best");
      if (has("end")) button("End transactions", "end");
      if (memory.target) {
        const b = api.el("button", { type: "button", class: "vt-btn" }, `Forget ${memory.target}`);
        b.addEventListener("click", () => { memory.target = null; api.redraw(); });
        buttons.append(b);
      }
    } else if (obs.decision === "reorganise") {
      if (has("done")) button("Finish reorganising", "done");
      if (has("cancel")) {
        const best = api.el("button", { type: "button", class: "vt-btn", "data-role": "best" }, "Best arrangement instead");
        best.addEventListener("click", () => plan(ctx, "cancel", "reorganise best"));
        buttons.append(best);
        button("Cancel reorganisation (fee back)", "cancel");
      }
    } else if (obs.decision === "pay" && api.view.asked) {
      payButtons(ctx, buttons);
    }
    if (has("undo")) button(`Undo (${obs.undos_left} left)`, "undo");
    box.append(buttons);
    return box;
  }

  function payButtons(ctx, buttons) {
    const { api, obs, memory } = ctx;
    const names = (memory.paySelection || []).map(i => obs.hand[i]).filter(Boolean);
    const line = names.length ? `pay ${names.join(" ")}` : "";
    const payable = names.length && names.every(name => ctx.legal.has(`pay ${name}`));
    if (payable) {
      const b = api.el("button", { type: "button", class: "vt-btn vt-main", "data-role": "pay", "data-action": line },
        `Pay with ${names.join(" ")}`);
      b.addEventListener("click", () => plan(ctx, line, "done"));
      buttons.append(b);
    }
    if (ctx.legal.has("done")) {
      const b = api.el("button", { type: "button", class: "vt-btn vt-main", "data-action": "done" }, "Done: the debt is covered");
      b.addEventListener("click", () => api.act("done"));
      buttons.append(b);
    }
  }

  function paymentInfo(ctx) {
    const { api, obs, memory } = ctx;
    const laid = obs.payment || [];
    const parts = [`Owed ${obs.owed} million`, `laid down: ${laid.length ? laid.join(" ") + ` (worth ${obs.payment_worth})` : "nothing yet"}`];
    if (obs.decision === "pay" && api.view.asked) {
      const names = (memory.paySelection || []).map(i => obs.hand[i]).filter(Boolean);
      parts.push(`chosen to lay: ${names.length ? names.join(" ") : "nothing"}`);
    }
    return api.el("div", { class: "vt-owed", "data-field": "owed" }, parts.join(" · "));
  }

  function promptText(ctx) {
    const { api, obs, memory } = ctx;
    if (obs.over) return `The game is over: ${obs.profits.map((p, s) => `${api.names[s]} ${p}`).join(", ")}.`;
    if (!api.view.asked) return api.view.summary;
    if (obs.decision === "place") return `Where does ${obs.pending.corp} go? Click a highlighted conglomerate of yours, or “place alone”.`;
    if (obs.decision === "reorganise") {
      return `Reorganising (the fee of ${obs.reorganise_fee} is in what you owe): drag a corporation onto one of your ` +
        "conglomerates or onto “alone” (each drop is checked), or focus it and press Enter; then finish.";
    }
    if (obs.decision === "pay") {
      return `Pay the ${obs.owed} million owed: click your capital cards to choose them (the cheapest covering ` +
        "payment is chosen for you), then pay.";
    }
    if (obs.pending && obs.pending.must_reorganise) return "Two corporations of one industry share a stack: reorganise.";
    if (memory.target) return `Proxy fight for ${memory.target}: click your proxy card.`;
    // Only what the server lists is offered, in words.
    const verbs = new Set(api.legal.map(t => t.split(" ")[0]));
    const parts = [];
    if (verbs.has("take")) parts.push("click a center corporation to take it over");
    if (verbs.has("proxy")) parts.push("an opponent's top corporation for a proxy fight");
    if (verbs.has("reorganise")) parts.push("reorganise");
    if (verbs.has("discard")) parts.push("click a card of your hand to discard it");
    if (verbs.has("end")) parts.push("end the transactions");
    if (parts.length === 1 && verbs.has("end")) return "Your turn: nothing more can be done now; end the transactions.";
    if (!parts.length) return api.view.summary;
    return `Your turn: ${parts.length > 1 ? parts.slice(0, -1).join(", ") + ", or " + parts[parts.length - 1] : parts[0]}.`;
  }

  // Why Undo is no longer offered this turn (it was earlier), from the view alone: the take-backs used up,
  // or the seat's last action in the log (a proxy fight, a discard, or a card drawn).
  function undoNote(ctx) {
    const { api, obs, memory } = ctx;
    const turn = `${obs.turn}:${api.seat}`;
    if (!api.view.asked || obs.over) return "";
    if (ctx.legal.has("undo")) { memory.undoTurn = turn; return ""; }
    if (memory.undoTurn !== turn) return "";
    if (obs.undos_left <= 0) return "No take-backs are left this turn: this can no longer be undone.";
    const mine = (api.log || []).filter(e => e.seat === api.seat);
    const last = mine.length ? mine[mine.length - 1] : null;
    const verb = last ? last.action.split(" ")[0] : "";
    const lines = last ? last.lines.join(" ") : "";
    if (verb === "proxy") return "A proxy card was shown: this can no longer be undone.";
    if (verb === "discard") return "A card was discarded: this can no longer be undone.";
    if (/draw/i.test(lines)) return "A card was drawn: this can no longer be undone.";
    return "Something was revealed to the others: this can no longer be undone.";
  }
})();
