"""The set-up as a phase of the game: the crew's choices before the first card, made on
the board one at a time, each option with its own verdict.

A deal before its first card may leave the crew choices (:mod:`crewcheck.model.variants`:
the chosen crew member, the token swap or move, the commander's decision or
distribution, the five-player hand-over; before them the distress signal's direction
and passes, :mod:`crewcheck.web.distress`) and then the draft (free assignment: the
commander takes a task first, then each seat clockwise while it has room). The board
offers them as steps, in the order of :data:`STEPS` and then the draft, one step at a
time: :func:`setup_step` answers the next step after the picks made so far, with the
verdict of each option ("some way to go on from this pick wins"), or, once nothing is
left to choose, the deal to play (every choice made, every task at its seat).

Every choice kind is a row of :data:`CHOICE_KINDS`: whether the deal has it, the value
of a :class:`~crewcheck.model.variants.Choice` for it and its words, so one loop serves
every kind. A choice option's verdict decides the deals (the variants) that agree with
the picks and the option, until one is won; a draft option's verdict is one SAT call
under assumptions (:func:`crewcheck.analysis.seats.draft_verdicts`).

Picks travel as the option ``value`` strings this module writes (JSON text of the
choice's value), the draft as the task cards in the order they were taken.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from crewcheck.api import decide
from crewcheck.errors import InvalidInputError, NotApplicableError
from crewcheck.formats import deal_json
from crewcheck.model.instance import Instance, Seat
from crewcheck.model.variants import Choice, count_variants, variants
from crewcheck.solvers.base import Budget, Verdict, Witness
from crewcheck.web.distress import after_signal, signal_picks, signal_step
from crewcheck.web.words import words

__all__ = ["ChoiceKind", "CHOICE_KINDS", "STEPS", "MAX_SETUP_VARIANTS", "setup_step", "engine_setup",
           "draft_order", "has_setup", "line_deal"]

MAX_SETUP_VARIANTS = 5000
"""The most variants a deal may have for its choices to be offered on the board (a
distress signal's passes are steps of their own, :mod:`crewcheck.web.distress`, and do
not count: the other choices follow on the deal after the passes). Mission 40 with five
players and the commander's distribution has 1,520 (16 token moves, 19 distributions,
5 hand-overs): each step decides only its own options, and an option's verdict stops at
the first deal of its group that is won, so a step costs one decision per option where
some way on wins, and its group's decisions where none does."""


@dataclass(frozen=True)
class ChoiceKind:
    """One kind of crew choice as the board offers it."""

    title: str
    """The step's heading."""
    applies: Callable[[Instance], bool]
    """Whether the deal leaves the crew this choice."""
    value: Callable[[Choice, Instance, Instance], Any]
    """The option a variant stands for: ``(choice, deal, variant) -> JSON value``."""
    label: Callable[[Instance, Any], str]
    """The option in a player's words."""


def _described(field: str, none: str) -> Callable[[Instance, Any], str]:
    """The words of a choice with only ``field`` set (``none`` for no such choice)."""

    def label(instance: Instance, value: Any) -> str:
        if value is None:
            return none
        made: dict[str, Any] = {field: tuple(value) if isinstance(value, list) else value}
        return words(Choice(**made).describe(instance)) or none

    return label


def _handover(choice: Choice, instance: Instance, variant: Instance) -> Any:
    """The hand-over: ``[giver, receiver]``; under fixed assignment also the task card
    that changes seat (the variants differ in it)."""
    if choice.handover is None:
        return None
    if instance.rules.assignment != "fixed":
        return list(choice.handover)
    moved = [str(instance.card(t.card)) for t, u in zip(instance.tasks, variant.tasks) if t.seat != u.seat]
    return [*choice.handover, *moved[:1]]


def _seats_words(value: Any) -> str:
    """``[["choose", 2]]`` -> "the chosen crew member is seat 3"; ``"choose_any:first"`` -> "first: seat 1"."""
    out = []
    for name, seat in value:
        role = str(name).partition(":")[2]
        out.append(f"{role}: seat {seat + 1}" if role else f"the chosen crew member is seat {seat + 1}")
    return ", ".join(out)


def _handover_words(instance: Instance, value: Any) -> str:
    if value is None:
        return "no hand-over"
    if len(value) == 3:
        return f"seat {value[0] + 1} hands {value[2]} to seat {value[1] + 1}"
    return f"seat {value[0] + 1} hands a task to seat {value[1] + 1}"


