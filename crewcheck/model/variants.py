"""Deals the crew still has choices in, expanded into the concrete deals the deciders take.

Three rules leave a choice to the crew before play:

* a condition seat ``"choose"`` (*the commander picks a crew member*): any seat other
  than the commander; every ``"choose"`` of one deal names the same chosen seat;
* the commander's decision (``"assignment": "decision"``): every task to one crew member
  other than the commander;
* the commander's distribution (``"assignment": "distribution"``): any split of the
  tasks in which nobody holds 2 tasks more than another. Which seats hold the extra
  task is one choice (at most ``C(5, 2) = 10`` of them); which tasks they hold is left
  to free assignment with those counts (:attr:`Instance.quota`).

A deal is winnable when one of its variants is. :func:`variants` lists them; the
:class:`Choice` of a winning variant goes into the witness, and the replay checker
re-checks it against the original rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import partial
from itertools import combinations, product

from crewcheck.errors import InvalidDealError
from crewcheck.model.conditions import CHOOSE, CHOOSE_ANY, Condition
from crewcheck.model.cards import CardIndex, iter_bits
from crewcheck.model.instance import Instance, Seat
from crewcheck.model.state import State
from crewcheck.model.rules import Rules
from crewcheck.model.tasks import Task

__all__ = ["Choice", "variants", "count_variants", "passed_hands", "play_variant", "play_state"]


@dataclass(frozen=True, slots=True)
class Choice:
    """What the crew chose before play (``None`` where nothing was left to choose)."""

    seats: tuple[tuple[str, Seat], ...] = ()
    """The seat of every choice the conditions name (``"choose"``: a crew member other
    than the commander; ``"choose_any:<name>"``: any seat)."""
    recipient: Seat | None = None
    """Commander's decision: who takes every task."""
    quota: tuple[int, ...] | None = None
    """Commander's distribution: tasks per seat."""
    direction: int | None = None
    """Distress signal: ``+1`` every seat passes to the next seat in play order (left),
    ``-1`` to the previous one (right)."""
    passes: tuple[CardIndex, ...] | None = None
    """Distress signal: the card each seat passes (``-1``: it holds only trumps)."""

    def describe(self, instance: Instance | None = None) -> str:
        parts = []
        if self.passes is not None and self.direction is not None:
            way = "left" if self.direction == 1 else "right"
            names = [str(instance.deck.card(c)) if instance is not None else str(c) for c in self.passes
                     if c >= 0]
            seats = [s for s, c in enumerate(self.passes) if c >= 0]
            parts.append(f"distress signal to the {way}: " + ", ".join(
                f"seat {s} passes {n}" for s, n in zip(seats, names)))
        for name, seat in self.seats:
            who = "the chosen crew member" if name == CHOOSE else f"{name[len(CHOOSE_ANY):]!r}"
            parts.append(f"{who} is seat {seat}")
        if self.recipient is not None:
            parts.append(f"the commander gives every task to seat {self.recipient}")
        if self.quota is not None:
            parts.append("tasks per seat " + "/".join(map(str, self.quota)))
        return "; ".join(parts)

    def is_empty(self) -> bool:
        return not self.seats and self.recipient is None and self.quota is None and self.passes is None


def _crew(instance: Instance) -> list[Seat]:
    return [s for s in range(instance.players) if s != instance.commander]


def _quotas(instance: Instance) -> list[tuple[int, ...]]:
    p, k = instance.players, len(instance.tasks)
    low, extra = divmod(k, p)
    out = []
    for top in combinations(range(p), extra):
        out.append(tuple(low + (s in top) for s in range(p)))
    return out


def _choices(instance: Instance) -> list[tuple[tuple[str, Seat], ...]]:
    """Every assignment of seats to the deal's choices."""
    names = sorted(set().union(*(c.choices() for c in instance.conditions)))
    options = [_crew(instance) if n == CHOOSE else list(range(instance.players)) for n in names]
    return [tuple(zip(names, pick)) for pick in product(*options)]


