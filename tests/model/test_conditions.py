"""Conditions: the rules engine and the independent replay checker agree on every game,
the oracle's answers on deals with choices agree with a plain search over the engine's
lazy assignment, and bad conditions are refused with the JSON path."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from crewcheck import decide
from crewcheck.cli import main
from crewcheck.errors import InvalidDealError
from crewcheck.formats import deal_json
from crewcheck.model import conditions as C
from crewcheck.model.cards import iter_bits
from crewcheck.model.instance import Instance
from crewcheck.model.outcome import Termination
from crewcheck.model.replay import replay
from crewcheck.model.state import State
from crewcheck.model.variants import count_variants, variants
from crewcheck.solvers.base import Verdict
from tests.strategies import condition_instances, random_game


@given(condition_instances(assignments=("fixed", "free", "decision", "distribution")), st.data())
def test_engine_and_checker_agree_on_every_game(instance: Instance, data: st.DataObject) -> None:
    """Play a random legal game with the engine; the checker judges it the same way,
    and a won game ends at the same trick for both."""
    note(deal_json.dumps(instance))
    state, plays = random_game(data, instance)
    assert state.end is not None
    owners = state.owners
    if state.end.won:
        outcome = replay(instance, plays, owners if instance.rules.assignment != "fixed" else None)
        assert outcome.won, outcome
    elif owners is None or -1 not in owners:
        try:
            outcome = replay(instance, plays, owners if instance.rules.assignment != "fixed" else None)
        except Exception:  # an assignment the lazy engine never completed
            return
        assert not outcome.won


def _plain_search(state: State, seen: set[object]) -> bool:
    if state.end is not None:
        return state.end.won
    key = state.key()
    if key in seen:
        return False
    for card in iter_bits(state.legal_mask()):
        if _plain_search(state.apply(card), seen):
            return True
    seen.add(key)
    return False


@given(condition_instances(choose=True, assignments=("fixed", "free", "decision", "distribution"), max_cards=9))
def test_oracle_on_choices_agrees_with_the_engines_lazy_assignment(instance: Instance) -> None:
    """Variants + oracle (choices expanded, witness replayed) against a plain search of
    the engine's lazy decision/distribution rule, one chosen seat at a time."""
    note(deal_json.dumps(instance))
    result = decide(instance, backend="exhaustive")
    crew = [s for s in range(instance.players) if s != instance.commander]
    if all(c.is_concrete() for c in instance.conditions):
        expected = _plain_search(State.initial(instance), set())
    else:
        expected = False
        for s in crew:
            try:
                chosen = Instance(instance.deck, instance.hands, instance.tasks, instance.trump, instance.lead,
                                  instance.rules, conditions=tuple(c.with_choices({"choose": s}) for c in instance.conditions))
            except InvalidDealError:  # e.g. "fewer tricks than" itself: not a choice
                continue
            expected = expected or _plain_search(State.initial(chosen), set())
    assert (result.verdict is Verdict.WINNABLE) == expected
    if result.witness is not None and not instance.is_concrete():
        assert result.witness.choice is not None


@given(condition_instances(choose=True, assignments=("fixed", "free", "decision", "distribution")))
def test_deal_files_keep_conditions(instance: Instance) -> None:
    again = deal_json.loads(deal_json.dumps(instance))
    assert again == instance


def _deal(**extra: object) -> dict[str, object]:
    return {"hands": [["B1", "B3", "R1"], ["B2", "B4", "G1"]], "trump": "R", "lead": 0, **extra}


