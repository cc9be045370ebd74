"""Class conditions for the special-case deciders, and the ``@requires`` decorator.

Each published algorithm decides one class of deals (a β-class of Reiber, or
Witteveen's 2-player 1-task game). A decider declares its class once::

    @requires(suits=1, trumps=False, tokens=False, assignment="fixed", history=False)
    class SingleSuitSolver: ...

and gets a ``supports(instance)`` that returns ``None`` or a one-line reason naming the
first condition that fails (``"single_suit needs one suit; this deal has 4"``), and a
``decide`` that raises :class:`~crewcheck.errors.NotApplicableError` with that reason
when called outside the class. The checks live here, once, instead of in every module.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from crewcheck.errors import NotApplicableError
from crewcheck.model.instance import Instance

__all__ = ["Check", "CHECKS", "requires", "class_reason"]

Check = Callable[[Instance, Any], "str | None"]
"""A condition: ``check(instance, wanted) -> None`` if met, else what the deal has instead
(the part after the semicolon of the message)."""

T = TypeVar("T", bound=type)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _suits(inst: Instance, want: int) -> str | None:
    n = len(inst.deck.suits)
    if n == want:
        return None
    return f"needs {'one suit' if want == 1 else _plural(want, 'suit')}; this deal has {n}"


def _values(inst: Instance, want: int) -> str | None:
    for name, vals in zip(inst.deck.suits, inst.deck.values):
        if len(vals) != want:
            return (f"needs {want} value{'s' if want != 1 else ''} per suit (k = {want}); "
                    f"suit {name!r} has {len(vals)}")
    return None


def _trumps(inst: Instance, want: bool) -> str | None:
    if want or inst.trump is None:
        return None
    return f"needs a deal without trumps; this deal has trump suit {inst.trump!r}"


def _tokens(inst: Instance, want: bool) -> str | None:
    if want:
        return None
    for j, t in enumerate(inst.tasks):
        if t.token is not None:
            return f"needs tasks without order tokens; tasks[{j}] has token {t.token!r}"
    return None


def _assignment(inst: Instance, want: str) -> str | None:
    if inst.rules.assignment == want:
        return None
    return f"needs {want} task assignment; this deal has {inst.rules.assignment} assignment"


def _history(inst: Instance, want: bool) -> str | None:
    if want or not inst.history:
        return None
    return (f"needs a deal before its first card (no history); this deal has "
            f"{_plural(len(inst.history), 'card')} played")


def _lead(inst: Instance, want: tuple[str, ...]) -> str | None:
    """``want``: the allowed lead modes among ``"any"`` and ``"seat"``."""
    mode = "any" if inst.lead == "any" else "rocket" if inst.lead == "rocket" else "seat"
    if mode in want:
        return None
    wanted = " or ".join('a free first lead ("lead": "any")' if w == "any" else "a seat number as first lead"
                         for w in want)
    return f"needs {wanted}; this deal has lead {inst.lead!r}"


def _players(inst: Instance, want: int) -> str | None:
    if inst.players == want:
        return None
    return f"needs {want} players; this deal has {inst.players}"


def _tasks(inst: Instance, want: int) -> str | None:
    if len(inst.tasks) == want:
        return None
    return f"needs exactly {_plural(want, 'task')}; this deal has {len(inst.tasks)}"


def _owned(inst: Instance, want: bool) -> str | None:
    if not want:
        return None
    for j, t in enumerate(inst.tasks):
        holder = inst.holder[t.card]
        if t.seat is not None and holder != t.seat:
            return (f"needs every task card held by the task's own seat; tasks[{j}] card "
                    f"{str(inst.card(t.card))!r} is for seat {t.seat} but held by seat {holder}")
    return None


def _rectangular(inst: Instance, want: bool) -> str | None:
    if not want:
        return None
    sizes = {len(v) for v in inst.deck.values}
    if len(sizes) != 1:
        detail = ", ".join(f"{s}: {len(v)}" for s, v in zip(inst.deck.suits, inst.deck.values))
        return f"needs every suit to have the same number of values; this deal has {detail}"
    return None


def _equal_hands(inst: Instance, want: bool) -> str | None:
    if not want:
        return None
    sizes = [h.bit_count() for h in inst.hands]
    if len(set(sizes)) != 1:
        return f"needs hands of equal size; this deal has {'/'.join(map(str, sizes))}"
    return None


def _task_leads(inst: Instance, want: bool) -> str | None:
    """The seat of the (single) task leads the first trick (Witteveen's player 1)."""
    if not want or not inst.tasks:
        return None
    seat = inst.tasks[0].seat
    if inst.lead == seat:
        return None
    return (f"needs the task's seat to lead the first trick (Witteveen's player 1); this deal has "
            f"lead {inst.lead!r} and the task at seat {seat}")


CHECKS: dict[str, Check] = {
    "history": _history,
    "assignment": _assignment,
    "trumps": _trumps,
    "tokens": _tokens,
    "players": _players,
    "tasks": _tasks,
    "suits": _suits,
    "values": _values,
    "rectangular": _rectangular,
    "equal_hands": _equal_hands,
    "lead": _lead,
    "task_leads": _task_leads,
    "owned": _owned,
}
"""Every known condition, in the order they are checked (cheap and general first)."""


def class_reason(name: str, instance: Instance, conditions: dict[str, Any]) -> str | None:
    """The first failing condition as ``"<name> needs ...; this deal has ..."``, or ``None``.
    No decider of a class plays covered cards (JARVIS's columns): they change who may
    follow suit, which every published algorithm takes as given."""
    if instance.covered:
        return f"{name} needs a deal without covered cards; this deal has {len(instance.covered)}"
    for key, check in CHECKS.items():
        if key in conditions:
            why = check(instance, conditions[key])
            if why is not None:
                return f"{name} {why}"
    return None


def requires(**conditions: Any) -> Callable[[T], T]:
    """Class decorator declaring a decider's class of deals.

    Adds ``supports(instance)`` (the first failing condition, or ``None``), wraps
    ``decide`` to raise :class:`NotApplicableError` outside the class, and records the
    conditions as ``cls.conditions``. Keys are those of :data:`CHECKS`.

    Examples
    --------
    >>> @requires(suits=1)
    ... class OneSuit:
    ...     name = "one_suit"
    ...     def decide(self, instance, *, budget): ...
    >>> from crewcheck.formats.deal_json import loads
    >>> OneSuit().supports(loads('{"hands": [["B1"], ["G1"]], "tasks": []}'))
    'one_suit needs one suit; this deal has 2'
    """
    unknown = sorted(set(conditions) - set(CHECKS))
    if unknown:
        raise TypeError(f"unknown class condition(s): {', '.join(unknown)}")

    def decorate(cls: T) -> T:
        def supports(self: Any, instance: Instance) -> str | None:
            return class_reason(self.name, instance, conditions)

        inner = cls.decide  # type: ignore[attr-defined]

        @wraps(inner)
        def decide(self: Any, instance: Instance, **kwargs: Any) -> Any:
            why = supports(self, instance)
            if why is not None:
                raise NotApplicableError(why)
            return inner(self, instance, **kwargs)

        supports.__doc__ = "``None`` if the deal is in this decider's class, else the first failing condition."
        cls.supports = supports  # type: ignore[attr-defined]
        cls.decide = decide  # type: ignore[attr-defined]
        cls.conditions = dict(conditions)  # type: ignore[attr-defined]
        return cls

    return decorate
