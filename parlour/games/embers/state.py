"""The state of a game of Embers: where every card lies, what each seat may see, copies and re-deals."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from parlour.core.chance import Chance
from parlour.core.decisions import DecisionStack, Seat
from parlour.core.errors import PositionError
from parlour.core.modular import ModularState
from parlour.core.state import ScoreStep
from parlour.core.zones import Card, Layout, Part, position_header
from parlour.games.embers.actions import NOTATION, EmbersAction
from parlour.games.embers.content import DOUSE, Content
from parlour.games.embers.views import Observation, render_text

FORMAT = "parlour-embers-position/1"
"""The position format (docs/positions.md)."""


@dataclass
class Table:
    """Where every card lies (docs/games/embers.md, "What is secret"): the zones a position stores."""

    hands: list[list[str]]
    """Each seat's cards, sorted: seen by their owner alone."""
    draw: list[str]
    """The face-down draw pile, top first: seen by nobody."""
    taken: list[list[str]]
    """Each seat's score pile, face up (rule 5.2)."""
    fire: list[str] = field(default_factory=list)
    """The embers that stood since the fire was last taken, face up."""
    discard: list[str] = field(default_factory=list)
    """Doused embers, spent and discarded douse cards, face up."""
    play: str | None = None
    """The ember being answered (rule 4), face up."""
    dousers: list[int] = field(default_factory=list)
    """The seats whose douse card lies on it, in order."""
    active: int = 0
    """Whose turn it is (seat 0 begins: rule 2.2)."""
    turn: int = 1
    """The turn number, every player's turns counted."""
    over: bool = False
    """Whether the game has ended (rule 6.1); ``EmbersState.end`` sets it and the state's copy."""


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
)
"""Who sees each part of the :class:`Table` (cards are kept by name: ``"7"``, ``"douse"``): clones,
re-deals and the position's body come from it."""


def empty_table() -> Table:
    """Returns a Table with no part set yet, for :data:`LAYOUT` to fill (a copy, a position read)."""
    return Table.__new__(Table)


