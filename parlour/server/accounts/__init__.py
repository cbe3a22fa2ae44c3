"""Accounts: registration, sign-in sessions, CSRF, rate limits in the database, e-mail links, seat binding.

The pieces: ``rules`` (what a username, password, display name and e-mail address may be), ``rows`` (the
tables), ``counters`` (rate limits counted in the database), ``mail`` (SMTP), ``service`` (the logic),
``web`` (the HTTP routes, cookies and CSRF). docs/server.md, "Accounts"; docs/security.md, "Accounts".
"""
