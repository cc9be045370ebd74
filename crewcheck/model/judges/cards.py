"""The checker's judges of the kinds that judge the cards a seat wins, or where given cards
fall (:mod:`crewcheck.model.conditions.cards` says what each means; this module shares no
code with it)."""

from __future__ import annotations

from typing import Any

from crewcheck.model.cards import Card
from crewcheck.model.judges.game import Game, Judge, compare


def _target(g: Game, c: dict[str, Any]) -> set[Card]:
    """The cards of the condition's suit (of its value only, if it names one)."""
    suit, value = c["suit"], c.get("value")
    return {x for x in g.deck if x.suit == suit and (value is None or x.value == value)}


def wins_no_cards(g: Game, c: dict[str, Any]) -> bool:
    target = _target(g, c)
    taken = any(w == c["seat"] and target & set(cs) for cs, w in zip(g.cards, g.winners))
    return not taken and (g.over or not target & g.held)


def wins_all_cards(g: Game, c: dict[str, Any]) -> bool:
    # every card of the suit won by the seat; with played_only, every one played
    target = _target(g, c)
    return (not target & g.held or (g.over and bool(c.get("played_only")))) and all(
        w == c["seat"] for cs, w in zip(g.cards, g.winners) if target & set(cs))


def wins_cards(g: Game, c: dict[str, Any]) -> bool:
    suit, value = c.get("suit"), c.get("value")

    def counted(x: Card) -> bool:
        if suit is not None:
            return x.suit == suit and (value is None or x.value == value)
        return x.value == value and x.suit != g.trump

    n = g.count_won(c["seat"], counted)
    most = n if g.over else n + g.held_count(counted)
    want = int(c["count"])
    if c["cmp"] == ">=":
        return n >= want
    if c["cmp"] == "<=":
        return most <= want
    return n == most == want


def compares_cards_won(g: Game, c: dict[str, Any]) -> bool:
    a = g.count_won(c["seat"], lambda x: x.suit == c["suit"])
    b = g.count_won(c["seat"], lambda x: x.suit == c["than_suit"])
    settled = g.over or g.held_count(lambda x: x.suit in (c["suit"], c["than_suit"])) == 0
    return settled and compare(a, c["cmp"], b + int(c["margin"])) and a >= int(c["at_least"])


def wins_all_cards_of_a_suit(g: Game, c: dict[str, Any]) -> bool:
    suits = [s for s in dict.fromkeys(x.suit for x in g.deck) if c["trump"] or s != g.trump]
    for suit in suits:
        if any(x.suit == suit for x in g.held):
            continue
        if all(t.winner == c["seat"] for t, cs in zip(g.tricks, g.cards) if any(x.suit == suit for x in cs)):
            return True
    return False


def wins_together(g: Game, c: dict[str, Any]) -> bool:
    together = set(c["cards"])
    return any(together <= set(t.cards) and t.winner == c["seat"] for t in g.tricks)


def task_in_trick(g: Game, c: dict[str, Any]) -> bool:
    card, where = c["card"], c["trick"]
    for number, t in enumerate(g.tricks, start=1):
        if card in t.cards:
            return number == (len(g.tricks) if where == "last" and g.over else where)
    return False


JUDGES: dict[str, Judge] = {
    "wins_no_cards": wins_no_cards,
    "wins_all_cards": wins_all_cards,
    "wins_cards": wins_cards,
    "compares_cards_won": compares_cards_won,
    "wins_all_cards_of_a_suit": wins_all_cards_of_a_suit,
    "wins_together": wins_together,
    "task_in_trick": task_in_trick,
}
"""The judge of each kind of this module, by JSON name."""
