"""The blog post's planner (seed 003): the deals and the stage counts."""

from __future__ import annotations

import random

import pytest

from crewcheck.claims.blog003 import planner
from crewcheck.model.cards import CLASSIC_DECK


@pytest.mark.parametrize("players, k", [(4, 1), (3, 5), (4, 12)])
def test_random_fixed_deal_deals_every_card_and_assigns_round_robin(players: int, k: int) -> None:
    """Every card is dealt once, the commander holds R4, k colour tasks go round-robin from it."""
    inst = planner.random_fixed_deal(random.Random(7), players, k)
    union = 0
    for h in inst.hands:
        assert union & h == 0
        union |= h
    assert union == (1 << CLASSIC_DECK.size) - 1
    commander = next(s for s, h in enumerate(inst.hands) if h >> planner._COMMANDER_CARD & 1)
    assert [t.seat for t in inst.tasks] == [(commander + j) % players for j in range(k)]
    assert len({t.card for t in inst.tasks}) == k
    assert all(t.card in planner._COLOUR_CARDS for t in inst.tasks)
    assert inst.rules.assignment == "fixed"


def test_planner_stages_quick_on_a_tiny_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    """The computation is well formed: stages add up to the winnable deals, fractions follow."""
    monkeypatch.setattr(planner, "QUICK_CELLS", ((4, 1, 3), (3, 2, 3)))
    comp = planner.planner_stages("quick")
    counts = comp.value("counts")
    assert counts["deals"] == 6
    assert counts["engine_winnable"] + counts["engine_unwinnable"] + counts["engine_unknown"] == 6
    assert sum(counts[s] for s in planner.STAGES) == counts["engine_winnable"] == comp.value("winnable")
    assert set(comp.value("cells")) == {"4p-k01", "3p-k02"}
    if comp.open_reason is None:
        nm = comp.value("no_matching_fraction")
        assert nm == pytest.approx(counts["no_matching"] / counts["engine_winnable"], abs=1e-4)
        assert comp.value("no_matching_majority") is (nm > 0.5)
        matched = counts["engine_winnable"] - counts["no_matching"]
        assert comp.value("solved_given_matching") == pytest.approx(counts["solved"] / matched, abs=1e-4)
    assert all(v.method for v in comp.values)
