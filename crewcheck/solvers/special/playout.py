"""Turn a proof's tricks (one card per seat) into a play sequence for the replay checker.

The papers describe a winning game as a list of tricks, each a card per player, and
leave the order of play implicit. :func:`sequence` puts each trick in table order from
its leader (the first leader given, then each trick's winner) and returns the flat
card sequence that :func:`crewcheck.model.replay` checks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from crewcheck.model.cards import CardIndex
from crewcheck.model.instance import Instance, Seat
from crewcheck.model.rules import trick_winner

__all__ = ["sequence"]


def sequence(instance: Instance, tricks: Sequence[Mapping[Seat, CardIndex]], leader: Seat) -> tuple[CardIndex, ...]:
    """Cards of ``tricks`` in play order, the first trick led by ``leader``.

    Each trick maps every seat to the card it plays. No legality check is made here:
    the replay checker does that.
    """
    p = instance.players
    out: list[CardIndex] = []
    for trick in tricks:
        cards = tuple(trick[(leader + i) % p] for i in range(p))
        out.extend(cards)
        leader = (leader + trick_winner(instance.deck, instance.trump_suit, cards)) % p
    return tuple(out)
