"""The cards (rulebook: 'The Cards'): the deck file keeps each sourced fact, or it is refused."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from parlour.core.content import read_json_file
from parlour.core.errors import ContentError, OptionError
from parlour.games.venture import GAME
from parlour.games.venture.content import parse_deck

DECK_FILE = Path(__file__).parents[3] / "parlour" / "games" / "venture" / "data" / "deck.json"


def _deck() -> dict[str, Any]:
    deck: dict[str, Any] = json.loads(DECK_FILE.read_text(encoding="utf-8"))
    return deck


def _rename_steel(data: dict[str, Any]) -> None:
    """Gives Steel a three-letter code, which the notation CC-LETTERS cannot write."""
    data["industries"]["items"][0]["code"] = "STL"
    for card in data["corporations"]["cards"]:
        if card["industry"] == "ST":
            card["industry"] = "STL"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["corporation_value"].update(base=5), "corporation_value"),
        (lambda d: d["set_values"].update({"2": 1}), "set_values"),
        (_rename_steel, "industries"),
        (lambda d: d["proxy"]["cards"][0].update(count=4), "proxy"),
    ],
)
def test_a_deck_file_breaking_a_sourced_fact_is_refused(
    change: Callable[[dict[str, Any]], object], field: str
) -> None:
    data = _deck()
    change(data)
    with pytest.raises(ContentError, match=field):
        parse_deck(data)


def test_the_house_deck_keeps_every_sourced_fact() -> None:
    deck = parse_deck(_deck())
    assert {c.value for c in deck.corporations} == {8, 12, 16, 20, 24}
    assert deck.set_values == {2: 16, 3: 32, 4: 64}


def test_a_deck_file_that_is_not_text_is_a_content_error(tmp_path: Path) -> None:
    path = tmp_path / "deck.bin"
    path.write_bytes(b"\xff\xfe\x00\x81")
    with pytest.raises(ContentError, match="not UTF-8"):
        read_json_file(path, "deck file")
    with pytest.raises(OptionError, match="option deck must name a content set"):
        GAME.new_state(3, 1, {"deck": str(path)})
