"""Special-rule conditions: what a mission asks besides "seat s wins card c".

A deal may carry conditions such as "seat 2 wins no trick" or "no trick is won with a
9" (the logbook's special missions, the task cards of *Mission Deep Sea*). Each kind is
one small frozen class, judged on the game as played, trick by trick:

``start(instance)``
    the condition's *memo* before the first trick: a small hashable value (a count, a
    flag), so that positions with equal memos are equal for the search.
``step(instance, memo, trick)``
    the memo after one more complete trick (:class:`TrickView`).
``judge(instance, memo, left, tricks_left)``
    :data:`HOLDS` when it holds *whatever happens in the remaining tricks*,
    :data:`BROKEN` when it can no longer hold, else :data:`OPEN`. ``left`` is the mask
    of cards still in hands, ``tricks_left`` the number of tricks still to play. After
    the last trick a condition is never OPEN.

The game is lost as soon as a condition is BROKEN, and won once every task is done and
every condition HOLDS. A condition that can only be judged at the end (``wins_no_tricks``,
``balanced_tricks``, ...) keeps the game going to the last trick. Early HOLDS and
BROKEN are *sound* shortcuts (they never change whether a deal can be won, only where
a won game stops), and the replay checker's judges (:mod:`crewcheck.model.judges`)
re-derive the same stopping point from the rules text without this package.

The kinds are grouped by what they judge, each module with a table of its kinds:

=========================  ==============================================================
module                     judges
=========================  ==============================================================
:mod:`.tricks`             which tricks a seat wins: counts, tricks by number, runs, tallies
:mod:`.cards`              the cards a seat wins, and where given cards fall
:mod:`.winning_card`       the card that wins a trick, and what the trick holds
:mod:`.leads`              who leads a trick with what
=========================  ==============================================================

:mod:`.base` holds what they share. The box that introduced a kind (the logbook,
*Mission Deep Sea*) is kept on its class (``box``, set by :func:`register`);
:func:`kinds_of` lists a box's kinds.

*When a kind holds early.* The game stops once every task is done and every condition
HOLDS, so HOLDS must mean "holds whatever the rest of the game" and the replay checker
must find the same trick. The Deep Sea kinds say HOLDS by a rule written in their
docstrings and in the checker's judges in the same words (counts of cards still in hands,
tricks left), so the two stop at the same trick; BROKEN is only a sound shortcut.

Seats may be written ``"choose"``: the crew picks any seat other than the commander
(:mod:`crewcheck.model.variants` expands such a deal into one concrete deal per choice).
Deciders only ever see concrete seats.

Adding a kind: a frozen dataclass subclassing :class:`Condition` in the module of what
it judges, decorated with ``@register("kind_name")`` (with ``box=`` if not the logbook),
with ``FIELDS`` describing its JSON fields, ``start``, ``step``, ``judge``, ``describe``
and (if it has shape constraints) ``problems``; then the same kind in the replay
checker's judges (:mod:`crewcheck.model.judges`). The oracle supports it at once;
encoders opt in by listing the kind.
"""

from __future__ import annotations

from crewcheck.model.conditions.base import (
    BOOL, BROKEN, CARD, CARDS, CHOOSE, CHOOSE_ANY, CMP, CONDITION_KINDS, COUNT, DEEP_SEA, HOLDS, LOGBOOK, OPEN,
    OPT_SEAT, SEAT, SUIT, TRICK, TRICKS, VALUE, Condition, Judgement, SeatRef, Table, TrickRef, TrickView, Undecided,
    cards_mask, compare, condition_from_json, condition_to_json, field_problems, is_choice, kinds_of, register,
    seat_words, value_mask,
)
from crewcheck.model.conditions.cards import (
    ComparesCardsWon, TaskInTrick, WinsAllCards, WinsAllCardsOfASuit, WinsCards, WinsNoCards, WinsTogether,
)
from crewcheck.model.conditions.leads import LeadsNoCards
from crewcheck.model.conditions.tricks import (
    BalancedTricks, TwoSeatTally, WinsAsManyTricksAs, WinsConsecutiveTricks, WinsFewerTricksThan,
    WinsMoreThanTheRest, WinsNoTricks, WinsNoTricksAt, WinsTricks, WinsTricksAt,
)
from crewcheck.model.conditions.winning_card import EachTrumpWinsATrick, NoTrickWonWith, TrickWonWith, WinsTrickWhere

__all__ = [
    # what every kind shares
    "Table", "Judgement", "OPEN", "HOLDS", "BROKEN", "TrickView", "Condition", "CONDITION_KINDS", "LOGBOOK",
    "DEEP_SEA", "kinds_of", "CHOOSE", "CHOOSE_ANY", "is_choice", "SeatRef", "TrickRef", "register",
    "condition_from_json", "condition_to_json", "Undecided", "seat_words", "compare", "cards_mask", "value_mask",
    "field_problems", "SEAT", "OPT_SEAT", "COUNT", "VALUE", "SUIT", "CARD", "CARDS", "BOOL", "CMP", "TRICK", "TRICKS",
    # tricks
    "TwoSeatTally", "WinsNoTricks", "WinsTricks", "WinsFewerTricksThan", "WinsAsManyTricksAs", "WinsMoreThanTheRest",
    "WinsTricksAt", "WinsNoTricksAt", "WinsConsecutiveTricks", "BalancedTricks",
    # cards
    "WinsNoCards", "WinsAllCards", "WinsCards", "ComparesCardsWon", "WinsAllCardsOfASuit", "WinsTogether",
    "TaskInTrick",
    # the winning card
    "TrickWonWith", "NoTrickWonWith", "EachTrumpWinsATrick", "WinsTrickWhere",
    # leads
    "LeadsNoCards",
]
