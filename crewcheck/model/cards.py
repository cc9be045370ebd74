"""Cards, decks and card sets: the int core and its friendly façade.

A *card* is a suit name (letters only: ``"B"``, ``"R"``, or the reduction's junk suits
``"JA"``, ``"JB"``...) and a positive value. Inside the solvers a card is a
:data:`CardIndex` in ``0..N-1``, ordered suit-major and then by value, so comparing two
cards of one suit is integer comparison. A set of cards (a hand) is a :data:`Mask`:
bit ``i`` is set when card ``i`` is in the set.

A :class:`Deck` owns the mapping between cards and indices. Nothing here assumes four
suits, nine values or a trump suit: the generalised deck of Reiber's β(k, s, p, O) has
any number of suits (s) and values (k), and values need not be contiguous.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TypeAlias

from crewcheck.errors import InvalidCardError

__all__ = [
    "CardIndex", "Mask", "Card", "Deck", "CardSet", "CLASSIC_DECK", "CLASSIC_SIZES",
    "iter_bits", "popcount",
]

CardIndex: TypeAlias = int
"""A card's position in its deck, ``0..N-1``, suit-major then ascending value."""

Mask: TypeAlias = int
"""A set of cards as a bitmask over card indices."""

_CARD_RE = re.compile(r"([A-Za-z]+)([0-9]+)")
_SUIT_RE = re.compile(r"[A-Za-z]+")