@pytest.mark.parametrize(("condition", "path", "words"), [
    ({"kind": "wins_trick", "seat": 0}, "conditions[0].kind", "unknown kind"),
    ({"seat": 0}, "conditions[0].kind", "missing"),
    ({"kind": "wins_tricks", "seat": 0}, "conditions[0].count", "missing"),
    ({"kind": "wins_tricks", "seat": 0, "count": "2"}, "conditions[0].count", "integer"),
    ({"kind": "wins_tricks", "seat": 7, "count": 1}, "conditions[0].seat", "does not exist"),
    ({"kind": "wins_tricks", "seat": 0, "count": 1, "cmp": "<"}, "conditions[0].cmp", "expected"),
    ({"kind": "wins_no_tricks", "seat": True}, "conditions[0].seat", "seat"),
    ({"kind": "no_trick_won_with", "value": 9}, "conditions[0].value", "no card of value 9"),
    ({"kind": "wins_no_cards", "seat": 0, "suit": "Y"}, "conditions[0].suit", "unknown suit"),
    ({"kind": "task_in_trick", "card": "B3", "trick": 5}, "conditions[0].trick", "does not exist"),
    ({"kind": "task_in_trick", "card": "P3"}, "conditions[0].card", "not dealt"),
    ({"kind": "wins_together", "seat": 0, "cards": ["B1", "B3"]}, "conditions[0].cards", "one hand"),
    ({"kind": "wins_no_tricks", "seat": 0, "extra": 1}, "conditions[0].extra", "unknown field"),
    ({"kind": "wins_fewer_tricks_than", "seat": 1, "other": 1}, "conditions[0].other", "itself"),
])
def test_bad_conditions_name_their_field(condition: dict[str, object], path: str, words: str,
                                         tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(InvalidDealError) as e:
        deal_json.from_dict(_deal(conditions=[condition]))
    assert e.value.field == path and words in e.value.reason
    deal = tmp_path / "deal.json"  # type: ignore[operator]
    deal.write_text(json.dumps(_deal(conditions=[condition])))
    assert main(["decide", str(deal)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and path in err[0]


def test_each_trump_needs_trumps() -> None:
    with pytest.raises(InvalidDealError, match="needs a trump suit"):
        deal_json.from_dict({"hands": [["B1"], ["B2"]], "conditions": [{"kind": "each_trump_wins_a_trick"}]})


# -- hand-made deals, one verdict each ---------------------------------------------------
# Seat 0: B1 B3 R1, seat 1: B2 B4 G1; trump R; seat 0 leads.
@pytest.mark.parametrize(("condition", "winnable"), [
    ({"kind": "wins_no_tricks", "seat": 0}, False),       # R1 wins whenever it is played
    ({"kind": "wins_no_tricks", "seat": 1}, True),        # B3/B2, R1/B4 (a discard), B1/G1
    ({"kind": "wins_tricks", "seat": 0, "count": 2}, True),
    ({"kind": "wins_tricks", "seat": 0, "count": 3}, True),
    ({"kind": "wins_tricks", "seat": 1, "count": 1, "cmp": "<="}, True),
    ({"kind": "wins_fewer_tricks_than", "seat": 1, "other": 0}, True),
    ({"kind": "wins_no_cards", "seat": 1, "suit": "G"}, True),   # G1 falls to R1 ... or B
    ({"kind": "wins_all_cards", "seat": 0, "suit": "B"}, True),   # B4 is discarded on R1
    ({"kind": "trick_won_with", "value": 1, "count": 1, "trump": False}, True),  # B1 v G1
    ({"kind": "trick_won_with", "value": 1, "count": 1}, True),    # R1
    ({"kind": "no_trick_won_with", "value": 4}, True),
    ({"kind": "no_trick_won_with", "value": 3}, True),    # B1/B2, B4/B3: settled after 2 tricks
    ({"kind": "no_trick_won_with", "value": 1}, False),   # R1 wins whenever it falls
    ({"kind": "each_trump_wins_a_trick"}, True),
    ({"kind": "wins_tricks_at", "seat": 1, "tricks": ["last"], "only": True}, True),
    ({"kind": "wins_tricks_at", "seat": 0, "tricks": [1], "not_with_trump": True}, True),  # B3 v B2
    ({"kind": "balanced_tricks", "margin": 2}, True),
    ({"kind": "balanced_tricks", "margin": 1}, False),
    ({"kind": "task_in_trick", "card": "G1", "trick": 1}, True),   # on R1
    ({"kind": "wins_tricks", "seat": 1, "count": 2, "cmp": ">="}, True),
    ({"kind": "wins_tricks", "seat": 1, "count": 3, "cmp": ">="}, False),  # R1 wins a trick
    ({"kind": "task_in_trick", "card": "G1", "trick": "last"}, True),
    ({"kind": "wins_together", "seat": 0, "cards": ["R1", "G1"]}, True),
    ({"kind": "wins_together", "seat": 1, "cards": ["R1", "G1"]}, False),
])
def test_each_kind_on_a_small_deal(condition: dict[str, object], winnable: bool) -> None:
    deal = deal_json.from_dict(_deal(conditions=[condition]))
    result = decide(deal, backend="exhaustive")
    assert (result.verdict is Verdict.WINNABLE) == winnable


def test_a_game_with_only_conditions_plays_to_the_end() -> None:
    deal = deal_json.from_dict(_deal(conditions=[{"kind": "wins_tricks", "seat": 0, "count": 2, "cmp": ">="}]))
    result = decide(deal, backend="exhaustive")
    assert result.witness is not None
    winners = [t.winner for t in result.witness.tricks]
    assert winners.count(0) == 2 and winners[-1] == 0  # the game stops at the second win


def test_choose_and_decision_witnesses_name_the_choice() -> None:
    deal = deal_json.from_dict({
        "hands": [["B1", "B3", "G2"], ["B2", "G1", "G4"], ["B4", "G3", "R1"]], "trump": "R", "lead": 0,
        "assignment": "decision", "tasks": [{"card": "G3"}],
        "conditions": [{"kind": "wins_tricks", "seat": "choose", "count": 1, "cmp": ">="}]})
    assert deal.commander == 2 and count_variants(deal) == 4
    assert len(list(variants(deal))) == 4
    result = decide(deal, backend="exhaustive")
    assert result.verdict is Verdict.WINNABLE
    choice = result.witness.choice  # type: ignore[union-attr]
    assert choice is not None and dict(choice.seats)["choose"] in (0, 1) and choice.recipient in (0, 1)
    outcome = replay(deal, result.witness.plays, result.witness.assignment, dict(choice.seats))  # type: ignore[union-attr]
    assert outcome.won
    with pytest.raises(Exception, match="commander"):
        replay(deal, result.witness.plays, (2,), dict(choice.seats))  # type: ignore[union-attr]
    with pytest.raises(Exception, match="choose"):
        replay(deal, result.witness.plays, result.witness.assignment, {"choose": 2})  # type: ignore[union-attr]


def test_other_backends_refuse_conditions_they_do_not_judge() -> None:
    deal = deal_json.from_dict(_deal(conditions=[{"kind": "wins_no_tricks", "seat": 0}]))
    from crewcheck.errors import NotApplicableError
    with pytest.raises(NotApplicableError, match="wins_no_tricks"):
        decide(deal, backend="planner")
    assert decide(deal, backend="search").verdict is decide(deal, backend="exhaustive").verdict


def test_condition_broken_is_reported() -> None:
    deal = deal_json.from_dict(_deal(conditions=[{"kind": "no_trick_won_with", "value": 4}],
                                     played=[{"lead": 0, "cards": ["B1", "B4"]}]))
    assert deal.state().end is not None
    assert deal.state().end.termination is Termination.CONDITION_BROKEN  # type: ignore[union-attr]
    assert "no trick won with a 4" in deal.state().end.describe(deal)  # type: ignore[union-attr]


def test_distress_signal_passes_are_checked() -> None:
    deal = deal_json.from_dict({"hands": [["B1", "B3", "R1"], ["B2", "B4", "G1"]], "trump": "R", "lead": 0,
                                "distress": "left", "tasks": [{"card": "B4", "seat": 0}]})
    assert count_variants(deal) == 2 * 3
    result = decide(deal, backend="exhaustive")
    assert result.verdict is Verdict.WINNABLE
    choice = result.witness.choice  # type: ignore[union-attr]
    assert choice is not None and choice.direction == 1 and choice.passes is not None
    plays = result.witness.plays  # type: ignore[union-attr]
    assert replay(deal, plays, None, None, (1, choice.passes)).won
    with pytest.raises(Exception, match="do not fit"):
        replay(deal, plays, None, None, (-1, choice.passes))  # the deal says left
    r1 = deal.deck.index(deal.deck.cards[-1]) if str(deal.deck.cards[-1]) == "R1" else 5
    with pytest.raises(Exception, match="cannot pass"):
        replay(deal, plays, None, None, (1, (r1, choice.passes[1])))  # a trump
    with pytest.raises(Exception, match="passes"):
        replay(deal, plays)  # no passes given


def test_distress_signal_with_a_history_is_refused() -> None:
    with pytest.raises(InvalidDealError, match="distress"):
        deal_json.from_dict({"hands": [["B1", "B3"], ["B2", "B4"]], "lead": 0, "distress": "left",
                             "tasks": [{"card": "B4", "seat": 1}], "played": [{"lead": 0, "cards": ["B1", "B2"]}]})


def test_a_history_under_conditions_the_crew_still_chooses() -> None:
    """A deal whose only conditions name a seat to choose is not over before play: its
    history is checked with those conditions undecided (regression: it counted as won)."""
    data = {"hands": [["B1", "B3", "G2"], ["B2", "G1", "G4"], ["B4", "G3", "R1"]], "trump": "R", "lead": 0,
            "conditions": [{"kind": "wins_no_tricks", "seat": "choose"}]}
    assert deal_json.from_dict(data).without_choices().state().end is None
    data["played"] = [{"lead": 0, "cards": ["B1", "B2", "B4"]}]
    deal = deal_json.from_dict(data)
    assert len(deal.history) == 3
    assert decide(deal, backend="exhaustive").verdict in (Verdict.WINNABLE, Verdict.UNWINNABLE)


def test_each_kind_names_the_box_that_introduced_it() -> None:
    """The box is metadata on the kind's class, not a module: the nine kinds of the Deep
    Sea task cards and the twelve of the logbook, each in the module of what it judges."""
    deep_sea = {"wins_cards", "compares_cards_won", "wins_trick_where", "wins_consecutive_tricks",
                "wins_no_tricks_at", "wins_as_many_tricks_as", "wins_more_than_the_rest",
                "wins_all_cards_of_a_suit", "leads_no_cards"}
    assert set(C.kinds_of(C.DEEP_SEA)) == deep_sea
    assert set(C.kinds_of(C.LOGBOOK)) == set(C.CONDITION_KINDS) - deep_sea
    assert len(C.kinds_of(C.LOGBOOK)) == 12
    assert C.WinsCards.box == C.DEEP_SEA and C.WinsTricks.box == C.LOGBOOK
    groups = {cls.__module__ for cls in C.CONDITION_KINDS.values()}
    assert groups == {f"crewcheck.model.conditions.{m}" for m in ("tricks", "cards", "winning_card", "leads")}


def test_the_shared_helpers() -> None:
    """One copy of each helper the kinds share: a seat in words, a comparison, a card mask."""
    assert C.seat_words(2) == "seat 2"
    assert C.seat_words("choose") == "the chosen crew member"
    assert C.seat_words("choose_any:first") == "the seat chosen as 'first'"  # type: ignore[arg-type]
    assert [C.compare(3, cmp, 3) for cmp in ("==", ">=", "<=")] == [True, True, True]
    assert [C.compare(4, cmp, 3) for cmp in ("==", ">=", "<=")] == [False, True, False]
    assert C.cards_mask((0, 3)) == 0b1001 and C.cards_mask(None) == 0
