"""Mission 12's draws in classes: what a draw cannot change, so that most draws need no search.

After the first trick the crew faces one position per draw (:mod:`crewcheck.analysis.chance`).
Two facts, both exact, answer most of them without a search:

* **Isomorphic positions have one outcome.** A position matters only up to the order of
  the cards within each suit, the seat holding each card, the task (seat and token) each
  card carries, which suit is trumps and who leads: renaming the cards of a suit in
  order, or exchanging two suits that are not trumps, changes no trick and no task.
  :meth:`DrawClasses.key` is that class. Equal keys after a draw give equal outcomes;
  equal keys before the draw give equal chances, since each seat's card is drawn
  uniformly from its hand and the renaming maps hand to hand.
* **A winning line carries over.** Two draws that take a card of the same suit from every
  seat differ by exchanging, seat by seat, the two drawn cards; the exchanged winning line
  of one is a candidate for the other. It is played out (:meth:`DrawClasses.carries_over`):
  every card legal, each trick led by the last one's winner, and every task card won by
  the same seat in the same trick as in the line it came from, so the tasks are done in
  the same order and every token judges them alike. A line that passes wins; one that
  fails proves nothing, and the position is decided by a search.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

from crewcheck.model.cards import CardIndex, Mask, iter_bits
from crewcheck.model.instance import Instance
from crewcheck.model.rules import legal_plays, trick_winner

__all__ = ["DrawClasses", "DrawCounts", "Line"]

Line = tuple[CardIndex, ...]
"""A line of play from the position after the draw, in the position's card indices."""

_NO_TASK = (-1, "")

_POOL = 8
"""Winning lines kept per suit pattern of the draw (the most recent first)."""


@dataclass
class DrawCounts:
    """How the draws of an analysis were answered."""

    searched: int = 0
    """Positions decided by a search."""
    isomorphic: int = 0
    """Draws whose position is isomorphic to one answered before."""
    carried: int = 0
    """Draws won by a winning line carried over from another draw."""


@dataclass
class DrawClasses:
    """The draws after one first trick: ``base`` is the position after that trick (a fresh
    deal, :func:`crewcheck.analysis.draw_positions.after_draw` with no draw); draws are given as
    one card of each seat's hand there (seat ``s``'s card goes to seat ``s + 1``)."""

    base: Instance
    memo: dict[Hashable, bool]
    """Outcomes by :meth:`key`, shared by every first trick and choice of an analysis."""
    counts: DrawCounts
    _tags: tuple[tuple[int, str], ...] = field(init=False, repr=False)
    """Each card's task as (seat, token or ``""``); ``_NO_TASK`` for a card that is no task."""
    _lines: dict[tuple[int, ...], list[tuple[tuple[CardIndex, ...], Line, dict[CardIndex, tuple[int, int]]]]] = \
        field(init=False, repr=False, default_factory=dict)

    def __post_init__(self) -> None:
        tags = [_NO_TASK] * self.base.deck.size
        for t in self.base.tasks:
            assert t.seat is not None
            tags[t.card] = (t.seat, t.token or "")
        self._tags = tuple(tags)

    @property
    def hands(self) -> tuple[Mask, ...]:
        """The hands before the draw."""
        return self.base.hands

    def drawn(self, draw: Sequence[CardIndex]) -> tuple[Mask, ...]:
        """The hands after ``draw``."""
        p = len(self.hands)
        hands = list(self.hands)
        for s, c in enumerate(draw):
            hands[s] &= ~(1 << c)
            hands[(s + 1) % p] |= 1 << c
        return tuple(hands)

    def key(self, hands: Sequence[Mask]) -> Hashable:
        """The isomorphism class of the position with ``hands`` (module docstring): per
        suit, the holder and task of each card from the lowest, the suits that are no
        trumps in sorted order, and the leader."""
        deck = self.base.deck
        owner = [0] * deck.size
        for s, h in enumerate(hands):
            for c in iter_bits(h):
                owner[c] = s
        suits = [tuple((owner[c], self._tags[c]) for c in iter_bits(m)) for m in deck.suit_masks]
        trump = self.base.trump_suit
        trumps = suits[trump] if trump is not None else ()
        others = sorted(s for i, s in enumerate(suits) if i != trump)
        return self.base.lead, trumps, tuple(others)

    def position(self, hands: tuple[Mask, ...]) -> Instance:
        """The position after a draw as a fresh deal."""
        b = self.base
        return Instance(b.deck, hands, b.tasks, b.trump, b.lead, b.rules)

    def _walk(self, hands: Sequence[Mask], line: Line) -> dict[CardIndex, tuple[int, int]] | None:
        """Play ``line`` from ``hands``: the trick and winner of each task card played, or
        ``None`` if a card is not legal (not held by the seat to play, or not following suit)."""
        deck, trump, p = self.base.deck, self.base.trump_suit, len(hands)
        held = list(hands)
        leader = self.base.lead
        assert isinstance(leader, int)
        taken: dict[CardIndex, tuple[int, int]] = {}
        for start in range(0, len(line), p):
            trick = line[start:start + p]
            if len(trick) < p:
                return None
            for i, c in enumerate(trick):
                seat = (leader + i) % p
                if not legal_plays(deck, held[seat], trick[:i]) >> c & 1:
                    return None
                held[seat] &= ~(1 << c)
            leader = (leader + trick_winner(deck, trump, trick)) % p
            for c in trick:
                if self._tags[c] != _NO_TASK:
                    taken[c] = (start // p, leader)
        return taken

    def _pattern(self, draw: Sequence[CardIndex]) -> tuple[int, ...]:
        return tuple(self.base.deck.suit_of(c) for c in draw)

    def record(self, draw: Sequence[CardIndex], line: Line) -> None:
        """Keep the winning ``line`` of the position after ``draw`` for other draws."""
        taken = self._walk(self.drawn(draw), line)
        assert taken is not None, "a winning line that is not legal"
        pool = self._lines.setdefault(self._pattern(draw), [])
        pool.insert(0, (tuple(draw), line, taken))
        del pool[_POOL:]

    def carries_over(self, draw: Sequence[CardIndex]) -> bool:
        """Whether a kept winning line, its drawn cards exchanged for ``draw``'s, wins
        after ``draw`` (every task card won by the same seat in the same trick)."""
        hands = self.drawn(draw)
        for other, line, taken in self._lines.get(self._pattern(draw), ()):
            swap = {}
            for a, b in zip(other, draw):
                if a != b:
                    swap[a], swap[b] = b, a
            if self._walk(hands, tuple(swap.get(c, c) for c in line)) == taken:
                return True
        return False

    def outcome(self, draw: Sequence[CardIndex],
                search: Callable[[Instance], tuple[bool, Line | None] | None]) -> bool | None:
        """Whether the position after ``draw`` is won: by its class, by a line carried
        over, or by ``search`` (which returns the verdict and a winning line, or ``None``
        when it ran out of time; then so does this)."""
        hands = self.drawn(draw)
        k = self.key(hands)
        known = self.memo.get(k)
        if known is not None:
            self.counts.isomorphic += 1
            return known
        if self.carries_over(draw):
            self.counts.carried += 1
            won = True
        else:
            found = search(self.position(hands))
            if found is None:
                return None
            self.counts.searched += 1
            won, line = found
            if won and line is not None:
                self.record(draw, line)
        self.memo[k] = won
        return won
