"""The learned evaluator (parlour.bots.values, value_training): its weights file round-trips and is read
as hostile input, it values a seat from that seat's view only, training is reproducible and fits, the
search blends it in (``value``), and ``parlour train-value`` writes it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from parlour.bots import values
from parlour.bots.ismcts import IsmctsBot, Settings
from parlour.bots.registry import make_bot
from parlour.bots.simulation import Batch
from parlour.bots.value_training import Examples, collect, train
from parlour.bots.values import FORMAT, Evaluator, ValueNet, ValuesError, read, shipped
from parlour.cli.main import main
from parlour.core.registry import load_game
from parlour.core.state import GameState


@pytest.fixture(scope="module")
def venture_net() -> ValueNet:
    """A small network trained on 30 greedy games of Venture."""
    net, _ = train("venture", collect("venture", ["greedy"] * 4, 30, seed=2), epochs=3, hidden=16)
    return net


def midgame(name: str, players: int = 4, seed: int = 1, actions: int = 60) -> GameState:
    """Returns a state some random actions into a game, with a choice to make."""
    game = load_game(name)
    state = game.new_state(players, seed, game.options({}))
    rng = random.Random(seed)
    for count in range(10_000):
        seat = state.deciders()[0]
        legal = state.legal_actions(seat)
        if count >= actions and len(legal) > 2 and not state.routine_decision():
            break
        state.apply_legal(rng.choice(legal), seat)
    return state


def test_weights_round_trip_and_predict_in_the_unit_range(venture_net: ValueNet, tmp_path: Path) -> None:
    path = tmp_path / "venture.npz"
    about_net = ValueNet(venture_net.game, venture_net.weights, {"seed": 2})
    about_net.save(path)
    again = read(path, "venture")
    assert again.about == {"seed": 2} and again.inputs == venture_net.inputs
    rows = np.random.default_rng(0).random((5, venture_net.inputs), dtype=np.float32)
    assert np.array_equal(again.predict(rows), venture_net.predict(rows))
    assert ((again.predict(rows) > 0) & (again.predict(rows) < 1)).all()


def _spoiled(
    net: ValueNet, tmp_path: Path, head: object = None, layers: list[np.ndarray] | None = None
) -> Path:
    path = tmp_path / f"spoiled{len(list(tmp_path.iterdir()))}.npz"
    head_text = json.dumps(head if head is not None else {"format": FORMAT, "game": "venture", "about": {}})
    with path.open("wb") as out:
        np.savez(out, *(layers if layers is not None else net.weights), head=np.array(head_text))
    return path


def test_malformed_weights_files_are_refused_in_one_line(venture_net: ValueNet, tmp_path: Path) -> None:
    w = list(venture_net.weights)
    cases = {
        "not a Parlour network file": _spoiled(venture_net, tmp_path, head={"format": "other"}),
        "weights for 'embers', not 'venture'": _spoiled(
            venture_net, tmp_path, head={"format": FORMAT, "game": "embers"}
        ),
        "layer 2's weights do not fit": _spoiled(
            venture_net, tmp_path, layers=[w[0], w[1], w[2][:3], *w[3:]]
        ),
        "not finite": _spoiled(venture_net, tmp_path, layers=[w[0] * np.nan, *w[1:]]),
        "not a Parlour network file (": _spoiled(venture_net, tmp_path, layers=w[:4]),
    }
    for words, path in cases.items():
        with pytest.raises(ValuesError) as refused:
            read(path, "venture")
        message = str(refused.value)
        assert words in message and "\n" not in message, message
        path.unlink()
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"\x93NUMPY not really")
    with pytest.raises(ValuesError, match="not a Parlour network file"):
        read(garbage)
    pickled = tmp_path / "pickled.npz"
    with pickled.open("wb") as out:
        np.savez(out, np.array([object()], dtype=object), head=np.array("{}"))
    with pytest.raises(ValuesError, match="not a Parlour network file"):
        read(pickled)


def test_a_seat_is_valued_from_its_own_view_only(venture_net: ValueNet) -> None:
    state = midgame("venture")
    evaluator = Evaluator(venture_net)
    values = evaluator(state)
    assert len(values) == 4 and all(0 < v < 1 for v in values)
    for seat in range(4):
        for seed in range(3):
            world = state.determinize(seat, random.Random(seed))  # the others' hidden cards re-dealt
            assert evaluator(world)[seat] == values[seat]


def test_collecting_is_the_same_on_one_or_two_workers() -> None:
    one = collect("venture", ["greedy"] * 3, 6, seed=4)
    two = collect("venture", ["greedy"] * 3, 6, seed=4, batch=Batch(workers=2))
    assert np.array_equal(one.rows, two.rows) and np.array_equal(one.targets, two.targets)
    assert len(one.rows) == 6 * 8 * 3 and ((one.targets >= 0) & (one.targets <= 1)).all()


def test_training_learns_a_value_the_rows_hold_and_keeps_its_best_epoch() -> None:
    """Rows whose target is a smooth function of a few of their numbers: the held-out games are fitted
    far better than by the mean, the kept epoch is the best one, and the same seed trains the same."""
    rng = np.random.default_rng(3)
    rows = rng.random((4000, 40)).astype(np.float32)
    targets = (1 / (1 + np.exp(-4 * (rows[:, :5].sum(axis=1) - 2.5)))).astype(np.float32)
    data = Examples(rows, targets, np.arange(4000) // 4)
    net, fit = train("venture", data, epochs=40, hidden=16, seed=1, rate=3e-3)
    assert fit.held_out_loss < 0.2 * fit.held_out_baseline
    assert 1 <= fit.epochs <= 40 and fit.held_out_examples == 400
    again, _ = train("venture", data, epochs=40, hidden=16, seed=1, rate=3e-3)
    assert all(np.array_equal(a, b) for a, b in zip(net.weights, again.weights, strict=True))
    shorter, short_fit = train("venture", data, epochs=fit.epochs, hidden=16, seed=1, rate=3e-3)
    assert all(np.array_equal(a, b) for a, b in zip(net.weights, shorter.weights, strict=True))
    assert short_fit.held_out_loss == fit.held_out_loss  # the kept weights are those of that epoch


def test_the_search_blends_the_evaluator_in(venture_net: ValueNet) -> None:
    state = midgame("venture", seed=3)
    seat = state.deciders()[0]
    plain = make_bot(load_game("venture"), "ismcts:40it", 7)
    blended = make_bot(load_game("venture"), "ismcts:40it::value=1", 7)
    assert isinstance(plain, IsmctsBot) and isinstance(blended, IsmctsBot)
    blended.evaluator = Evaluator(venture_net)
    plain.choose(state, seat)
    blended.choose(state, seat)
    assert plain.last_root is not None and blended.last_root is not None
    mean = {
        name: sorted((c.reward / c.visits for c in root.children.values() if c.visits), reverse=True)
        for name, root in (("plain", plain.last_root), ("blended", blended.last_root))
    }
    assert mean["plain"] != mean["blended"], "the learned values changed the search's judgements"
    assert Settings.parse("value=0.5").value == 0.5
    with pytest.raises(ValueError, match="value=2 is out of range: 0 to 1"):
        Settings.parse("value=2")


def test_a_game_without_shipped_weights_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert shipped("embers").exists()
    monkeypatch.setattr(values, "shipped", lambda game: tmp_path / f"{game}.npz")
    monkeypatch.setattr(values, "_SHIPPED", {})
    bot = make_bot(load_game("embers"), "ismcts:20it::value=1", 1)
    state = midgame("embers", players=2, actions=2)
    with pytest.raises(ValuesError, match="no learned evaluator for embers is shipped: train one with"):
        bot.choose(state, state.deciders()[0])


def test_train_value_writes_the_weights_and_says_how(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "v.npz"
    argv = ["train-value", "venture", "-n", "12", "--epochs", "2", "--hidden", "8", "--out", str(out)]
    assert main(argv) == 0
    net = read(out, "venture")
    assert net.about["games"] == 12 and net.about["command"].startswith("parlour train-value")
    assert "held-out loss" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["-n", "5"], "-n is at least 10"),
        (["--epochs", "0"], "--epochs 1 to 1000"),
        (["--hidden", "100000"], "--hidden 4 to 1024"),
        (["--seats", "greedy,greedy"], "--seats names 2 bots for 4 players"),
        (["--seats", "cmd:ls"], "cmd:"),
        (["--players", "9"], "9"),
    ],
)
def test_train_value_refuses_bad_arguments_in_one_line(
    argv: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["train-value", "venture", *argv, "--out", str(tmp_path / "v.npz")]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
    assert not (tmp_path / "v.npz").exists()
