"""de Jong's Monte Carlo players (§5): cheating, ignorant and smart.

What it is
    For every legal card: play it, then play random legal cards to the end of the game,
    many times; a playout scores by the tasks left (fewer is better), then by the tricks
    survived (more is better); the card with the best average wins, ties to the first
    card in hand order. The players differ in the deal their playouts use:

    ``cheating``
        the real hands (the agent declares ``cheating = True``);
    ``ignorant``
        the unseen cards dealt at random to the other seats (hand sizes kept, voids and
        the commander's known card ignored);
    ``smart``
        a determinization: a consistent distribution (:mod:`.determinize`), by
        Algorithm 1 (``"uniform"``, the thesis's smart player), Algorithm 2
        (``"restricted"``) or uniform random selection (``"selection"``).

    Playout ``i`` of every card uses the same sampled deal ``i`` (common random numbers).
Rules covered
    Play phase only (the tasks are already owned: de Jong's fixed objectives); trumps.
Budget
    ``playouts`` per card (the thesis: 100) or ``seconds`` per playable card (the thesis:
    0.5 s), sampling deals in batches until the time is spent; sampling deals counts.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from crewcheck.agents.base import Observation
from crewcheck.agents.determinize import SAMPLERS
from crewcheck.agents.fast import kernel, seed_state
from crewcheck.agents.mcts import state_of, tables_of
from crewcheck.errors import InvalidInputError
from crewcheck.model.cards import CardIndex, Mask, iter_bits

__all__ = ["MonteCarloAgent", "sample_deal"]

Mode = Literal["cheating", "ignorant", "smart"]


def sample_deal(view: Observation, mode: Mode, rng: random.Random, determinizer: str = "uniform") -> tuple[Mask, ...]:
    """Current hands of every seat as the ``mode`` player imagines them for one playout."""
    if mode == "cheating":
        if view.deal is None:
            raise InvalidInputError("the cheating player needs the full deal")
        return view.deal
    others = [s for s in range(view.players) if s != view.seat]
    sizes = [view.hand_sizes[s] for s in others]
    hands = [0] * view.players
    hands[view.seat] = view.hand
    if mode == "ignorant":
        cards = list(iter_bits(view.unseen()))
        rng.shuffle(cards)
        pos = 0
        for s, n in zip(others, sizes):
            for c in cards[pos:pos + n]:
                hands[s] |= 1 << c
            pos += n
        return tuple(hands)
    cands = view.candidates()
    dealt = SAMPLERS[determinizer]([cands[s] for s in others], sizes, rng)
    for s, h in zip(others, dealt):
        hands[s] = h
    return tuple(hands)


@dataclass(frozen=True)
class MonteCarloAgent:
    """A de Jong Monte Carlo player; see the module docstring."""

    mode: Mode = "smart"
    playouts: int | None = 100
    seconds: float | None = None
    determinizer: str = "uniform"
    batch: int = 8
    name: str = field(default="")

    def __post_init__(self) -> None:
        if self.mode not in ("cheating", "ignorant", "smart"):
            raise InvalidInputError(f"unknown Monte Carlo mode {self.mode!r}; expected cheating, ignorant or smart")
        if self.determinizer not in SAMPLERS:
            raise InvalidInputError(f"unknown determinizer {self.determinizer!r}; "
                                    f"available: {', '.join(SAMPLERS)}")
        if self.playouts is None and self.seconds is None:
            raise InvalidInputError("a Monte Carlo player needs playouts or seconds per card")
        if not self.name:
            suffix = "" if self.mode != "smart" or self.determinizer == "uniform" else f"-{self.determinizer}"
            object.__setattr__(self, "name", f"mc-{self.mode}{suffix}")

    @property
    def cheating(self) -> bool:
        return self.mode == "cheating"

    def scores(self, view: Observation, rng: random.Random) -> tuple[tuple[CardIndex, ...], Any, Any, Any, int]:
        """(legal cards, wins, tasks done, tricks) summed over the playouts, and the count."""
        if view.phase != "play":
            raise InvalidInputError(f"agent {self.name!r} plays cards; pair it with a task agent")
        legal = view.legal()
        k = kernel()
        tables = tables_of(view)
        moves = np.array(legal, dtype=np.int64)
        wins = np.zeros(len(legal), np.int64)
        done = np.zeros(len(legal), np.int64)
        tricks = np.zeros(len(legal), np.int64)
        rs = seed_state(rng.getrandbits(32))
        st = state_of(view, tables, view.deal or tuple([view.hand] * view.players))
        n = 0
        deadline = None if self.seconds is None or self.playouts is not None else \
            time.perf_counter() + self.seconds * len(legal)
        while True:
            size = self.batch if self.playouts is None else min(self.batch, self.playouts - n)
            if size <= 0:
                break
            deals = np.array([sample_deal(view, self.mode, rng, self.determinizer) for _ in range(size)],
                             dtype=np.int64)
            k.evaluate_moves(st, moves, deals, rs, tables, wins, done, tricks)
            n += size
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return legal, wins, done, tricks, n

    def choose(self, view: Observation, rng: random.Random) -> CardIndex:
        legal = view.legal()
        if len(legal) == 1:
            return legal[0]
        legal, _, done, tricks, _ = self.scores(view, rng)
        best = 0
        for j in range(1, len(legal)):
            if (done[j], tricks[j]) > (done[best], tricks[best]):
                best = j
        return legal[best]
