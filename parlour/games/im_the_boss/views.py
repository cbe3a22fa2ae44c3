"""What each seat may see (observations), the table as text, and hints for humans."""

from __future__ import annotations

from collections import Counter
from typing import TypedDict

from parlour.games.im_the_boss.bargain import quiet
from parlour.games.im_the_boss.closing import Closing
from parlour.games.im_the_boss.content import Space
from parlour.games.im_the_boss.plays import Respond
from parlour.games.im_the_boss.state import BossState, DealRecord
from parlour.games.im_the_boss.supply import can_supply, stands, suppliers


class NegotiationView(TypedDict):
    """The negotiation as every seat sees it (all of it public): its record, then what the drawn table
    shows beside it."""

    space: int
    """The deal's space, 1 to 16."""
    opener: int
    boss: int
    proceeds: int
    laid: list[list[str]]
    """Each seat's laid Clan cards, by colour letter (sorted)."""
    travelling: list[str]
    """The colours of the placards sent travelling."""
    offers: list[list[str | int]]
    """The standing offers, each ``[colour, seat, ask]``."""
    terms: dict[str, list[int]]
    """The investor lines: colour -> ``[seat, amount, agreed]`` (agreed a boolean)."""
    tips: dict[str, list[int]]
    """The payments for no investor: seat (as text) -> ``[seat, amount, agreed]``."""
    counted: list[int]
    """Each seat's actions used (pass, agree, refuse not counted; ruling B-2)."""
    limit: int
    """The actions each seat may use (option negotiation_limit)."""
    called: bool
    pending: str | None
    """The play awaiting a Stop, in words."""
    suppliers: dict[str, list[int]]
    """Who can supply each colour of the space now."""
    still_needs: str
    """What the agreed lines still lack, e.g. ``G + 1 of R B``."""
    stands: bool
    """Whether the agreed lines cover the space (the Boss may call)."""
    keeps: int
    """What the Boss keeps under the terms."""
    gets: list[int]
    """What the terms pay each seat."""
    quiet: bool
    """Whether everyone has passed (only the Boss is asked)."""
    window: str | None
    """The decision on top: ``bargain``, ``respond`` or ``closing``."""
    asking: list[int]
    """The seats a Stop window or the closing round still asks, in order (else empty)."""


class Observation(TypedDict):
    """What one seat (or a spectator) may know of a game of I'm the Boss! (the browser table's
    ``api.observation``, the encoders' input)."""

    game: str
    players: int
    seat: int | None
    """The viewer (None: a spectator)."""
    turn: int
    current: int
    decision: str | None
    """The kind of the decision on top (None once the game is over)."""
    deciders: list[int]
    hand: list[str] | None
    """The viewer's cards by name, sorted (None for a spectator)."""
    hand_sizes: list[int]
    placards: dict[str, int | None]
    money: list[int | None]
    """Each seat's money, None where the viewer may not see it (option money)."""
    covered: list[int | None]
    """The deal card covering each space, or None."""
    marker: int | None
    """The marker's space, 1 to 16 (None until placed)."""
    deal_cards: list[int]
    dividend_value: int | None
    marker_proceeds: int | None
    deals: list[DealRecord]
    draw_size: int
    discard: list[str]
    negotiation: NegotiationView | None
    over: bool


def observation(state: BossState, seat: int | None) -> Observation:
    """Returns the table as ``seat`` may know it (None: a spectator); others' hands are sizes only."""
    public = state.options["money"] == "public"
    top = state.top_card()
    view: Observation = {
        "game": "im-the-boss",
        "players": state.players,
        "seat": seat,
        "turn": state.turn,
        "current": state.current,
        "decision": state.decision().kind if len(state.stack) else None,
        "deciders": list(state.deciders()),
        "hand": sorted(state.name(c) for c in state.hands[seat]) if seat is not None else None,
        "hand_sizes": [len(h) for h in state.hands],
        "placards": dict(state.owners),
        "money": [m if public or s == seat else None for s, m in enumerate(state.money)],
        "covered": list(state.covered),
        "marker": None if state.marker is None else state.marker + 1,
        "deal_cards": list(state.deal_cards),
        "dividend_value": top.value if top else None,
        "marker_proceeds": _marker_proceeds(state),
        "deals": [d.copy() for d in state.deals],
        "draw_size": len(state.draw),
        "discard": [state.name(c) for c in state.discard],
        "negotiation": negotiation_view(state),
        "over": state.over,
    }
    return view


