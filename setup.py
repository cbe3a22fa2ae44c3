"""Builds Parlour, its games' hot modules compiled with mypyc in a wheel (``PARLOUR_COMPILE=0``: pure).

Everything else comes from ``pyproject.toml``. A wheel's build (``pip install .``, ``pip wheel .``)
asks every game for its ``hot_modules`` (``parlour.native_build``), compiles them, and records them in
``parlour/compiled.json`` inside the wheel, beside the Python sources, which stay the reference and the
fallback (``PARLOUR_NATIVE``, ``parlour/native.py``). An sdist, an editable install (``make`` compiles
a checkout in place: ``make native``) and ``PARLOUR_COMPILE=0`` compile nothing.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
VARIABLE = "PARLOUR_COMPILE"
WHEEL_COMMANDS = {"bdist_wheel", "build", "build_ext", "install"}


def compiling() -> bool:
    """Whether this run builds a wheel with compiled modules (not an sdist, metadata or editable)."""
    value = os.environ.get(VARIABLE, "")
    if value not in ("", "0", "1"):
        sys.exit(f"{VARIABLE} must be 0 (a pure-Python wheel) or 1 (compiled), not {value[:20]!r}")
    commands = set(sys.argv[1:])
    return value != "0" and bool(commands & WHEEL_COMMANDS) and "editable_wheel" not in commands


def hot_modules() -> list[str]:
    """Returns the modules to compile: what the games of this source tree declare."""
    os.environ["PARLOUR_NATIVE"] = "0"  # the build reads the games from their sources
    sys.path.insert(0, str(HERE))
    from parlour import native_build

    if Path(native_build.__file__).resolve().parent != HERE / "parlour":
        sys.exit(f"the build imported another parlour ({native_build.__file__}), not {HERE / 'parlour'}")
    return native_build.declared()


MODULES = hot_modules() if compiling() else []
PRINTS: dict[str, str] = {}
"""The hot modules' sources' fingerprints, taken before mypyc compiles them (parlour/compiled.json)."""
if MODULES:
    from parlour import native_build

    PRINTS = native_build.fingerprints(MODULES)


class BuildPy(build_py):
    """setuptools' build_py, which also writes the record of the compiled modules into the wheel."""

    def run(self) -> None:
        """Copies the sources, then records the compiled modules beside them."""
        super().run()
        if MODULES:
            from parlour import native_build

            native_build.record(PRINTS, Path(self.build_lib) / "parlour")


def extensions() -> list[object]:
    """Returns mypyc's extensions of the hot modules (none when not compiling)."""
    if not MODULES:
        return []
    try:
        from parlour import native_build

        os.chdir(HERE)  # mypyc names the modules from their paths relative to here
        return native_build.extensions(MODULES)
    except ImportError as err:
        sys.exit(
            f"compiling the hot modules needs mypyc (pip install mypy): {err};"
            f" {VARIABLE}=0 builds a pure-Python wheel"
        )


setup(
    ext_modules=extensions(),
    cmdclass={"build_py": BuildPy},
    options={"build_ext": {"parallel": os.cpu_count() or 1}},
)
