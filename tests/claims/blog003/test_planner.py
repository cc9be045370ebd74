"""The blog post's planner (seed 003): the deals and the stage counts."""

from __future__ import annotations

import random

import pytest

from crewcheck.claims.blog003 import planner
from crewcheck.model import dealing
from crewcheck.model.cards import CLASSIC_DECK


@pytest.mark.parametrize("players, k", [(4, 1), (3, 5), (4, 12)])
def test_random_deal_deals_every_card_and_assigns_round_robin(players: int, k: int) -> None:
    """Every card is dealt once, the commander holds R4, k colour tasks go round-robin from it."""
    inst = planner.random_deal(random.Random(7), players, k)
    union = 0
    for h in inst.hands:
        assert union & h == 0
        union |= h
    assert union == (1 << CLASSIC_DECK.size) - 1
    commander = next(s for s, h in enumerate(inst.hands) if h >> dealing.COMMANDER_CARD & 1)
    assert [t.seat for t in inst.tasks] == [(commander + j) % players for j in range(k)]
    assert len({t.card for t in inst.tasks}) == k
    assert all(t.card in dealing.COLOUR_CARDS for t in inst.tasks)
    assert inst.rules.assignment == "fixed"


def test_free_deal_is_the_fixed_deal_with_free_assignment() -> None:
    """The free reading deals the same cards and tasks, leaving the seats to the crew."""
    fixed = planner.random_deal(random.Random(3), 4, 6)
    free = planner.random_deal(random.Random(3), 4, 6, "free")
    assert free.hands == fixed.hands and [t.card for t in free.tasks] == [t.card for t in fixed.tasks]
    assert free.rules.assignment == "free" and fixed.rules.assignment == "fixed"


@pytest.mark.parametrize("fn", [planner.planner_no_matching, planner.planner_execution])
def test_stage_claims_quick_on_a_tiny_sample(monkeypatch: pytest.MonkeyPatch, fn: object) -> None:
    """Stages add up to the winnable deals in both settings; the verdict reads the free
    setting only and carries its readings."""
    monkeypatch.setattr(planner, "QUICK_CELLS", ((4, 1, 3), (3, 2, 3)))
    comp = fn("quick")  # type: ignore[operator]
    for assignment in ("free", "fixed"):
        counts = comp.value(f"{assignment}_counts")
        assert counts["deals"] == 6
        assert counts["engine_winnable"] + counts["engine_unwinnable"] + counts["engine_unknown"] == 6
        assert sum(counts[s] for s in planner.STAGES) == counts["engine_winnable"]
    assert comp.readings is not None and comp.readings.tried[0].startswith("free assignment")
    assert comp.readings.not_tried
    assert all(v.method for v in comp.values)


def test_majority_is_decided_by_the_interval() -> None:
    """More than half only when the 95 % interval says so; a coin's worth is undecided."""
    assert planner._majority(86, 100) == "majority"
    assert planner._majority(37, 100) == "minority"
    assert planner._majority(52, 100) == "undecided"