def _marker_proceeds(state: BossState) -> int | None:
    """Returns what a deal on the marker's space would bring now (its dividends × the top deal card)."""
    top = state.top_card()
    if state.marker is None or top is None:
        return None
    return state.space(state.marker).dividends * top.value


def negotiation_view(state: BossState) -> NegotiationView | None:
    """Returns everything laid and said in the negotiation (all of it public)."""
    nego = state.nego
    if nego is None:
        return None
    space = state.space(nego.space)
    agreed = {c for c, t in nego.items.items() if t.agreed}
    top = state.decision() if len(state.stack) else None
    return {
        "space": nego.space + 1,
        "opener": nego.opener,
        "boss": nego.boss,
        "proceeds": nego.proceeds,
        "laid": [sorted(state.name(c)[-1] for c in laid) for laid in nego.laid],
        "travelling": sorted(nego.travelling),
        "offers": [[c, s, a] for (c, s), a in sorted(nego.offers.items())],
        "terms": {c: t.to_json() for c, t in sorted(nego.items.items())},
        "tips": {str(s): t.to_json() for s, t in sorted(nego.tips.items())},
        "counted": list(nego.counted),
        "limit": state.options["negotiation_limit"],
        "called": nego.called,
        "pending": nego.pending.describe() if nego.pending else None,
        # What the drawn table shows beside the record: who can supply each colour, what the agreed
        # lines still lack, what the Boss keeps, who is still to answer.
        "suppliers": {c: suppliers(state, c) for c in space.colours},
        "still_needs": still_needed(space, agreed),
        "stands": stands(state),
        "keeps": nego.proceeds - nego.committed(),
        "gets": [nego.payments().get(s, 0) for s in range(state.players)],
        "quiet": quiet(state),
        "window": top.kind if top is not None else None,
        "asking": list(top.seats) if isinstance(top, Closing | Respond) else [],
    }


def render_text(state: BossState, seat: int | None) -> str:
    """Returns the table as plain text for the terminal."""
    lines = [_headline(state)]
    top = state.top_card()
    if top is not None:
        lines.append(
            f"Deal card {top.number} on top: {top.value} million a dividend; "
            f"{len(state.deal_cards)} deal cards left."
        )
    lines.append("Board (clockwise):")
    width = max(len(space.text()) for space in state.content.spaces)
    for i, space in enumerate(state.content.spaces):
        mark = ">" if i == state.marker else " "
        cover = f"covered by deal card {state.covered[i]}" if state.covered[i] else ""
        lines.append(
            f" {mark}[{space.number:2}] {space.text():{width}}  {space.dividends} div  {cover}".rstrip()
        )
    owners = "  ".join(f"{c}: {'spare' if s is None else f'seat {s}'}" for c, s in state.owners.items())
    lines.append(f"Placards: {owners}")
    money = [
        str(m) if state.options["money"] == "public" or s == seat else "?" for s, m in enumerate(state.money)
    ]
    lines.append("Money: " + "  ".join(f"seat {s}: {m}" for s, m in enumerate(money)))
    lines.append(
        "Hands: "
        + "  ".join(f"seat {s}: {len(h)}" for s, h in enumerate(state.hands))
        + f"  (deck {len(state.draw)}, discard {len(state.discard)})"
    )
    if seat is not None:
        counts = Counter(state.name(c) for c in state.hands[seat])
        lines.append(
            "Your hand: "
            + (", ".join(f"{n}×{k}" if k > 1 else n for n, k in sorted(counts.items())) or "empty")
        )
    lines += _negotiation_lines(state)
    return "\n".join(lines)


