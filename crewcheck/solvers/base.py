"""The one back-end interface: :class:`Solver`, :class:`Budget`, :class:`Answer`, :class:`Result`.

A back-end is any object with a ``name``, an ``exact`` flag, the optional modules it
``requires``, ``supports(instance)`` (``None`` or the reason it refuses) and
``decide(instance, *, budget) -> Answer``. It answers about the position after the
deal's history and, when winnable, gives the cards to play from there.
:func:`crewcheck.decide` turns that into a :class:`Result` whose witness has passed the
independent replay checker. Options, where a back-end has any, are one frozen dataclass
given to its constructor (``CpSatSolver(CpSatOptions(workers=2))``).
"""

from __future__ import annotations

import enum
import math
import numbers
import reprlib
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

from crewcheck.errors import InvalidInputError
from crewcheck.model.cards import CardIndex
from crewcheck.model.instance import Instance, Seat
from crewcheck.model.outcome import Trick
from crewcheck.model.rules import Rules
from crewcheck.model.variants import Choice

__all__ = ["Verdict", "Budget", "Deadline", "Answer", "Stats", "Witness", "Result", "Solver", "BudgetExceeded",
           "time_limit", "discard"]


class Verdict(enum.Enum):
    """The answer to "can this deal be won?"."""

    WINNABLE = "winnable"
    """Some line of play wins; the result carries it as a witness."""
    UNWINNABLE = "unwinnable"
    """No line of play wins."""
    UNKNOWN = "unknown"
    """The back-end ran out of budget before deciding."""


def time_limit(value: object, *, name: str = "timeout", allow_zero: bool = False) -> float | None:
    """The one rule for a time limit: ``None`` (no limit) or a positive finite number of
    seconds (``allow_zero``: or 0, a budget already spent; used inside the back-ends).

    Every back-end reads a limit the same way because every limit passes here: the
    ``timeout`` of :func:`crewcheck.decide`, :class:`Budget` and ``--timeout``.
    Raises :class:`TypeError` for a value that is not a number (``"abc"``, ``True``) and
    :class:`~crewcheck.errors.InvalidInputError` (a :class:`ValueError`) for ``nan``,
    infinity, a negative number or zero.

    Examples
    --------
    >>> time_limit(2), time_limit(None)
    (2.0, None)
    >>> time_limit(float("nan"))
    Traceback (most recent call last):
    ...
    crewcheck.errors.InvalidInputError: timeout must be a positive finite number of seconds, or None for no limit; got nan
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number of seconds or None, got {type(value).__name__} "
                        f"{reprlib.repr(value)}")
    try:
        seconds = float(value)
    except OverflowError:  # an int beyond any float
        seconds = math.inf
    if not math.isfinite(seconds) or seconds < 0 or (seconds == 0 and not allow_zero):
        raise InvalidInputError(f"{name} must be a positive finite number of seconds, or None for no limit; "
                                f"got {reprlib.repr(value)}")
    return seconds


@dataclass(frozen=True)
class Budget:
    """Limits on one decision; ``None`` means unlimited.

    ``seconds`` passes :func:`time_limit` (0 allowed: no time left) and ``nodes`` must be
    a whole number from 0, so a back-end never sees ``nan``, infinity or a string.
    """

    seconds: float | None = None
    """Wall-clock seconds."""
    nodes: int | None = None
    """Search nodes (back-ends that count nodes)."""
    cancel: Callable[[], bool] | None = field(default=None, compare=False)
    """Polled by back-ends that can stop early (``search``, ``sat``): once it returns
    true the back-end stops and answers UNKNOWN. Used by the parallel portfolio."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "seconds", time_limit(self.seconds, name="Budget.seconds", allow_zero=True))
        if self.nodes is not None and (isinstance(self.nodes, bool) or not isinstance(self.nodes, int)):
            raise TypeError(f"Budget.nodes must be a whole number or None, got {self.nodes!r}")
        if self.nodes is not None and self.nodes < 0:
            raise InvalidInputError(f"Budget.nodes must be at least 0, got {self.nodes!r}")

    def __repr__(self) -> str:
        parts = [f"{k}={v!r}" for k, v in (("seconds", self.seconds), ("nodes", self.nodes)) if v is not None]
        return f"Budget({', '.join(parts)})"

    def start(self) -> Deadline:
        return Deadline(self)


class BudgetExceeded(Exception):
    """Raised inside a back-end to unwind when the budget runs out (never escapes decide)."""


