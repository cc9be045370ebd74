"""What the decisions of one analysis share: the progress and cancel callbacks and the
bookkeeping of the calls of :func:`crewcheck.api.decide`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from crewcheck.api import decide
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Budget, Result

__all__ = ["Progress", "Cancel", "Decisions"]

Progress = Callable[[int, int, str], None]
"""``progress(done, total, what)``: called before each decision (``total`` may grow)."""
Cancel = Callable[[], bool]
"""Polled during and between decisions; once it returns true the rest is ``UNKNOWN``."""


@dataclass
class Decisions:
    """The decisions of one :func:`~crewcheck.analysis.analyse.analyse` or
    :func:`~crewcheck.analysis.review.review`: counted, timed by one time limit each, cancellable."""

    backend: str | None
    timeout: float | None
    cancel: Cancel | None
    progress: Progress | None
    total: int = 0
    decisions: int = 0
    nodes: int = 0
    names: set[str] = field(default_factory=set)

    def cancelled(self) -> bool:
        return self.cancel is not None and self.cancel()

    def decide(self, instance: Instance, what: str) -> Result:
        if self.progress is not None:
            self.progress(self.decisions, max(self.total, self.decisions + 1), what)
        result = decide(instance, backend=self.backend,
                        budget=Budget(seconds=self.timeout, cancel=self.cancel))
        self.decisions += 1
        self.nodes += result.stats.nodes
        self.names.add(result.backend)
        return result
