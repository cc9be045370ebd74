"""Rules unit tests on hand-checked positions (notation: see crewcheck.formats.notation)."""

from __future__ import annotations

import pytest

from crewcheck.errors import IllegalPlayError
from crewcheck.formats.notation import parse_deal
from crewcheck.model import Card, Termination, replay
from crewcheck.model.rules import legal_plays, order_violation, trick_winner
from crewcheck.model.tasks import Task


def idx(deal, *names):
    return [deal.deck.index(Card.parse(n)) for n in names]


def play(deal, *names):
    """Apply cards by name from the deal's start; return the final state."""
    s = deal.initial_state()
    for c in idx(deal, *names):
        s = s.apply(c)
    return s


def test_follow_suit_is_forced_when_possible():
    """A player holding the led suit may play only that suit; the leader plays anything."""
    d = parse_deal("B1 G2 | B2 G1 ; trump - ; lead 0 ; tasks G2@0 ; strict/fixed")
    assert legal_plays(d.deck, d.hands[0], ()) == d.hands[0]
    (b1,) = idx(d, "B1")
    assert legal_plays(d.deck, d.hands[1], (b1,)) == 1 << d.deck.index(Card.parse("B2"))
    with pytest.raises(IllegalPlayError, match="must follow suit"):
        play(d, "B1", "G1")


def test_void_player_may_discard_anything():
    """A player void in the led suit may play any card, and a discard never wins."""
    d = parse_deal("B1 B2 | G9 G8 ; trump - ; lead 0 ; tasks B2@0 ; strict/fixed")
    s = play(d, "B1", "G9")
    assert s.leader == 0  # the low blue lead still wins


def test_trump_beats_colour_lead_and_highest_trump_wins():
    """If a trump was played the highest trump wins, however high the led colour."""
    d = parse_deal("B9 B1 | R1 B2 | R2 G1 ; trump R ; lead 0 ; tasks ; strict/fixed")
    b9, r1, r2 = idx(d, "B9", "R1", "R2")
    assert trick_winner(d.deck, d.trump_suit, (b9, r1, r2)) == 2
    assert trick_winner(d.deck, d.trump_suit, (b9, r1, idx(d, "G1")[0])) == 1


def test_trump_lead_must_be_followed_with_trumps():
    """A trump lead is a suit like any other: holders of trumps must follow."""
    d = parse_deal("R2 B1 | R1 B2 ; trump R ; lead 0 ; tasks B1@0 ; strict/fixed")
    with pytest.raises(IllegalPlayError):
        play(d, "R2", "B2")
    assert play(d, "R2", "R1").leader == 0


def test_no_trump_suit_means_off_suit_never_wins():
    """Without trumps, an 'R' card is an ordinary suit."""
    d = parse_deal("B1 B3 | R4 G2 ; trump - ; lead 0 ; tasks B3@0 ; strict/fixed")
    assert play(d, "B1", "R4").leader == 0


def test_lead_passes_to_the_trick_winner():
    d = parse_deal("B1 G1 | B2 G2 ; trump - ; lead 0 ; tasks G2@1 ; strict/fixed")
    s = play(d, "B1", "B2")
    assert s.leader == 1 and s.to_play == 1
    with pytest.raises(IllegalPlayError, match="not in the hand"):
        s.apply(idx(d, "G1")[0])


def test_rocket_lead_goes_to_the_highest_trump():
    d = parse_deal("B1 R1 | B2 G1 | R2 G2 ; trump R ; lead rocket ; tasks ; strict/fixed")
    assert d.first_leader == 2


def test_free_first_lead_lets_any_seat_start():
    d = parse_deal("B1 G1 | B2 G2 ; trump - ; lead any ; tasks B1@1 ; strict/fixed")
    s = d.initial_state()
    assert s.to_play is None and s.legal_mask() == d.deck.full_mask
    s = s.apply(idx(d, "B2")[0])
    assert s.leader == 1 and s.to_play == 0


def test_early_win_when_last_task_done():
    """The game is won the moment every task is completed, cards left or not."""
    d = parse_deal("B2 G1 G3 | B1 G2 G4 ; trump - ; lead 0 ; tasks B1@0 ; strict/fixed")
    s = play(d, "B2", "B1")
    assert s.end is not None and s.end.won and s.end.termination is Termination.ALL_TASKS_DONE


