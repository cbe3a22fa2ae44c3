#!/usr/bin/env node
// A random bot speaking parlour-bot/1 (docs/bot-protocol.md) in JavaScript under Node.js, to show the
// protocol is language-neutral: hello, then a uniformly random legal action (by id) per request.
"use strict";
const readline = require("readline");

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

send({ type: "hello", name: "reference-random-js", version: "1", protocol: "parlour-bot/1", games: { "*": [] } });
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "request") {
    const choice = Math.floor(Math.random() * message.actions.length);
    send({ type: "action", id: message.id, action: choice });
  } else if (message.type === "end" || message.type === "error") {
    lines.close();
  }
});
