"""The glossary data: every card of the content data and the rule terms, with verbatim rulebook sentences."""

from __future__ import annotations

import json

import pytest

from parlour.core.registry import game_names, load_game
from parlour.tutorials.files import GLOSSARY, data_file
from parlour.tutorials.format import TutorialError
from parlour.tutorials.glossary import CARD, RULE, glossary, glossary_json, read_glossary
from tutorials.walker import quote_problem, rulebook

GAME = load_game("venture")
WITH_GLOSSARY = [name for name in game_names() if data_file(load_game(name), GLOSSARY).is_file()]
"""The games that ship a glossary file (others' files are covered when they land)."""


def test_every_card_and_the_rule_terms_explain_themselves() -> None:
    terms = glossary(GAME)
    state = GAME.new_state(2, 0)
    for name, text in state.card_texts().items():
        assert terms[name].kind == CARD and terms[name].text == text
    rules = [e for e in terms.values() if e.kind == RULE]
    assert {"Conglomerate", "Set", "Proxy Fight card", "Profit card", "Reorganisation", "Stock"} <= {
        e.term for e in rules
    }
    assert terms["RR-CD"].text.startswith("Railroads corporation, letters C, D, worth 12 million")


def test_every_game_with_a_tutorial_has_a_glossary() -> None:
    assert {"venture", "im-the-boss", "venus-needs-men"} <= set(WITH_GLOSSARY)


@pytest.mark.parametrize("name", WITH_GLOSSARY)
def test_rule_terms_quote_the_rulebook_verbatim(name: str) -> None:
    book = rulebook(name)
    if book is None:
        pytest.skip("the rulebooks are not beside the checkout")
    rules = [e for e in glossary(load_game(name)).values() if e.kind == RULE]
    assert rules and all(e.quote is not None for e in rules)
    for entry in rules:
        if entry.quote is not None:
            assert not quote_problem(book, entry.quote.section, entry.quote.text), entry.term


@pytest.mark.parametrize("name", WITH_GLOSSARY)
def test_every_card_keeps_its_own_text_and_no_rule_term_hides_one(name: str) -> None:
    game = load_game(name)
    cards = game.new_state(game.min_players, 0).card_texts()
    terms = glossary(game)
    assert not [e.term for e in terms.values() if e.kind == RULE and e.term in cards]
    assert all(terms[card].kind == CARD and terms[card].text == text for card, text in cards.items())


def test_venus_needs_men_explains_its_table_and_every_zap_and_technology_card() -> None:
    game = load_game("venus-needs-men")
    terms = glossary(game, {"game": "enhanced"})
    rules = {e.term for e in terms.values() if e.kind == RULE}
    assert {
        "Orbit",
        "Zap window",
        "Extension",
        "Priority",
        "Population needed",
        "Defense",
        "Research",
    } <= rules
    for card in ("Deflector Shield", "Sabotage", "Time Dilation", "Q-Ray", "Gatling Lasers", "Alluring"):
        assert terms[card].kind == CARD, card
    assert terms["Deflector Shield"].text.startswith("Zap cards 10, 23, 33")
    assert "revised card sheet" in terms["Q-Ray"].text


def test_the_json_form_is_what_a_server_serves() -> None:
    data = glossary_json(GAME)
    assert json.loads(json.dumps(data)) == data
    assert data["game"] == "venture"
    assert data["terms"]["Set"]["kind"] == "rule" and "quote" in data["terms"]["Set"]
    assert data["terms"]["x1/2"] == {"kind": "card", "text": glossary(GAME)["x1/2"].text}


def test_a_games_without_a_glossary_file_still_has_its_cards() -> None:
    terms = glossary(load_game("embers"))
    assert terms and all(e.kind == CARD for e in terms.values())


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ([], "a glossary is an object of 'format', 'game' and 'terms'"),
        ({"format": "parlour-glossary/1", "game": "embers", "terms": []}, "the glossary must be"),
        (
            {"format": "parlour-glossary/1", "game": "venture", "terms": [{"term": "x"}]},
            "glossary term 1: must",
        ),
        (
            {
                "format": "parlour-glossary/1",
                "game": "venture",
                "terms": [{"term": "", "text": "t", "quote": {"section": "s", "text": "q"}}],
            },
            "glossary term 1: term: must be a non-empty line",
        ),
    ],
)
def test_a_malformed_glossary_is_refused(data: object, expected: str) -> None:
    with pytest.raises(TutorialError, match="^" + expected.replace("(", r"\(")):
        read_glossary(data, "venture")
