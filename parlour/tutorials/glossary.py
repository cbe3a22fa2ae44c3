"""The glossary of a game's drawn table: each card's text from the content data, each rule term's from the
game's ``glossary.json`` with a rulebook sentence; the JSON form a server serves for hover and tap."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NotRequired, TypedDict

from parlour.core.game import Game
from parlour.tutorials.files import GLOSSARY, data_file, read_data
from parlour.tutorials.format import MAX_LIST, Quote, TutorialError, read_quote, read_text, read_word

FORMAT = "parlour-glossary/1"
CARD = "card"
RULE = "rule"


@dataclass(frozen=True)
class Entry:
    """One term: what it is, in a sentence or two, and for a rule term the rulebook sentence behind it."""

    term: str
    kind: str
    """``card`` (from the content data) or ``rule`` (from the glossary file)."""
    text: str
    quote: Quote | None = None


class QuoteJSON(TypedDict):
    """A rulebook sentence as the glossary's JSON gives it."""

    section: str
    text: str


class TermJSON(TypedDict):
    """One term as the glossary's JSON gives it (``quote``: rule terms only)."""

    kind: str
    text: str
    quote: NotRequired[QuoteJSON]


class GlossaryJSON(TypedDict):
    """The glossary a server serves for hover and tap: the game and its terms."""

    game: str
    terms: dict[str, TermJSON]


def glossary(game: Game, options: dict[str, object] | None = None) -> dict[str, Entry]:
    """Returns every term of the game's table: the rule terms of its glossary file, then its cards."""
    entries = {entry.term: entry for entry in rule_terms(game)}
    state = game.new_state(game.min_players, 0, options or {})
    for name, text in state.card_texts().items():
        entries.setdefault(name, Entry(name, CARD, text))
    return entries


def rule_terms(game: Game) -> list[Entry]:
    """Returns the rule terms of the game's glossary file (none when it has no file)."""
    if not data_file(game, GLOSSARY).is_file():
        return []
    return read_glossary(read_data(game, GLOSSARY), game.name)


def read_glossary(data: object, game: str) -> list[Entry]:
    """Reads a glossary file, refusing anything malformed in one line naming the term."""
    if not isinstance(data, dict) or set(data) != {"format", "game", "terms"}:
        raise TutorialError("a glossary is an object of 'format', 'game' and 'terms'")
    if data["format"] != FORMAT or data["game"] != game:
        raise TutorialError(f"the glossary must be {FORMAT!r} for {game!r}")
    terms = data["terms"]
    if not isinstance(terms, list) or len(terms) > MAX_LIST:
        raise TutorialError(f"terms: a list of at most {MAX_LIST} terms")
    entries: list[Entry] = []
    for number, item in enumerate(terms, 1):
        try:
            if not isinstance(item, dict) or set(item) != {"term", "text", "quote"}:
                raise TutorialError("must have exactly 'term', 'text' and 'quote'")
            entries.append(
                Entry(
                    read_word(item["term"], "term"),
                    RULE,
                    read_text(item["text"], "text"),
                    read_quote(item["quote"]),
                )
            )
        except TutorialError as err:
            raise TutorialError(f"glossary term {number}: {err}") from None
    return entries


def glossary_json(game: Game, options: dict[str, object] | None = None) -> GlossaryJSON:
    """Returns the glossary as JSON: ``{"game", "terms": {term: {"kind", "text", "quote"?}}}``."""
    terms: dict[str, TermJSON] = {}
    for term, entry in glossary(game, options).items():
        value: TermJSON = {"kind": entry.kind, "text": entry.text}
        if entry.quote is not None:
            value["quote"] = {"section": entry.quote.section, "text": entry.quote.text}
        terms[term] = value
    return {"game": game.name, "terms": terms}
