"""Mission 12's random draw as a chance node: the branch-and-bound answers equal a plain
count over every choice, first trick and draw (each position after the draw played out
by the exhaustive oracle), and a hand-made deal shows the three answers apart."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st

from crewcheck import decide
from crewcheck.analysis import chance
from crewcheck.analysis.chance import analyse_draw
from crewcheck.analysis.draw_positions import after_draw, draws, first_tricks, scrambled_draws
from crewcheck.errors import NotApplicableError
from crewcheck.formats import deal_json
from crewcheck.model.cards import iter_bits
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Verdict
from tests.strategies import instances


def plain_count(inst: Instance) -> tuple[bool, bool, Fraction]:
    """Every fixed choice of task seats, every first trick, every draw: no pruning."""
    best = Fraction(0)
    some = False
    counts = inst.task_counts
    for seats in product(range(inst.players), repeat=len(inst.tasks)):
        if counts is not None and any(seats.count(s) != counts[s] for s in range(inst.players)):
            continue
        fixed = inst.with_assignment(seats) if counts is not None else inst
        if counts is None and list(seats) != [t.seat for t in inst.tasks]:
            continue
        for trick in first_tricks(fixed):
            state = fixed.with_history(trick).state()
            if state.end is not None:
                chance = Fraction(int(state.end.won))
            else:
                hands = [tuple(iter_bits(h)) for h in state.hands]
                outcomes = []
                for d in product(*hands):
                    fresh = after_draw(fixed, trick, d)
                    assert isinstance(fresh, Instance)
                    outcomes.append(decide(fresh, backend="exhaustive").verdict is Verdict.WINNABLE)
                chance = Fraction(sum(outcomes), len(outcomes))
            some = some or chance > 0
            best = max(best, chance)
    return best == 1, some, best


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(instances(max_players=3, max_cards=9, max_tasks=2, history=False, lead_modes=("seat", "rocket"),
                 equal_hands=True, tokens=False))
def test_branch_and_bound_equals_the_plain_count(inst: Instance) -> None:
    assume(inst.tricks >= 3 and inst.tasks)
    note(deal_json.dumps(inst))
    got = analyse_draw(inst, backend="exhaustive")
    every, some, chance = plain_count(inst)
    assert (got.every, got.some, got.probability) == (every, some, chance)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(instances(max_players=3, max_cards=12, max_tasks=2, history=False, lead_modes=("seat", "rocket"),
                 equal_hands=True, tokens=False))
def test_the_hunt_on_longer_hands_equals_the_plain_count(inst: Instance) -> None:
    """With four cards a hand (27 draws after each first trick, more than the first pass
    probes), the hunt for a first trick that wins every draw and the count after it give
    the answers of the plain count; "for every draw" is known when the answer is."""
    assume(inst.tricks >= 3 and inst.tasks)
    note(deal_json.dumps(inst))
    got = analyse_draw(inst, backend="exhaustive")
    every, some, chance = plain_count(inst)
    assert (got.every, got.some, got.probability) == (every, some, chance)
    assert got.every_seconds is not None and got.every_seconds <= got.seconds


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(instances(max_players=3, max_cards=12, max_tasks=2, history=False, lead_modes=("seat", "rocket"),
                 equal_hands=True, tokens=False), st.sampled_from([-1, 1]))
def test_the_draw_formula_answers_as_the_plain_count(inst: Instance, conflicts: int) -> None:
    """The default way: every position after a draw that the plain search leaves open
    (here all: one node) goes to its first trick's SAT formula with the draw as
    assumptions from the first one on (``conflicts`` -1: the formula answers every one;
    1: it gives up at once and the default back-end answers). The answers are the plain
    count's."""
    assume(inst.tricks >= 3 and inst.tasks)
    note(deal_json.dumps(inst))
    with pytest.MonkeyPatch.context() as m:
        m.setattr(chance, "SEARCH_NODES", 1)
        m.setattr(chance, "FORMULA_AFTER", 0)
        m.setattr(chance, "FORMULA_CONFLICTS", conflicts)
        got = analyse_draw(inst)
    every, some, probability = plain_count(inst)
    assert (got.every, got.some, got.probability) == (every, some, probability)
    note(f"formula: {got.formula}")


@given(st.lists(st.integers(0, 7), min_size=1, max_size=5), st.integers(0, 1000))
def test_scrambled_draws_are_every_draw_once(sizes: list[int], seed: int) -> None:
    hands, at = [], 0
    for n in sizes:
        hands.append(((1 << n) - 1) << at)
        at += n
    got = list(scrambled_draws(tuple(hands), seed))
    assert len(got) == len(set(got)) and set(got) == set(draws(tuple(hands)))


def test_a_deal_with_three_different_answers() -> None:
    """Seat 1 must win B2 with B3 or B4 in trick 2; after trick 1 seat 0 holds B2 and one
    other card, one of which it gives to seat 1. Some draws help, some do not."""
    inst = deal_json.from_dict({"hands": [["B1", "B2", "P1"], ["B3", "P2", "P3"], ["B4", "P4", "P5"]],
                                "lead": 0, "tasks": [{"card": "B2", "seat": 1}]})
    got = analyse_draw(inst, backend="exhaustive")
    every, some, chance = plain_count(inst)
    assert (got.every, got.some, got.probability) == (every, some, chance)
    assert got.some and not got.every and 0 < got.probability < 1
    assert "for every draw: no" in got.describe(inst)


def test_refuses_what_it_does_not_model() -> None:
    inst = deal_json.from_dict({"hands": [["B1", "B2"], ["B3", "B4"]], "lead": 0, "tasks": [{"card": "B1", "seat": 1}]})
    with pytest.raises(NotApplicableError, match="before its first card"):
        analyse_draw(inst.with_history((0, 2)))


def test_each_card_goes_to_the_next_seat() -> None:
    """Each seat draws from the crew member to its right, so seat s's card goes to seat
    s + 1 (play goes clockwise: the next seat is on the left); the first trick's cards and
    the tasks it completed are gone, and its winner leads."""
    inst = deal_json.from_dict({"hands": [["B1", "B2", "P1"], ["B3", "P2", "P3"], ["B4", "P4", "P5"]],
                                "lead": 0, "tasks": [{"card": "P1", "seat": 1, "token": "2"},
                                                     {"card": "B4", "seat": 2, "token": "1"}]})
    idx = {str(inst.deck.card(c)): c for c in range(inst.deck.size)}
    trick = (idx["B1"], idx["B3"], idx["B4"])
    fresh = after_draw(inst, trick, (idx["B2"], idx["P2"], idx["P4"]))
    assert isinstance(fresh, Instance)
    hands = [sorted(str(fresh.deck.card(c)) for c in iter_bits(h)) for h in fresh.hands]
    assert hands == [["P1", "P4"], ["B2", "P3"], ["P2", "P5"]]
    assert fresh.lead == 2 and [(str(fresh.deck.card(t.card)), t.seat, t.token) for t in fresh.tasks] == [
        ("P1", 1, "1")]
