// The account page: register, sign in and out, the display name and e-mail, the data download, deletion,
// and the e-mails' links (#confirm=TOKEN, #reset=TOKEN). Every name is written as text, never as markup.
"use strict";

const $ = id => document.getElementById(id);
let csrf = "";

function say(text) { $("notice").textContent = text; $("account-error").textContent = ""; }
function fail(text) { $("account-error").textContent = text; }

async function call(path, body) {
  const headers = { "content-type": "application/json" };
  if (csrf) headers["x-csrf-token"] = csrf;
  const reply = await fetch(path, { method: "POST", headers, body: JSON.stringify(body || {}), credentials: "same-origin" });
  const data = await reply.json().catch(() => ({ error: `the server answered ${reply.status}` }));
  if (!reply.ok) throw new Error(data.error || `the server answered ${reply.status}`);
  return data;
}

function show(data) {
  const account = data.account;
  csrf = data.csrf || "";
  $("signed-in").hidden = !account;
  $("signed-out").hidden = !!account;
  if (!account) return;
  $("me-username").textContent = account.username;
  $("me-profile").href = `/players/${encodeURIComponent(account.username)}`;
  $("me-display").value = account.display_name;
  $("me-email").value = account.email || "";
  $("me-email-state").textContent = account.email ? (account.email_confirmed ? "confirmed" : "not confirmed yet") : "";
  loadSeats();
  loadNotifications();
  loadBots();
}

// The person's bot accounts (never a token: a new bot's is shown once, when it is made).
async function loadBots() {
  const list = $("me-bots");
  const reply = await fetch("/api/bot/accounts", { credentials: "same-origin" });
  if (!reply.ok) return;
  list.replaceChildren();
  for (const bot of (await reply.json()).bots) {
    const item = document.createElement("li");
    const state = bot.revoked ? "revoked" : (bot.online ? "online" : "offline");
    item.append(document.createTextNode(`${bot.name} (${state}) `));
    if (!bot.revoked) {
      const button = Object.assign(document.createElement("button"), { type: "button", textContent: "Revoke" });
      button.addEventListener("click", async () => {
        try { await call(`/api/bot/accounts/${encodeURIComponent(bot.name)}/revoke`); say(`${bot.name} is revoked.`); loadBots(); }
        catch (err) { fail(err.message); }
      });
      item.append(button);
    }
    list.append(item);
  }
}

let pushKey = "";

async function loadNotifications() {
  const reply = await fetch("/api/me/notifications", { credentials: "same-origin" });
  if (!reply.ok) return;
  const data = await reply.json();
  pushKey = data.push_key;
  $("notify-email").checked = data.email;
  $("notify-digest").checked = data.digest;
  $("notify-webhook").value = data.webhook_url || "";
  $("notify-email-state").textContent = data.email_available ? "" : "(this server sends no e-mail)";
  const log = $("notify-log");
  log.replaceChildren();
  for (const sent of data.deliveries) {
    const when = new Date((sent.sent_at || sent.created) * 1000).toLocaleString();
    const error = sent.last_error ? `: ${sent.last_error}` : "";
    log.append(Object.assign(document.createElement("li"), {
      textContent: `${when}, ${sent.channel}, ${sent.status} (${sent.attempts} tries)${error}: ${sent.text}`,
    }));
  }
  if (!data.deliveries.length) log.append(Object.assign(document.createElement("li"), { textContent: "none yet" }));
  if ("serviceWorker" in navigator) {
    const registration = await navigator.serviceWorker.getRegistration("/");
    const subscribed = registration && registration.pushManager && await registration.pushManager.getSubscription();
    $("notify-push").checked = !!subscribed;
  }
}

function keyBytes(text) {
  const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - text.length % 4) % 4));
  return Uint8Array.from(raw, c => c.charCodeAt(0));
}

// Web Push: the permission is asked only here, when the person ticks the box.
async function startPush() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) throw new Error("this browser has no Web Push");
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  $("notify-push-state").textContent = "service worker registered";
  if (await Notification.requestPermission() !== "granted") throw new Error("notifications are not allowed in this browser");
  await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(pushKey) });
  await call("/api/me/push", subscription.toJSON());
  $("notify-push-state").textContent = "this browser is notified";
}

