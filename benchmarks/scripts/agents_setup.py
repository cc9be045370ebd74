"""Shared fixtures of the agents' benchmarks: a seeded Classic 4-player deal."""

from __future__ import annotations

import numpy as np

from crewcheck.agents.fast import Tables, pack
from crewcheck.agents.simulate import deal

SEED = 2024
NTASKS = 4


def classic_setup():
    """Classic Crew, 4 players, 4 tasks, seed 2024."""
    return deal(4, NTASKS, seed=SEED, deck="classic")


def kernel_position(full: bool = False):
    """(state, tables) at the start of play, tasks drafted round-robin from the commander.

    ``full``: the task points at a card outside the deck, so no task is ever completed or
    failed and every playout plays all 40 cards (a *full* random playout).
    """
    s = classic_setup()
    owners = [(s.commander + j) % 4 for j in range(NTASKS)]
    tb = Tables.build(s.deck, 4, s.trump, s.tasks)
    if full:
        tb = tb._replace(ntasks=1, task_card=np.array([62], dtype=np.int64))
        owners = [0]
    st = pack(tb, s.hands, owners, s.commander, s.commander, (), 0, 0)
    return st, tb
