"""The independent replay checker: agreement with the rules engine, and rejections."""

from __future__ import annotations

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from crewcheck.errors import IllegalPlayError
from crewcheck.formats import deal_json
from crewcheck.formats.notation import parse_deal, to_notation
from crewcheck.model import Card, State, Termination, replay
from tests.strategies import instances, playouts


def idx(deal, *names):
    return [deal.deck.index(Card.parse(n)) for n in names]


@given(st.data())
def test_random_legal_playouts_replay_like_the_engine(data):
    """Any legal play sequence replays cleanly, and the checker reaches the same
    outcome as the rules engine (won, lost and why, or still going)."""
    inst = data.draw(instances(history=False))
    plays = data.draw(playouts(inst, max_plays=inst.deck.size))
    note(to_notation(inst))
    state = State.initial(inst)
    for c in plays:
        state = state.apply(c)
    if not inst.tasks:
        return
    if inst.rules.assignment == "free":
        if state.end is None or not state.end.won:
            return  # the lazy engine's partial assignment is not a full one
        out = replay(inst, plays, state.owners)
    else:
        out = replay(inst, plays)
    assert (out.won, out.termination) == (
        (state.end.won, state.end.termination) if state.end else (False, None)
    )
    assert len(out.tricks) == state.tricks_played


@given(instances(history=False))
def test_cards_are_conserved_along_any_playout(inst):
    """Hands plus played cards always make up the deal, and no card is played twice."""
    state = State.initial(inst)
    played = 0
    total = 0
    for h in inst.hands:
        total |= h
    while not state.is_terminal():
        card = min(b for b in range(inst.deck.size) if state.legal_mask() >> b & 1)
        assert not played >> card & 1
        played |= 1 << card
        state = state.apply(card)
        held = 0
        for h in state.hands:
            held |= h
        assert held | played == total and held & played == 0


WIN = "B2 G1 | B1 G2 ; trump - ; lead 0 ; tasks B1@0 ; strict/fixed"


def test_accepts_a_winning_game():
    d = parse_deal(WIN)
    out = replay(d, idx(d, "B2", "B1"))
    assert out.won and out.termination is Termination.ALL_TASKS_DONE
    assert [(t.leader, t.winner) for t in out.tricks] == [(0, 0)]


@pytest.mark.parametrize(
    ("deal", "plays", "error"),
    [
        (WIN, ("B1",), "not in the hand"),                       # card not held by seat on turn
        (WIN, ("B2", "G2"), "must follow"),                      # revoke
        (WIN, ("B2", "B1", "G1", "G2"), "ended"),                # plays after the win
        ("B2 G1 | B1 G2 ; trump - ; lead 0 ; tasks B1@0 ; strict/fixed ; played B2", ("G1",), "history"),
    ],
)
def test_rejects_illegal_witnesses(deal, plays, error):
    """Each kind of illegal sequence raises IllegalPlayError naming the problem."""
    d = parse_deal(deal)
    with pytest.raises(IllegalPlayError, match=error):
        replay(d, idx(d, *plays))


@pytest.mark.parametrize(
    ("deal", "plays", "termination"),
    [
        ("B2 G1 | B1 G2 ; trump - ; lead 0 ; tasks B2@1 ; strict/fixed", ("B2", "B1"), Termination.TASK_FAILED),
        ("B2 G1 | B1 G2 ; trump - ; lead 0 ; tasks G2@0 ; strict/fixed", ("B2", "B1", "G1", "G2"),
         Termination.TASK_FAILED),
        ("B2 G1 | B1 G2 ; trump - ; lead 0 ; tasks B1@0:2 G2@1:1 ; strict/fixed", ("B2", "B1"),
         Termination.ORDER_VIOLATED),
        ("B2 | B1 G2 ; trump - ; lead 0 ; tasks G2@1 ; strict/fixed", ("B2", "B1"), Termination.OUT_OF_CARDS),
    ],
)
def test_losing_games_are_not_wins(deal, plays, termination):
    """The checker reports a losing game (wrong seat, token broken, out of cards) as lost."""
    d = parse_deal(deal)
    out = replay(d, idx(d, *plays))
    assert not out.won
    if termination is not None:
        assert out.termination is termination


def test_incomplete_game_is_not_a_win():
    d = parse_deal("B2 G1 | B1 G2 ; trump - ; lead 0 ; tasks G2@1 ; strict/fixed")
    out = replay(d, idx(d, "B2", "B1"))
    assert not out.won and out.termination is None


def test_free_assignment_witness_must_match_the_draft_counts():
    d = parse_deal("B2 G1 | B1 G2 ; trump - ; lead 0 ; tasks B1@? B2@? ; strict/free")
    plays = idx(d, "B2", "B1")
    with pytest.raises(IllegalPlayError, match="tasks per seat"):
        replay(d, plays, (0, 0))
    assert not replay(d, plays, (0, 1)).won  # seat 0 wins both cards


def test_the_checker_refuses_a_kind_it_has_no_judge_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every kind is judged by its row of ``JUDGES``; a kind without one is an error, never
    a condition taken to hold."""
    from crewcheck.model import judges

    deal = deal_json.from_dict({"hands": [["B1"], ["B2"]], "lead": 0,
                                "conditions": [{"kind": "wins_no_tricks", "seat": 0}]})
    assert replay(deal, idx(deal, "B1", "B2")).won
    monkeypatch.delitem(judges.JUDGES, "wins_no_tricks")
    with pytest.raises(IllegalPlayError, match="does not know condition kind 'wins_no_tricks'"):
        replay(deal, idx(deal, "B1", "B2"))
