"""The quick pass on distress-signal deals (:mod:`crewcheck.solvers.signal_search`): a win
it finds is a replayed winning line with its passes; when it finds none the one formula
answers as before; with it, :func:`crewcheck.decide` gives the formula's verdicts."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import crewcheck.solvers.signal_search as signal_search
from crewcheck.api import check_witness, decide
from crewcheck.errors import BackendError, InvalidDealError, InvalidInputError
from crewcheck.formats import deal_json
from crewcheck.missions.logbook import deal_mission
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Budget, Verdict
from tests.strategies import condition_instances

pytest.importorskip("pysat.solvers")

# small deals with a distress signal (from seeded draws of the choice strategy below)
WON = [
    '{"hands": [["G2", "P2", "R1"], ["B1", "B2", "G1", "P1"]], "trump": "R", "lead": 0, "assignment": "fixed",'
    ' "order_rule": "lenient", "tasks": [{"card": "P2", "seat": 0, "token": "2"}, {"card": "B2", "seat": 0,'
    ' "token": ">>>"}, {"card": "B1", "seat": 0, "token": ">>>>"}], "distress": "choose",'
    ' "conditions": [{"kind": "wins_tricks_at", "seat": 0, "tricks": [2, "last"]}]}',
]
LOST = [
    '{"hands": [["B2", "G2", "R1"], ["B1", "P2"], ["G3", "P1"], ["B3", "G1", "P3"]], "trump": "R", "lead": 3,'
    ' "assignment": "decision", "order_rule": "strict", "tasks": [{"card": "R1", "token": ">>>>"},'
    ' {"card": "G3", "token": "omega"}, {"card": "B1", "token": ">>"}], "distress": "choose",'
    ' "conditions": [{"kind": "each_trump_wins_a_trick"}]}',
    '{"hands": [["B1", "B2", "G1", "R1", "R2"], ["G2", "P2"], ["B3", "G3", "P1", "P3"]], "trump": "R",'
    ' "lead": "any", "assignment": "decision", "order_rule": "strict", "tasks": [{"card": "B1"},'
    ' {"card": "P2", "token": "1"}], "distress": "right", "conditions": [{"kind": "wins_all_cards",'
    ' "seat": "choose", "suit": "R"}, {"kind": "wins_fewer_tricks_than", "seat": "choose", "other": 0}]}',
    '{"hands": [["B3"], ["B1", "B2", "G1", "G2", "P3"], ["G3", "P1", "P2"]], "trump": null, "lead": 0,'
    ' "assignment": "distribution", "order_rule": "strict", "tasks": [{"card": "G3"}], "distress": "left",'
    ' "conditions": [{"kind": "wins_together", "seat": 1, "cards": ["B1", "P2"]}]}',
]


def mission(number: int, players: int, seed: int) -> Instance:
    deal = deal_mission(number, players, seed=seed, challenge=False, reading="reference", crew_choices=True,
                        distress="choose")
    return deal_json.from_dict({k: v for k, v in deal.items() if k != "comment"})


def _unhurried(monkeypatch: pytest.MonkeyPatch) -> None:
    """The quick pass given a tenth of the 60 s budgets below, not its 0.3 s: what the
    tests check must not depend on the machine's speed (a fresh clone spends its first
    tenths of a second importing and building the deals)."""
    monkeypatch.setattr(signal_search, "QUICK_SECONDS", 30.0)


def test_quick_pass_wins_a_mission_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mission 31 with 5 players, seed 124 (7 s in the one formula): the quick pass finds a
    win; decide answers with it, and the line replays with its passes (and not without)."""
    _unhurried(monkeypatch)
    instance = mission(31, 5, 124)
    found = signal_search.quick_signal_win(instance, Budget(seconds=60))
    assert found.line is not None and found.tried >= 1 and found.nodes > 0
    plays, assignment, choice = found.line
    assert choice.passes is not None and choice.direction in (1, -1)
    check_witness(instance, instance.history + plays, assignment, "search", choice)
    other = tuple(reversed(choice.passes))  # other passes: the same plays are no longer legal
    with pytest.raises(BackendError):
        check_witness(instance, instance.history + plays, assignment, "search", replace(choice, passes=other))
    r = decide(instance, timeout=60)
    assert r.verdict is Verdict.WINNABLE and r.backend == "search"
    assert r.stats.extra["distress"] == "quick passes"
    assert r.witness is not None and r.witness.choice is not None and r.witness.choice.passes is not None
    assert "distress signal" in r.stats.extra["choice"]


