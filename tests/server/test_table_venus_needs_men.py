"""Venus Needs Men!'s drawn table in a real Chromium (Playwright), by clicking on the drawing only: a move
(ship, then a highlighted area), an attack with its dice shown, a Zap card played out of turn, in the Basic
and the Enhanced game; one action by keyboard; then a bot takes the seat and the bots finish."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from .browsing import (
    LAPTOP,
    PHONE,
    board_fits,
    needs_chromium,
    open_seat,
    screenshot,
    version,
    wait_for_results,
    wait_past,
)
from .live_server import LiveServer

pytestmark = [needs_chromium, pytest.mark.slow]

GAME = "venus-needs-men"
MAP = json.loads((Path(__file__).parents[2] / "parlour/games/venus_needs_men/data/map.json").read_text())
ZAP = json.loads((Path(__file__).parents[2] / "parlour/games/venus_needs_men/data/zap.json").read_text())
ANY_TIME = {card["number"] for card in ZAP["cards"] if card["timing"] == "any"}
"""The Zap cards playable in any window (others' turns too); the person discards the rest to extend."""
NEAR = {area["id"]: area["neighbours"] for area in MAP["areas"]}


def steps_to_orbit() -> dict[str, float]:
    """Returns each area's distance from Orbit along the map's lines (Earth's areas: a half, inside)."""
    found = {a["id"]: 0.5 for a in MAP["areas"] if a["kind"] in ("land", "ocean")}
    found[MAP_ORBIT] = 0.0
    todo = [MAP_ORBIT]
    while todo:
        here = todo.pop(0)
        for there in NEAR[here]:
            if there not in found:
                found[there] = found[here] + 1
                todo.append(there)
    return found


MAP_ORBIT = "orbit"
DISTANCE = steps_to_orbit()
"""Where the person's ships head: Orbit (every Earth area in range)."""


ROLL_AND_DICE = """() => [
    [...document.querySelectorAll('#board .vnm-roll')].map(n => n.textContent).join(' '),
    [...document.querySelectorAll('#board .vnm-dice .die')].map(d => d.textContent),
]"""
"""Reads the drawing's roll text and its dice in one go."""


class Seat:
    """The person's seat at a table: its page, the server and what it has done through the drawing."""

    def __init__(self, server: LiveServer, made: dict[str, Any], page: Any) -> None:
        self.server, self.made, self.page = server, made, page
        self.token = made["seats"]["0"].split("#k=")[1]
        self.done: dict[str, str] = {}

    def table(self) -> dict[str, Any]:
        found: dict[str, Any] = self.server.get(f"/api/tables/{self.made['table']}", self.token)
        return found

    def wait_asked(self, timeout: float = 20.0) -> dict[str, Any] | None:
        """Waits until the seat is asked (the page shows it); returns the table, None if the game ended."""
        end = time.time() + timeout
        while time.time() < end:
            table = self.table()
            if table["over"]:
                return None
            # A pass alone is the table's to make (auto-pass is on): clicking it would race the table.
            alone = table["legal"] == ["pass"]
            if table["asked"] and table["legal"] and not alone and version(self.page) >= table["version"]:
                return table
            time.sleep(0.05)
        raise AssertionError("the person was not asked in time")

    def click(self, selector: str) -> None:
        self.page.locator(selector).first.click()

    def play(self, table: dict[str, Any]) -> None:
        """Makes one decision by clicking the drawing: a Zap card out of turn, an attack, a move, else
        a move toward Orbit, done, end or pass."""
        legal: list[str] = table["legal"]
        seen = version(self.page)
        obs = table["observation"]
        mine = obs["active"] in [p for p, s in obs["seat_of"].items() if s == 0]
        zaps = [t for t in legal if t.startswith("zap ")]
        attacks = [t for t in legal if t.startswith("attack ") and len(t.split()) == 3]
        moves = [t for t in legal if t.startswith("move ")]
        if zaps and not mine and "zap" not in self.done:
            text = zaps[0]
            words = text.split()
            self.click(f"#board .vnm-zap[data-card='{words[1]}']")
            if len(words) == 3:
                target = words[2]
                if target[0].isupper():
                    self.click(f"#board .ship[data-ship='{target}']")
                else:
                    self.click(f"#board .area-g.reach[data-area='{self.home(target)}'] .hit")
            self.done["zap"] = text
        elif attacks and "attack" not in self.done:
            self.attack(attacks[0])
            self.done["attack"] = attacks[0]
        elif moves and (choice := self.move_choice(moves, obs["ships"])):
            self.move(choice, moves)
        elif spare := [t for t in legal if t.startswith("extend ") and int(t.split()[1]) not in ANY_TIME]:
            self.click(f"#board .vnm-zap[data-card='{spare[0].split()[1]}']")  # room for a card to zap with
            self.choose_in_menu(spare[0])
        elif "build" in legal and mine:
            self.click(f"#board .area-g.open[data-area='{self.home(obs['active'])}'] .hit")  # the home world
        elif verbs := [v for v in ("done", "end", "pass") if v in legal]:
            self.click(f"#board .vnm-bar button[data-action='{verbs[0]}']")
        elif attacks:  # an extra step that must attack
            self.attack(attacks[0])
        elif moves:  # an extra step that must move: any move
            self.move(moves[0], moves)
        elif collects := [t for t in legal if t.startswith("collect ")]:
            ship = collects[0].split()[1]
            self.click(f"#board .ship[data-ship='{ship}']")
            self.click("#board .area-g.reach .hit")
            self.choose_in_menu(collects[0])
        else:
            self.other(legal[0])
        wait_past(self.page, seen)

    def other(self, text: str) -> None:
        """Plays a step the policy above does not aim at, through its component."""
        verb, *words = text.split()
        if verb == "build":  # an extra or immediate build names the area
            self.click(f"#board .area-g.open[data-area='{words[0]}'] .hit")
        elif verb in ("research", "cycle"):
            self.click(f"#board .vnm-research [data-upgrade='{words[0]}']")
        elif verb in ("release", "infect", "purge"):
            self.click(f"#board .ship[data-ship='{words[0]}']")
            if not self.page.locator("#board-menu").is_visible():
                self.click(f"#board .vnm-bar button[data-action='{text}']")
        else:
            raise AssertionError(f"no way to play {text!r} in this test")
        self.choose_in_menu(text)

    def attack(self, text: str) -> None:
        """Attacks by clicking the ship, then its target (outlined as a target)."""
        _, ship, target = text.split()
        self.click(f"#board .ship[data-ship='{ship}']")
        assert self.page.locator(f"#board .ship.target[data-ship='{target}']").count() == 1
        self.click(f"#board .ship.target[data-ship='{target}']")
        self.choose_in_menu(text)

    def move(self, choice: str, moves: list[str]) -> None:
        """Moves a ship by clicking it, then its highlighted destination (every legal one highlighted)."""
        _, ship, area = choice.split()
        self.click(f"#board .ship[data-ship='{ship}']")
        reach = self.page.eval_on_selector_all(
            "#board .area-g.reach", "nodes => nodes.map(n => n.dataset.area)"
        )
        assert {t.split()[2] for t in moves if t.split()[1] == ship} <= set(reach)
        self.click(f"#board .area-g.reach[data-area='{area}'] .hit")
        self.done.setdefault("move", choice)

    def watch_roll(self, name: str) -> None:
        """Once the person's attack is rolled, checks that the drawing shows its dice (and screenshots)."""
        ship = self.done["attack"].split()[1]
        end = time.time() + 20
        log = ""
        while time.time() < end:
            log = self.page.text_content("#log") or ""
            # The roll's text and its dice read at once: bots may roll next before a second read.
            shown, dice = self.page.evaluate(ROLL_AND_DICE)
            # The drawing shows the latest roll: the person's, or (bots being quick) one after it.
            if f"{ship} attacks" in shown or (f"{ship} attacks" in log and " attacks " in shown):
                rolled = re.findall(r"rolls (\d+(?: \d+)*)", shown)[0].split()
                assert dice == rolled, (dice, shown)  # each die drawn beside the ship that rolled
                self.done["rolled"] = shown
                screenshot(self.page, f"{name}-mid")
                return
            if f"{ship}'s attack on" in log and "called off" in log:
                del self.done["attack"]  # a Zap card stopped it before the roll: attack again later
                return
            if self.table()["asked"]:
                return  # asked in the attack's Zap window: the loop answers it
            time.sleep(0.1)
        raise AssertionError(f"the attack's roll was not shown; the log ends: {log[-1500:]}")

    def choose_in_menu(self, text: str) -> None:
        """Picks ``text`` in the drawing's menu if the click offered several actions."""
        menu = self.page.locator("#board-menu")
        if menu.is_visible():
            self.page.click(f"#board-menu button[data-action='{text}']")

    def move_choice(self, moves: list[str], ships: dict[str, str | None]) -> str | None:
        """Returns a move one step nearer Orbit (None: every ship stays where it is)."""
        ranked = []
        for text in moves:
            _, ship, area = text.split()
            if DISTANCE[area] < DISTANCE[ships[ship] or MAP_ORBIT]:
                ranked.append((DISTANCE[area], text))
        return min(ranked)[1] if ranked else None

    def home(self, planet: str) -> str:
        return "refuge" if planet == "earth" else planet


def play_through(server: LiveServer, browser: Any, options: dict[str, Any], name: str) -> Seat:
    """Creates a table (the person as seat 0 against two greedy bots), plays by clicking until a move, an
    attack and an out-of-turn Zap card are made, and returns the seat."""
    made = server.create(GAME, ["human", "greedy", "greedy"], options={"length": "normal", **options})
    page = open_seat(browser, server.url + made["seats"]["0"], LAPTOP)
    page.wait_for_selector("#board .vnm-map")
    seat = Seat(server, made, page)
    screenshot(page, f"{name}-start")
    assert board_fits(page)
    for _ in range(200):
        table = seat.wait_asked()
        if table is None or {"move", "rolled", "zap"} <= set(seat.done):
            break
        seat.play(table)
        if "attack" in seat.done and "rolled" not in seat.done:
            seat.watch_roll(name)
    story = (page.text_content("#log") or "")[-2000:]
    assert {"move", "rolled", "zap"} <= set(seat.done), f"made only {seat.done}; the log ends: {story}"
    return seat


def finish(seat: Seat, name: str) -> None:
    """Hands the seat to a bot and waits for the results."""
    page = seat.page
    page.click("#hand-to-bot")
    wait_for_results(page)
    assert "Winner" in page.text_content("#results")
    screenshot(page, f"{name}-end")


@pytest.mark.parametrize("game", ["basic", "enhanced"])
def test_a_move_an_attack_with_its_roll_and_a_zap_card_out_of_turn_by_clicking_then_bots_finish(
    server: LiveServer, browser: Any, game: str
) -> None:
    name = GAME if game == "basic" else f"{GAME}-enhanced"
    # Enhanced: no Mars, whose Mind Control may take the person's ships before they reach an attack.
    planets = {"planets": "venus,ganymede,titan"} if game == "enhanced" else {}
    seat = play_through(server, browser, {"game": game, "max_turns": 40, **planets}, name)
    page = seat.page
    log = page.text_content("#log") or ""
    zap = seat.done["zap"].split()[1]
    assert f"plays Zap card {zap}" in log
    assert " rolls " in log
    if game == "enhanced":
        tech = page.locator("#board .vnm-card.tech[title]").count()
        assert tech >= 3 * 3  # three Technology cards a planet, each with its text
        assert page.locator("#board .vnm-research .vnm-card.upgrade").count() >= 1
    finish(seat, name)


def test_keyboard_alone_plays_a_move_and_the_phone_scrolls(server: LiveServer, browser: Any) -> None:
    made = server.create(GAME, ["human", "greedy", "greedy"], options={"length": "short", "max_turns": 10})
    page = open_seat(browser, server.url + made["seats"]["0"], LAPTOP)
    seat = Seat(server, made, page)
    table = seat.wait_asked()
    assert table is not None
    while not any(t.startswith("move ") for t in table["legal"]):
        seat.play(table)
        table = seat.wait_asked()
        assert table is not None
    move = next(t for t in table["legal"] if t.startswith("move "))
    _, ship, area = move.split()
    seen = version(page)
    assert ship in (page.get_attribute(f"#board .ship[data-ship='{ship}']", "aria-label") or "")
    page.focus(f"#board .ship[data-ship='{ship}']")
    page.keyboard.press("Enter")
    page.focus(f"#board .area-g.reach[data-area='{area}']")
    page.keyboard.press(" ")
    wait_past(page, seen)
    page.wait_for_selector(f"#board .ship[data-ship='{ship}'][data-area='{area}']")
    phone = open_seat(browser, server.url + made["seats"]["0"], PHONE)
    phone.wait_for_selector("#board .vnm-map")
    assert phone.evaluate(
        "() => document.getElementById('board').getBoundingClientRect().width <= innerWidth"
    )
    screenshot(phone, f"{GAME}-phone")


_WINDOW_SEEN = """() => {
  const box = document.querySelector('#board .vnm-window');
  const wait = box && box.querySelector('.vnm-wait');
  if (!wait) return null;
  return {text: box.textContent, wait: wait.textContent, bars: box.querySelectorAll('progress').length};
}"""


def test_a_zap_window_shows_its_countdown_to_those_who_wait(tmp_path: Path, browser: Any) -> None:
    """A spectator of three bots sees each Zap window drawn: what it answers, who is asked, a countdown."""
    slow = LiveServer(tmp_path / "slow.db", think=0.4).start()
    try:
        made = slow.create(GAME, ["greedy", "greedy", "greedy"], options={"length": "short", "max_turns": 5})
        page = open_seat(browser, slow.url + made["spectator"], LAPTOP)
        # One read of the drawn window: it closes when the bots answer, so read it whole, at once.
        drawn = page.wait_for_function(_WINDOW_SEEN, timeout=20_000).json_value()
        assert "Zap window" in drawn["text"]
        assert "Waiting for" in drawn["wait"]
        assert drawn["bars"] == 1
    finally:
        slow.stop()
