"""Can a *Mission Deep Sea* mission be won? The ways the crew can take the drawn task
cards (:func:`crewcheck.missions.deepsea.takings`) are decided until one wins: quick
rounds of the search over the takings, one SAT formula for the takings a round leaves
open (they are apart only in their conditions:
:func:`crewcheck.solvers.logic.condition_choices.decide_conditions`), then the back-end
on each one left, in order (:func:`crewcheck.solvers.choosing.decide_choices`).

A mission is ``winnable`` when some taking is, ``unwinnable`` when every taking is
(a taking whose conditions cannot fit the deal, such as a card that needs a card out of
play, counts as lost), and ``unknown`` when none wins and some ran out of time.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from crewcheck.api import decide, decide_together
from crewcheck.errors import InvalidDealError
from crewcheck.formats.deal_json import from_dict, with_conditions
from crewcheck.missions.deepsea import DeepSeaMission, card_conditions, first_taking, mission_deal, takings
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Budget, Result, Verdict
from crewcheck.solvers.choosing import decide_choices

__all__ = ["MissionVerdict", "decide_mission", "QUICK_SECONDS"]

QUICK_SECONDS = 0.05
"""The first quick round's time on a block of takings before the rest go to the one
formula of their conditions (:func:`crewcheck.solvers.choosing.decide_choices`'s
``pause``; the logbook's choices keep its default, a quarter of a second). Takings are
apart only in their conditions, and that formula costs less than the round on most
(the Deep Sea study: p99 0.52 s with a quarter of a second, 0.39 s with this, in one
session; ``docs/performance.md``)."""


@dataclass(frozen=True)
class MissionVerdict:
    """The answer for one mission."""

    verdict: Verdict
    takings: int
    """How many takings the crew has."""
    tried: int
    """How many were answered (the search stops at the first winnable one): by the
    quick rounds of the search, the formula of several takings together or the back-end
    (:mod:`crewcheck.solvers.choosing`)."""
    winning: tuple[int, ...] | None
    """The seat of each card in the first winnable taking."""
    seconds: float
    """Seconds of the decision, the compiled kernel's first loading in the process not
    charged (as :func:`crewcheck.decide` does)."""
    backends: tuple[str, ...]
    """The back-ends that answered, in the order the takings were answered."""


def decide_mission(mission: DeepSeaMission, *, timeout: float | None = None, backend: str | None = None,
                   budget: float | None = None,
                   progress: Callable[[int, int], None] | None = None) -> MissionVerdict:
    """Decide ``mission`` over its takings (``timeout``: seconds per full decision of a
    taking; ``budget``: seconds for the whole mission, after which the answer is
    ``unknown`` unless a taking won; ``progress(settled, takings)`` after each taking
    answered). The takings get quick rounds of the search first, then the back-end in
    order (:func:`crewcheck.solvers.choosing.decide_choices`)."""
    start = time.perf_counter()
    options = list(takings(mission))
    cards = _Cards(mission)

    def deals() -> Iterator[Instance | None]:
        for owners in options:
            try:
                yield cards.taking(owners)
            except InvalidDealError:
                yield None

    def one(inst: Instance, name: str | None, limit: Budget) -> Result:
        seconds = limit.seconds if timeout is None else timeout if limit.seconds is None else \
            min(timeout, limit.seconds)
        return decide(inst, backend=name, budget=Budget(seconds, limit.nodes, limit.cancel))

    left = None if budget is None else max(0.0, budget - (time.perf_counter() - start))  # listing them counts
    found = decide_choices(deals(), one, backend, Budget(seconds=left), shared=decide_together,
                           settled=None if progress is None else lambda n: progress(n, len(options)),
                           pause=QUICK_SECONDS)
    winning = None if found.index is None else options[found.index]
    seconds = max(0.0, time.perf_counter() - start - found.loading)
    return MissionVerdict(found.verdict, len(options), found.settled, winning, seconds, found.backends)


class _Cards:
    """A mission's deals, one per taking, as :func:`~crewcheck.formats.deal_json.from_dict`
    reads :func:`mission_deal`'s file: the deal without conditions is read once, each
    card's conditions at each seat once (:func:`~crewcheck.formats.deal_json.with_conditions`:
    the deal with that card alone), and a taking's deal is the first card's with the
    conditions of every card, checked again as a whole."""

    def __init__(self, mission: DeepSeaMission) -> None:
        self.mission = mission
        deal = {k: v for k, v in mission_deal(mission, first_taking(mission)).items() if k != "comment"}
        self.base = from_dict({**deal, "conditions": []})
        self.parsed: dict[tuple[int, int], Instance | InvalidDealError] = {}

    def taking(self, owners: tuple[int, ...]) -> Instance:
        """The deal with card ``i`` taken by ``owners[i]``; :class:`InvalidDealError` when
        a card's conditions cannot fit the deal."""
        parts = [self.card(i, seat) for i, seat in enumerate(owners)]
        return replace(parts[0], conditions=tuple(c for part in parts for c in part.conditions))

    def card(self, i: int, seat: int) -> Instance:
        """The deal with card ``i`` alone, taken by ``seat``."""
        one = self.parsed.get((i, seat))
        if one is None:
            try:
                one = with_conditions(self.base, card_conditions(self.mission, i, seat))
            except InvalidDealError as e:
                one = e
            self.parsed[(i, seat)] = one
        if isinstance(one, InvalidDealError):
            raise one
        return one
