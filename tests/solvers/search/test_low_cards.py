"""The low-card relaxation (:mod:`crewcheck.solvers.search.low_cards`) is sound: whenever it
says a deal is lost, the exhaustive oracle agrees, on every deal of a tiny deck family
(with and without a covered card) and on random tiny deals of each kind it judges, while
three relaxations that forbid real lines of covered deals are caught by the same check;
and it decides the logbook deals it is for, which the search alone leaves open within the
same budget."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from itertools import combinations, permutations

import pytest
from hypothesis import assume, given, note
from hypothesis import strategies as st

from crewcheck import decide
from crewcheck.formats import deal_json
from crewcheck.formats.notation import parse_deal
from crewcheck.missions.logbook import deal_mission
from crewcheck.model import conditions as C
from crewcheck.model.cards import Card, Deck
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Budget, Verdict
from crewcheck.solvers.search.driver import SearchOptions, SearchSolver
from crewcheck.solvers.search.relaxation import LowCards, relaxation_lost
from crewcheck.solvers.search.low_cards import EXACT_CARDS, loose_cards, low_cards
from tests.oracle import oracle_verdict
from tests.sizes import few, slow_twin
from tests.solvers.search.twins import twin_and_compiled
from tests.strategies import condition_instances, playouts, stacked

KINDS = sorted(EXACT_CARDS)


def _check(inst: Instance, *, compiled: bool = False, variant: Callable[[LowCards], None] | None = None) -> bool | None:
    """The relaxation's answer on ``inst``, checked against the oracle: lost only if the
    oracle loses the deal. ``variant`` alters the relaxation before it runs."""
    relax = LowCards(inst, compiled)
    if variant is not None and relax.applies:
        variant(relax)
    lost = relax.run(100_000)
    if lost:
        expected = decide(inst, backend="exhaustive").verdict
        assert expected is Verdict.UNWINNABLE, (
            f"the relaxation is lost, `exhaustive` says {expected.name} on {deal_json.dumps(inst)}")
    return lost


def _family() -> list[Instance]:
    """Every deal of two seats with four cards each from blue 1-3, green 1-3 and rockets 1-2
    (the commander leads), under each condition the relaxation judges on blue, the green
    3, the 3s or the rockets."""
    deck = Deck.from_sizes({"B": 3, "G": 3, "R": 2})
    conds: list[C.Condition] = [C.NoTrickWonWith(3), C.WinsNoCards(0, "G", 3), C.WinsNoCards(1, "B")]
    conds += [C.WinsAllCards(s, "B", played) for s in (0, 1) for played in (False, True)]
    conds += [C.EachTrumpWinsATrick(in_order) for in_order in (False, True)]
    out = []
    for cards in combinations(range(deck.size), 4):
        hand = sum(1 << c for c in cards)
        hands = (hand, ((1 << deck.size) - 1) & ~hand)
        out += [Instance(deck, hands, (), "R", "rocket", conditions=(cond,)) for cond in conds]
    return out


def test_the_relaxation_agrees_with_the_oracle_on_a_whole_family() -> None:
    """On all 70 deals x 9 conditions of :func:`_family`: a lost relaxation is a lost deal,
    and the relaxation refutes some deals and lets others be won (it is no constant)."""
    seen = {_check(inst) for inst in _family()}
    assert {True, False} <= seen


ONE_PER_KIND: dict[str, C.Condition] = {
    "no_trick_won_with": C.NoTrickWonWith(3), "wins_no_cards": C.WinsNoCards(1, "B"),
    "wins_all_cards": C.WinsAllCards(0, "B"), "each_trump_wins_a_trick": C.EachTrumpWinsATrick(in_order=True),
}
"""A condition of each kind the relaxation judges, on the deck of :func:`_covered_family`."""


def _covered_family(kind: str) -> list[Instance]:
    """Every deal of :func:`_family`'s deck with four cards each, seat 0's cards lying one
    under another (every ordered pair), under :data:`ONE_PER_KIND`'s condition of ``kind``."""
    deck = Deck.from_sizes({"B": 3, "G": 3, "R": 2})
    out = []
    for cards in combinations(range(deck.size), 4):
        hand = sum(1 << c for c in cards)
        hands = (hand, ((1 << deck.size) - 1) & ~hand)
        out += [Instance(deck, hands, (), "R", "rocket", conditions=(ONE_PER_KIND[kind],), covered=(pair,))
                for pair in permutations(cards, 2)]
    return out


@pytest.mark.parametrize("kind", KINDS)
def test_the_relaxation_agrees_with_the_oracle_on_covered_deals(kind: str) -> None:
    """On all 840 covered deals of :func:`_covered_family` under a condition of ``kind``: a
    lost relaxation is a lost deal, and both answers occur."""
    seen = {_check(inst) for inst in _covered_family(kind)}
    assert {True, False} <= seen


