"""The portfolio back-end: the search's answer when it has one, CP-SAT's otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, note, settings

from crewcheck import decide, load
from crewcheck.formats.notation import to_notation
from crewcheck.solvers import portfolio
from crewcheck.solvers.base import Verdict
from tests.strategies import instances

pytest.importorskip("numba")
DEALS = Path(__file__).resolve().parents[2] / "models" / "deals"


@settings(max_examples=25)
@given(instances(max_players=3, max_cards=10, max_tasks=3))
def test_portfolio_agrees_with_the_oracle(inst):
    note(to_notation(inst))
    assert decide(inst, backend="portfolio").verdict is decide(inst, backend="exhaustive").verdict


def test_cpsat_stage_takes_over_when_the_search_slice_runs_out(monkeypatch):
    """With a zero search slice the CP-SAT stage decides (and says so)."""
    pytest.importorskip("ortools")
    monkeypatch.setattr(portfolio, "SEARCH_SECONDS", 0.0)
    result = decide(load(DEALS / "classic-4p-10-tasks-tokens.json"), backend="portfolio", timeout=120)
    assert result.verdict is Verdict.UNWINNABLE
    assert result.stats.extra["stage"] == "cpsat"


def test_easy_deal_is_answered_by_the_search_stage():
    result = decide(load(DEALS / "classic-3p-14-13-13.json"), backend="portfolio")
    assert result.verdict is Verdict.WINNABLE and result.stats.extra["stage"] == "search"
