"""Deals with choices decided over their choices (:mod:`crewcheck.solvers.choosing`): the
quick rounds of the search, then the full decider in order, give the verdict of deciding
each choice in turn; a win names a choice that wins."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from crewcheck import decide
from crewcheck.formats import deal_json
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Budget, Result, Stats, Verdict
from crewcheck.solvers import choosing
from crewcheck.solvers.choosing import decide_choices
from tests.strategies import instances


def _real(inst: Instance, backend: str | None, budget: Budget) -> Result:
    return decide(inst, backend=backend, budget=budget)


def _oracle(inst: Instance) -> bool:
    return decide(inst, backend="exhaustive").verdict is Verdict.WINNABLE


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.none(), instances(max_cards=8, max_tasks=3)), min_size=1, max_size=5),
       st.sampled_from([(), (1,), (4, 64), (1 << 11, 1 << 14)]), st.sampled_from([1, 2, 512]))
def test_the_verdict_is_that_of_each_choice_in_turn(choices: list[Instance | None], quick: tuple[int, ...],
                                                     block: int) -> None:
    """Whatever the quick rounds and the block size, the verdict is "some choice is won"
    (by the oracle, choice by choice), and the winning choice is one the oracle wins."""
    for c in choices:
        note(deal_json.dumps(c) if c is not None else "None")
    expected = [c is not None and _oracle(c) for c in choices]
    got = decide_choices(choices, _real, None, Budget(), quick=quick, block=block)
    assert (got.verdict is Verdict.WINNABLE) == any(expected), (
        f"decide_choices says {got.verdict.value}, choice by choice {expected}")
    if got.verdict is Verdict.WINNABLE:
        assert got.index is not None and expected[got.index]
    else:
        assert got.settled == len(choices) and got.index is None


_FIRST_LOST = {"hands": [["B1"], ["B2"], ["B3"], ["B4"], ["B5"]], "lead": 0,
               "tasks": [{"card": "B5", "seat": 0}], "handover": True}
"""Five seats, one card each: seat 0 cannot win B5 (seat 4 plays it); the hand-over of
the task to seat 4 wins, and it is the fifth choice (no hand-over, then seat 0 to seats
1, 2, 3, 4)."""


def test_a_later_choice_wins_in_the_quick_rounds() -> None:
    """The first four choices are lost and the fifth wins: the quick rounds find it with
    no full decision, and its witness (the hand-over to seat 4) replays, as the oracle's."""
    inst = deal_json.from_dict(_FIRST_LOST)
    for backend in (None, "engine"):
        r = decide(inst, backend=backend)
        assert r.verdict is Verdict.WINNABLE and r.witness is not None
        assert r.witness.choice is not None and r.witness.choice.handover == (0, 4)
        # the first choice (no hand-over) gets its head start and is refuted there (or, on a
        # slow machine, in the quick rounds after it)
        assert r.stats.extra["variants_quick"] in (4, 5) and r.stats.extra["variants_tried"] == 1
        assert r.stats.extra["choice_phase"] == "quick"
    oracle = decide(inst, backend="exhaustive")
    assert oracle.verdict is Verdict.WINNABLE and oracle.witness is not None
    assert oracle.witness.choice is not None and oracle.witness.choice.handover == (0, 4)


def test_an_unwinnable_deal_refutes_every_choice() -> None:
    """Two tasks for two seats in a one-trick game: one hand-over leaves them on two seats
    still, so every one of the 9 choices is lost, under the quick rounds as choice by choice."""
    inst = deal_json.from_dict({**_FIRST_LOST, "tasks": [{"card": "B1", "seat": 0}, {"card": "B2", "seat": 1}]})
    for backend in (None, "exhaustive"):
        r = decide(inst, backend=backend)
        assert r.verdict is Verdict.UNWINNABLE and r.witness is None
        assert "9 possible choice(s)" in (r.explanation or "")


class _Scripted:
    """A decider that answers UNKNOWN to every quick call and, in full, wins the choices
    it is told to: the full decisions must then come in the choices' order."""

    def __init__(self, wins: set[int]) -> None:
        self.wins = wins
        self.calls: list[tuple[int, str | None]] = []

    def __call__(self, inst: Instance, backend: str | None, budget: Budget) -> Result:
        i = inst.lead
        assert isinstance(i, int)
        self.calls.append((i, backend))
        if backend == "search":
            verdict = Verdict.UNKNOWN
        else:
            verdict = Verdict.WINNABLE if i in self.wins else Verdict.UNWINNABLE
        return Result(verdict, None, backend or "auto", inst.rules, Stats(nodes=1))


