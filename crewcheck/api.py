"""The decider façade: :func:`decide` and :func:`decide_many`.

Every back-end answers through :func:`decide`, which checks that the back-end supports
the deal, runs it under a budget, and replays every winning line with the independent
checker (:func:`crewcheck.model.replay`) before returning it. A back-end whose witness
is rejected raises :class:`BackendError`: a wrong "winnable" is never returned.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeAlias

from crewcheck.errors import BackendError, CrewcheckError, IllegalPlayError, NotApplicableError
from crewcheck.model.instance import Instance
from crewcheck.model.replay import replay
from crewcheck.model.variants import Choice, variant_assignment, variants
from crewcheck.solvers import registry
from crewcheck.solvers.base import Answer, Budget, Result, Stats, Verdict, Witness, time_limit
from crewcheck.solvers.choosing import HEAD_SECONDS, decide_choices
from crewcheck.solvers.logic.choices import COUNTS_SECONDS, SIGNAL_BACKENDS, count_groups, decide_counts, decide_signal
from crewcheck.solvers.logic.condition_choices import CONDITIONS_SECONDS, condition_groups, decide_conditions
from crewcheck.solvers.search.refutations import signal_refutation
from crewcheck.solvers.signal_search import QuickPass, quick_signal_win
from crewcheck.solvers.special import CONFIRMED

__all__ = ["decide", "decide_many", "decide_together", "choose_backend", "check_witness", "as_instance", "DealLike",
           "unsupported_conditions", "unsupported_rules"]

DealLike: TypeAlias = "Instance | Mapping[str, Any] | str | os.PathLike[str]"
"""What :func:`decide` accepts as a deal: an :class:`Instance`, a parsed deal file (a
mapping, as :func:`crewcheck.from_dict` takes) or the path of a deal file."""


def as_instance(deal: object) -> Instance:
    """``deal`` as an :class:`Instance`: itself, a mapping through
    :func:`crewcheck.from_dict`, a path (``str`` or :class:`os.PathLike`) through
    :func:`crewcheck.load`. :class:`TypeError` for anything else; a path that cannot be
    read or a deal that is not valid raises :class:`~crewcheck.errors.InvalidInputError`."""
    if isinstance(deal, Instance):
        return deal
    from crewcheck.formats import deal_json

    if isinstance(deal, Mapping):
        return deal_json.from_dict(deal)
    if isinstance(deal, (str, os.PathLike)):
        if isinstance(deal, str) and deal.lstrip().startswith("{"):
            raise TypeError("decide() takes an Instance, a deal mapping or a file path; "
                            "for JSON text use crewcheck.loads(text)")
        return deal_json.load(Path(deal))
    raise TypeError(f"decide() takes an Instance, a deal mapping or a file path, got {type(deal).__name__}")


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
        why = None if instance is None else (unsupported_rules(registry.get(name), instance)
                                             or registry.get(name).supports(instance))
        if why is None:
            return name
        if name not in CONFIRMED and why not in reasons:  # the engine's reason is the search's
            reasons.append(why)
    if instance is None:
        raise NotApplicableError(f"none of the back-ends {', '.join(order)} is installed")
    raise NotApplicableError("no installed back-end decides this deal: " + "; ".join(reasons))


def unsupported_rules(solver: object, instance: Instance) -> str | None:
    """Why ``solver`` cannot decide ``instance`` under its rules (covered cards, the
    condition kinds) before its own :meth:`supports` is asked, or ``None``."""
    if instance.covered and not getattr(solver, "plays_covered", False):
        return "it does not play covered cards (the two-player game's JARVIS columns; use --backend engine, search or sat)"
    return unsupported_conditions(solver, instance)


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
        distress = None
        if choice is not None and choice.passes is not None and choice.direction is not None:
            distress = (choice.direction, choice.passes)
        outcome = replay(instance, plays, assignment, None if choice is None else dict(choice.seats), distress,
                         token_move=None if choice is None else choice.token_move,
                         handover=None if choice is None else choice.handover)
    except IllegalPlayError as e:
        raise BackendError(f"backend {backend!r} returned an illegal witness: {e}") from None
    if not outcome.won:
        raise BackendError(f"backend {backend!r} returned a witness that does not win: "
                           f"{outcome.describe(instance)}")
    history_tricks = len(instance.history) // instance.players
    return Witness(tuple(plays), outcome.tricks, assignment, history_tricks,
                   None if choice is None or choice.is_empty() else choice)


def decide(instance: DealLike, *, backend: str | None = None, budget: Budget | None = None,
           timeout: float | None = None) -> Result:
    """Decide whether ``instance`` (from the position after its history) can be won.

    Parameters
    ----------
    instance
        The deal: an :class:`Instance`, or for convenience a parsed deal file (a
        mapping, read by :func:`crewcheck.from_dict`) or the path of a deal file (read
        by :func:`crewcheck.load`); see :func:`as_instance`.
    backend
        A registered back-end name (see ``crewcheck backends``), or ``None``/``"auto"``
        for the default (:func:`choose_backend`).
    budget, timeout
        Limits; ``timeout`` is shorthand for ``Budget(seconds=timeout)``: a positive
        finite number of seconds, or ``None`` for no limit
        (:func:`~crewcheck.solvers.base.time_limit`). The clock starts when the
        back-end starts deciding: loading the compiled search kernel into a fresh
        process is not charged, and ``Result.stats.seconds`` is measured the same way.
        When the budget runs out the verdict is ``UNKNOWN`` (never a guess).

    Raises
    ------
    TypeError
        ``instance`` is not a deal, ``timeout`` not a number, ``budget`` not a
        :class:`Budget`.
    InvalidInputError
        A deal file or mapping that is not a valid deal; a ``timeout`` that is not
        positive and finite.
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
    instance = as_instance(instance)
    seconds_limit = time_limit(timeout)
    if budget is not None and not isinstance(budget, Budget):
        raise TypeError(f"budget must be a Budget or None, got {type(budget).__name__}")
    if backend is not None and not isinstance(backend, str):
        raise TypeError(f"backend must be a back-end name or None, got {type(backend).__name__}")
    if budget is None:
        budget = Budget(seconds=seconds_limit)
    elif seconds_limit is not None:
        budget = Budget(seconds=seconds_limit, nodes=budget.nodes, cancel=budget.cancel)
    if not instance.is_concrete():
        return _decide_variants(instance, backend, budget)
    name = choose_backend(instance) if backend in (None, "auto") else registry.canonical(backend)
    solver = registry.get(name)
    why = unsupported_rules(solver, instance) or solver.supports(instance)
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
    # the compiled kernel's first loading in this process is not the deal's time
    seconds = max(0.0, time.perf_counter() - start - float(answer.extra.get("kernel_load_seconds", 0.0)))
    witness = None
    if answer.verdict is Verdict.WINNABLE:
        if answer.plays is None:
            raise BackendError(f"backend {name!r} said winnable without a witness")
        witness = check_witness(instance, instance.history + tuple(answer.plays), answer.assignment, name)
    return Result(answer.verdict, witness, name, instance.rules,
                  Stats(answer.nodes, seconds, dict(answer.extra)), answer.explanation)


