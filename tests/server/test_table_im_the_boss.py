"""I'm the Boss!'s drawn table in a real Chromium (Playwright), played by clicking only on the drawing:
a person makes a deal, accepts the bots' offers, calls ("going once, going twice", the countdown shown
to everyone) and closes it; then a bot takes the seat and the bots finish the game."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .browsing import LAPTOP, PHONE, board_fits, needs_chromium, open_seat, screenshot, wait_for_results
from .live_server import LiveServer

pytestmark = [needs_chromium, pytest.mark.slow]

OPTIONS = {"length": "short", "max_turns": 30}
"""A short game, and at most 30 turns (ruling B-3: then money decides): three greedy bots can fail deal
after deal (one seat refusing every offer), and a 200-turn game of them took ten minutes to finish here."""
HOT = "#board [data-actions]"

# Records every closing-round countdown the drawing ever showed (it lasts only as long as the bots
# take to answer), so that the test can tell it was drawn.
WATCH_CLOSING = """() => {
  window.sawClosing = [];
  new MutationObserver(() => {
    const box = document.querySelector('#board .itb-countdown.closing');
    if (box) window.sawClosing.push(box.textContent);
  }).observe(document.getElementById('board'), { childList: true, subtree: true });
}"""


def choose(view: dict[str, Any]) -> str:
    """Returns the test player's move: call when covered, accept the cheapest offer it still needs,
    make the deal, agree, otherwise pass (or fail, or the first legal move)."""
    legal: list[str] = view["legal"]
    nego = view["observation"]["negotiation"]
    if "call" in legal:
        return "call"
    if nego is not None:
        agreed = {c for c, t in nego["terms"].items() if t[2]}
        asks = {(c, s): a for c, s, a in nego["offers"]}
        accepts = [t for t in legal if t.startswith("accept ") and t.split()[1] not in agreed]
        if accepts:
            return min(accepts, key=lambda t: asks[(t.split()[1], int(t.split()[2][1:]))])
    for text in ("deal", "agree", "pass", "fail"):
        if text in legal:
            return text
    return legal[0]


def hot_index(page: Any, text: str) -> tuple[int, int]:
    """Returns the drawn part that plays ``text`` (the one offering only it, if any) and how many
    choices it offers; (-1, 0) if no part offers it."""
    found: list[int] = page.evaluate(
        """t => { const nodes = [...document.querySelectorAll('#board [data-actions]')];
                  const lists = nodes.map(n => n.dataset.actions.split('|'));
                  let i = lists.findIndex(l => l.length === 1 && l[0] === t);
                  if (i < 0) i = lists.findIndex(l => l.includes(t));
                  return [i, i < 0 ? 0 : lists[i].length]; }""",
        text,
    )
    return found[0], found[1]


def click(page: Any, text: str) -> None:
    """Plays ``text`` by clicking the drawn part that offers it, then its menu entry if it has several."""
    index, choices = hot_index(page, text)
    assert index >= 0, f"nothing drawn plays {text!r}"
    page.locator(HOT).nth(index).click()
    if choices > 1:
        page.click(f"#board-menu button[data-action='{text}']")


def press(page: Any, text: str) -> None:
    """Plays ``text`` with the keyboard only: Tab to the drawn part, Enter (and the same in its menu)."""
    index, choices = hot_index(page, text)
    assert index >= 0, f"nothing drawn plays {text!r}"
    target = page.locator(HOT).nth(index)
    for _ in range(300):
        page.keyboard.press("Tab")
        if target.evaluate("n => n === document.activeElement"):
            break
    else:
        raise AssertionError(f"Tab never reached the part that plays {text!r}")
    page.keyboard.press("Enter")
    if choices > 1:
        for _ in range(60):
            if page.evaluate("t => document.activeElement.dataset.action === t", text):
                break
            page.keyboard.press("Tab")
        page.keyboard.press("Enter")


def page_moved(page: Any, version: int) -> bool:
    """Tells whether the drawing already shows a later version than ``version``."""
    return bool(page.evaluate("v => Number(document.body.dataset.version) > v", version))


def drawn_actions(page: Any) -> set[str]:
    """Returns every legal text some drawn part or bar button offers."""
    found: list[str] = page.evaluate(
        f"() => [...document.querySelectorAll('{HOT}')].flatMap(n => n.dataset.actions.split('|'))"
    )
    return set(found)


def test_a_deal_closed_through_negotiation_with_bots_by_clicking_then_bots_finish(
    server: LiveServer, browser: Any
) -> None:
    made = server.create("im-the-boss", ["human", "greedy", "greedy"], options=OPTIONS)
    token = made["seats"]["0"].split("#k=")[1]
    path = f"/api/tables/{made['table']}"
    page = open_seat(browser, server.url + made["seats"]["0"], LAPTOP)
    page.wait_for_selector("#board .itb")
    page.evaluate(WATCH_CLOSING)
    phone = open_seat(browser, server.url + made["spectator"], PHONE)
    phone.wait_for_selector("#board .itb")
    screenshot(page, "im-the-boss-start")
    assert board_fits(page), "the table fits a 1366 x 768 window without scrolling"
    keyboard, mid, closed = False, False, None
    end = time.time() + 45
    while closed is None:
        assert time.time() < end, "no deal with the person as the Boss closed in time"
        view = server.get(path, token)
        assert not view["over"], "the game ended before the person closed a deal"
        mine = [d for d in view["observation"]["deals"] if d["boss"] == 0]
        if mine:
            closed = mine[0]
            break
        page_version = int(page.evaluate("() => Number(document.body.dataset.version)"))
        # A pass the table makes for the person (auto-pass: ask.passes_for) is the table's: clicking
        # it would race the table.
        mine_to_make = view["asked"] and view["deciders"] == [0] and not view["answered_for_you"]
        if not mine_to_make or page_version != view["version"]:
            time.sleep(0.05)
            continue
        assert drawn_actions(page) <= set(view["legal"]), "the drawing offers only the server's legal texts"
        text = choose(view)
        if text == "call" and not mid:
            assert board_fits(page)
            assert page.locator("#board .itb-offer, #board .itb-line.agreed").count() > 0
            screenshot(page, "im-the-boss-mid")
            phone.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=view["version"])
            screenshot(phone, "im-the-boss-phone")
            assert phone.evaluate("() => document.documentElement.scrollWidth <= innerWidth + 1")
            mid = True
        if hot_index(page, text)[0] < 0 and page_moved(page, view["version"]):
            continue  # the window timed out (auto-pass) between the server's view and the drawing's
        if keyboard:
            click(page, text)
        else:
            press(page, text)
            keyboard = True
        page.wait_for_function(  # the page's default wait: 10 s could run out on a busy machine
            "v => Number(document.body.dataset.version) > v || document.getElementById('error').textContent",
            arg=view["version"],
        )
    assert mid, "the person called the deal from the drawing"
    page.wait_for_selector(f"#board [data-part='space-{closed['space']}'].covered")
    assert any("Going once, going twice" in text for text in page.evaluate("() => window.sawClosing"))
    assert page.locator("#board .itb-hand .itb-card").count() > 0  # the person's own cards, face up
    assert phone.locator("#board .itb-hand .itb-card").count() == 0  # a spectator sees no hand
    page.click("#hand-to-bot")
    wait_for_results(page)
    assert "Winner" in page.text_content("#results")
    assert page.locator("#board .itb-verb").count() == 0  # nothing left to do on the drawing
    screenshot(page, "im-the-boss-end")
