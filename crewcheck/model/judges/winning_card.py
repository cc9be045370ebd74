"""The checker's judges of the kinds that judge the card that wins a trick
(:mod:`crewcheck.model.conditions.winning_card` says what each means; this module shares no
code with it)."""

from __future__ import annotations

from typing import Any

from crewcheck.model.cards import Card
from crewcheck.model.judges.game import Game, Judge


def trick_won_with(g: Game, c: dict[str, Any]) -> bool:
    seat = c.get("seat")
    n = sum(1 for b, w in zip(g.best, g.winners)
            if b.value == c["value"] and (c["trump"] or b.suit != g.trump) and (seat is None or w == seat))
    return n >= int(c["count"])


def no_trick_won_with(g: Game, c: dict[str, Any]) -> bool:
    if any(b.value == c["value"] for b in g.best):
        return False
    return g.over or not any(x.value == c["value"] for x in g.held)


def each_trump_wins_a_trick(g: Game, c: dict[str, Any]) -> bool:
    if any(x.suit == g.trump for x in g.held):
        return False
    won: list[int] = []
    for cs, b in zip(g.cards, g.best):
        in_trick = [x for x in cs if x.suit == g.trump]
        if in_trick and in_trick != [b]:
            return False
        won.extend(x.value for x in in_trick)
    return not c["in_order"] or won == sorted(won)


def _trick_passes(g: Game, c: dict[str, Any], cards: list[Card], best: Card) -> bool:
    named = g.deck

    def among(field: str) -> set[Card]:
        return {named[i] for i in c[field]}

    if c.get("won_with") is not None and best not in among("won_with"):
        return False
    if c.get("holding") is not None and not any(x in among("holding") for x in cards if x != best):
        return False
    if c.get("only") is not None and not all(x in among("only") for x in cards):
        return False
    total = sum(x.value for x in cards)
    if c.get("total_min") is not None and total < c["total_min"]:
        return False
    if c.get("total_max") is not None and total > c["total_max"]:
        return False
    if c.get("suit") is not None:
        a = sum(1 for x in cards if x.suit == c["suit"])
        b = sum(1 for x in cards if x.suit == c["other_suit"])
        if a == 0 or a != b:
            return False
    return True


def wins_trick_where(g: Game, c: dict[str, Any]) -> bool:
    return any(t.winner == c["seat"] and _trick_passes(g, c, cs, b)
               for t, cs, b in zip(g.tricks, g.cards, g.best))


JUDGES: dict[str, Judge] = {
    "trick_won_with": trick_won_with,
    "no_trick_won_with": no_trick_won_with,
    "each_trump_wins_a_trick": each_trump_wins_a_trick,
    "wins_trick_where": wins_trick_where,
}
"""The judge of each kind of this module, by JSON name."""
