"""Hypothesis strategies and exhaustive enumerators for the special-case classes.

Each strategy draws a deal *of one class* by construction (never by filtering), dealing
by permutation and cut so that shrinking heads toward few cards, few seats and a
sorted deal. The enumerators list every deal of a class up to a size, up to renaming
seats that own nothing (seats are enumerated as unlabelled blocks; task owners are then
labelled by block).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from hypothesis import strategies as st

from crewcheck.model.cards import Deck
from crewcheck.model.instance import Instance
from crewcheck.model.tasks import Task

__all__ = ["single_value_deals", "single_suit_deals", "two_player_deals", "set_partitions",
           "all_single_suit", "all_single_value", "all_two_player"]

_SUITS = "ABCDEFGHIJKLMNOP"


@st.composite
def _deal(draw: st.DrawFn, deck: Deck, min_players: int, max_players: int) -> tuple[int, ...]:
    players = draw(st.integers(min_players, max(min_players, min(max_players, deck.size))))
    order = draw(st.permutations(range(deck.size)))
    cuts = sorted(draw(st.lists(st.integers(1, deck.size - 1), min_size=players - 1,
                                max_size=players - 1, unique=True)))
    bounds = [0, *cuts, deck.size]
    return tuple(sum(1 << c for c in order[a:b]) for a, b in zip(bounds, bounds[1:]))


@st.composite
def _tasks(draw: st.DrawFn, deck: Deck, hands: tuple[int, ...], max_tasks: int, owned: bool) -> tuple[Task, ...]:
    cards = draw(st.lists(st.integers(0, deck.size - 1), unique=True, max_size=max_tasks))
    out = []
    for c in cards:
        seat = next(s for s, h in enumerate(hands) if h >> c & 1) if owned else draw(
            st.integers(0, len(hands) - 1))
        out.append(Task(c, seat))
    return tuple(out)


@st.composite
def single_value_deals(draw: st.DrawFn, *, max_cards: int = 7, max_players: int = 3, max_tasks: int = 4) -> Instance:
    """β(1, s, p, O): every suit has one card; free first lead."""
    n = draw(st.integers(2, max_cards))
    deck = Deck.from_cards(Deck.from_sizes({_SUITS[i]: 1 for i in range(n)}).cards)
    hands = draw(_deal(deck, 2, max_players))
    tasks = draw(_tasks(deck, hands, max_tasks, False))
    return Instance(deck, hands, tasks, None, "any")


@st.composite
def single_suit_deals(draw: st.DrawFn, *, max_cards: int = 8, max_players: int = 3, max_tasks: int = 4,
                      owned: bool = False, lead_modes: tuple[str, ...] = ("any", "seat")) -> Instance:
    """β(k, 1, p, O) (``owned``: O*, every task card held by its owner)."""
    n = draw(st.integers(2, max_cards))
    deck = Deck.from_sizes({"B": n})
    hands = draw(_deal(deck, 2, max_players))
    tasks = draw(_tasks(deck, hands, max_tasks, owned))
    mode = draw(st.sampled_from(lead_modes))
    lead: int | str = "any" if mode == "any" else draw(st.integers(0, len(hands) - 1))
    return Instance(deck, hands, tasks, None, lead)


@st.composite
def two_player_deals(draw: st.DrawFn, *, suits: tuple[int, ...] = (2, 3, 4), values: tuple[int, ...] = (1, 2, 3),
                     max_cards: int = 12) -> Instance:
    """Witteveen's game: s suits of n values, equal hands, one task owned by the first leader."""
    s = draw(st.sampled_from(suits))
    ok = [n for n in values if (s * n) % 2 == 0 and s * n <= max_cards]
    n = draw(st.sampled_from(ok or [2]))
    deck = Deck.from_sizes({_SUITS[i]: n for i in range(s)})
    order = draw(st.permutations(range(deck.size)))
    half = deck.size // 2
    hands = (sum(1 << c for c in order[:half]), sum(1 << c for c in order[half:]))
    card = draw(st.integers(0, deck.size - 1))
    owner = draw(st.integers(0, 1))
    return Instance(deck, hands, (Task(card, owner),), None, owner)


def set_partitions(n: int, p: int) -> Iterator[tuple[int, ...]]:
    """Every way to put cards 0..n-1 into p unlabelled non-empty blocks (block of each card)."""
    def rec(i: int, acc: list[int], used: int) -> Iterator[tuple[int, ...]]:
        if i == n:
            if used == p:
                yield tuple(acc)
            return
        for b in range(min(used + 1, p)):
            if n - i - 1 < p - max(used, b + 1):
                continue
            acc.append(b)
            yield from rec(i + 1, acc, max(used, b + 1))
            acc.pop()
    yield from rec(0, [], 0)


def _all(deck: Deck, p: int, max_tasks: int, owned: bool, lead: int | str) -> Iterator[Instance]:
    n = deck.size
    for blocks in set_partitions(n, p):
        hands = [0] * p
        for c, b in enumerate(blocks):
            hands[b] |= 1 << c
        for k in range(max_tasks + 1):
            for cards in itertools.combinations(range(n), k):
                choices = [[blocks[c]] for c in cards] if owned else [range(p)] * k
                for owners in itertools.product(*choices):
                    yield Instance(deck, tuple(hands), tuple(Task(c, o) for c, o in zip(cards, owners)), None, lead)


def all_single_suit(n: int, p: int, *, max_tasks: int, owned: bool = False) -> Iterator[Instance]:
    """Every one-suit deal of n cards to p seats (up to seat renaming) with up to ``max_tasks`` tasks."""
    return _all(Deck.from_sizes({"B": n}), p, max_tasks, owned, "any")


def all_single_value(n: int, p: int, *, max_tasks: int) -> Iterator[Instance]:
    """Every one-value deal of n cards (n suits) to p seats with up to ``max_tasks`` tasks."""
    deck = Deck.from_cards(Deck.from_sizes({_SUITS[i]: 1 for i in range(n)}).cards)
    return _all(deck, p, max_tasks, False, "any")


def all_two_player(s: int, n: int) -> Iterator[Instance]:
    """Every Witteveen deal with s suits of n values, the task in the first suit (suit
    symmetry), owned by seat 0, which leads."""
    deck = Deck.from_sizes({_SUITS[i]: n for i in range(s)})
    size = deck.size
    for one in itertools.combinations(range(size), size // 2):
        m1 = sum(1 << c for c in one)
        for card in range(n):
            yield Instance(deck, (m1, deck.full_mask & ~m1), (Task(card, 0),), None, 0)
