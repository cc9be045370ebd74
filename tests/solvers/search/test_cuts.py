"""The cuts of the search, one rule at a time (:mod:`crewcheck.solvers.search.cuts`).

For every rule: a small position where it fires, which the exhaustive oracle confirms
unwinnable, and a close one where it must not fire (winnable); a property that wherever
it fires on generated deals the oracle says unwinnable (the rule is sound); and the plain
twin and the compiled kernel agree on every position tried.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from crewcheck import decide
from crewcheck.formats.notation import parse_deal, to_notation
from crewcheck.model.instance import Instance
from crewcheck.model.tasks import Task
from crewcheck.solvers.base import Budget, Verdict
from tests.sizes import few, slow_twin
from tests.solvers.search.twins import fires, twin_and_compiled
from tests.strategies import instances, note_deal, playouts, stacked, trump_pad_instances

RULES = (
    "trick_dead", "hand_overflow_dead", "trick_count_dead", "boss_trump_dead", "nontask_count_dead", "trump_split_dead",
    "lead_reach_dead", "release_dead", "precedence_dead", "token_order_dead", "hall_dead",
)
"""Every rule of :mod:`crewcheck.solvers.search.cuts` (``boundary_dead`` calls the last ten)."""


def _oracle(inst: Instance) -> Verdict:
    return decide(inst, backend="exhaustive", budget=Budget()).verdict


def _check_sound(rule: str, inst: Instance) -> None:
    """Twin and compiled agree; where the rule fires, the oracle says unwinnable."""
    note_deal(to_notation(inst))
    said = {compiled: fires(rule, inst, k, compiled) for k, compiled in twin_and_compiled()}
    assert len(set(said.values())) == 1, f"twin and compiled disagree: {said}"
    if said[False]:
        assert _oracle(inst) is Verdict.UNWINNABLE, f"{rule} refutes a winnable position"


def _dead_and_alive(rule: str, dead: str, alive: str) -> None:
    """``rule`` refutes the position ``dead`` (one-line notation), which the oracle finds
    unwinnable, and not the winnable position ``alive``; twin and compiled alike."""
    for text, want, verdict in ((dead, True, Verdict.UNWINNABLE), (alive, False, Verdict.WINNABLE)):
        inst = parse_deal(text)
        assert _oracle(inst) is verdict, text
        for k, compiled in twin_and_compiled():
            assert fires(rule, inst, k, compiled) is want, (text, "compiled" if compiled else "twin")


def test_trick_dead() -> None:
    """Seat 0 has played its task card B1 and seat 1's B2 beats it: seat 0 cannot win this
    trick any more. When seat 0 played B2 over seat 1's B1, it is winning, and seat 2
    cannot follow suit."""
    _dead_and_alive("trick_dead",
                    dead="B1 | B2 | G1 ; trump - ; lead 0 ; tasks B1@0 ; strict/fixed ; played B1 B2",
                    alive="B2 | B1 | G1 ; trump - ; lead 0 ; tasks B2@0 ; strict/fixed ; played B2 B1")


def test_trick_dead_owner_cannot_overtake() -> None:
    """Seat 0 led B2 and seat 1, who owns both task cards, can only follow with B1: it
    cannot take the trick. When seat 0 led B1 instead, seat 1 takes both with B2."""
    _dead_and_alive("trick_dead",
                    dead="B2 | B1 ; trump - ; lead 0 ; tasks B1@1 B2@1 ; strict/fixed ; played B2",
                    alive="B1 | B2 ; trump - ; lead 0 ; tasks B1@1 B2@1 ; strict/fixed ; played B1")


def test_trick_dead_free_assignment() -> None:
    """Free assignment, quotas 2, 1, 1 (drafted from seat 0): the trick holds the tasks
    B1 and B3; seat 1, winning it with B3, has room for one, and seat 2 holds no B to take
    it. With B1 and B3 swapped, seat 0 wins the trick, with room for both."""
    _dead_and_alive(
        "trick_dead",
        dead="B1 B2 G1 | B3 P2 P3 | G2 G3 P1 ; trump - ; lead 0 ; tasks B1@? B3@? P3@? P2@? ; strict/free ; "
             "played B1 B3",
        alive="B2 B3 G1 | B1 P2 P3 | G2 G3 P1 ; trump - ; lead 0 ; tasks B1@? B3@? P3@? P2@? ; strict/free ; "
              "played B3 B1")


def test_most_tasks_held() -> None:
    """The count the cuts share: the most task cards in one hand, in both forms of the kernel."""
    for k, compiled in twin_and_compiled():
        hands: Any = [0b000111, 0b001000, 0b110000]
        if compiled:
            hands = np.array(hands, dtype=np.int64)
        assert k.most_tasks_held(hands, 3, 0b101011) == 2
        assert k.most_tasks_held(hands, 3, 0b101000) == 1
        assert k.most_tasks_held(hands, 3, 0) == 0


def test_hand_overflow_dead() -> None:
    """Seat 1 holds one card, so one trick is left, and seat 0 holds two task cards: it
    cannot play both. With a second trick it wins B3 and then B1 (seat 1 discards G1)."""
    _dead_and_alive("hand_overflow_dead",
                    dead="B1 B3 | B2 ; trump - ; lead 0 ; tasks B1@0 B3@0 ; strict/fixed",
                    alive="B1 B3 | B2 G1 ; trump - ; lead 0 ; tasks B1@0 B3@0 ; strict/fixed")


def test_trick_count_dead() -> None:
    """One trick left and tasks of two seats: a trick completes one seat's tasks. When
    both tasks are seat 0's, its B2 takes them in the one trick."""
    _dead_and_alive("trick_count_dead",
                    dead="B2 | B1 ; trump - ; lead 0 ; tasks B1@1 B2@0 ; strict/fixed",
                    alive="B2 | B1 ; trump - ; lead 0 ; tasks B1@0 B2@0 ; strict/fixed")


