"""The crew's choices before play that the logbook adds: the token swap (mission 23), the
token move (mission 40) and the five-player hand-over of one task.

Each is checked against an oracle written from the rules text alone (every token layout
the rule allows, every seat list the assignment rule and one hand-over allow, each
decided as a plain fixed deal by the exhaustive oracle), and the replay checker must
re-derive every choice a witness names."""

from __future__ import annotations

from dataclasses import replace
from itertools import product

import pytest
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st

from crewcheck import decide
from crewcheck.errors import IllegalPlayError, InvalidDealError
from crewcheck.formats import deal_json
from crewcheck.model.instance import Instance
from crewcheck.model.replay import replay
from crewcheck.model.rules import Rules
from crewcheck.model.tasks import Task
from crewcheck.model.variants import count_variants, variants
from crewcheck.solvers import registry
from crewcheck.solvers.base import Verdict
from tests.strategies import condition_instances


# -- the oracle, from the rules text --------------------------------------------------
def _layouts(inst: Instance) -> list[tuple[str | None, ...]]:
    """Every token layout the crew may make: as dealt, or (swap) two tasks' tokens
    exchanged, or (move) one token put on a task that has none."""
    tokens = tuple(t.token for t in inst.tasks)
    out = {tokens}
    for i in range(len(tokens)):
        for j in range(len(tokens)):
            if i == j:
                continue
            new = list(tokens)
            if inst.token_move == "swap":
                new[i], new[j] = new[j], new[i]
            elif inst.token_move == "move" and tokens[i] is not None and tokens[j] is None:
                new[i], new[j] = None, new[i]
            else:
                continue
            out.add(tuple(new))
    return sorted(out, key=str)


def _dealt_seats_allowed(inst: Instance, seats: tuple[int, ...]) -> bool:
    """Whether the assignment rule itself can give these task seats."""
    p, k = inst.players, len(inst.tasks)
    counts = [seats.count(s) for s in range(p)]
    mode = inst.rules.assignment
    if mode == "fixed":
        return list(seats) == [t.seat for t in inst.tasks]
    if mode == "decision":
        return k == 0 or (len(set(seats)) == 1 and seats[0] != inst.commander)
    if mode == "distribution":
        return max(counts) - min(counts) <= 1
    start = inst.first_leader or 0
    return counts == [len(range((s - start) % p, k, p)) for s in range(p)]


def _seats_allowed(inst: Instance, seats: tuple[int, ...]) -> bool:
    """The assignment rule, then (with a hand-over) one task moved to another seat."""
    if _dealt_seats_allowed(inst, seats):
        return True
    if not inst.handover:
        return False
    return any(_dealt_seats_allowed(inst, seats[:i] + (g,) + seats[i + 1:])
               for i in range(len(seats)) for g in range(inst.players) if g != seats[i])


def oracle(inst: Instance) -> bool:
    """Some layout and some allowed seat list give a fixed deal the oracle can win."""
    for tokens in _layouts(inst):
        for seats in product(range(inst.players), repeat=len(inst.tasks)):
            if not _seats_allowed(inst, seats):
                continue
            tasks = tuple(Task(t.card, s, tok) for t, s, tok in zip(inst.tasks, seats, tokens))
            fixed = Instance(inst.deck, inst.hands, tasks, inst.trump, inst.lead,
                             Rules(inst.rules.order_rule, "fixed"), conditions=inst.conditions)
            if decide(fixed, backend="exhaustive").verdict is Verdict.WINNABLE:
                return True
    return False


@st.composite
def choice_deals(draw: st.DrawFn) -> Instance:
    base = draw(condition_instances(assignments=("fixed", "free", "decision", "distribution"),
                                    max_cards=8, max_tasks=3))
    move = draw(st.sampled_from([None, "swap", "move"]))
    handover = draw(st.booleans())
    assume(base.tasks and (move is not None or handover))
    try:
        return replace(base, token_move=move, handover=handover)
    except InvalidDealError:
        assume(False)
        raise


def _agree_with_the_oracle(inst: Instance) -> None:
    note(deal_json.dumps(inst))
    expected = oracle(inst)
    for backend in ("exhaustive", "sat", "engine"):
        if registry.missing(backend):
            continue
        got = decide(inst, backend=backend)  # decide replays a winning witness with its choice
        assert (got.verdict is Verdict.WINNABLE) == expected, (
            f"`{backend}` says {got.verdict.value}, the oracle says {'winnable' if expected else 'unwinnable'}")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(choice_deals())
def test_token_moves_and_hand_over_agree_with_the_oracle(inst: Instance) -> None:
    """The deciders (every variant through the exhaustive oracle, the SAT back-end, and
    the engine: quick rounds of the search, one formula per group of task counts, then
    each variant) agree with the rules-text oracle; a winning witness replays with its choice (more
    deals in the slow twin)."""
    _agree_with_the_oracle(inst)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(choice_deals())
def test_token_moves_and_hand_over_agree_with_the_oracle_on_more_deals(inst: Instance) -> None:
    """The same as above on ten times the deals."""
    _agree_with_the_oracle(inst)


