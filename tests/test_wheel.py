"""Parlour's wheel (setup.py, build_backend/): the games' hot modules compiled inside it beside their
sources, what an install of it runs, and the pure-Python wheel and the sdist that need no compiler.

Each build runs pip in a copy of the source tree (the checkout's own build/ and compiled modules stay
as they are); pip's isolated build environment comes from the configured package index."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from parlour import native, native_build

ROOT = Path(__file__).resolve().parents[1]
TREE = ["pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE", "build_backend", "parlour"]
"""What a build reads: the package and the files around it (no tests, no compiled modules)."""


def source_tree(into: Path) -> Path:
    """Copies the files a build reads into ``into``/src, leaving out anything built or cached."""
    tree = into / "src"
    tree.mkdir()
    leave_out = shutil.ignore_patterns("*.so", native.MANIFEST_NAME, "__pycache__", "*.egg-info")
    for name in TREE:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, tree / name, ignore=leave_out)
        else:
            shutil.copy2(ROOT / name, tree / name)
    return tree


def build_wheel(into: Path, **env: str) -> Path:
    """Builds the wheel of a copy of the tree with pip (``env`` added), returning the wheel's path."""
    tree = source_tree(into)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "--quiet", "-w", str(into / "dist")],
        cwd=tree,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    (wheel,) = (into / "dist").glob("parlour-*.whl")
    return wheel


@pytest.fixture(scope="module")
def compiled_wheel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The wheel ``pip wheel .`` builds, compiler and all (about a minute on two cores)."""
    yield build_wheel(tmp_path_factory.mktemp("compiled"))


@pytest.mark.slow
def test_the_wheel_holds_every_declared_hot_module_compiled_beside_its_source(compiled_wheel: Path) -> None:
    """Every module a game declares is in the wheel as an extension module and as its .py source, and
    the wheel's record lists exactly them, each with its source's fingerprint."""
    assert "-cp3" in compiled_wheel.name and "none-any" not in compiled_wheel.name
    declared = native_build.declared()
    assert len(declared) >= 30
    with zipfile.ZipFile(compiled_wheel) as wheel:
        names = set(wheel.namelist())
        record = json.loads(wheel.read(f"parlour/{native.MANIFEST_NAME}"))["modules"]
    for module in declared:
        path = module.replace(".", "/")
        assert f"{path}.py" in names, module
        assert f"{path}{native.EXTENSION}" in names, module
    assert record == {module: native.fingerprint(native.source_path(module)) for module in declared}
    extensions = {name for name in names if name.endswith(native.EXTENSION)}
    groups = {
        f"{group.replace('.', '/')}__mypyc{native.EXTENSION}" for _, group in native_build.groups(declared)
    }
    assert extensions == {module.replace(".", "/") + native.EXTENSION for module in declared} | groups
    assert "parlour/core/game.py" in names and "parlour/games/embers/data/cards.json" in names


@pytest.mark.slow
def test_an_installed_wheel_runs_its_compiled_modules_and_its_sources_on_demand(
    compiled_wheel: Path, tmp_path: Path
) -> None:
    """Installed, the wheel runs the compiled modules (PARLOUR_NATIVE unset or 1), its sources with
    PARLOUR_NATIVE=0, and no stale warning (an install does not keep the build's file times)."""
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--target",
            str(target),
            compiled_wheel,
        ],
        check=True,
        timeout=300,
    )
    code = "import parlour.games.venture.packing as m, parlour.native as n; print(m.__file__, n.running())"
    for value, ending in (("", native.EXTENSION), ("1", native.EXTENSION), ("0", "packing.py")):
        env = {**os.environ, "PYTHONPATH": str(target), native.VARIABLE: value}
        done = subprocess.run(
            [sys.executable, "-W", "error", "-c", code],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        where, running = done.stdout.split(" ", 1)
        assert where.startswith(str(target)) and where.endswith(ending), (value, where)
        assert running.startswith("compiled (") == (value != "0"), (value, running)


@pytest.mark.slow
def test_parlour_compile_0_builds_a_pure_wheel_without_the_compiler(tmp_path: Path) -> None:
    """PARLOUR_COMPILE=0: a wheel for any platform, every source, no extension and no record."""
    wheel = build_wheel(tmp_path, PARLOUR_COMPILE="0")
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as opened:
        names = opened.namelist()
    assert "parlour/games/venture/packing.py" in names and "parlour/native.py" in names
    assert not [name for name in names if name.endswith(".so") or name.endswith(native.MANIFEST_NAME)]


@pytest.mark.slow
def test_the_sdist_holds_what_a_wheel_build_needs(tmp_path: Path) -> None:
    """The sdist (setuptools', no compiler) carries setup.py and the in-tree backend beside the sources."""
    tree = source_tree(tmp_path)
    code = (
        "import sys; sys.path[:0] = ['build_backend']; import parlour_build as b; print(b.build_sdist('d'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tree, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    with tarfile.open(tree / "d" / done.stdout.split()[-1]) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    assert {"setup.py", "MANIFEST.in", "build_backend/parlour_build.py", "pyproject.toml"} <= names
    assert "parlour/games/venture/packing.py" in names
    assert not [name for name in names if name.endswith(".so") or name.endswith(native.MANIFEST_NAME)]
