"""Parlour's build backend: setuptools', asking for mypyc and numpy only when a wheel is compiled.

A wheel's build (``pip install .``, ``pip wheel .``) compiles the games' hot modules with mypyc
(``setup.py``), which needs mypy (mypyc is part of it) and numpy (the build imports the games to read
their ``hot_modules``, and mypyc analyses their imports). ``PARLOUR_COMPILE=0`` builds a pure-Python
wheel and asks for neither; an sdist never needs them.
"""

from __future__ import annotations

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 (every other hook is setuptools' own)

COMPILER = ["mypy==2.4.1", "numpy>=1.26"]
"""What compiling needs beyond setuptools: the mypy whose mypyc the hot modules are tested with."""


def get_requires_for_build_wheel(config_settings: dict[str, object] | None = None) -> list[str]:
    """Returns setuptools' requirements, and the compiler's unless ``PARLOUR_COMPILE=0``."""
    extra = [] if os.environ.get("PARLOUR_COMPILE") == "0" else COMPILER
    return [*_setuptools.get_requires_for_build_wheel(config_settings), *extra]
