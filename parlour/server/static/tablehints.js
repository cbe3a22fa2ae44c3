// Hints at the table of a tutorial's closing game (the link the learn page opens carries "learn=GAME"
// in its fragment): a "Hint" button beside the choices asks the server (POST /api/tables/ID/hints, the
// seat's token), which answers only at an unrated table where every other seat is a bot. It runs on
// table.js's page and uses its tableId and shown seat.
"use strict";
(() => {
  const learning = new URLSearchParams(location.hash.slice(1)).get("learn");
  if (!learning) return;
  const box = document.createElement("div");
  box.id = "hint-box";
  const button = document.createElement("button");
  button.type = "button";
  button.id = "hint-button";
  button.textContent = "Hint";
  const lines = document.createElement("ul");
  lines.id = "hint-lines";
  const back = document.createElement("a");
  back.href = `/learn/${encodeURIComponent(learning)}`;
  back.textContent = "back to the tutorial";
  box.append(button, " ", back, lines);
  document.getElementById("controls").prepend(box);
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const reply = await fetch(`/api/tables/${tableId}/hints`, {
        method: "POST", headers: { authorization: `Bearer ${shown.token}` },
      });
      const body = await reply.json();
      if (!reply.ok) throw new Error(body.error);
      const found = body.hints.length ? body.hints : ["Nothing to decide now: wait for your turn."];
      lines.replaceChildren(...found.map(text => { const li = document.createElement("li"); li.textContent = text; return li; }));
    } catch (err) {
      document.getElementById("error").textContent = `no hint: ${err.message}`;
    } finally {
      button.disabled = false;
    }
  });
})();
