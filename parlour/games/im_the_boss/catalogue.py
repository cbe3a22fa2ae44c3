"""Every action I'm the Boss! can ever offer, in a fixed order: the id space for learning environments."""

from __future__ import annotations

from parlour.games.im_the_boss.content import Content


def largest_proceeds(content: Content) -> int:
    """Returns the most a deal can pay (the richest space at the highest dividend value)."""
    return max(s.dividends for s in content.spaces) * max(c.value for c in content.deal_cards)


def action_catalogue(content: Content, players: int) -> list[str]:
    """Returns the notation of every possible action (ids are positions in this list)."""
    colours, seats = content.colours, [f"@{s}" for s in range(players)]
    amounts = range(largest_proceeds(content) + 1)
    cards = sorted(set(content.cards))
    actions = [f"marker {n}" for n in range(1, len(content.spaces) + 1)]
    actions += ["deal", "roll", "draw", *(f"discard {c}" for c in cards)]
    actions += [f"recruit {c}" for c in colours] + [f"lay {c}" for c in colours]
    actions += [f"offer {c} {n}" for c in colours for n in amounts] + [f"withdraw {c}" for c in colours]
    actions += [f"accept {c} {s}" for c in colours for s in seats]
    actions += [f"include {c} {s} {n}" for c in colours for s in seats for n in amounts]
    actions += [f"use {c}" for c in colours] + [f"drop {c}" for c in colours]
    actions += [f"tip {s} {n}" for s in seats for n in amounts]
    actions += [f"travel {c}" for c in colours] + [f"travel {c} {s}" for c in colours for s in seats]
    actions += ["agree", "refuse", "boss", "stop", "pass", "call", "fail"]
    return actions
