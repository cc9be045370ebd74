"""The decider façade: :func:`decide` and :func:`decide_many`.

Every back-end answers through :func:`decide`, which checks that the back-end supports
the deal, runs it under a budget, and replays every winning line with the independent
checker (:func:`crewcheck.model.replay`) before returning it. A back-end whose witness
is rejected raises :class:`BackendError`: a wrong "winnable" is never returned.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence

from crewcheck.errors import BackendError, CrewcheckError, IllegalPlayError, NotApplicableError
from crewcheck.model.instance import Instance
from crewcheck.model.replay import replay
from crewcheck.solvers import registry
from crewcheck.solvers.base import Answer, Budget, Result, Stats, Verdict, Witness
from crewcheck.solvers.special import CONFIRMED

__all__ = ["decide", "decide_many", "choose_backend", "check_witness"]


def choose_backend(instance: Instance | None = None, *, among: Sequence[str] | None = None) -> str:
    """The first back-end of ``among`` that is registered, installed and (given
    ``instance``) decides it: the one place a back-end is chosen.

    ``among`` defaults to what ``backend="auto"`` (the default of :func:`decide`) tries:
    a special-case decider confirmed against the oracle
    (:data:`crewcheck.solvers.special.CONFIRMED`), then :data:`registry.DEFAULT_ORDER`.
    The bench's oracle, the claims' cross-checks and de Jong's Figure 3 pass their own
    orders.

    Raises
    ------
    NotApplicableError
        No back-end of ``among`` is installed and decides ``instance`` (the message gives
        the reasons of those that refused, confirmed special cases apart).

    Examples
    --------
    >>> from crewcheck.formats.deal_json import loads
    >>> choose_backend(loads('{"hands": [["B1", "G2"], ["B2", "G1"]], "lead": 0, '
    ...                      '"tasks": [{"card": "B2", "seat": 0}]}'))
    'two_player_one_task'
    >>> choose_backend(among=("search", "exhaustive"))
    'search'
    """
    order = (*CONFIRMED, *registry.DEFAULT_ORDER) if among is None else tuple(among)
    reasons = []
    for name in registry.installed(order):
        why = None if instance is None else registry.get(name).supports(instance)
        if why is None:
            return name
        if name not in CONFIRMED:
            reasons.append(why)
    if instance is None:
        raise NotApplicableError(f"none of the back-ends {', '.join(order)} is installed")
    raise NotApplicableError("no installed back-end decides this deal: " + "; ".join(reasons))


def check_witness(instance: Instance, plays: tuple[int, ...], assignment: tuple[int, ...] | None,
                  backend: str) -> Witness:
    """Replay a claimed win; :class:`BackendError` if the replay does not win."""
    try:
        outcome = replay(instance, plays, assignment)
    except IllegalPlayError as e:
        raise BackendError(f"backend {backend!r} returned an illegal witness: {e}") from None
    if not outcome.won:
        raise BackendError(f"backend {backend!r} returned a witness that does not win: "
                           f"{outcome.describe(instance)}")
    history_tricks = len(instance.history) // instance.players
    return Witness(tuple(plays), outcome.tricks, assignment, history_tricks)


def decide(instance: Instance, *, backend: str | None = None, budget: Budget | None = None,
           timeout: float | None = None) -> Result:
    """Decide whether ``instance`` (from the position after its history) can be won.

    Parameters
    ----------
    instance
        The deal.
    backend
        A registered back-end name (see ``crewcheck backends``), or ``None``/``"auto"``
        for the default (:func:`choose_backend`).
    budget, timeout
        Limits; ``timeout`` is shorthand for ``Budget(seconds=timeout)``. When the
        budget runs out the verdict is ``UNKNOWN`` (never a guess).

    Raises
    ------
    UnknownBackendError, BackendUnavailableError
        Bad back-end name, or its dependency is not installed.
    NotApplicableError
        The back-end does not decide this kind of deal (the message says why).
    BackendError
        The back-end crashed or returned a witness the replay checker rejects.

    Examples
    --------
    >>> from crewcheck.formats.deal_json import loads
    >>> deal = loads('{"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0}]}')
    >>> r = decide(deal, backend="exhaustive")
    >>> r.verdict, [str(deal.card(c)) for c in r.witness.plays]
    (<Verdict.WINNABLE: 'winnable'>, ['B1', 'B4', 'B2', 'B3'])
    """
    if budget is None:
        budget = Budget(seconds=timeout)
    elif timeout is not None:
        budget = Budget(seconds=timeout, nodes=budget.nodes)
    name = choose_backend(instance) if backend in (None, "auto") else registry.canonical(backend)
    solver = registry.get(name)
    why = solver.supports(instance)
    if why is not None:
        raise NotApplicableError(f"backend {name!r} does not decide this deal: {why}")
    start = time.perf_counter()
    state = instance.state()
    if state.end is not None:
        outcome = state.end
        answer = Answer(Verdict.WINNABLE if outcome.won else Verdict.UNWINNABLE,
                        plays=() if outcome.won else None,
                        assignment=state.owners if outcome.won else None,
                        explanation=f"the played history has already ended the game: "
                                    f"{outcome.describe(instance)}")
    else:
        try:
            answer = solver.decide(instance, budget=budget)
        except CrewcheckError:
            raise
        except Exception as e:  # a back-end bug must not pass for an answer
            raise BackendError(f"backend {name!r} failed: {type(e).__name__}: {e}") from e
    seconds = time.perf_counter() - start
    witness = None
    if answer.verdict is Verdict.WINNABLE:
        if answer.plays is None:
            raise BackendError(f"backend {name!r} said winnable without a witness")
        witness = check_witness(instance, instance.history + tuple(answer.plays), answer.assignment, name)
    return Result(answer.verdict, witness, name, instance.rules,
                  Stats(answer.nodes, seconds, dict(answer.extra)), answer.explanation)


def decide_many(instances: Iterable[Instance], *, backend: str | None = None,
                budget: Budget | None = None, timeout: float | None = None) -> Iterator[Result]:
    """:func:`decide` each instance in turn (lazily, in input order)."""
    for instance in instances:
        yield decide(instance, backend=backend, budget=budget, timeout=timeout)