CHOICE_KINDS: dict[str, ChoiceKind] = {
    "seats": ChoiceKind(
        "The commander picks a crew member",
        lambda i: any(c.choices() for c in i.conditions),
        lambda c, i, v: [list(s) for s in c.seats], lambda i, value: _seats_words(value)),
    "token_move": ChoiceKind(
        "The crew may move the task tokens",
        lambda i: i.token_move is not None,
        lambda c, i, v: None if c.token_move is None else list(c.token_move),
        _described("token_move", "the tokens stay where they are")),
    "recipient": ChoiceKind(
        "The commander decides who takes every task",
        lambda i: i.rules.assignment == "decision",
        lambda c, i, v: c.recipient, _described("recipient", "")),
    "quota": ChoiceKind(
        "The commander distributes the tasks",
        lambda i: i.rules.assignment == "distribution",
        lambda c, i, v: None if c.quota is None else list(c.quota),
        lambda i, q: ", ".join(f"seat {s + 1} takes {n or 'none'}" for s, n in enumerate(q))),
    "handover": ChoiceKind(
        "A crew member may hand one task to another",
        lambda i: bool(i.handover and i.tasks),
        _handover, _handover_words),
}
"""Choice kind -> how the board offers it (one row per field of
:class:`~crewcheck.model.variants.Choice` the crew chooses; the distress signal's
direction and passes are steps of :mod:`crewcheck.web.distress`, before these)."""
STEPS = tuple(CHOICE_KINDS)
"""The order in which the board asks for the choices."""


def has_setup(instance: Instance) -> bool:
    """Whether the deal leaves the crew something to choose before its first card."""
    if instance.distress is not None and not instance.history:
        return True
    if instance.history or not instance.tasks and not any(c.choices() for c in instance.conditions):
        return False
    return instance.rules.assignment != "fixed" or any(k.applies(instance) for k in CHOICE_KINDS.values())


