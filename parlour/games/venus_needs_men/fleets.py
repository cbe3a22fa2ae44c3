"""The spaceships on the board by the planet commanding them, and each seat's enemy ships: a compiled
class (``VenusGame.hot_modules``) that the state keeps and the steps read on every action."""

from __future__ import annotations

from collections.abc import Callable, Mapping


class Fleets:
    """The spaceships on the board by the planet commanding them, each fleet in name order, and each
    seat's enemy ships: worked out from the ships' places and Mind Control, then never changed (a state
    replaces them when a ship joins or leaves the board or changes hands), so copies share them."""

    def __init__(
        self, of: dict[str, tuple[str, ...]], seat_of: dict[str, int], supplied: frozenset[str] = frozenset()
    ) -> None:
        self.of = of
        """Each commanding planet's fleet."""
        self.seat_of = seat_of
        self.supplied = supplied
        """The planets with a spaceship in their supply (a ship joining or leaving the board replaces
        the fleets, so this is kept with them)."""
        self._enemies: dict[int, tuple[str, ...]] = {}

    def enemies(self, seat: int) -> tuple[str, ...]:
        """Returns the ships on the board commanded by a planet in play of another seat, in name order."""
        found = self._enemies.get(seat)
        if found is None:
            seat_of = self.seat_of
            ships: list[str] = []
            for planet, fleet in self.of.items():
                if planet in seat_of and seat_of[planet] != seat:
                    ships += fleet
            ships.sort()
            found = tuple(ships)
            self._enemies[seat] = found
        return found


def work_out(
    ships: Mapping[str, str | None],
    controlled: Mapping[str, str],
    owners: Mapping[str, str],
    in_play: tuple[str, ...],
    seat_of: dict[str, int],
    owner: Callable[[str], str],
) -> Fleets:
    """Returns the fleets of the ships in play (``in_play``, in name order) as they stand: each ship's
    commander (``controlled``, else its owner by ``owners``, else ``owner(ship)``) and the planets with a
    ship in their supply."""
    fleets: dict[str, list[str]] = {}
    supplied: set[str] = set()
    for ship in in_play:
        if ships[ship] is None:
            supplied.add(owners.get(ship) or owner(ship))
        else:
            commander = controlled.get(ship) or owners.get(ship) or owner(ship)
            fleet = fleets.get(commander)
            if fleet is None:
                fleets[commander] = [ship]
            else:
                fleet.append(ship)
    fleet_of = {planet: tuple(fleet) for planet, fleet in fleets.items()}
    return Fleets(fleet_of, seat_of, frozenset(supplied))
