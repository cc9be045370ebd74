"""Facts derived from a position, computed in one place for every layer that needs them.

:func:`quotas_left`
    Under free assignment, how many more tasks each seat may take: its draft count
    (:attr:`Instance.task_counts <crewcheck.model.instance.Instance.task_counts>`) less the
    tasks it has already won. The search, the encoding and the refutations bound the
    rest of the game by it.
:func:`after`
    The position after a line of plays, e.g. to read which seat took each task
    (``after(state, plays).owners``) from a back-end's winning line.
:func:`equivalent_plays`
    The legal plays grouped into classes of interchangeable cards: the search tries one
    card of each, ``crewcheck analyse`` reports them as ``B3 = B4``.

Examples
--------
>>> from crewcheck.formats.notation import parse_deal
>>> deal = parse_deal("B1 B3 | B2 B4 ; trump - ; lead 0 ; tasks B3@? B4@? ; strict/free")
>>> quotas_left(deal.state())
(1, 1)
>>> later = after(deal.state(), (0, 3))  # B1, B4: seat 1 wins the trick and takes task B4
>>> later.owners, quotas_left(later)
((-1, 1), (1, 0))
"""

from __future__ import annotations

from collections.abc import Iterable

from crewcheck.model.cards import CardIndex, iter_bits
from crewcheck.model.state import State

__all__ = ["quotas_left", "after", "equivalent_plays"]


def quotas_left(state: State) -> tuple[int, ...] | None:
    """Free assignment: the tasks each seat may still take (draft count less tasks won);
    ``None`` under fixed assignment."""
    counts = state.instance.task_counts
    if counts is None or state.owners is None:
        return None
    return tuple(n - state.owners.count(seat) for seat, n in enumerate(counts))


def after(state: State, plays: Iterable[CardIndex]) -> State:
    """The position after ``plays`` (legal cards, in order) from ``state``."""
    for card in plays:
        state = state.apply(card)
    return state


def equivalent_plays(state: State) -> list[list[CardIndex]]:
    """The legal plays of ``state`` in classes of interchangeable cards, in card order,
    lowest card first: one seat holds them, one suit, no card still in play between them,
    and none is a task card, a card a condition names or a card covering another (playing
    it turns a card up). Exchanging two such cards throughout any game (they never meet
    in one trick) changes no comparison with a card still in play, so no trick winner,
    task or condition, nor which cards are face up: they have the same verdict."""
    inst = state.instance
    deck = inst.deck
    live = 0
    for hand in state.hands:
        live |= hand
    for c in state.trick:
        live |= 1 << c
    marked = inst.task_mask
    for cond in inst.conditions:
        marked |= cond.named(inst)
    for _, high in inst.covered:
        marked |= 1 << high
    groups: list[list[CardIndex]] = []
    prev = -1
    for c in iter_bits(state.legal_mask()):
        if (prev >= 0 and deck.suit_of(prev) == deck.suit_of(c) and inst.holder[prev] == inst.holder[c]
                and not marked >> c & 1 and not marked >> prev & 1
                and not live & ((1 << c) - (1 << (prev + 1)))):
            groups[-1].append(c)
        else:
            groups.append([c])
        prev = c
    return groups
