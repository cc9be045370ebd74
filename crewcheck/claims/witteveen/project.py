"""Bridge from the claims' int-encoded 2-player games to the project's back-ends.

The characterisation checks encode a Witteveen game as ``(hand1 mask, task
index)`` over a 4-suit deck (card ``suit * values + value - 1``). This module
turns such a game into a project :class:`~crewcheck.model.Instance` (no trump
suit, seat 0 leads, the task owned by seat 0) and asks a registered back-end
through :func:`crewcheck.api.decide`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

from crewcheck.api import decide
from crewcheck.formats.deal_json import from_dict
from crewcheck.solvers import registry
from crewcheck.solvers.base import Verdict

__all__ = ["Decider", "PROJECT_BACKENDS", "DECIDE_TIMEOUT", "instance_dict", "make_decider", "deciders"]

Decider: TypeAlias = Callable[[int, int, int, int], "bool | None"]
"""``decider(hand1, task, values, suits) -> winnable`` (``None``: unknown)."""

SUIT_LETTERS = "BGPY"
"""Witteveen's four suits, in the deck order of the claims' encoding."""

PROJECT_BACKENDS = ("exhaustive", "search", "two_player_one_task")
"""The project back-ends that cross-check the characterisation, when installed."""

DECIDE_TIMEOUT = 120.0
"""Seconds per 2-player game for the project back-ends (UNKNOWN is counted, not guessed)."""


def instance_dict(hand1: int, task: int, values: int, suits: int) -> dict[str, Any]:
    """The deal JSON object (``crewcheck-deal/1``) of one 2-player 1-task game."""
    def name(c: int) -> str:
        return f"{SUIT_LETTERS[c // values]}{c % values + 1}"

    cards = range(values * suits)
    return {
        "schema": "crewcheck-deal/1",
        "deck": {SUIT_LETTERS[s]: values for s in range(suits)},
        "hands": [[name(c) for c in cards if hand1 >> c & 1],
                  [name(c) for c in cards if not hand1 >> c & 1]],
        "trump": None,
        "lead": 0,
        "tasks": [{"card": name(task), "seat": 0}],
    }


def make_decider(backend: str) -> Decider:
    """A decider ``(hand1, task, values, suits) -> bool | None`` using `backend`.

    ``None`` means the back-end answered UNKNOWN.
    """
    def decider(hand1: int, task: int, values: int, suits: int) -> bool | None:
        inst = from_dict(instance_dict(hand1, task, values, suits))
        verdict = decide(inst, backend=backend, timeout=DECIDE_TIMEOUT).verdict
        if verdict is Verdict.UNKNOWN:
            return None
        return verdict is Verdict.WINNABLE

    return decider


def deciders() -> dict[str, Decider]:
    """``{"project-<backend>": decider}`` for every installed back-end of :data:`PROJECT_BACKENDS`."""
    return {f"project-{name}": make_decider(name) for name in registry.installed(PROJECT_BACKENDS)}
