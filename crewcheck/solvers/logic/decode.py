"""A model of the encoding back to cards: the winning continuation and, under free
assignment, the seat of every task (:func:`decode`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from crewcheck.errors import BackendError, IllegalPlayError, InvalidDealError
from crewcheck.model.cards import CardIndex, iter_bits
from crewcheck.model.instance import Seat, seats_from
from crewcheck.model.variants import passed_hands
from crewcheck.solvers.logic.formula import Lit
from crewcheck.solvers.logic.position import Encoding

__all__ = ["decode", "passes_of"]


def decode(enc: Encoding, value: Callable[[Lit], bool]) -> tuple[tuple[CardIndex, ...], tuple[Seat, ...] | None]:
    """The winning continuation and (free assignment) task seats in a model.

    ``value(var)`` is the model's value of a variable. The line is cut when the game
    ends (the trick that completes the last task), as the rules stop there.
    """
    pos, v = enc.position, enc.vars
    inst, p = pos.instance, pos.instance.players
    line: list[CardIndex] = []
    leader = pos.leader
    if leader is None:
        leader = _the_seat(p, lambda s: value(v.lead[(pos.first, s)]), f"the leader of trick {pos.first + 1}")
    played: dict[int, dict[Seat, CardIndex]] = {t: {} for t in pos.tricks}
    for (t, s, c), var in v.play.items():
        if value(var):
            played[t][s] = c
    for t in pos.tricks:
        by_seat = played[t]
        for s in seats_from(leader, p):
            if t == pos.first and s in pos.fixed:
                continue
            if s not in by_seat:
                raise BackendError(f"the model has no card for seat {s} in trick {t + 1}")
            line.append(by_seat[s])
        leader = _the_seat(p, lambda s: value(v.winner[(t, s)]), f"the winner of trick {t + 1}")
    if pos.passing is not None:
        try:
            inst = replace(inst, hands=passed_hands(inst, pos.passing.direction, passes_of(enc, value)),
                           distress=None)
        except InvalidDealError as e:
            raise BackendError(f"the model's distress passes make no deal: {e}") from None
    state = inst.state()
    plays: list[CardIndex] = []
    for c in line:
        if state.is_terminal():
            break
        try:
            state = state.apply(c)
        except IllegalPlayError as e:
            raise BackendError(f"the model decodes to an illegal line: {e}") from None
        plays.append(c)
    assignment = None
    if pos.quotas is not None:
        seats = list(pos.history_owners or (-1,) * len(inst.tasks))
        for k in pos.tasks:
            seats[k] = _the_seat(p, lambda s: value(v.owner[(k, s)]), f"the seat of task {k}")
        assignment = tuple(seats)
    return tuple(plays), assignment


def _the_seat(players: int, is_it: Callable[[Seat], bool], what: str) -> Seat:
    """The one seat ``is_it`` says yes to (a model of the encoding has exactly one)."""
    for s in range(players):
        if is_it(s):
            return s
    raise BackendError(f"the model names no seat as {what}")


def passes_of(enc: Encoding, value: Callable[[Lit], bool]) -> tuple[CardIndex, ...]:
    """A distress signal's passes in a model: the card each seat passes (``-1``: none)."""
    passing = enc.position.passing
    assert passing is not None
    out = []
    for s in range(len(passing.own)):
        given = [c for c in iter_bits(passing.out[s]) if value(enc.vars.passes[(s, c)])]
        out.append(given[0] if given else -1)
    return tuple(out)