def _key(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def draft_order(instance: Instance) -> list[Seat]:
    """The seat that takes each task of the draft in turn: the commander first, then
    clockwise, each seat while it has room (:attr:`Instance.task_counts`)."""
    counts = list(instance.task_counts or ())
    order: list[Seat] = []
    seat = instance.commander
    while counts and len(order) < sum(instance.task_counts or ()):
        if counts[seat] > 0:
            order.append(seat)
            counts[seat] -= 1
        seat = (seat + 1) % instance.players
    return order


def _step(name: str, title: str, options: list[dict[str, Any]], made: list[str], **extra: Any) -> dict[str, Any]:
    return {"step": name, "title": title, "options": options, "made": made, "deal": None, **extra}


def _choice_step(instance: Instance, kinds: list[str], picks: Mapping[str, str], budget: Budget,
                 progress: Callable[..., None]) -> tuple[dict[str, Any] | None, Instance | None, list[str]]:
    """The next choice kind's step, or (when every kind is picked) the deal chosen."""
    if count_variants(instance) > MAX_SETUP_VARIANTS:
        raise NotApplicableError(f"the crew has more than {MAX_SETUP_VARIANTS} choices: the engine chooses")
    left = [(c, v, {k: _key(CHOICE_KINDS[k].value(c, instance, v)) for k in kinds}) for c, v in variants(instance)]
    made: list[str] = []
    for kind in kinds:
        row = CHOICE_KINDS[kind]
        if kind not in picks:
            groups: dict[str, list[Instance]] = {}
            for _, variant, values in left:
                groups.setdefault(values[kind], []).append(variant)
            options = []
            for n, (value, group) in enumerate(groups.items()):
                progress(n, len(groups), row.label(instance, json.loads(value)))
                verdict = Verdict.UNWINNABLE
                for variant in group:
                    if budget.cancel is not None and budget.cancel():
                        verdict = Verdict.UNKNOWN
                        break
                    got = decide(variant, budget=budget).verdict
                    if got is Verdict.WINNABLE:
                        verdict = got
                        break
                    if got is Verdict.UNKNOWN:
                        verdict = got
                options.append({"value": value, "label": row.label(instance, json.loads(value)),
                                "verdict": verdict.value})
            return _step(kind, row.title, options, made), None, made
        chosen = [x for x in left if x[2][kind] == picks[kind]]
        if not chosen:
            raise InvalidInputError(f"{picks[kind]!r} is not an option of this step", field=f"picks.{kind}")
        left = chosen
        made.append(row.label(instance, json.loads(picks[kind])))
    return None, left[0][1], made


def _draft_step(concrete: Instance, draft: Sequence[str], made: list[str], budget: Budget,
                progress: Callable[..., None]) -> tuple[dict[str, Any] | None, Instance]:
    """The draft's next pick, or (every task taken) the deal with the tasks' seats fixed."""
    from crewcheck.analysis.seats import draft_verdicts

    order = draft_order(concrete)
    index = {str(concrete.card(t.card)): i for i, t in enumerate(concrete.tasks)}
    taken: dict[int, Seat] = {}
    for n, card in enumerate(draft):
        if card not in index or index[card] in taken or n >= len(order):
            raise InvalidInputError(f"{card!r} is not a task left to draft", field=f"draft[{n}]")
        taken[index[card]] = order[n]
        made.append(f"seat {order[n] + 1} takes {card}")
    if len(taken) == len(concrete.tasks):
        return None, concrete.with_assignment([taken[i] for i in range(len(concrete.tasks))])
    seat = order[len(taken)]
    candidates = [i for i in range(len(concrete.tasks)) if i not in taken]
    progress(0, 1, f"the draft: seat {seat}'s pick")
    verdicts = draft_verdicts(concrete, taken, seat, candidates, timeout=budget.seconds, cancel=budget.cancel)
    options = [{"value": str(concrete.card(concrete.tasks[i].card)), "label": str(concrete.card(concrete.tasks[i].card)),
                "verdict": verdicts[i].value} for i in candidates]
    return _step("draft", f"The draft: seat {seat + 1} takes a task", options, made, seat=seat), concrete


def setup_step(instance: Instance, picks: Mapping[str, str], draft: Sequence[str], *, timeout: float | None,
               cancelled: Callable[[], bool], progress: Callable[..., None]) -> dict[str, Any] | None:
    """The set-up after ``picks`` (choice kind -> option value) and ``draft`` (task cards
    in the order taken): ``{"step", "title", "options": [{"value", "label", "verdict"}],
    "made": [the picks in words], "deal": None}`` for the next step (``"seat"``: the
    drafting or passing seat, from 0), or ``{"step": None, "made", "deal"}`` with the deal
    file's dict of the game as chosen. ``None`` for a deal with nothing to choose. A
    distress signal comes first (:func:`crewcheck.web.distress.signal_step`), then the
    other choices on the deal after its passes. A pick that is no option raises
    :class:`InvalidInputError` naming it."""
    if not has_setup(instance):
        return None
    budget = Budget(seconds=timeout, cancel=cancelled)
    made: list[str] = []
    if instance.distress is not None:
        step, instance, made = signal_step(instance, picks, budget, progress)
        if step is not None:
            return step
    kinds = [k for k in STEPS if CHOICE_KINDS[k].applies(instance)]
    concrete: Instance | None = instance
    if kinds:
        step, concrete, more = _choice_step(instance, kinds, picks, budget, progress)
        if step is not None:
            step["made"] = made + step["made"]
            return step
        made += more
    assert concrete is not None
    if concrete.rules.assignment == "free" and concrete.tasks:
        step, concrete = _draft_step(concrete, draft, made, budget, progress)
        if step is not None:
            return step
    return {"step": None, "title": "", "options": [], "made": made, "deal": deal_json.to_dict(concrete)}


def _line_variant(instance: Instance, witness: Witness) -> Instance:
    """The variant of ``instance`` (its history kept) whose choices the line ``witness``
    makes; ``instance`` itself when it leaves no choice."""
    choice = witness.choice or Choice()
    seats = witness.assignment
    for c, v in variants(instance) if not instance.is_concrete() else ():
        if replace(c, passes=None, direction=None) == replace(choice, passes=None, direction=None) and (
                choice.handover is None or instance.rules.assignment != "fixed"
                or seats is None or tuple(t.seat for t in v.tasks) == tuple(seats)):
            return v
    return instance


def line_deal(instance: Instance, witness: Witness) -> Instance | None:
    """The deal the winning line ``witness`` plays: every choice it makes made and, under
    free assignment, every task at the seat that takes it in the line (fixed assignment);
    ``None`` when the line leaves a task's seat open."""
    variant = _line_variant(instance, witness)
    if variant.rules.assignment == "free" and variant.tasks:
        seats = witness.assignment
        if seats is None or len(seats) != len(variant.tasks) or any(s < 0 for s in seats):
            return None
        return variant.with_assignment(seats)
    return variant if variant.is_concrete() else None


def engine_setup(instance: Instance, witness: Witness | None) -> dict[str, Any] | None:
    """The choices a winning line of a deal before its first card makes, as the board's
    option values: ``{"picks": {kind: value}, "draft": [task cards in draft order]}``
    (the draft only when the line gives every task a seat); ``None`` without a line or
    without a set-up."""
    if witness is None or not has_setup(instance):
        return None
    choice = witness.choice or Choice()
    picks: dict[str, str] = {}
    if instance.distress is not None:
        if choice.direction is None or choice.passes is None:
            return None
        picks = signal_picks(instance, choice)
        instance = after_signal(instance, choice.direction, choice.passes)
        if not has_setup(instance):
            return {"picks": picks, "draft": []}
    if count_variants(instance) > MAX_SETUP_VARIANTS:
        return {"picks": picks, "draft": []} if picks else None
    seats = witness.assignment
    variant = _line_variant(instance, witness)
    for kind in STEPS:
        if CHOICE_KINDS[kind].applies(instance):
            picks[kind] = _key(CHOICE_KINDS[kind].value(choice, instance, variant))
    draft: list[str] = []
    if variant.rules.assignment == "free" and seats is not None and all(s >= 0 for s in seats):
        pending = list(range(len(variant.tasks)))
        for seat in draft_order(variant):
            k = next((i for i in pending if seats[i] == seat), None)
            if k is None:
                draft = []
                break
            pending.remove(k)
            draft.append(str(variant.card(variant.tasks[k].card)))
    return {"picks": picks, "draft": draft}
