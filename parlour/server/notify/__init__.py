"""Notifications (issue 32): an outbox in the database filled when a person bound to an account is asked
to act with no tab of their seat open, and delivered in the background by e-mail, webhook and Web Push
(docs/server.md, "Notifications"). A message never holds hidden information (docs/security.md)."""