def test_the_search_with_the_relaxation_agrees_with_the_oracle_on_covered_deals() -> None:
    """Every seventh deal of :func:`_covered_family` under no trick won with a 3, decided
    by the search (the plain twin) with rounds of two nodes, so that the relaxation takes
    its turns at once: the oracle's verdict every time, and the relaxation gives some of
    the answers."""
    solver = SearchSolver(SearchOptions(pure=True, warm_start=False, first_round_nodes=2, broaden_after=2,
                                        split_nodes=2))
    relaxed = 0
    for inst in _covered_family("no_trick_won_with")[::7]:
        answer = solver.decide(inst, budget=Budget())
        want = oracle_verdict(inst)
        assert answer.verdict is want, (
            f"`search` says {answer.verdict.name}, `exhaustive` says {want.name} on {deal_json.dumps(inst)}")
        relaxed += "low_card_positions" in answer.extra
    assert relaxed > 0


def _keep_covers(relax: LowCards) -> None:
    """A wrong relaxation: low cards under or on another card keep their covers (none loose)."""
    relax.deal = relax.deal._replace(loose=0)


def _ignore_covers(relax: LowCards) -> None:
    """A wrong relaxation: every cover left out and no card loose, so a covered card
    obliges its seat to follow suit."""
    relax.deal = relax.deal._replace(loose=0, covers=relax.arr([-1]))


def _loose_cards_oblige(relax: LowCards) -> None:
    """A wrong relaxation: the loose cards' covers left out, but a loose card of the led
    suit obliges its seat to follow suit like any face-up card."""
    covers, loose = relax.deal.covers, relax.deal.loose
    pairs = [(covers[i], covers[i + 1]) for i in range(0, len(covers) - 1, 2)]
    kept = [c for pair in pairs if not (loose >> pair[0]) & 1 for c in pair]
    relax.deal = relax.deal._replace(loose=0, covers=relax.arr(kept + [-1]))


@pytest.mark.parametrize("variant", [_keep_covers, _ignore_covers, _loose_cards_oblige])
def test_a_relaxation_that_forbids_real_lines_is_caught(variant: Callable[[LowCards], None]) -> None:
    """Each wrong relaxation (it forbids lines the deal allows) says some deal of
    :func:`_covered_family` under no trick won with a 3 is lost that the oracle wins: the
    check of the covered family can fail."""
    with pytest.raises(AssertionError, match="the relaxation is lost, `exhaustive` says WINNABLE"):
        for inst in _covered_family("no_trick_won_with"):
            _check(inst, variant=variant)


def test_loose_cards_are_the_covered_low_classes_and_their_partners() -> None:
    """Seat 0 holds B1 B2 B3 G2 with G2 under B2 and G1 G3 R1 R2 with R1 under G1, no trick
    won with a 3: its low blues (B1 B2, for B2 covers) and G2 are loose, B3 is not; seat
    1's G1 is low and loose, and so is the R1 under it. Once B2 is played, its cover no
    longer binds: only seat 1's cards are loose."""
    inst = parse_deal("B1 B2 B3 G2 | G1 G3 R1 R2 ; trump R ; lead 0 ; strict/fixed ; covered G2<B2 R1<G1")
    inst = dataclasses.replace(inst, conditions=(C.NoTrickWonWith(3),))
    def cards(*names: str) -> int:
        return sum(1 << inst.deck.index(Card.parse(n)) for n in names)

    assert low_cards(inst) == cards("B1", "B2", "G1", "G2")
    assert loose_cards(inst, inst.hands, low_cards(inst)) == cards("B1", "B2", "G2", "G1", "R1")
    later = (inst.hands[0] & ~cards("B2"), inst.hands[1] & ~cards("G3"))
    assert loose_cards(inst, later, low_cards(inst)) == cards("G1", "R1")


@pytest.mark.parametrize("kind", KINDS)
@few()
@given(data=st.data())
def test_the_relaxation_agrees_with_the_oracle(kind: str, data: st.DataObject) -> None:
    """On tiny random deals with a condition of ``kind`` (fixed or free assignment, the
    tasks left out by the relaxation), sometimes part-way through play: a lost relaxation
    is a lost deal."""
    inst = data.draw(condition_instances(kinds=(kind,), max_cards=10))
    assume(all(c.kind in EXACT_CARDS for c in inst.conditions) and inst.conditions)
    if data.draw(st.booleans()):
        plays = data.draw(playouts(inst, max_plays=inst.deck.size))
        if plays and not inst.with_history(plays).state().is_terminal():
            inst = inst.with_history(plays)
    note(deal_json.dumps(inst))
    _check(inst)


