// The table page's "Keep this seat in my account": shown to a signed-in person who opened a seat's link.
"use strict";

(async () => {
  const token = (new URLSearchParams(location.hash.slice(1)).get("k") || "").split(",").filter(Boolean);
  const box = document.getElementById("keep-seat");
  if (token.length !== 1 || !box) return;  // one seat's link (a hot-seat link holds several people)
  const me = await (await fetch("/api/me", { credentials: "same-origin" })).json().catch(() => ({}));
  if (!me.account) return;
  const table = location.pathname.split("/").pop();
  const view = await fetch(`/api/tables/${encodeURIComponent(table)}`, { headers: { authorization: `Bearer ${token[0]}` } });
  if (!view.ok || (await view.json()).seat === null) return;  // a spectator's link
  const button = document.getElementById("keep-seat-button");
  const said = document.getElementById("keep-seat-text");
  box.hidden = false;
  button.addEventListener("click", async () => {
    const reply = await fetch(`/api/tables/${encodeURIComponent(table)}/bind`, {
      method: "POST", credentials: "same-origin",
      headers: { authorization: `Bearer ${token[0]}`, "x-csrf-token": me.csrf },
    });
    const data = await reply.json().catch(() => ({}));
    said.textContent = reply.ok ? `Kept in your account (${data.account}).` : (data.error || "not kept");
    if (reply.ok) button.hidden = true;
  });
})();
