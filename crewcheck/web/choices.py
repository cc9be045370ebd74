"""The crew's choices offered on the board, each with its own verdict.

Under the commander's decision every task goes to one crew member other than the
commander: :func:`decision_options` decides, for each such seat, the deal with every task
fixed to it (the deal the board plays once that choice is made), so the page marks each
option ✓ or ✗ before the player picks one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crewcheck.api import decide
from crewcheck.formats import deal_json
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Budget

__all__ = ["decision_options", "with_seats"]


def with_seats(instance: Instance, seat: int) -> Instance:
    """``instance`` with every task fixed to ``seat`` (fixed assignment)."""
    data = deal_json.to_dict(instance)
    data["assignment"] = "fixed"
    data["tasks"] = [{**t, "seat": seat} for t in data["tasks"]]
    data.pop("quota", None)
    return deal_json.from_dict(data)


def decision_options(instance: Instance, timeout: float | None,
                     cancelled: Callable[[], bool]) -> list[dict[str, Any]] | None:
    """Before the first card of a commander's-decision deal: ``[{"seat", "verdict"}]``
    for each crew member other than the commander (seats from 0), ``"unknown"`` once
    ``cancelled``; ``None`` for any other deal or position."""
    if instance.rules.assignment != "decision" or instance.history or not instance.tasks:
        return None
    out = []
    for seat in range(instance.players):
        if seat == instance.commander:
            continue
        verdict = "unknown"
        if not cancelled():
            verdict = decide(with_seats(instance, seat), budget=Budget(seconds=timeout, cancel=cancelled)).verdict.value
        out.append({"seat": seat, "verdict": verdict})
    return out
