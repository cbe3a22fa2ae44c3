// The legal actions drawn as buttons grouped by verb: one drawing for the table page and the learn page
// (never a rule: the server's legal list, in its order). Uses the page's own `el`.
"use strict";
window.ParlourActions = {
  MOST: 40,  // buttons a verb shows; the rest are typed
  // Returns one row per verb: its name, at most MOST buttons (each clicked sends its text to `act`;
  // `title` gives a button's hover text, `ends` whether it ends the turn), and how many more there are.
  rows(legal, act, title = () => "", ends = () => false) {
    const groups = new Map();
    for (const text of legal) {
      const verb = text.split(" ")[0];
      if (!groups.has(verb)) groups.set(verb, []);
      groups.get(verb).push(text);
    }
    const rows = [];
    for (const [verb, texts] of groups) {
      const buttons = texts.slice(0, this.MOST).map(t => {
        const hover = title(t);
        const attrs = { type: "button", "data-action": t, ...(hover ? { title: hover } : {}), ...(ends(t) ? { "data-ends": "" } : {}) };
        const b = el("button", attrs, t);
        b.addEventListener("click", () => act(t));
        return b;
      });
      const more = texts.length > this.MOST ? [el("span", { class: "muted" }, ` … ${texts.length - this.MOST} more: type them`)] : [];
      rows.push(el("div", { class: "verb" }, el("span", {}, verb), ...buttons, ...more));
    }
    return rows;
  },
};