def test_the_full_decisions_follow_the_choices_order() -> None:
    """When the quick rounds settle nothing, the full decider takes the choices in their
    order and stops at the first that wins (the old path's answer); a block's quick rounds
    come before its full decisions."""
    base = deal_json.from_dict({"hands": [["B1"], ["B2"], ["B3"]], "lead": 0, "tasks": []})
    choices = [replace(base, lead=i % 3) for i in range(3)]
    fake = _Scripted({1, 2})
    got = decide_choices(choices, fake, None, Budget(), quick=(8,), block=2)
    assert got.verdict is Verdict.WINNABLE and got.index == 1
    assert fake.calls == [(0, "search"), (1, "search"), (0, None), (1, None)]
    assert (got.quick, got.full, got.nodes) == (2, 2, 4)
    fake = _Scripted(set())
    got = decide_choices(choices, fake, "exhaustive", Budget(), block=2)  # no quick rounds for another back-end
    assert got.verdict is Verdict.UNWINNABLE and got.quick == 0 and got.full == 3
    assert [b for _, b in fake.calls] == ["exhaustive"] * 3


def test_the_time_budget_leaves_the_answer_unknown() -> None:
    """A spent time budget ends the rounds with UNKNOWN, never a guess."""
    base = deal_json.from_dict({"hands": [["B1"], ["B2"]], "lead": 0, "tasks": []})
    got = decide_choices([base, base], _Scripted(set()), None, Budget(seconds=0))
    assert got.verdict is Verdict.UNKNOWN and got.index is None


@pytest.mark.parametrize("quick", [(), (1 << 11, 1 << 14)])
def test_lost_choices_are_settled_without_a_decision(quick: tuple[int, ...]) -> None:
    """A ``None`` choice (lost before play) is settled as ``"-"`` and never decided."""
    fake = _Scripted(set())
    base = deal_json.from_dict({"hands": [["B1"], ["B2"]], "lead": 0, "tasks": []})
    got = decide_choices([None, base, None], fake, None, Budget(), quick=quick)
    assert got.verdict is Verdict.UNWINNABLE and got.settled == 3 and got.backends.count("-") == 2
    assert all(i == 0 for i, _ in fake.calls)


def _four_leads() -> list[Instance]:
    """Four one-card deals apart only in their first lead, which numbers the choice."""
    base = deal_json.from_dict({"hands": [["B1"], ["B2"], ["B3"], ["B4"]], "lead": 0, "tasks": []})
    return [replace(base, lead=i) for i in range(4)]


class _Heard:
    """A ``shared`` decider that notes the choices it is given (by number) and answers
    as it is told."""

    def __init__(self, said: dict[int, bool | Result]) -> None:
        self.said = said
        self.seen: list[list[int]] = []

    def __call__(self, open_: list[Instance], budget: Budget) -> dict[int, bool | Result]:
        self.seen.append([int(c.lead or 0) for c in open_])
        return dict(self.said)


