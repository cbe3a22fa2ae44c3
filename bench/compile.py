"""An experiment: a copy of ``parlour`` in build/compiled with what mypyc can compile of it compiled.

``python bench/compile.py [--jobs N] [--only core,venus-needs-men]`` copies the package (and
pyproject.toml, whose mypy settings mypyc reads) into build/compiled, then compiles the core's and the
games' modules there, in place: ``PYTHONPATH=build/compiled`` selects the compiled modules, and the
checkout's own pure-Python tree stays the default. The modules listed in EXCLUDED stay interpreted
(why, beside each); so does everything outside COMPILED (front ends, bots' search, server, tools).
See "A compiled hot path (mypyc)" in docs/scaling.md.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "build" / "compiled"
COMPILED: dict[str, str] = {
    "core": "parlour/core",
    "venus-needs-men": "parlour/games/venus_needs_men",
    "venture": "parlour/games/venture",
    "im-the-boss": "parlour/games/im_the_boss",
    "embers": "parlour/games/embers",
}
"""The packages compiled, by the name ``--only`` takes."""
EXCLUDED: dict[str, str] = {
    "parlour/core/notation.py": "Action's subclasses are dataclasses made by the @action decorator, which "
    "mypyc cannot make native, and a non-native class may not subclass a native one",
    "parlour/core/payloads.py": "mypyc's dataclasses resolve field annotations in the module's globals, "
    "where the builtin ``object`` is not (KeyError: 'object' on import)",
    "parlour/core/game.py": "every game's class subclasses Game, interpreted (see the games' __init__.py), "
    "and an interpreted class may not subclass a compiled one",
    "parlour/core/state.py": "mypy narrows self._offered to None across the call in apply_legal (it is "
    "reset there, and the decision sets it again during the call); mypyc trusts the narrowing and "
    "raises TypeError (None object expected; got tuple)",
    "parlour/core/modular.py": "I'm the Boss!'s BossState (interpreted: it declares decisions) subclasses "
    "ModularState, and an interpreted class may not subclass a compiled one",
    "parlour/core/zones.py": "I'm the Boss!'s SpaceForm (interpreted, beside BossState) subclasses Form, and "
    "an interpreted class may not subclass a compiled one",
    "parlour/games/im_the_boss/negotiation_form.py": "declares a runtime-checkable Protocol, which mypyc "
    "compiles into a class that is not a protocol",
    "parlour/games/venture/board.py": "the SVG board (not on the hot path): mypyc refuses an int added to "
    "a float variable",
    "parlour/games/embers/position.py": "reading positions (not on the hot path): mypyc refuses a class "
    "attribute read through the class, and native objects have no vars()",
    "parlour/games/im_the_boss/game_state.py": "its class subclasses BossState (interpreted: it declares "
    "decisions) over the compiled GameState, and mypyc writes a call of GameState's __init__ with too "
    "many arguments",
    **dict.fromkeys(
        (
            f"parlour/games/{game}/actions.py"
            for game in ("embers", "im_the_boss", "venture", "venus_needs_men")
        ),
        "declares actions: dataclasses over Action (interpreted, see notation.py), which mypyc compiles but "
        "cannot create on import (AttributeError: attribute '__dict__' of 'type' objects is not writable)",
    ),
    **dict.fromkeys(
        (f"parlour/games/{game}/state.py" for game in ("embers", "venture")),
        "declares the game's state: ModularState.clone (interpreted, see modular.py) makes the copy with "
        "__new__, which a compiled class refuses (__init__() missing required argument) unless it allows "
        "interpreted subclasses, as Venus Needs Men!'s does (compiled by the build that ships)",
    ),
    **dict.fromkeys(
        (f"parlour/games/{game}/game_state.py" for game in ("embers", "venture", "venus_needs_men")),
        "the state's front-end methods: mypyc drops the class attribute views = views (the module)",
    ),
    **dict.fromkeys(
        (f"parlour/games/{game}/position.py" for game in ("im_the_boss", "venture", "venus_needs_men")),
        "reading positions (not on the hot path): KeyError on compiled records",
    ),
    "parlour/games/embers/content.py": "its records are read through their type hints (payloads), and "
    "mypyc's dataclasses keep only the hints' classes (tuple, not tuple[CardKind, ...])",
    "parlour/games/venus_needs_men/combat.py": "mypyc 2.4 writes C that does not compile for qray's "
    "while loop (a jump to label -1)",
}
"""Modules of the compiled packages that stay interpreted, and why."""
DECISIONS = (
    "parlour/core/decisions.py",
    "parlour/games/venus_needs_men/decision.py",
    "parlour/games/venus_needs_men/turns.py",
    "parlour/games/venus_needs_men/zapping.py",
    "parlour/games/venture/reorganisation.py",
    "parlour/games/venture/rules.py",
    "parlour/games/venture/takeovers.py",
    "parlour/games/venture/undo.py",
    "parlour/games/im_the_boss/bargain.py",
    "parlour/games/im_the_boss/closing.py",
    "parlour/games/im_the_boss/plays.py",
    "parlour/games/im_the_boss/state.py",
    "parlour/games/im_the_boss/turn.py",
    "parlour/games/embers/answers.py",
    "parlour/games/embers/turn.py",
)
"""Modules declaring decisions: dataclasses that are generic and abstract, which mypyc 2.4 compiles but
cannot create on import (AttributeError: attribute '__dict__' of 'type' objects is not writable;
mypyc issues 827 and 1061)."""
EXCLUDED.update(dict.fromkeys(DECISIONS, "declares decisions (see DECISIONS)"))
EXCLUDED.update(
    (
        f"{package}/__init__.py",
        "the game's class (not on the hot path): mypyc refuses its class attributes "
        "that narrow the type Game declares (quick_options, text_colours)",
    )
    for package in COMPILED.values()
    if package.startswith("parlour/games/")
)


def copy_tree() -> None:
    """Replaces build/compiled with a fresh copy of the package and pyproject.toml."""
    shutil.rmtree(TARGET, ignore_errors=True)
    TARGET.mkdir(parents=True)
    shutil.copytree(ROOT / "parlour", TARGET / "parlour", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(ROOT / "pyproject.toml", TARGET / "pyproject.toml")


def modules(names: list[str]) -> list[str]:
    """The source files to compile (relative to build/compiled) of the named packages."""
    found = []
    for name in names:
        for path in sorted((TARGET / COMPILED[name]).glob("*.py")):
            relative = path.relative_to(TARGET).as_posix()
            if relative not in EXCLUDED:
                found.append(relative)
    return found


def build(paths: list[str], jobs: int, opt_level: str) -> None:
    """Compiles ``paths`` with mypyc, one C file per module, built in place by ``jobs`` compilers."""
    from mypyc.build import mypycify
    from setuptools import setup

    os.chdir(TARGET)
    extensions = mypycify(paths, opt_level=opt_level, multi_file=True)
    setup(
        name="parlour-compiled",
        ext_modules=extensions,
        script_args=["--quiet", "build_ext", "--inplace", "--parallel", str(jobs)],
    )


def main() -> None:
    """Copies the package into build/compiled and compiles the chosen packages there."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--jobs", type=int, default=2, help="C compilers run at once (default 2)")
    parser.add_argument(
        "--opt-level", default="3", help="the C compiler's -O level (default 3; 0 builds fast)"
    )
    parser.add_argument("--only", default=",".join(COMPILED), help="packages to compile, comma-separated")
    args = parser.parse_args()
    names = args.only.split(",")
    unknown = sorted(set(names) - set(COMPILED))
    if unknown:
        sys.exit(f"unknown packages: {', '.join(unknown)} (known: {', '.join(COMPILED)})")
    start = time.perf_counter()
    copy_tree()
    paths = modules(names)
    build(paths, args.jobs, args.opt_level)
    built = sum(1 for _ in TARGET.glob("parlour/**/*.so"))
    if built != len(paths):
        sys.exit(f"mypyc built {built} of {len(paths)} modules")
    print(f"compiled {len(paths)} modules into {TARGET} in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
