"""Witteveen's rule-based agents (§4.1): Random and Tactical task-takers, Random and
RandomSmart players.

They see only their :class:`~crewcheck.agents.base.Observation`; none is ``cheating``.
Ties and random choices draw from the ``rng`` the engine passes in.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from crewcheck.agents.base import Observation
from crewcheck.model.cards import CardIndex, iter_bits

__all__ = ["RandomTaskAgent", "TacticalTaskAgent", "RandomAgent", "RandomSmartAgent", "tactical_score"]


@dataclass(frozen=True)
class RandomTaskAgent:
    """Alg. 1: take a uniformly random open task."""

    name: str = "random"

    def choose(self, view: Observation, rng: random.Random) -> CardIndex:
        return rng.choice(view.legal())


def tactical_score(view: Observation, task: CardIndex) -> int:
    """Witteveen's formula (8) for a task card ``x`` and the own hand ``P``.

    ``(x_v - 5) * 2 + |P_{x_s}|`` if ``x`` is in the hand; else ``|P_{>x}|`` (own cards of
    the suit above it) if positive; else ``-|P_{x_s}|``.
    """
    deck = view.deck
    suit = deck.suit_mask(deck.suit_of(task))
    same = view.hand & suit
    if view.hand >> task & 1:
        return (deck.card(task).value - 5) * 2 + same.bit_count()
    above = same & ~((1 << (task + 1)) - 1)
    if above:
        return above.bit_count()
    return -same.bit_count()


@dataclass(frozen=True)
class TacticalTaskAgent:
    """Alg. 2: take an open task of highest :func:`tactical_score` (ties at random)."""

    name: str = "tactical"

    def choose(self, view: Observation, rng: random.Random) -> CardIndex:
        options = view.legal()
        scores = [tactical_score(view, t) for t in options]
        best = max(scores)
        return rng.choice([t for t, s in zip(options, scores) if s == best])


def _random_legal(view: Observation, rng: random.Random) -> CardIndex:
    return rng.choice(view.legal())


@dataclass(frozen=True)
class RandomAgent:
    """Alg. 3: a uniformly random card of the led suit if it has one, else of the hand."""

    name: str = "random"

    def choose(self, view: Observation, rng: random.Random) -> CardIndex:
        return _random_legal(view, rng)


@dataclass(frozen=True)
class RandomSmartAgent:
    """Alg. 4: highest card of the led suit when the trick holds one of its own task
    cards; lowest when it holds another seat's task card; otherwise random (Alg. 3)."""

    name: str = "randomsmart"

    def choose(self, view: Observation, rng: random.Random) -> CardIndex:
        if not view.trick:
            return _random_legal(view, rng)
        deck = view.deck
        in_trick = 0
        for c in view.trick:
            in_trick |= 1 << c
        mine = others = False
        for card, owner in zip(view.tasks, view.owners):
            if in_trick >> card & 1:
                if owner == view.seat:
                    mine = True
                else:
                    others = True
        follow = view.hand & deck.suit_mask(deck.suit_of(view.trick[0]))
        if (mine or others) and follow:
            cards = list(iter_bits(follow))
            return cards[-1] if mine else cards[0]
        return _random_legal(view, rng)