async function stopPush() {
  const registration = await navigator.serviceWorker.getRegistration("/");
  const subscription = registration && await registration.pushManager.getSubscription();
  if (subscription) await subscription.unsubscribe();
  await fetch("/api/me/push", { method: "DELETE", headers: { "x-csrf-token": csrf }, credentials: "same-origin" });
  $("notify-push-state").textContent = "this browser is not notified";
}

async function loadSeats() {
  const list = $("me-seats");
  const reply = await fetch("/api/me/data", { credentials: "same-origin" });
  if (!reply.ok) return;
  const data = await reply.json();
  list.replaceChildren();
  for (const seat of data.seats) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `/t/${encodeURIComponent(seat.table)}`;
    link.textContent = `${seat.game}, seat ${seat.seat + 1}${seat.name ? ` (${seat.name})` : ""}, ${seat.status}`;
    item.append(link);
    list.append(item);
  }
  if (!data.seats.length) list.append(Object.assign(document.createElement("li"), { textContent: "none yet: open a seat's link and keep it" }));
}

async function refresh() {
  const reply = await fetch("/api/me", { credentials: "same-origin" });
  show(await reply.json());
}

function onSubmit(id, action) {
  $(id).addEventListener("submit", async event => {
    event.preventDefault();
    try { await action(); } catch (err) { fail(err.message); }
  });
}

onSubmit("signin-form", async () => {
  show(await call("/api/login", { username: $("signin-username").value, password: $("signin-password").value }));
  $("signin-password").value = "";
  say("Signed in.");
});

onSubmit("register-form", async () => {
  const body = { username: $("register-username").value, password: $("register-password").value };
  if ($("register-display").value.trim()) body.display_name = $("register-display").value;
  if ($("register-email").value.trim()) body.email = $("register-email").value.trim();
  show(await call("/api/register", body));
  $("register-password").value = "";
  say(body.email ? "Welcome! A link to confirm your e-mail address is on its way (if this server sends e-mail)." : "Welcome!");
});

onSubmit("bot-form", async () => {
  const made = await call("/api/bot/accounts", { name: $("bot-name").value.trim() });
  $("bot-token-text").textContent = made.token;
  $("bot-token").hidden = false;
  $("bot-name").value = "";
  say(`${made.name} is made: copy its token now, it is not shown again.`);
  loadBots();
});

onSubmit("forgot-form", async () => {
  const data = await call("/api/reset/ask", { email: $("forgot-email").value.trim() });
  say(data.answer);
});

onSubmit("me-form", async () => {
  show(await call("/api/me", { display_name: $("me-display").value, email: $("me-email").value.trim() || null }));
  say("Saved.");
});

onSubmit("notify-form", async () => {
  await call("/api/me/notifications", {
    email: $("notify-email").checked, digest: $("notify-digest").checked,
    webhook_url: $("notify-webhook").value.trim() || null,
  });
  say("Saved.");
  await loadNotifications();
});

$("notify-push").addEventListener("change", async event => {
  try { await (event.target.checked ? startPush() : stopPush()); }
  catch (err) { event.target.checked = false; fail(`Web Push: ${err.message}`); }
});

onSubmit("password-form", async () => {
  show(await call("/api/me/password", { password: $("password-current").value, new_password: $("password-new").value }));
  $("password-current").value = $("password-new").value = "";
  say("Your new password is set; every other browser is signed out.");
});

onSubmit("delete-form", async () => {
  if (!confirm("Delete your account? This cannot be undone.")) return;
  show(await call("/api/me/delete", { password: $("delete-password").value }));
  say("Your account is deleted.");
});

$("signout-button").addEventListener("click", async () => {
  try { show(await call("/api/logout")); say("Signed out."); } catch (err) { fail(err.message); }
});

async function fromLink() {
  const params = new URLSearchParams(location.hash.slice(1));
  const confirmToken = params.get("confirm"), resetToken = params.get("reset");
  if (!confirmToken && !resetToken) return;
  history.replaceState(null, "", location.pathname);  // the token leaves the address bar
  if (confirmToken) {
    try { await call("/api/confirm", { token: confirmToken }); say("Your e-mail address is confirmed."); }
    catch (err) { fail(err.message); }
    return;
  }
  $("reset-box").hidden = false;
  onSubmit("reset-form", async () => {
    await call("/api/reset", { token: resetToken, password: $("reset-password").value });
    $("reset-box").hidden = true;
    say("Your new password is set: sign in with it.");
    await refresh();
  });
}

fromLink().then(refresh).catch(err => fail(err.message));
