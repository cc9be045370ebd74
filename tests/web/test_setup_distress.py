"""The distress signal on the board (:mod:`crewcheck.web.distress`): the direction, then
each seat's passed card in seat order, each option's verdict the exhaustive oracle's
over the passes still free; bad picks named; the engine's line as picks."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, assume, example, given, note, settings
from hypothesis import strategies as st

pytest.importorskip("flask")
pytest.importorskip("pysat")

from crewcheck.api import decide  # noqa: E402
from crewcheck.errors import InvalidInputError  # noqa: E402
from crewcheck.formats import deal_json  # noqa: E402
from crewcheck.model.cards import Card  # noqa: E402
from crewcheck.model.variants import variants  # noqa: E402
from crewcheck.solvers.base import Verdict  # noqa: E402
from crewcheck.web import forms  # noqa: E402
from crewcheck.web.choices import engine_setup, setup_step  # noqa: E402
from crewcheck.web.games import new_game  # noqa: E402
from tests.strategies import condition_instances  # noqa: E402


def deal(mission: int, players: int = 4, **extra: object):
    game = new_game({"game": "mission", "mission": mission, "players": players, "seed": 0, **extra})
    return forms.load({"deal": game["deal"]})[0]


def step(instance, picks=None, draft=()):
    return setup_step(instance, picks or {}, list(draft), timeout=60, cancelled=lambda: False,
                      progress=lambda *a, **k: None)


@st.composite
def signalled(draw: st.DrawFn):
    inst = draw(condition_instances(choose=True, assignments=("fixed", "free", "decision"), max_cards=9))
    return dataclasses.replace(inst, distress=draw(st.sampled_from(["left", "right", "choose"])))


LEFT_NO_TRICK = deal_json.from_dict({
    "hands": [["B1", "B2", "B3"], ["B4", "G1", "G2", "G3", "G4"]], "trump": None, "lead": 0, "assignment": "fixed",
    "order_rule": "strict", "tasks": [], "distress": "left", "conditions": [{"kind": "wins_no_tricks", "seat": 0}]})
"""A deal where the verdicts of seat 2's cards depend on the card seat 1 passed."""


@given(signalled())
@example(LEFT_NO_TRICK)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_each_option_of_the_signal_is_the_oracles_verdict_over_the_passes_left_free(inst):
    """Every step of the signal, the engine's line picked each time: an option is
    winnable exactly when some way of the crew to go on (the later passes and every
    other choice) wins under the exhaustive oracle."""
    from crewcheck.model.variants import count_variants

    assume(count_variants(inst) <= 400)
    note(deal_json.dumps(inst))
    every = [(c, v, decide(v, backend="exhaustive").verdict is Verdict.WINNABLE) for c, v in variants(inst)]
    picks: dict[str, str] = {}
    fixed: dict[int, int] = {}
    direction = None if inst.distress == "choose" else (1 if inst.distress == "left" else -1)
    for _ in range(inst.players + 1):
        got = step(inst, picks)
        if got["step"] is None or got["step"] == "draft" or not got["step"].startswith(("pass", "direction")):
            break
        for option in got["options"]:
            if got["step"] == "direction":
                want = any(w for c, _, w in every if c.direction == int(option["value"]))
            else:
                seat, card = got["seat"], inst.deck.index(Card.parse(option["value"]))
                want = any(w for c, _, w in every if c.direction == direction and c.passes[seat] == card
                           and all(c.passes[s] == x for s, x in fixed.items()))
            assert option["verdict"] == ("winnable" if want else "unwinnable"), (got["step"], option)
        value = next((o["value"] for o in got["options"] if o["verdict"] == "winnable"), None)
        if value is None:  # (a pick that loses may leave a seat without a card: no deal to go on with)
            break
        picks[got["step"]] = value
        if got["step"] == "direction":
            direction = int(value)
        else:
            fixed[got["seat"]] = inst.deck.index(Card.parse(value))


def test_mission_one_signal_direction_then_each_pass_then_the_draft():
    """Mission 1 with the crew choosing the direction: left and right, each decided;
    then seats 1-4 in order, each offering its cards that are no trump; the chosen
    passes are in the deal played; the engine's line is a set of picks that leads
    through every step."""
    inst = deal(1, distress="choose")
    got = step(inst)
    assert got["step"] == "direction" and [o["value"] for o in got["options"]] == ["1", "-1"]
    assert all(o["verdict"] == "winnable" for o in got["options"])
    line = engine_setup(inst, decide(inst).witness)
    assert line is not None and set(line["picks"]) == {"direction", "pass0", "pass1", "pass2", "pass3"}
    picks = {}
    for seat in range(4):
        picks[got["step"]] = line["picks"][got["step"]]
        got = step(inst, picks)
        assert got["step"] == f"pass{seat}" and got["seat"] == seat
        assert all(not o["value"].startswith("R") for o in got["options"]), got["options"]
        assert line["picks"][got["step"]] in [o["value"] for o in got["options"]]
    picks[got["step"]] = line["picks"][got["step"]]
    got = step(inst, picks)
    assert got["step"] == "draft" and got["made"][0].startswith("distress signal to the")
    done = step(inst, picks, line["draft"])
    chosen = deal_json.from_dict(done["deal"])
    assert chosen.distress is None
    d = int(line["picks"]["direction"])
    for seat in range(4):
        card = chosen.deck.index(Card.parse(line["picks"][f"pass{seat}"]))
        assert chosen.hands[(seat + d) % 4] >> card & 1, (seat, line["picks"])
    assert decide(chosen).verdict is Verdict.WINNABLE


def test_a_bad_pick_of_the_signal_names_its_field():
    """A direction that is no option, a trump or a card the seat does not hold: one-line
    errors naming ``picks.direction`` and ``picks.pass{s}``."""
    inst = deal(1, distress="choose")
    with pytest.raises(InvalidInputError) as e:
        step(inst, {"direction": "2"})
    assert e.value.field == "picks.direction"
    other = next(str(inst.card(c)) for c in range(inst.deck.size) if inst.hands[1] >> c & 1
                 and not str(inst.card(c)).startswith("R"))
    for bad in ("R4", "XX", other):  # a trump, no card, seat 2's card
        with pytest.raises(InvalidInputError) as e:
            step(inst, {"direction": "1", "pass0": bad})
        assert e.value.field == "picks.pass0" and "\n" not in str(e.value), bad


def test_a_signal_in_one_direction_asks_no_direction_and_the_game_offers_the_signal():
    """``distress=left``: the first step is seat 1's pass; the game's parameters keep the
    signal (a link deals it again) and a bad one is named."""
    inst = deal(1, distress="left")
    assert inst.distress == "left"
    got = step(inst)
    assert got["step"] == "pass0" and got["title"] == "Distress signal: seat 1 passes a card to seat 2"
    assert new_game({"game": "mission", "mission": 1, "distress": "right"})["params"]["distress"] == "right"
    with pytest.raises(InvalidInputError) as e:
        new_game({"game": "mission", "mission": 1, "distress": "up"})
    assert e.value.field == "distress"


def test_a_signal_still_to_give_is_analysed_at_the_position_only():
    """Before the passes the hands the cards come from are not chosen: the analysis has
    the position's verdict and no card verdicts (it used to fail on the first card)."""
    from crewcheck.analysis.analyse import analyse

    a = analyse(deal(1, distress="choose"), timeout=60)
    assert a.position.verdict is Verdict.WINNABLE and a.cards == ()
    assert a.position.witness is not None and a.position.witness.choice.passes is not None
