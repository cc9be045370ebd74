"""The shared winnability encoding: CNF expansion, DIMACS round trip with PySAT, decoding."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from crewcheck.api import check_witness, decide
from crewcheck.formats import deal_json
from crewcheck.formats.notation import parse_deal, to_notation
from crewcheck.model.instance import Instance
from crewcheck.model.rules import Rules
from crewcheck.model.tasks import Task
from crewcheck.solvers.base import Budget, Verdict
from crewcheck.solvers.logic.decode import decode
from crewcheck.solvers.logic.encoding import encode
from crewcheck.solvers.logic.formula import Formula
from crewcheck.solvers.logic.export import to_cnf
from tests.oracle import core_of, open_sub_deal_verdict, oracle_verdict, sub_deal_verdict
from tests.strategies import instances, note_deal, own_task_instances

# -- cardinality expansion ---------------------------------------------------------------
@pytest.mark.parametrize("n,k", [(n, k) for n in range(1, 6) for k in range(-1, n + 2)])
@pytest.mark.parametrize("kind", ["at_most", "at_least"])
@pytest.mark.parametrize("guarded", [False, True])
def test_cardinality_expansion_matches_its_meaning(n: int, k: int, kind: str, guarded: bool) -> None:
    """Sinz's counter (with or without an enforcement literal) accepts exactly the
    assignments whose count meets the bound, and nothing when enforced and violated."""
    pysat_solvers = pytest.importorskip("pysat.solvers")
    f = Formula()
    xs = [f.new_bool(("aux", i)) for i in range(n)]
    g = f.new_bool(("aux", n))
    add = f.add_at_most if kind == "at_most" else f.add_at_least
    add(xs, k, enforce=[g] if guarded else [])
    cnf = to_cnf(f)
    with pysat_solvers.Solver(name="cadical153", bootstrap_with=cnf.clauses) as s:
        for bits in itertools.product([False, True], repeat=n):
            for gv in [True, False] if guarded else [True]:
                count = sum(bits)
                ok = count <= k if kind == "at_most" else count >= k
                want = ok or not gv
                assume = [x if b else -x for x, b in zip(xs, bits)] + [g if gv else -g]
                assert s.solve(assumptions=assume) == want, (bits, gv)


@pytest.mark.parametrize("n", [1, 2, 5, 7, 9])
def test_exactly_one_expansion(n: int) -> None:
    """exactly_one (pairwise or sequential) allows exactly the one-hot assignments."""
    pysat_solvers = pytest.importorskip("pysat.solvers")
    f = Formula()
    xs = [f.new_bool(("aux", i)) for i in range(n)]
    f.add_exactly_one(xs)
    with pysat_solvers.Solver(name="glucose4", bootstrap_with=to_cnf(f).clauses) as s:
        for bits in itertools.product([False, True], repeat=n):
            assume = [x if b else -x for x, b in zip(xs, bits)]
            assert s.solve(assumptions=assume) == (sum(bits) == 1)


# -- round trip through a plain SAT solver ---------------------------------------------------
def solve_with_pysat(inst: Instance, solver: str = "cadical153") -> tuple[bool, tuple[int, ...], tuple[int, ...] | None]:
    pysat_solvers = pytest.importorskip("pysat.solvers")
    enc = encode(inst)
    cnf = to_cnf(enc.formula, assume=enc.assumptions)
    with pysat_solvers.Solver(name=solver, bootstrap_with=cnf.clauses) as s:
        if not s.solve():
            return False, (), None
        model = {abs(x): x > 0 for x in s.get_model()}
    plays, assignment = decode(enc, lambda v: model.get(v, False))
    return True, plays, assignment


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(instances(max_players=3, max_tasks=4), st.sampled_from(["cadical153", "glucose4"]))
@example(deal_json.loads(json.dumps({
    "hands": [["B1", "B3", "G2", "R1"], ["B2", "B4", "G1", "R2"], ["B5", "G3", "G4", "R3"]],
    "trump": "R", "lead": "rocket", "assignment": "free",
    "tasks": [{"card": "B5"}, {"card": "G4", "token": "omega"}, {"card": "B4", "token": "1"}]})),
    "glucose4")
def test_pure_cnf_with_pysat_agrees_with_the_oracle(inst: Instance, solver: str) -> None:
    """The pure CNF, solved by a plain SAT solver (CaDiCaL / Glucose via PySAT), is
    satisfiable exactly when the oracle says winnable, and its model decodes to a line the
    replay checker accepts."""
    note_deal(to_notation(inst))
    if inst.state().is_terminal():
        return
    sat, plays, assignment = solve_with_pysat(inst, solver)
    assert sat == (oracle_verdict(inst) is Verdict.WINNABLE)
    if sat:
        check_witness(inst, inst.history + plays, assignment, f"pysat-{solver}")


def test_variable_names_follow_the_style_guide() -> None:
    """Variables carry their indices in their names (``play_t{t}_s{s}_c{c}``)."""
    inst = deal_json.loads('{"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0}]}')
    enc = encode(inst)
    names = {enc.formula.pool.name(v) for v in enc.vars.play.values()}
    assert "play_t0_s0_c0" in names and "play_t1_s1_c3" in names
    assert enc.formula.pool.name(enc.vars.winner[(0, 1)]) == "winner_t0_s1"


def test_encoding_is_deterministic() -> None:
    """The same deal always gets the same variable numbering (``decode`` relies on it)."""
    inst = deal_json.loads('{"hands": [["B1", "B3", "G1"], ["B2", "B4", "G2"]], "lead": "any", '
                           '"tasks": [{"card": "B3"}, {"card": "G2", "token": "1"}], "assignment": "free"}')
    a, b = to_cnf(encode(inst).formula), to_cnf(encode(inst).formula)
    assert a.clauses == b.clauses and a.nv == b.nv


def test_free_assignment_size_is_polynomial() -> None:
    """36 free tasks on a Classic deal: the quota constraints stay small (de Jong's binomial
    encoding would need C(36, 10) clauses per seat)."""
    import random

    from crewcheck.model.cards import CLASSIC_DECK

    rng = random.Random(7)
    cards = list(range(CLASSIC_DECK.size))
    rng.shuffle(cards)
    hands = tuple(sum(1 << c for c in cards[i::4]) for i in range(4))
    rockets = CLASSIC_DECK.suit_mask(CLASSIC_DECK.suit_index("R"))
    tasks = tuple(Task(c) for c in range(CLASSIC_DECK.size) if not rockets >> c & 1)
    inst = Instance(CLASSIC_DECK, hands, tasks, "R", "rocket", Rules("strict", "free"))
    cnf = to_cnf(encode(inst).formula)
    assert len(cnf.clauses) < 200_000


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(instances(max_players=3, max_tasks=4))
def test_explanations_are_minimal_under_every_rule(inst: Instance) -> None:
    """With tokens and free assignment too: the reported tasks, taken as assumptions of the
    pure CNF and solved by CaDiCaL, are unsatisfiable, and dropping any one is satisfiable
    (minimal with the other tasks left open, as the cores read a dropped task)."""
    pytest.importorskip("z3")
    pysat_solvers = pytest.importorskip("pysat.solvers")
    note_deal(to_notation(inst))
    if inst.state().is_terminal():
        return
    got = decide(inst, backend="z3")
    if got.verdict is not Verdict.UNWINNABLE or got.explanation is None:
        return
    assert "not minimised" not in got.explanation
    core = core_of(inst, got.explanation)
    enc = encode(inst)
    cnf = to_cnf(enc.formula)
    with pysat_solvers.Solver(name="cadical153", bootstrap_with=cnf.clauses) as s:
        assert not s.solve(assumptions=[enc.vars.task[k] for k in core])
        for k in core:
            assert s.solve(assumptions=[enc.vars.task[j] for j in core if j != k]), got.explanation


@given(instances(max_players=3, max_tasks=4))
def test_sat_backend_agrees_with_the_oracle(inst: Instance) -> None:
    """The plain-SAT back-end (CaDiCaL on the pure CNF, not yet registered) agrees with the
    oracle, its witnesses replay, and its explanations name open tasks."""
    pytest.importorskip("pysat")
    from crewcheck.solvers.logic.sat import SatSolver

    note_deal(to_notation(inst))
    if inst.state().is_terminal():
        return
    ans = SatSolver().decide(inst, budget=Budget())
    assert ans.verdict is oracle_verdict(inst)
    if ans.verdict is Verdict.WINNABLE:
        check_witness(inst, inst.history + tuple(ans.plays or ()), ans.assignment, "sat")
    else:
        assert ans.explanation and "not minimised" not in ans.explanation
        done = inst.state().done
        assert all(not done >> k & 1 for k in core_of(inst, ans.explanation))


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(own_task_instances())
@example(parse_deal("B2 B3 | B1 B4 G1 G2 G3 G4 P1 P2 P3 P4 ; trump - ; lead any ; "
                    "tasks B2@1:1 B1@0 G1@1:2 ; strict/fixed"))
def test_strengthened_encoding_is_exact_on_own_task_deals(inst: Instance) -> None:
    """On deals rich in own task cards (where the precedence block adds clauses), the
    pure CNF (Glucose via PySAT) is satisfiable exactly when the oracle says winnable,
    with every task assumed and with each one dropped in turn (the strengthenings are
    enforced by the tasks they rely on, so every sub-deal stays exact). A dropped task
    is read both ways: negated, the CNF is the deal without it; left open (as the core
    minimisation leaves it), the CNF asks whether the deal can be won with or without it.

    The pinned deal tells the two apart: without B2's "1" the "2" of G1 cannot be met
    (G1 is either first or never played), with it both go in the first trick."""
    pysat_solvers = pytest.importorskip("pysat.solvers")
    note_deal(to_notation(inst))
    if inst.state().is_terminal():
        return
    enc = encode(inst)
    cnf = to_cnf(enc.formula)
    tasks = list(enc.position.tasks)
    with pysat_solvers.Solver(name="glucose42", bootstrap_with=cnf.clauses) as s:
        want = oracle_verdict(inst)
        assert s.solve(assumptions=[enc.vars.task[k] for k in tasks]) == (want is Verdict.WINNABLE)
        for k in tasks:
            keep = [j for j in tasks if j != k]
            assume = [enc.vars.task[j] for j in keep]
            for reading, got, want in [
                ("negated", s.solve(assumptions=assume + [-enc.vars.task[k]]), sub_deal_verdict(inst, keep)),
                ("open", s.solve(assumptions=assume), open_sub_deal_verdict(inst, keep)),
            ]:
                if want is not None:
                    assert got == (want is Verdict.WINNABLE), \
                        (f"the CNF says {'sat' if got else 'unsat'}, `exhaustive` says {want.name} with "
                         f"tasks {keep} and task {k} {reading}")


def test_a_dropped_task_is_open_not_excluded() -> None:
    """Number tokens make fewer tasks not always easier: without B2's "1" the "2" of G1
    is lost, with it the deal is won. Dropping B2 from the assumptions leaves it open, so
    the formula stays satisfiable (some winning deal still contains B1 and G1: this one),
    and only negating it gives the smaller deal; the explanations rely on the open
    reading (a core stays unsatisfiable whatever the other tasks)."""
    pysat_solvers = pytest.importorskip("pysat.solvers")
    inst = parse_deal("B2 B3 | B1 B4 G1 G2 G3 G4 P1 P2 P3 P4 ; trump - ; lead any ; "
                      "tasks B2@1:1 B1@0 G1@1:2 ; strict/fixed")
    enc = encode(inst)
    b2, b1, g1 = (enc.vars.task[k] for k in range(3))
    assert oracle_verdict(inst) is Verdict.WINNABLE
    assert sub_deal_verdict(inst, [1, 2]) is Verdict.UNWINNABLE
    with pysat_solvers.Solver(name="cadical153", bootstrap_with=to_cnf(enc.formula).clauses) as s:
        assert not s.solve(assumptions=[b1, g1, -b2])
        assert s.solve(assumptions=[b1, g1])
        assert b2 in (s.get_model() or ())  # the only way: B2 required after all


def test_sat_backend_explanation_leaves_dropped_tasks_open() -> None:
    """The plain-SAT back-end's core on a deal lost by B2@1 alone is B2@1. Shrunk with the
    dropped tasks negated it would be B3@0[2] (alone no deal: a "2" with one task), a
    token that only dropping B1 made unreachable."""
    pytest.importorskip("pysat")
    from crewcheck.solvers.logic.sat import SatSolver

    inst = parse_deal("B1 B2 B3 | G1 G2 G3 ; trump - ; lead 0 ; tasks B1@0 B2@1 B3@0:2 ; strict/fixed")
    ans = SatSolver().decide(inst, budget=Budget())
    assert ans.verdict is Verdict.UNWINNABLE and ans.explanation is not None
    core = core_of(inst, ans.explanation)
    assert core == [1], ans.explanation
    assert open_sub_deal_verdict(inst, core) is Verdict.UNWINNABLE