def _decide_variants(instance: Instance, backend: str | None, budget: Budget) -> Result:
    """A deal that leaves the crew a choice: winnable when some variant is
    (:func:`crewcheck.solvers.choosing.decide_choices`: quick rounds of the search over
    every variant, then one SAT call on each group of variants apart only in their task
    counts, then the back-end on each variant left, in order)."""
    start = time.perf_counter()
    name = registry.canonical(backend) if backend not in (None, "auto") else "auto"
    if instance.distress is not None and name in SIGNAL_BACKENDS and registry.missing("sat") is None:
        signal = _decide_signal(instance, budget, quick=name != "sat")
        if signal is not None:
            return signal
    listed = list(variants(instance))

    def one(variant: Instance, backend: str | None, budget: Budget) -> Result:
        return decide(variant, backend=backend, budget=budget)

    together = decide_together if registry.missing("sat") is None else None
    found = decide_choices((v for _, v in listed), one, backend, budget, shared=together, head=HEAD_SECONDS)
    counts = {"variants_tried": found.full, "variants_quick": found.quick, "variants_together": found.shared}
    loading = found.loading
    if found.verdict is Verdict.WINNABLE:
        assert found.index is not None and found.result is not None
        r, won = found.result, found.result.witness
        assert won is not None
        choice, variant = listed[found.index]
        assignment = variant_assignment(instance, choice, variant, won.assignment)
        witness = check_witness(instance, won.plays, assignment, r.backend, choice)
        extra = {**r.stats.extra, "choice": choice.describe(instance), **counts}
        return Result(Verdict.WINNABLE, witness, r.backend, instance.rules,
                      Stats(found.nodes, _spent(start, loading), _loaded(extra, loading)))
    if found.backends:
        name = next((b for b in reversed(found.backends) if b != "-"), name)
    unknown = found.verdict is Verdict.UNKNOWN
    why = None if unknown else f"none of the crew's {len(listed)} possible choice(s) can be won"
    return Result(found.verdict, None, name, instance.rules,
                  Stats(found.nodes, _spent(start, loading), _loaded(counts, loading)), why)


