"""The logic back-ends (z3, cpsat) against the exhaustive oracle (differential, hypothesis).

Every test runs once per back-end; a back-end whose solver is not installed is skipped.
"""

from __future__ import annotations

import importlib.util
import json

import pytest
from hypothesis import example, given, settings

from crewcheck.api import decide
from crewcheck.formats import deal_json
from crewcheck.formats.notation import parse_deal
from crewcheck.model.instance import Instance
from crewcheck.solvers import registry
from crewcheck.solvers.base import Budget, Verdict
from tests.oracle import COUNTEREXAMPLES, check_against_oracle, check_explanation
from tests.strategies import full_free_instances, instances

_NEEDS = {"z3": "z3", "cpsat": "ortools"}
LOGIC = [pytest.param(name, marks=pytest.mark.skipif(importlib.util.find_spec(module) is None,
                                                     reason=f"{module} is not installed"))
         for name, module in _NEEDS.items()]


@pytest.mark.parametrize("backend", LOGIC)
@given(instances(max_players=3, max_tasks=4))
def test_agrees_with_the_oracle(backend: str, inst: Instance) -> None:
    """Every rule feature (trumps, lead modes, unequal hands, tokens both ways, free
    assignment, histories): the verdict is the oracle's and the witnesses replay."""
    check_against_oracle(inst, backend)


@pytest.mark.parametrize("backend", LOGIC)
@given(instances(min_players=3, max_players=4, max_tasks=5, max_cards=14, equal_hands=True))
def test_agrees_with_the_oracle_on_more_seats(backend: str, inst: Instance) -> None:
    """Three and four seats with equal hands and up to five tasks."""
    check_against_oracle(inst, backend)


@pytest.mark.parametrize("backend", LOGIC)
@given(full_free_instances())
def test_agrees_with_the_oracle_when_free_tasks_fill_the_tricks(backend: str, inst: Instance) -> None:
    """Free tasks on nearly every card (mid-game positions too): the verdict is the oracle's."""
    check_against_oracle(inst, backend)


@pytest.mark.parametrize("backend", LOGIC)
@settings(max_examples=40)
@given(instances(max_players=3, max_tasks=4, free=False))
@example(inst=parse_deal("B1 B2 B3 | G1 G2 G3 ; trump - ; lead 0 ; tasks B1@0 B2@1 B3@0:2 ; strict/fixed"))
def test_explanations_are_minimal_cores(backend: str, inst: Instance) -> None:
    """An unwinnable answer names tasks that alone already lose, none of them superfluous.

    The pinned deal is lost by B2@1 alone (seat 1 never wins a trick). Minimised with the
    dropped tasks negated instead of open, the core would be B3@0[2]: alone it is no deal
    (a "2" with one task), so that reading blames a token that only dropping B1 made
    unreachable."""
    check_explanation(inst, backend)


@pytest.mark.parametrize("backend", LOGIC)
@settings(max_examples=40)
@given(instances(max_players=2, max_suits=2, max_tasks=5, tokens=False, free=False))
@example(inst=parse_deal("B3 B4 G2 | B1 B2 G1 G3 G4 R1 ; trump R ; lead rocket ; tasks G1@0 B3@1 B4@1 ; strict/fixed"))
def test_explanations_with_alike_task_cards(backend: str, inst: Instance) -> None:
    """Two seats, many tasks: adjacent task cards of one seat (symmetric while both are
    required) do not make a winnable sub-deal look lost."""
    check_explanation(inst, backend)


def _saved() -> list:
    """(back-end, saved counterexample); those refuting the back-end are strict xfails
    (pinned: a fix turns them into failures, so the file gets updated, never quietly)."""
    out = []
    paths = sorted(COUNTEREXAMPLES.glob("*.json")) if COUNTEREXAMPLES.exists() else []
    for param in LOGIC:
        backend = param.values[0]
        for path in paths:
            refutes = json.loads(path.read_text()).get("refutes", [])
            marks = list(param.marks)
            if backend in refutes:
                marks.append(pytest.mark.xfail(strict=True, reason="known disagreement"))
            out.append(pytest.param(backend, path, id=f"{backend}-{path.stem}", marks=marks))
    return out


@pytest.mark.parametrize(("backend", "path"), _saved())
def test_saved_counterexamples(backend: str, path) -> None:
    """Every deal that once split a back-end from the oracle stays decided right."""
    check_against_oracle(deal_json.load(path), backend)


@pytest.mark.parametrize("backend", LOGIC)
def test_tiny_budget_gives_unknown_or_an_answer(backend: str) -> None:
    """An exhausted budget returns UNKNOWN, never a guess."""
    inst = deal_json.loads('{"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0}]}')
    ans = registry.get(backend).decide(inst, budget=Budget(seconds=1e-9))
    assert ans.verdict in (Verdict.UNKNOWN, Verdict.WINNABLE)


@pytest.mark.parametrize("backend", LOGIC)
def test_explanation_text(backend: str) -> None:
    """The explanation names the tasks as card@seat."""
    inst = deal_json.loads('{"hands": [["B1", "B2"], ["B3", "B4"]], "tasks": [{"card": "B4", "seat": 0}, '
                           '{"card": "B1", "seat": 1}]}')
    r = decide(inst, backend=backend)
    assert r.verdict is Verdict.UNWINNABLE
    assert r.explanation == "task B4@0 cannot be completed"


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_all_36_free_tasks_with_four_players_is_unwinnable(seed: int) -> None:
    """Four seats, every colour card a free task (9 per seat): never winnable, as a seat
    taking 9 tasks from tricks of four cards needs three rockets among its tricks and
    there are four rockets for four seats. CP-SAT's integer task counts prove it."""
    import random

    pytest.importorskip("ortools")
    from crewcheck.model.cards import CLASSIC_DECK
    from crewcheck.model.rules import Rules
    from crewcheck.model.tasks import Task
    from crewcheck.solvers.logic.cpsat import CpSatOptions, CpSatSolver

    cards = list(range(CLASSIC_DECK.size))
    random.Random(seed).shuffle(cards)
    hands = tuple(sum(1 << c for c in cards[i * 10:(i + 1) * 10]) for i in range(4))
    rockets = CLASSIC_DECK.suit_mask(CLASSIC_DECK.suit_index("R"))
    tasks = tuple(Task(c) for c in range(CLASSIC_DECK.size) if not rockets >> c & 1)
    inst = Instance(CLASSIC_DECK, hands, tasks, "R", "rocket", Rules("strict", "free"))
    ans = CpSatSolver(CpSatOptions(explain=False)).decide(inst, budget=Budget(seconds=120))
    assert ans.verdict is Verdict.UNWINNABLE
