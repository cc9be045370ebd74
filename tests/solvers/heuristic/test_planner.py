"""The critical-card planner (seed 003): its planning stage, and its answers against the oracle.

The planner is a heuristic: it may answer WINNABLE (with a witness that must pass the
replay checker) or UNKNOWN, never UNWINNABLE, and never WINNABLE on a deal the
exhaustive oracle refutes.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import example, given, note
from hypothesis import strategies as st

from crewcheck import decide
from crewcheck.api import choose_backend
from crewcheck.errors import NotApplicableError
from crewcheck.formats.notation import parse_deal, to_notation
from crewcheck.model.replay import replay
from crewcheck.solvers import registry
from crewcheck.solvers.base import Budget, Verdict
from crewcheck.solvers.heuristic.planner import (
    PlannerOptions, PlannerSolver, critical_cards, matchings, task_graph, winning_cards,
)
from tests.strategies import instances


def _names(deal, graph_row):
    return {seat: [str(deal.card(c)) for c in cards] for seat, cards in graph_row.items()}


def _task_row(notation, task=0):
    deal = parse_deal(notation)
    return _names(deal, winning_cards(deal, deal.hands, deal.tasks[task].card))


# -- planning: who could win a task with a trick of its suit -----------------------------
def test_a_higher_card_of_the_suit_wins_the_task():
    """Seat 0's B4 beats the task card B3 (seat 1 must play it); seat 1 wins with B3
    only if seat 0 plays B1."""
    assert _task_row("B1 B4 | B2 B3 ; trump - ; lead 0 ; tasks B3@0 ; strict/fixed") == {0: ["B4"], 1: ["B3"]}


def test_a_seat_forced_to_follow_high_cannot_be_planned_low():
    """Seat 0 holds only B4 in the suit: with B3 to win, seat 1's B2 never wins and B4 always does."""
    assert _task_row("B4 G1 | B2 B3 ; trump - ; lead 0 ; tasks B3@1 ; strict/fixed") == {0: ["B4"]}


def test_a_seat_void_in_the_suit_wins_with_a_trump():
    """Seat 0 has no B but a trump; it may also discard, letting seat 1's B4 win."""
    assert _task_row("G1 R1 | B2 B4 ; trump R ; lead 1 ; tasks B4@0 ; strict/fixed") == {0: ["R1"], 1: ["B4"]}


def test_the_task_card_itself_can_be_the_winning_card():
    """The holder of the highest card of the suit wins with the task card."""
    assert _task_row("B4 B1 | B2 B3 ; trump - ; lead 0 ; tasks B4@0 ; strict/fixed") == {0: ["B4"]}


def test_a_task_on_a_trump_is_planned_in_trumps():
    """A trump task: seat 1 (no trumps) never wins it; seat 2 must follow trumps, winning
    with R3 or letting R2 win under R1. With R3 alone, seat 2 always wins."""
    row = _task_row("R2 B1 | B2 B3 | R1 R3 ; trump R ; lead 0 ; tasks R2@2 ; strict/fixed")
    assert row == {0: ["R2"], 2: ["R3"]}
    assert _task_row("R2 B1 | B2 B3 | R3 G1 ; trump R ; lead 0 ; tasks R2@2 ; strict/fixed") == {2: ["R3"]}


def test_the_graph_only_sees_tricks_of_the_first_deal():
    """The post's stated limitation: seat 0 holds B1 and a trump, so it must follow B and
    can never be planned to win B4, though it wins after the first B trick."""
    deal = parse_deal("B1 R1 G1 | B2 B4 G2 ; trump R ; lead 1 ; tasks B4@0 ; strict/fixed")
    assert 0 not in task_graph(deal)[0]
    assert decide(deal, backend="exhaustive").verdict is Verdict.WINNABLE
    result = decide(deal, backend="planner")
    assert result.verdict is Verdict.UNKNOWN
    assert result.stats.extra["stage"] == "no_matching"
    assert "seat 0 cannot win its task B4" in result.explanation


