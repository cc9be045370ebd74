"""The replay checker's judges of the Deep Sea condition kinds, re-derived from the card
texts (:mod:`crewcheck.model.deepsea_conditions` says what each kind means; this module
shares no code with it, and works on :class:`Card` names and values, not masks).

Each judge answers the checker's question for one condition, given as a plain field
dict: does it hold now, whatever the rest of the game? :data:`DEEPSEA_JUDGES` maps a
kind to its judge; :func:`crewcheck.model.replay._condition_holds` consults it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from crewcheck.model.cards import Card
from crewcheck.model.outcome import Trick

if TYPE_CHECKING:
    from crewcheck.model.instance import Instance

__all__ = ["Game", "DEEPSEA_JUDGES"]


class Game:
    """What a judge sees: the tricks so far, each trick's cards and winning card, and
    the cards still in hands."""

    def __init__(self, instance: Instance, tricks: Sequence[Trick], hands: Sequence[set[Card]]) -> None:
        self.instance = instance
        self.deck = instance.deck.cards
        self.trump = instance.trump
        self.tricks = list(tricks)
        self.remaining = min(len(h) for h in hands)
        self.over = self.remaining == 0
        self.held: set[Card] = set().union(*hands)
        self.cards = [[self.deck[i] for i in t.cards] for t in tricks]
        self.best = [self._best(cs) for cs in self.cards]

    def _best(self, cards: list[Card]) -> Card:
        trumps = [x for x in cards if self.trump is not None and x.suit == self.trump]
        return max(trumps or [x for x in cards if x.suit == cards[0].suit], key=lambda x: x.value)

    def won_by(self, seat: int) -> list[list[Card]]:
        """The cards of every trick ``seat`` won."""
        return [cs for cs, t in zip(self.cards, self.tricks) if t.winner == seat]

    def count_won(self, seat: int, test: Callable[[Card], bool]) -> int:
        return sum(1 for cs in self.won_by(seat) for x in cs if test(x))

    def held_count(self, test: Callable[[Card], bool]) -> int:
        return sum(1 for x in self.held if test(x))


def _cmp(n: int, cmp: str, k: int) -> bool:
    return {"==": n == k, ">=": n >= k, "<=": n <= k}[cmp]


def _wins_cards(g: Game, c: dict[str, Any]) -> bool:
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


def _compares_cards_won(g: Game, c: dict[str, Any]) -> bool:
    a = g.count_won(c["seat"], lambda x: x.suit == c["suit"])
    b = g.count_won(c["seat"], lambda x: x.suit == c["than_suit"])
    settled = g.over or g.held_count(lambda x: x.suit in (c["suit"], c["than_suit"])) == 0
    return settled and _cmp(a, c["cmp"], b + int(c["margin"])) and a >= int(c["at_least"])


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


def _wins_trick_where(g: Game, c: dict[str, Any]) -> bool:
    return any(t.winner == c["seat"] and _trick_passes(g, c, cs, b)
               for t, cs, b in zip(g.tricks, g.cards, g.best))


def _runs(g: Game, seat: int) -> list[int]:
    """The lengths of the runs of tricks ``seat`` won in a row."""
    out: list[int] = []
    previous = False
    for t in g.tricks:
        if t.winner == seat:
            if previous:
                out[-1] += 1
            else:
                out.append(1)
        previous = t.winner == seat
    return out


def _wins_consecutive_tricks(g: Game, c: dict[str, Any]) -> bool:
    runs = _runs(g, c["seat"])
    longest = max(runs, default=0)
    if c["cmp"] == ">=" and not c["only"]:
        return longest >= int(c["count"])
    return g.over and _cmp(longest, c["cmp"], int(c["count"])) and (not c["only"] or len(runs) <= 1)


def _wins_no_tricks_at(g: Game, c: dict[str, Any]) -> bool:
    listed = c["tricks"]
    for number, t in enumerate(g.tricks, start=1):
        is_last = g.over and number == len(g.tricks)
        if (number in listed or (is_last and "last" in listed)) and t.winner == c["seat"]:
            return False
    return g.over or ("last" not in listed and all(n <= len(g.tricks) for n in listed))


def _wins_as_many_tricks_as(g: Game, c: dict[str, Any]) -> bool:
    wins = [t.winner for t in g.tricks]
    return g.over and wins.count(c["seat"]) == wins.count(c["other"])


def _wins_more_than_the_rest(g: Game, c: dict[str, Any]) -> bool:
    mine = sum(1 for t in g.tricks if t.winner == c["seat"])
    return mine > len(g.tricks) + g.remaining - mine


def _wins_all_cards_of_a_suit(g: Game, c: dict[str, Any]) -> bool:
    suits = [s for s in dict.fromkeys(x.suit for x in g.deck) if c["trump"] or s != g.trump]
    for suit in suits:
        if any(x.suit == suit for x in g.held):
            continue
        if all(t.winner == c["seat"] for t, cs in zip(g.tricks, g.cards) if any(x.suit == suit for x in cs)):
            return True
    return False


def _leads_no_cards(g: Game, c: dict[str, Any]) -> bool:
    if any(t.leader == c["seat"] and cs[0].suit == c["suit"] for t, cs in zip(g.tricks, g.cards)):
        return False
    return g.over or not any(x.suit == c["suit"] for x in g.held)


DEEPSEA_JUDGES: dict[str, Callable[[Game, dict[str, Any]], bool]] = {
    "wins_cards": _wins_cards,
    "compares_cards_won": _compares_cards_won,
    "wins_trick_where": _wins_trick_where,
    "wins_consecutive_tricks": _wins_consecutive_tricks,
    "wins_no_tricks_at": _wins_no_tricks_at,
    "wins_as_many_tricks_as": _wins_as_many_tricks_as,
    "wins_more_than_the_rest": _wins_more_than_the_rest,
    "wins_all_cards_of_a_suit": _wins_all_cards_of_a_suit,
    "leads_no_cards": _leads_no_cards,
}
"""The checker's judge of each Deep Sea kind: true when the condition holds now and no
continuation can break it."""