test_the_relaxation_agrees_with_the_oracle_on_more_deals = slow_twin(
    test_the_relaxation_agrees_with_the_oracle, "kind", KINDS)


@pytest.mark.parametrize("kind", KINDS)
@few()
@given(data=st.data())
def test_the_compiled_relaxation_agrees_with_the_oracle(kind: str, data: st.DataObject) -> None:
    """The compiled kernel's relaxation is sound too, and says what the plain twin says."""
    pytest.importorskip("numba")
    inst = data.draw(condition_instances(kinds=(kind,), max_cards=10))
    assume(all(c.kind in EXACT_CARDS for c in inst.conditions) and inst.conditions)
    note(deal_json.dumps(inst))
    assert _check(inst, compiled=True) == relaxation_lost(inst, 100_000, compiled=False)[0]


@pytest.mark.parametrize("kind", KINDS)
@few()
@given(data=st.data())
def test_the_relaxation_agrees_with_the_oracle_on_covered_random_deals(kind: str, data: st.DataObject) -> None:
    """On tiny random deals with a condition of ``kind`` and one seat's cards in stacks of
    covered cards (JARVIS's columns), sometimes part-way through play: a lost relaxation is
    a lost deal, and the compiled kernel (with numba) says what the plain twin says."""
    inst = data.draw(condition_instances(kinds=(kind,), max_cards=10))
    assume(all(c.kind in EXACT_CARDS for c in inst.conditions) and inst.conditions)
    inst = data.draw(stacked(inst))
    if data.draw(st.booleans()):
        plays = data.draw(playouts(inst, max_plays=inst.deck.size))
        if plays and not inst.with_history(plays).state().is_terminal():
            inst = inst.with_history(plays)
    note(deal_json.dumps(inst))
    answers = {_check(inst, compiled=compiled) for _, compiled in twin_and_compiled()}
    assert len(answers) == 1, f"the kernels say {answers} on {deal_json.dumps(inst)}"


test_the_relaxation_agrees_with_the_oracle_on_more_covered_deals = slow_twin(
    test_the_relaxation_agrees_with_the_oracle_on_covered_random_deals, "kind", KINDS)


def test_low_cards_are_those_below_every_named_card() -> None:
    """No trick won with a 9 on the Classic deck: every colour card but the 9s is low, no
    rocket is; a kind the relaxation does not judge, or no condition, gives none."""
    inst = deal_json.from_dict(deal_mission(16, 3, 184))
    deck = inst.deck
    want = sum(1 << c for c in range(deck.size) if deck.card(c).suit != "R" and deck.card(c).value != 9)
    assert low_cards(inst) == want
    assert low_cards(Instance(deck, inst.hands, (), "R", "rocket")) == 0
    assert low_cards(Instance(deck, inst.hands, (), "R", "rocket", conditions=(C.WinsNoTricks(0),))) == 0


def test_the_relaxation_decides_the_nines_of_mission_16() -> None:
    """Logbook mission 16, three players, seed 184 (no trick may be won with a 9): seat 1
    holds three 9s and cannot shed them all. Within 5,000 nodes the search alone leaves it
    open; with the relaxation's first turn after its first 2,000 nodes it is refuted (the
    low-card positions are the relaxation's). The plain twin's relaxation refutes it too."""
    pytest.importorskip("numba")
    inst = deal_json.from_dict(deal_mission(16, 3, 184))
    budget = Budget(nodes=5_000)
    alone = SearchSolver(SearchOptions(warm_start=False, low_card_nodes=0, broaden_after=2_000))
    assert alone.decide(inst, budget=budget).verdict is Verdict.UNKNOWN
    answer = SearchSolver(SearchOptions(warm_start=False, broaden_after=2_000)).decide(inst, budget=budget)
    assert answer.verdict is Verdict.UNWINNABLE
    assert 0 < answer.extra["low_card_positions"] <= 5_000
    assert "low-card relaxation" in (answer.explanation or "")
    assert relaxation_lost(inst, 20_000, compiled=False)[0] is True


def test_the_relaxation_decides_the_nines_of_mission_16_with_jarvis() -> None:
    """Logbook mission 16, two players with JARVIS, seed 54 (no trick may be won with a 9):
    each of JARVIS's columns holds a low card, so all 14 of its cards are loose, and the
    relaxation is lost within 50,000 trick boundaries (the compiled kernel)."""
    pytest.importorskip("numba")
    inst = deal_json.from_dict(deal_mission(16, 2, 54))
    jarvis = inst.hands[2]
    assert inst.covered and loose_cards(inst, inst.hands, low_cards(inst)) == jarvis
    lost, spent = relaxation_lost(inst, 50_000)
    assert lost is True and 0 < spent <= 50_000
