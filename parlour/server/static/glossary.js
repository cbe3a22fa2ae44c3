// The glossary on a drawn table: every card, space and rule term the drawing shows explains itself, as a
// title on hover and in a small popover on tap (or a long press, or the context menu, on a part that
// plays when tapped). The terms come from the server (GET /api/games/GAME/glossary: the game's rule
// terms with their rulebook sentence, and every card's text); which part is which term is read from the
// data attributes the drawings already write (data-card, data-corp, data-field...), so no drawing changes
// how it looks. An "Explain" switch in the header makes every tap explain instead of play. Used by the table page (table.js, replay.js) and the learn page (learn.js).
"use strict";
const ParlourGlossary = window.ParlourGlossary = (() => {
  const loaded = {}, asked = {};
  // Attributes whose value may name a term itself (a card's name, a planet...), looked up as they are.
  const NAMING = ["data-term", "data-card", "data-corp", "data-planet", "data-ship", "data-upgrade", "data-part", "data-area"];
  // The drawn parts that stand for a term, per game: [selector, the term or a function of the part].
  const PARTS = {
    // A selector that may match one node with another comes first (a spare placard is a placard too).
    "im-the-boss": [
      ['[data-part^="card-"]', node => node.getAttribute("data-part").slice(5)],
      ['.itb-space', "Space"],
      ['.itb-space > .deal-card', "Deal card"],
      ['.itb-space > circle, .itb-space > circle + text', "Marker"],
      ['.itb-deal', node => `deal card ${node.querySelector("text").textContent}`],
      ['.itb-deal', "Deal card"],
      ['.itb-placard[data-spare]', "Spare placard"],
      ['.itb-placard', "Investor placard"],
      ['.itb-head', "Investor"],
      ['.itb-group[data-required]', "Required investor"],
      ['.itb-group', "Group"],
      ['.itb-laid > .itb-clan', "Clan card"],
      ['.itb-players td:nth-child(4) > .itb-clan', "Investor placard"],
      ['.itb-badge.boss', "Boss"],
      ['.itb-offer', "Offer"],
      ['.itb-line', "Terms"],
      ['.itb-deal-head', "Negotiation"],
      ['.itb-state.called', "Call"],
      ['.itb-pending', "Stop card"],
      ['.itb-hand > .itb-label', "Influence card"],
      ['.itb-players th:nth-child(2)', "Money"],
      ['.itb-verb.deal', "Negotiation"],
      ['.itb-verb.roll', "Roll"],
      ['.itb-verb.draw', "Draw"],
      ['.itb-verb.call', "Call"],
      ['.itb-verb.fail', "Fail"],
      ['.itb-verb.boss', "Boss card"],
      ['.itb-verb.stop', "Stop card"],
    ],
    "venus-needs-men": [
      [".vnm-card", node => node.textContent.replace(/ \(from the turn's end\)$/, "").replace(/ \d+\+$/, "")],
      ['.area-g[data-kind="orbit"]', "Orbit"],
      ['.area-g[data-kind="home"]', "Home world"],
      ['.area-g[data-kind="space"]', "Space area"],
      ['.area-g[data-kind="land"]', "Land area"],
      ['.area-g[data-kind="ocean"]', "Ocean"],
      ['.area-g[data-kind="refuge"]', "Secret Underground Refuge"],
      ['.lines > line', "Neighbour line"],
      ['.ship', "Spaceship"],
      ['.attack-line', "Attack"],
      ['[data-population]', "Population unit"],
      ['[data-infected]', "Infected population"],
      ['.vnm-dice .die', "Die"],
      ['.vnm-window', "Zap window"],
      ['.vnm-zap', node => node.querySelector("b").textContent.trim()],
      ['.vnm-zap', "Zap card"],
      ['.vnm-hand > strong', "Zap card"],
      ['.vnm-research > strong', "Research"],
      ['.vnm-planets caption', "Population needed"],
      ['.vnm-planets th:nth-child(3)', "Zap deck"],
      ['.vnm-planets th:nth-child(4)', "Supply"],
      ['.vnm-bar > [data-action="build"]', "Build"],
      ['.vnm-bar > [data-action="end"]', "Extension"],
    ],
    venture: [
      [".vt-center > .vt-label", "Center"],
      ['[data-field="stock"]', "Stock"],
      ['[data-field="deck"]', "Drawing deck"],
      ['[data-field="discard"]', "Discard pile"],
      ['[data-field="score"]', "Score"],
      ['[data-field="earns"]', "Profits"],
      ['[data-field="owed"]', "Owed"],
      [".vt-stack[data-top] > .vt-foot", "Conglomerate"],
      [".vt-l.common", "Common letters"],
      [".vt-set", "Set"],
    ],
  };

  // Asks for a game's glossary once; ``then`` runs when it has come (a redraw dresses the table).
  function load(game, then) {
    if (loaded[game] || asked[game]) return loaded[game] || null;
    asked[game] = true;
    fetch(`/api/games/${encodeURIComponent(game)}/glossary`)
      .then(reply => (reply.ok ? reply.json() : null))
      .then(data => { if (data && data.terms) { loaded[game] = data.terms; if (then) then(); } })
      .catch(() => {});
    return null;
  }

  // The term a drawn part stands for, if the glossary has one.
  function termOf(node, terms, game) {
    for (const name of NAMING) {
      const value = node.getAttribute(name);
      if (value && Object.prototype.hasOwnProperty.call(terms, value)) return value;
    }
    for (const [selector, named] of PARTS[game] || []) {
      if (!node.matches(selector)) continue;
      const term = typeof named === "function" ? named(node) : named;
      if (Object.prototype.hasOwnProperty.call(terms, term)) return term;
    }
    return null;
  }

  function titleOf(term, entry) {
    const quote = entry.quote ? `\n\nRulebook, ${entry.quote.section}: “${entry.quote.text}”` : "";
    return `${term}: ${entry.text}${quote}`;
  }

  // Marks every part of the drawing at ``root`` that is a term: data-term and a title (hover).
  function dress(root, game, redraw) {
    const terms = load(game, redraw);
    if (!terms || !root) return;
    const selectors = [...NAMING.map(a => `[${a}]`), ...(PARTS[game] || []).map(([s]) => s)].join(",");
    for (const node of root.querySelectorAll(selectors)) {
      const term = termOf(node, terms, game);
      if (!term) continue;
      node.setAttribute("data-term", term);
      // A card keeps the text its drawing gave it (the table's own content set, which may not be the
      // default one the glossary describes); a rule term gets the glossary's text and quote.
      const own = terms[term].kind === "card" && node.getAttribute("title");
      if (own) node.setAttribute("data-term-text", own);
      else node.setAttribute("title", titleOf(term, terms[term]));
      node.classList.add("termed");
    }
    root.dataset.glossary = game;
    toggle(root);
  }

  // The "Explain" switch, in the page's header (it takes no room from the drawing): while it is on, a
  // tap on any term explains it (a tap on a part that plays then plays nothing); off, only the parts
  // that play nothing explain themselves.
  let explaining = false;
  function toggle(root) {
    const place = document.querySelector("header") || root.parentNode;
    if (!place || document.querySelector(".explain-toggle")) return;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "explain-toggle";
    button.setAttribute("aria-pressed", "false");
    button.textContent = "? Explain";
    button.title = "While on, tap a card or a part of the table to read what it is (tapping plays nothing)";
    button.addEventListener("click", () => {
      explaining = !explaining;
      for (const b of document.querySelectorAll(".explain-toggle")) b.setAttribute("aria-pressed", String(explaining));
      document.body.classList.toggle("explaining", explaining);
      if (!explaining) hide();
    });
    if (place === root.parentNode) place.insertBefore(button, root);
    else place.append(button);
  }

  // The popover: the term, its text and its rulebook sentence (written with textContent only).
  function pop(node) {
    const root = node.closest("[data-glossary]");
    const terms = root && loaded[root.dataset.glossary];
    const term = node.getAttribute("data-term");
    if (!terms || !terms[term]) return false;
    const entry = terms[term];
    let box = document.getElementById("term-pop");
    if (!box) {
      box = document.createElement("div");
      box.id = "term-pop";
      box.setAttribute("role", "dialog");
      box.setAttribute("aria-labelledby", "term-pop-title");
      document.body.append(box);
    }
    const title = document.createElement("h3");
    title.id = "term-pop-title";
    title.textContent = term;
    const text = document.createElement("p");
    text.textContent = node.getAttribute("data-term-text") || entry.text;
    const parts = [title, text];
    if (entry.quote) {
      const quote = document.createElement("blockquote");
      quote.textContent = `“${entry.quote.text}”`;
      const cite = document.createElement("cite");
      cite.textContent = `Rulebook, ${entry.quote.section}`;
      parts.push(quote, cite);
    }
    const close = document.createElement("button");
    close.type = "button";
    close.className = "term-close";
    close.textContent = "close";
    close.addEventListener("click", hide);
    parts.push(close);
    box.replaceChildren(...parts);
    box.dataset.term = term;
    box.hidden = false;
    const at = node.getBoundingClientRect(), size = box.getBoundingClientRect();
    let top = at.bottom + 4;
    if (top + size.height > innerHeight - 4) top = Math.max(4, at.top - 4 - size.height);
    const left = Math.max(4, Math.min(at.left, innerWidth - size.width - 4));
    Object.assign(box.style, { left: `${left}px`, top: `${top}px` });
    return true;
  }

  function hide() {
    const box = document.getElementById("term-pop");
    if (box) box.hidden = true;
  }

  // Whether a tap on ``target`` plays something (a clickable part or a button between it and the term).
  function plays(target, termed) {
    for (let node = target; node; node = node.parentElement) {
      if (node.classList.contains("hot") || node.tagName === "BUTTON" || node.getAttribute("draggable") === "true") return true;
      if (node === termed) return false;
    }
    return false;
  }

  document.addEventListener("click", event => {
    const box = document.getElementById("term-pop");
    if (box && !box.hidden && !box.contains(event.target)) hide();
    const termed = event.target.closest && event.target.closest("[data-glossary] [data-term]");
    if (termed && explaining) {  // explained, not played
      event.stopPropagation();
      event.preventDefault();
      pop(termed);
    } else if (termed && !plays(event.target, termed)) {
      pop(termed);
    }
  }, true);
  document.addEventListener("contextmenu", event => {  // a long press on a phone, a right click
    const termed = event.target.closest && event.target.closest("[data-glossary] [data-term]");
    if (termed && pop(termed)) event.preventDefault();
  });
  document.addEventListener("keydown", event => { if (event.key === "Escape") hide(); });

  return { dress, load, hide, terms: game => loaded[game] || null };
})();
