// "My tables": the tables created or joined in this browser, with their links, in local storage (the
// lobby lists them; a table page adds the seat it was opened with). Nothing of it is sent anywhere but
// a table's id, to ask whose turn it is (the public status; the links and their tokens stay here).
"use strict";
const MyTables = {
  KEY: "parlour.tables",
  MOST: 50,

  // Returns the stored tables, newest first (an unreadable store reads as none).
  load() {
    try {
      const found = JSON.parse(localStorage.getItem(this.KEY) || "[]");
      return Array.isArray(found) ? found.filter(t => t && typeof t.table === "string") : [];
    } catch (err) { return []; }
  },

  save(list) {
    try { localStorage.setItem(this.KEY, JSON.stringify(list.slice(0, this.MOST))); } catch (err) { /* full or off */ }
  },

  // Adds a table or merges what is new about it (links, names, your seat) into the stored one.
  remember(entry) {
    const list = this.load();
    const old = list.find(t => t.table === entry.table) || { links: {}, names: {} };
    const merged = { ...old, ...entry, links: { ...old.links, ...(entry.links || {}) },
                     names: { ...old.names, ...(entry.names || {}) } };
    this.save([merged, ...list.filter(t => t.table !== entry.table)]);
  },

  forget(table) { this.save(this.load().filter(t => t.table !== table)); },

  // How a seat of the server's lists is called: its person's name or its bot, with the game's name of
  // the seat where it has one ("Ana (Venus)", "greedy (Mars)"); never "seat N" alone.
  called(seat) {
    const who = seat.bot_account ? `bot ${seat.name}` : seat.name || (seat.kind === "bot" ? seat.bot : "person");
    return seat.called && !/^seat \d+$/.test(seat.called) ? `${who} (${seat.called})` : who;
  },

  // Whose turn it is at a table, from its public status (GET /api/tables/T/status, no token sent):
  // "your turn", "Ana's turn", "finished, winner Ana".
  turnText(status, mine) {
    const name = s => (s === mine ? "you" : this.called(status.seats[s]));
    if (status.over) {
      if (status.winners.length === 1 && status.winners[0] === mine) return "finished, you won";
      const won = status.winners.map(name);
      return won.length ? `finished, ${won.length > 1 ? "winners" : "winner"} ${won.join(" and ")}` : "finished";
    }
    if (status.status === "declined") return "a rematch, declined";
    if (status.private) return "in play (a table only its players see)";
    if (status.status === "waiting") {  // a rematch: nothing runs until every person accepted
      const who = (Array.isArray(status.waiting_for) ? status.waiting_for : []).map(name);
      return who.includes("you") ? "a rematch: waiting for you to accept" : `a rematch: waiting for ${who.join(" and ")} to accept`;
    }
    if (mine !== null && mine !== undefined && status.deciders.includes(mine)) return "your turn";
    const turn = status.turn_player ?? status.deciders[0];
    if (turn === null || turn === undefined) return "in play";
    const asked = status.deciders.filter(s => s !== turn);
    const also = asked.length ? ` (waiting for ${asked.map(name).join(", ")})` : "";
    return `${turn === mine ? "your" : `${name(turn)}'s`} turn${also}`;
  },

  // How long the person asked has left, from the public status (the server's own "time_left", so this
  // browser's clock does not matter): "23 h left", "40 min left", "" where no clock runs.
  timeLeftText(status) {
    const left = status && !status.over ? status.time_left : null;
    if (typeof left !== "number") return "";
    if (left >= 5400) return `${Math.round(left / 3600)} h left`;
    if (left >= 90) return `${Math.round(left / 60)} min left`;
    return `${Math.max(0, Math.round(left))} s left`;
  },

  // How urgent a table is, as a sort key: your turn first, then the other tables in play, then the
  // finished or vanished ones; within each, the least time left first (no clock: last).
  urgency(status, mine) {
    if (!status || status.missing || status.over || status.status === "declined") return [2, Infinity];
    const yours = mine !== null && mine !== undefined && status.deciders.includes(mine);
    const left = typeof status.time_left === "number" ? status.time_left : Infinity;
    return [yours ? 0 : 1, left];
  },

  // Returns the entries ordered by urgency (statuses by table id; an entry without one keeps its place
  // among the tables in play); the sort is stable, so equal ones stay newest first.
  byUrgency(entries, statuses) {
    const key = entry => {
      const status = statuses.get(entry.table);
      return status ? this.urgency(status, entry.seat) : [1, Infinity];
    };
    return [...entries].sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      return x[0] - y[0] || (x[1] === y[1] ? 0 : x[1] < y[1] ? -1 : 1);
    });
  },

  // Fetches a table's public status (null: the server has no such table, or could not say).
  async status(table) {
    try {
      const reply = await fetch(`/api/tables/${encodeURIComponent(table)}/status`);
      return reply.ok ? await reply.json() : (reply.status === 404 ? { missing: true } : null);
    } catch (err) { return null; }
  },
};
