"""The tutorials in the browser (issue 33): the "Learn to play" page, a stateless tutorial API, each
game's glossary, and hints at the table a learner plays the closing game at.

No tutorial lives in the server's memory: every request carries the learner's progress (``path``: for
each step done, which of its intended actions the learner played) and the position is staged again from
the game's tutorial file, deterministically, on whichever node answers. Every body is hostile input
(bodies.py), every refusal one JSON line; the API has its own rate limit per client address beside the
server's (a request replays up to a whole tutorial).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from functools import cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from parlour.bots.registry import make_bot
from parlour.core.errors import ParlourError
from parlour.core.log import GameLog
from parlour.core.registry import game_names, load_game
from parlour.core.state import GameState
from parlour.server.bodies import json_body, no_body
from parlour.server.hall import Hall
from parlour.server.limits import Buckets, address_key
from parlour.server.tables import Refusal
from parlour.server.views import SeatJSON, seat_view
from parlour.tutorials.engine import Outcome, Tutorial, shipped_script
from parlour.tutorials.files import has_tutorial, tutorial_games
from parlour.tutorials.format import TutorialError
from parlour.tutorials.glossary import GlossaryJSON, glossary_json

STATIC = Path(__file__).parent / "static"
LEARN_SHARE = 0.2
"""The share of the server's HTTP rate and burst per client address (limits.py: 50 a second, bursts of
200) its tutorial requests may take: 10 a second, bursts of 40 (a request replays up to a whole
tutorial)."""
MAX_TRIED = 200
"""The longest action text a learner may try (characters)."""
BODY_FIELDS = {"path", "step", "try", "hint", "content"}
SHAPE = 'a tutorial request is {"path": [choices...]} or {"step": N}, with "try": ACTION, "hint", "content"'
TUTOR = "tutorial"
"""What the other seats of a staged position are called (the file plays them)."""


def learn_routes(hall: Callable[[], Hall], rate: float, burst: float) -> list[Route]:
    """Returns the routes of the tutorials: the page, the API, the closing game's table and its hints,
    and every game's glossary (docs/server.md, "Learning")."""
    buckets = Buckets(rate, burst)

    def limited(request: Request) -> None:
        client = request.client.host if request.client else "unknown"
        if not buckets.take(address_key(client)):
            raise Refusal(429, "too many tutorial requests: slow down")

    async def page(request: Request) -> Response:
        tutorial_game(request.path_params["game"])
        return FileResponse(STATIC / "learn.html")

    async def lesson(request: Request) -> Response:
        limited(request)
        name = tutorial_game(request.path_params["game"])
        body = await json_body(request)
        return JSONResponse(await asyncio.to_thread(answer, name, body))

    async def closing_table(request: Request) -> Response:
        limited(request)
        name = tutorial_game(request.path_params["game"])
        await no_body(request)
        made = await hall().create(await asyncio.to_thread(final_spec, name))  # the file checked once
        seat = shipped_script(name).learner
        base = f"/t/{made.table}"
        return JSONResponse({"table": made.table, "seat": f"{base}#k={made.tokens[seat]}&learn={name}"}, 201)

    async def hints(request: Request) -> Response:
        limited(request)
        table = hall().get(request.path_params["table"])
        header = request.headers.get("authorization", "")
        seat = hall().seat_of(table, header[7:] if header.lower().startswith("bearer ") else "")
        await no_body(request)
        if seat is None:
            raise Refusal(403, "a spectator gets no hints")
        if table.record.rated or any(s.kind != "bot" for s in table.record.seats if s.seat != seat):
            raise Refusal(403, "hints are given only at an unrated table where every other seat is a bot")
        state = table.state
        if state.is_over() or seat not in state.deciders():
            return JSONResponse({"hints": []})
        position = state.clone()  # read here, between two moves; thought about off the event loop
        return JSONResponse({"hints": await asyncio.to_thread(advice, position, seat)})

    async def glossary(request: Request) -> Response:
        name = request.path_params["game"]
        if name not in game_names():
            raise Refusal(404, f"no such game (games: {', '.join(game_names())})")
        return JSONResponse(await asyncio.to_thread(glossary_of, name))

    async def tutorials(request: Request) -> Response:
        return JSONResponse(await asyncio.to_thread(tutorial_list))

    return [
        Route("/api/learn", tutorials),
        Route("/learn/{game}", page),
        Route("/api/learn/{game}", lesson, methods=["POST"]),
        Route("/api/learn/{game}/table", closing_table, methods=["POST"]),
        Route("/api/tables/{table}/hints", hints, methods=["POST"]),
        Route("/api/games/{game}/glossary", glossary),
    ]


def tutorial_game(name: str) -> str:
    """Returns the name of a game with a tutorial; refuses anything else with 404."""
    if name not in game_names():
        raise Refusal(404, f"no such game (games: {', '.join(game_names())})")
    if not has_tutorial(load_game(name)):
        raise Refusal(404, f"{name} has no tutorial yet")
    return name


def tutorial_list() -> list[dict[str, object]]:
    """Returns the games with a tutorial, as the lobby links them: name, the game's title, the
    tutorial's title and its number of steps."""
    listed = []
    for name in tutorial_games():
        script = shipped_script(name)
        listed.append(
            {
                "game": name,
                "title": load_game(name).title,
                "tutorial": script.title,
                "steps": len(script.steps),
            }
        )
    return listed


@cache
def glossary_of(name: str) -> GlossaryJSON:
    """Returns a game's glossary as JSON (the content set in play by default; it never changes)."""
    return glossary_json(load_game(name))


