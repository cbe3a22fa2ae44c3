// What the table page and the learn page share to draw a game's table and play on it (loaded before
// their own script, whose `view` (the seat's view), `act`, `menuAnchor` and `tapped` these use).
"use strict";
// Colour-blind-safe (Okabe–Ito) colours for the seats' lines; names are always written beside them.
const PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00"];

// An SVG element with its attributes and children, as `el` makes HTML ones.
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

// Makes a drawn component a button for the mouse and the keyboard (Enter or Space), with a label.
function clickable(node, label, handler) {
  node.classList.add("hot");
  node.setAttribute("role", "button");
  node.setAttribute("tabindex", "0");
  node.setAttribute("aria-label", label);
  node.addEventListener("click", event => { event.stopPropagation(); menuAnchor = tapped || node; handler(event); });
  node.addEventListener("keydown", event => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); menuAnchor = node; handler(event); }
  });
  return node;
}

// The clickable ones of a drawing's components again as buttons, marked (selected, target, reach) as the
// components are (shown on a narrow screen only, where a drawing at the screen's width makes them smaller
// than a 44 px tap target): a tap plays what a click on the component plays, and its menu opens beside the
// button. ``name(node)``: the button's text (default: the component's label up to its first colon or comma).
function taps(nodes, name = node => (node.getAttribute("aria-label") || "").split(/[:,]/)[0]) {
  const hot = [...nodes].filter(node => node.classList.contains("hot"));
  if (!hot.length) return null;
  const box = el("div", { class: "board-taps", role: "group", "aria-label": "the drawing's clickable parts as buttons" });
  for (const node of hot) {
    const text = name(node);
    const b = el("button", { type: "button", "data-name": text, "aria-label": node.getAttribute("aria-label") || text }, text);
    for (const mark of ["selected", "target", "reach"]) if (node.classList.contains(mark)) b.classList.add(mark);
    b.addEventListener("click", () => {
      tapped = b;
      try { node.dispatchEvent(new MouseEvent("click", { bubbles: true })); } finally { tapped = null; }
    });
    box.append(b);
  }
  return box;
}

// The legal actions that are ``prefix`` or continue it with more words.
function matching(prefix) { return view.legal.filter(t => t === prefix || t.startsWith(prefix + " ")); }

// Whether the server says an action ends the turn (view.ends_turn, worked out by the engine).
function endsTurn(action) { return (view.ends_turn || []).includes(action); }

// Places the menu beside the component clicked (below it, or above when there is no room), inside the window.
function placeMenu(box) {
  const anchor = menuAnchor && menuAnchor.isConnected ? menuAnchor.getBoundingClientRect() : null;
  if (!anchor) { box.style.left = box.style.top = box.style.right = box.style.bottom = ""; return; }
  const menuBox = box.getBoundingClientRect(), gap = 4, edge = 4;
  let top = anchor.bottom + gap;
  if (top + menuBox.height > innerHeight - edge) top = Math.max(edge, anchor.top - gap - menuBox.height);
  const left = Math.max(edge, Math.min(anchor.left, innerWidth - menuBox.width - edge));
  Object.assign(box.style, { left: `${left}px`, top: `${top}px`, right: "auto", bottom: "auto" });
}

// A small menu of choices (each {label, action, ends} or an action text) beside the component clicked:
// one click plays it; Escape closes. The first choice that does not end the turn (ends: true) has the
// focus, so that Enter never ends a turn by itself (none has it when every choice ends the turn).
function menu(title, choices) {
  const box = document.getElementById("board-menu");  // the page's own; a click plays with its `act`
  const close = () => { box.hidden = true; box.replaceChildren(); };
  const buttons = choices.map(c => {
    const choice = endsMarked(typeof c === "string" ? { label: c, action: c } : c);
    const b = el("button", { type: "button", "data-action": choice.action, ...(choice.ends ? { "data-ends": "" } : {}) }, choice.label);
    b.addEventListener("click", () => { close(); act(choice.action); });
    return b;
  });
  const cancel = el("button", { type: "button", class: "menu-close" }, "close");
  cancel.addEventListener("click", close);
  box.replaceChildren(el("h3", { id: "board-menu-title" }, title), ...buttons, cancel);
  box.onkeydown = event => { if (event.key === "Escape") close(); };
  box.dataset.actions = JSON.stringify(buttons.map(b => b.dataset.action));
  box.hidden = false;
  box.setAttribute("tabindex", "-1");
  placeMenu(box);
  const first = buttons.find(b => !b.hasAttribute("data-ends"));
  (first || (buttons.length ? box : cancel)).focus();
  return close;
}

// Whether a choice ends the turn: the drawing's word, else the server's (view.ends_turn, worked out by
// the engine); its label then says so.
function endsMarked(choice) {
  const ends = choice.ends ?? endsTurn(choice.action);
  const label = ends && !/ends the turn/.test(choice.label) ? `${choice.label} (ends the turn)` : choice.label;
  return { ...choice, ends, label };
}
