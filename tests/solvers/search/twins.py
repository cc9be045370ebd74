"""The search kernel's two forms, for tests that run both on the same inputs."""

from __future__ import annotations

from typing import Any

from crewcheck.solvers.search import kernel


def twin_and_compiled() -> list[tuple[Any, bool]]:
    """The plain twin and, with numba, the compiled kernel, each with whether it is compiled
    (the compiled one takes int64 arrays, the twin lists)."""
    out: list[tuple[Any, bool]] = [(kernel.twin(), False)]
    try:
        out.append((kernel.compiled(), True))
    except ImportError:
        pass
    return out
