"""The conformance kit: checks every game gets for free (playouts, refusals, replays, views)."""
