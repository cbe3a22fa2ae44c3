// Parlour's service worker: shows a Web Push notification (its one line, never anything of the table)
// and opens the table's page when it is clicked. Registered by the account page when its person opts in.
"use strict";

self.addEventListener("push", (event) => {
  let message = { title: "Parlour", body: "You are asked at a table", url: "/" };
  try {
    message = { ...message, ...event.data.json() };
  } catch (err) {
    // a message that is not JSON shows the default line
  }
  event.waitUntil(
    self.registration.showNotification(String(message.title), {
      body: String(message.body),
      data: { url: String(message.url) },
      tag: String(message.url),
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data && event.notification.data.url || "/", self.location.origin);
  if (url.origin !== self.location.origin) return; // only the server's own pages
  event.waitUntil(self.clients.openWindow(url.href));
});
