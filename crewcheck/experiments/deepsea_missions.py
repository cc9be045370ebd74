"""Can a *Mission Deep Sea* mission be won? Every way the crew can take the drawn task
cards (:func:`crewcheck.missions.deepsea.takings`) is decided in turn until one wins.

A mission is ``winnable`` when some taking is, ``unwinnable`` when every taking is
(a taking whose conditions cannot fit the deal, such as a card that needs a card out of
play, counts as lost), and ``unknown`` when none wins and some ran out of time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from crewcheck.api import decide
from crewcheck.errors import InvalidDealError
from crewcheck.formats.deal_json import from_dict
from crewcheck.missions.deepsea import DeepSeaMission, mission_deal, takings
from crewcheck.solvers.base import Verdict

__all__ = ["MissionVerdict", "decide_mission"]


@dataclass(frozen=True)
class MissionVerdict:
    """The answer for one mission."""

    verdict: Verdict
    takings: int
    """How many takings the crew has."""
    tried: int
    """How many were decided (the search stops at the first winnable one)."""
    winning: tuple[int, ...] | None
    """The seat of each card in the first winnable taking."""
    seconds: float
    backends: tuple[str, ...]
    """The back-ends that answered, in the order of the takings tried."""


def decide_mission(mission: DeepSeaMission, *, timeout: float | None = None, backend: str | None = None,
                   budget: float | None = None,
                   progress: Callable[[int, int], None] | None = None) -> MissionVerdict:
    """Decide ``mission`` taking by taking (``timeout``: seconds per taking; ``budget``:
    seconds for the whole mission, after which the answer is ``unknown`` unless a taking
    won; ``progress(tried, takings)`` after each taking)."""
    start = time.perf_counter()
    options = list(takings(mission))
    unknown = False
    used: list[str] = []
    for n, owners in enumerate(options, start=1):
        left = None if budget is None else budget - (time.perf_counter() - start)
        if left is not None and left <= 0:
            return MissionVerdict(Verdict.UNKNOWN, len(options), n - 1, None, time.perf_counter() - start,
                                  tuple(used))
        deal = mission_deal(mission, owners)
        try:
            inst = from_dict({k: v for k, v in deal.items() if k != "comment"})
        except InvalidDealError:
            used.append("-")
        else:
            limit = left if timeout is None else timeout if left is None else min(timeout, left)
            r = decide(inst, backend=backend, timeout=limit)
            used.append(r.backend)
            if r.verdict is Verdict.WINNABLE:
                return MissionVerdict(Verdict.WINNABLE, len(options), n, owners, time.perf_counter() - start,
                                      tuple(used))
            unknown = unknown or r.verdict is Verdict.UNKNOWN
        if progress is not None:
            progress(n, len(options))
    verdict = Verdict.UNKNOWN if unknown else Verdict.UNWINNABLE
    return MissionVerdict(verdict, len(options), len(options), None, time.perf_counter() - start, tuple(used))