def _headline(state: BossState) -> str:
    """Returns the first line: whose turn, what is being decided."""
    if state.over:
        return f"I'm the Boss! — game over after {len(state.deals)} deals."

    deciders = ", ".join(map(str, state.deciders()))
    return (
        f"I'm the Boss! — turn {state.turn}, seat {state.current}'s turn; "
        f"{state.decision().phase}, waiting for seat(s) {deciders}."
    )


def _negotiation_lines(state: BossState) -> list[str]:
    """Returns the negotiation as text: needs, suppliers, laid cards, offers, terms."""
    nego = state.nego
    if nego is None:
        return []
    space = state.space(nego.space)
    lines = [
        f"Negotiation on space {space.number} ({space.text()}): Boss seat {nego.boss}, "
        f"proceeds {nego.proceeds} million, actions used {'/'.join(map(str, nego.counted))}"
        f" of {state.options['negotiation_limit']} each" + (", deal called" if nego.called else "")
    ]
    who = "  ".join(f"{c}: {' '.join(f'@{s}' for s in suppliers(state, c)) or '-'}" for c in space.colours)
    lines.append(f"  can supply  {who}")
    laid = "  ".join(
        f"seat {s}: {' '.join(state.name(c)[-1] for c in x)}" for s, x in enumerate(nego.laid) if x
    )
    lines.append(f"  laid Clan   {laid or '-'}")
    lines.append(f"  travelling  {' '.join(sorted(nego.travelling)) or '-'}")
    offers = "  ".join(f"{c}@{s} asks {a}" for (c, s), a in sorted(nego.offers.items()))
    lines.append(f"  offers      {offers or '-'}")
    terms = [f"{c}@{t.seat} {t.amount}{'' if t.agreed else '?'}" for c, t in sorted(nego.items.items())]
    terms += [f"@{s} {t.amount}{'' if t.agreed else '?'} (no investor)" for s, t in sorted(nego.tips.items())]
    left = nego.proceeds - nego.committed()
    lines.append(f"  terms       {'  '.join(terms) or '-'}  (Boss keeps {left}; ? = not yet agreed)")
    agreed = {c for c, t in nego.items.items() if t.agreed}
    lines.append(f"  still needs {still_needed(space, agreed)} (in agreed lines)")
    if nego.pending is not None:
        lines.append(f"  pending     {nego.pending.describe()}: a Stop may cancel it")
    return lines


def still_needed(space: Space, agreed: set[str]) -> str:
    """Returns what the agreed colours still lack, e.g. ``G + 1 of R B`` (the space's own notation)."""
    parts = [" ".join(c for c in space.required if c not in agreed)] if set(space.required) - agreed else []
    for group in space.groups:
        short = group.count - len(agreed & set(group.colours))
        if short > 0:
            parts.append(f"{short} of {' '.join(c for c in group.colours if c not in agreed)}")
    return " + ".join(parts) or "nothing"


def hints(state: BossState, seat: int) -> list[str]:
    """Returns advice lines for a human at ``seat``: what the deal needs, what is still missing."""

    nego = state.nego
    if state.marker is None or state.over:
        return []
    space = state.space(state.marker if nego is None else nego.space)
    travelling = nego.travelling if nego is not None else {}
    own = {c for c in state.placards(seat) if c not in travelling}
    own |= {c for c in space.colours if state.count(seat, f"clan:{c}")}
    if nego is not None:
        own |= {c for c in space.colours if can_supply(state, seat, c)}
    mine = " ".join(sorted(own & set(space.colours))) or "none of them"
    lines = [f"Space {space.number} needs {space.text()}; you can bring {mine} yourself."]
    if nego is not None and seat == nego.boss:
        agreed = {c for c, t in nego.items.items() if t.agreed}
        lines.append(
            "The agreed terms cover the space: you may 'call'."
            if stands(state)
            else f"Not covered yet; still needed (agreed lines): {still_needed(space, agreed)}."
        )
    elif nego is not None and nego.unagreed(seat):
        lines.append("The terms name you: 'agree' or 'refuse'.")
    return lines
