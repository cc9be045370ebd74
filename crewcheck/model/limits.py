"""Size limits on a deal: what the model accepts, so that hostile input fails fast.

The limits are far above any deal of the game or of the papers (the Classic deck has
40 cards and 5 suits; Reiber's reduction of a 30-vertex graph deals about 900 cards to
30 seats in some 200 suits), and low enough that a deal within them is built in
milliseconds: a deck of a billion cards is refused with a message instead of running the
machine out of memory. :class:`~crewcheck.model.Deck` and
:class:`~crewcheck.model.Instance` check them when they are built; the deal reader
(:mod:`crewcheck.formats.deal_json`) adds the limits of the file itself.
"""

from __future__ import annotations

__all__ = ["MAX_PLAYERS", "MAX_SUITS", "MAX_CARDS", "MAX_VALUE", "MAX_CONDITIONS", "MAX_CONDITIONS_BYTES", "is_int"]

MAX_PLAYERS = 64
"""Most seats (hands) a deal may have."""
MAX_SUITS = 1024
"""Most suits a deck may have."""
MAX_CARDS = 4096
"""Most cards a deck may have."""
MAX_VALUE = 999_999
"""Largest face value of a card."""
MAX_CONDITIONS = 256
"""Most conditions a deal may carry (a logbook or Deep Sea mission has at most a few;
each one costs every back-end work per position)."""
MAX_CONDITIONS_BYTES = 64 * 1024
"""Largest JSON text of a deal's conditions together, in bytes (checked by the deal
reader before any condition is read)."""


def is_int(value: object) -> bool:
    """Whether ``value`` is an int and not a bool (``True`` is not seat 1)."""
    return isinstance(value, int) and not isinstance(value, bool)
