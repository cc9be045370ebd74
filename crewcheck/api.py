"""The decider façade: :func:`decide` and :func:`decide_many`.

Every back-end answers through :func:`decide`, which checks that the back-end supports
the deal, runs it under a budget, and replays every winning line with the independent
checker (:func:`crewcheck.model.replay`) before returning it. A back-end whose witness
is rejected raises :class:`BackendError`: a wrong "winnable" is never returned.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator

from crewcheck.errors import BackendError, CrewcheckError, IllegalPlayError, NotApplicableError
from crewcheck.model.instance import Instance
from crewcheck.model.replay import replay
from crewcheck.model.variants import Choice, variants
from crewcheck.solvers import registry
from crewcheck.solvers.base import Answer, Budget, Result, Stats, Verdict, Witness

__all__ = ["decide", "decide_many", "choose_backend", "check_witness", "unsupported_conditions"]


def choose_backend(instance: Instance) -> str:
    """The back-end ``backend="auto"`` (the default) uses for ``instance``.

    A special-case decider confirmed against the oracle whose class contains the deal
    (:data:`crewcheck.solvers.special.CONFIRMED`), else the first of
    :data:`registry.DEFAULT_ORDER` that is installed and supports it.

    Examples
    --------
    >>> from crewcheck.formats.deal_json import loads
    >>> choose_backend(loads('{"hands": [["B1", "G2"], ["B2", "G1"]], "lead": 0, '
    ...                      '"tasks": [{"card": "B2", "seat": 0}]}'))
    'two_player_one_task'
    """
    from crewcheck.solvers.special import CONFIRMED

    reasons = []
    for name in (*CONFIRMED, *registry.DEFAULT_ORDER):
        if name not in registry.BACKENDS or registry.missing(name) is not None:
            continue
        why = unsupported_conditions(registry.get(name), instance) or registry.get(name).supports(instance)
        if why is None:
            return name
        if name in registry.DEFAULT_ORDER:
            reasons.append(why)
    raise NotApplicableError("no installed back-end decides this deal: " + "; ".join(reasons))


def unsupported_conditions(solver: object, instance: Instance) -> str | None:
    """Why ``solver`` cannot judge ``instance``'s conditions, or ``None``."""
    if not instance.conditions:
        return None
    known: frozenset[str] = getattr(solver, "condition_kinds", frozenset())
    missing = sorted({c.kind for c in instance.conditions} - known)
    if not missing:
        return None
    return f"it does not judge the condition kind(s) {', '.join(missing)}"


def check_witness(instance: Instance, plays: tuple[int, ...], assignment: tuple[int, ...] | None,
                  backend: str, choice: Choice | None = None) -> Witness:
    """Replay a claimed win; :class:`BackendError` if the replay does not win."""
    try:
        outcome = replay(instance, plays, assignment, None if choice is None else dict(choice.seats))
    except IllegalPlayError as e:
        raise BackendError(f"backend {backend!r} returned an illegal witness: {e}") from None
    if not outcome.won:
        raise BackendError(f"backend {backend!r} returned a witness that does not win: "
                           f"{outcome.describe(instance)}")
    history_tricks = len(instance.history) // instance.players
    return Witness(tuple(plays), outcome.tricks, assignment, history_tricks,
                   None if choice is None or choice.is_empty() else choice)


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
    if not instance.is_concrete():
        return _decide_variants(instance, backend, budget)
    name = choose_backend(instance) if backend in (None, "auto") else registry.canonical(backend)
    solver = registry.get(name)
    why = unsupported_conditions(solver, instance) or solver.supports(instance)
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


def _decide_variants(instance: Instance, backend: str | None, budget: Budget) -> Result:
    """A deal that leaves the crew a choice: winnable when some variant is."""
    start = time.perf_counter()
    nodes, tried, unknown = 0, 0, False
    name = registry.canonical(backend) if backend not in (None, "auto") else "auto"
    for choice, variant in variants(instance):
        left = None if budget.seconds is None else budget.seconds - (time.perf_counter() - start)
        if left is not None and left <= 0:
            unknown = True
            break
        r = decide(variant, backend=backend, budget=Budget(left, budget.nodes, budget.cancel))
        tried += 1
        nodes += r.stats.nodes
        name = r.backend
        if r.verdict is Verdict.UNKNOWN:
            unknown = True
        if r.verdict is not Verdict.WINNABLE:
            continue
        assert r.witness is not None
        assignment = r.witness.assignment
        if choice.recipient is not None:
            assignment = (choice.recipient,) * len(instance.tasks)
        elif instance.rules.assignment == "fixed":
            assignment = None
        witness = check_witness(instance, r.witness.plays, assignment, name, choice)
        extra = {**r.stats.extra, "choice": choice.describe(), "variants_tried": tried}
        return Result(Verdict.WINNABLE, witness, name, instance.rules,
                      Stats(nodes, time.perf_counter() - start, extra))
    verdict = Verdict.UNKNOWN if unknown else Verdict.UNWINNABLE
    why = None if unknown else f"none of the crew's {tried} possible choice(s) can be won"
    return Result(verdict, None, name, instance.rules,
                  Stats(nodes, time.perf_counter() - start, {"variants_tried": tried}), why)


def decide_many(instances: Iterable[Instance], *, backend: str | None = None,
                budget: Budget | None = None, timeout: float | None = None) -> Iterator[Result]:
    """:func:`decide` each instance in turn (lazily, in input order)."""
    for instance in instances:
        yield decide(instance, backend=backend, budget=budget, timeout=timeout)