def _passable(instance: Instance) -> list[list[CardIndex]]:
    """Per seat, the cards it may pass (no trump); ``[-1]`` for a seat with only trumps."""
    trumps = 0 if instance.trump_suit is None else instance.deck.suit_mask(instance.trump_suit)
    return [list(iter_bits(h & ~trumps)) or [-1] for h in instance.hands]


def _directions(instance: Instance) -> list[int]:
    return {"left": [1], "right": [-1], "choose": [1, -1]}[instance.distress or "left"]


def passed_hands(instance: Instance, direction: int, passes: tuple[CardIndex, ...]) -> tuple[int, ...]:
    """The hands after every seat passed its card to the neighbour ``direction`` away."""
    p = instance.players
    hands = list(instance.hands)
    for s, c in enumerate(passes):
        if c >= 0:
            hands[s] &= ~(1 << c)
    for s, c in enumerate(passes):
        if c >= 0:
            hands[(s + direction) % p] |= 1 << c
    return tuple(hands)


def count_variants(instance: Instance) -> int:
    n = len(_choices(instance))
    if instance.distress is not None:
        n *= len(_directions(instance))
        for cards in _passable(instance):
            n *= len(cards)
    mode = instance.rules.assignment
    if mode == "decision":
        n *= len(_crew(instance))
    elif mode == "distribution":
        n *= len(_quotas(instance))
    return n


def variants(instance: Instance) -> Iterator[tuple[Choice, Instance]]:
    """Every concrete deal the crew may choose, with its :class:`Choice`.

    A concrete deal yields itself once with an empty choice. Variants that the deal's
    history has already lost before its last card are left out. With a distress signal
    the passes come first (direction, then one card per seat, in card order).
    """
    if instance.distress is not None:
        for direction in _directions(instance):
            for passes in product(*_passable(instance)):
                try:
                    base = replace(instance, hands=passed_hands(instance, direction, passes), distress=None)
                except InvalidDealError:  # a hand emptied (its seat held only trumps)
                    continue
                for choice, concrete in variants(base):
                    yield replace(choice, direction=direction, passes=tuple(passes)), concrete
        return
    for choice, make in _makers(instance):
        try:
            yield choice, make()
        except InvalidDealError:  # the history broke this variant's rule earlier on
            continue


def _makers(instance: Instance) -> Iterator[tuple[Choice, Callable[[], Instance]]]:
    for seat in _choices(instance):
        conds = tuple(c.with_choices(dict(seat)) for c in instance.conditions) if seat else instance.conditions
        mode = instance.rules.assignment
        if mode == "decision":
            for r in _crew(instance):
                yield Choice(seat, recipient=r), partial(_decision, instance, conds, r)
        elif mode == "distribution":
            for q in _quotas(instance):
                yield Choice(seat, quota=q), partial(
                    Instance, instance.deck, instance.hands, instance.tasks, instance.trump, instance.lead,
                    Rules(instance.rules.order_rule, "free"), instance.history, conds, q)
        else:
            yield Choice(seat), partial(
                Instance, instance.deck, instance.hands, instance.tasks, instance.trump, instance.lead,
                instance.rules, instance.history, conds, instance.quota)


def _decision(instance: Instance, conds: tuple[Condition, ...], recipient: Seat) -> Instance:
    tasks = tuple(Task(t.card, recipient, t.token) for t in instance.tasks)
    return Instance(instance.deck, instance.hands, tasks, instance.trump, instance.lead,
                    Rules(instance.rules.order_rule, "fixed"), instance.history, conds)


def play_variant(instance: Instance) -> Instance:
    """A concrete deal with the rules of play of ``instance``: itself, or, when its
    conditions leave the crew a choice of seat (:mod:`crewcheck.model.variants`), the
    first choice whose game is not over after the history (else the first choice).
    Legal plays and trick winners do not depend on the choice; the deciders try every
    choice."""
    if instance.is_concrete():
        return instance
    first = None
    for _, variant in variants(instance):
        if variant.state().end is None:
            return variant
        first = first or variant
    return first if first is not None else instance.without_choices()


def play_state(instance: Instance) -> State:
    """The position after the history, for the rules of play (:func:`play_variant`)."""
    return play_variant(instance).state()
