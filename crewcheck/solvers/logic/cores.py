"""Why a position cannot be won: an unsatisfiable set of task assumptions shrunk to a
minimal one (:func:`minimise_core`) and said in words (:func:`explain_core`). The tasks
outside a set are left open, not negated: unsatisfiable under a set means that no deal
with those tasks and any of the others can be won (so neither the deal with only them
nor the whole deal), and dropping a task can only make the formula satisfiable, which
deletion relies on (see :mod:`.encoding`, "Exact")."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from crewcheck.model.instance import Instance

__all__ = ["describe_tasks", "explain_core", "minimise_core"]


def describe_tasks(instance: Instance, tasks: Iterable[int]) -> str:
    """``"G7@1, P9@0"``: tasks as card@seat (card alone under free assignment)."""
    out = []
    for k in sorted(tasks):
        t = instance.tasks[k]
        text = str(instance.deck.card(t.card))
        if t.seat is not None:
            text += f"@{t.seat}"
        if t.token is not None:
            text += f"[{t.token}]"
        out.append(text)
    return ", ".join(out)


def explain_core(instance: Instance, core: Sequence[int]) -> str:
    """The explanation for a minimised core of tasks (``"tasks G7@1, P9@0 cannot all be completed"``)."""
    if not core:
        return "the position cannot be won whatever the tasks"
    what = describe_tasks(instance, core)
    if len(core) == 1:
        return f"task {what} cannot be completed"
    return f"tasks {what} cannot all be completed"


def minimise_core(core: Sequence[int], is_unsat: Callable[[list[int]], Sequence[int] | bool | None],
                  expired: Callable[[], bool] = lambda: False) -> list[int]:
    """Shrink an unsatisfiable set of assumptions by deletion.

    ``is_unsat(subset)`` answers whether the formula is unsatisfiable under ``subset``:
    falsy for satisfiable or unknown, ``True``, or better the solver's new core (a subset
    of ``subset``), which then replaces the working set. Each member is dropped in turn if
    the rest stays unsatisfiable; the result is minimal unless ``expired()`` cut the loop
    short.
    """
    keep = list(core)
    i = 0
    while i < len(keep):
        if expired():
            break
        trial = keep[:i] + keep[i + 1:]
        got = is_unsat(trial)
        if got is True:
            keep = trial
        elif got:
            smaller = set(got)
            # members confirmed necessary (before i) are in every core of a subset
            keep = [k for k in trial if k in smaller]
        else:
            i += 1
    return keep
