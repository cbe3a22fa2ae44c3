"""The learn page and the glossary in Chromium: Venture's tutorial walked in the browser (the intended
action moves on, a wrong legal one is answered with what the tutorial wanted, the step's highlight on
the element it names), a reload resumes, a phone's width; a card of the drawn table explains itself on
hover and on tap (the learn page and a table's page); the lobby links the tutorial; no console error."""

from __future__ import annotations

from typing import Any

import pytest

from parlour.tutorials.engine import shipped_script

from .browsing import LAPTOP, PHONE, needs_chromium, screenshot
from .live_server import LiveServer

pytestmark = [needs_chromium, pytest.mark.slow]


def watch(page: Any) -> list[str]:
    """Collects the page's console errors."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda err: errors.append(str(err)))
    return errors


def at_step(page: Any, number: int) -> None:
    """Waits until the page shows step ``number``, drawn."""
    page.wait_for_selector(f"body[data-step='{number}']")
    page.wait_for_selector("#board .vt")


def take(page: Any, action: str) -> None:
    """Plays an action on the learn page: by its button, else typed in the notation box."""
    button = page.locator(f"#actions button[data-action='{action}']")
    if button.count():
        button.click()
    else:
        page.fill("#notation-input", action)
        page.press("#notation-input", "Enter")


def test_venture_tutorial_walked_in_the_browser(server: LiveServer, browser: Any) -> None:
    steps = shipped_script("venture").steps
    page = browser.new_page(viewport=LAPTOP)
    errors = watch(page)
    page.goto(server.url + "/")
    page.click("a[data-learn='venture']")
    at_step(page, 1)
    assert page.text_content("#learn-title") == steps[0].title
    assert page.text_content("#learn-quote-text") == f"“{steps[0].quote.text}”"
    assert steps[0].quote.section in page.text_content("#learn-quote-section")
    # The step's highlight is on the element it names.
    for selector in steps[0].highlight:
        assert page.eval_on_selector_all(
            f"#board {selector}", "ns => ns.every(n => n.classList.contains('learn-highlight'))"
        )
        assert page.locator(f"#board {selector}").count() > 0
    screenshot(page, "learn-venture")
    # A wrong legal action: the tutorial wanted another one; the step stays.
    legal = page.eval_on_selector_all("#actions button[data-action]", "bs => bs.map(b => b.dataset.action)")
    wrong = next(t for t in legal if t not in steps[0].intended)
    page.click(f"#actions button[data-action='{wrong}']")
    page.wait_for_selector("#learn-answer[data-answer='wanted']")
    assert steps[0].intended[0] in page.text_content("#learn-answer")
    assert page.get_attribute("body", "data-step") == "1"
    # An illegal typed action: the engine's reason.
    page.fill("#notation-input", "take ZZ-AB")
    page.press("#notation-input", "Enter")
    page.wait_for_selector("#learn-answer[data-answer='illegal'], #learn-answer[data-answer='unreadable']")
    # The intended action, clicked on the drawn table: moved on.
    name = steps[0].intended[0].split()[1]
    page.click(f"#board .vt-center [data-corp='{name}']")
    at_step(page, 2)
    assert page.get_attribute("#learn-answer", "data-answer") == "moved"
    assert page.text_content("#learn-title") == steps[1].title
    # The next ones by their buttons, then a reload resumes where the learner was.
    for number in (2, 3):
        take(page, steps[number - 1].intended[0])
        at_step(page, number + 1)
    page.reload()
    at_step(page, 4)
    assert page.text_content("#learn-title") == steps[3].title
    # Hint: the action wanted.
    page.click("#learn-hint")
    page.wait_for_selector("#learn-hints:not([hidden]) li")
    assert steps[3].intended[0] in page.text_content("#learn-hints")
    # Start again.
    page.click("#learn-restart")
    at_step(page, 1)
    assert errors == [], errors


def test_the_learn_page_on_a_phone(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport=PHONE)
    errors = watch(page)
    page.goto(server.url + "/learn/venture")
    at_step(page, 1)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, f"the page is {width} px wide"
    screenshot(page, "learn-venture-phone")
    first = shipped_script("venture").steps[0].intended[0]
    take(page, first)
    at_step(page, 2)
    assert errors == [], errors


def test_a_card_explains_itself_on_hover_and_tap(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport=LAPTOP)
    errors = watch(page)
    page.goto(server.url + "/learn/venture")
    at_step(page, 1)
    page.wait_for_selector("#board[data-glossary='venture'] [data-term]")
    # Hover: the title of a card is its glossary text.
    card = page.locator("#board .vt-hand [data-card]").first
    term = card.get_attribute("data-term")
    text = page.evaluate("t => ParlourGlossary.terms('venture')[t].text", term)
    assert term and card.get_attribute("title") == text
    card.hover()
    # Tap, with "Explain" on: the popover with the term and its text; the card (a discard now) plays nothing.
    page.click("header .explain-toggle")
    card.click()
    page.wait_for_selector("#term-pop:not([hidden])")
    assert page.text_content("#term-pop h3") == term
    assert page.text_content("#term-pop p") == text
    assert page.get_attribute("body", "data-step") == "1"
    page.keyboard.press("Escape")
    page.wait_for_selector("#term-pop", state="hidden")
    page.click("header .explain-toggle")
    # A rule term: the stock, with its rulebook sentence.
    page.click("#board [data-field='stock']")
    page.wait_for_selector("#term-pop:not([hidden]) blockquote")
    assert page.text_content("#term-pop h3") == "Stock" and "Rulebook" in page.text_content("#term-pop cite")
    screenshot(page, "learn-venture-glossary")
    # A clickable card plays when tapped; a long press (the context menu) explains it.
    page.click("#board .vt-center [data-corp]", button="right")
    page.wait_for_selector("#term-pop:not([hidden])")
    assert page.get_attribute("body", "data-step") == "1"
    assert errors == [], errors


def test_the_glossary_on_a_tables_drawing(server: LiveServer, browser: Any) -> None:
    made = server.create("venture", ["human", "random"])
    page = browser.new_page(viewport=LAPTOP)
    errors = watch(page)
    page.goto(server.url + made["seats"]["0"])
    page.wait_for_selector("#board[data-glossary='venture'] [data-corp][data-term]")
    check_glossary(page, "deck", "Drawing deck")
    assert errors == [], errors


def check_glossary(page: Any, field: str, heading: str) -> None:
    """A drawn Venture table's corporation carries its glossary text as its title, and a click on the
    drawn part ``field`` opens the glossary's popover titled ``heading``."""
    # Read in one go: at a live table a bot's move may redraw the board between two reads.
    title, text = page.evaluate(
        """() => { const corp = document.querySelector('#board [data-corp][data-term]');
                   const term = ParlourGlossary.terms('venture')[corp.dataset.term];
                   return [corp.getAttribute('title'), term.text]; }"""
    )
    assert title == text
    page.click(f"#board [data-field='{field}']")
    page.wait_for_selector("#term-pop:not([hidden])")
    assert page.text_content("#term-pop h3") == heading


