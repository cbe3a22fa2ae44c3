"""The games Parlour plays, one package each; no game imports another."""
