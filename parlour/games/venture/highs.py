"""HiGHS, the optimiser's MILP solver, called as ``scipy.optimize.milp`` calls it, without loading
``scipy.optimize``.

``scipy.optimize.milp`` checks its arguments, turns the constraints into a column-wise matrix and
hands the model and its options to the HiGHS library scipy ships (the extension module
``scipy.optimize._highspy._core``).  :func:`solve` hands that same library the same model (the
caller's column-wise matrix, bounds and costs, every variable an integer) and the same options
(``log_to_console`` off, ``mip_rel_gap`` 0, ``presolve`` off), so HiGHS takes the same path and
returns the same solution, ties included; it skips importing ``scipy.optimize`` (about half a second
at the first ``reorganise best``) and the checks (about a millisecond a solve).

The extension module is loaded from scipy's files under its own name and recorded in
``sys.modules``, so a later ``import scipy.optimize`` uses this very module (a second load would
register HiGHS's types twice).  When it cannot be loaded (another scipy layout), :func:`core` says
None and the optimiser calls ``scipy.optimize.milp`` instead (``tests/games/venture/test_highs.py``
checks both give the same solutions).
"""

from __future__ import annotations

import functools
import importlib.machinery
import importlib.util
import os.path
import sys
from dataclasses import dataclass
from typing import Any

import scipy  # the package alone (a few milliseconds): where its HiGHS library lies

__all__ = ["CORE", "Model", "core", "solve"]

CORE = "scipy.optimize._highspy._core"
"""The module name of scipy's HiGHS library."""


@dataclass(frozen=True, slots=True)
class Model:
    """An integer programme as HiGHS takes it: minimise ``cost`` subject to ``row_lower <= A x <=
    row_upper`` and ``0 <= x <= upper``, every variable an integer, ``A`` column-wise (``starts``,
    ``index``, ``value``: each column's rows in ascending order)."""

    cost: list[float]
    upper: list[float]
    row_lower: list[float]
    row_upper: list[float]
    starts: list[int]
    index: list[int]
    value: list[float]


@functools.cache
def core() -> Any | None:
    """Returns scipy's HiGHS extension module, loaded once without ``scipy.optimize`` (None if it
    cannot be found or loaded)."""
    loaded = sys.modules.get(CORE)
    if loaded is not None:
        return loaded
    try:
        # The library's file, not content: os.path locates it (importlib loads it).
        folder = os.path.join(os.path.dirname(scipy.__file__), "optimize", "_highspy")
        found = [os.path.join(folder, f"_core{s}") for s in importlib.machinery.EXTENSION_SUFFIXES]
        path = next(p for p in found if os.path.isfile(p))
        spec = importlib.util.spec_from_file_location(
            CORE, path, loader=importlib.machinery.ExtensionFileLoader(CORE, path)
        )
        if spec is None or spec.loader is None:  # pragma: no cover - defensive
            return None
        module = importlib.util.module_from_spec(spec)
        sys.modules[CORE] = module
        spec.loader.exec_module(module)
        module._Highs  # noqa: B018 - the part solve() needs; raises AttributeError if missing
    except (StopIteration, ImportError, OSError, AttributeError):  # pragma: no cover - other layouts
        sys.modules.pop(CORE, None)
        return None
    return module


def solve(model: Model) -> list[float] | None:
    """Returns HiGHS's optimal solution of the model (None unless HiGHS proves one optimal)."""
    highs = core()
    assert highs is not None, "solve() needs core()"
    n_cols, n_rows = len(model.cost), len(model.row_upper)
    lp = highs.HighsLp()
    lp.num_col_ = lp.a_matrix_.num_col_ = n_cols
    lp.num_row_ = lp.a_matrix_.num_row_ = n_rows
    lp.a_matrix_.format_ = highs.MatrixFormat.kColwise
    lp.col_cost_ = model.cost
    lp.col_lower_ = [0.0] * n_cols
    lp.col_upper_ = model.upper
    lp.row_lower_ = model.row_lower
    lp.row_upper_ = model.row_upper
    lp.a_matrix_.start_ = model.starts
    lp.a_matrix_.index_ = model.index
    lp.a_matrix_.value_ = model.value
    lp.integrality_ = [highs.HighsVarType.kInteger] * n_cols
    solver = highs._Highs()
    # What scipy.optimize.milp sets for options={"mip_rel_gap": 0.0, "presolve": False}.
    options = highs.HighsOptions()
    options.log_to_console = False
    options.mip_rel_gap = 0.0
    options.presolve = "off"
    if solver.passOptions(options) == highs.HighsStatus.kError:  # pragma: no cover - defensive
        return None
    if solver.passModel(lp) == highs.HighsStatus.kError:  # pragma: no cover - defensive
        return None
    if solver.run() == highs.HighsStatus.kError:  # pragma: no cover - defensive
        return None
    if solver.getModelStatus() != highs.HighsModelStatus.kOptimal:  # pragma: no cover - defensive
        return None
    return list(solver.getSolution().col_value)
