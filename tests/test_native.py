"""The compiled modules (parlour/native.py): which the games declare and the build records, how the
sources are chosen instead, how a stale build is found, and, in `make test`'s compiled run, that the
compiled modules really run."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from parlour import native, native_build
from parlour.core.registry import game_names, load_game, refresh_games
from parlour.games.im_the_boss import BossGame
from parlour.games.venture import VentureGame
from parlour.games.venus_needs_men import VenusGame


def test_every_declared_hot_module_is_a_plain_module_of_its_game() -> None:
    """Each game's hot modules are plain modules (a .py file) of its own package, each declared once."""
    for name in game_names():
        game = load_game(name)
        modules = game.hot_module_names()
        assert len(set(modules)) == len(modules), name
        for module in modules:
            assert module.startswith(type(game).__module__ + "."), module
            assert native.source_path(module).is_file(), module
    assert "parlour.games.venture.packing" in load_game("venture").hot_module_names()


def test_the_build_compiles_what_the_games_declare(monkeypatch: pytest.MonkeyPatch) -> None:
    """native_build compiles the modules the games declare, in the games' order, one group per game."""
    monkeypatch.setattr(VentureGame, "hot_modules", ("payment", "packing"))
    monkeypatch.setattr(VenusGame, "hot_modules", ("steps",))
    monkeypatch.setattr(BossGame, "hot_modules", ())
    modules = native_build.declared()
    assert modules == [
        "parlour.games.venture.payment",
        "parlour.games.venture.packing",
        "parlour.games.venus_needs_men.steps",
    ]
    assert native_build.groups(modules) == [
        (
            ["parlour/games/venture/payment.py", "parlour/games/venture/packing.py"],
            "parlour.games.venture.native",
        ),
        (["parlour/games/venus_needs_men/steps.py"], "parlour.games.venus_needs_men.native"),
    ]


PLUGIN = {
    "glow_pkg/__init__.py": "from glow_pkg.game import GAME\n",
    "glow_pkg/game.py": """\
        from parlour.games.embers import EmbersGame


        class Glow(EmbersGame):
            name = "glow"
            title = "Glow"
            hot_modules = ("fast",)


        GAME = Glow()
        """,
    "glow_pkg-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: glow-pkg\nVersion: 1.0\n",
    "glow_pkg-1.0.dist-info/entry_points.txt": "[parlour.games]\nglow = glow_pkg\n",
}


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Another package's game, installed on sys.path, whose Game is defined in a submodule."""
    for name, text in PLUGIN.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    refresh_games()
    yield
    monkeypatch.undo()
    for module in ("glow_pkg", "glow_pkg.game"):
        sys.modules.pop(module, None)
    refresh_games()


@pytest.mark.usefixtures("plugin")
def test_another_packages_hot_modules_are_named_in_its_package_and_left_to_its_build() -> None:
    """A game's hot modules are named in the package that defines its Game (not the submodule); this
    package's build leaves another package's modules out."""
    assert load_game("glow").hot_module_names() == ("glow_pkg.fast",)
    modules = native_build.declared()
    assert "glow_pkg.fast" not in modules and "parlour.games.venture.packing" in modules


def test_the_record_of_a_build_is_what_native_reads(tmp_path: Path) -> None:
    """The build records each module with its source's fingerprint, taken before compiling; a missing or
    broken record is none."""
    prints = native_build.fingerprints(["parlour.games.venture.packing"])
    source = native.source_path("parlour.games.venture.packing")
    assert prints == {"parlour.games.venture.packing": native.fingerprint(source)}
    native_build.record(prints, tmp_path)
    assert native.read_manifest(tmp_path) == prints
    (tmp_path / native.MANIFEST_NAME).write_text("[not a record", encoding="utf-8")
    assert native.read_manifest(tmp_path) == {}
    assert native.read_manifest(tmp_path / "nowhere") == {}


def test_the_source_only_finder_finds_sources_of_the_package_alone() -> None:
    """SourceOnly finds a package module's .py and leaves other names to the other finders."""
    import parlour.games.venture as package

    spec = native.SourceOnly().find_spec("parlour.games.venture.packing", list(package.__path__))
    assert spec is not None and str(spec.origin).endswith("packing.py")
    assert native.SourceOnly().find_spec("json", None) is None
    assert native.SourceOnly().find_spec("parlour.games.venture.nothing", list(package.__path__)) is None


def _run(code: str, value: str) -> subprocess.CompletedProcess[str]:
    """Runs Python code in a new process with PARLOUR_NATIVE set to ``value``."""
    env = {**os.environ, native.VARIABLE: value}
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60, check=False
    )


def test_parlour_native_0_loads_every_module_from_its_source() -> None:
    """With PARLOUR_NATIVE=0 a listed module comes from its .py whether or not it is built."""
    done = _run(
        "import parlour.games.venture.packing as m, parlour.native as n; print(m.__file__, n.running())", "0"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0].endswith("packing.py") and "pure Python" in done.stdout


def test_a_wrong_value_is_refused_in_one_line() -> None:
    """PARLOUR_NATIVE takes 0 or 1; anything else stops the import with a line saying so."""
    done = _run("import parlour", "fast")
    assert done.returncode != 0
    assert "PARLOUR_NATIVE must be 0 (Python sources) or 1 (compiled modules), not 'fast'" in done.stderr


