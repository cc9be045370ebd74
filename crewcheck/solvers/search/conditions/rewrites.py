"""Conditions the search decides as tasks: tasks in disguise, and a deal split into arms
whose conditions are tasks."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from math import comb

from crewcheck.model import conditions as C
from crewcheck.model.conditions import Condition
from crewcheck.model.instance import Instance
from crewcheck.model.rules import Rules
from crewcheck.model.tasks import Task
from crewcheck.solvers.search.conditions.table import trump_mask


_RELATIVE = (">", ">>", ">>>", ">>>>")


def _rewritable(instance: Instance) -> bool:
    """Whether a rewrite of conditions into tasks keeps the deal's winning lines: it has
    conditions, no distress signal, fixed assignment or no tasks, and no absolute or last
    (omega) token (those count every task, so an added task would move them)."""
    if instance.distress is not None or not instance.conditions:
        return False
    if any(t.token is not None and set(t.token) != {">"} for t in instance.tasks):
        return False
    return not (instance.tasks and instance.rules.assignment != "fixed")


def _played_for_sure(instance: Instance) -> int:
    """The cards every line plays: those of the hands dealt exactly as many cards as
    the game has tricks."""
    out = 0
    for hand in instance.hands:
        if hand.bit_count() == instance.tricks:
            out |= hand
    return out


def tasks_in_disguise(instance: Instance) -> Instance | None:
    """The same deal with the conditions that are tasks in disguise written as tasks, or
    ``None`` when there is none (or the deal does not allow it).

    ``wins_all_cards(seat, suit)`` (not ``played_only``) is exactly one task per card of
    the suit for ``seat``: each is won by the seat, the game cannot be won before the last is, and it is lost
    when another seat wins one or one stays unplayed. With ``played_only`` the cards every
    line plays (those of a hand dealt as many cards as there are tricks: with three
    players, all but the 14-card hand's) are such tasks too, and the condition stays for
    the cards that may remain unplayed (it holds only once they are all played and won
    by the seat, or stay in hand, so the added tasks are implied by it). ``each_trump_wins_a_trick`` is one
    task per trump for its holder: the holder wins the trick of its trump exactly when
    that trump wins it (a seat plays one card per trick), and two trumps in one trick
    fail the lower one's task; ``in_order`` adds the relative tokens ``>``, ``>>``, ...
    from the lowest trump up (at most four trumps, no other token in the deal). The
    search's cuts about tasks (precedence, release times, lead reachability) then apply.
    Only under fixed assignment or with no tasks (the deal becomes fixed), with no
    distress signal, no card a task of two seats, and no absolute or last (omega) token
    (those count every task: a task added before or after would move it; relative tokens
    order only the tasks that carry them); the winning lines are the same.
    """
    if not _rewritable(instance):
        return None
    tasks = list(instance.tasks)
    owner = {t.card: t.seat for t in tasks}
    kept: list[Condition] = []
    changed = False
    for cond in instance.conditions:
        new: list[Task] = []
        stays = False  # the condition stays beside its tasks: it judges cards that may stay unplayed
        if isinstance(cond, C.WinsAllCards) and isinstance(cond.seat, int):
            target = cond.target(instance)
            sure = target & _played_for_sure(instance) if cond.played_only else target
            new = [Task(c, cond.seat) for c in range(instance.deck.size) if sure >> c & 1]
            stays = sure != target
            if not new:
                kept.append(cond)
                continue
        elif isinstance(cond, C.EachTrumpWinsATrick) and instance.trump_suit is not None:
            mask = trump_mask(instance)
            trumps = [c for c in range(instance.deck.size) if mask >> c & 1]
            if cond.in_order and (len(trumps) > len(_RELATIVE) or any(t.token is not None for t in tasks)):
                kept.append(cond)
                continue
            new = [Task(c, instance.holder[c], _RELATIVE[i] if cond.in_order else None)
                   for i, c in enumerate(trumps)]
        else:
            kept.append(cond)
            continue
        clash = any(t.card in owner and (owner[t.card] != t.seat or t.token is not None) for t in new)
        if stays or clash:
            kept.append(cond)
        if clash:
            continue
        for t in new:
            if t.card not in owner:
                owner[t.card] = t.seat
                tasks.append(t)
        changed = True
    if not changed:
        return None
    return replace(instance, tasks=tuple(tasks), conditions=tuple(kept), quota=None,
                   rules=Rules(instance.rules.order_rule, "fixed"))


ARMS_MAX = 24
"""The most deals :func:`winning_card_arms` splits a deal into."""


def winning_card_arms(instance: Instance) -> list[Instance] | None:
    """Deals that together are equivalent to ``instance`` (winnable iff one is), each
    easier for the search, or ``None``.

    ``trick_won_with`` (``count`` tricks won with a card of ``value``, by ``seat`` if
    given) holds exactly when some ``count`` cards of that value (of the seat's, if given)
    each win their trick; a card wins its trick exactly when its holder wins that trick
    (a seat plays one card per trick), which is a task for the holder. So the deal is
    winnable iff, for some choice of the cards still needed among those still held or in
    the trick in progress, the deal with the condition replaced by those tasks is: a
    winning line of the deal has such cards (the first ones to win), and ends no earlier
    than the line of the choice, whose other conditions and tasks are the deal's. Under fixed assignment or with no
    tasks (the arms are fixed), no distress signal, no absolute or last (omega) token (those count every task, so a
    task added for a chosen card would move them: ``models/counterexamples/search_arms_absolute_token.json``), at
    most :data:`ARMS_MAX` choices.
    """
    if not _rewritable(instance):
        return None
    state = instance.state()
    if state.end is not None:
        return None
    left = 0  # cards still to win a trick: held, or in the trick in progress
    for h in state.hands:
        left |= h
    for c in state.trick:
        left |= 1 << c
    owner = {t.card: t.seat for t in instance.tasks}
    for i, (cond, memo) in enumerate(zip(instance.conditions, state.memos)):
        if not isinstance(cond, C.TrickWonWith) or (cond.seat is not None and not isinstance(cond.seat, int)):
            continue
        need = cond.count - int(memo)  # type: ignore[call-overload]
        mask = C.value_mask(instance, cond.value, cond.trump) & left
        cards = [c for c in range(instance.deck.size) if mask >> c & 1
                 and (cond.seat is None or instance.holder[c] == cond.seat)]
        if need <= 0 or need > len(cards) or comb(len(cards), need) > ARMS_MAX:
            continue
        rest = instance.conditions[:i] + instance.conditions[i + 1:]
        arms = []
        for chosen in combinations(cards, need):
            if any(c in owner and owner[c] != instance.holder[c] for c in chosen):
                continue  # another seat's task: it never wins its own trick
            tasks = instance.tasks + tuple(Task(c, instance.holder[c]) for c in chosen if c not in owner)
            arms.append(replace(instance, tasks=tasks, conditions=rest, quota=None,
                                rules=Rules(instance.rules.order_rule, "fixed")))
        return arms
    return None
