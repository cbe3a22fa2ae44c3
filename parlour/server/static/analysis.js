// The analysis panel of a finished table (issue 33, docs/analysis.md): ask the server to judge every
// decision, follow its progress, then show each seat's expected share over the game (its own losses
// told apart from luck), each player's accuracy, the biggest losses, and the marks beside the moves of
// the replay's log. Clicking a decision moves the replay viewer (replay.js) to it. The hindsight view
// (judged with every card revealed) is labelled as such on every part shown while it is selected.
// It runs on table.js's page and uses its helpers (el, svg, view, tableId, seatColour). Every text of
// the document (names, actions) goes in as text, never as markup; no rule of any game lives here.
"use strict";
const ParlourAnalysis = window.ParlourAnalysis = (() => {
  const POLL = 2000;  // ms between two looks at a queued or running analysis
  const HINDSIGHT = "Hindsight: judged with every card revealed — not what the player knew";
  const LOSS = "#c00000";  // a seat's own loss at a decision (the seats' colours are Okabe–Ito)
  const VIEWS = ["seat", "hindsight"];
  const a = {
    mounted: false, view: "seat", replies: { seat: null, hindsight: null }, shown: null,
    timer: null, asking: false, generation: 0, decisions: new Map(),
  };

  const STYLE = `
#analysis-box .analysis-about { font-size: .9rem; margin: .2rem 0 .5rem; }
#analysis-box fieldset { margin: .3rem 0 .5rem; }
#analysis-box fieldset label { display: block; margin: .15rem 0; }
#analysis-box .analysis-hindsight { font-weight: bold; color: #6a1b9a; background: #f3e5f5; border-left: 4px solid #6a1b9a;
  padding: .2rem .4rem; margin: .3rem 0; }
#analysis-status progress { width: 100%; max-width: 20rem; display: block; margin: .3rem 0; }
#analysis-plot { width: 100%; max-width: 44rem; height: auto; background: #fff; display: block; }
#analysis-plot .analysis-point { cursor: pointer; }
#analysis-plot .analysis-point:focus { outline: 3px solid #f5a623; }
#analysis-plot .analysis-point:hover { stroke: #000; }
#analysis-box .analysis-legend { display: flex; flex-wrap: wrap; gap: .2rem 1rem; font-size: .85rem; margin: .3rem 0;
  padding: 0; list-style: none; }
#analysis-box .analysis-legend svg { vertical-align: middle; margin-right: .25rem; }
#analysis-box h3 { font-size: .95rem; margin: .8rem 0 .3rem; }
#analysis-accuracy { border-collapse: collapse; font-size: .9rem; }
#analysis-accuracy th, #analysis-accuracy td { border: 1px solid #ddd; padding: .15rem .4rem; text-align: left; }
#analysis-accuracy td.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
#analysis-accuracy caption { text-align: left; font-size: .85rem; }
#analysis-biggest { padding-left: 1.5rem; margin: .2rem 0; }
#analysis-biggest button { text-align: left; overflow-wrap: anywhere; }
#analysis-box .mark, #replay-log .analysis-mark { font-weight: bold; color: ${LOSS}; margin-left: .3rem; }
#replay-log .analysis-mark.hindsight { color: #6a1b9a; }
#analysis-log-note { font-size: .8rem; margin: 0 0 .3rem; }
#analysis-log-note.hindsight { font-weight: bold; color: #6a1b9a; }
@media (max-width: 600px) {
  #analysis-accuracy, #analysis-accuracy tbody, #analysis-accuracy tr, #analysis-accuracy td { display: block; width: auto; }
  #analysis-accuracy thead { display: none; }
  #analysis-accuracy tr { border: 1px solid #ddd; margin: .3rem 0; }
  #analysis-accuracy td { border: 0; display: flex; justify-content: space-between; gap: .5rem; text-align: right; }
  #analysis-accuracy td::before { content: attr(data-label); font-weight: bold; text-align: left; }
  #analysis-accuracy caption { display: block; }
}`;

  // Numbers as the panel writes them: shares and losses to two or three places, signed changes.
  const minus = text => text.replace(/^-/, "−");
  const share = x => minus(x.toFixed(2));
  const loss = x => minus(x.toFixed(3));
  const signed = x => (x > 0 ? "+" : "") + loss(x);
  const interval = (low, high) => `[${loss(low)}, ${loss(high)}]`;
  const nameOf = seat => (view && view.names && view.names[seat] !== undefined ? view.names[seat] : `seat ${seat}`);
  const moveLabel = move => `move ${move + 1}`;

  // Builds the panel under the results (once), then asks the server where the seat's view stands.
  function mount() {
    if (a.mounted || !view || !view.over) return;
    const results = document.getElementById("results-box");
    if (!results) return;
    a.mounted = true;
    document.head.append(el("style", { id: "analysis-style" }, STYLE));
    const choice = (value, label, checked) => {
      const input = el("input", { type: "radio", name: "analysis-view", value, id: `analysis-view-${value}` });
      input.checked = checked;
      input.addEventListener("change", () => { if (input.checked) choose(value); });
      return el("label", { for: input.id }, input, ` ${label}`);
    };
    const box = el("section", { id: "analysis-box", "aria-labelledby": "analysis-h", "data-view": "seat", "data-status": "" },
      el("h2", { id: "analysis-h" }, "Analysis"),
      el("p", { class: "analysis-about", id: "analysis-about" }, about(null)),
      el("fieldset", { id: "analysis-views" }, el("legend", {}, "Judged from"),
         choice("seat", "each seat's own view: what the player knew then", true),
         choice("hindsight", HINDSIGHT, false)),
      el("div", { id: "analysis-label" }),
      el("div", { id: "analysis-status", role: "status", "aria-live": "polite" }),
      el("div", { id: "analysis-result" }));
    results.parentNode.insertBefore(box, results.nextSibling);
    refresh();
  }

  // What "share" means, the marks' thresholds and whose information judges a decision.
  function about(doc) {
    const n = doc ? doc.players : (view && view.names ? view.names.length : 0);
    const fair = n ? ` (the shares of a game sum to 1; a fair share is 1/${n})` : " (the shares of a game sum to 1)";
    const what = doc ? doc.share : "0.5 × place points + 0.5 × score share";
    const t = doc ? doc.thresholds : null;
    const marks = t ? `?! inaccuracy ${loss(t["?!"])}, ? mistake ${loss(t["?"])}, ?? blunder ${loss(t["??"])}`
                    : "?! inaccuracy, ? mistake, ?? blunder";
    const judged = doc && doc.view === "hindsight"
      ? "In this hindsight view each decision was judged with every card revealed: not what the player knew."
      : "Each decision is judged from that seat's information only: what it could see then, never the hidden cards.";
    return `Share: a seat's expected share of the game, ${what}${fair}. A loss is the share given up against ` +
           `the best action found; a decision is marked when its loss's 95% interval lies above a threshold: ` +
           `${marks}. ${judged}`;
  }

  function choose(value) {
    if (!VIEWS.includes(value) || value === a.view) return;
    a.view = value;
    clearTimeout(a.timer);
    a.generation += 1;
    const box = document.getElementById("analysis-box");
    box.dataset.view = value;
    show("analysis-label", ...labels());
    render();
    refresh();
  }

  // The hindsight label, on every part while the hindsight view is selected (none otherwise).
  function labels() {
    return a.view === "hindsight" ? [el("p", { class: "analysis-hindsight" }, HINDSIGHT)] : [];
  }

  // Asks the server where the selected view's analysis stands; looks again every POLL ms while it runs.
  async function refresh() {
    clearTimeout(a.timer);
    const generation = ++a.generation, asked = a.view;
    try {
      const reply = await fetch(`/api/tables/${tableId}/analysis?view=${asked}`);
      const data = await reply.json().catch(() => ({ error: `the server answered ${reply.status}` }));
      if (generation !== a.generation) return;  // another view was chosen meanwhile
      if (!reply.ok) {
        a.replies[asked] = { status: "failed", error: data.error || `the server answered ${reply.status}`, unreachable: true };
      } else {
        a.replies[asked] = data;
      }
    } catch (err) {
      if (generation !== a.generation) return;
      a.replies[asked] = { status: "failed", error: `the analysis could not be fetched: ${err.message}`, unreachable: true };
    }
    render();
    const status = a.replies[asked].status;
    if (status === "queued" || status === "running") a.timer = setTimeout(refresh, POLL);
  }

  // Asks the server to analyse the game in the selected view, then follows it.
  async function ask() {
    if (a.asking) return;
    a.asking = true;
    const asked = a.view;
    const button = document.getElementById("analysis-ask");
    if (button) button.disabled = true;
    try {
      const reply = await fetch(`/api/tables/${tableId}/analysis`, {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ view: asked }),
      });
      if (!reply.ok) {
        const data = await reply.json().catch(() => ({}));
        a.replies[asked] = { status: "failed", error: data.error || `the server answered ${reply.status}`, unreachable: true };
        if (asked === a.view) render();
        return;
      }
    } catch (err) {
      a.replies[asked] = { status: "failed", error: `the analysis could not be asked for: ${err.message}`, unreachable: true };
      if (asked === a.view) render();
      return;
    } finally {
      a.asking = false;
    }
    if (asked === a.view) refresh();
  }

  // Shows the selected view's state: a button, the progress, the error, or the analysis itself.
  function render() {
    const reply = a.replies[a.view];
    const box = document.getElementById("analysis-box");
    const status = reply ? reply.status : "";
    box.dataset.status = status;
    const hindsight = a.view === "hindsight";
    const button = (id, label, handler = ask) => {
      const b = el("button", { type: "button", id }, label);
      b.addEventListener("click", handler);
      return b;
    };
    if (!reply) {
      show("analysis-status", el("p", { class: "muted" }, "Looking for an analysis…"));
    } else if (status === "none") {
      show("analysis-status",
           button("analysis-ask", hindsight ? "Analyse this game in hindsight" : "Analyse this game"),
           el("p", { class: "muted" }, "The server judges every decision of every seat; it takes a while."));
    } else if (status === "queued" || status === "running") {
      const judged = reply.judged || 0, total = reply.total || 0, ahead = reply.ahead || 0;
      const bar = el("progress", { id: "analysis-progress", max: String(Math.max(1, total)),
                                   "aria-label": "decisions judged" });
      if (total) bar.value = judged;  // none counted yet: an indeterminate bar
      const queue = ahead ? ` (${ahead} ahead in the queue)` : "";
      const text = total ? `judged ${judged} of ${total} decisions${queue}`
        : status === "queued" ? `waiting in the queue${queue}` : "started: finding the decisions to judge";
      show("analysis-status", bar, el("span", { id: "analysis-progress-text" }, text));
    } else if (status === "failed") {
      show("analysis-status", el("p", { class: "error", id: "analysis-error" }, reply.error || "the analysis failed"),
           reply.unreachable ? button("analysis-ask", "Try again", refresh) : button("analysis-ask", "Ask again"));
    } else if (status === "done") {
      show("analysis-status");
    } else {
      show("analysis-status", el("p", { class: "error" }, `unexpected status: ${String(status).slice(0, 40)}`));
    }
    const doc = status === "done" && reply.analysis ? reply.analysis : null;
    if (doc !== a.shown) {
      a.shown = doc;
      a.decisions = new Map((doc ? doc.decisions : []).map(d => [d.move, d]));
      show("analysis-result", ...(doc ? panel(doc) : []));
      document.getElementById("analysis-about").textContent = about(doc);
      dressLog();
    }
  }

  // The parts of a finished analysis: the plot and its legend, the accuracy table, the biggest losses.
  function panel(doc) {
    return [
      el("h3", { id: "analysis-plot-h" }, "Expected share over the game"), ...labels(), plot(doc), legend(doc),
      el("h3", { id: "analysis-accuracy-h" }, "Each player's accuracy"), ...labels(), accuracy(doc),
      el("h3", { id: "analysis-biggest-h" }, "Biggest losses"), ...labels(), biggest(doc),
    ];
  }

  // A line per analysed seat: from the fair share at the start, at each of its decisions its expected
  // share before deciding and after its action (a drop: its own loss, in red), between its decisions
  // the change chance and the others' decisions made (luck, in its colour), to its final share.
  function plot(doc) {
    const W = 640, H = 260, L = 38, R = 12, T = 10, B = 30;
    const moves = Math.max(1, doc.moves);
    const x = move => L + (W - L - R) * Math.max(0, Math.min(moves, move)) / moves;
    const y = s => T + (H - T - B) * (1 - Math.max(0, Math.min(1, s)));
    const p = (m, s) => `${x(m).toFixed(1)},${y(s).toFixed(1)}`;
    const fair = 1 / doc.players;
    const root = svg("svg", { id: "analysis-plot", viewBox: `0 0 ${W} ${H}`, role: "group",
                              "aria-label": `expected share over the game, one line per player${a.view === "hindsight" ? " (hindsight)" : ""}` });
    root.append(
      svg("line", { x1: L, y1: y(0), x2: W - R, y2: y(0), stroke: "#777" }),
      svg("line", { x1: L, y1: T, x2: L, y2: y(0), stroke: "#777" }),
      svg("line", { x1: L, y1: y(fair), x2: W - R, y2: y(fair), stroke: "#999", "stroke-dasharray": "2 3",
                    class: "analysis-fair" }),
      svg("text", { x: L - 4, y: y(1) + 4, "text-anchor": "end", "font-size": 11 }, "1"),
      svg("text", { x: L - 4, y: y(fair) + 4, "text-anchor": "end", "font-size": 11 }, `1/${doc.players}`),
      svg("text", { x: L - 4, y: y(0) + 4, "text-anchor": "end", "font-size": 11 }, "0"),
      svg("text", { x: L, y: H - 8, "font-size": 11 }, "move 0"),
      svg("text", { x: W - R, y: H - 8, "text-anchor": "end", "font-size": 11 }, `move ${doc.moves}`),
      svg("text", { x: (L + W - R) / 2, y: H - 8, "text-anchor": "middle", "font-size": 11 }, "moves of the game"));
    const points = [];
    for (const summary of doc.summary) {
      const seat = summary.seat, colour = seatColour(seat), name = nameOf(seat);
      const line = svg("g", { class: "analysis-line", "data-seat": String(seat) }, svg("title", {}, name));
      let from = [0, summary.fair];
      for (const [move, before, after] of summary.timeline) {
        line.append(svg("polyline", { points: `${p(...from)} ${p(move, before)}`, fill: "none", stroke: colour,
                                      "stroke-width": 2, class: "analysis-luck" }));
        if (before - after > 1e-9) {  // faint where the loss's interval holds 0 (sampling noise)
          const d = a.decisions.get(move), clear = d && d.loss_low > 0;
          line.append(svg("line", { x1: x(move), y1: y(before), x2: x(move), y2: y(after), stroke: LOSS,
                                    "stroke-width": 3, "stroke-opacity": clear ? 1 : 0.4,
                                    class: `analysis-own${clear ? " clear" : ""}` }));
        }
        from = [move, after];
      }
      line.append(svg("polyline", { points: `${p(...from)} ${p(doc.moves, summary.final)}`, fill: "none",
                                    stroke: colour, "stroke-width": 2, class: "analysis-luck" }));
      root.append(line);
      for (const [move, , after] of summary.timeline) points.push({ seat, move, after, colour, name });
    }
    // The points over every line, so that each one's title and click reach it.
    for (const point of points) {
      const d = a.decisions.get(point.move);
      const text = d ? describe(d) : `${moveLabel(point.move)} · ${point.name}`;
      const dot = svg("circle", { cx: x(point.move), cy: y(point.after), r: d && d.mark ? 5 : 3.5, fill: point.colour,
                                  stroke: d && d.mark ? LOSS : "#fff", "stroke-width": 1.5, class: "analysis-point",
                                  "data-move": String(point.move), "data-seat": String(point.seat) },
                      svg("title", {}, text));
      dot.addEventListener("click", () => jump(point.move));
      if (d && d.mark) {  // the marked decisions are reached by the keyboard too (all are in the log)
        dot.setAttribute("tabindex", "0");
        dot.setAttribute("role", "button");
        dot.setAttribute("aria-label", text);
        dot.addEventListener("keydown", event => {
          if (event.key === "Enter" || event.key === " ") { event.preventDefault(); jump(point.move); }
        });
      }
      root.append(dot);
    }
    return root;
  }

  function legend(doc) {
    const sample = (attrs, tag = "line") => svg("svg", { width: 26, height: 12, "aria-hidden": "true" },
      svg(tag, { x1: 2, y1: 6, x2: 24, y2: 6, ...attrs }));
    const items = doc.summary.map(s => el("li", {}, sample({ stroke: seatColour(s.seat), "stroke-width": 3 }),
                                          nameOf(s.seat)));
    items.push(
      el("li", {}, sample({ stroke: LOSS, "stroke-width": 4 }),
         "a drop at a decision: the player's own loss (faint where it is within the sampling noise)"),
      el("li", {}, sample({ stroke: "#555", "stroke-width": 2 }),
         "in the player's colour between its decisions: luck (chance and the others' decisions)"),
      el("li", {}, sample({ stroke: "#999", "stroke-dasharray": "2 3", "stroke-width": 2 }), `the fair share, 1/${doc.players}`),
      el("li", {}, "Click a point to see that move in the replay."));
    return el("ul", { class: "analysis-legend", id: "analysis-legend" }, ...items);
  }

  // A decision in a line: the move, who, the action, its loss and the better action.
  function describe(d) {
    const head = `${moveLabel(d.move)} (turn ${d.turn}) · ${nameOf(d.seat)}: ${d.played}`;
    const judged = d.played === d.best
      ? "the best action found"
      : `loss ${loss(d.loss)} (95%: ${interval(d.loss_low, d.loss_high)})${d.mark ? ` ${d.mark}` : ""}; better: ${d.best}`;
    const where = `expected share ${share(d.before)} → ${share(d.after)}`;
    return `${a.view === "hindsight" ? "Hindsight · " : ""}${head} · ${judged} · ${where}${botValues(d)}`;
  }

  // The values the seat's own bot sent with its answer (a cmd: bot's), its three best: "" when none.
  function botValues(d) {
    if (!d.values || !d.values.length) return "";
    const top = [...d.values].sort((x, y) => y[1] - x[1]).slice(0, 3);
    return ` · its bot's own values: ${top.map(([action, value]) => `${action} ${Number(value).toPrecision(3)}`).join(", ")}`;
  }

  function accuracy(doc) {
    const fair = doc.summary.length ? share(doc.summary[0].fair) : share(1 / doc.players);
    const heads = ["Player", "Accuracy", "Decisions", "Mean loss [95%]", "Marks ?! · ? · ??", "Own losses", "Luck",
                   `Final share (fair ${fair})`];
    const cell = (label, text, number = true) => el("td", { "data-label": label, class: number ? "number" : "" }, text);
    const rows = doc.summary.map(s => el("tr", { "data-seat": String(s.seat) },
      el("th", { scope: "row", "data-label": heads[0] }, nameOf(s.seat)),
      cell(heads[1], `${s.accuracy.toFixed(0)}%`),
      cell(heads[2], String(s.decisions)),
      cell(heads[3], `${loss(s.mean_loss)} ${interval(s.mean_loss_low, s.mean_loss_high)}`),
      cell(heads[4], `${s.marks["?!"]} · ${s.marks["?"]} · ${s.marks["??"]}`),
      cell(heads[5], loss(s.own_losses)),
      cell(heads[6], signed(s.luck)),
      cell(heads[7], share(s.final))));
    return el("table", { id: "analysis-accuracy" },
      el("caption", {}, "Accuracy: 100 for no loss, 37 for a loss of one ? threshold. " +
                        "Luck = final − fair + own losses."),
      el("thead", {}, el("tr", {}, ...heads.map(h => el("th", { scope: "col" }, h)))),
      el("tbody", {}, ...rows));
  }

  function biggest(doc) {
    if (!doc.biggest.length) return el("p", { id: "analysis-biggest", class: "muted" }, "No decision lost any share.");
    return el("ol", { id: "analysis-biggest" }, ...doc.biggest.map(b => {
      const button = el("button", { type: "button", class: "analysis-jump", "data-move": String(b.move),
                                    title: `show ${moveLabel(b.move)} in the replay` },
        `${moveLabel(b.move)} · ${nameOf(b.seat)}: ${b.played}`,
        ...(b.mark ? [el("span", { class: "mark" }, b.mark)] : []),
        ` — better: ${b.best} (loss ${loss(b.loss)})`);
      button.addEventListener("click", () => jump(b.move));
      return el("li", {}, button);
    }));
  }

  // Shows the step just after the decision at record index ``move`` (the log's entry move + 1).
  function jump(move) {
    if (!window.ParlourReplay || !ParlourReplay.go) return;
    ParlourReplay.go(move + 1);
    const box = document.getElementById("replay-box");
    if (box) box.scrollIntoView({ block: "nearest" });
  }

  // The marks beside the moves of the replay's log (a log entry's number is its record index + 1),
  // each titled with its loss and the better action; replay.js calls this after drawing its log.
  function dressLog() {
    const box = document.getElementById("replay-log");
    if (!box) return;
    const doc = a.shown, hindsight = doc && doc.view === "hindsight";
    let note = document.getElementById("analysis-log-note");
    if (!doc) {
      if (note) note.remove();
    } else {
      if (!note) {
        note = el("p", { id: "analysis-log-note" });
        box.parentNode.insertBefore(note, box);
      }
      note.className = hindsight ? "hindsight" : "muted";
      note.textContent = hindsight
        ? `${HINDSIGHT}: its marks are beside the moves (hover for the loss).`
        : "Marks of the analysis beside the moves (?! inaccuracy, ? mistake, ?? blunder; hover for the loss).";
    }
    const seen = new Set();
    for (const entry of box.querySelectorAll(".entry")) {
      for (const old of entry.querySelectorAll(".analysis-mark")) old.remove();
      const number = Number(entry.dataset.number);
      if (seen.has(number)) continue;  // an entry of several lines: marked on its first
      seen.add(number);
      const d = doc ? a.decisions.get(number - 1) : null;
      entry.title = `go to action ${number}${d ? `\n${describe(d)}` : ""}`;
      if (d && d.mark) {
        entry.append(el("span", { class: `analysis-mark${hindsight ? " hindsight" : ""}`, "data-mark": d.mark,
                                  title: describe(d) }, hindsight ? `${d.mark} (hindsight)` : d.mark));
      }
    }
  }

  return { mount, dressLog, state: a };
})();
// The replay may have mounted before this file came (it mounts the panel when it is there): mount now.
if (window.ParlourReplay && ParlourReplay.state.mounted) ParlourAnalysis.mount();
