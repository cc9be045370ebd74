"""The candidate blocks of ``benchmarks/scripts/encoding_candidates.py`` are sound: added to
the encoding, the pure CNF stays satisfiable exactly when the exhaustive oracle says the
deal (or the deal with one task dropped) is winnable. Every deal of a tiny deck family,
and hypothesis deals rich in own task cards and in trumps."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings

from benchmarks.scripts.encoding_candidates import CANDIDATES, possible_winners, release_times
from benchmarks.scripts.run_encoding import load_deals
from crewcheck.formats.notation import parse_deal, to_notation
from crewcheck.model.cards import Deck
from crewcheck.model.instance import Instance
from crewcheck.model.rules import Rules
from crewcheck.model.tasks import Task
from crewcheck.solvers.base import Verdict
from crewcheck.solvers.logic import encoding
from crewcheck.solvers.logic.export import to_cnf
from crewcheck.solvers.logic.formula import Formula
from crewcheck.solvers.logic.position import add_variables, position_of
from tests.oracle import oracle_verdict, sub_deal_verdict
from tests.strategies import instances, note_deal, own_task_instances

NEW = ["release", "lead_reach", "trump_control"]


def _disagreements(inst: Instance, name: str) -> list[str]:
    """Where the CNF with candidate ``name`` added and the oracle disagree: every task
    required, and each one dropped in turn (negated: the deal without it)."""
    pysat_solvers = pytest.importorskip("pysat.solvers")
    note_deal(to_notation(inst))
    if inst.state().is_terminal():
        return []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(encoding, "ENCODERS", encoding.ENCODERS + CANDIDATES[name])
        enc = encoding.encode(inst)
    tasks = list(enc.position.tasks)
    wrong = []
    with pysat_solvers.Solver(name="glucose42", bootstrap_with=to_cnf(enc.formula).clauses) as s:
        want = oracle_verdict(inst)
        if s.solve(assumptions=[enc.vars.task[k] for k in tasks]) != (want is Verdict.WINNABLE):
            wrong.append(f"{to_notation(inst)}: oracle {want.name}")
        for k in tasks if len(tasks) > 1 else []:
            keep = [j for j in tasks if j != k]
            sub = sub_deal_verdict(inst, keep)
            got = s.solve(assumptions=[enc.vars.task[j] for j in keep] + [-enc.vars.task[k]])
            if sub is not None and got != (sub is Verdict.WINNABLE):
                wrong.append(f"{to_notation(inst)} without task {k}: oracle {sub.name}")
    return wrong


def _added(inst: Instance, name: str) -> int:
    """How many constraints candidate ``name`` adds to ``inst``'s encoding."""
    pos = position_of(inst)
    model = Formula()
    v = add_variables(model, pos)
    before = len(model.constraints)
    for add in CANDIDATES[name]:
        add(model, v, pos)
    return len(model.constraints) - before


TINY = Deck.from_sizes({"B": 3, "G": 2, "R": 1})


def _every_tiny_deal() -> list[Instance]:
    """Every deal of a six-card deck (B1-3, G1-2, trump R1) on two seats 3/3, led by the
    rocket, with two tasks (every pair of cards, every pair of seats)."""
    deals = []
    for seats in sorted(set(itertools.permutations([0, 0, 0, 1, 1, 1]))):
        hands = tuple(sum(1 << c for c in range(TINY.size) if seats[c] == s) for s in range(2))
        for a, b in itertools.combinations(range(TINY.size), 2):
            for wa, wb in itertools.product(range(2), repeat=2):
                deals.append(Instance(TINY, hands, (Task(a, wa), Task(b, wb)), "R", "rocket",
                                      Rules("strict", "fixed")))
    return deals


@pytest.mark.parametrize("name", NEW)
def test_every_tiny_deal(name: str) -> None:
    """Exhaustively on the tiny family: the CNF with the block is the oracle's verdict,
    with both tasks and with each one alone."""
    deals = _every_tiny_deal()
    assert len(deals) == 20 * 15 * 4
    assert sum(1 for d in deals if _added(d, name)) >= 300  # (the block bites on the family)
    wrong = [w for d in deals for w in _disagreements(d, name)]
    assert not wrong, f"{len(wrong)} disagreements, e.g. {wrong[0]}"


@pytest.mark.parametrize("name", NEW)
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(inst=own_task_instances())
def test_own_task_deals(name: str, inst: Instance) -> None:
    """Deals rich in own task cards (where release times and Hall's bound bite)."""
    assert not _disagreements(inst, name)


@pytest.mark.parametrize("name", NEW)
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(inst=instances(min_players=2, max_players=4, max_suits=3, max_values=4, max_cards=12, max_tasks=4,
                      trumps=True, free=False, tokens=False, history=False))
def test_trump_deals(name: str, inst: Instance) -> None:
    """Fixed-assignment deals with trumps (where trump control and voids bite)."""
    assert not _disagreements(inst, name)


def test_release_and_reach_on_hand_made_deals() -> None:
    """The release time of a task card held by another seat (the owner, with no higher card
    of its suit, takes it on a lead of G or R, which the holder must first play out), and
    the seats that can win each trick (seat 1 never beats seat 0's blues; with a trump,
    not before it can be void)."""
    pos = position_of(parse_deal("B1 B2 R1 | B3 G1 R2 ; trump R ; lead 0 ; tasks B3@0 ; strict/fixed"))
    assert release_times(pos) == {0: (2, frozenset({0}))}
    pos = position_of(parse_deal("B8 B9 | B1 B2 ; trump - ; lead 0 ; tasks B1@1 ; strict/fixed"))
    assert possible_winners(pos) == [0b01, 0b01]
    # seat 1 trumps only once void in blue: not in the first trick
    pos = position_of(parse_deal("B8 B9 | B1 R1 ; trump R ; lead 0 ; tasks B9@1 ; strict/fixed"))
    assert possible_winners(pos) == [0b01, 0b11]


def test_run_encoding_reads_the_hard_set() -> None:
    """The benchmark loads the hard set's files (which carry their generator's seed)."""
    deals = load_deals(["hard/heart-4p-fixed-k10"], 2)
    assert [ident for ident, _ in deals] and all(inst.players == 4 for _, inst in deals)
