"""Fuzzing: hostile positions, records, action texts and command lines for every game.

``corpus.positions`` plays random games for valid positions, ``mutate.mutate`` spoils JSON (deletions,
type swaps, huge numbers, deep nesting, bad seat lists, file names), ``hostile.mutate_text`` bends
action texts and typed lines, ``check.check_position`` loads a position and exercises it, and
``surfaces`` runs each surface under ``guards`` (a time limit, no file named by the input opened, a
tally).  ``server_surface`` fuzzes the table server's HTTP requests and WebSocket messages in process,
``net_surface`` attacks a real server process over the network (``wire``: clients by hand;
``hostile.spoil_strings``: invalid Unicode; ``bot_names``: search bots in and out of range).
``test_fuzz.py`` and ``test_server_fuzz.py`` run every surface at a size for ``make test``; ``run.py`` is
``make fuzz``.
"""
