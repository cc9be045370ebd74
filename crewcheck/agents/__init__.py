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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from crewcheck.agents.base import Agent, Observation, Setup, is_cheating
from crewcheck.agents.determinize import SAMPLERS
from crewcheck.agents.mcts import TreeSearchAgent
from crewcheck.agents.montecarlo import MonteCarloAgent
from crewcheck.agents.rulebased import RandomAgent, RandomSmartAgent, RandomTaskAgent, TacticalTaskAgent
from crewcheck.agents.simulate import GameRecord, deal, parse_deck, play_game, setup_instance, simulate
from crewcheck.errors import InvalidInputError

__all__ = [
    "Agent", "Observation", "Setup", "is_cheating", "GameRecord", "deal", "parse_deck", "play_game",
    "setup_instance", "simulate", "make_agent", "AGENTS", "AgentSpec", "TASK_AGENTS", "PLAY_AGENTS",
    "parse_budget",
]

Factory = Callable[[int | None, float | None], Agent]
"""Builds an agent from a per-move budget: a count (iterations or playouts) or seconds
(at most one of them given; see :func:`make_agent`)."""


@dataclass(frozen=True)
class AgentSpec:
    """One entry of :data:`AGENTS`."""

    build: Factory
    phases: tuple[Literal["task", "play"], ...]
    """The phases of the game it may be named for (none: only by :func:`make_agent`)."""


def _fixed(cls: Callable[[], Agent]) -> Factory:
    return lambda count, seconds: cls()


def _tree(uct: bool, smart: bool) -> Factory:
    """PMC (``uct=False``) or MCTS, ignorant or smart: 1000 iterations per move unless told."""
    return lambda count, seconds: TreeSearchAgent(
        uct=uct, smart=smart, iterations=count if count is not None or seconds is not None else 1000, seconds=seconds)


def _monte_carlo(mode: Literal["cheating", "ignorant", "smart"], determinizer: str = "uniform") -> Factory:
    """de Jong's Monte Carlo player: 100 playouts per card unless told."""
    return lambda count, seconds: MonteCarloAgent(
        mode, playouts=count if count is not None or seconds is not None else 100, seconds=seconds,
        determinizer=determinizer)


_BOTH: tuple[Literal["task", "play"], ...] = ("task", "play")

AGENTS: dict[str, AgentSpec] = {
    "random": AgentSpec(_fixed(RandomAgent), _BOTH),
    "random-task": AgentSpec(_fixed(RandomTaskAgent), ()),
    "tactical": AgentSpec(_fixed(TacticalTaskAgent), ("task",)),
    "randomsmart": AgentSpec(_fixed(RandomSmartAgent), ("play",)),
    "pmc": AgentSpec(_tree(uct=False, smart=False), _BOTH),
    "pmc-smart": AgentSpec(_tree(uct=False, smart=True), _BOTH),
    "mcts": AgentSpec(_tree(uct=True, smart=False), _BOTH),
    "mcts-smart": AgentSpec(_tree(uct=True, smart=True), _BOTH),
    "mc-cheating": AgentSpec(_monte_carlo("cheating"), ("play",)),
    "mc-ignorant": AgentSpec(_monte_carlo("ignorant"), ("play",)),
    "mc-smart": AgentSpec(_monte_carlo("smart"), ("play",)),
    **{f"mc-smart-{d}": AgentSpec(_monte_carlo("smart", d), ("play",)) for d in SAMPLERS if d != "uniform"},
}
"""Every agent by name: how to build it and the phases it plays (add an agent here)."""

TASK_AGENTS: tuple[str, ...] = tuple(n for n, a in AGENTS.items() if "task" in a.phases)
"""Agent names usable in the task phase."""
PLAY_AGENTS: tuple[str, ...] = tuple(n for n, a in AGENTS.items() if "play" in a.phases)
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
    spec = AGENTS.get(name.strip().lower())
    if spec is None:
        known = ", ".join(sorted(set(TASK_AGENTS + PLAY_AGENTS)))
        raise InvalidInputError(f"unknown agent {name!r}; available: {known}")
    return spec.build(*parse_budget(budget))
