"""Mission 12's draws in classes: the outcome a class gives (an isomorphic position seen
before, or a winning line carried over from another draw) equals the oracle's verdict on
the position itself, draw by draw, on small deals with tokens and trumps; isomorphic
positions share a key and others do not."""

from __future__ import annotations

from collections.abc import Hashable
from itertools import product

from hypothesis import HealthCheck, assume, given, note, settings

from crewcheck import decide
from crewcheck.analysis.draw_positions import after_draw, first_tricks
from crewcheck.analysis.draw_classes import DrawClasses, DrawCounts, Line
from crewcheck.formats import deal_json
from crewcheck.model.cards import iter_bits
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Verdict
from tests.strategies import instances


def _oracle(fresh: Instance) -> tuple[bool, Line | None]:
    r = decide(fresh, backend="exhaustive")
    return r.verdict is Verdict.WINNABLE, None if r.witness is None else tuple(r.witness.plays)


def _check_every_draw(inst: Instance) -> DrawCounts:
    """Every fixed first trick and draw of ``inst`` (fixed seats): the classes' outcome
    equals the oracle's verdict after the draw; one memo shared by all first tricks."""
    memo: dict[Hashable, bool] = {}
    counts = DrawCounts()
    for trick in first_tricks(inst):
        base = after_draw(inst, trick, ())
        if isinstance(base, bool):
            continue
        classes = DrawClasses(base, memo, counts)
        for d in product(*(tuple(iter_bits(h)) for h in base.hands)):
            got = classes.outcome(d, _oracle)
            want = decide(classes.position(classes.drawn(d)), backend="exhaustive").verdict is Verdict.WINNABLE
            assert got == want, f"classes say {got}, the oracle says {want} after first trick {trick}, draw {d}"
    return counts


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(instances(min_players=3, max_players=3, max_cards=12, max_tasks=3, history=False, lead_modes=("seat", "rocket"),
                 equal_hands=True, free=False))
def test_class_outcomes_equal_the_oracle(inst: Instance) -> None:
    assume(inst.tricks >= 3 and inst.tasks)
    note(deal_json.dumps(inst))
    _check_every_draw(inst)


def test_lines_carry_over_and_classes_repeat() -> None:
    """On a deal with five tricks, most draws need no search (an isomorphic position, or
    a line carried over), and every outcome still equals the oracle's."""
    inst = deal_json.from_dict({
        "hands": [["B1", "B2", "B6", "G1", "G2"], ["B3", "B4", "G3", "G4", "G6"], ["B5", "G5", "P1", "P2", "P3"]],
        "lead": 0, "tasks": [{"card": "G6", "seat": 1}]})
    counts = _check_every_draw(inst)
    assert counts.carried > counts.searched and counts.isomorphic > counts.searched


def _classes(deal: dict[str, object]) -> DrawClasses:
    return DrawClasses(deal_json.from_dict(deal), {}, DrawCounts())


def test_isomorphic_positions_share_a_key() -> None:
    """Renaming cards in order within a suit, or exchanging two suits that are not
    trumps, keeps the key; moving a task to another card, or changing the leader or a
    token, does not."""
    base = {"hands": [["B1", "G3"], ["B2", "G5"], ["B3", "G7"]], "lead": 0,
            "tasks": [{"card": "G5", "seat": 1, "token": "1"}], "assignment": "fixed"}
    renamed = {**base, "hands": [["B2", "G1"], ["B4", "G2"], ["B6", "G3"]],
               "tasks": [{"card": "G2", "seat": 1, "token": "1"}]}
    swapped = {**base, "hands": [["G1", "B3"], ["G2", "B5"], ["G3", "B7"]],
               "tasks": [{"card": "B5", "seat": 1, "token": "1"}]}
    key = _classes(base).key(_classes(base).hands)
    for same in (renamed, swapped):
        c = _classes(same)
        assert c.key(c.hands) == key
    for other in ({**base, "tasks": [{"card": "G3", "seat": 1, "token": "1"}]},
                  {**base, "lead": 1},
                  {**base, "tasks": [{"card": "G5", "seat": 1, "token": "omega"}]},
                  {**base, "trump": "G"}):
        c = _classes(other)
        assert c.key(c.hands) != key, other