def test_choice_counts() -> None:
    """Mission 23's swap has 11 options (none, or one of C(5, 2) pairs), mission 40's move 16
    (none, or one of 3 tokens onto one of 5 untokened tasks); the five-player hand-over under
    the draft adds one option per (giver with a task, receiver)."""
    from crewcheck.missions.logbook import deal_mission

    m23 = deal_json.from_dict(deal_mission(23, 4, 0))
    m40 = deal_json.from_dict(deal_mission(40, 4, 0))
    assert (m23.token_move, count_variants(m23)) == ("swap", 11)
    assert (m40.token_move, count_variants(m40)) == ("move", 16)
    m25 = deal_json.from_dict(deal_mission(25, 5, 0))  # 6 tasks drafted over 5 seats: 2/1/1/1/1
    assert m25.handover and count_variants(m25) == 1 + 5 * 4
    assert not deal_json.from_dict(deal_mission(25, 4, 0)).handover
    assert "handover" not in deal_mission(25, 5, 0, crew_choices=False)


# -- hand-made deals where the choice decides the verdict -----------------------------
def _two_seat_deal(**extra: object) -> Instance:
    """Seat 0 holds B1 B2, seat 1 holds B3 B4; seat 0 leads. Seat 1 wins both tricks."""
    return deal_json.from_dict({"hands": [["B1", "B2"], ["B3", "B4"]], "lead": 0, **extra})


def test_hand_over_decides_a_deal() -> None:
    """Seat 0 must win B1 but can win no trick: lost, unless it hands the task to seat 1
    (the replay checker refuses the same win without the hand-over)."""
    plain = _two_seat_deal(tasks=[{"card": "B1", "seat": 0}])
    assert decide(plain, backend="exhaustive").verdict is Verdict.UNWINNABLE
    handed = replace(plain, handover=True)
    r = decide(handed, backend="exhaustive")
    assert r.verdict is Verdict.WINNABLE and r.witness is not None and r.witness.choice is not None
    assert r.witness.choice.handover == (0, 1) and r.witness.assignment == (1,)
    plays = r.witness.plays
    assert replay(handed, plays, (1,), handover=(0, 1)).won
    with pytest.raises(IllegalPlayError, match="hand-over"):
        replay(handed, plays, (1,), handover=(1, 0))  # seat 1 held no task to give
    with pytest.raises(IllegalPlayError, match="no hand-over"):
        replay(plain, plays, (1,), handover=(0, 1))


def test_token_swap_decides_a_deal() -> None:
    """Seat 1 must win P2 (token "1"), seat 0 must win P1 (token "2"); both are in seat 1's
    hand, seat 0 wins P1 only with P3, and P2 wins only once P3 is gone: P1 is done first,
    so the deal is lost as dealt and won with the tokens swapped."""
    plain = deal_json.from_dict({"hands": [["B1", "B2", "P3"], ["B3", "P1", "P2"]], "lead": 0, "tasks": [
        {"card": "P2", "seat": 1, "token": "1"}, {"card": "P1", "seat": 0, "token": "2"}]})
    assert decide(plain, backend="exhaustive").verdict is Verdict.UNWINNABLE
    swapped = replace(plain, token_move="swap")
    r = decide(swapped, backend="exhaustive")
    assert r.verdict is Verdict.WINNABLE and r.witness is not None and r.witness.choice is not None
    assert r.witness.choice.token_move == (0, 1)
    assert replay(swapped, r.witness.plays, token_move=(0, 1)).won
    with pytest.raises(IllegalPlayError, match="ended"):  # without the swap the line loses at trick 1
        replay(swapped, r.witness.plays)


def test_token_move_decides_a_deal() -> None:
    """Token "1" on P3 cannot be met; moved to the untokened P2 it can."""
    plain = deal_json.from_dict({"hands": [["B1", "B3", "P2"], ["B2", "P1", "P3"]], "lead": 0, "tasks": [
        {"card": "P3", "seat": 1, "token": "1"}, {"card": "P2", "seat": 0}]})
    assert decide(plain, backend="exhaustive").verdict is Verdict.UNWINNABLE
    moved = replace(plain, token_move="move")
    r = decide(moved, backend="exhaustive")
    assert r.verdict is Verdict.WINNABLE and r.witness is not None and r.witness.choice is not None
    assert r.witness.choice.token_move == (0, 1)
    assert replay(moved, r.witness.plays, token_move=(0, 1)).won
    with pytest.raises(IllegalPlayError, match="token move"):
        replay(moved, r.witness.plays, token_move=(1, 0))  # task 1 has no token to move
    with pytest.raises(IllegalPlayError, match="no token move"):
        replay(plain, r.witness.plays, token_move=(0, 1))


def test_variants_start_with_the_choice_that_changes_nothing() -> None:
    """No swap and no hand-over come first, so a deal winnable as dealt names no choice."""
    inst = _two_seat_deal(tasks=[{"card": "B4", "seat": 1, "token": "1"}, {"card": "B3", "seat": 1}],
                          token_move="move", handover=True)
    choice, first = next(variants(inst))
    assert choice.is_empty() and first.tasks == replace(inst, token_move=None, handover=False).tasks
