"""The exhaustive oracle, and the one check of a back-end against it.

Helpers, not tests: every differential test (search, logic back-ends, special cases)
compares with :func:`oracle_verdict` through :func:`check_against_oracle`, so a
disagreement is reported, saved and explained the same way everywhere.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from crewcheck.api import check_witness, decide
from crewcheck.errors import InvalidDealError
from crewcheck.formats import deal_json
from crewcheck.formats.notation import to_notation
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Budget, Solver, Verdict
from crewcheck.solvers.exhaustive import ExhaustiveSolver
from tests.strategies import note_deal

__all__ = ["COUNTEREXAMPLES", "oracle_verdict", "check_against_oracle", "save_counterexample",
           "sub_deal_verdict", "open_sub_deal_verdict", "core_of", "check_explanation"]

COUNTEREXAMPLES = Path(__file__).resolve().parents[1] / "models" / "counterexamples"
"""Where disagreements are saved (and the conformance suite reads them back)."""


def oracle_verdict(instance: Instance, seconds: float | None = None) -> Verdict:
    """The exhaustive oracle's verdict, on a deal of any size (its card limit is for users,
    not tests); a history that already ends the game decides it."""
    end = instance.state().end
    if end is not None:
        return Verdict.WINNABLE if end.won else Verdict.UNWINNABLE
    return ExhaustiveSolver().decide(instance, budget=Budget(seconds=seconds)).verdict


def save_counterexample(inst: Instance, backend: str, expected: Verdict) -> Path:
    """Save a disagreement in the conformance format: the oracle's verdict as
    ``expected``, the refuted back-end in ``refutes``."""
    COUNTEREXAMPLES.mkdir(parents=True, exist_ok=True)
    data = deal_json.to_dict(inst)
    data["expected"] = expected.value
    data["refutes"] = [backend]
    data["comment"] = f"found by the differential tests ({backend})"
    path = COUNTEREXAMPLES / f"{backend}-disagrees-{abs(hash(to_notation(inst))) % 10**8:08d}.json"
    path.write_text(json.dumps(data, indent=2))
    return path


def check_against_oracle(inst: Instance, backend: str | Solver) -> None:
    """``backend`` (a registered name, or a back-end object with its options) gives the
    oracle's verdict on ``inst``, and its winning line passes the replay checker. A
    disagreement is saved to ``models/counterexamples/`` and fails naming both verdicts."""
    note_deal(to_notation(inst))
    want = oracle_verdict(inst)
    if isinstance(backend, str) or inst.state().end is not None:
        name = backend if isinstance(backend, str) else backend.name
        got = decide(inst, backend=name).verdict  # decide replays a winning line
    else:
        name = backend.name
        answer = backend.decide(inst, budget=Budget())
        got = answer.verdict
        if got is Verdict.WINNABLE:
            check_witness(inst, inst.history + tuple(answer.plays or ()), answer.assignment, name)
    if got is not want:
        path = save_counterexample(inst, name, want)
        pytest.fail(f"`{name}` says {got.name}, `exhaustive` says {want.name} on "
                    f"{to_notation(inst)} (saved to {path})")


def sub_deal_verdict(inst: Instance, keep: list[int]) -> Verdict | None:
    """The oracle's verdict on the fixed-assignment deal with only tasks ``keep`` (same
    hands and history; a history that already ends that deal decides it)."""
    tasks = tuple(inst.tasks[k] for k in sorted(keep))
    try:
        base = Instance(inst.deck, inst.hands, tasks, inst.trump, inst.lead, inst.rules, covered=inst.covered)
    except InvalidDealError:  # e.g. a number token beyond the tasks left: not a deal
        return None
    state = base.initial_state()
    for c in inst.history:
        if state.is_terminal():
            break
        state = state.apply(c)
    if state.end is not None:
        return Verdict.WINNABLE if state.end.won else Verdict.UNWINNABLE
    return oracle_verdict(base.with_history(inst.history))


def open_sub_deal_verdict(inst: Instance, keep: list[int], without: Sequence[int] = ()) -> Verdict | None:
    """The oracle's verdict on "some fixed-assignment deal with the tasks ``keep``, none of
    ``without`` and any of the others (same hands and history) can be won": what the
    encoding says with ``keep``'s task literals assumed, ``without``'s negated and the
    others open (as in unsat-core minimisation).

    Not the same as :func:`sub_deal_verdict` (``keep`` alone): number tokens and the
    strict reading make more tasks sometimes easier (a "2" needs a first task). ``None``
    when no such deal is winnable and some of them are not deals at all.
    """
    rest = [k for k in range(len(inst.tasks)) if k not in keep and k not in without]
    unjudged = False
    for r in range(len(rest) + 1):  # keep alone first: usually it decides
        for extra in itertools.combinations(rest, r):
            got = sub_deal_verdict(inst, [*keep, *extra])
            if got is Verdict.WINNABLE:
                return got
            unjudged = unjudged or got is None
    return None if unjudged else Verdict.UNWINNABLE


def core_of(inst: Instance, explanation: str) -> list[int]:
    """Task indices named by an explanation (``"tasks G7@1, P9@0 cannot ..."``)."""
    named = explanation.split(" cannot")[0].split(" ", 1)[1]
    out = []
    for item in named.split(", "):
        card = item.split("@")[0].split("[")[0]
        out.extend(k for k, t in enumerate(inst.tasks) if str(inst.deck.card(t.card)) == card)
    return out


def check_explanation(inst: Instance, backend: str) -> None:
    """On an unwinnable fixed deal: the reported tasks alone already lose, and dropping any
    one of them wins (the core is minimal), whatever the other tasks in the first case and
    with some choice of them in the second (the cores' reading of a dropped task, see
    :func:`open_sub_deal_verdict`). Sub-deals that are not valid deals (a number token
    beyond the tasks kept) are not judged."""
    note_deal(to_notation(inst))
    if inst.state().is_terminal():
        return
    got = decide(inst, backend=backend)
    if got.verdict is not Verdict.UNWINNABLE:
        return
    assert got.explanation, "an unwinnable answer should carry an explanation"
    core = core_of(inst, got.explanation)
    assert core, got.explanation
    done = inst.state().done
    assert not any(done >> k & 1 for k in core), "the core names only open tasks"
    history_tasks = [k for k in range(len(inst.tasks)) if done >> k & 1]
    assert open_sub_deal_verdict(inst, core + history_tasks) in (Verdict.UNWINNABLE, None), \
        f"{got.explanation}: some deal with these tasks and others is winnable"
    for k in core:
        smaller = [j for j in core if j != k]
        assert open_sub_deal_verdict(inst, smaller + history_tasks, [k]) in (Verdict.WINNABLE, None), \
            f"{got.explanation}: still unwinnable without {inst.deck.card(inst.tasks[k].card)}"