def test_trick_count_dead_free_assignment() -> None:
    """Free assignment: two tasks drafted one to each seat need two tricks, and one is
    left. With two tricks seat 0 takes B2 and seat 1 then G2."""
    _dead_and_alive("trick_count_dead",
                    dead="B2 | B1 ; trump - ; lead 0 ; tasks B1@? B2@? ; strict/free",
                    alive="B2 G1 | B1 G2 ; trump - ; lead 0 ; tasks B2@? G2@? ; strict/free")


def test_boss_trump_dead() -> None:
    """Free assignment, three tasks, one each: seat 1's R2 and R3 are above seat 0's R1
    and seat 2's three task cards make every trick be played, so R2 and R3 win two tricks
    into which seat 2 plays two task cards (it holds nothing else): two tasks for a seat
    that takes one. With G2 no task, the game may end a trick earlier and seat 2 has a
    card to spare: the deal is won."""
    _dead_and_alive("boss_trump_dead",
                    dead="B3 G4 R1 | B1 R2 R3 | B4 G2 G3 ; trump R ; lead 0 ; tasks G2@? G3@? B4@? ; strict/free",
                    alive="B3 G4 R1 | B1 R2 R3 | B4 G2 G3 ; trump R ; lead 0 ; tasks G3@? B4@? ; strict/free")


def test_boss_trump_dead_fixed_assignment() -> None:
    """Fixed assignment: seat 1's R2 and R3 win two tricks (seat 2's three task cards make
    every trick be played), and seat 2 must play into them two of B1, G1, G4, of which
    only G4 is seat 1's. With B1 seat 1's too, seat 2 gives it B1 and G4 and keeps G1
    for seat 0, and the deal is won."""
    _dead_and_alive("boss_trump_dead",
                    dead="B3 B4 R1 | G2 R2 R3 | B1 G1 G4 ; trump R ; lead 0 ; tasks B1@0 G4@1 G2@0 G1@0 ; "
                         "strict/fixed",
                    alive="B3 B4 R1 | G2 R2 R3 | B1 G1 G4 ; trump R ; lead 0 ; tasks B1@1 G4@1 G2@0 G1@0 ; "
                          "strict/fixed")


def test_nontask_count_dead() -> None:
    """Free assignment, three seats, one trick: seat 0 takes the one task, so its trick
    holds two cards that are no task, and without a trump it cannot take a trick holding
    one: only B2 is left for it (seat 1's R1 takes the trick). With a second trick, seat 1
    discards G1 on seat 0's B2 lead and seat 0 takes B1."""
    _dead_and_alive("nontask_count_dead",
                    dead="B2 | R1 | B1 ; trump R ; lead 0 ; tasks B1@? ; strict/free",
                    alive="B2 G2 | R1 G1 | B1 G3 ; trump R ; lead 0 ; tasks B1@? ; strict/free")


