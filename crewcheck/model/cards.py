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

from crewcheck.errors import InvalidCardError, InvalidDealError
from crewcheck.model.limits import MAX_CARDS, MAX_SUITS, MAX_VALUE, is_int

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
    """Face value, a positive integer (at most :data:`~crewcheck.model.limits.MAX_VALUE`)."""

    def __post_init__(self) -> None:
        if not is_suit_name(self.suit):
            raise InvalidCardError(f"suit name must be letters, got {self.suit!r}")
        if not is_int(self.value) or not 1 <= self.value <= MAX_VALUE:
            raise InvalidCardError(f"card value must be a whole number 1..{MAX_VALUE}, got {self.value!r}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"P7"``; raise :class:`InvalidCardError` on anything else.

        The whole text must be the card: ``"P7 "`` and ``"P7\\n"`` are not cards.
        """
        if not isinstance(text, str):
            raise InvalidCardError(f"expected a card string such as 'B7', got {text!r}")
        m = _CARD_RE.fullmatch(text)
        if m is None:
            raise InvalidCardError(
                f"{text!r} is not a card (a suit name in letters followed by a value, e.g. 'B7')"
            )
        digits = m.group(2).lstrip("0")
        if not digits:
            raise InvalidCardError(f"{text!r} is not a card (values start at 1)")
        if len(digits) > len(str(MAX_VALUE)) or int(digits) > MAX_VALUE:
            shown = repr(text) if len(text) <= 20 else f"{text[:12]!r}... ({len(text):,} characters)"
            raise InvalidCardError(f"{shown} is not a card (values go up to {MAX_VALUE})")
        return cls(m.group(1).upper(), int(digits))

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
        _check_shape(self.suits, self.values)
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
        """Suits with values ``1..n`` each, in the order given.

        Raises :class:`InvalidDealError` (field ``deck.NAME``) for a size that is not a
        whole number from 1, or a deck over :data:`~crewcheck.model.limits.MAX_CARDS`.
        """
        if not isinstance(sizes, Mapping):
            raise InvalidDealError(f"expected suit sizes such as {{'B': 9}}, got {sizes!r}", field="deck")
        total = 0
        for name, n in sizes.items():
            if not is_int(n) or n < 1:
                raise InvalidDealError(f"expected a whole number of values from 1, got {n!r}",
                                       field=f"deck.{name}")
            total += n
            if total > MAX_CARDS:
                raise InvalidDealError(f"{n} values make the deck larger than the limit of {MAX_CARDS} cards",
                                       field=f"deck.{name}")
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


def _check_shape(suits: object, values: object) -> None:
    """Raise :class:`InvalidDealError` unless ``suits`` and ``values`` describe a deck:
    distinct suit names, each with ascending values 1..MAX_VALUE, within the limits."""
    if not isinstance(suits, tuple) or not isinstance(values, tuple) or len(suits) != len(values):
        raise InvalidDealError("a deck needs a tuple of suit names and a tuple of value tuples of the same "
                               f"length, got {type(suits).__name__} and {type(values).__name__}", field="deck")
    if len(suits) > MAX_SUITS:
        raise InvalidDealError(f"{len(suits)} suits is more than the limit of {MAX_SUITS}", field="deck")
    total = 0
    for name, vals in zip(suits, values):
        if not is_suit_name(name):
            raise InvalidDealError(f"suit name must be letters, got {name!r}", field="deck")
        if not isinstance(vals, tuple) or not vals:
            raise InvalidDealError(f"suit {name!r} needs a non-empty tuple of values, got {vals!r}", field="deck")
        total += len(vals)
        if total > MAX_CARDS:
            raise InvalidDealError(f"more than the limit of {MAX_CARDS} cards", field="deck")
        prev = 0
        for v in vals:
            if not is_int(v) or not prev < v <= MAX_VALUE:
                raise InvalidDealError(f"suit {name!r}: values must ascend within 1..{MAX_VALUE}, got {vals!r}",
                                       field="deck")
            prev = v
    if len(set(suits)) != len(suits):
        raise InvalidDealError(f"a suit is named twice: {suits!r}", field="deck")


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
