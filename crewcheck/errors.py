"""The whole crewcheck exception hierarchy.

Every error subclasses both :class:`CrewcheckError` and the matching builtin, so
``except ValueError`` keeps working. Unwinnable is an *answer*, never an exception:
the only exceptions are bad input, an algorithm outside its problem class, and a
broken back-end.

Messages are one line, start in lower case, say where (a JSON path such as
``hands[2]``), what was expected and the offending value.
"""

from __future__ import annotations

__all__ = [
    "CrewcheckError",
    "InvalidInputError",
    "InvalidCardError",
    "InvalidDealError",
    "InvalidTaskError",
    "IllegalPlayError",
    "UnknownBackendError",
    "UnknownRulesError",
    "UnknownClaimError",
    "NotApplicableError",
    "BackendError",
    "BackendUnavailableError",
]


class CrewcheckError(Exception):
    """Base class of every error crewcheck raises on purpose."""


class InvalidInputError(CrewcheckError, ValueError):
    """User input is malformed or impossible (CLI exit code 2).

    ``field`` is the JSON path of the offending value (``"hands[2]"``), or ``""``.
    """

    def __init__(self, message: str, *, field: str = "") -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.reason = message


class InvalidCardError(InvalidInputError):
    """A card string is not syntactically a card (``"Q"``, ``"P0"``, ``"7P"``)."""


class InvalidDealError(InvalidInputError):
    """A deal is malformed or breaks the rules; ``status`` holds every problem found."""

    def __init__(self, message: str, *, field: str = "", status: int = 0) -> None:
        super().__init__(message, field=field)
        self.status = status


class InvalidTaskError(InvalidDealError):
    """A task is malformed (unknown token, card not dealt, seat out of range)."""


class IllegalPlayError(InvalidInputError):
    """A syntactically fine play that the rules forbid in this state."""


class UnknownBackendError(InvalidInputError):
    """No back-end of that name is registered."""


class UnknownRulesError(InvalidInputError):
    """No rule preset of that name exists."""


class UnknownClaimError(InvalidInputError):
    """No published claim of that id (``crewcheck prove CLAIM``)."""


class NotApplicableError(CrewcheckError):
    """A back-end was asked about a deal outside the class it decides."""


class BackendError(CrewcheckError, RuntimeError):
    """A back-end failed (crashed, or produced a witness the replay checker rejects)."""


class BackendUnavailableError(BackendError):
    """A back-end's optional dependency is not installed."""
