"""The registry: shipped games found by scanning parlour/games, other packages' games by entry point."""

from __future__ import annotations

import importlib.metadata
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from parlour.core import registry
from parlour.core.errors import OptionError
from parlour.core.registry import game_names, load_game, refresh_games
from parlour.testing import kit

PLUGIN = '''\
"""A game from another package: Embers under another name, written the way a plug-in would be."""

from parlour.games.embers import EmbersGame


class Glow(EmbersGame):
    name = "glow"
    title = "Glow"


GAME = Glow()
NOT_A_GAME = 42
'''


def install(root: Path, entry_points: str) -> None:
    """Writes an installed-looking distribution ``glow-game`` into ``root``: its module and its metadata."""
    (root / "glow_game.py").write_text(PLUGIN, encoding="utf-8")
    info = root / "glow_game-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: glow-game\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(textwrap.dedent(entry_points), encoding="utf-8")


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on sys.path standing for another package's installation; the registry forgets it after."""
    monkeypatch.syspath_prepend(str(tmp_path))
    refresh_games()
    yield tmp_path
    monkeypatch.undo()
    sys.modules.pop("glow_game", None)
    refresh_games()


def test_the_shipped_games_are_found_by_scanning_their_folder() -> None:
    assert {"embers", "im-the-boss", "venture", "venus-needs-men"} <= set(game_names())
    assert load_game("Embers").name == "embers" and load_game("im_the_boss").name == "im-the-boss"


def test_the_shipped_games_are_declared_as_entry_points_too() -> None:
    text = (Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    declared = text.split('[project.entry-points."parlour.games"]')[1].split("\n\n")[0]
    for name in ("embers", "im-the-boss", "venture", "venus-needs-men"):
        module = name.replace("-", "_")
        assert f'{name} = "parlour.games.{module}"' in declared


def test_a_game_of_another_package_plugs_in_by_its_entry_point(site: Path) -> None:
    install(site, "[parlour.games]\nglow = glow_game\n")
    refresh_games()
    assert "glow" in game_names() and "glow" in [
        p.name for p in importlib.metadata.entry_points(group="parlour.games")
    ]
    game = load_game("glow")
    assert game.title == "Glow" and game.new_state(3, 1).legal_actions()
    kit.check_game(game, 3, range(1))


def test_an_entry_point_may_name_the_game_object_itself(site: Path) -> None:
    install(site, "[parlour.games]\nglow = glow_game:GAME\n")
    refresh_games()
    assert load_game("glow").name == "glow"


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("glow = glow_game:NOT_A_GAME", "game 'glow': glow_game:NOT_A_GAME is neither a Game nor a module"),
        ("glow = no_such_module", "game 'glow' \\(no_such_module\\) cannot be loaded: No module named"),
        ("shine = glow_game", "game 'shine': glow_game holds a game called 'glow'"),
    ],
)
def test_a_broken_plug_in_is_refused_in_one_line(site: Path, entry: str, message: str) -> None:
    install(site, f"[parlour.games]\n{entry}\n")
    refresh_games()
    name = entry.split()[0]
    with pytest.raises(OptionError, match=message) as err:
        load_game(name)
    assert "\n" not in str(err.value)


def test_a_plug_in_never_takes_a_shipped_games_name(site: Path) -> None:
    install(site, "[parlour.games]\nembers = glow_game\n")
    refresh_games()
    assert load_game("embers").title == "Embers"
    assert isinstance(registry._sources()["embers"], str)


def test_an_unknown_name_is_refused_naming_the_games() -> None:
    with pytest.raises(OptionError) as err:
        load_game("chess")
    assert str(err.value) == f"unknown game 'chess' (games: {', '.join(game_names())})"