def test_a_build_from_another_source_is_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """stale() names the built modules whose source is not the one recorded, and only those."""
    monkeypatch.setattr(native, "PACKAGE_ROOT", tmp_path)
    for name in ("fresh", "old", "unbuilt"):
        (tmp_path / f"{name}.py").write_text(f"NAME = {name!r}\n")
    for name in ("fresh", "old"):
        (tmp_path / f"{name}{native.EXTENSION}").write_text("")
    recorded = {
        f"parlour.{name}": native.fingerprint(tmp_path / f"{name}.py") for name in ("fresh", "old", "unbuilt")
    }
    monkeypatch.setattr(native, "COMPILED", recorded)
    (tmp_path / "old.py").write_text("NAME = 'edited'\n")
    (tmp_path / "unbuilt.py").write_text("NAME = 'edited'\n")
    assert native.stale() == ["parlour.old"]
    assert native.built() == ["parlour.fresh", "parlour.old"]


def bare_package(tmp_path: Path, *extensions: str) -> Path:
    """Writes a ``parlour`` of its first two modules alone (no build record) into ``tmp_path``, with
    empty files standing for the named extension modules, and returns ``tmp_path``."""
    tree = tmp_path / "parlour"
    tree.mkdir()
    for name in ("__init__.py", "native.py"):
        (tree / name).write_bytes((native.PACKAGE_ROOT / name).read_bytes())
    for name in extensions:
        (tree / f"{name}{native.EXTENSION}").write_text("")
    return tmp_path


def _import_parlour(folder: Path, value: str) -> subprocess.CompletedProcess[str]:
    """Imports the ``parlour`` of ``folder`` in a process, warnings as errors, PARLOUR_NATIVE=``value``."""
    return subprocess.run(
        [sys.executable, "-W", "error", "-c", "import parlour, parlour.native as n; print(n.running())"],
        cwd=folder,
        env={**os.environ, native.VARIABLE: value, "PYTHONPATH": str(folder)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_parlour_native_1_without_a_build_is_refused_in_one_line(tmp_path: Path) -> None:
    """PARLOUR_NATIVE=1 where nothing was compiled (no record) stops the import, saying how to build;
    unset, the same package imports silently from its sources."""
    done = _import_parlour(bare_package(tmp_path), "1")
    assert done.returncode != 0
    assert "PARLOUR_NATIVE=1 but no module is compiled: run `make native`" in done.stderr
    done = _import_parlour(tmp_path, "")
    assert done.returncode == 0 and done.stdout.strip() == "pure Python", done.stderr


def test_extension_modules_without_a_record_never_run(tmp_path: Path) -> None:
    """Extension modules in the package but no record of their build: nothing says what they were
    compiled from, so the sources run, with a warning saying so."""
    done = _import_parlour(bare_package(tmp_path, "old"), "")
    assert done.returncode != 0
    assert "are not in the build's record (old" in done.stderr and "`make native`" in done.stderr
    done = _import_parlour(tmp_path, "0")
    assert done.returncode == 0 and done.stdout.strip() == "pure Python", done.stderr


def test_unrecorded_names_the_extensions_the_record_does_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """unrecorded() lists the package's extension modules that the record leaves out (all of them when it
    is empty, a module no longer declared when it is not); mypyc's shared library is no module."""
    monkeypatch.setattr(native, "PACKAGE_ROOT", tmp_path)
    monkeypatch.setattr(native, "COMPILED", {})
    (tmp_path / "games").mkdir()
    for name in ("fast", "gone", "native__mypyc"):
        (tmp_path / "games" / f"{name}{native.EXTENSION}").write_text("")
        (tmp_path / "games" / f"{name}.py").write_text("")
    both = [f"games/fast{native.EXTENSION}", f"games/gone{native.EXTENSION}"]
    assert native.unrecorded() == both
    monkeypatch.setattr(native, "COMPILED", {"parlour.games.fast": "0" * 64})
    assert native.unrecorded() == [f"games/gone{native.EXTENSION}"]
    monkeypatch.setattr(native, "COMPILED", {"parlour.games.fast": "0" * 64, "parlour.games.gone": "0" * 64})
    assert native.unrecorded() == []


@pytest.mark.skipif(os.environ.get(native.VARIABLE) != "1", reason="the compiled run of `make test` only")
def test_the_compiled_run_runs_every_listed_module_compiled() -> None:
    """Under PARLOUR_NATIVE=1 every listed module is loaded from its extension module."""
    assert sorted(native.COMPILED) == sorted(native_build.declared())
    for module in native.COMPILED:
        loaded = importlib.import_module(module)
        assert str(loaded.__file__).endswith(native.EXTENSION), module
    assert native.running().startswith(f"compiled ({len(native.COMPILED)} of {len(native.COMPILED)}")


def test_a_checkout_and_a_wheel_compile_with_the_same_mypy() -> None:
    """The dev extra's mypy (``make native``) is the one a wheel's build asks for (build_backend/)."""
    import tomllib

    root = native.PACKAGE_ROOT.parent
    dev = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]["dev"]
    backend = (root / "build_backend" / "parlour_build.py").read_text(encoding="utf-8")
    pins = [spec for spec in dev if spec.startswith("mypy")]
    assert len(pins) == 1 and pins[0].startswith("mypy==") and f'"{pins[0]}"' in backend, pins
