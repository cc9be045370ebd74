"""The checker's judges of the kinds that judge who leads a trick with what
(:mod:`crewcheck.model.conditions.leads` says what each means; this module shares no code
with it)."""

from __future__ import annotations

from typing import Any

from crewcheck.model.judges.game import Game, Judge


def leads_no_cards(g: Game, c: dict[str, Any]) -> bool:
    if any(t.leader == c["seat"] and cs[0].suit == c["suit"] for t, cs in zip(g.tricks, g.cards)):
        return False
    return g.over or not any(x.suit == c["suit"] for x in g.held)


JUDGES: dict[str, Judge] = {
    "leads_no_cards": leads_no_cards,
}
"""The judge of each kind of this module, by JSON name."""
