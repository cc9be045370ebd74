"""Empirical agent claims of the seeds that the ledger does not decide yet.

Each returns an OPEN computation that says what deciding it would take. The agent rows the
ledger does decide read committed records: de Jong §5.3 (:mod:`crewcheck.claims.dejong.players`)
and Witteveen's MCTS-UCT bound (:mod:`crewcheck.claims.witteveen.agents`).
"""

from __future__ import annotations

from crewcheck.claims.claim import Computation, Mode, Value

__all__ = ["witteveen_5_ranking"]


def witteveen_5_ranking(mode: Mode) -> Computation:
    """Witteveen §5, Figures 5-7: the agents' ranking over the whole task x play grid."""
    return Computation((Value("games", 0, "no committed record of the grid"),), holds=None, open_reason=(
        "no committed record of the grid: deciding it takes every pair of the 6 task and 6 play agents "
        "(standard and smart scoring, 1000 iterations per move) on 1000 seeded 3-player deals per task count "
        "1..20, 720,000 games, with paired tests of each ranking; measured here at 0.75-1.2 s of CPU per deal "
        "for the 36 pairs (5, 10 and 20 tasks), about 5-7 CPU-hours without the oracle. docs/agents.md reports "
        "bench runs of this grid at 10 and 50 deals per count; their games are not committed as records, so the "
        "ledger does not judge them. The MCTS-UCT pair of the grid is recorded for the > 90 % sentence "
        "(row witteveen-5-mcts)"))
