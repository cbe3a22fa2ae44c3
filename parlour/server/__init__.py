"""The table server: lobby, live tables over WebSockets, bots, clocks, saved games and replays."""
