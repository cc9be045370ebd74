"""Back-end registry: names to import paths, imported only when used.

``import crewcheck`` never imports z3, ortools, numba or networkx: each back-end's module
is imported on first use, and :func:`available` reports which ones can be. A back-end
class lists what it needs as ``requires = (("z3", "z3"),)``: (module, pip extra); the
registry reads nothing of a back-end that :class:`~crewcheck.solvers.base.Solver` does not
declare.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterable
from functools import lru_cache

from crewcheck.errors import BackendUnavailableError, UnknownBackendError
from crewcheck.solvers.base import Solver

__all__ = ["BACKENDS", "ALIASES", "DEFAULT_ORDER", "BUSY_PROCESSES", "busy_processes", "canonical", "get", "missing", "installed", "available"]

BACKENDS: dict[str, str] = {
    "exhaustive": "crewcheck.solvers.exhaustive:ExhaustiveSolver",
    "search": "crewcheck.solvers.search.driver:SearchSolver",
    "z3": "crewcheck.solvers.logic.smt:Z3Solver",
    "cpsat": "crewcheck.solvers.logic.cpsat:CpSatSolver",
    "sat": "crewcheck.solvers.logic.sat:SatSolver",
    "engine": "crewcheck.solvers.engine:EngineSolver",
    "single_value": "crewcheck.solvers.special.single_value:SingleValueSolver",
    "single_suit_owned": "crewcheck.solvers.special.single_suit_owned:SingleSuitOwnedSolver",
    "single_suit": "crewcheck.solvers.special.single_suit:SingleSuitSolver",
    "two_player_one_task": "crewcheck.solvers.special.two_player_one_task:TwoPlayerOneTaskSolver",
    "hampath": "crewcheck.solvers.special.hampath:HamPathSolver",
    "planner": "crewcheck.solvers.heuristic.planner:PlannerSolver",
}
"""Back-end name -> ``"module:Class"``."""

ALIASES: dict[str, str] = {"oracle": "exhaustive", "portfolio": "engine"}

DEFAULT_ORDER: tuple[str, ...] = ("engine", "search", "exhaustive")
"""Preference order of the default back-end: the first that is registered, installed
and supports the deal."""

BUSY_PROCESSES: dict[str, int] = {"engine": 2}
"""Back-end name -> the processes one decision keeps busy at once, where more than one:
the engine's search races a SAT child. A batch starts one worker per that many cores, so
that the workers and their races never keep more busy processes than cores."""


def busy_processes(name: str) -> int:
    """Processes one decision of back-end ``name`` keeps busy (``"auto"``: the default
    back-end's, :data:`DEFAULT_ORDER`'s first; an unknown name: 1, its error is the
    decision's)."""
    key = name.lower()
    key = DEFAULT_ORDER[0] if key == "auto" else ALIASES.get(key, key)
    return BUSY_PROCESSES.get(key, 1)


def canonical(name: str) -> str:
    """The registered name for ``name`` (case-insensitive, aliases resolved)."""
    key = name.lower()
    key = ALIASES.get(key, key)
    if key not in BACKENDS:
        raise UnknownBackendError(f"unknown backend {name!r}; available: {', '.join(sorted(BACKENDS))}")
    return key


@lru_cache(maxsize=None)
def _load_class(name: str) -> type[Solver]:
    module, _, cls = BACKENDS[name].partition(":")
    found: type[Solver] = getattr(importlib.import_module(module), cls)
    return found


def get(name: str) -> Solver:
    """A ready back-end object; :class:`BackendUnavailableError` if its dependency is missing."""
    key = canonical(name)
    missing = _missing(key)
    if missing:
        raise BackendUnavailableError(missing)
    return _load_class(key)()


def missing(name: str) -> str | None:
    """``None`` if back-end ``name`` is usable here, else the install hint (one back-end's
    part of :func:`available`, cheaper when only one is asked about)."""
    return _missing(canonical(name))


def _missing(name: str) -> str | None:
    try:
        cls = _load_class(name)
    except ImportError as e:
        return f"backend {name!r} cannot be imported: {e}"
    for mod, extra in cls.requires:
        if importlib.util.find_spec(mod) is None:
            return f"backend {name!r} needs {mod}: pip install \"crewcheck[{extra}]\""
    return None


def installed(names: Iterable[str]) -> tuple[str, ...]:
    """The names among ``names`` that are registered and usable here, in their order
    (:func:`crewcheck.api.choose_backend` picks from these)."""
    return tuple(n for n in names if n in BACKENDS and _missing(n) is None)


def available() -> dict[str, str | None]:
    """Every back-end -> ``None`` if usable here, else the install hint."""
    return {name: _missing(name) for name in sorted(BACKENDS)}
