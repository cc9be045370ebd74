"""Empirical agent claims of the seeds that the ledger does not decide yet.

Each returns an OPEN computation that says what deciding it would take; no record of
these experiments is committed (the agent benches of ``docs/agents.md`` are runs of the
bench, not records of the ledger, and differ from the papers' set-ups).
"""

from __future__ import annotations

from crewcheck.claims.claim import Computation, Mode, Value

__all__ = ["dejong_5_3", "witteveen_5"]


def dejong_5_3(mode: Mode) -> Computation:
    """de Jong §5.3: the smart (determinizing) player does not beat the ignorant one; the cheating one is best."""
    return Computation((Value("games", 0, "no committed record"),), holds=None, open_reason=(
        "no committed record: deciding it takes the ignorant, smart (Algorithm 1) and cheating Monte Carlo "
        "players on 50 or more seeded 4-player Classic deals with fixed objectives per task count, 100 playouts "
        "per card, with the difference of objectives completed and its interval; about 3 x 50 x 10 games of "
        "40 cards at 100 playouts a card, hours of CPU here. docs/agents.md (de Jong Figures 9 and 10) reports a "
        "bench run of a reduced design; its games are not committed as records, so the ledger does not judge it"))


def witteveen_5(mode: Mode) -> Computation:
    """Witteveen §5: pure MCTS-UCT wins > 90 % of the 3-player 10-task games; the agents' ranking."""
    return Computation((Value("games", 0, "no committed record"),), holds=None, open_reason=(
        "no committed record: deciding it takes the section 5 grid (task-taking x playing agents, 3 players, "
        "up to 20 tasks) at the thesis's game counts with seeds and intervals, run through the ledger's jobs; "
        "docs/agents.md reports bench runs of this grid (Witteveen, section 5) at other sizes; their games are not "
        "committed as records, so the ledger does not judge them"))
