"""Bridge from the claims' int-encoded 2-player games to ``crewcheck.decide``.

The characterisation checks encode a Witteveen game as ``(hand1 mask, task
index)`` over a 4-suit deck (card ``suit * values + value - 1``). This module
turns such a game into a project :class:`~crewcheck.model.Instance` (no trump
suit, seat 0 leads, the task owned by seat 0) and asks a registered back-end.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

SUIT_LETTERS = "BGPY"
"""Witteveen's four suits, in the deck order of the claims' encoding."""


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


@cache
def _backends() -> tuple[str, ...]:
    from crewcheck.solvers import registry

    avail = registry.available()
    return tuple(n for n in ("exhaustive", "search") if n in registry.BACKENDS and avail.get(n) is None)


def make_decider(backend: str) -> Callable[[int, int, int, int], bool | None]:
    """A decider ``(hand1, task, values, suits) -> bool | None`` using `backend`.

    ``None`` means the back-end answered UNKNOWN.
    """
    from crewcheck import decide, from_dict
    from crewcheck.solvers.base import Verdict

    def decider(hand1: int, task: int, values: int, suits: int) -> bool | None:
        inst = from_dict(instance_dict(hand1, task, values, suits))
        verdict = decide(inst, backend=backend).verdict
        if verdict is Verdict.UNKNOWN:
            return None
        return verdict is Verdict.WINNABLE

    return decider


def deciders() -> dict[str, Callable[[int, int, int, int], bool | None]]:
    """``{"project-<backend>": decider}`` for every installed project back-end."""
    return {f"project-{name}": make_decider(name) for name in _backends()}


def dejong_curve(mode: str, objectives: str) -> Any:
    """Placeholder until a back-end fast enough for 40-card 4-player deals exists."""
    from crewcheck.claims.base import Computation, Value

    return Computation((Value("curve", None, "not computed"),), holds=None,
                       open_reason="needs a fast exact back-end for 40-card 4-player deals with "
                       "trumps ('search' is not on main yet; 'exhaustive' refuses > 20 cards)")
