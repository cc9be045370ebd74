"""Agents see only what the rules let them see."""

from __future__ import annotations

import dataclasses
import random

import pytest

pytest.importorskip("numpy")

from crewcheck.agents import make_agent  # noqa: E402
from crewcheck.agents.base import Observation, Setup, observe  # noqa: E402
from crewcheck.agents.simulate import deal, play_game  # noqa: E402
from crewcheck.model.cards import Deck  # noqa: E402
from crewcheck.model.instance import Instance  # noqa: E402
from crewcheck.model.state import State  # noqa: E402

FAIR = ("random", "randomsmart", "mc-ignorant", "mc-smart", "mc-smart-restricted", "mc-smart-selection")


def _reachable(obj: object, seen: set[int] | None = None) -> list[object]:
    """Every object reachable from ``obj`` through dataclass fields, tuples and dicts."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return []
    seen.add(id(obj))
    out = [obj]
    if isinstance(obj, Deck):
        return out
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            out += _reachable(getattr(obj, f.name), seen)
    elif isinstance(obj, (tuple, list, frozenset, set)):
        for x in obj:
            out += _reachable(x, seen)
    elif isinstance(obj, dict):
        for x in obj.values():
            out += _reachable(x, seen)
    return out


class Spy:
    """Records every view it is given, plays at random."""

    name = "spy"

    def __init__(self, cheating: bool = False) -> None:
        self.cheating = cheating
        self.views: list[Observation] = []

    def choose(self, view: Observation, rng: random.Random) -> int:
        self.views.append(view)
        return rng.choice(view.legal())


def test_views_hold_no_hidden_cards() -> None:
    """A fair agent's views reference no deal, instance or state, carry no ``deal``, and no
    mask in them has a card of another seat's current hand."""
    s = deal(4, 5, seed=3, deck="classic")
    spy = Spy()
    play_game(s, spy, spy, seed=3)
    assert spy.views
    for v in spy.views:
        assert v.deal is None
        objs = _reachable(v)
        assert not any(isinstance(o, (Instance, State, Setup)) for o in objs)
        hidden = v.unseen()
        assert v.hand & hidden == 0
        for o in objs:
            if isinstance(o, int) and not isinstance(o, bool) and o > 0 and o.bit_count() > 1:
                # any multi-card mask in the view is the own hand, a played set, or a task mask
                assert o & hidden == 0 or o in v.tasks or o < 64, (o, hidden)


def test_cheating_agents_alone_get_the_deal() -> None:
    s = deal(3, 3, seed=1)
    fair, cheat = Spy(False), Spy(True)
    play_game(s, [fair, cheat, fair], [fair, cheat, fair], seed=1)
    assert all(v.deal is None for v in fair.views)
    assert all(v.deal is not None and v.deal[v.seat] == v.hand for v in cheat.views)


def _same_view_other_hands(seed: int) -> tuple[Setup, Setup]:
    """Two classic deals in which seat 0 has the same hand and view, others differ."""
    a = deal(4, 3, seed=seed, deck="classic")
    rng = random.Random(seed)
    others = [c for s in (1, 2, 3) for c in range(a.deck.size) if a.hands[s] >> c & 1]
    top = a.commander_card
    while True:
        rng.shuffle(others)
        sizes = [a.hands[s].bit_count() for s in (1, 2, 3)]
        hands = [a.hands[0]]
        pos = 0
        for n in sizes:
            m = 0
            for c in others[pos:pos + n]:
                m |= 1 << c
            hands.append(m)
            pos += n
        if hands[a.commander] >> top & 1 and tuple(hands) != a.hands:
            return a, dataclasses.replace(a, hands=tuple(hands))


@pytest.mark.parametrize("name", FAIR)
def test_fair_agent_choice_depends_only_on_its_view(name: str) -> None:
    """Seat 0's first choice is identical on two deals that look the same to seat 0
    (a fair agent that peeked at hidden hands would differ on some of them)."""
    agent = make_agent(name, "20")
    for seed in range(4):
        a, b = _same_view_other_hands(seed)
        va = observe(a.hands, a, [0, 1, 2], (), a.commander, (), 0, 0, 0, "play")
        vb = observe(b.hands, b, [0, 1, 2], (), b.commander, (), 0, 0, 0, "play")
        assert va == vb
        assert agent.choose(va, random.Random(seed)) == agent.choose(vb, random.Random(seed))


def test_the_view_test_catches_a_peeking_agent() -> None:
    """The same check fails for the cheating player: it is given, and uses, the deal."""
    agent = make_agent("mc-cheating", "30")
    differs = False
    for seed in range(8):
        a, b = _same_view_other_hands(seed)
        va = observe(a.hands, a, [0, 1, 2], (), a.commander, (), 0, 0, 0, "play", cheating=True)
        vb = observe(b.hands, b, [0, 1, 2], (), b.commander, (), 0, 0, 0, "play", cheating=True)
        differs |= agent.choose(va, random.Random(seed)) != agent.choose(vb, random.Random(seed))
    assert differs


def test_candidates_use_voids_and_the_commander_card() -> None:
    """C_p drops suits a seat showed void in and the top trump for non-commanders."""
    s = deal(4, 2, seed=5, deck="classic")
    spy = Spy()
    play_game(s, spy, spy, seed=5)
    for v in spy.views:
        cands = v.candidates()
        voids = v.voids()
        for seat in range(v.players):
            if seat == v.seat:
                continue
            # the true hand is always inside the candidate set
            assert s.hands[seat] & ~v.played_mask() & ~cands[seat] == 0
            for suit in voids[seat]:
                assert cands[seat] & v.deck.suit_mask(suit) == 0
            if seat != v.commander and v.commander_card is not None:
                assert not cands[seat] >> v.commander_card & 1


@pytest.mark.parametrize("mode,det", [("smart", "uniform"), ("smart", "restricted"), ("smart", "selection"),
                                      ("ignorant", "uniform")])
def test_sampled_deals_are_consistent_with_the_view(mode: str, det: str) -> None:
    """Every imagined deal keeps the own hand, the hand sizes and the unseen cards; the
    smart player's deals also respect every candidate set (voids, the commander's card)."""
    from crewcheck.agents.montecarlo import sample_deal

    s = deal(4, 4, seed=8, deck="classic")
    spy = Spy()
    play_game(s, spy, spy, seed=8)
    rng = random.Random(1)
    for v in spy.views[::3]:
        cands = v.candidates()
        for _ in range(5):
            d = sample_deal(v, mode, rng, det)  # type: ignore[arg-type]
            assert d[v.seat] == v.hand
            assert tuple(h.bit_count() for h in d) == v.hand_sizes
            union = 0
            for seat, h in enumerate(d):
                if seat != v.seat:
                    union |= h
                    if mode == "smart":
                        assert h & ~cands[seat] == 0
            assert union == v.unseen()