# -- planning: the matchings ---------------------------------------------------------------
def test_fixed_assignment_has_only_the_deals_own_matching():
    """Under fixed assignment the matching is the deal's assignment, if every task's seat
    is joined to it, and there is none otherwise."""
    graph = ({0: (1,), 1: (2,)}, {0: (3,), 1: (4,)})
    assert list(matchings(graph, [2, 2], allowed=[1, 0])) == [(1, 0)]
    assert list(matchings(({0: (1,)}, {0: (3,), 1: (4,)}), [2, 2], allowed=[1, 0])) == []


def test_free_assignment_matchings_respect_the_draft_counts():
    """Two tasks, two seats with one task each: exactly the two perfect matchings."""
    graph = ({0: (1,), 1: (2,)}, {0: (3,), 1: (4,)})
    assert list(matchings(graph, [1, 1])) == [(0, 1), (1, 0)]
    assert list(matchings(({0: (1,)}, {0: (3,)}), [1, 1])) == []


@given(st.lists(st.sets(st.integers(0, 2), max_size=3), max_size=5),
       st.lists(st.integers(0, 3), min_size=3, max_size=3))
def test_matchings_are_exactly_the_assignments_along_edges(edges, capacity):
    """:func:`matchings` yields, once each and in lexicographic order, every assignment of
    tasks to joined seats within the capacities (checked against brute force)."""
    graph = tuple({s: (s,) for s in seats} for seats in edges)
    brute = [m for m in itertools.product(range(3), repeat=len(edges))
             if all(s in edges[t] for t, s in enumerate(m))
             and all(m.count(s) <= capacity[s] for s in range(3))]
    assert list(matchings(graph, capacity)) == brute


def test_critical_cards_reserve_distinct_winning_cards():
    """Two tasks of one suit won by the same seat get different planned winning cards,
    the highest first (or the lowest, when asked)."""
    deal = parse_deal("B7 B8 B9 G1 | B1 B2 G2 G3 ; trump - ; lead 0 ; tasks B1@0 B2@0 ; strict/fixed")
    graph = task_graph(deal)
    plan = critical_cards(deal, graph, (0, 0))
    assert [str(deal.card(c)) for c in plan.winners] == ["B9", "B8"]
    low = critical_cards(deal, graph, (0, 0), prefer="lowest")
    assert [str(deal.card(c)) for c in low.winners] == ["B7", "B8"]
    assert plan.reserved(0, 0) == (1 << deal.tasks[1].card) | (1 << plan.winners[1])


# -- execution, and the answers ---------------------------------------------------------------
SOLVED = [
    "B1 B4 | B2 B3 ; trump - ; lead 0 ; tasks B3@0 ; strict/fixed",
    "G1 R1 | B2 B4 ; trump R ; lead 1 ; tasks B4@0 ; strict/fixed",
    "B7 B8 B9 G1 | B1 B2 G2 G3 ; trump - ; lead 0 ; tasks B1@0 B2@0 ; strict/fixed",
    "B2 G1 | B1 G2 ; trump - ; lead any ; tasks G1@1 ; strict/fixed",
    "B2 G1 | B1 G2 ; trump - ; lead 0 ; tasks B1@? G1@? ; strict/free",
    "B7 B8 B9 G1 | B1 B2 G2 G3 ; trump - ; lead 0 ; tasks B1@0:2 B2@0:1 ; strict/fixed",
]


@pytest.mark.parametrize("notation", SOLVED)
def test_planner_solves_simple_deals_with_a_checked_witness(notation):
    """Deals the plan covers: WINNABLE, stage "solved", and the witness replays to a win
    (also checked here, not only inside decide)."""
    deal = parse_deal(notation)
    result = decide(deal, backend="planner")
    assert result.verdict is Verdict.WINNABLE, result.explanation
    assert result.stats.extra["stage"] == "solved"
    assert replay(deal, result.witness.plays, result.witness.assignment).won


