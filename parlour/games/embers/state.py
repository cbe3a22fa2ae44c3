"""The state of a game of Embers: where every card lies (its zones, described once in :data:`LAYOUT`: who
sees each), its copies, re-deals, position and consistency checks; what people are shown of it is
``game_state``'s."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Self

from parlour.core.chance import Chance
from parlour.core.decisions import DecisionStack, Seat
from parlour.core.errors import PositionError
from parlour.core.modular import ModularState
from parlour.core.state import GameState
from parlour.core.zones import Card, Layout, Part, position_header
from parlour.games.embers.actions import NOTATION, EmbersAction
from parlour.games.embers.content import DOUSE, Content

FORMAT = "parlour-embers-position/1"
"""The position format (docs/positions.md)."""


class EmbersState(ModularState[EmbersAction]):
    """A game of Embers in progress: what the rules read and change; the decisions on its stack (``turn``,
    ``answers``) carry the rules. The game makes ``game_state.EmbersGameState``, which adds what people
    see. Its parts are listed once, in :data:`LAYOUT`, from which come its copies, re-deals and position.
    """

    game_name = "embers"
    notation = NOTATION

    content: Content
    """The components (shared, never changed)."""
    options: dict[str, object]
    """Option values (``options.OPTIONS``)."""
    hands: list[list[str]]
    """Each seat's cards, sorted: seen by their owner alone."""
    draw: list[str]
    """The face-down draw pile, top first: seen by nobody."""
    taken: list[list[str]]
    """Each seat's score pile, face up (rule 5.2)."""
    fire: list[str]
    """The embers that stood since the fire was last taken, face up."""
    discard: list[str]
    """Doused embers, spent and discarded douse cards, face up."""
    play: str | None
    """The ember being answered (rule 4), face up."""
    dousers: list[int]
    """The seats whose douse card lies on it, in order."""
    active: int
    """Whose turn it is (seat 0 begins: rule 2.2)."""
    turn: int
    """The turn number, every player's turns counted."""
    over: bool
    """Whether the game has ended (rule 6.1; ``GameState.over``, read by the decision loop)."""

    def __init__(self, content: Content, players: int, options: Mapping[str, object], chance: Chance) -> None:
        super().__init__()
        self.content, self.players, self.options, self.chance = content, players, dict(options), chance
        self.hands, self.draw, self.taken = [[] for _ in range(players)], [], [[] for _ in range(players)]
        self.fire, self.discard, self.play, self.dousers = [], [], None, []
        self.active, self.turn, self.over = 0, 1, False
        self.stack = DecisionStack()

    # ----------------------------------------------------------------- rules helpers
    @property
    def chain(self) -> bool:
        """Whether a douse card may answer a douse card (option ``chain``, rules 4.2 and 4.4)."""
        return bool(self.options["chain"] == "on")

    def others(self, seat: Seat) -> list[Seat]:
        """Returns every other seat, clockwise from ``seat``'s left (the order answers are asked in)."""
        return [(seat + step) % self.players for step in range(1, self.players)]

    def fire_total(self) -> int:
        """Returns the sum of the embers in the fire."""
        return sum(self.content.embers[card] for card in self.fire)

    def sort_hand(self, seat: Seat) -> None:
        """Puts a hand in the canonical order (the embers rising, then the douse cards)."""
        order = {name: i for i, name in enumerate(self.content.names)}
        self.hands[seat].sort(key=order.__getitem__)

    # ----------------------------------------------------------------- the protocol
    def scores(self) -> list[float]:
        """Returns each seat's points: one per card in its score pile (rule 6.2)."""
        return [float(len(pile)) for pile in self.taken]

    def turn_player(self) -> Seat | None:
        """Returns whose turn it is (None once the game is over)."""
        return None if self.over else self.active

    def clone(self) -> Self:
        """Returns a deep copy: every part of :data:`LAYOUT` (the content shared), and the count of actions
        applied."""
        copy = type(self).__new__(type(self))
        GameState.__init__(copy)
        LAYOUT.copy_into(self, copy)
        copy.actions_applied = self.actions_applied
        return copy

    def determinize(self, seat: Seat, rng: random.Random) -> Self:
        """Returns a state ``seat`` cannot tell from this one: the others' hands and the draw pile re-dealt
        (``LAYOUT.redeal``), the hands put back in order, and a fresh generator."""
        copy = self.clone()
        LAYOUT.redeal(copy, seat, rng)
        for other in self.others(seat):
            copy.sort_hand(other)
        copy.chance = self.chance.fresh(rng)
        return copy

    def to_position(self) -> dict[str, object]:
        """Returns the whole state as a position (docs/positions.md, "Embers")."""
        header = position_header(self, FORMAT) | {"decisions": self.stack.to_json()}
        return header | LAYOUT.write(self)

    def invariant_errors(self) -> list[str]:
        """Returns broken invariants (every card in one place, hands within the limit...)."""
        return [str(error) for error in self.problems()]

    def problems(self) -> list[PositionError]:
        """Returns each broken invariant as the error naming its field; positions are refused for them."""
        if len(self.hands) != self.players or len(self.taken) != self.players:
            return [PositionError("hands", f"hands and taken must list {self.players} seats")]
        found = self._card_problems()
        found += [
            PositionError(f"fire[{i}]", "must be an ember")
            for i, card in enumerate(self.fire)
            if card not in self.content.embers
        ]
        total = 0 if found else self.fire_total()  # the total reads the embers' numbers: embers only
        for seat, hand in enumerate(self.hands):
            if len(hand) > self.content.hand:
                found.append(PositionError(f"hands[{seat}]", f"holds more than {self.content.hand} cards"))
        if total >= self.content.blaze:
            found.append(PositionError("fire", f"totals {total}: a fire of {self.content.blaze} is taken"))
        if self.play is not None and self.play not in self.content.embers:
            found.append(PositionError("play", "must be an ember"))
        if self.play is None and self.dousers:
            found.append(PositionError("dousers", "douse cards lie on no ember"))
        if not 0 <= self.active < self.players or any(not 0 <= s < self.players for s in self.dousers):
            found.append(PositionError("active", f"seats are 0..{self.players - 1}"))
        if self.over and (self.draw or any(self.hands) or self.play is not None):
            found.append(PositionError("over", "the game ends only when every card has been played"))
        return found

    def cards(self) -> Iterator[tuple[str, str]]:
        """Yields every card on the table with its place as positions name it (``hands[0][2]``, ``play``;
        a douse card on the ember as ``dousers[0]``)."""
        taken = ((f"taken[{seat}]", pile) for seat, pile in enumerate(self.taken))
        places: list[tuple[str, Sequence[Card]]] = [*LAYOUT.card_places(self), *taken]
        for where, pile in places:
            yield from ((f"{where}[{i}]", str(card)) for i, card in enumerate(pile))
        if self.play is not None:
            yield "play", self.play
        yield from ((f"dousers[{i}]", DOUSE) for i in range(len(self.dousers)))

    def _card_problems(self) -> list[PositionError]:
        """Every card of the deck lies in one place: no unknown card, no copy too many, none missing."""
        reader = self.content.cards.reader()
        try:
            for where, card in self.cards():
                reader.number(card, where)
        except PositionError as error:
            return [error]
        missing = reader.missing()
        return [PositionError("hands", f"no place holds the deck's {' '.join(missing)}")] if missing else []


LAYOUT = Layout(
    Part("hands", "owner", cards=True),  # one list per seat, seen by its seat alone
    Part("draw", "secret", cards=True),  # seen by nobody
    "taken",  # public; cards too, but one pile per seat, so EmbersState.cards() lists them
    Part("fire", cards=True),
    Part("discard", cards=True),
    "play",
    "dousers",
    "active",
    "turn",
    "over",
    Part("chance", copy=Chance.copy, body=False),  # copied; written in the position's header
    Part("stack", key="decisions", copy=DecisionStack.copy, body=False),  # written by to_position
    shared=("content", "players", "options"),
)
"""Every part of an :class:`EmbersState` and who sees it (cards are kept by name: ``"7"``, ``"douse"``):
its clones, re-deals and the position's body come from it."""
