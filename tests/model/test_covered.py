"""Covered cards (JARVIS's columns): the rules engine, the replay checker and the oracle
on a card that may be played only once the card on it has gone in an earlier trick."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from crewcheck.cli import main
from crewcheck.errors import IllegalPlayError, InvalidDealError
from crewcheck.formats import deal_json
from crewcheck.formats.notation import format_deal, parse_deal, to_notation
from crewcheck.model import Card, State, replay
from crewcheck.model.cards import iter_bits
from crewcheck.model.instance import Instance
from crewcheck.model.rules import uncovered
from crewcheck.solvers.base import Budget, Verdict
from crewcheck.solvers.exhaustive import ExhaustiveSolver
from tests.strategies import covered_instances

# Won only thanks to the cover: seat 1's G1 lies under B3, so on seat 0's G2 lead it
# may keep its G1 and throw B3; later it has only G1 left for seat 0's B1.
ONLY_WITH_COVER = "B1 G2 R1 | B2 B3 G1 ; trump R ; lead 0 ; tasks B1@0 ; strict/fixed ; covered G1<B3"
# Lost only because of the cover: seat 2 must lead with R1 before it may play G2.
LOST_BY_COVER = "B1 B2 | B3 G1 | G2 R1 ; trump R ; lead 0 ; tasks B3@1 ; strict/fixed ; covered G2<R1"


def idx(deal: Instance, *names: str) -> list[int]:
    return [deal.deck.index(Card.parse(n)) for n in names]


def uncover(deal: Instance) -> Instance:
    return Instance(deal.deck, deal.hands, deal.tasks, deal.trump, deal.lead, deal.rules)


def oracle(deal: Instance) -> Verdict:
    return ExhaustiveSolver().decide(deal, budget=Budget()).verdict


@pytest.mark.parametrize("text, with_cover, without", [
    (ONLY_WITH_COVER, Verdict.WINNABLE, Verdict.UNWINNABLE),
    (LOST_BY_COVER, Verdict.UNWINNABLE, Verdict.WINNABLE),
])
def test_the_cover_changes_the_verdict_both_ways(text: str, with_cover: Verdict, without: Verdict) -> None:
    """Hand-made deals: a cover can lose a game (a card held back) and win one (a card
    that need not follow suit); the oracle sees both, and a win replays."""
    deal = parse_deal(text)
    assert oracle(deal) is with_cover
    assert oracle(uncover(deal)) is without
    answer = ExhaustiveSolver().decide(deal, budget=Budget())
    if answer.plays is not None:
        assert replay(deal, answer.plays).won


def test_a_covered_card_is_not_playable_until_an_earlier_trick_took_its_cover() -> None:
    """The engine and the checker both refuse the covered card, and both let its seat
    play off suit while its only card of the led suit is covered."""
    deal = parse_deal(ONLY_WITH_COVER)
    b1, g2, r1, b2, b3, g1 = idx(deal, "B1", "G2", "R1", "B2", "B3", "G1")
    state = State.initial(deal).apply(g2)
    assert state.legal_mask() == 1 << b2 | 1 << b3  # G1 lies under B3: no need to follow
    with pytest.raises(IllegalPlayError, match="lies under 'B3'"):
        state.apply(g1)
    with pytest.raises(IllegalPlayError, match="still lies under B3"):
        replay(deal, [g2, g1])
    after = state.apply(b3)  # B3 gone in trick 1: G1 is face up from trick 2 on
    assert after.legal_mask() == 1 << b1 | 1 << r1
    assert replay(deal, [g2, b3, r1, b2, b1, g1]).won


def test_uncovered_is_the_hand_without_the_cards_under_a_held_card() -> None:
    """A stack of three: only its top card is free until it has gone."""
    assert uncovered(0b1111, ((0, 1), (1, 2))) == 0b1100
    assert uncovered(0b1011, ((0, 1), (1, 2))) == 0b1010
    assert uncovered(0b0011, ((0, 1), (1, 2))) == 0b0010
    assert uncovered(0b0111, ()) == 0b0111


@given(st.data())
def test_engine_and_checker_agree_on_every_card_of_a_covered_deal(data: st.DataObject) -> None:
    """Along a random game, a card is legal for the engine exactly when the replay checker
    (which shares no rules code with it) accepts it, and both end the game alike."""
    deal = data.draw(covered_instances(history=False, free=False))
    note(to_notation(deal))
    state, plays = State.initial(deal), []
    while not state.is_terminal():
        legal = state.legal_mask()
        for card in range(deal.deck.size):
            try:
                replay(deal, [*plays, card])
                accepted = True
            except IllegalPlayError:
                accepted = False
            assert accepted is bool(legal >> card & 1), f"card {deal.card(card)} after {plays}"
        card = data.draw(st.sampled_from(list(iter_bits(legal))))
        plays.append(card)
        state = state.apply(card)
    assert state.end is not None
    out = replay(deal, plays)
    assert (out.won, out.termination) == (state.end.won, state.end.termination)


def _checker_wins(deal: Instance, plays: list[int]) -> bool:
    """Whether some continuation of ``plays`` wins, asking only the replay checker."""
    for card in range(deal.deck.size):
        if card in plays:
            continue
        try:
            out = replay(deal, [*plays, card])
        except IllegalPlayError:
            continue
        if out.won or (out.termination is None and _checker_wins(deal, [*plays, card])):
            return True
    return False


@given(covered_instances(max_cards=7, history=False, free=False))
def test_the_oracle_agrees_with_a_search_over_the_checker(deal: Instance) -> None:
    """On tiny covered deals the oracle (over the rules engine) and a brute force that
    asks only the replay checker which cards may follow give the same verdict."""
    note(to_notation(deal))
    if deal.state().end is not None:
        return
    assert (oracle(deal) is Verdict.WINNABLE) is _checker_wins(deal, [])


@given(covered_instances())
def test_covered_deals_round_trip(deal: Instance) -> None:
    """The deal file and the one-line notation keep the covers."""
    assert deal_json.from_dict(deal_json.to_dict(deal)) == deal
    assert parse_deal(to_notation(deal)) == deal.with_history(deal.history)


def test_show_prints_the_columns() -> None:
    """``format_deal`` (``crewcheck show``) lists each stack top card first."""
    deal = parse_deal("B1 B2 B3 | B4 G1 G2 ; trump - ; lead 0 ; tasks B4@1 ; strict/fixed ; covered B1<B2 B2<B3")
    assert "seat 0 columns (top/under): B3/B2/B1" in format_deal(deal)


BASE = {"hands": [["B1", "B3", "G1"], ["B2", "B4", "G2"]], "lead": 0, "tasks": [{"card": "B3", "seat": 0}]}


@pytest.mark.parametrize("extra, field, message", [
    ({"covered": [["B1", "B4"]]}, "covered[0][0]", "'B1' is not in the hand of seat 1"),
    ({"covered": [["B1", "B3"], ["B1", "G1"]]}, "covered[1][0]", "'B1' is covered twice"),
    ({"covered": [["B1", "B3"], ["G1", "B3"]]}, "covered[1][1]", "'B3' covers two cards"),
    ({"covered": [["B1", "B3"], ["B3", "G1"], ["G1", "B1"]]}, "covered[0]", "form a cycle"),
    ({"covered": [["B1", "B1"]]}, "covered[0]", "cannot cover itself"),
    ({"covered": [["B1", "B9"]]}, "covered[0][1]", "'B9' is not dealt"),
    ({"covered": [["B1"]]}, "covered[0]", ""),
    ({"covered": [["B1", "B3"]], "distress": "left"}, "distress", "not modelled with covered cards"),
])
def test_bad_covers_name_the_field(extra: dict[str, object], field: str, message: str) -> None:
    """A cover outside the seat's hand, a card covered twice, one covering two, a cycle:
    one error naming the field."""
    with pytest.raises(InvalidDealError) as err:
        deal_json.from_dict({**BASE, **extra})
    assert err.value.field == field
    assert message in str(err.value)


def test_a_bad_cover_is_exit_2_with_one_line(tmp_path, capsys) -> None:
    """The command line: exit 2 and a one-line error naming the field."""
    path = tmp_path / "deal.json"
    path.write_text(json.dumps({**BASE, "covered": [["B1", "B3"], ["B1", "G1"]]}))
    assert main(["decide", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "covered[1][0]" in err


def test_a_history_must_respect_the_covers() -> None:
    """A played history with a covered card is refused, naming the card."""
    deal = {**BASE, "covered": [["B1", "B3"]], "played": [{"lead": 0, "cards": ["B1", "B2"]}]}
    with pytest.raises(InvalidDealError) as err:
        deal_json.from_dict(deal)
    assert err.value.field == "played[0].cards[0]" and "lies under 'B3'" in str(err.value)
