"""What the rules engine reads of a deal: the :class:`Deal` and :class:`Table` Protocols.

:class:`~crewcheck.model.instance.Instance` is the one deal there is, and it implements
both. The rules engine (:mod:`.state`), the conditions (:mod:`.conditions`) and the
outcome (:mod:`.outcome`) are typed against these Protocols rather than against
``Instance``, because ``Instance`` depends on them: it holds conditions and its
constructor replays the history with the engine to reject an illegal one. So the model's
imports form a one-way chain, cards/rules/tasks -> conditions -> deal -> outcome ->
state -> instance, with no circle at run time or for the type checker.
"""

from __future__ import annotations

from typing import Literal, Protocol, TypeAlias

from crewcheck.model.cards import Mask
from crewcheck.model.conditions.base import Condition, Table
from crewcheck.model.rules import Cover, Rules
from crewcheck.model.tasks import Task

__all__ = ["Seat", "Lead", "Table", "Deal"]

Seat: TypeAlias = int
"""A seat number, ``0..p-1`` in play order."""

Lead: TypeAlias = "int | Literal['rocket', 'any']"
"""First lead: a seat, ``"rocket"`` (holder of the highest trump: the commander) or
``"any"`` (free first lead, Reiber's model: the solver chooses)."""


class Deal(Table, Protocol):
    """A deal as the rules engine reads it (see the module docstring); the fields and
    derived facts of :class:`~crewcheck.model.instance.Instance` of the same names."""

    @property
    def hands(self) -> tuple[Mask, ...]: ...
    @property
    def tasks(self) -> tuple[Task, ...]: ...
    @property
    def lead(self) -> Lead: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def history(self) -> tuple[int, ...]: ...
    @property
    def conditions(self) -> tuple[Condition, ...]: ...
    @property
    def quota(self) -> tuple[int, ...] | None: ...
    @property
    def distress(self) -> Literal["left", "right", "choose"] | None: ...
    @property
    def token_move(self) -> Literal["swap", "move"] | None: ...
    @property
    def handover(self) -> bool: ...
    @property
    def first_leader(self) -> Seat | None: ...
    @property
    def commander(self) -> Seat: ...
    @property
    def task_counts(self) -> tuple[int, ...] | None: ...
    @property
    def task_mask(self) -> Mask: ...
    @property
    def covered(self) -> tuple[Cover, ...]: ...
