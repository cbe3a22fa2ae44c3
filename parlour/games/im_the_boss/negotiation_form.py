"""The negotiation's position form (docs/positions.md): spaces from 1, cards by name, offers as
``[colour, seat, ask]``, terms as ``[seat, amount, agreed]``, tips by seat key."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from parlour.core.errors import PositionError
from parlour.core.positions import Fields, check_int, check_str, short_key
from parlour.core.zones import CardNames, CardReader, Form
from parlour.games.im_the_boss.actions import BossCard, Play, Recruit, Travel
from parlour.games.im_the_boss.content import Content
from parlour.games.im_the_boss.negotiation import Negotiation, Pending, Term

NEGO_FIELDS = {
    "space",
    "opener",
    "boss",
    "proceeds",
    "laid",
    "travelling",
    "offers",
    "terms",
    "tips",
    "counted",
    "refused",
    "interfered",
    "called",
    "pending",
}


@runtime_checkable
class Table(Protocol):
    """What reading a negotiation needs of the table: the seats and the content (its colours)."""

    players: int
    content: Content


class NegotiationForm(Form):
    """The negotiation in positions: spaces from 1, cards by name, offers as ``[colour, seat, ask]``,
    terms as ``[seat, amount, agreed]``, tips by seat key (docs/positions.md)."""

    def write(self, value: object, names: CardNames | None) -> object:
        """Returns the negotiation (or None) as JSON data."""
        if not isinstance(value, Negotiation):
            return None
        assert names is not None
        name, pending = names.name, value.pending
        return {
            "space": value.space + 1,
            "opener": value.opener,
            "boss": value.boss,
            "proceeds": value.proceeds,
            "laid": [[name(c) for c in laid] for laid in value.laid],
            "travelling": {c: name(card) for c, card in sorted(value.travelling.items())},
            "offers": [[c, s, a] for (c, s), a in sorted(value.offers.items())],
            "terms": {c: t.to_json() for c, t in sorted(value.items.items())},
            "tips": {str(s): [t.amount, t.agreed] for s, t in sorted(value.tips.items())},
            "counted": list(value.counted),
            "refused": list(value.refused),
            "interfered": list(value.interfered),
            "called": value.called,
            "pending": None
            if pending is None
            else {
                "verb": pending.play.verb,
                "by": pending.by,
                "colour": pending.colour,
                "seat": pending.seat,
                "cards": [name(c) for c in pending.cards],
            },
        }

    def read(self, raw: object, path: str, reader: CardReader | None, context: object) -> Negotiation | None:
        """Reads the negotiation (or null) against the table given as ``context``."""
        if raw is None:
            return None
        assert reader is not None and isinstance(context, Table)
        n = Fields(raw, path, NEGO_FIELDS)
        players, colours = context.players, context.content.colours
        laid = n.get("laid")
        if not isinstance(laid, list) or len(laid) != players:
            raise PositionError(f"{path}.laid", f"must list {players} seats' laid Clan cards")
        nego = Negotiation(
            n.integer("space", 1, 16) - 1,
            n.integer("opener", 0, players - 1),
            n.integer("boss", 0, players - 1),
            n.integer("proceeds", 0),
            [_pile(reader, x, f"{path}.laid[{i}]") for i, x in enumerate(laid)],
        )
        travelling = n.get("travelling")
        if not isinstance(travelling, dict) or set(travelling) - set(colours):
            raise PositionError(f"{path}.travelling", "must map placard colours to Travel cards")
        nego.travelling = {c: reader.number(v, f"{path}.travelling.{c}") for c, v in travelling.items()}
        for i, entry in enumerate(n.items("offers", _triple)):
            colour, seat, ask = entry
            if colour not in set(colours) or not 0 <= seat < players:
                raise PositionError(f"{path}.offers[{i}]", "colour or seat out of range")
            nego.offers[(colour, seat)] = ask
        nego.items = _terms(n.get("terms"), f"{path}.terms", colours, players)
        nego.tips = _tips(n.get("tips"), f"{path}.tips", players)
        nego.counted = _counts(n, "counted", players, "action counts")
        # Optional (positions written before them read as zeros): Negotiation.refused and .interfered.
        nego.refused = _counts(n, "refused", players, "refused proposals as the Boss", [0] * players)
        nego.interfered = _counts(n, "interfered", players, "Travel and Boss cards played", [0] * players)
        for name, counts in (("refused", nego.refused), ("interfered", nego.interfered)):
            # Each refused line was proposed, and each card played, by a counted action of the seat.
            over = next((s for s, c in enumerate(counts) if c > nego.counted[s]), -1)
            if over >= 0:
                raise PositionError(f"{path}.{name}[{over}]", "must be at most the seat's counted actions")
        nego.called = n.boolean("called")
        nego.pending = _pending(n.get("pending"), f"{path}.pending", players, reader)
        return nego


def _counts(n: Fields, name: str, players: int, what: str, default: object = ...) -> list[int]:
    """Reads a per-seat list of counts (integers from 0), one for each seat; ``default`` if missing."""
    counts = n.items(name, lambda v, p: check_int(v, p, 0), default)
    if len(counts) != players:
        raise PositionError(n.where(name), f"must list {players} seats' {what}")
    return counts


def seat_key(key: object, players: int) -> bool:
    """Returns whether an object key names a seat: ``"0"`` … ``"players - 1"`` as written by positions."""
    return isinstance(key, str) and key.isdecimal() and key == str(int(key)) and int(key) < players


def _pile(reader: CardReader, value: object, path: str) -> list[int]:
    """Returns the card numbers of a list of card names, each number once."""
    if not isinstance(value, list):
        raise PositionError(path, "must be a list of card names")
    return [reader.number(v, f"{path}[{i}]") for i, v in enumerate(value)]


def _triple(value: object, path: str) -> tuple[str, int, int]:
    """Reads ``[colour, seat, amount]``."""
    if not isinstance(value, list) or len(value) != 3:
        raise PositionError(path, "must be [colour, seat, amount]")
    return check_str(value[0], path), check_int(value[1], path, 0), check_int(value[2], path, 0)


def _pair(value: object) -> bool:
    """Returns whether ``value`` is ``[amount, agreed]``."""
    return (
        isinstance(value, list)
        and len(value) == 2
        and isinstance(value[0], int)
        and not isinstance(value[0], bool)
        and value[0] >= 0
        and isinstance(value[1], bool)
    )


def _terms(data: object, path: str, colours: str, players: int) -> dict[str, Term]:
    """Reads the terms: colour -> [seat, amount, agreed]."""
    if not isinstance(data, dict):
        raise PositionError(path, "must be an object")
    terms = {}
    for colour, value in data.items():
        where = f"{path}.{short_key(colour)}"
        shaped = isinstance(value, list) and len(value) == 3 and _pair(value[1:])
        if colour not in set(colours) or not shaped:
            raise PositionError(where, "must map a colour to [seat, amount, agreed]")
        terms[colour] = Term(check_int(value[0], where, 0, players - 1), value[1], value[2])
    return terms


def _tips(data: object, path: str, players: int) -> dict[int, Term]:
    """Reads the tips: seat key -> [amount, agreed]."""
    if not isinstance(data, dict):
        raise PositionError(path, "must be an object")
    tips = {}
    for key, value in data.items():
        if not seat_key(key, players) or not _pair(value):
            raise PositionError(f"{path}.{short_key(key)}", "must map a seat to [amount, agreed]")
        tips[int(key)] = Term(int(key), value[0], value[1])
    return tips


def _pending(data: object, path: str, players: int, reader: CardReader) -> Pending | None:
    """Reads the play awaiting a Stop (or null)."""
    if data is None:
        return None
    p = Fields(data, path, {"verb", "by", "colour", "seat", "cards"})
    verb, colour, seat = p.string("verb"), p.string("colour"), p.integer("seat", -1, players - 1)
    if verb not in ("travel", "boss", "recruit"):
        raise PositionError(f"{path}.verb", "must be travel, boss or recruit")
    if verb != "travel" and seat != -1:
        raise PositionError(f"{path}.seat", "only a Travel card targets a seat (else -1)")
    if verb == "boss" and colour:
        raise PositionError(f"{path}.colour", "a Boss card targets no colour (write '')")
    played: Play = (
        Travel(colour, seat) if verb == "travel" else Recruit(colour) if verb == "recruit" else BossCard()
    )
    return Pending(played, p.integer("by", 0, players - 1), _pile(reader, p.get("cards"), f"{path}.cards"))
