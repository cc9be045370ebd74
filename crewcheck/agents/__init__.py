"""Agents that play The Crew, and the engine that runs them.

The papers' players: Witteveen's rule-based agents and Monte Carlo tree search (seed
``000``, §4) and de Jong's cheating, ignorant and smart Monte Carlo players with
determinization (seed ``001``, §5). Nothing here is imported by ``import crewcheck``; the
playout kernel is compiled (numba) on first use.

>>> from crewcheck.agents import make_agent, deal, play_game
>>> setup = deal(3, 2, seed=7)
>>> record = play_game(setup, make_agent("tactical"), make_agent("randomsmart"), seed=7)
>>> record.owners == play_game(setup, make_agent("tactical"), make_agent("randomsmart"), seed=7).owners
True
"""

from __future__ import annotations

import re

from crewcheck.agents.base import Agent, Observation, Setup, is_cheating
from crewcheck.agents.mcts import TreeSearchAgent
from crewcheck.agents.montecarlo import MonteCarloAgent
from crewcheck.agents.rulebased import RandomAgent, RandomSmartAgent, RandomTaskAgent, TacticalTaskAgent
from crewcheck.agents.simulate import GameRecord, deal, parse_deck, play_game, setup_instance, simulate
from crewcheck.errors import InvalidInputError

__all__ = [
    "Agent", "Observation", "Setup", "is_cheating", "GameRecord", "deal", "parse_deck", "play_game",
    "setup_instance", "simulate", "make_agent", "TASK_AGENTS", "PLAY_AGENTS", "parse_budget",
]

TASK_AGENTS: tuple[str, ...] = ("random", "tactical", "pmc", "pmc-smart", "mcts", "mcts-smart")
"""Agent names usable in the task phase."""
PLAY_AGENTS: tuple[str, ...] = ("random", "randomsmart", "pmc", "pmc-smart", "mcts", "mcts-smart",
                                "mc-cheating", "mc-ignorant", "mc-smart", "mc-smart-restricted",
                                "mc-smart-selection")
"""Agent names usable in the play phase."""


def parse_budget(text: str | None) -> tuple[int | None, float | None]:
    """``"1000"`` -> (1000 iterations, None); ``"0.5s"`` -> (None, 0.5 seconds)."""
    if text is None:
        return None, None
    m = re.fullmatch(r"\s*(\d+(?:\.\d*)?)\s*(s?)\s*", text)
    if not m:
        raise InvalidInputError(f"bad budget {text!r}; expected a count (1000) or seconds (0.5s)")
    if m.group(2):
        return None, float(m.group(1))
    if "." in m.group(1):
        raise InvalidInputError(f"bad budget {text!r}: a count of iterations must be whole")
    return int(m.group(1)), None


def make_agent(name: str, budget: str | None = None) -> Agent:
    """An agent by name (see :data:`TASK_AGENTS`, :data:`PLAY_AGENTS`).

    ``budget`` is per move: iterations (``"1000"``, default 1000) for pmc/mcts, playouts per
    card (default 100) for the mc-* players, or seconds (``"0.5s"``: per move for the tree
    searches, per playable card for mc-*, as in de Jong's Figure 10).
    """
    key = name.strip().lower()
    count, seconds = parse_budget(budget)
    if key == "tactical":
        return TacticalTaskAgent()
    if key == "random":
        return RandomAgent()
    if key == "random-task":
        return RandomTaskAgent()
    if key == "randomsmart":
        return RandomSmartAgent()
    if key in ("pmc", "pmc-smart", "mcts", "mcts-smart"):
        return TreeSearchAgent(uct=key.startswith("mcts"), smart=key.endswith("smart"),
                               iterations=count if count is not None or seconds is not None else 1000,
                               seconds=seconds)
    if key.startswith("mc-"):
        parts = key[3:].split("-", 1)
        mode = parts[0]
        det = parts[1] if len(parts) > 1 else "uniform"
        if mode not in ("cheating", "ignorant", "smart") or (len(parts) > 1 and mode != "smart"):
            raise InvalidInputError(f"unknown agent {name!r}; available: {', '.join(PLAY_AGENTS)}")
        return MonteCarloAgent(mode, playouts=count if count is not None or seconds is not None else 100,  # type: ignore[arg-type]
                               seconds=seconds, determinizer=det)
    raise InvalidInputError(f"unknown agent {name!r}; available: {', '.join(sorted(set(TASK_AGENTS + PLAY_AGENTS)))}")
