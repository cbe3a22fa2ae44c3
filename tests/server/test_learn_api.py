"""The tutorials' HTTP API (parlour/server/learning.py): every step of every tutorial file reached
through it, statelessly; the answers (moved, wanted, illegal, unreadable); the glossary of every game;
the closing game's table with hints; and hostile requests refused in one line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from parlour.core.registry import game_names, load_game
from parlour.server.app import Settings, create_app
from parlour.server.learning import learn_routes
from parlour.tutorials.engine import shipped_script
from parlour.tutorials.files import GLOSSARY, data_file, tutorial_games

from .conftest import bearer, database_url


@pytest.fixture
def unlimited(db: Path) -> Iterator[TestClient]:
    """A client whose rate limits are lifted (one test client is one address)."""
    with TestClient(
        create_app(Settings(database_url(db), bot_workers=0, http_rate=1e9, http_burst=1e9))
    ) as found:
        yield found


def learn(client: TestClient, game: str, body: object, status: int = 200) -> dict[str, Any]:
    reply = client.post(f"/api/learn/{game}", json=body)
    assert reply.status_code == status, reply.text
    found: dict[str, Any] = reply.json()
    return found


def refused(reply: Any, status: int, words: str) -> None:
    """A refusal is the app's one JSON line with its status."""
    assert reply.status_code == status, reply.text
    body = reply.json()
    assert body["type"] == "error" and body["status"] == status and "\n" not in body["error"]
    assert words in body["error"], body["error"]


def test_the_lobby_lists_the_tutorials_and_the_page_is_served(client: TestClient) -> None:
    listed = client.get("/api/learn").json()
    assert [t["game"] for t in listed] == tutorial_games() and "venture" in tutorial_games()
    assert all(15 <= t["steps"] <= 30 and t["title"] for t in listed)
    page = client.get("/learn/venture")
    assert page.status_code == 200 and "learn.js" in page.text
    refused(client.get("/learn/chess"), 404, "no such game")
    for name in game_names():
        if name not in tutorial_games():
            refused(client.get(f"/learn/{name}"), 404, "has no tutorial yet")
    assert "Learn to play" in client.get("/").text


@pytest.mark.parametrize("game", tutorial_games())
def test_every_step_of_the_tutorial_is_reached_through_the_api(unlimited: TestClient, game: str) -> None:
    client = unlimited
    script = shipped_script(game)
    data = learn(client, game, {"content": True})
    assert (
        data["path"] == [] and data["step"]["number"] == 1 and data["card_texts"] and "table_content" in data
    )
    path: list[int] = []
    for step in script.steps:
        shown = data["step"]
        assert (
            shown["id"] == step.id and shown["number"] == step.number and shown["total"] == len(script.steps)
        )
        assert shown["quote"] == {"section": step.quote.section, "text": step.quote.text}
        assert shown["highlight"] == list(step.highlight) and "intended" not in shown
        assert data["staged"] is (step.setup is not None)
        view = data["view"]
        assert view["seat"] == script.learner and view["asked"] and view["version"] == len(path)
        assert view["observation"] and view["legal"] and view["text"]
        # Stateless: the same request answers the same, whatever came before it.
        assert learn(client, game, {"path": path})["view"]["observation"] == view["observation"]
        others = [t for t in view["legal"] if t not in step.intended]
        if others:
            wanted = learn(client, game, {"path": path, "try": others[0]})
            assert wanted["answer"]["answer"] == "wanted" and wanted["path"] == path
            assert step.intended[0] in wanted["answer"]["why"]
            assert wanted["view"]["observation"] == view["observation"]
        data = learn(client, game, {"path": path, "try": step.intended[-1]})
        assert data["answer"]["answer"] == "moved", data["answer"]
        path = [*path, len(step.intended) - 1]
        assert data["path"] == path
    assert (
        data["step"]["final"] is True and data["step"]["title"] == script.final.title and "view" not in data
    )
    assert learn(client, game, {"step": len(script.steps) + 1})["step"]["final"] is True