def test_trump_split_dead() -> None:
    """Free assignment: seat 0 takes the task B1 in the one trick, but every trick holds
    seat 1's R1 and goes to seat 1. With a second trick, seat 1 discards G1 on B1."""
    _dead_and_alive("trump_split_dead",
                    dead="B1 B2 | R1 ; trump R ; lead 0 ; tasks B1@? ; strict/free",
                    alive="B1 B2 | R1 G1 ; trump R ; lead 0 ; tasks B1@? ; strict/free")


def test_lead_reach_dead() -> None:
    """Seat 1 owes B1 but holds nothing that beats a card seat 0 can lead, so it never
    wins a trick. With the cards swapped it beats B1 with B2."""
    _dead_and_alive("lead_reach_dead",
                    dead="B2 | B1 ; trump - ; lead 0 ; tasks B1@1 ; strict/fixed",
                    alive="B1 | B2 ; trump - ; lead 0 ; tasks B1@1 ; strict/fixed")


def test_release_dead() -> None:
    """Seat 0 must win its own B2 with B2 itself; seat 1 holds B3 and B4 and no lower B
    to duck with, so it must play both out first, which takes both tricks. With B3 and
    G1, seat 1 has one B to play out: B2 is released at the last trick, in time (seat 0
    leads P1, seat 1 discards B3, then B2 wins)."""
    _dead_and_alive("release_dead",
                    dead="B2 G1 | B3 B4 ; trump - ; lead 0 ; tasks B2@0 ; strict/fixed",
                    alive="B2 P1 | B3 G1 ; trump - ; lead 0 ; tasks B2@0 ; strict/fixed")


def test_precedence_dead() -> None:
    """Each seat must win its own B task with that card, and the other seat's only B is
    a task card of the other seat, which it may not duck with: each B task must come
    before the other. When both are seat 0's, seat 1 ducks with B1 under B2."""
    _dead_and_alive("precedence_dead",
                    dead="B2 R1 | B1 R2 ; trump R ; lead 0 ; tasks B1@1 B2@0 ; strict/fixed",
                    alive="B2 R1 | B1 R2 ; trump R ; lead 0 ; tasks B1@0 B2@0 ; strict/fixed")


def test_token_order_dead() -> None:
    """Seat 1 must win its own G3 with G3, and seat 0 cannot duck under it with G2, a task
    of its own: G2 comes first, so it cannot carry "omega" (last). With "omega" on G3,
    seat 0 wins G2 (seat 1 ducks G1), then seat 1 wins B3 and G3."""
    _dead_and_alive("token_order_dead",
                    dead="B1 B2 G2 | B3 G1 G3 ; trump - ; lead 0 ; tasks G2@0:omega G3@1 ; strict/fixed",
                    alive="B1 B2 G2 | B3 G1 G3 ; trump - ; lead 0 ; tasks G2@0 G3@1:omega ; strict/fixed")


def test_hall_dead() -> None:
    """Seat 0 must win B1 and B2 each with the card itself, after seat 1 has played out
    B3 (it has nothing lower to duck with): two tasks of one hand in the one trick left.
    With B1 and B3 swapped, seat 0 leads B2 and seat 1 ducks with B1."""
    _dead_and_alive("hall_dead",
                    dead="B1 B2 | B3 R1 ; trump R ; lead 0 ; tasks B1@0 B2@0 ; strict/fixed",
                    alive="B2 B3 | B1 R1 ; trump R ; lead 0 ; tasks B1@0 B2@0 ; strict/fixed")


def test_every_rule_has_its_test() -> None:
    """Every cut of :mod:`crewcheck.solvers.search.cuts` (a function named ``*_dead``; the
    others are counts the cuts share) is listed in :data:`RULES` and has a test of its own
    here (``boundary_dead`` is tested through the search)."""
    from crewcheck.solvers.search import cuts

    rules = {f.__name__ for f in cuts.CUT_FUNCTIONS if f.__name__.endswith("_dead")}
    assert set(RULES) == rules - {"boundary_dead"}
    for rule in RULES:
        assert f"test_{rule}" in globals(), rule


