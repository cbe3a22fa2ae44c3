"""The glossary's drawn parts (PARTS in static/glossary.js) of I'm the Boss! and Venus Needs Men!: every
rule term named there is in the game's glossary, and every selector names classes and data attributes
the game's drawing writes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from parlour.core.registry import load_game
from parlour.tutorials.glossary import glossary_json

STATIC = Path(__file__).resolve().parents[2] / "parlour" / "server" / "static"


def named_parts(game: str) -> list[tuple[str, str]]:
    """The game's ``['selector', "Term"]`` entries (an entry naming its term by a function is left out)."""
    text = (STATIC / "glossary.js").read_text(encoding="utf-8")
    block = re.search(rf'"{game}": \[\n(.*?)\n    \],', text, re.DOTALL)
    assert block, f"no PARTS block for {game}"
    return re.findall(r"\['([^']+)', \"([^\"]+)\"\]", block.group(1))


@pytest.mark.parametrize("game", ["im-the-boss", "venus-needs-men"])
def test_the_drawn_parts_name_glossary_terms_the_drawing_shows(game: str) -> None:
    parts = named_parts(game)
    assert len(parts) >= 15
    terms = glossary_json(load_game(game))["terms"]
    drawing = (STATIC / "games" / f"{game}.js").read_text(encoding="utf-8")
    for selector, term in parts:
        assert term in terms and terms[term]["kind"] == "rule", f"{term!r} is not a rule term of {game}"
        for name in re.findall(r"\.([\w-]+)", selector):
            assert name in drawing, f"class {name!r} of {selector!r} is not in the drawing"
        for attribute in re.findall(r"\[([\w-]+)", selector):
            assert attribute in drawing, f"{attribute!r} of {selector!r} is not in the drawing"
        for value in re.findall(r'="([^"]+)"', selector):
            assert f'"{value}"' in drawing, f"{value!r} of {selector!r} is not in the drawing"