def test_task_failure_when_wrong_seat_wins_the_card():
    d = parse_deal("B2 G1 | B1 G2 ; trump - ; lead 0 ; tasks B1@1 ; strict/fixed")
    s = play(d, "B2", "B1")
    assert s.end is not None and not s.end.won and s.end.termination is Termination.TASK_FAILED


def test_several_tasks_can_complete_in_one_trick():
    d = parse_deal("B2 G1 | B1 G2 ; trump - ; lead 0 ; tasks B1@0 B2@0 ; strict/fixed")
    assert play(d, "B2", "B1").end.won


def test_out_of_cards_with_tasks_left_loses():
    d = parse_deal("B2 | B1 G2 ; trump - ; lead 0 ; tasks G2@1 ; strict/fixed")
    s = play(d, "B2", "B1")
    assert s.end.termination is Termination.OUT_OF_CARDS


def test_unequal_hands_end_when_smallest_is_empty_leaving_a_card_unplayed():
    """14/13/13-style: the game ends after the smallest hand is empty; the extra card stays."""
    d = parse_deal("B1 B2 Y9 | B3 G1 | B4 G2 ; trump - ; lead 0 ; tasks Y9@0 ; strict/fixed")
    assert d.tricks == 2
    s = play(d, "B1", "B3", "B4", "G2", "B2", "G1")  # Y9 is never played
    assert s.end is not None and s.end.termination is Termination.OUT_OF_CARDS
    assert s.hands[0] == 1 << d.deck.index(Card.parse("Y9"))


# -- order tokens ---------------------------------------------------------------------
def _tasks(*tokens):
    return tuple(Task(i, 0, t) for i, t in enumerate(tokens))


def mask(*ix):
    m = 0
    for i in ix:
        m |= 1 << i
    return m


@pytest.mark.parametrize("rule", ["strict", "lenient"])
@pytest.mark.parametrize(
    ("tokens", "done", "group", "bad"),
    [
        (("1", None), (), (0,), None),        # 1 first: fine
        (("1", None), (), (1,), 0),           # untokened before 1: 1 fails
        (("1", "2"), (0,), (1,), None),
        (("2", "1"), (), (0,), 0),            # 2 before 1
        ((">", ">>"), (), (1,), 1),           # >> before >
        ((">", ">>", None), (), (2,), None),  # untokened between relative ones is fine
        ((">", ">>"), (0,), (1,), None),
        (("omega", None), (), (0,), 0),       # omega not last
        (("omega", None), (1,), (0,), None),
        (("omega", None), (), (0, 1), None),  # omega with an untokened task in the last trick
    ],
)
def test_tokens_one_at_a_time_agree_in_both_readings(rule, tokens, done, group, bad):
    """Tasks completed in separate tricks are judged the same way by both readings."""
    assert order_violation(_tasks(*tokens), mask(*done), mask(*group), rule) == bad


@pytest.mark.parametrize(
    ("tokens", "done", "group", "strict", "lenient"),
    [
        (("1", "2"), (), (0, 1), None, None),            # consecutive numbers together
        (("1", "3", None), (), (0, 1, 2), 1, None),      # 1 and 3 together: not consecutive
        ((">", ">>"), (), (0, 1), None, None),
        ((">", ">>>", ">>"), (), (0, 1, 2), None, None),  # >, >>, >>> all together: a run
        ((">", ">>>"), (), (0, 1), 1, None),             # > and >>> with no >> in the deal
        (("1", ">"), (), (0, 1), 1, None),               # different kinds
        (("1", "omega"), (), (0, 1), 1, None),           # omega is consecutive with nothing
        ((">", "omega"), (), (0, 1), 1, None),
    ],
)
def test_tokens_in_one_trick_differ_between_readings(tokens, done, group, strict, lenient):
    """Strict (rulebook): tokened tasks completed together need consecutive tokens."""
    t = _tasks(*tokens)
    assert (order_violation(t, mask(*done), mask(*group), "strict") is None) == (strict is None)
    assert order_violation(t, mask(*done), mask(*group), "lenient") == lenient


@pytest.mark.parametrize(("rule", "won"), [("strict", False), ("lenient", True)])
def test_full_game_where_the_readings_differ(rule, won):
    """Tasks '1' and '>' completed in one trick: lost under strict, won under lenient;
    the rules engine and the independent replay agree."""
    d = parse_deal(f"B2 G1 | B1 G2 ; trump - ; lead 0 ; tasks B1@0:1 B2@0:> ; {rule}/fixed")
    plays = idx(d, "B2", "B1")
    s = play(d, "B2", "B1")
    assert s.end.won is won
    assert replay(d, plays).won is won
