// "My tables": the tables created or joined in this browser, with their links, in local storage (the
// lobby lists them; a table page adds the seat it was opened with). Nothing of it is sent anywhere.
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
};
