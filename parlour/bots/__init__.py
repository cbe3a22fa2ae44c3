"""Game-agnostic bots and the lookup of every bot by name."""
