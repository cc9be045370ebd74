"""What the replay checker's judges see of a game: :class:`Game` (the tricks so far, each
trick's cards and winning card, the cards still in hands), on :class:`Card` names and
values, not masks, and :func:`compare`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from crewcheck.model.cards import Card
from crewcheck.model.outcome import Trick

if TYPE_CHECKING:
    from crewcheck.model.instance import Instance

__all__ = ["Game", "Judge", "compare"]


class Game:
    """What a judge sees: the tricks so far, each trick's cards, winner and winning card,
    and the cards still in hands."""

    def __init__(self, instance: Instance, tricks: Sequence[Trick], hands: Sequence[set[Card]]) -> None:
        self.instance = instance
        self.deck = instance.deck.cards
        self.trump = instance.trump
        self.tricks = list(tricks)
        self.remaining = min(len(h) for h in hands)
        """Tricks still to play."""
        self.over = self.remaining == 0
        self.held: set[Card] = set().union(*hands)
        self.cards = [[self.deck[i] for i in t.cards] for t in tricks]
        self.winners = [t.winner for t in tricks]
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


def compare(n: int, cmp: str, k: int) -> bool:
    """``n cmp k`` for ``cmp`` one of ``==``, ``>=``, ``<=``."""
    return {"==": n == k, ">=": n >= k, "<=": n <= k}[cmp]


Judge = Callable[[Game, dict[str, Any]], bool]
"""``judge(game, condition)``: true when the condition holds now and no continuation can
break it."""