def test_execution_fails_when_the_leader_cannot_lead_the_task_suit():
    """A matching exists (seat 2 could win G1 with G4), but seat 0 leads and has only
    B1; the winning line discards G1 on a B trick, which the planned tricks (led in the
    task's suit) never consider."""
    deal = parse_deal("B1 | G1 | B2 B3 B4 G2 G3 G4 P1 P2 P3 P4 ; trump - ; lead 0 ; tasks G1@2 ; strict/fixed")
    assert decide(deal, backend="exhaustive").verdict is Verdict.WINNABLE
    result = decide(deal, backend="planner")
    assert result.verdict is Verdict.UNKNOWN
    assert result.stats.extra["stage"] == "execution_failed"
    assert result.stats.extra["matchings"] == 1


def test_no_matching_under_free_assignment_names_the_draft():
    """Seat 2 could win G1 but the draft gives seat 0 the only task (lead 0)."""
    deal = parse_deal("B2 | B1 | G1 G2 ; trump - ; lead 0 ; tasks G1@? ; strict/free")
    result = decide(deal, backend="planner")
    assert result.stats.extra["stage"] == "no_matching"
    assert "per-seat counts" in result.explanation


def test_out_of_budget_is_unknown():
    deal = parse_deal(SOLVED[2])
    result = decide(deal, backend="planner", budget=Budget(nodes=0))
    assert result.verdict is Verdict.UNKNOWN
    assert result.stats.extra["stage"] == "out_of_budget"


def test_a_deal_with_history_is_refused():
    deal = parse_deal("B1 B4 | B2 B3 ; trump - ; lead 0 ; tasks B3@0 ; strict/fixed ; played B1 B3")
    assert "history" in PlannerSolver().supports(deal)
    with pytest.raises(NotApplicableError, match="planner"):
        decide(deal, backend="planner")


def test_planner_is_registered_as_inexact_and_never_chosen_automatically():
    assert registry.get("planner").exact is False
    assert "planner" not in registry.DEFAULT_ORDER
    for notation in SOLVED:
        assert choose_backend(parse_deal(notation)) != "planner"


def test_winning_card_option_is_used():
    """Both reservation orders solve the two-task deal, with different first tricks."""
    deal = parse_deal(SOLVED[2])
    high = PlannerSolver().decide(deal, budget=Budget())
    low = PlannerSolver(PlannerOptions(winning_card="lowest")).decide(deal, budget=Budget())
    assert high.verdict is low.verdict is Verdict.WINNABLE
    assert high.plays != low.plays


# -- against the oracle ------------------------------------------------------------------------
@given(instances(max_players=4, max_cards=12, max_tasks=3, history=False))
@example(parse_deal("B1 | G1 | B2 B3 B4 G2 G3 G4 P1 P2 P3 P4 ; trump - ; lead 0 ; tasks G1@2 ; strict/fixed"))
@example(parse_deal("B1 R1 G1 | B2 B4 G2 ; trump R ; lead 1 ; tasks B4@0 ; strict/fixed"))
def test_planner_never_contradicts_the_oracle(deal):
    """On small deals: never UNWINNABLE; WINNABLE only where the oracle agrees, with a
    witness the replay checker accepts (decide raises otherwise)."""
    note(to_notation(deal))
    result = decide(deal, backend="planner", timeout=30)
    if deal.state().is_terminal():  # no tasks: decide answers without the back-end
        return
    assert result.verdict in (Verdict.WINNABLE, Verdict.UNKNOWN)
    assert result.stats.extra["stage"] in ("solved", "no_matching", "execution_failed")
    assert (result.stats.extra["stage"] == "solved") == (result.verdict is Verdict.WINNABLE)
    if result.verdict is Verdict.WINNABLE:
        assert replay(deal, result.witness.plays, result.witness.assignment).won
        oracle = decide(deal, backend="exhaustive", timeout=60).verdict
        assert oracle is not Verdict.UNWINNABLE, f"`planner` says WINNABLE, `exhaustive` says UNWINNABLE on {to_notation(deal)}"
