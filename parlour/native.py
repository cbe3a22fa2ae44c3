"""Which modules run compiled (mypyc), and how Parlour chooses between them and their Python source.

The hot paths of random playouts and search (Venture's arrangement moves and packing, Venus Needs
Men!'s step lists...) are plain, strictly typed modules that ``make native`` (``native_build.py``)
compiles with mypyc into extension modules beside their sources; ``make play``, ``serve``, ``test``
and ``bench`` build them first. The Python sources stay the reference: ``make test`` runs the whole
suite on them (its coverage is theirs), then the rules' tests again on the compiled modules. When the
package is imported, ``PARLOUR_NATIVE`` in the environment chooses:

- ``0``: every ``parlour`` module is loaded from its Python source;
- ``1``: the compiled modules must be built and fresh (an ImportError says which is not);
- unset: the compiled modules where they are built (none built: all source, silently); if one is
  older than its source (edited since ``make native``), all source, with a warning that says how to
  rebuild, so a stale build never runs.
"""

from __future__ import annotations

import ast
import importlib.machinery
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

COMPILED: tuple[str, ...] = (
    "parlour.games.venture.arrangements",
    "parlour.games.venture.bots",
    "parlour.games.venture.catalogue",
    "parlour.games.venture.conglomerates",
    "parlour.games.venture.content",
    "parlour.games.venture.deal",
    "parlour.games.venture.drawing",
    "parlour.games.venture.encoding",
    "parlour.games.venture.estimate",
    "parlour.games.venture.options",
    "parlour.games.venture.packing",
    "parlour.games.venture.payment",
    "parlour.games.venture.people",
    "parlour.games.venture.position",
    "parlour.games.venture.record",
    "parlour.games.venture.reorganisation",
    "parlour.games.venture.rules",
    "parlour.games.venture.scoring",
    "parlour.games.venture.table",
    "parlour.games.venture.takeovers",
    "parlour.games.venture.undo",
    "parlour.games.venture.views",
    "parlour.games.venus_needs_men.board",
    "parlour.games.venus_needs_men.encoding",
    "parlour.games.venus_needs_men.enhanced",
    "parlour.games.venus_needs_men.estimate",
    "parlour.games.venus_needs_men.factions",
    "parlour.games.venus_needs_men.population",
    "parlour.games.venus_needs_men.research",
    "parlour.games.venus_needs_men.steps",
    "parlour.games.venus_needs_men.tech",
    "parlour.games.venus_needs_men.zapdeck",
)
"""The modules ``make native`` compiles, by name (each must be a module, not a package)."""
VARIABLE = "PARLOUR_NATIVE"
"""The environment variable that chooses: ``0`` Python sources, ``1`` compiled modules required."""
PACKAGE_ROOT = Path(__file__).resolve().parent
EXTENSION = importlib.machinery.EXTENSION_SUFFIXES[0]
"""The file ending of an extension module built for this interpreter (``.cpython-311-...so``)."""


def source_path(module: str) -> Path:
    """Returns the Python source of a module of the package."""
    return PACKAGE_ROOT.joinpath(*module.split(".")[1:]).with_suffix(".py")


def compiled_path(module: str) -> Path:
    """Returns where a module's compiled extension lies (built or not)."""
    source = source_path(module)
    return source.with_name(source.stem + EXTENSION)


def stale() -> list[str]:
    """Returns the compiled modules older than their source (an empty list when all are fresh)."""
    found = []
    for module in COMPILED:
        built = compiled_path(module)
        if built.exists() and built.stat().st_mtime < source_path(module).stat().st_mtime:
            found.append(module)
    return found


def written_annotations(module: str, name: str) -> dict[str, str]:
    """Returns the annotations of a top-level class of a package module as its source writes them (a
    compiled class keeps only their runtime classes: ``parlour.core.hints``)."""
    # The source beside the extension (a compiled module's own __file__ names a path that is not there).
    tree = ast.parse(source_path(module).read_text(encoding="utf-8"))
    return {
        node.target.id: ast.unparse(node.annotation)
        for klass in tree.body
        if isinstance(klass, ast.ClassDef) and klass.name == name
        for node in klass.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
    }


def built() -> list[str]:
    """Returns the modules of :data:`COMPILED` whose extension is built."""
    return [module for module in COMPILED if compiled_path(module).exists()]


def requested() -> str:
    """Returns what the environment asks for: ``0`` (sources), ``1`` (compiled) or ``""`` (either)."""
    value = os.environ.get(VARIABLE, "")
    if value not in ("", "0", "1"):
        raise ImportError(
            f"{VARIABLE} must be 0 (Python sources) or 1 (compiled modules), not {value[:20]!r}"
        )
    return value


class SourceOnly(MetaPathFinder):
    """Finds the package's modules among Python sources only, so no compiled extension is loaded."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        """Returns the spec of a ``parlour`` submodule's source (None for anything else)."""
        if not fullname.startswith("parlour.") or path is None:
            return None
        sources = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
        for entry in path:
            spec = importlib.machinery.FileFinder(entry, sources).find_spec(fullname, target)
            if spec is not None:
                return spec
        return None


def running() -> str:
    """Returns which kind of modules run: ``compiled (N modules)`` or ``pure Python``."""
    if any(isinstance(finder, SourceOnly) for finder in sys.meta_path):
        return "pure Python"
    loaded = [name for name in COMPILED if _is_extension(sys.modules.get(name))]
    return f"compiled ({len(loaded)} of {len(COMPILED)} modules loaded)" if loaded else "pure Python"


def _is_extension(module: ModuleType | None) -> bool:
    """Whether a loaded module came from an extension module."""
    return module is not None and str(getattr(module, "__file__", "")).endswith(EXTENSION)


def choose() -> None:
    """Loads the Python sources alone when asked to or when a compiled module is stale (see above)."""
    if any(isinstance(finder, SourceOnly) for finder in sys.meta_path):
        return
    wanted = requested()
    old = [] if wanted == "0" else stale()
    if wanted == "1":
        missing = [module for module in COMPILED if module not in built()]
        if old or missing:
            state = "stale" if old else "not built"
            raise ImportError(f"{VARIABLE}=1 but {(old + missing)[0]} is {state}: run `make native`")
    elif old:
        warnings.warn(
            f"{len(old)} compiled module(s) are older than their source ({old[0]}...): running the Python"
            " sources; `make native` rebuilds them",
            RuntimeWarning,
            stacklevel=2,
        )
    if old or wanted == "0":
        sys.meta_path.insert(0, SourceOnly())