@pytest.mark.parametrize("text", LOST)
def test_no_quick_win_leaves_the_formula_to_answer(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal with no win: the quick pass tries concrete deals, finds none, and the one
    formula says unwinnable."""
    _unhurried(monkeypatch)
    instance = deal_json.loads(text)
    found = signal_search.quick_signal_win(instance, Budget(seconds=60))
    assert found.line is None and found.tried >= 1
    r = decide(instance, timeout=60)
    assert r.verdict is Verdict.UNWINNABLE and r.backend == "sat"
    assert r.stats.extra["distress"] == "one formula" and r.stats.extra["quick_deals_tried"] >= 1


def test_a_win_the_quick_pass_misses_comes_from_the_formula(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no time for the quick pass, a winnable deal is won by the formula as before."""
    monkeypatch.setattr(signal_search, "QUICK_SECONDS", 0.0)
    instance = deal_json.loads(WON[0])
    r = decide(instance, timeout=60)
    assert r.verdict is Verdict.WINNABLE and r.backend == "sat"
    assert r.stats.extra["distress"] == "one formula" and "quick_deals_tried" not in r.stats.extra
    assert r.witness is not None and r.witness.choice is not None and r.witness.choice.passes is not None


@pytest.mark.parametrize("text, verdict", [(t, Verdict.WINNABLE) for t in WON] +
                         [(t, Verdict.UNWINNABLE) for t in LOST])
def test_fixed_deals_keep_the_formula_verdict(text: str, verdict: Verdict) -> None:
    """Both verdicts: the default back-end (quick pass first) and the formula alone agree."""
    instance = deal_json.loads(text)
    assert decide(instance).verdict is verdict
    assert decide(instance, backend="sat").verdict is verdict


@st.composite
def signal_deals(draw: st.DrawFn) -> Instance:
    base = draw(condition_instances(choose=True, assignments=("fixed", "free", "decision", "distribution"),
                                    max_cards=9, max_tasks=3))
    try:
        return replace(base, distress=draw(st.sampled_from(["left", "right", "choose"])))
    except InvalidDealError:
        return base


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(signal_deals())
def test_verdicts_equal_the_formula(instance: Instance) -> None:
    """On small deals with a distress signal the default back-end's verdict (quick pass,
    then the formula) equals the formula's alone."""
    note(deal_json.dumps(instance))
    quick, formula = decide(instance).verdict, decide(instance, backend="sat").verdict
    assert quick is formula, f"the default says {quick.value}, the formula says {formula.value}"


SHORTENED = ('{"hands": [["B1", "B2", "B3"], ["R1", "R2", "R3"]], "trump": "R", "lead": 0, "assignment": "fixed",'
             ' "order_rule": "strict", "tasks": [], "distress": "left", "conditions": [%s]}')


@pytest.mark.parametrize("condition, verdict", [
    ('{"kind": "task_in_trick", "card": "B1", "trick": 3}', Verdict.UNWINNABLE),
    ('{"kind": "wins_no_tricks_at", "seat": 0, "tricks": [3]}', Verdict.UNWINNABLE),
    ('{"kind": "wins_tricks_at", "seat": 1, "tricks": [3]}', Verdict.UNWINNABLE),
    ('{"kind": "wins_tricks", "seat": 1, "count": 3, "cmp": "<="}', Verdict.UNWINNABLE),
    ('{"kind": "task_in_trick", "card": "B1", "trick": 2}', Verdict.WINNABLE),
    ('{"kind": "wins_tricks_at", "seat": 1, "tricks": ["last"]}', Verdict.WINNABLE),
])
def test_a_condition_beyond_the_shortened_game_is_false(condition: str, verdict: Verdict) -> None:
    """Seat 1 holds only trumps, so it passes nothing and the game after the passes has 2
    tricks, not 3: a condition naming trick 3 (or more tricks than are left) makes no deal,
    for the oracle, the formula and the default alike; trick 2 and "last" still exist."""
    instance = deal_json.loads(SHORTENED % condition)
    for backend in ("exhaustive", "sat", "auto"):
        assert decide(instance, backend=backend).verdict is verdict, backend


def test_bad_input_is_refused_as_before() -> None:
    """A bad budget is refused before any pass is tried, with the field named."""
    instance = deal_json.loads(WON[0])
    with pytest.raises(InvalidInputError, match="timeout"):
        decide(instance, timeout=-1)
    with pytest.raises(InvalidInputError, match="Budget.nodes"):
        decide(instance, budget=Budget(nodes=-1))


def test_candidates_put_the_cards_a_seat_must_win_first() -> None:
    """Mission 46 (seat 1 of 4 wins every pink card): the seat's first candidate is its
    lowest pink card; the seat passing to it offers its highest pink card first after its
    own; every seat's candidates are distinct cards it holds that are no trump."""
    instance = mission(46, 4, 13)
    pink = instance.deck.suit_mask(instance.deck.suit_index("P"))
    assert signal_search.must_win(instance, 1) == pink
    assert signal_search.must_win(instance, 0) == 0
    cards = signal_search.candidate_cards(instance, -1)
    held = [c for c in range(instance.deck.size) if instance.hands[1] >> c & 1 and pink >> c & 1]
    assert cards[1][0] == min(held, key=lambda c: instance.deck.card(c).value)
    giver = [c for c in range(instance.deck.size) if instance.hands[2] >> c & 1 and pink >> c & 1]
    assert cards[2][0] == max(giver, key=lambda c: instance.deck.card(c).value)
    trumps = instance.deck.suit_mask(instance.trump_suit)
    for seat, picks in enumerate(cards):
        assert len(set(picks)) == len(picks)
        assert all(instance.hands[seat] >> c & 1 and not trumps >> c & 1 for c in picks)
