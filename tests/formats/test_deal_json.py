"""The deal file: every bad input gets one clear error naming the field; round trips."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given

from crewcheck.errors import InvalidInputError
from crewcheck.formats.deal_json import dumps, from_dict, loads, to_dict
from crewcheck.formats.notation import parse_deal, to_notation
from tests.strategies import instances

BASE = {
    "hands": [["B1", "B5", "R1"], ["B2", "G3", "R2"], ["B3", "G4", "R3"]],
    "tasks": [{"card": "G3", "seat": 1, "token": "1"}, {"card": "B5", "seat": 0}],
    "played": [{"lead": 2, "cards": ["R3", "R1", "R2"]}],
}


def deal(**changes):
    d = copy.deepcopy(BASE)
    for key, value in changes.items():
        if value is _DROP:
            d.pop(key, None)
        else:
            d[key] = value
    return d


_DROP = object()

BAD = [
    # (description, deal or raw text, field, fragment of the message)
    ("malformed JSON", '{"hands": [', "", "malformed JSON"),
    ("not an object", "[1, 2]", "deal", "expected a JSON object"),
    ("unknown key", deal(colour="B"), "deal", "unknown key 'colour'"),
    ("missing hands", deal(hands=_DROP), "deal", "hands"),
    ("wrong type", deal(hands="B1 B2"), "hands", "expected array"),
    ("wrong type in a task", deal(tasks=[{"card": "G3", "seat": "one"}]), "tasks[0].seat", "expected integer"),
    ("malformed card", deal(hands=[["B1", "B0"], ["B2"]]), "hands[0][1]", "'B0' is not a card"),
    ("malformed card 2", deal(hands=[["B1", "7B"], ["B2"]]), "hands[0][1]", "'7B' is not a card"),
    ("duplicate within a hand", deal(hands=[["B1", "B1"], ["B2", "B3"]], tasks=[], played=[]),
     "hands[0][1]", "twice in hands[0]"),
    ("duplicate across hands", deal(hands=[["B1", "B2"], ["B2", "B3"]], tasks=[], played=[]),
     "hands[1][0]", "also dealt to hands[0]"),
    ("one hand", deal(hands=[["B1"]], tasks=[], played=[]), "hands", "at least 2 hands"),
    ("empty hand", deal(hands=[["B1"], []], tasks=[], played=[]), "hands[1]", "empty hand"),
    ("unknown suit in deck", deal(deck={"B": 5, "G": 4}), "hands[0][2]", "unknown suit 'R'"),
    ("card outside the deck", deal(deck={"B": 3, "G": 4, "R": 3}), "hands[0][1]", "'B5' is not in the deck"),
    ("deck not all dealt", deal(deck="classic"), "deck", "not dealt"),
    ("bad deck spec", deal(deck="tiny"), "deck", "expected 'classic'"),
    ("task card not dealt", deal(tasks=[{"card": "Y9", "seat": 0}]), "tasks[0].card", "not dealt"),
    ("task card malformed", deal(tasks=[{"card": "B0", "seat": 0}]), "tasks[0].card", "'B0' is not a card"),
    ("two tasks on one card", deal(tasks=[{"card": "G3", "seat": 1}, {"card": "G3", "seat": 0}]),
     "tasks[1].card", "already has a task"),
    ("task seat out of range", deal(tasks=[{"card": "G3", "seat": 3}]), "tasks[0].seat", "does not exist"),
    ("fixed task without seat", deal(tasks=[{"card": "G3"}]), "tasks[0].seat", "missing"),
    ("seat under free assignment", deal(assignment="free"), "tasks[0].seat", "free assignment"),
    ("unknown token", deal(tasks=[{"card": "G3", "seat": 1, "token": "6"}]), "tasks[0].token", "'6'"),
    ("duplicated token", deal(tasks=[{"card": "G3", "seat": 1, "token": "1"}, {"card": "B5", "seat": 0, "token": "1"}]),
     "tasks[1].token", "already on tasks[0]"),
    ("unsatisfiable token", deal(tasks=[{"card": "G3", "seat": 1, "token": "3"}]), "tasks[0].token", "task number 3"),
    ("lead out of range", deal(lead=5, played=[]), "lead", "does not exist"),
    ("lead of a wrong kind", deal(lead="first"), "lead", "expected a seat number"),
    ("rocket without trumps", deal(trump=None, lead="rocket", played=[]), "lead", "needs a trump suit"),
    ("unknown trump", deal(trump="Y"), "trump", "unknown suit 'Y'"),
    ("unknown order rule", deal(order_rule="loose"), "order_rule", "expected one of"),
    ("history: not following suit", deal(played=[{"lead": 2, "cards": ["R3", "B1", "R2"]}]),
     "played[0].cards[1]", "must follow suit"),
    ("history: card not held", deal(played=[{"lead": 2, "cards": ["R3", "R2", "R1"]}]),
     "played[0].cards[1]", "not in the hand"),
    ("history: wrong leader", deal(played=[{"lead": 0, "cards": ["R1", "R2", "R3"]}]),
     "played[0].lead", "expected seat 2"),
    ("history: short trick", deal(played=[{"lead": 2, "cards": ["R3", "R1"]}]), "played[0].cards", "expected 3 cards"),
    ("history: wrong winner", deal(played=[{"lead": 2, "cards": ["R3", "R1", "R2"], "winner": 0}]),
     "played[0].winner", "seat 2 wins"),
    ("current too long", deal(played=[], current={"lead": 2, "cards": ["R3", "R1", "R2"]}), "current.cards",
     "fewer than 3"),
    ("history after the end", deal(tasks=[{"card": "R1", "seat": 0}], played=[
        {"lead": 2, "cards": ["R3", "R1", "R2"]}, {"lead": 2, "cards": ["B3", "B1", "B2"]}]),
     "played[1]", "already ended"),
]


@pytest.mark.parametrize(("what", "data", "field", "fragment"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_rejected_with_its_field(what, data, field, fragment):
    """Each bad input raises InvalidInputError whose field is the JSON path and whose
    one-line message says what is wrong."""
    text = data if isinstance(data, str) else json.dumps(data)
    with pytest.raises(InvalidInputError) as info:
        loads(text)
    assert info.value.field == field
    assert fragment in str(info.value)
    assert "\n" not in str(info.value)


def test_defaults_of_trump_and_lead():
    """trump defaults to R when an R card is dealt, lead to 'rocket' with trumps, else 0."""
    d = loads(json.dumps(deal(played=[])))
    assert d.trump == "R" and d.lead == "rocket" and d.first_leader == 2
    d = loads(json.dumps({"hands": [["B1"], ["B2"]], "tasks": [{"card": "B1", "seat": 0}]}))
    assert d.trump is None and d.lead == 0
    assert d.rules.order_rule == "strict" and d.rules.assignment == "fixed"


def test_explicit_null_trump_turns_rockets_into_a_plain_suit():
    d = loads(json.dumps(deal(trump=None, lead=0, played=[])))
    assert d.trump is None and d.trump_suit is None


def test_history_is_loaded_as_cards_in_play_order():
    d = loads(json.dumps(deal(current={"lead": 2, "cards": ["B3"]})))
    assert [str(d.card(c)) for c in d.history] == ["R3", "R1", "R2", "B3"]
    assert d.state().to_play == 0


def test_a_history_that_already_lost_is_accepted():
    """A finished history is not bad input: it loads, and the state says the game is over."""
    d = loads(json.dumps(deal(tasks=[{"card": "R1", "seat": 0}])))
    assert d.state().end is not None and not d.state().end.won


@given(instances())
def test_round_trip_json(inst):
    """from_dict(to_dict(x)) == x, through JSON text too."""
    assert from_dict(to_dict(inst)) == inst
    assert loads(dumps(inst)) == inst


@given(instances())
def test_round_trip_notation(inst):
    assert parse_deal(to_notation(inst)) == inst


@pytest.mark.parametrize("conditions", [
    [{"kind": "wins_all_cards", "seat": 1, "suit": "B"}],
    [{"kind": "wins_tricks", "seat": 0, "count": 1, "cmp": ">="}, {"kind": "balanced_tricks"}],
    [{"kind": "wins_all_cards", "seat": 1, "suit": "Q"}],          # an unknown suit
    [{"kind": "task_in_trick", "card": "Z9", "trick": 1}],           # a card not dealt
    [{"kind": "nonsense"}],
    [{"kind": "balanced_tricks"}] * 257,                             # over the limit
])
def test_with_conditions_reads_them_as_the_whole_file_does(conditions):
    """A deal's conditions put on the deal read without them: the same deal as the file read
    whole, or the same refusal (message and field)."""
    from crewcheck.errors import InvalidDealError
    from crewcheck.formats.deal_json import with_conditions

    base = from_dict(deal())
    try:
        whole = from_dict(deal(conditions=conditions))
    except InvalidDealError as e:
        with pytest.raises(InvalidDealError) as got:
            with_conditions(base, conditions)
        assert (str(got.value), got.value.field) == (str(e), e.field)
        return
    assert with_conditions(base, conditions) == whole
