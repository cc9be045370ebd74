"""Rule flags and the rule predicates, as pure functions on ints.

The predicates here (:func:`legal_plays`, :func:`trick_winner`, :func:`order_violation`)
are the one definition of the rules that the rules engine (:mod:`.state`), the exhaustive
oracle and the encoders share. The replay checker (:mod:`.replay`) deliberately does not
use them: it re-derives legality from the card model, so that a bug here shows up as a
rejected witness rather than hiding.

Order tokens and tasks completed in the same trick
--------------------------------------------------
Tasks completed in one trick are completed *together*. Two readings exist:

``"lenient"``
    tasks completed together may be taken in any order: a trick is fine when some
    order of its tasks satisfies every token. (Several online implementations.)
``"strict"`` (the default)
    the rulebook's reading: as lenient, and in addition two *tokened* tasks may be
    completed in the same trick only when their tokens are consecutive (``"1"`` and
    ``"2"``, ``">"`` and ``">>"``). Tokens of different kinds are never consecutive,
    and ``"omega"`` is consecutive with no other token. Untokened tasks never clash.

The default is ``strict`` because it is what the published rulebook says; lenient is
one flag away for comparing with other implementations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from crewcheck.errors import UnknownRulesError
from crewcheck.model.cards import CardIndex, Deck, Mask
from crewcheck.model.tasks import Task, TokenKind, token_kind

__all__ = [
    "Rules", "OrderRule", "Assignment", "ASSIGNMENTS", "RULE_PRESETS", "find_rules",
    "Cover", "uncovered", "legal_plays", "trick_winner", "order_violation",
]

OrderRule = Literal["strict", "lenient"]
Assignment = Literal["fixed", "free", "decision", "distribution"]
ASSIGNMENTS: tuple[str, ...] = ("fixed", "free", "decision", "distribution")


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule variant a deal is played under."""

    order_rule: OrderRule = "strict"
    """How order tokens judge tasks completed in the same trick (module docstring)."""
    assignment: Assignment = "fixed"
    """``"fixed"``: every task names its seat. ``"free"``: the tasks are drafted
    round-robin from the first leader; the deal is winnable if *some* assignment with
    those per-seat counts is (de Jong §4.4, "free objectives"). ``"decision"``: the
    commander's decision, every task to one crew member other than the commander,
    chosen by the crew. ``"distribution"``: the commander's distribution, any split in
    which nobody holds 2 tasks more than another (see :mod:`.variants`)."""

    def __post_init__(self) -> None:
        if self.order_rule not in ("strict", "lenient"):
            raise UnknownRulesError(f"unknown order rule {self.order_rule!r}; expected 'strict' or 'lenient'")
        if self.assignment not in ASSIGNMENTS:
            raise UnknownRulesError(f"unknown assignment {self.assignment!r}; expected "
                                    f"{', '.join(ASSIGNMENTS[:-1])} or {ASSIGNMENTS[-1]}")

    def __str__(self) -> str:
        return f"{self.order_rule}/{self.assignment}"


RULE_PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "lenient": Rules(order_rule="lenient"),
    "free": Rules(assignment="free"),
}


def find_rules(name: str) -> Rules:
    """Look up a rule preset by name (case-insensitive)."""
    try:
        return RULE_PRESETS[name.lower()]
    except KeyError:
        raise UnknownRulesError(
            f"unknown rules {name!r}; available: {', '.join(sorted(RULE_PRESETS))}"
        ) from None


Cover = tuple[CardIndex, CardIndex]
"""``(covered, covering)``: a card lying face down under another card of the same hand
(JARVIS's columns in the two-player game). It may be played only once the covering card
has been played in an earlier trick."""


def uncovered(hand: Mask, covers: Sequence[Cover]) -> Mask:
    """The cards of ``hand`` that no card still in ``hand`` covers: those its seat may
    play. Between two tricks the hand holds exactly the cards not yet played, so a card
    whose cover left the hand in an earlier trick is face up; within a trick a seat has
    played no card yet when its turn comes, so the same mask holds all through it."""
    for low, high in covers:
        if hand >> high & 1:
            hand &= ~(1 << low)
    return hand


def legal_plays(deck: Deck, hand: Mask, trick: Sequence[CardIndex]) -> Mask:
    """Cards of ``hand`` that may be played to ``trick`` (cards already played in it).

    The leader plays anything; the others must follow the led suit if they can. With
    covered cards ``hand`` is the seat's :func:`uncovered` cards: a seat follows suit only
    with the cards it may play.
    """
    if not trick:
        return hand
    follow = hand & deck.suit_mask(deck.suit_of(trick[0]))
    return follow if follow else hand


def trick_winner(deck: Deck, trump: int | None, trick: Sequence[CardIndex]) -> int:
    """Position (0 = leader) of the card that wins a complete ``trick``.

    The highest trump wins if a trump was played, else the highest card of the led
    suit. Card indices within a suit are ordered by value, so "highest" is ``max``.
    """
    led = deck.suit_of(trick[0])
    best = 0
    best_suit = led
    for pos in range(1, len(trick)):
        card = trick[pos]
        suit = deck.suit_of(card)
        if suit == best_suit and card > trick[best]:
            best = pos
        elif suit == trump and best_suit != trump:
            best, best_suit = pos, suit
    return best


def order_violation(
    tasks: Sequence[Task], done: Mask, group: Mask, order_rule: OrderRule
) -> int | None:
    """The task whose token is broken when the tasks in ``group`` complete together.

    ``done`` and ``group`` are bitmasks over task *indices* (not cards): the tasks
    completed before this trick and those completed in it. Returns the index of a
    violated task, or ``None`` if the trick respects every token.
    """
    if not group:
        return None
    before = done.bit_count()
    after = before + group.bit_count()
    total = len(tasks)
    tokened: list[tuple[TokenKind, int, int]] = []
    for i, task in enumerate(tasks):
        if task.token is None or done >> i & 1:
            continue
        kind, rank = token_kind(task.token)
        in_group = bool(group >> i & 1)
        if kind is TokenKind.ABSOLUTE:
            # position `rank` lies in this trick's block iff before < rank <= after
            if in_group != (before < rank <= after):
                return i
        elif kind is TokenKind.LAST:
            if in_group and after != total:
                return i
        elif in_group:
            for j, other in enumerate(tasks):
                if other.token is None or done >> j & 1 or group >> j & 1:
                    continue
                okind, orank = token_kind(other.token)
                if okind is TokenKind.RELATIVE and orank < rank:
                    return i
        if in_group:
            tokened.append((kind, rank, i))
    if order_rule == "strict" and len(tokened) > 1:
        kinds = {k for k, _, _ in tokened}
        ranks = sorted(r for _, r, _ in tokened)
        if len(kinds) > 1 or TokenKind.LAST in kinds or any(
            b - a != 1 for a, b in zip(ranks, ranks[1:])
        ):
            return max(tokened, key=lambda t: (t[0] is TokenKind.LAST, t[1]))[2]
    return None
