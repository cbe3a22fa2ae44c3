"""Compiles the modules named in ``parlour.native.COMPILED`` with mypyc, in place (``make native``).

``python -m parlour.native_build`` builds the extension modules beside their sources (a game's
modules as one group, the groups in parallel; temporary files in ``build/``) unless every one is
newer than its source and than the list; ``--clean`` removes every built extension of the package.
The build reads the sources (mypyc analyses them with mypy): it imports no game module.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from parlour import native


def up_to_date() -> bool:
    """Whether every listed module is built and newer than its source and than the list itself."""
    listed = Path(native.__file__).stat().st_mtime
    for module in native.COMPILED:
        built = native.compiled_path(module)
        if not built.exists() or built.stat().st_mtime < max(
            listed, native.source_path(module).stat().st_mtime
        ):
            return False
    return True


def clean() -> None:
    """Removes every extension module built in the package (listed now or once)."""
    for path in native.PACKAGE_ROOT.rglob("*" + native.EXTENSION):
        path.unlink()


def groups() -> list[tuple[list[str], str]]:
    """Returns the listed modules' sources grouped by game (or top package), with each group's name."""
    found: dict[str, list[str]] = {}
    for module in native.COMPILED:
        parts = module.split(".")
        group = ".".join(parts[:3] if parts[1] == "games" else parts[:2])
        found.setdefault(group, []).append(str(native.source_path(module).relative_to(Path.cwd())))
    return [(sources, group + ".native") for group, sources in found.items()]


def build() -> None:
    """Compiles every group in place (setuptools' build_ext with mypyc's extensions)."""
    # The compiler is a development tool: imported only to build.
    from mypyc.build import mypycify
    from setuptools import setup

    clean()
    shutil.rmtree("build", ignore_errors=True)  # no object file of an older build is reused
    extensions = []
    for sources, group in groups():
        extensions += mypycify(sources, opt_level="3", separate=[(sources, group)])
    setup(
        name="parlour-native",
        ext_modules=extensions,
        script_args=["--quiet", "build_ext", "--inplace", "--parallel", str(os.cpu_count() or 1)],
    )
    for module in native.COMPILED:  # copies keep the build's times: mark them built now
        native.compiled_path(module).touch()


def main() -> None:
    """Builds (or with ``--clean``, removes) the compiled modules."""
    os.chdir(native.PACKAGE_ROOT.parent)
    if sys.argv[1:] == ["--clean"]:
        clean()
    elif up_to_date():
        print(f"native: {len(native.COMPILED)} compiled modules up to date")
    else:
        build()
        print(f"native: {len(native.COMPILED)} modules compiled")


if __name__ == "__main__":
    main()