def test_the_shared_decider_comes_after_the_first_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``shared`` decider sees the choices the first quick round leaves open (more
    than :data:`FEW_OPEN`); those it refutes are settled without a decision of their own,
    the one it wins is decided first, the others after it in order."""
    monkeypatch.setattr(choosing, "FEW_OPEN", 3)
    fake = _Scripted({1, 3})
    shared = _Heard({0: False, 3: True})
    got = decide_choices(_four_leads(), fake, None, Budget(), quick=(8, 64), shared=shared)
    assert shared.seen == [[0, 1, 2, 3]]
    assert got.verdict is Verdict.WINNABLE and got.index == 3 and got.shared == 1
    assert [c for c in fake.calls if c[1] is None] == [(3, None)]
    assert fake.calls[4:7] == [(3, "search"), (1, "search"), (2, "search")]


def test_a_win_of_the_shared_decider_ends_the_deal() -> None:
    """A :class:`Result` from the ``shared`` decider is a win already replayed: the deal
    ends with it (phase ``together``), no full decision made."""
    choices = _four_leads()
    fake = _Scripted(set())
    won = Result(Verdict.WINNABLE, None, "sat", choices[0].rules, Stats())
    got = decide_choices(choices, fake, None, Budget(), quick=(8, 64), shared=_Heard({0: False, 2: won}))
    assert got.verdict is Verdict.WINNABLE and got.index == 2 and got.result is not None
    assert got.result.stats.extra["choice_phase"] == "together"
    assert [c for c in fake.calls if c[1] is None] == []


def test_the_first_round_pauses_for_the_shared_decider() -> None:
    """With a ``shared`` decider the first round stops after ``pause`` seconds
    (:data:`QUICK_SECONDS` by default); the choices it has not reached go to the shared
    decider, and those it leaves open get the first round after it, then the second round
    and the full decisions as before."""
    fake = _Scripted({3})
    shared = _Heard({1: False})
    got = decide_choices(_four_leads(), fake, None, Budget(), quick=(8, 64), shared=shared, pause=0.0)
    assert shared.seen == [[0, 1, 2, 3]]
    assert got.verdict is Verdict.WINNABLE and got.index == 3 and got.shared == 1
    assert fake.calls == [(0, "search"), (2, "search"), (3, "search"), (0, "search"), (2, "search"),
                          (3, "search"), (0, None), (2, None), (3, None)]


def test_without_quick_rounds_nothing_pauses() -> None:
    """Regression: with a ``shared`` decider and no quick round (``quick=()``), a block
    that took longer than :data:`QUICK_SECONDS` to gather asked for a first round that
    does not exist (IndexError). Every choice now goes to the shared decider, then to the
    full decisions in order."""
    fake = _Scripted({3})
    shared = _Heard({0: False})
    got = decide_choices(_four_leads(), fake, None, Budget(), quick=(), shared=shared, pause=0.0)
    assert shared.seen == [[0, 1, 2, 3]]
    assert got.verdict is Verdict.WINNABLE and got.index == 3
    assert fake.calls == [(1, None), (2, None), (3, None)]


def test_few_open_choices_get_their_rounds_before_the_shared_decider() -> None:
    """At most :data:`FEW_OPEN` choices left open by the first round get the second round
    before the ``shared`` decider, which sees those still open."""
    fake = _Scripted({2})
    shared = _Heard({0: False})
    got = decide_choices(_four_leads(), fake, None, Budget(), quick=(8, 64), shared=shared)
    assert fake.calls[:8] == [(i, "search") for i in range(4)] * 2
    assert shared.seen == [[0, 1, 2, 3]]
    assert got.verdict is Verdict.WINNABLE and got.index == 2
    assert fake.calls[8:] == [(1, None), (2, None)]


class _Slow(_Scripted):
    """:class:`_Scripted`, whose full decisions under a time budget of at most a second
    run out of time (as the engine's SAT side on a hard choice)."""

    def __call__(self, inst: Instance, backend: str | None, budget: Budget) -> Result:
        r = super().__call__(inst, backend, budget)
        if backend != "search" and budget.seconds is not None and budget.seconds <= 1:
            return replace(r, verdict=Verdict.UNKNOWN)
        return r


def test_the_first_choice_gets_a_head_start() -> None:
    """With ``head``, the first choice gets the full decider before any quick round: a win
    there ends the deal at once; a refutation settles it (no quick round, no second full
    decision); a head start that runs out of time leaves it to the rounds and the full
    decisions in order, with the verdict unchanged."""
    base = deal_json.from_dict({"hands": [["B1"], ["B2"], ["B3"]], "lead": 0, "tasks": []})
    choices = [replace(base, lead=i) for i in range(3)]
    fake = _Scripted({0, 2})
    got = decide_choices(choices, fake, None, Budget(), head=0.25)
    assert got.verdict is Verdict.WINNABLE and got.index == 0 and fake.calls == [(0, None)]
    assert got.result is not None and got.result.stats.extra["choice_phase"] == "head"
    fake = _Scripted({2})
    got = decide_choices(choices, fake, None, Budget(), quick=(8,), head=0.25)
    assert got.verdict is Verdict.WINNABLE and got.index == 2
    assert fake.calls == [(0, None), (1, "search"), (2, "search"), (1, None), (2, None)]
    assert got.settled == 3 and got.backends[0] == "auto"  # the refuted first choice, answered once
    fake = _Slow({0})
    got = decide_choices(choices, fake, None, Budget(), quick=(8,), head=0.25)
    assert got.verdict is Verdict.WINNABLE and got.index == 0
    assert fake.calls == [(0, None), (0, "search"), (1, "search"), (2, "search"), (0, None)]
    fake = _Scripted(set())
    got = decide_choices(choices, fake, "exhaustive", Budget(), head=0.25)  # another back-end: no head start
    assert got.verdict is Verdict.UNWINNABLE and got.full == 3
    assert decide_choices([], _Scripted(set()), None, Budget(), head=0.25).verdict is Verdict.UNWINNABLE
