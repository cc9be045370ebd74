"""Witteveen's Monte Carlo agents (§4.2): PMC (Alg. 5) and MCTS-UCT (Alg. 6).

What it is
    A search tree over complete-information game states covering both phases: in the
    task phase the children are the open tasks of the seat to draft, in the play phase
    the legal cards; a playout drafts the remaining tasks at random and plays random
    legal cards to the end. PMC selects a uniformly random child, MCTS-UCT the child of
    highest ``v/n * scale + c * sqrt(ln N / n)`` (c = sqrt 2, infinite for n = 0). All
    children of a leaf are added; one random playout per iteration from one new child.
    Standard scoring adds 1 per win; smart scoring adds 100 per win and the number of
    tasks completed otherwise, and scales ``v/n`` by 1/100 in UCT. The move is a child of
    the root with the highest total score ``v`` (ties at random).
Rules covered
    As :mod:`crewcheck.agents.kernel`: tasks without order tokens, trumps or not.
Information
    Complete, as in the thesis: the agent declares ``cheating = True``.
Cost
    ``iterations`` tree iterations per move, or as many as fit in ``seconds``; each costs
    one descent and one playout in the compiled kernel.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from crewcheck.agents.base import Observation
from crewcheck.agents.fast import Tables, kernel, pack, seed_state
from crewcheck.agents.kernel import Tree
from crewcheck.errors import InvalidInputError
from crewcheck.model.cards import CardIndex

__all__ = ["TreeSearchAgent", "state_of", "tables_of"]


def tables_of(view: Observation) -> Tables:
    return Tables.build(view.deck, view.players, view.trump, view.tasks)


def state_of(view: Observation, tables: Tables, hands: tuple[int, ...]) -> Any:
    """The kernel state of the position ``view`` describes, with ``hands`` as the deal."""
    return pack(tables, hands, view.owners, view.commander, view.leader, view.trick,
                view.done, view.tricks_played)


@dataclass
class _Tree:
    arrays: Tree
    nodes: int = 1

    @classmethod
    def empty(cls, cap: int) -> _Tree:
        return cls(Tree(np.zeros(cap, np.int64), np.full(cap, -1, np.int64), np.zeros(cap, np.int64),
                        np.zeros(cap, np.int64), np.zeros(cap, np.float64), np.zeros(cap, np.float64)))

    def ensure(self, cap: int) -> None:
        n = len(self.arrays.parent)
        if cap <= n:
            return
        new = max(cap, 2 * n)

        def grow(a: Any, fill: float) -> Any:
            b = np.full(new, fill, a.dtype)
            b[:n] = a
            return b

        self.arrays = Tree(*(grow(a, -1 if name == "first" else 0) for name, a in zip(Tree._fields, self.arrays)))


@dataclass(frozen=True)
class TreeSearchAgent:
    """PMC (``uct=False``) or MCTS-UCT (``uct=True``), standard or ``smart`` scoring.

    Give ``iterations`` (per move) or ``seconds`` (per move); ``iterations`` wins if both.
    """

    uct: bool = True
    smart: bool = False
    iterations: int | None = 1000
    seconds: float | None = None
    exploration: float = math.sqrt(2)
    name: str = field(default="")
    cheating: ClassVar[bool] = True
    chunk: ClassVar[int] = 64

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise InvalidInputError("a tree search needs iterations or seconds per move")
        if not self.name:
            base = "mcts" if self.uct else "pmc"
            object.__setattr__(self, "name", base + ("-smart" if self.smart else ""))

    def search(self, view: Observation, rng: random.Random) -> tuple[list[int], Any, Any, int]:
        """Grow the tree from ``view``: (root moves, their visits, their values, iterations)."""
        if view.deal is None:
            raise InvalidInputError(f"agent {self.name!r} needs the full deal (it plays with complete information)")
        k = kernel()
        tables = tables_of(view)
        st = state_of(view, tables, view.deal)
        rs = seed_state(rng.getrandbits(32))
        branch = max(tables.ntasks, max(h.bit_count() for h in view.deal)) + 1
        done = 0
        if self.iterations is not None:
            tree = _Tree.empty(1 + self.iterations * branch)
            tree.nodes = k.mcts_iterate(st, self.iterations, self.uct, self.smart, self.exploration, rs,
                                        tree.arrays, tree.nodes, tables)
            done = self.iterations
        else:
            assert self.seconds is not None
            tree = _Tree.empty(1 + 64 * self.chunk * branch)
            deadline = time.perf_counter() + self.seconds
            while True:
                tree.ensure(tree.nodes + self.chunk * branch)
                tree.nodes = k.mcts_iterate(st, self.chunk, self.uct, self.smart, self.exploration, rs,
                                            tree.arrays, tree.nodes, tables)
                done += self.chunk
                if time.perf_counter() >= deadline:
                    break
        t = tree.arrays
        f, n = int(t.first[0]), int(t.nchild[0])
        moves = [int(m) for m in t.move[f:f + n]]
        return moves, t.visits[f:f + n].copy(), t.value[f:f + n].copy(), done

    def choose(self, view: Observation, rng: random.Random) -> CardIndex:
        legal = view.legal()
        if len(legal) == 1:
            return legal[0]
        moves, _, values, _ = self.search(view, rng)
        best = float(values.max())
        pick = rng.choice([m for m, v in zip(moves, values) if v == best])
        return view.tasks[pick] if view.phase == "tasks" else pick
