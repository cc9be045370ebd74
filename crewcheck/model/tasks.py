"""Tasks and order tokens.

A *task* (Reiber and de Jong call it an *objective*) names a card and the seat that
must win the trick containing it. Under free assignment the seat is left open
(``seat is None``) and chosen by the solver within fixed per-seat counts.

Order tokens, as in the rulebook (Reiber, appendix):

``"1"`` .. ``"5"``
    absolute: the task must be the 1st, 2nd, ... task completed of *all* tasks.
``">"``, ``">>"``, ``">>>"``, ``">>>>"``
    relative: these tasks are completed in this order among themselves; other tasks
    may come in between.
``"omega"``
    the task is completed last of all tasks.

Several tasks can be completed in one trick. How tokens judge such a trick is the
deal's ``order_rule`` (see :mod:`crewcheck.model.rules`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TypeAlias

from crewcheck.errors import InvalidTaskError
from crewcheck.model.cards import CardIndex
from crewcheck.model.limits import is_int

__all__ = ["Token", "TokenKind", "TOKENS", "Task", "token_kind"]

Token: TypeAlias = str
"""An order token as written in the deal file: ``"1"``..``"5"``, ``">"``..``">>>>"``, ``"omega"``."""


class TokenKind(Enum):
    ABSOLUTE = "absolute"
    """``"1"``..``"5"``: the k-th task completed overall."""
    RELATIVE = "relative"
    """``">"``..``">>>>"``: ordered among themselves."""
    LAST = "last"
    """``"omega"``: completed last."""


TOKENS: tuple[Token, ...] = ("1", "2", "3", "4", "5", ">", ">>", ">>>", ">>>>", "omega")
"""Every token the rulebook has, in a canonical order."""


def token_kind(token: Token) -> tuple[TokenKind, int]:
    """Kind and rank of a token: ``"3"`` -> (ABSOLUTE, 3), ``">>"`` -> (RELATIVE, 2).

    Raises :class:`ValueError` for an unknown token.
    """
    if token in ("1", "2", "3", "4", "5"):
        return TokenKind.ABSOLUTE, int(token)
    if token in (">", ">>", ">>>", ">>>>"):
        return TokenKind.RELATIVE, len(token)
    if token == "omega":
        return TokenKind.LAST, 0
    raise ValueError(f"unknown token {token!r}")


@dataclass(frozen=True, slots=True)
class Task:
    """A card that a given seat must win (an *objective* in Reiber and de Jong)."""

    card: CardIndex
    """The task card's index in the deal's deck."""
    seat: int | None = None
    """The seat that must win it; ``None`` under free assignment."""
    token: Token | None = None
    """Its order token, if any."""

    def __post_init__(self) -> None:
        # the types only; whether the card is dealt and the seat exists is the deal's check
        if not is_int(self.card) or self.card < 0:
            raise InvalidTaskError(f"expected a card index (a whole number from 0), got {self.card!r}",
                                   field="card")
        if self.seat is not None and (not is_int(self.seat) or self.seat < 0):
            raise InvalidTaskError(f"expected a seat number (a whole number from 0) or None, got {self.seat!r}",
                                   field="seat")
        if self.token is not None and not isinstance(self.token, str):
            raise InvalidTaskError(f"expected an order token such as '1' or '>', got {self.token!r}",
                                   field="token")
