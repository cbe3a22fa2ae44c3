"""Compiles the games' hot modules with mypyc: in place (``make native``), or for a wheel (``setup.py``).

Each game declares its hot modules (``Game.hot_modules``); :func:`declared` asks every game the
registry knows for them, keeping those of this package (a game of another package compiles in its own
build). ``python -m parlour.native_build`` builds the extension modules beside their sources (a game's
modules as one group, the groups in parallel; temporary files in ``build/``) and records them in
``parlour/compiled.json`` (``parlour.native``), unless that record already lists exactly the declared
modules, built from their present sources; ``--clean`` removes every built extension of the package and
the record. ``setup.py`` calls :func:`extensions` and :func:`record` to put the same modules in a wheel.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

from parlour import native
from parlour.core.registry import game_names, load_game


def declared() -> list[str]:
    """Returns the hot modules every game declares whose source is in this package, in the games' order."""
    found: list[str] = []
    for name in game_names():
        for module in load_game(name).hot_module_names():
            if module.startswith("parlour.") and module not in found:
                found.append(module)
    return found


def up_to_date() -> bool:
    """Whether the record lists exactly the declared modules, each built from its present source."""
    modules = declared()
    return (
        sorted(native.COMPILED) == sorted(modules)
        and native.built() == list(native.COMPILED)
        and not native.stale()
    )


def clean() -> None:
    """Removes every extension module built in the package (declared now or once) and the record."""
    for path in native.PACKAGE_ROOT.rglob("*" + native.EXTENSION):
        path.unlink()
    (native.PACKAGE_ROOT / native.MANIFEST_NAME).unlink(missing_ok=True)


def groups(modules: list[str]) -> list[tuple[list[str], str]]:
    """Returns the modules' sources (relative to the folder above the package) grouped by game (or top
    package), with each group's name."""
    found: dict[str, list[str]] = {}
    top = native.PACKAGE_ROOT.parent
    for module in modules:
        parts = module.split(".")
        group = ".".join(parts[:3] if parts[1] == "games" else parts[:2])
        found.setdefault(group, []).append(native.source_path(module).relative_to(top).as_posix())
    return [(sources, group + ".native") for group, sources in found.items()]


def extensions(modules: list[str]) -> list[Any]:
    """Returns setuptools' extensions of the modules, compiled by mypyc (run from the folder above the
    package; the C sources go to ``build/``)."""
    # The compiler is a build tool: imported only to build.
    from mypyc.build import mypycify

    found: list[Any] = []
    for sources, group in groups(modules):
        found += mypycify(sources, opt_level="3", separate=[(sources, group)])
    return found


def fingerprints(modules: list[str]) -> dict[str, str]:
    """Returns the modules' sources' fingerprints, taken before compiling (a source edited while the
    compiler runs is then recorded as changed, and runs from source)."""
    return {module: native.fingerprint(native.source_path(module)) for module in modules}


def record(prints: dict[str, str], root: Path) -> None:
    """Writes the record of the compiled modules (their sources' fingerprints taken before compiling)
    into the package folder ``root`` (the checkout's, or a wheel's build folder)."""
    native.write_manifest(root, prints)


def build() -> None:
    """Compiles every declared module in place (setuptools' build_ext with mypyc's extensions)."""
    from setuptools import setup

    modules = declared()
    prints = fingerprints(modules)
    clean()
    shutil.rmtree("build", ignore_errors=True)  # no object file of an older build is reused
    setup(
        name="parlour-native",
        ext_modules=extensions(modules),
        script_args=["--quiet", "build_ext", "--inplace", "--parallel", str(os.cpu_count() or 1)],
    )
    record(prints, native.PACKAGE_ROOT)


def main() -> None:
    """Builds (or with ``--clean``, removes) the compiled modules."""
    os.chdir(native.PACKAGE_ROOT.parent)
    if sys.argv[1:] == ["--clean"]:
        clean()
    elif up_to_date():
        print(f"native: {len(native.COMPILED)} compiled modules up to date")
    else:
        build()
        print(f"native: {len(declared())} modules compiled")


if __name__ == "__main__":
    main()
