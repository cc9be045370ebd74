"""Deals the crew still has choices in, expanded into the concrete deals the deciders take.

Five rules leave a choice to the crew before play:

* a condition seat ``"choose"`` (*the commander picks a crew member*): any seat other
  than the commander; every ``"choose"`` of one deal names the same chosen seat;
* the commander's decision (``"assignment": "decision"``): every task to one crew member
  other than the commander;
* the commander's distribution (``"assignment": "distribution"``): any split of the
  tasks in which nobody holds 2 tasks more than another. Which seats hold the extra
  task is one choice (at most ``C(5, 2) = 10`` of them); which tasks they hold is left
  to free assignment with those counts (:attr:`Instance.quota`);
* the token move (``"token_move"``): leave the tokens, or swap the tokens of two tasks
  (``"swap"``: ``C(k, 2)`` options, 10 with 5 tasks) or move one token to a task without
  one (``"move"``: tokens x untokened tasks, 15 with 8 tasks and 3 tokens); a plain
  rewrite of the tasks' tokens;
* the five-player hand-over (``"handover"``): no hand-over, or one seat hands one of its
  tasks to another. Under free assignment (the draft, the commander's decision and
  distribution, which are free assignment with per-seat counts) this is a choice of
  counts: the giver's count one lower, the receiver's one higher (the tasks themselves
  stay free); under fixed assignment, one task's seat changes.

A deal is winnable when one of its variants is. :func:`variants` lists them (the
choice that changes nothing first); the :class:`Choice` of a winning variant goes into
the witness, and the replay checker re-checks it against the original rule.
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

__all__ = ["Choice", "variants", "count_variants", "token_moves", "moved_tokens", "passed_hands",
           "passable_cards", "signal_directions",
           "variant_assignment", "play_variant", "play_state"]


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
    token_move: tuple[int, int] | None = None
    """Token move: ``(i, j)``, task indices: the tokens of tasks ``i`` and ``j`` swapped
    (``"swap"``), or task ``i``'s token moved to task ``j`` (``"move"``)."""
    handover: tuple[Seat, Seat] | None = None
    """Five-player rule: ``(giver, receiver)`` of the task handed over."""

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
        if self.token_move is not None:
            i, j = self.token_move
            if instance is not None:
                a, b = (str(instance.deck.card(instance.tasks[x].card)) for x in (i, j))
                verb = "moves the token of" if instance.token_move == "move" else "swaps the tokens of"
                link = "to" if instance.token_move == "move" else "and"
                parts.append(f"the crew {verb} {a} {link} {b}")
            else:
                parts.append(f"tokens of tasks {i} and {j} moved")
        if self.handover is not None:
            parts.append(f"seat {self.handover[0]} hands a task to seat {self.handover[1]}")
        return "; ".join(parts)

    def is_empty(self) -> bool:
        return (not self.seats and self.recipient is None and self.quota is None and self.passes is None
                and self.token_move is None and self.handover is None)


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


def passable_cards(instance: Instance) -> list[list[CardIndex]]:
    """Per seat, the cards it may pass (no trump); ``[-1]`` for a seat with only trumps."""
    trumps = 0 if instance.trump_suit is None else instance.deck.suit_mask(instance.trump_suit)
    return [list(iter_bits(h & ~trumps)) or [-1] for h in instance.hands]


def signal_directions(instance: Instance) -> tuple[int, ...]:
    """The directions of the distress signal's passes: ``1`` to the left, ``-1`` to the
    right, both when the crew chooses."""
    return {"left": (1,), "right": (-1,), "choose": (1, -1)}[instance.distress or "left"]


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


def token_moves(instance: Instance) -> list[tuple[int, int] | None]:
    """The token choices: ``None`` (no move) first, then ``(i, j)`` as :attr:`Choice.token_move`."""
    out: list[tuple[int, int] | None] = [None]
    k = len(instance.tasks)
    if instance.token_move == "swap":
        out += [(i, j) for i, j in combinations(range(k), 2)
                if instance.tasks[i].token != instance.tasks[j].token]
    elif instance.token_move == "move":
        out += [(i, j) for i in range(k) for j in range(k)
                if instance.tasks[i].token is not None and instance.tasks[j].token is None]
    return out


def moved_tokens(instance: Instance, move: tuple[int, int] | None) -> tuple[Task, ...]:
    """The tasks after the token choice ``move`` (:func:`token_moves`)."""
    if move is None:
        return instance.tasks
    i, j = move
    tokens = [t.token for t in instance.tasks]
    if instance.token_move == "swap":
        tokens[i], tokens[j] = tokens[j], tokens[i]
    else:
        tokens[i], tokens[j] = None, tokens[i]
    return tuple(Task(t.card, t.seat, tok) for t, tok in zip(instance.tasks, tokens))


def _handovers(instance: Instance, counts: tuple[int, ...]) -> list[tuple[Seat, Seat] | None]:
    """No hand-over, then every (giver, receiver) the counts allow (the giver holds a task)."""
    p = instance.players
    return [None] + [(a, b) for a in range(p) for b in range(p) if a != b and counts[a] > 0]


def _moved(counts: tuple[int, ...], handover: tuple[Seat, Seat] | None) -> tuple[int, ...]:
    if handover is None:
        return counts
    a, b = handover
    out = list(counts)
    out[a] -= 1
    out[b] += 1
    return tuple(out)


