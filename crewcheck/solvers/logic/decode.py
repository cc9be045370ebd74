"""A model of the encoding back to cards: the winning continuation and, under free
assignment, the seat of every task (:func:`decode`)."""

from __future__ import annotations

from collections.abc import Callable

from crewcheck.errors import BackendError, IllegalPlayError
from crewcheck.model.cards import CardIndex
from crewcheck.model.instance import Seat, seats_from
from crewcheck.solvers.logic.formula import Lit
from crewcheck.solvers.logic.position import Encoding

__all__ = ["decode"]


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
        leader = next(s for s in range(p) if value(v.lead[(pos.first, s)]))
    played: dict[int, dict[Seat, CardIndex]] = {t: {} for t in pos.tricks}
    for (t, s, c), var in v.play.items():
        if value(var):
            played[t][s] = c
    for t in pos.tricks:
        by_seat = played[t]
        for s in seats_from(leader, p):
            if t == pos.first and s in pos.fixed:
                continue
            line.append(by_seat[s])
        leader = next(s for s in range(p) if value(v.winner[(t, s)]))
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
            seats[k] = next(s for s in range(p) if value(v.owner[(k, s)]))
        assignment = tuple(seats)
    return tuple(plays), assignment
