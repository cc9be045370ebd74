"""Where a played game was lost (:func:`review`): the first card after which the deal
could no longer be won, found by bisection over the positions of the game.

*Monotonicity along a game.* A position reached from a winnable one by a card that keeps
it winnable is winnable; a position after an unwinnable one is unwinnable. So along a
played game the verdicts read "winnable" up to one card and "unwinnable" after it, and
:func:`review` finds that card by bisection (about ``log2(cards played)`` decisions),
skipping ahead along every winning line it is given that the game followed. All the
decisions share the search's refutation table (:func:`crewcheck.solvers.search.table.shared`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from crewcheck.analysis.analyse import Analysis, analyse
from crewcheck.analysis.run import Cancel, Decisions, Progress
from crewcheck.api import decide
from crewcheck.model.cards import CardIndex
from crewcheck.model.instance import Instance, Seat
from crewcheck.model.variants import play_variant
from crewcheck.solvers.base import Budget, Result, Verdict
from crewcheck.solvers.search.table import shared

__all__ = ["Step", "Review", "review"]


@dataclass(frozen=True)
class Step:
    """One card of a reviewed game and the verdicts around it."""

    index: int
    """Position of the card in the history (0 = the first card of the game)."""
    card: CardIndex
    seat: Seat
    trick: int
    """Trick number, from 1."""
    before: Verdict
    """Whether the position before the card could be won."""
    after: Verdict
    """Whether the position after it could be won."""


@dataclass(frozen=True)
class Review:
    """Where a played game (an instance's history) stopped being winnable."""

    instance: Instance
    steps: tuple[Step, ...]
    """One per card of the history."""
    start: Verdict
    """Verdict of the deal before its first card."""
    end: Verdict
    """Verdict of the position after the whole history."""
    losing: int | None = None
    """Index of the first card after which the game could no longer be won; ``None`` if
    there is none (never winnable, still winnable, or undecided)."""
    alternatives: Analysis | None = None
    """The analysis of the position before the losing card: its winnable classes are the
    cards that kept the game winnable."""
    explanation: str | None = None
    """Why the deal could never be won (when it could not)."""
    gap: tuple[int, int] | None = None
    """When decisions ran out of time: the loss lies after card ``gap[0]`` and by card
    ``gap[1]`` (indices), but which card is undecided."""
    backend: str = ""
    seconds: float = 0.0
    decisions: int = 0
    nodes: int = 0


# -- review ---------------------------------------------------------------------------
def review(instance: Instance, *, backend: str | None = None, timeout: float | None = None,
           cancel: Cancel | None = None, progress: Progress | None = None, explain: bool = True) -> Review:
    """Where the game in ``instance.history`` stopped being winnable.

    Finds the first card after which the deal could no longer be won (by bisection over
    the positions of the game, see the module docstring) and analyses the position
    before it (:func:`analyse`): its winnable classes are the cards that would have kept
    the game winnable. A deal that was never winnable gets the back-end's reason or,
    with ``explain``, a smallest set of tasks that cannot all be completed (the ``sat``
    back-end's minimised core).

    Parameters are those of :func:`analyse`; ``timeout`` is per decision.

    Examples
    --------
    >>> from crewcheck.formats.notation import parse_deal
    >>> game = parse_deal("B1 B2 B4 | B3 G1 G2 ; trump - ; lead 0 ; tasks B3@1 ; strict/fixed ; played B4 B3")
    >>> r = review(game, backend="exhaustive")
    >>> r.start.value, r.losing, [str(game.card(v.cards[0])) for v in r.alternatives.winning]
    ('winnable', 0, ['B1'])
    """
    t0 = time.perf_counter()
    run = Decisions(backend, timeout, cancel, progress)
    history = instance.history
    n = len(history)
    base = instance.with_history(())
    prefixes = [base] * (n + 1)
    known: dict[int, Verdict] = {}
    results: dict[int, Result] = {}
    lines: dict[int, Result] = {}  # a decided (or inherited) winning result per known-winnable prefix

    def at(k: int) -> Instance:
        if k and prefixes[k] is base:
            prefixes[k] = base.with_history(history[:k])
        return prefixes[k]

    def decide_at(k: int) -> Verdict:
        r = run.decide(at(k), f"the position after {k} card(s)" if k else "the deal")
        known[k] = r.verdict
        results[k] = r
        if r.verdict is Verdict.WINNABLE:
            lines[k] = r
        return r.verdict

    def follow(k: int) -> int:
        """Skip ahead along the winning line found at ``k`` while the game followed it."""
        w = lines[k].witness
        line = w.plays if w is not None else ()
        j = k
        while j < n and j < len(line) and line[j] == history[j]:
            j += 1
            known[j] = Verdict.WINNABLE
            lines[j] = lines[k]
        return j

    explanation = None
    losing = None
    gap = None
    alternatives = None
    with shared():
        start = decide_at(0)
        run.total = 3 + n.bit_length()
        lo, hi = 0, None
        if start is Verdict.WINNABLE:
            lo = follow(0)
            if lo < n:
                end_verdict = decide_at(n)
                if end_verdict is Verdict.WINNABLE:
                    lo = n
                elif end_verdict is Verdict.UNWINNABLE:
                    hi = n
            lo, hi, gap = _bisect(lo, hi, decide_at, follow)
        end = known.get(n, Verdict.UNKNOWN)
        if hi is not None and gap is None:
            losing = hi - 1
            end = Verdict.UNWINNABLE
            if not run.cancelled():
                first_lost = lines.get(losing)
                alternatives = analyse(at(losing), backend=backend, timeout=timeout, cancel=cancel,
                                       progress=_shifted(progress, run), position=first_lost,
                                       tasks=False)
                run.decisions += alternatives.decisions
                run.nodes += alternatives.nodes
        elif start is Verdict.UNWINNABLE:
            end = Verdict.UNWINNABLE
    if start is Verdict.UNWINNABLE:
        explanation = results[0].explanation or _explanation(base, run, explain)
    steps = _steps(instance, known, start, end, losing, gap)
    return Review(instance, steps, start, end, losing, alternatives, explanation, gap,
                  ", ".join(sorted(run.names)), time.perf_counter() - t0, run.decisions, run.nodes)


def _bisect(lo: int, hi: int | None, decide_at: Callable[[int], Verdict],
            follow: Callable[[int], int]) -> tuple[int, int | None, tuple[int, int] | None]:
    """Narrow ``lo`` (known winnable) and ``hi`` (known unwinnable) to neighbours; an
    undecided midpoint is stepped over, and if nothing between is decided the loss is
    reported as a gap ``(lo, hi)``."""
    if hi is None:
        return lo, None, None
    while hi - lo > 1:
        mid = (lo + hi) // 2
        verdict = decide_at(mid)
        probe = mid
        while verdict is Verdict.UNKNOWN and probe + 1 < hi:
            probe += 1
            verdict = decide_at(probe)
        if verdict is Verdict.UNKNOWN:
            probe = mid
            while verdict is Verdict.UNKNOWN and probe - 1 > lo:
                probe -= 1
                verdict = decide_at(probe)
        if verdict is Verdict.WINNABLE:
            lo = follow(probe)
        elif verdict is Verdict.UNWINNABLE:
            hi = probe
        else:
            return lo, hi, (lo, hi - 1)
    return lo, hi, None


def _shifted(progress: Progress | None, run: Decisions) -> Progress | None:
    if progress is None:
        return None
    base = run.decisions

    def shifted(done: int, total: int, what: str) -> None:
        progress(base + done, base + total, what)

    return shifted


def _explanation(base: Instance, run: Decisions, explain: bool) -> str | None:
    """Why the deal can never be won: the decision's own reason, else (``explain``) the
    minimised core of the ``sat`` back-end, within the per-decision time limit (10 s
    when there is none)."""
    if not explain or run.cancelled():
        return None
    from crewcheck.solvers import registry

    if registry.missing("sat") is not None:
        return None
    r = decide(base, backend="sat", budget=Budget(seconds=run.timeout or 10.0, cancel=run.cancel))
    run.decisions += 1
    return r.explanation if r.verdict is Verdict.UNWINNABLE else None


def _steps(instance: Instance, known: dict[int, Verdict], start: Verdict, end: Verdict,
           losing: int | None, gap: tuple[int, int] | None) -> tuple[Step, ...]:
    """Each card with the verdicts before and after it, decided or implied by monotonicity."""
    n = len(instance.history)
    won_until = max((k for k, v in known.items() if v is Verdict.WINNABLE), default=-1)
    lost_from = min((k for k, v in known.items() if v is Verdict.UNWINNABLE), default=n + 1)
    if losing is not None:
        won_until, lost_from = losing, losing + 1

    def verdict(k: int) -> Verdict:
        if k <= won_until:
            return Verdict.WINNABLE
        if k >= lost_from:
            return Verdict.UNWINNABLE
        return known.get(k, Verdict.UNKNOWN)

    state = play_variant(instance).initial_state()
    steps = []
    for i, card in enumerate(instance.history):
        seat = state.to_play if state.to_play is not None else instance.holder[card]
        trick = state.tricks_played + 1
        steps.append(Step(i, card, seat, trick, verdict(i), verdict(i + 1)))
        state = state.apply(card)
    return tuple(steps)