@st.composite
def _positions(draw: st.DrawFn, deals: st.SearchStrategy[Instance], *, in_trick: bool = False) -> Instance:
    """A deal from ``deals`` played on at random to a trick boundary (or, ``in_trick``,
    into a trick): the positions at which the search tries its cuts."""
    inst = draw(deals).with_history(())
    if not inst.tasks:  # a deal without tasks is won before any cut is tried: give it one
        card = draw(st.integers(0, inst.deck.size - 1))
        seat = None if inst.rules.assignment == "free" else inst.holder[card]
        inst = dataclasses.replace(inst, tasks=(Task(card, seat),))
    plays = draw(playouts(inst, max_plays=inst.deck.size))
    p = inst.players
    last = max(0, len(plays) - 1)  # a random playout mostly ends the game: stop before its last card
    n = draw(st.integers(0, last // p)) * p
    if in_trick:
        n = min(last, n + draw(st.integers(1, p - 1)))
    return inst.with_history(plays[:n])


@st.composite
def _own_task_deals(draw: st.DrawFn, *, tokens: bool = False) -> Instance:
    """Fixed-assignment deals with one to five tasks, each owned by the seat holding its
    card or by a seat drawn at random, with or without order tokens (some absolute or some
    relative ones, and perhaps "omega"): where the rules on release times bite."""
    inst = draw(instances(min_players=2, max_players=3, max_suits=3, max_values=5, max_cards=12, max_tasks=0,
                          free=False, tokens=False, history=False, lead_modes=("seat",)))
    colour = [c for c in range(inst.deck.size) if inst.deck.suit_of(c) != inst.trump_suit]
    cards = draw(st.lists(st.sampled_from(colour), min_size=1, max_size=5, unique=True))
    seats = [inst.holder[c] if draw(st.booleans()) else draw(st.integers(0, inst.players - 1)) for c in cards]
    marks: list[str | None] = [None] * len(cards)
    if tokens:
        n = len(cards)
        order = draw(st.permutations(range(n)))
        omega = n >= 2 and draw(st.booleans())
        kind = draw(st.sampled_from(["absolute", "relative"]))
        k = draw(st.integers(1, max(1, min(n - 1 if omega else n, 5 if kind == "absolute" else 4))))
        for rank, i in enumerate(order[:k], 1):
            marks[i] = str(rank) if kind == "absolute" else ">" * rank
        if omega and k < n:
            marks[order[k]] = "omega"
    tasks = tuple(Task(c, s, m) for c, s, m in zip(cards, seats, marks, strict=True))
    return dataclasses.replace(inst, tasks=tasks)


_DEALS = {
    "trick_dead": instances(max_players=3, max_cards=10, max_tasks=4, history=False),
    "hand_overflow_dead": instances(max_players=3, max_cards=10, max_tasks=5, history=False),
    "trick_count_dead": instances(max_players=3, max_cards=10, max_tasks=5, history=False),
    "boss_trump_dead": st.one_of(
        trump_pad_instances(), instances(max_players=3, max_cards=10, max_tasks=8, trumps=True, history=False)),
    "nontask_count_dead": st.one_of(
        trump_pad_instances(), instances(max_players=3, max_cards=10, max_tasks=8, free=True, history=False)),
    "trump_split_dead": trump_pad_instances(),
    "lead_reach_dead": instances(max_players=3, max_cards=10, max_tasks=4, history=False),
    "release_dead": _own_task_deals(),
    "precedence_dead": _own_task_deals(),
    "token_order_dead": _own_task_deals(tokens=True),
    "hall_dead": _own_task_deals(),
}
"""The deals each rule is tried on (played on to the positions where the search tries it)."""
_STRATEGIES = {rule: _positions(deals, in_trick=rule == "trick_dead") for rule, deals in _DEALS.items()}
_COVERED = {rule: _positions(deals.flatmap(stacked), in_trick=rule == "trick_dead") for rule, deals in _DEALS.items()}
"""The same deals with one hand cut into stacks of covered cards (JARVIS's columns)."""


@pytest.mark.parametrize("rule", RULES)
@few(25)
@given(data=st.data())
def test_rule_is_sound(rule: str, data: st.DataObject) -> None:
    """Wherever the rule refutes a generated position, the oracle finds it unwinnable,
    and the twin and the compiled kernel say the same (25 positions a rule by default, 100
    in the slow twin)."""
    _check_sound(rule, data.draw(_STRATEGIES[rule]))


@pytest.mark.parametrize("rule", RULES)
@few(15)
@given(data=st.data())
def test_rule_is_sound_with_covered_cards(rule: str, data: st.DataObject) -> None:
    """The same on deals with covered cards, where a seat plays and follows suit with its
    face-up cards only (15 positions a rule by default, 100 in the slow twin)."""
    _check_sound(rule, data.draw(_COVERED[rule]))


test_rule_is_sound_with_covered_cards_on_more_positions = slow_twin(
    test_rule_is_sound_with_covered_cards, "rule", RULES, examples=100)
test_rule_is_sound_on_more_positions = slow_twin(test_rule_is_sound, "rule", RULES, examples=100)
