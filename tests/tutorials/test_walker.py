"""The walker's own checks find what they look for (so a passing walk means something)."""

from __future__ import annotations

from parlour.tutorials.engine import Tutorial
from tutorials.walker import content_names, highlight_problem, named_in, quote_problem, seen_names

BOOK = "Title\nThe Play\nA player draws two cards.\nThe End\nThe game ends."
SOURCE = (
    'api.el("div", { class: "vt-center" }); const c = `vt-player${mine ? " vt-me" : ""}`; '
    'api.el("span", { "data-field": "deck" }); { "data-corp": name }; '
    'svg("g", { class: `itb-space${open ? " open" : ""}` }); node.setAttribute("data-part", part); '
    'hot(ctx, g, `space-${number}`); mark(ctx, node, "stack")'
)


def test_quotes_must_be_verbatim_and_after_their_section() -> None:
    assert quote_problem(BOOK, "The Play", "A player draws two cards.") == ""
    assert "not verbatim" in quote_problem(BOOK, "The Play", "A player draws three cards.")
    assert "not a line" in quote_problem(BOOK, "Play", "A player draws two cards.")
    assert "comes before" in quote_problem(BOOK, "The End", "A player draws two cards.")


def test_highlights_must_name_what_the_drawing_has() -> None:
    visible = {"RR-CD"}
    assert highlight_problem(SOURCE, ".vt-center", visible) == ""
    assert highlight_problem(SOURCE, '.vt-me [data-field="deck"]', visible) == ""
    assert highlight_problem(SOURCE, '[data-corp="RR-CD"]', visible) == ""
    assert "no class" in highlight_problem(SOURCE, ".vt-nowhere", visible)
    assert "writes no" in highlight_problem(SOURCE, '[data-field="hand"]', visible)
    assert "not on the learner's table" in highlight_problem(SOURCE, '[data-corp="SH-F"]', visible)
    assert "not a selector" in highlight_problem(SOURCE, "div > p", visible)


def test_classes_and_parts_composed_in_templates_are_found() -> None:
    visible = {"4"}
    assert highlight_problem(SOURCE, ".itb-space.open", visible) == ""
    assert "no class" in highlight_problem(SOURCE, ".itb-spa", visible)
    assert highlight_problem(SOURCE, '[data-part="stack"]', visible) == ""
    assert highlight_problem(SOURCE, '[data-part="space-4"]', visible) == ""
    assert "not on the learner's table" in highlight_problem(SOURCE, '[data-part="space-5"]', visible)
    assert "composes no" in highlight_problem(SOURCE, '[data-part="placard-R"]', visible)
    assert "composes no" in highlight_problem(SOURCE, '[data-part="deal"]', visible)


def test_names_are_found_as_whole_words_only() -> None:
    names = ["RR-CD", "RR-C", "x1", "x1/2", "3c"]
    assert named_in("take RR-CD with x1/2, then 3c.", names) == ["RR-CD", "x1/2", "3c"]


def test_content_names_leave_out_amounts_and_words() -> None:
    class Fake:
        def card_texts(self) -> dict[str, str]:
            return {"10": "", "profit": "", "ST-A": "", "x1/2": ""}

    assert content_names(Fake()) == ["ST-A", "x1/2"]  # type: ignore[arg-type]


def test_a_name_of_several_words_is_seen_where_the_table_says_it() -> None:
    class Table:
        def card_texts(self) -> dict[str, str]:
            return {"deal card 1": "", "deal card 2": "", "clan:G": "", "clan:M": ""}

        def observation(self, seat: int) -> dict[str, object]:
            return {"hand": ["clan:G"], "deal_cards": [1, 2]}

        def render(self, seat: int) -> str:
            return "Deal card 1 on top: 2 million a dividend.\n >[ 4] R O"

    seen = seen_names(Table(), 0)  # type: ignore[arg-type]
    assert {"deal card 1", "clan:G", "4"} <= seen
    assert "deal card 2" not in seen and "clan:M" not in seen


def test_a_name_of_several_words_is_seen_only_as_the_table_writes_it() -> None:
    class Fake:
        def card_texts(self) -> dict[str, str]:
            return {name: "" for name in ("Deflector Shield", "Evasive Maneuvers", "Gatling Lasers")}

        def observation(self, seat: int) -> dict[str, object]:
            return {"hand": [10, 25], "areas": ["china"]}

        def render(self, seat: int) -> str:
            return (
                "Zap discards: Mars 11\nYour Zap hand: 10 Deflector Shield · 25 Targeting Computer\n"
                "Face-up Upgrades: gatling (Gatling\n    Lasers 5+)"
            )

    seen = seen_names(Fake(), 0)  # type: ignore[arg-type]
    assert {"Deflector Shield", "Targeting Computer", "Gatling Lasers", "china", "10"} <= seen
    assert "Evasive Maneuvers" not in seen and "Shield Targeting" not in seen


def test_on_venus_table_the_hand_is_seen_by_name_and_the_other_cards_are_not() -> None:
    tutorial = Tutorial.load("venus-needs-men")
    tutorial.start()
    state = tutorial.current()
    seen = seen_names(state, tutorial.learner)
    names = content_names(state)
    said = named_in("Play Deflector Shield, not Sabotage; the Q-Ray is the Enhanced game's.", names)
    assert said == ["Deflector Shield", "Q-Ray", "Sabotage"]
    assert [name for name in said if name not in seen] == ["Q-Ray", "Sabotage"]