class EmbersState(ModularState[EmbersAction]):
    """A game of Embers in progress; the decisions on its stack (``turn``, ``answers``) carry the rules."""

    game_name = "embers"
    notation = NOTATION

    def __init__(
        self,
        content: Content,
        players: int,
        options: Mapping[str, object],
        chance: Chance,
        table: Table,
        stack: DecisionStack | None = None,
    ) -> None:
        super().__init__()
        self.content, self.players, self.options, self.chance = content, players, dict(options), chance
        self.table = table
        self.over = table.over
        """Whether the game has ended (``GameState.over``): a copy of the table's flag, kept by
        :meth:`end`, as an attribute of the state (the decision loop reads it without a call)."""
        self.stack = stack if stack is not None else DecisionStack()

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
        return sum(self.content.embers[card] for card in self.table.fire)

    def sort_hand(self, seat: Seat) -> None:
        """Puts a hand in the canonical order (the embers rising, then the douse cards)."""
        order = {name: i for i, name in enumerate(self.content.names)}
        self.table.hands[seat].sort(key=order.__getitem__)

    # ----------------------------------------------------------------- the protocol
    def end(self) -> None:
        """Ends the game (rule 6.1): the table's flag, and the state's copy the decision loop reads."""
        self.table.over = self.over = True

    def scores(self) -> list[float]:
        """Returns each seat's points: one per card in its score pile (rule 6.2)."""
        return [float(len(pile)) for pile in self.table.taken]

    def turns_played(self) -> int:
        """Returns the turn number."""
        return self.table.turn

    def turn_player(self) -> Seat | None:
        """Returns whose turn it is (None once the game is over)."""
        return None if self.table.over else self.table.active

    def clone(self) -> EmbersState:
        """Returns a deep copy (the content is shared: it never changes)."""
        table = empty_table()
        LAYOUT.copy_into(self.table, table)
        copy = EmbersState(
            self.content, self.players, self.options, self.chance.copy(), table, self.stack.copy()
        )
        copy.actions_applied = self.actions_applied
        return copy

    def determinize(self, seat: Seat, rng: random.Random) -> EmbersState:
        """Returns a state ``seat`` cannot tell from this one: the others' hands and the draw pile re-dealt
        (``LAYOUT.redeal``), the hands put back in order, and a fresh generator."""
        copy = self.clone()
        LAYOUT.redeal(copy.table, seat, rng)
        for other in self.others(seat):
            copy.sort_hand(other)
        copy.chance = self.chance.fresh(rng)
        return copy

    def observe(self, seat: Seat | None) -> Observation:
        """Returns what ``seat`` (None: a spectator) may know, typed."""
        table = self.table
        return Observation(
            seat=seat,
            players=self.players,
            hand=None if seat is None else list(table.hands[seat]),
            hand_sizes=[len(hand) for hand in table.hands],
            draw_size=len(table.draw),
            fire=list(table.fire),
            fire_total=self.fire_total(),
            blaze=self.content.blaze,
            discard=list(table.discard),
            taken=[list(pile) for pile in table.taken],
            scores=[len(pile) for pile in table.taken],
            play=table.play,
            dousers=list(table.dousers),
            active=table.active,
            turn=table.turn,
            decision=None if table.over else "turn" if table.play is None else "answer",
            deciders=list(self.deciders()),
            over=table.over,
        )

    def observation(self, seat: Seat) -> Observation:
        """Returns what ``seat`` may know, as JSON data (never another seat's hand)."""
        self.check_seat(seat)
        return self.observe(seat)

    def public_observation(self) -> Observation:
        """Returns what a spectator may know."""
        return self.observe(None)

    def render(self, seat: Seat | None) -> str:
        """Returns the table as text, as ``seat`` (None: a spectator) sees it."""
        self.check_seat(seat)
        return render_text(self.observe(seat))

    def to_position(self) -> dict[str, object]:
        """Returns the whole state as a position (docs/positions.md, "Embers")."""
        header = position_header(self, FORMAT) | {"decisions": self.stack.to_json()}
        return header | LAYOUT.write(self.table)

    def invariant_errors(self) -> list[str]:
        """Returns broken invariants (every card in one place, hands within the limit...)."""
        return [str(error) for error in self.problems()]

    def problems(self) -> list[PositionError]:
        """Returns each broken invariant as the error naming its field; positions are refused for them."""
        table = self.table
        if len(table.hands) != self.players or len(table.taken) != self.players:
            return [PositionError("hands", f"hands and taken must list {self.players} seats")]
        found = self._card_problems()
        found += [
            PositionError(f"fire[{i}]", "must be an ember")
            for i, card in enumerate(table.fire)
            if card not in self.content.embers
        ]
        total = 0 if found else self.fire_total()  # the total reads the embers' numbers: embers only
        for seat, hand in enumerate(table.hands):
            if len(hand) > self.content.hand:
                found.append(PositionError(f"hands[{seat}]", f"holds more than {self.content.hand} cards"))
        if total >= self.content.blaze:
            found.append(PositionError("fire", f"totals {total}: a fire of {self.content.blaze} is taken"))
        if table.play is not None and table.play not in self.content.embers:
            found.append(PositionError("play", "must be an ember"))
        if table.play is None and table.dousers:
            found.append(PositionError("dousers", "douse cards lie on no ember"))
        if not 0 <= table.active < self.players or any(not 0 <= s < self.players for s in table.dousers):
            found.append(PositionError("active", f"seats are 0..{self.players - 1}"))
        if table.over and (table.draw or any(table.hands) or table.play is not None):
            found.append(PositionError("over", "the game ends only when every card has been played"))
        return found

    def cards(self) -> Iterator[tuple[str, str]]:
        """Yields every card on the table with its place as positions name it (``hands[0][2]``, ``play``;
        a douse card on the ember as ``dousers[0]``)."""
        table = self.table
        taken = ((f"taken[{seat}]", pile) for seat, pile in enumerate(table.taken))
        places: list[tuple[str, Sequence[Card]]] = [*LAYOUT.card_places(table), *taken]
        for where, pile in places:
            yield from ((f"{where}[{i}]", str(card)) for i, card in enumerate(pile))
        if table.play is not None:
            yield "play", table.play
        yield from ((f"dousers[{i}]", DOUSE) for i in range(len(table.dousers)))

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

    # ----------------------------------------------------------------- for people
    def decision_summary(self) -> str:
        """Returns who is deciding what, in one public line."""
        table = self.table
        if table.over:
            return "The game is over."
        if table.play is None:
            return f"seat {table.active} to play a card"
        answered = (
            f"seat {table.dousers[-1]}'s douse" if table.dousers else f"seat {table.active}'s {table.play}"
        )
        return f"seat {self.deciders()[0]} to answer {answered}: douse or pass"

    def hints(self, seat: Seat) -> list[str]:
        """Returns advice for a person at ``seat``: which ember would take the fire (rule 5.2)."""
        total, need = self.fire_total(), self.content.blaze - self.fire_total()
        if need <= max(self.content.embers.values()):
            return [f"The fire totals {total}: an ember of {need} or more takes it (rule 5.2)."]
        return [f"The fire totals {total}; it is taken at {self.content.blaze} (rule 5.2)."]

    def score_steps(self) -> list[ScoreStep]:
        """Returns the final scoring: each seat's score pile, a point a card (rule 6.2)."""
        return [
            ScoreStep(seat, "cards in the score pile", len(pile))
            for seat, pile in enumerate(self.table.taken)
        ]

    def end_reason(self) -> str:
        """Returns why the game ended ('' while it goes on)."""
        return "Every card has been played (rule 6.1)." if self.table.over else ""

    def card_texts(self) -> dict[str, str]:
        """Returns every card's text by name (the terminal's ``info CARD``)."""
        texts = {
            name: f"Ember {number}: adds {number} to the fire."
            for name, number in self.content.embers.items()
        }
        texts[DOUSE] = "Douse: lay it on an ember being answered (or on the douse before yours)."
        return texts

    def table_content(self) -> dict[str, object]:
        """Returns the public facts a drawn table needs: the cards and their numbers, the hand, the blaze."""
        return {
            "cards": dict(Counter(self.content.deck)),
            "hand": self.content.hand,
            "blaze": self.content.blaze,
        }
