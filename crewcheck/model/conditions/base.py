"""What every condition kind shares: the :class:`Table` a condition reads of its deal,
:class:`Judgement` (OPEN, HOLDS, BROKEN), :class:`TrickView`, the :class:`Condition` base
class and the registry of kinds (:func:`register`, :data:`CONDITION_KINDS`, with the box
that introduced each kind: :func:`kinds_of`), seat choices, the JSON form of a condition
(:func:`condition_from_json`, :func:`condition_to_json`), read and checked field by field
from each kind's ``FIELDS``, the helpers the kinds share (:func:`seat_words`,
:func:`compare`, :func:`cards_mask`, :func:`value_mask`, :func:`field_problems`) and
:class:`Undecided`.

The kinds themselves are in the modules beside this one, grouped by what they judge
(:mod:`.tricks`, :mod:`.cards`, :mod:`.winning_card`, :mod:`.leads`); importing
:mod:`crewcheck.model.conditions` registers them all.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Mapping
from dataclasses import MISSING, dataclass, fields, replace
from functools import lru_cache
from types import SimpleNamespace
from typing import Any, ClassVar, Literal, Protocol, TypeAlias, TypeVar, cast

from crewcheck.errors import InvalidDealError
from crewcheck.model.cards import CardIndex, Deck, Mask

__all__ = [
    "Table", "Judgement", "OPEN", "HOLDS", "BROKEN", "TrickView", "Condition", "CONDITION_KINDS", "CHOOSE",
    "CHOOSE_ANY", "is_choice", "SeatRef", "TrickRef", "register", "condition_from_json", "condition_to_json",
    "SEAT", "OPT_SEAT", "COUNT", "VALUE", "SUIT", "CARD", "CARDS", "BOOL", "CMP", "TRICK", "TRICKS",
    "LOGBOOK", "DEEP_SEA", "kinds_of", "seat_words", "compare", "cards_mask", "value_mask", "field_problems",
    "Undecided",
]


class Table(Protocol):
    """What a condition reads of its deal (:class:`~crewcheck.model.instance.Instance`
    implements it; see :mod:`crewcheck.model.deal` for why a Protocol)."""

    @property
    def deck(self) -> Deck: ...
    @property
    def players(self) -> int: ...
    @property
    def tricks(self) -> int: ...
    @property
    def trump(self) -> str | None: ...
    @property
    def trump_suit(self) -> int | None: ...
    @property
    def holder(self) -> tuple[int, ...]: ...


CHOOSE = "choose"
"""A seat the crew chooses: any seat other than the commander."""
CHOOSE_ANY = "choose_any:"
"""Prefix of a named choice of any seat, commander included (``"choose_any:first"``):
the same name is the same seat; different names are chosen independently."""


def is_choice(v: object) -> bool:
    """Whether a seat field holds a choice (``"choose"`` or ``"choose_any:<name>"``)."""
    return v == CHOOSE or (isinstance(v, str) and v.startswith(CHOOSE_ANY) and len(v) > len(CHOOSE_ANY))
SeatRef: TypeAlias = "int | Literal['choose']"
TrickRef: TypeAlias = "int | Literal['last']"
"""A trick number from 1, or ``"last"``."""


class Judgement(enum.IntEnum):
    OPEN = 0
    HOLDS = 1
    BROKEN = 2


OPEN, HOLDS, BROKEN = Judgement.OPEN, Judgement.HOLDS, Judgement.BROKEN


@dataclass(frozen=True, slots=True)
class TrickView:
    """One complete trick as conditions see it."""

    number: int
    """1 for the first trick of the game."""
    cards: tuple[CardIndex, ...]
    """In play order."""
    played: Mask
    """The same cards as a mask."""
    winner: int
    """The seat that won it."""
    winning: CardIndex
    """The card that won it."""
    last: bool
    """Whether it is the last trick of the game."""


CONDITION_KINDS: dict[str, type[Condition]] = {}
"""Every kind by its JSON name."""

LOGBOOK = "logbook"
"""The box of the kinds the logbook's special missions need (The Crew, the first box)."""
DEEP_SEA = "deepsea"
"""The box of the kinds the task cards of *Mission Deep Sea* need beyond those."""

