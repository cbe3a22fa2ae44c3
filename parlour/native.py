"""Which modules run compiled (mypyc), and how Parlour chooses between them and their Python source.

The hot paths of random playouts and search (Venture's arrangement moves and packing, Venus Needs
Men!'s step lists...) are plain, strictly typed modules that each game declares in its ``Game``
(``hot_modules``). The build compiles them with mypyc into extension modules: a wheel's build
(``pip install .``: ``setup.py``), or ``make native`` (``native_build.py``) beside their sources in a
checkout; ``make play``, ``serve``, ``test`` and ``bench`` run it first. Either build records what it
compiled, each module with a digest of the source it was compiled from, in :data:`MANIFEST_NAME`;
this module reads that record and never names a game's module. The Python sources stay the reference:
``make test`` runs the whole suite on them (its coverage is theirs), then the rules' tests again on the
compiled modules. When the package is imported, ``PARLOUR_NATIVE`` in the environment chooses:

- ``0``: every ``parlour`` module is loaded from its Python source;
- ``1``: the compiled modules must be built and fresh (an ImportError says which is not);
- unset: the compiled modules where they are built (none built: all source, silently); if a source
  differs from the one its module was compiled from (edited since the build), or extension modules
  lie in the package that the record does not name, all source, with a warning that says how to
  rebuild, so a stale build never runs.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.machinery
import json
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

VARIABLE = "PARLOUR_NATIVE"
"""The environment variable that chooses: ``0`` Python sources, ``1`` compiled modules required."""
PACKAGE_ROOT = Path(__file__).resolve().parent
MANIFEST_NAME = "compiled.json"
"""The build's list of compiled modules, in the package's folder (not in git: each build writes it)."""
SHARED_LIBRARY = "native__mypyc."
"""How mypyc names the library its compiled modules of one game share (no module of a source)."""
EXTENSION = importlib.machinery.EXTENSION_SUFFIXES[0]
"""The file ending of an extension module built for this interpreter (``.cpython-311-...so``)."""


def fingerprint(source: Path) -> str:
    """Returns the digest of a source file that a build records and :func:`stale` compares."""
    return hashlib.sha256(source.read_bytes()).hexdigest()


def read_manifest(root: Path) -> dict[str, str]:
    """Returns the compiled modules a build recorded under ``root`` (by name, each with its source's
    :func:`fingerprint`); an empty dict when nothing was built or the file is unreadable."""
    try:
        data = json.loads((root / MANIFEST_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    modules = data.get("modules") if isinstance(data, dict) else None
    if not isinstance(modules, dict):
        return {}
    return {
        name: digest
        for name, digest in modules.items()
        if isinstance(name, str) and name.startswith("parlour.") and isinstance(digest, str)
    }


def write_manifest(root: Path, modules: dict[str, str]) -> None:
    """Records the compiled modules and their sources' fingerprints under ``root`` (the builds call it)."""
    text = json.dumps({"modules": dict(sorted(modules.items()))}, indent=1)
    (root / MANIFEST_NAME).write_text(text + "\n", encoding="utf-8")


COMPILED: dict[str, str] = read_manifest(PACKAGE_ROOT)
"""The modules the last build compiled, by name, each with the fingerprint of its source then."""


def source_path(module: str) -> Path:
    """Returns the Python source of a module of the package."""
    return PACKAGE_ROOT.joinpath(*module.split(".")[1:]).with_suffix(".py")


def compiled_path(module: str) -> Path:
    """Returns where a module's compiled extension lies (built or not)."""
    source = source_path(module)
    return source.with_name(source.stem + EXTENSION)


def stale() -> list[str]:
    """Returns the built modules whose source is not the one they were compiled from (empty when fresh)."""
    return [
        module
        for module, digest in COMPILED.items()
        if compiled_path(module).exists()
        and (not source_path(module).exists() or fingerprint(source_path(module)) != digest)
    ]


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


def unrecorded() -> list[str]:
    """Returns the extension modules in the package that no build recorded (left by a build from before
    the record, by a module no longer declared, or copied in): nothing says what they were compiled
    from, and Python would load them before their sources (mypyc's shared library of a game's group,
    ``native__mypyc``, has no source and is left out)."""
    return sorted(
        str(path.relative_to(PACKAGE_ROOT))
        for folder, _, names in os.walk(PACKAGE_ROOT)
        for name in names
        if name.endswith(EXTENSION)
        and not name.startswith(SHARED_LIBRARY)
        and _module_of(path := Path(folder, name)) not in COMPILED
    )


def _module_of(extension: Path) -> str:
    """Returns the module name of an extension module file of the package."""
    parts = extension.relative_to(PACKAGE_ROOT).with_name(extension.name[: -len(EXTENSION)]).parts
    return ".".join(("parlour", *parts))


def choose() -> None:
    """Loads the Python sources alone when asked to or when a compiled module is stale (see above)."""
    if any(isinstance(finder, SourceOnly) for finder in sys.meta_path):
        return
    wanted = requested()
    old = [] if wanted == "0" else stale() or unrecorded()
    if wanted == "1":
        if not COMPILED:
            raise ImportError(
                f"{VARIABLE}=1 but no module is compiled: run `make native` (or install a compiled wheel)"
            )
        missing = [module for module in COMPILED if module not in built()]
        if old or missing:
            state = "stale" if old else "not built"
            raise ImportError(f"{VARIABLE}=1 but {(old + missing)[0]} is {state}: run `make native`")
    elif old:
        warnings.warn(
            f"{len(old)} compiled module(s) differ from their source or are not in the build's record"
            f" ({old[0]}...): running the Python sources; `make native` (or reinstalling) rebuilds them",
            RuntimeWarning,
            stacklevel=2,
        )
    if old or wanted == "0":
        sys.meta_path.insert(0, SourceOnly())