def count_variants(instance: Instance) -> int:
    """How many variants :func:`variants` tries at most (before dropping those the
    history or an emptied hand rules out)."""
    n = len(token_moves(instance)) * sum(1 for _ in _makers(instance))
    if instance.distress is not None:
        n *= len(signal_directions(instance))
        for cards in passable_cards(instance):
            n *= len(cards)
    return n


def variants(instance: Instance) -> Iterator[tuple[Choice, Instance]]:
    """Every concrete deal the crew may choose, with its :class:`Choice`.

    A concrete deal yields itself once with an empty choice. Variants that the deal's
    history has already lost before its last card are left out. With a distress signal
    the passes come first (direction, then one card per seat, in card order), then the
    token move (none first), then the seats, the assignment and the hand-over (none first).
    """
    if instance.distress is not None:
        for direction in signal_directions(instance):
            for passes in product(*passable_cards(instance)):
                try:
                    base = replace(instance, hands=passed_hands(instance, direction, passes), distress=None)
                except InvalidDealError:  # a hand emptied (its seat held only trumps)
                    continue
                for choice, concrete in variants(base):
                    yield replace(choice, direction=direction, passes=tuple(passes)), concrete
        return
    if instance.token_move is not None:
        for move in token_moves(instance):
            try:
                base = replace(instance, tasks=moved_tokens(instance, move), token_move=None)
            except InvalidDealError:  # the history broke the moved tokens' order
                continue
            for choice, concrete in variants(base):
                yield replace(choice, token_move=move), concrete
        return
    for choice, make in _makers(instance):
        try:
            yield choice, make()
        except InvalidDealError:  # the history broke this variant's rule earlier on
            continue


def _free(instance: Instance, conds: tuple[Condition, ...], quota: tuple[int, ...] | None) -> Instance:
    """Free assignment with these per-seat counts (``None``: the draft's)."""
    return Instance(instance.deck, instance.hands, instance.tasks, instance.trump, instance.lead,
                    Rules(instance.rules.order_rule, "free"), instance.history, conds, quota,
                    covered=instance.covered)


def _makers(instance: Instance) -> Iterator[tuple[Choice, Callable[[], Instance]]]:
    over = instance.handover and bool(instance.tasks)
    k = len(instance.tasks)
    for seat in _choices(instance):
        conds = tuple(c.with_choices(dict(seat)) for c in instance.conditions) if seat else instance.conditions
        mode = instance.rules.assignment
        if mode == "decision":
            for r in _crew(instance):
                yield Choice(seat, recipient=r), partial(_decision, instance, conds, r)
                if over:  # r keeps all but the task it hands to b
                    for b in range(instance.players):
                        if b != r:
                            q = tuple(k - 1 if s == r else int(s == b) for s in range(instance.players))
                            yield Choice(seat, recipient=r, handover=(r, b)), partial(_free, instance, conds, q)
        elif mode == "distribution":
            seen: set[tuple[int, ...]] = set()
            for q in _quotas(instance):
                for h in (_handovers(instance, q) if over else [None]):
                    moved = _moved(q, h)
                    if moved in seen:  # the same counts from another split
                        continue
                    seen.add(moved)
                    yield Choice(seat, quota=q, handover=h), partial(_free, instance, conds, moved)
        elif mode == "free":
            counts = instance.task_counts
            assert counts is not None
            for h in (_handovers(instance, counts) if over else [None]):
                yield Choice(seat, handover=h), partial(
                    _free, instance, conds, instance.quota if h is None else _moved(counts, h))
        else:
            yield Choice(seat), partial(
                Instance, instance.deck, instance.hands, instance.tasks, instance.trump, instance.lead,
                instance.rules, instance.history, conds, instance.quota, covered=instance.covered)
            if over:  # one task's seat changes
                for t, task in enumerate(instance.tasks):
                    for b in range(instance.players):
                        if b != task.seat:
                            tasks = tuple(Task(x.card, b if y == t else x.seat, x.token)
                                          for y, x in enumerate(instance.tasks))
                            yield Choice(seat, handover=(int(task.seat), b)), partial(  # type: ignore[arg-type]
                                Instance, instance.deck, instance.hands, tasks, instance.trump, instance.lead,
                                instance.rules, instance.history, conds, covered=instance.covered)


def _decision(instance: Instance, conds: tuple[Condition, ...], recipient: Seat) -> Instance:
    tasks = tuple(Task(t.card, recipient, t.token) for t in instance.tasks)
    return Instance(instance.deck, instance.hands, tasks, instance.trump, instance.lead,
                    Rules(instance.rules.order_rule, "fixed"), instance.history, conds,
                    covered=instance.covered)


def variant_assignment(instance: Instance, choice: Choice, variant: Instance,
                       seats: tuple[Seat, ...] | None) -> tuple[Seat, ...] | None:
    """The task seats a witness of ``instance`` gives when ``variant`` (under ``choice``)
    was won with task seats ``seats``: none under fixed assignment without a hand-over,
    every task to the recipient under the commander's decision without one, the
    variant's seats (fixed, with a hand-over) or ``seats`` otherwise."""
    if choice.handover is not None and instance.rules.assignment == "fixed":
        return tuple(int(t.seat) for t in variant.tasks)  # type: ignore[arg-type]
    if choice.recipient is not None and choice.handover is None:
        return (choice.recipient,) * len(instance.tasks)
    if instance.rules.assignment == "fixed":
        return None
    return seats


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