def decide_together(open_: list[Instance], budget: Budget) -> dict[int, bool | Result]:
    """The crew's choices (concrete deals) decided a group at a time, one SAT formula per
    group, as :func:`crewcheck.solvers.choosing.decide_choices`' ``shared`` decider:

    - the deals apart only in their task counts
      (:func:`crewcheck.solvers.logic.choices.decide_counts`, at most
      :data:`~crewcheck.solvers.logic.choices.COUNTS_SECONDS` a group): ``False`` for
      every deal of a group the formula refutes, ``True`` for the one its model takes;
    - the deals apart only in their conditions
      (:func:`crewcheck.solvers.logic.condition_choices.decide_conditions`, at most
      :data:`~crewcheck.solvers.logic.condition_choices.CONDITIONS_SECONDS` a group):
      ``False`` for every deal of a group the formula refutes, and for a deal its model
      wins the :class:`Result`, its line replayed (the first such group ends the call).

    Positions are in ``open_``; a deal of no group, or of a group whose formula did not
    answer in time, is not in the answer.
    """
    out: dict[int, bool | Result] = {}
    for group in count_groups(open_):
        winnable, index, _ = decide_counts([open_[i] for i in group], _capped(budget, COUNTS_SECONDS))
        if winnable is False:
            out.update((i, False) for i in group)
        elif winnable and index is not None:
            out[group[index]] = True
    for group in condition_groups([None if i in out else inst for i, inst in enumerate(open_)]):
        start = time.perf_counter()
        deals = [open_[i] for i in group]
        won, index, line, stats = decide_conditions(deals, _capped(budget, CONDITIONS_SECONDS))
        if won is False:
            out.update((i, False) for i in group)
        elif won:
            assert index is not None and line is not None
            deal, (plays, assignment) = deals[index], line
            witness = check_witness(deal, deal.history + plays, assignment, "sat")
            extra = {**stats, "together": len(group)}
            out[group[index]] = Result(Verdict.WINNABLE, witness, "sat", deal.rules,
                                       Stats(0, _spent(start, 0.0), extra))
            return out
    return out


def _capped(budget: Budget, seconds: float) -> Budget:
    """``budget``'s time, at most ``seconds``, and its cancel flag."""
    left = budget.seconds
    return Budget(seconds if left is None else min(seconds, left), None, budget.cancel)


def _spent(start: float, loading: float) -> float:
    """Seconds since ``start``, less the compiled kernel's loading (as for one deal)."""
    return max(0.0, time.perf_counter() - start - loading)


def _loaded(extra: dict[str, Any], loading: float) -> dict[str, Any]:
    """``extra`` with the kernel's loading time of every variant, if any."""
    return {**extra, "kernel_load_seconds": round(loading, 4)} if loading else \
        {k: v for k, v in extra.items() if k != "kernel_load_seconds"}


def _decide_signal(instance: Instance, budget: Budget, quick: bool = True) -> Result | None:
    """A deal with a distress signal decided in one formula
    (:func:`crewcheck.solvers.logic.choices.decide_signal`), its winning line replayed;
    ``None`` when that formula is not used. With ``quick``, a cheap refutation that holds
    for every choice of passes (:func:`crewcheck.solvers.search.refutations.signal_refutation`)
    answers first, then a win the search finds on a few concrete passes
    (:func:`crewcheck.solvers.signal_search.quick_signal_win`), replayed the same way."""
    start = time.perf_counter()
    why = signal_refutation(instance) if quick else None
    if why is not None:
        return Result(Verdict.UNWINNABLE, None, "search", instance.rules,
                      Stats(0, _spent(start, 0.0), {"distress": "refuted before the passes"}), why)
    first = quick_signal_win(instance, budget) if quick else QuickPass(None, 0, 0, 0.0)
    if first.line is not None:
        plays, assignment, choice = first.line
        witness = check_witness(instance, instance.history + plays, assignment, "search", choice)
        extra = {"distress": "quick passes", "choice": choice.describe(instance), **first.stats()}
        return Result(Verdict.WINNABLE, witness, "search", instance.rules,
                      Stats(first.nodes, _spent(start, first.loading), _loaded(extra, first.loading)))
    if budget.seconds is not None:
        budget = Budget(max(0.0, budget.seconds - _spent(start, first.loading)), budget.nodes, budget.cancel)
    found = decide_signal(instance, budget)
    if found is None:
        return None
    answer, found_choice = found
    seconds = _spent(start, first.loading)
    replayed: Witness | None = None
    if answer.verdict is Verdict.WINNABLE:
        assert answer.plays is not None
        replayed = check_witness(instance, instance.history + answer.plays, answer.assignment, "sat", found_choice)
    extra = {**answer.extra, **first.stats()} if first.tried else dict(answer.extra)
    return Result(answer.verdict, replayed, "sat", instance.rules, Stats(0, seconds, _loaded(extra, first.loading)),
                  answer.explanation)


def decide_many(instances: Iterable[DealLike], *, backend: str | None = None,
                budget: Budget | None = None, timeout: float | None = None) -> Iterator[Result]:
    """:func:`decide` each instance in turn (lazily, in input order)."""
    for instance in instances:
        yield decide(instance, backend=backend, budget=budget, timeout=timeout)
