"""The ints of the conditions in the search: the kinds' codes, the flags of their rows, the
judgements (see :mod:`crewcheck.solvers.search.conditions`)."""

from __future__ import annotations

C_OPEN = 0
C_HOLDS = 1
C_BROKEN = 2
"""What :func:`cond_judge` returns: some condition open, all hold, one broken (the
values of :class:`~crewcheck.model.conditions.Judgement`)."""

K_WINS_NO_TRICKS = 1
K_WINS_TRICKS = 2
K_WINS_FEWER = 3
K_WINS_NO_CARDS = 4
K_WINS_ALL_CARDS = 5
K_TRICK_WON_WITH = 6
K_NO_TRICK_WON_WITH = 7
K_EACH_TRUMP = 8
K_WINS_TRICKS_AT = 9
K_BALANCED = 10
K_TASK_IN_TRICK = 11
K_WINS_TOGETHER = 12
K_WINS_CARDS = 13
K_COMPARES_CARDS = 14
K_TRICK_WHERE = 15
K_CONSECUTIVE = 16
K_NO_TRICKS_AT = 17
K_AS_MANY_TRICKS = 18
K_ALL_OF_A_SUIT = 19
K_LEADS_NO_CARDS = 20

WHERE_HOLDING, WHERE_TOTAL, WHERE_SUITS, WHERE_WON_WITH = 1, 2, 4, 8
"""Flags of ``wins_trick_where``: which of its tests are given."""
CONSECUTIVE_ONLY = 4
"""Flag of ``wins_consecutive_tricks`` (beside the comparison in the low bits)."""
TALLY_ZERO = 128
"""The memo of ``wins_as_many_tricks_as`` when both seats have won as many tricks."""

CMP_EQ, CMP_GE, CMP_LE = 0, 1, 2
CMP_CODES = {"==": CMP_EQ, ">=": CMP_GE, "<=": CMP_LE}
SEAT_BITS = 5
"""Bits per seat of the balance memo (tricks won minus the fewest any seat has won)."""
KEY_BITS = 3 * 63
"""Room for the memos in the position key: three words of 63 bits (no memo straddles two)."""
