"""The compiled modules (parlour/native.py): which are listed, how the sources are chosen instead, how a
stale build is found, and, in `make test`'s compiled run, that the compiled modules really run."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from parlour import native


def test_every_listed_module_is_a_module_of_the_package() -> None:
    """Each name of COMPILED is a plain module (a .py file), listed once."""
    assert len(set(native.COMPILED)) == len(native.COMPILED)
    for module in native.COMPILED:
        assert module.startswith("parlour.")
        assert native.source_path(module).is_file(), module


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


def test_a_build_older_than_its_source_is_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """stale() names the compiled modules older than their source, and only those."""
    monkeypatch.setattr(native, "PACKAGE_ROOT", tmp_path)
    monkeypatch.setattr(native, "COMPILED", ("parlour.fresh", "parlour.old", "parlour.unbuilt"))
    for name in ("fresh", "old", "unbuilt"):
        (tmp_path / f"{name}.py").write_text("")
    for name, built, source in (("fresh", 2_000, 1_000), ("old", 1_000, 2_000)):
        (tmp_path / f"{name}{native.EXTENSION}").write_text("")
        os.utime(tmp_path / f"{name}{native.EXTENSION}", (built, built))
        os.utime(tmp_path / f"{name}.py", (source, source))
    assert native.stale() == ["parlour.old"]
    assert native.built() == ["parlour.fresh", "parlour.old"]


@pytest.mark.skipif(os.environ.get(native.VARIABLE) != "1", reason="the compiled run of `make test` only")
def test_the_compiled_run_runs_every_listed_module_compiled() -> None:
    """Under PARLOUR_NATIVE=1 every listed module is loaded from its extension module."""
    for module in native.COMPILED:
        loaded = importlib.import_module(module)
        assert str(loaded.__file__).endswith(native.EXTENSION), module
    assert native.running().startswith(f"compiled ({len(native.COMPILED)} of {len(native.COMPILED)}")