C = TypeVar("C", bound="type[Condition]")


def register(kind: str, box: str = LOGBOOK) -> Callable[[C], C]:
    """Register a kind under its JSON name, with the box that introduced it."""
    def deco(cls: C) -> C:
        cls.kind = kind
        cls.box = box
        CONDITION_KINDS[kind] = cls
        return cls
    return deco


def kinds_of(box: str) -> tuple[str, ...]:
    """The kinds ``box`` introduced (:data:`LOGBOOK`, :data:`DEEP_SEA`), by JSON name."""
    return tuple(kind for kind, cls in CONDITION_KINDS.items() if cls.box == box)


# Field types of the JSON form: how to read, check and write each.
SEAT, OPT_SEAT, COUNT, VALUE, SUIT, CARD, CARDS, BOOL, CMP, TRICK, TRICKS = (
    "seat", "seat?", "count", "value", "suit", "card", "cards", "bool", "cmp", "trick", "tricks")


class Condition:
    """Base class of every condition kind (see the module docstring)."""

    kind: ClassVar[str] = ""
    box: ClassVar[str] = ""
    """The box that introduced the kind (:data:`LOGBOOK`, :data:`DEEP_SEA`)."""
    FIELDS: ClassVar[Mapping[str, str]] = {}
    """JSON field -> field type; fields with a class default are optional."""

    # -- judging ----------------------------------------------------------------------
    def start(self, inst: Table) -> Hashable:
        return 0

    def step(self, inst: Table, memo: Any, trick: TrickView) -> Hashable:
        raise NotImplementedError

    def judge(self, inst: Table, memo: Any, left: Mask, tricks_left: int) -> Judgement:
        raise NotImplementedError

    def named(self, inst: Table) -> Mask:
        """Cards this condition tells apart from their neighbours in the suit (by card or
        by value): no symmetry argument may swap them (:mod:`crewcheck.solvers.logic.encoding`)."""
        return 0

    # -- shape ------------------------------------------------------------------------
    def seats(self) -> tuple[str, ...]:
        """Names of the fields that hold a seat."""
        return tuple(f for f, t in self.FIELDS.items() if t in (SEAT, OPT_SEAT))

    def is_concrete(self) -> bool:
        return not self.choices()

    def choices(self) -> set[str]:
        """The choices (``"choose"``, ``"choose_any:<name>"``) its seat fields name."""
        return {getattr(self, f) for f in self.seats() if is_choice(getattr(self, f))}

    def with_choices(self, seats: Mapping[str, int]) -> Condition:
        """Every chosen seat of this condition replaced by ``seats[choice]``."""
        return replace(self, **{f: seats[getattr(self, f)] for f in self.seats()  # type: ignore[type-var]
                                if is_choice(getattr(self, f))})

    def problems(self, inst: Table) -> list[tuple[str, str]]:
        """``(field, message)`` for every way this condition does not fit ``inst``."""
        out: list[tuple[str, str]] = []
        p, deck = inst.players, inst.deck
        for name, ftype in self.FIELDS.items():
            v = getattr(self, name)
            if ftype in (SEAT, OPT_SEAT) and v is not None and not is_choice(v):
                if not 0 <= v < p:
                    out.append((name, f"seat {v} does not exist (seats 0..{p - 1})"))
            elif ftype == VALUE and v is not None and not any(v in vals for vals in deck.values):
                out.append((name, f"no card of value {v} is in the deal"))
            elif ftype == SUIT and v not in deck.suits:
                out.append((name, f"unknown suit {v!r} (suits: {', '.join(deck.suits)})"))
            elif ftype == TRICK and v != "last" and not 1 <= v <= inst.tricks:
                out.append((name, f"trick {v} does not exist (the game has {inst.tricks} tricks)"))
            elif ftype == TRICKS:
                for t in v:
                    if t != "last" and not 1 <= t <= inst.tricks:
                        out.append((name, f"trick {t} does not exist (the game has {inst.tricks} tricks)"))
            elif ftype == COUNT and v > inst.tricks:
                out.append((name, f"{v} is more than the {inst.tricks} tricks of the game"))
        return out

    def describe(self, inst: Table) -> str:
        return self.kind

    def __str__(self) -> str:
        parts = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self))  # type: ignore[arg-type]
        return f"{self.kind}({parts})"