def test_the_answers_and_the_hints_at_a_step(client: TestClient) -> None:
    first = shipped_script("venture").steps[0]
    hinted = learn(client, "venture", {"step": 1, "hint": True})
    assert hinted["hints"][-1] == f"Type: {first.intended[0]}"
    illegal = learn(client, "venture", {"path": [], "try": "take ZZ-AB"})
    assert illegal["answer"]["answer"] in ("illegal", "unreadable") and illegal["path"] == []
    unreadable = learn(client, "venture", {"path": [], "try": "fly to the moon"})
    assert unreadable["answer"]["answer"] == "unreadable" and unreadable["answer"]["why"]
    moved = learn(client, "venture", {"path": [], "try": f"  {first.intended[0].upper()} "})
    assert moved["answer"]["answer"] == "moved" and moved["path"] == [0] and moved["step"]["number"] == 2
    jumped = learn(client, "venture", {"step": 5})
    assert jumped["path"] == [0, 0, 0, 0] and jumped["step"]["number"] == 5
    refused(client.post("/api/learn/venture", json={"step": 30, "try": "end"}), 409, "closing game")


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ([], "a tutorial request is"),
        ("step 3", "a tutorial request is"),
        ({"colour": 1}, "unknown field 'colour'"),
        ({"step": 0}, "step must be a whole number from 1 to 30"),
        ({"step": 31}, "step must be a whole number from 1 to 30"),
        ({"step": True}, "step must be"),
        ({"step": 2.5}, "step must be"),
        ({"step": "2"}, "step must be"),
        ({"step": 2, "path": [0]}, "not both"),
        ({"path": "0,0"}, "path must be a list"),
        ({"path": [0] * 30}, "path must be a list of at most 29"),
        ({"path": [0] * 10**4}, "a request body is at most"),
        ({"path": [-1]}, "step 1's choice"),
        ({"path": [0, 0, 0, 0, 6]}, "step 5's choice"),
        ({"path": [None]}, "step 1's choice"),
        ({"path": [False]}, "step 1's choice"),
        ({"try": ""}, "try must be an action"),
        ({"try": "x" * 201}, "try must be an action"),
        ({"try": ["end"]}, "try must be an action"),
        ({"hint": "yes"}, "hint must be true or false"),
        ({"content": 1}, "content must be true or false"),
    ],
)
def test_hostile_tutorial_requests_are_refused_in_one_line(
    client: TestClient, body: object, words: str
) -> None:
    status = 413 if "at most" in words and "body" in words else 400
    refused(client.post("/api/learn/venture", json=body), status, words)


def test_hostile_bodies_games_and_methods(client: TestClient) -> None:
    refused(client.post("/api/learn/venture", content=b"{"), 400, "")
    refused(client.post("/api/learn/venture", content=b"\xff\xfe{}"), 400, "")
    refused(client.post("/api/learn/venture", content=b"[" * 5000 + b"]" * 5000), 400, "")
    refused(client.post("/api/learn/chess", json={}), 404, "no such game")
    refused(client.post("/api/learn/" + "x" * 3000, json={}), 404, "no such game")
    refused(client.post("/api/learn/venture", content=b'{"try": "take \\ud800"}'), 400, "")
    refused(client.get("/api/learn/venture"), 405, "method not allowed")
    refused(client.get("/api/games/chess/glossary"), 404, "no such game")
    refused(client.post("/api/learn/venture/table", json={"seats": 9}), 400, "takes no fields")


def test_the_tutorial_api_has_its_own_rate_limit(db: Any) -> None:
    from starlette.applications import Starlette

    from parlour.server.app import _refused
    from parlour.server.tables import Refusal

    app = Starlette(
        routes=learn_routes(lambda: None, rate=0.01, burst=3),  # type: ignore[arg-type,return-value]
        exception_handlers={Refusal: _refused},  # type: ignore[dict-item]
    )
    with TestClient(app) as client:
        for _ in range(3):
            assert client.post("/api/learn/venture", json={}).status_code == 200
        refused(client.post("/api/learn/venture", json={}), 429, "too many tutorial requests")


@pytest.mark.parametrize("game", game_names())
def test_the_glossary_of_every_game(client: TestClient, game: str) -> None:
    reply = client.get(f"/api/games/{game}/glossary")
    assert reply.status_code == 200, reply.text
    glossary = reply.json()
    assert glossary["game"] == game and glossary["terms"]
    for term, entry in glossary["terms"].items():
        assert term and entry["kind"] in ("card", "rule") and entry["text"]
    if data_file(load_game(game), GLOSSARY).is_file():
        rules = {t: e for t, e in glossary["terms"].items() if e["kind"] == "rule"}
        assert rules and all(e["quote"]["section"] and e["quote"]["text"] for e in rules.values())
    if game == "venture":
        assert glossary["terms"]["Set"]["kind"] == "rule" and glossary["terms"]["RR-CD"]["kind"] == "card"


def test_the_closing_game_is_a_casual_table_with_hints(client: TestClient) -> None:
    script = shipped_script("venture")
    reply = client.post("/api/learn/venture/table")
    assert reply.status_code == 201, reply.text
    made = reply.json()
    assert made["seat"].startswith(f"/t/{made['table']}#k=") and made["seat"].endswith("&learn=venture")
    token = made["seat"].split("#k=")[1].split("&")[0]
    view = client.get(f"/api/tables/{made['table']}", headers=bearer(token)).json()
    assert view["seat"] == script.learner
    assert [s["kind"] for s in view["seats"]] == ["human" if s == script.learner else "bot" for s in range(2)]
    hints = client.post(f"/api/tables/{made['table']}/hints", headers=bearer(token))
    assert hints.status_code == 200, hints.text
    lines = hints.json()["hints"]
    if view["asked"]:
        assert (
            lines[-1].startswith("The greedy bot would play: ")
            and lines[-1].split(": ", 1)[1] in view["legal"]
        )
    refused(client.post(f"/api/tables/{made['table']}/hints"), 403, "token")
    spectator = client.post(f"/api/tables/{made['table']}/hints", headers=bearer("x" * 20))
    refused(spectator, 403, "opens no seat")


def test_no_hints_at_a_table_with_another_person(client: TestClient) -> None:
    from .conftest import create

    made = create(client, "venture", ["human", "human"])
    refused(
        client.post(f"/api/tables/{made['table']}/hints", headers=bearer(made["tokens"][0])),
        403,
        "every other seat is a bot",
    )
