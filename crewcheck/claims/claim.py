"""Claim records, computations and verdicts for the claims ledger.

A :class:`Claim` pairs a published statement (with the paper's number kept only
as ``expected``) with a ``compute`` callable that re-derives the quantity from
scratch. The callable returns a :class:`Computation`: named computed values,
each saying how it was computed, plus free-form evidence. The ledger runner
(:mod:`crewcheck.claims.ledger`) turns a computation into a :class:`Verdict`. The
claims themselves (statements, published numbers) are data:
``crewcheck/claims/data/claims.json``, read by :mod:`crewcheck.claims.registry`.

References
----------
.. [1] M. Witteveen, bachelor thesis on The Crew, seed ``000``, §3.
.. [2] de Jong, seed ``001``, §4.4 and Figure 3.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

Mode: TypeAlias = Literal["quick", "full"]
"""How much work a computation may do: ``quick`` (CI) or ``full``."""


class Status(enum.Enum):
    """Outcome of re-deriving one claim."""

    CONFIRMED = "confirmed"
    """Every independent computation agrees with the published statement."""
    REFUTED = "refuted"
    """A computation contradicts the statement; evidence has the corrected value."""
    OPEN = "open"
    """The claim could not be decided (missing back-end, budget, error)."""


@dataclass(frozen=True, slots=True)
class Value:
    """One computed quantity and how it was obtained."""

    name: str
    """Short identifier, for example ``"burnside_total"``."""
    value: Any
    """The computed value (JSON-serialisable)."""
    method: str
    """One sentence on how the value was computed."""


@dataclass(frozen=True, slots=True)
class Computation:
    """What a claim's ``compute`` callable returns."""

    values: tuple[Value, ...]
    """Named computed values, each with its method."""
    holds: bool | None
    """Whether the statement holds; ``None``: decide by comparing the values
    named like the keys of the claim's ``expected`` mapping."""
    evidence: str = ""
    """Free-form evidence: corrected value, counterexample path, or reason."""
    notes: tuple[str, ...] = ()
    """Ledger notes, e.g. rule discrepancies between paper and rulebook."""
    counterexample: str | None = None
    """Path of a counterexample file under ``models/counterexamples/``."""
    open_reason: str | None = None
    """Why the claim could not be decided (makes the verdict OPEN)."""

    def value(self, name: str) -> Any:
        """Return the value called `name`.

        Raises
        ------
        KeyError
            If no value has that name.
        """
        for v in self.values:
            if v.name == name:
                return v.value
        raise KeyError(f"no computed value named {name!r}")


ComputeFn: TypeAlias = Callable[[Mode], Computation]
"""What re-derives a claim: called with the mode, returns the computation."""


@dataclass(frozen=True, slots=True)
class Claim:
    """A published claim and the computation that re-derives it."""

    id: str
    """Stable identifier, e.g. ``"witteveen-thm-3.12"``."""
    source: str
    """Seed file and section, e.g. ``"000 §3.2, Thm 3.12"``."""
    statement: str
    """The claim in words, as published."""
    expected: Any
    """The published value (only ever compared against, never used to compute)."""
    compute: ComputeFn = field(repr=False, compare=False)
    """Re-derive the claim; receives the mode."""
    notes: tuple[str, ...] = ()
    """Standing notes (rule discrepancies, reading of the paper)."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The ledger line for one claim."""

    claim: Claim
    """The claim."""
    status: Status
    """CONFIRMED, REFUTED or OPEN."""
    established: Status | None
    """The verdict the project recorded earlier, if any."""
    computation: Computation | None
    """The computation, or ``None`` when it could not run."""
    seconds: float
    """Wall time of the computation."""
    mode: Mode
    """The mode it ran in."""
    reason: str = ""
    """Why the claim is OPEN, when it is."""

    @property
    def changed(self) -> bool:
        """Whether the status differs from the established one."""
        return self.established is not None and self.status is not self.established

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-serialisable dictionary."""
        comp = self.computation
        return {
            "id": self.claim.id,
            "source": self.claim.source,
            "statement": self.claim.statement,
            "expected": self.claim.expected,
            "status": self.status.name,
            "established": None if self.established is None else self.established.name,
            "changed": self.changed,
            "mode": self.mode,
            "seconds": round(self.seconds, 3),
            "reason": self.reason,
            "values": [] if comp is None else [
                {"name": v.name, "value": v.value, "method": v.method} for v in comp.values
            ],
            "evidence": "" if comp is None else comp.evidence,
            "counterexample": None if comp is None else comp.counterexample,
            "notes": list(self.claim.notes) + ([] if comp is None else list(comp.notes)),
        }