def final_spec(name: str) -> dict[str, object]:
    """Returns the table request of a tutorial's closing game: the learner's seat, the file's bots, the
    file's options; unrated, no clock, unlisted (no spectators: nothing pauses for watchers)."""
    script = shipped_script(name)
    final = script.final
    seats: list[dict[str, object]] = [
        {"kind": "human"} if seat == script.learner else {"kind": "bot", "bot": final.bots[seat]}
        for seat in range(script.players)
    ]
    options = {**script.options, **final.options}
    return {"game": name, "seats": seats, "options": options, "rated": False, "spectators": False}


# --------------------------------------------------------------------- the lesson, staged again
def read_request(body: object, steps: list[int]) -> tuple[list[int], str | None, bool, bool]:
    """Reads a tutorial request (hostile input) against the tutorial's steps (``steps``: how many
    intended actions each has): returns the path, the action tried, whether hints and the drawing's
    content are asked for."""
    if not isinstance(body, dict):
        raise Refusal(400, SHAPE)
    unknown = set(body) - BODY_FIELDS
    if unknown:
        raise Refusal(400, f"unknown field {sorted(unknown)[0][:40]!r}: {SHAPE}")
    total = len(steps)
    if "path" in body and "step" in body:
        raise Refusal(400, "give the path or the step, not both")
    if "step" in body:
        step = body["step"]
        if isinstance(step, bool) or not isinstance(step, int) or not 1 <= step <= total + 1:
            raise Refusal(400, f"step must be a whole number from 1 to {total + 1} (the closing game)")
        path = [0] * (step - 1)
    else:
        path = body.get("path", [])
        if not isinstance(path, list) or len(path) > total:
            raise Refusal(400, f"path must be a list of at most {total} choices (one per step done)")
        for number, choice in enumerate(path, 1):
            if isinstance(choice, bool) or not isinstance(choice, int) or not 0 <= choice < steps[number - 1]:
                raise Refusal(
                    400,
                    f"path: step {number}'s choice must be a whole number from 0 to {steps[number - 1] - 1}",
                )
    tried = body.get("try")
    if tried is not None and (not isinstance(tried, str) or not tried.strip() or len(tried) > MAX_TRIED):
        raise Refusal(400, f"try must be an action in notation of 1 to {MAX_TRIED} characters")
    flags = []
    for key in ("hint", "content"):
        value = body.get(key, False)
        if not isinstance(value, bool):
            raise Refusal(400, f"{key} must be true or false")
        flags.append(value)
    return list(path), tried, flags[0], flags[1]


def answer(name: str, body: object) -> dict[str, object]:
    """Stages the learner's place in the tutorial of the game ``name`` again from the request's path,
    tries its action there, and returns what the page shows (docs/server.md, "Learning")."""
    script = shipped_script(name)
    path, tried, hint, content = read_request(body, [len(step.intended) for step in script.steps])
    tutorial = Tutorial(load_game(name), script)
    tutorial.start()
    try:
        for choice in path:
            step = tutorial.step
            assert step is not None
            moved = tutorial.try_action(step.intended[choice])
            if moved.outcome is not Outcome.MOVED:  # the shipped file was checked: never
                raise TutorialError(f"{step.label()}: {moved.message}")
        reply: dict[str, object] = {"game": name, "title": script.title, "about": script.about}
        if tried is not None:
            if tutorial.in_final:
                raise Refusal(409, "the steps are done: the closing game is played at a table")
            index = intended_index(tutorial, tried)
            said = tutorial.try_action(tried)
            reply["answer"] = {"answer": said.outcome.value, "why": said.message, "events": said.events}
            if said.outcome is Outcome.MOVED:
                path.append(index if index is not None else 0)
    except (TutorialError, ParlourError) as err:  # a broken shipped file: the server's fault, said once
        raise Refusal(409, f"the {name} tutorial cannot be staged: {err}") from None
    reply["path"] = path
    reply["step"] = tutorial.step_json()
    reply["staged"] = tutorial.step is not None and tutorial.step.setup is not None
    if not tutorial.in_final:
        reply["view"] = learner_view(tutorial, len(path))
        if hint:
            reply["hints"] = tutorial.hints()
        if content:
            state = tutorial.current()
            reply["card_texts"], reply["table_content"] = state.card_texts(), state.table_content()
    return reply


def intended_index(tutorial: Tutorial, text: str) -> int | None:
    """Returns which of the step's intended actions ``text`` is (in canonical notation), if any."""
    step, state = tutorial.step, tutorial.current()
    assert step is not None
    try:
        wanted = state.format_action(state.parse_action(text))
    except ParlourError:
        return None
    for index, intended in enumerate(step.intended):
        if state.format_action(state.parse_action(intended)) == wanted:
            return index
    return None


def learner_view(tutorial: Tutorial, version: int) -> dict[str, object]:
    """Returns the staged position as the table page's drawing expects a seat's view (the learner's:
    nothing hidden from that seat), its legal actions listed by the engine."""
    state = tutorial.current()
    seats: list[SeatJSON] = [
        {
            "seat": seat,
            "kind": "human" if seat == tutorial.learner else "bot",
            "bot": None if seat == tutorial.learner else TUTOR,
            "stand_in": None,
            "connected": True,
            "time_left": None,
            "name": None,
            "bot_account": False,
            "timeouts": 0,
            "away_left": None,
            "votes": [],
            "replaced": False,
        }
        for seat in range(state.players)
    ]
    return seat_view(state, GameLog(), tutorial.learner, version, seats)


def advice(state: GameState, seat: int) -> list[str]:
    """Returns hints for ``seat``: the engine's, then the greedy bot's choice, thought about in a world
    made from the seat's own view only (never a hidden card)."""
    lines = list(state.hints(seat))
    world = state.determinize(seat, random.Random(0))
    choice = make_bot(load_game(state.game_name), "greedy", 0).choose(world, seat)
    lines.append(f"The greedy bot would play: {state.format_action(choice)}")
    return lines