# ---------------------------------------------------------------------------------------
# JSON form (the deal file's "conditions"; card and suit names, seats as ints)
# ---------------------------------------------------------------------------------------

def _bad(where: str, message: str) -> InvalidDealError:
    return InvalidDealError(message, field=where)


def _shown(v: object, limit: int = 60) -> str:
    """``repr(v)`` cut to about ``limit`` characters (a message quotes a hostile value)."""
    text = repr(v)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _read_field(ftype: str, v: Any, where: str, card_index: Callable[[str, str], CardIndex]) -> Any:
    if ftype in (SEAT, OPT_SEAT):
        if is_choice(v) or _is_int(v):
            if _is_int(v) and v < 0:
                raise _bad(where, f"expected a seat number from 0 or 'choose', got {v!r}")
            return v
        raise _bad(where, f"expected a seat number, 'choose' or 'choose_any:<name>', got {v!r}")
    if ftype in (COUNT, VALUE):
        if not _is_int(v) or v < (1 if ftype == VALUE else 0):
            low = "1" if ftype == VALUE else "0"
            raise _bad(where, f"expected an integer from {low}, got {v!r}")
        return v
    if ftype == BOOL:
        if not isinstance(v, bool):
            raise _bad(where, f"expected true or false, got {v!r}")
        return v
    if ftype == SUIT:
        if not isinstance(v, str) or not v.isalpha():
            raise _bad(where, f"expected a suit name such as 'Y', got {v!r}")
        return v.upper()
    if ftype == CMP:
        if v not in ("==", ">=", "<="):
            raise _bad(where, f"expected '==', '>=' or '<=', got {v!r}")
        return v
    if ftype == CARD:
        return card_index(v, where)
    if ftype == CARDS:
        if not isinstance(v, list) or not v:
            raise _bad(where, f"expected a non-empty list of cards, got {v!r}")
        out = tuple(card_index(c, f"{where}[{i}]") for i, c in enumerate(v))
        if len(set(out)) != len(out):
            raise _bad(where, "a card is listed twice")
        return out
    if ftype == TRICK:
        if v == "last" or (_is_int(v) and v >= 1):
            return v
        raise _bad(where, f"expected a trick number from 1 or 'last', got {v!r}")
    if ftype == TRICKS:
        if not isinstance(v, list) or not v:
            raise _bad(where, f"expected a non-empty list of trick numbers or 'last', got {v!r}")
        return tuple(_read_field(TRICK, t, f"{where}[{i}]", card_index) for i, t in enumerate(v))
    raise AssertionError(ftype)


def condition_from_json(obj: Any, where: str, card_index: Callable[[str, str], CardIndex]) -> Condition:
    """Read one condition object; ``card_index(name, where)`` resolves card names.

    Raises :class:`InvalidDealError` naming the JSON path of the first problem.
    """
    if not isinstance(obj, dict):
        raise _bad(where, f"expected an object with a 'kind', got {obj!r}")
    kind = obj.get("kind")
    if "kind" not in obj:
        raise _bad(f"{where}.kind", "missing (every condition names its kind)")
    if not isinstance(kind, str):
        raise _bad(f"{where}.kind", f"expected a kind name (a string), got {_shown(kind)}")
    if kind not in CONDITION_KINDS:
        raise _bad(f"{where}.kind", f"unknown kind {_shown(kind)}; expected one of {', '.join(sorted(CONDITION_KINDS))}")
    cls = CONDITION_KINDS[kind]
    known = set(cls.FIELDS) | {"kind"}
    for key in obj:
        if key not in known:
            raise _bad(f"{where}.{key}", f"unknown field for {kind}; allowed: {', '.join(sorted(known))}")
    args: dict[str, Any] = {}
    for f in fields(cls):  # type: ignore[arg-type]
        if f.name not in obj:
            if f.default is MISSING:
                raise _bad(f"{where}.{f.name}", f"missing (required by {kind})")
            continue
        args[f.name] = _read_field(cls.FIELDS[f.name], obj[f.name], f"{where}.{f.name}", card_index)
    return cls(**args)