def iter_bits(mask: Mask) -> Iterator[int]:
    """Yield the indices of the set bits of ``mask`` in ascending order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def popcount(mask: Mask) -> int:
    """Number of set bits."""
    return mask.bit_count()


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A playing card: a suit name and a value.

    Examples
    --------
    >>> Card.parse("P7")
    Card.parse('P7')
    >>> str(Card("JA", 3))
    'JA3'
    """

    suit: str
    """Suit name, letters only (``"B"``, ``"R"``, ``"JA"``)."""
    value: int
    """Face value, a positive integer."""

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"P7"``; raise :class:`InvalidCardError` on anything else."""
        if not isinstance(text, str):
            raise InvalidCardError(f"expected a card string such as 'B7', got {text!r}")
        m = _CARD_RE.fullmatch(text.strip())
        if m is None:
            raise InvalidCardError(
                f"{text!r} is not a card (a suit name in letters followed by a value, e.g. 'B7')"
            )
        value = int(m.group(2))
        if value < 1:
            raise InvalidCardError(f"{text!r} is not a card (values start at 1)")
        return cls(m.group(1).upper(), value)

    def __str__(self) -> str:
        return f"{self.suit}{self.value}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def is_suit_name(text: object) -> bool:
    """Whether ``text`` is a well-formed suit name (letters only)."""
    return isinstance(text, str) and _SUIT_RE.fullmatch(text) is not None


@dataclass(frozen=True, slots=True)
class Deck:
    """The cards of a game and their indices.

    ``suits[s]`` is the name of suit ``s`` and ``values[s]`` its values in ascending
    order. Card indices run suit by suit in that order.

    Examples
    --------
    >>> d = Deck.from_sizes({"B": 2, "R": 1})
    >>> d.index(Card.parse("B2")), d.card(2)
    (1, Card.parse('R1'))
    """

    suits: tuple[str, ...]
    """Suit names, in index order."""
    values: tuple[tuple[int, ...], ...]
    """``values[s]``: the values of suit ``s``, ascending."""
    _index: dict[Card, CardIndex] = field(init=False, repr=False, compare=False, hash=False)
    _cards: tuple[Card, ...] = field(init=False, repr=False, compare=False, hash=False)
    _suit_of: tuple[int, ...] = field(init=False, repr=False, compare=False, hash=False)
    _suit_masks: tuple[Mask, ...] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        cards: list[Card] = []
        suit_of: list[int] = []
        masks: list[Mask] = []
        for s, (name, vals) in enumerate(zip(self.suits, self.values, strict=True)):
            start = len(cards)
            cards.extend(Card(name, v) for v in vals)
            suit_of.extend([s] * len(vals))
            masks.append(((1 << len(vals)) - 1) << start)
        object.__setattr__(self, "_cards", tuple(cards))
        object.__setattr__(self, "_index", {c: i for i, c in enumerate(cards)})
        object.__setattr__(self, "_suit_of", tuple(suit_of))
        object.__setattr__(self, "_suit_masks", tuple(masks))

    # -- constructors -------------------------------------------------------------
    @classmethod
    def from_sizes(cls, sizes: Mapping[str, int]) -> Deck:
        """Suits with values ``1..n`` each, in the order given."""
        return cls(tuple(sizes), tuple(tuple(range(1, n + 1)) for n in sizes.values()))

    @classmethod
    def from_cards(cls, cards: Iterable[Card]) -> Deck:
        """The smallest deck holding exactly ``cards`` (suits sorted by name)."""
        by_suit: dict[str, set[int]] = {}
        for c in cards:
            by_suit.setdefault(c.suit, set()).add(c.value)
        names = tuple(sorted(by_suit))
        return cls(names, tuple(tuple(sorted(by_suit[n])) for n in names))

    # -- queries ------------------------------------------------------------------
    @property
    def size(self) -> int:
        """Number of cards N."""
        return len(self._cards)

    @property
    def cards(self) -> tuple[Card, ...]:
        """All cards in index order."""
        return self._cards

    @property
    def full_mask(self) -> Mask:
        return (1 << len(self._cards)) - 1

    def index(self, card: Card) -> CardIndex:
        """The index of ``card``; :class:`KeyError` if it is not in this deck."""
        return self._index[card]

    def __contains__(self, card: object) -> bool:
        return card in self._index

    def card(self, index: CardIndex) -> Card:
        return self._cards[index]

    def suit_index(self, name: str) -> int:
        """Index of the suit called ``name``; :class:`ValueError` if absent."""
        return self.suits.index(name)

    def suit_of(self, index: CardIndex) -> int:
        """Suit index of card ``index``."""
        return self._suit_of[index]

    @property
    def suit_of_table(self) -> tuple[int, ...]:
        """``suit_of_table[i]`` is the suit index of card ``i`` (for kernels)."""
        return self._suit_of

    def suit_mask(self, suit: int) -> Mask:
        """Mask of every card of suit index ``suit``."""
        return self._suit_masks[suit]

    @property
    def suit_masks(self) -> tuple[Mask, ...]:
        return self._suit_masks

    def mask_of(self, cards: Iterable[Card]) -> Mask:
        m = 0
        for c in cards:
            m |= 1 << self._index[c]
        return m

    def cards_of(self, mask: Mask) -> tuple[Card, ...]:
        return tuple(self._cards[i] for i in iter_bits(mask))

    def format_mask(self, mask: Mask) -> str:
        """Cards of ``mask`` as ``"B1 B9 R4"``."""
        return " ".join(str(self._cards[i]) for i in iter_bits(mask))


CLASSIC_SIZES: dict[str, int] = {"B": 9, "G": 9, "P": 9, "Y": 9, "R": 4}
"""The Crew's 40-card deck: four colour suits 1-9 and rockets (trumps) 1-4."""

CLASSIC_DECK: Deck = Deck.from_sizes(dict(sorted(CLASSIC_SIZES.items())))


@dataclass(frozen=True, slots=True)
class CardSet:
    """A set of cards: a façade over a :data:`Mask` of a :class:`Deck`.

    Iterates in deck order; supports ``in``, ``len``, ``| & -`` and ``int()``.

    Examples
    --------
    >>> cs = CardSet(CLASSIC_DECK, CLASSIC_DECK.mask_of([Card.parse("B9"), Card.parse("B1")]))
    >>> [str(c) for c in cs], len(cs), Card.parse("B9") in cs
    (['B1', 'B9'], 2, True)
    """

    deck: Deck
    mask: Mask

    def __iter__(self) -> Iterator[Card]:
        return (self.deck.card(i) for i in iter_bits(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return card in self.deck and bool(self.mask >> self.deck.index(card) & 1)  # type: ignore[arg-type]

    def __int__(self) -> int:
        return self.mask

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.deck, self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.deck, self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.deck, self.mask & ~other.mask)

    def issubset(self, other: CardSet) -> bool:
        return self.mask & ~other.mask == 0

    def __str__(self) -> str:
        return self.deck.format_mask(self.mask)

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"
