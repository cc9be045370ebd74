"""Witteveen Thm 3.15 / 3.18 (generalised to s suits of n values) against the oracle."""

from __future__ import annotations

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

import crewcheck
from crewcheck.formats.deal_json import dumps, loads
from crewcheck.model.cards import Deck
from crewcheck.model.instance import Instance
from crewcheck.model.tasks import Task
from crewcheck.solvers.base import Budget, Verdict
from crewcheck.solvers.special.two_player_one_task import (
    TwoPlayerOneTaskSolver, discard_opportunities, published_verdict,
)
from tests.oracle import check_against_oracle, oracle_verdict
from tests.solvers.special.strategies import all_two_player, two_player_deals


@given(two_player_deals())
def test_matches_oracle(inst: Instance) -> None:
    """Random 2-, 3- and 4-suit deals of up to 12 cards agree with the oracle (either seat owns)."""
    check_against_oracle(inst, "two_player_one_task")


@pytest.mark.parametrize("s,n", [(4, 1), (4, 2), pytest.param(4, 3, marks=pytest.mark.slow), (2, 2), (2, 3), (2, 4),
                                 (2, 5), (3, 2)])
def test_every_deal(s: int, n: int) -> None:
    """Every deal with s suits of n values (task in the first suit, by symmetry) agrees (4 x 3
    in the slow suite)."""
    for inst in all_two_player(s, n):
        assert published_verdict(inst) == (oracle_verdict(inst) is Verdict.WINNABLE), dumps(inst)


@pytest.mark.slow
@pytest.mark.long
@pytest.mark.parametrize("s,n", [(4, 4), (3, 4), (2, 6)])
def test_every_deal_slow(s: int, n: int) -> None:
    """Every deal with 4 suits of 4 values (51,480 deals), 3 x 4 and 2 x 6 agrees, and every
    WINNABLE playout replays."""
    for inst in all_two_player(s, n):
        want = oracle_verdict(inst)
        assert published_verdict(inst) == (want is Verdict.WINNABLE), dumps(inst)
        if want is Verdict.WINNABLE:
            crewcheck.decide(inst, backend="two_player_one_task")


def _nine(order: list[int], task: int, owner: int) -> Instance:
    deck = Deck.from_sizes({"B": 9, "G": 9, "P": 9, "Y": 9})
    one = sum(1 << c for c in order[:18])
    return Instance(deck, (one, deck.full_mask & ~one), (Task(task, owner),), None, owner)


def _search_verdict(inst: Instance) -> Verdict:
    from crewcheck.solvers import registry

    if registry.available().get("search") is not None:
        pytest.skip("the search back-end is not installed")
    return registry.get("search").decide(inst, budget=Budget(seconds=30)).verdict


@settings(max_examples=25)
@given(st.permutations(range(36)), st.integers(0, 35), st.integers(0, 1))
def test_standard_deck_random(order: list[int], task: int, owner: int) -> None:
    """Random standard 4 x 9 deals: every WINNABLE playout replays, and the verdict equals
    the exact `search` back-end's (the plain oracle cannot do 36 cards)."""
    inst = _nine(order, task, owner)
    note(dumps(inst))
    got = crewcheck.decide(inst, backend="two_player_one_task").verdict  # wins are replayed
    want = _search_verdict(inst)
    if want is not Verdict.UNKNOWN:
        assert got == want, f"`two_player_one_task` says {got.value}, `search` says {want.value}"


@settings(max_examples=25)
@given(st.permutations([s for s in range(4) for _ in range(9)]), st.integers(0, 8), st.booleans(),
       st.integers(0, 1))
def test_standard_deck_near_losing(suits: list[int], tv: int, flip: bool, owner: int) -> None:
    """Deals shaped like Witteveen's losing families (player 1 holds the lowest k_s cards of
    each suit, or the highest with ``flip``): the verdict equals `search`'s."""
    k = [suits[:18].count(s) for s in range(4)]
    order = [s * 9 + (8 - v if flip else v) for s in range(4) for v in range(k[s])]
    order += [c for c in range(36) if c not in order]
    one = order[:18] if owner == 0 else order[18:] + order[:18]
    inst = _nine(one, tv, owner)
    note(dumps(inst))
    got = crewcheck.decide(inst, backend="two_player_one_task").verdict
    want = _search_verdict(inst)
    if want is not Verdict.UNKNOWN:
        assert got == want, f"`two_player_one_task` says {got.value}, `search` says {want.value}"


def test_lemma_3_14_generalised() -> None:
    """T(k) = max(0, 2k - n): the thesis's values for n = 9."""
    assert [discard_opportunities(k, 9) for k in range(10)] == [0, 0, 0, 0, 0, 1, 3, 5, 7, 9]


def test_seat_relabelling_and_refusals() -> None:
    """Seat 1 may own the task if it also leads; other leads, tokens, 3 seats are refused."""
    deal = loads('{"hands": [["B1", "G2"], ["B2", "G1"]], "lead": 1, "tasks": [{"card": "B2", "seat": 1}]}')
    assert crewcheck.decide(deal, backend="two_player_one_task").verdict == oracle_verdict(deal)
    s = TwoPlayerOneTaskSolver()
    other = loads('{"hands": [["B1", "G2"], ["B2", "G1"]], "lead": 0, "tasks": [{"card": "B2", "seat": 1}]}')
    assert s.supports(other) == ("two_player_one_task needs the task's seat to lead the first trick "
                                 "(Witteveen's player 1); this deal has lead 0 and the task at seat 1")
    three = loads('{"hands": [["B1"], ["B2"], ["B3"]], "lead": 0, "tasks": [{"card": "B2", "seat": 0}]}')
    assert s.supports(three) == "two_player_one_task needs 2 players; this deal has 3"
    uneven = loads('{"hands": [["B1", "B3"], ["B2", "G1"]], "lead": 0, "tasks": [{"card": "B2", "seat": 0}]}')
    assert s.supports(uneven) == ("two_player_one_task needs every suit to have the same number of values; "
                                  "this deal has B: 3, G: 1")