def test_the_closing_game_at_a_table_with_hints(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport=LAPTOP)
    errors = watch(page)
    total = len(shipped_script("venture").steps)
    page.goto(server.url + "/learn/venture")
    at_step(page, 1)
    page.evaluate(
        f"() => localStorage.setItem('parlour.learn.venture', JSON.stringify(Array({total}).fill(0)))"
    )
    page.reload()
    page.wait_for_selector("body[data-step='final']")
    page.click("#learn-play")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#banner:not(:empty)")
    page.wait_for_selector("#banner.asked")
    page.click("#hint-button")
    page.wait_for_selector("#hint-lines li")
    assert "greedy bot would play" in page.text_content("#hint-lines")
    screenshot(page, "learn-venture-table-hint")
    assert errors == [], errors


def test_the_glossary_on_the_replay(server: LiveServer, browser: Any) -> None:
    from .test_replay_viewer import finished_table

    table, moves = finished_table(server, "venture")
    page = browser.new_page(viewport=LAPTOP)
    errors = watch(page)
    page.goto(f"{server.url}/t/{table}")
    drawn = f"#board[data-replay='{moves}'][data-glossary='venture'] [data-corp][data-term]"
    page.wait_for_selector(drawn, timeout=90_000)  # a whole game replayed first: slow on a busy machine
    check_glossary(page, "stock", "Stock")
    assert errors == [], errors


def test_every_step_drawn_and_outlined_in_the_browser(server: LiveServer, browser: Any) -> None:
    """The whole of Venture's tutorial played in the page (buttons, else typed): every step drawn by the
    game's drawing, its highlight outlining at least one element, no console error; then the closing
    game's introduction."""
    steps = shipped_script("venture").steps
    page = browser.new_page(viewport=LAPTOP)
    errors = watch(page)
    page.goto(server.url + "/learn/venture")
    missing = []
    for step in steps:
        at_step(page, step.number)
        outlined = page.locator("#board .learn-highlight").count()
        if step.id in ("proxy-half", "reorganise"):
            screenshot(page, f"learn-venture-step-{step.number}")
        if step.highlight and not outlined:
            missing.append(f"step {step.number} ({step.id}): {step.highlight}")
        take(page, step.intended[0])
    page.wait_for_selector("body[data-step='final']")
    assert page.is_visible("#learn-play")
    assert not missing, missing
    assert errors == [], errors


def test_the_glossary_on_im_the_boss_table(server: LiveServer, browser: Any) -> None:
    made = server.create("im-the-boss", ["human", "random", "random"], options={"length": "short"})
    page = browser.new_page(viewport=LAPTOP)
    errors = watch(page)
    page.goto(server.url + made["seats"]["0"])
    cards = "#board[data-glossary='im-the-boss'] [data-part^='card-'][data-term]"
    page.wait_for_selector(cards)
    # Read in one go: the bots play on, and a redraw between two reads may put another card first.
    term, part, title, text = page.evaluate(
        """cards => { const card = document.querySelector(cards);
                      return [card.dataset.term, card.dataset.part, card.getAttribute('title'),
                              ParlourGlossary.terms('im-the-boss')[card.dataset.term].text]; }""",
        cards,
    )
    assert part == f"card-{term}"
    assert title == text
    assert errors == [], errors


@pytest.mark.parametrize("game", ["venture", "im-the-boss", "venus-needs-men"])
def test_each_tutorials_first_step_is_drawn_with_its_highlight(
    server: LiveServer, browser: Any, game: str
) -> None:
    page = browser.new_page(viewport=LAPTOP)
    errors = watch(page)
    page.goto(f"{server.url}/learn/{game}")
    page.wait_for_selector("body[data-step='1']")
    page.wait_for_selector("#board .learn-highlight", state="attached")
    assert page.text_content("#error") == ""
    assert errors == [], errors