class Deadline:
    """A started budget: ``check(nodes)`` raises :class:`BudgetExceeded` once it is spent."""

    __slots__ = ("until", "nodes", "cancel")

    def __init__(self, budget: Budget) -> None:
        self.until = None if budget.seconds is None else time.monotonic() + budget.seconds
        self.nodes = budget.nodes
        self.cancel = budget.cancel

    def expired(self, nodes: int = 0) -> bool:
        if self.nodes is not None and nodes > self.nodes:
            return True
        if self.cancel is not None and self.cancel():
            return True
        return self.until is not None and time.monotonic() > self.until

    def check(self, nodes: int = 0) -> None:
        if self.expired(nodes):
            raise BudgetExceeded

    def remaining(self) -> float | None:
        return None if self.until is None else max(0.0, self.until - time.monotonic())


DISCARD_SLICE = 4096
"""Items a background free releases between two chances for other threads to run."""
DISCARD_MIN = 200_000
"""Shorter lists are freed by the caller (about 50 ms at most: not worth a thread)."""


def discard(*lists: list[Any]) -> None:
    """Empty large lists in a background thread, a slice at a time, so that the caller
    is not charged for freeing them: the constraints of a 200-card deal's formula take
    half a second to free, which would overrun the time limit that stopped its build.
    Call it once nothing reads the lists any more."""
    big = [x for x in lists if len(x) >= DISCARD_MIN]
    if not big:
        return

    def free() -> None:
        for items in big:
            while items:
                del items[-DISCARD_SLICE:]

    threading.Thread(target=free, name="crewcheck-free", daemon=True).start()


@dataclass(frozen=True)
class Answer:
    """What a back-end returns: the verdict, and for a win the cards to play next."""

    verdict: Verdict
    plays: tuple[CardIndex, ...] | None = None
    """Winning continuation from the position after the history (WINNABLE only)."""
    assignment: tuple[Seat, ...] | None = None
    """Free assignment: the seat of every task (WINNABLE only)."""
    nodes: int = 0
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Back-end specific statistics (table hits, clauses, ...)."""
    explanation: str | None = None


@dataclass(frozen=True)
class Stats:
    """Statistics of one decision."""

    nodes: int = 0
    seconds: float = 0.0
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Witness:
    """A winning game, checked by :func:`crewcheck.model.replay`."""

    plays: tuple[CardIndex, ...]
    """Every card of the game in play order, history included."""
    tricks: tuple[Trick, ...]
    """The same game as tricks (leader, cards, winner)."""
    assignment: tuple[Seat, ...] | None = None
    """Free assignment: the seat of every task."""
    history_tricks: int = 0
    """How many of ``tricks`` come from the deal's history (complete tricks)."""
    choice: Choice | None = None
    """What the crew chose before play, for deals that leave a choice
    (:mod:`crewcheck.model.variants`)."""


@dataclass(frozen=True)
class Result:
    """The answer of :func:`crewcheck.decide`."""

    verdict: Verdict
    witness: Witness | None
    backend: str
    rules: Rules
    stats: Stats
    explanation: str | None = None

    @property
    def seconds(self) -> float:
        return self.stats.seconds


@runtime_checkable
class Solver(Protocol):
    """What every back-end provides."""

    name: ClassVar[str]
    """Registry key."""
    exact: ClassVar[bool]
    """Sound and complete on its domain."""
    requires: ClassVar[tuple[tuple[str, str], ...]]
    """Optional modules it needs, as ``(module, pip extra)`` pairs; the registry reports
    the back-end missing (with ``pip install "crewcheck[extra]"``) while one is absent."""
    condition_kinds: ClassVar[frozenset[str]]
    """The condition kinds it decides (:data:`crewcheck.model.conditions.CONDITION_KINDS`);
    :func:`crewcheck.decide` refuses a deal with any other kind for it. A back-end that
    does not declare it decides deals without conditions only."""
    plays_covered: ClassVar[bool]
    """Whether it decides deals with covered cards (``Instance.covered``, JARVIS's
    columns); :func:`crewcheck.decide` refuses them for a back-end that does not declare it
    ``True``."""

    def supports(self, instance: Instance) -> str | None:
        """``None`` if this back-end decides ``instance``, else why not (one line)."""
        ...

    def decide(self, instance: Instance, *, budget: Budget) -> Answer:
        """Decide the position after ``instance.history``."""
        ...