def condition_to_json(cond: Condition, card_name: Callable[[CardIndex], str]) -> dict[str, Any]:
    """The JSON object of ``cond`` (fields at their default are left out)."""
    out: dict[str, Any] = {"kind": cond.kind}
    for f in fields(cond):  # type: ignore[arg-type]
        v = getattr(cond, f.name)
        if v == f.default:
            continue
        ftype = cond.FIELDS[f.name]
        if ftype == CARD:
            v = card_name(v)
        elif ftype == CARDS:
            v = [card_name(c) for c in v]
        elif isinstance(v, tuple):
            v = list(v)
        out[f.name] = v
    return out


# ---------------------------------------------------------------------------------------
# Helpers the kinds share
# ---------------------------------------------------------------------------------------

def seat_words(s: SeatRef) -> str:
    """A seat field in words: "seat 2", "the chosen crew member", ..."""
    if s == CHOOSE:
        return "the chosen crew member"
    return f"the seat chosen as {str(s)[len(CHOOSE_ANY):]!r}" if is_choice(s) else f"seat {s}"


def compare(n: int, cmp: str, count: int) -> bool:
    """``n cmp count`` for ``cmp`` one of ``==``, ``>=``, ``<=``."""
    return n == count if cmp == "==" else n >= count if cmp == ">=" else n <= count


def cards_mask(cards: tuple[CardIndex, ...] | None) -> Mask:
    """The mask of ``cards`` (none for ``None``)."""
    m = 0
    for c in cards or ():
        m |= 1 << c
    return m


def value_mask(inst: Table, value: int, trumps: bool = True) -> Mask:
    """The cards of ``value`` (trumps too unless ``trumps`` is false), once per deck."""
    return _cards_of_value(inst.deck, inst.trump, value, trumps)


@lru_cache(maxsize=256)
def _cards_of_value(deck: Deck, trump: str | None, value: int, trumps: bool) -> Mask:
    m = 0
    for i, card in enumerate(deck.cards):
        if card.value == value and (trumps or card.suit != trump):
            m |= 1 << i
    return m


def field_problems(cond: Condition, inst: Table, skip: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """The shared field checks (:meth:`Condition.problems`), leaving out fields at
    ``None`` and those in ``skip``."""
    kept = {f: t for f, t in cond.FIELDS.items() if f not in skip and getattr(cond, f) is not None}
    view = SimpleNamespace(FIELDS=kept, **{f: getattr(cond, f) for f in kept})
    return Condition.problems(cast(Condition, view), inst)


class Undecided(Condition):
    """Stands in for a condition whose seat the crew has yet to choose, when only the
    rules of play matter (checking a history): it never ends the game before the last
    trick. Not a kind of the deal format."""

    kind = "undecided"

    def __init__(self, of: Condition) -> None:
        self.of = of

    def step(self, inst: Table, memo: Hashable, trick: TrickView) -> Hashable:
        return memo

    def judge(self, inst: Table, memo: Hashable, left: Mask, tricks_left: int) -> Judgement:
        return HOLDS if tricks_left == 0 else OPEN

    def describe(self, inst: Table) -> str:
        return self.of.describe(inst)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Undecided) and other.of == self.of

    def __hash__(self) -> int:
        return hash(("undecided", self.of))
