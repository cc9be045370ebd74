"""A quick look for a win of a distress-signal deal on a few concrete choices of passes.

The distress signal (every seat passes one card that is no trump to a neighbour before
play) is decided in one formula whose passes are variables
(:func:`crewcheck.solvers.logic.choices.decide_signal`). Many such deals are won by a
plain choice of passes, and the search finds the win of one concrete deal far faster
than the formula holds every choice at once. :func:`quick_signal_win` tries a few
passes with the search on a small node budget, within a small share of time:

* per seat, candidate cards by cheap rules (:func:`candidate_cards`): the lowest card
  of those the seat must win itself (its tasks', a suit its condition says it wins
  whole), the highest card the receiver must win, the lowest card of the shortest suit
  (to void it), the highest card (to hand its neighbour a winner), the lowest card;
* the passes that combine the first candidates of every seat, cheapest first, then
  seeded random passes from every card a seat may pass.

A win it finds is a winning line of the deal (the caller replays it with its passes);
finding none proves nothing, and the caller decides the deal as before.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from itertools import islice, product
from typing import cast

from crewcheck.errors import InvalidDealError
from crewcheck.model.cards import CardIndex, Mask, iter_bits
from crewcheck.model.conditions import Condition, WinsAllCards
from crewcheck.model.instance import Instance, Seat
from crewcheck.model.variants import (Choice, passable_cards, passed_hands, signal_directions, variant_assignment,
                                      variants)
from crewcheck.solvers.base import Answer, Budget, Verdict
from crewcheck.solvers.search.driver import SearchOptions, SearchSolver

__all__ = ["QuickPass", "QUICK_SECONDS", "QUICK_SHARE", "QUICK_NODES", "QUICK_FIRST", "QUICK_FIRST_NODES",
           "QUICK_RANDOM", "QUICK_SEARCH", "candidate_cards", "must_win", "candidate_passes", "concrete_deals", "quick_signal_win"]

QUICK_SECONDS = 0.3
"""The most seconds the quick pass spends (the compiled kernel's loading not counted)."""
QUICK_SHARE = 0.1
"""The most share of a deal's time budget the quick pass spends."""
QUICK_NODES = 20_000
"""Search nodes per concrete deal tried in the second round."""
QUICK_FIRST = 40
"""Concrete deals the first round tries."""
QUICK_FIRST_NODES = 4_000
"""Search nodes per concrete deal tried in the first round."""
QUICK_RANDOM = 24
"""Seeded random choices of passes tried after the rule-made ones."""
QUICK_SEARCH = SearchOptions(warm_start=False, broaden=False, low_card_nodes=0)
"""The search's options: a plain run of its kernel (the low-card relaxation and the
broadening pay off on long runs, not on a few thousand nodes)."""
_PER_SEAT = 3
"""Candidate cards per seat that the rule-made passes combine."""


@dataclass(frozen=True, slots=True)
class QuickPass:
    """What the quick pass found and spent."""

    line: tuple[tuple[CardIndex, ...], tuple[Seat, ...] | None, Choice] | None
    """A winning line: the plays after the history, the task seats (as
    :func:`crewcheck.decide` gives them) and the crew's choice; ``None`` if none found."""
    tried: int
    """Concrete deals decided (the winning one included)."""
    nodes: int
    """Search nodes over all of them."""
    loading: float
    """Seconds of the compiled kernel's first loading in this process (0 when loaded)."""

    def stats(self) -> dict[str, int]:
        """The quick pass's counts, for a result's ``extra``."""
        return {"quick_deals_tried": self.tried, "quick_nodes": self.nodes}


def _suits(instance: Instance, hand: int) -> dict[int, list[CardIndex]]:
    """The hand's cards that are no trump, by suit, in card order (lowest first)."""
    out: dict[int, list[CardIndex]] = {}
    for c in iter_bits(hand):
        suit = instance.deck.suit_of(c)
        if suit != instance.trump_suit:
            out.setdefault(suit, []).append(c)
    return out


_MUST_WIN: dict[type[Condition], Callable[[Condition, Instance], Mask]] = {
    WinsAllCards: lambda c, inst: cast(WinsAllCards, c).target(inst),
}
"""Condition kinds that name cards one seat must win: the cards (of the condition's seat)."""


def must_win(instance: Instance, seat: Seat) -> Mask:
    """The cards ``seat`` must win: its tasks' (fixed seats) and those its conditions name
    (:data:`_MUST_WIN`)."""
    out = 0
    for t in instance.tasks:
        if t.seat == seat:
            out |= 1 << t.card
    for c in instance.conditions:
        rule = _MUST_WIN.get(type(c))
        if rule is not None and getattr(c, "seat", None) == seat:
            out |= rule(c, instance)
    return out


def candidate_cards(instance: Instance, direction: int) -> list[list[CardIndex]]:
    """Per seat, the cards worth passing in ``direction`` first, best first (no repeats);
    ``[-1]`` for a seat that holds only trumps: the lowest card of those the seat must win
    itself (:func:`must_win`; it would have to win it), the highest card the receiver must
    win, the lowest card of the shortest suit, the highest card, the lowest card."""
    p = instance.players
    value = [instance.deck.card(c).value for c in range(instance.deck.size)]
    out: list[list[CardIndex]] = []
    for s, hand in enumerate(instance.hands):
        suits = _suits(instance, hand)
        if not suits:
            out.append([-1])
            continue
        loose = [c for cs in suits.values() for c in cs]
        own, theirs = must_win(instance, s), must_win(instance, (s + direction) % p)
        picks = [min((c for c in loose if own >> c & 1), key=value.__getitem__, default=-1),
                 max((c for c in loose if theirs >> c & 1), key=value.__getitem__, default=-1),
                 min(suits.values(), key=len)[0], max(loose, key=value.__getitem__),
                 min(loose, key=value.__getitem__)]
        out.append(list(dict.fromkeys(c for c in picks if c >= 0)))
    return out


def candidate_passes(instance: Instance, seed: int = 0,
                     extra: int = QUICK_RANDOM) -> Iterator[tuple[int, tuple[CardIndex, ...]]]:
    """``(direction, passes)`` to try, without repeats: the rule-made passes
    (:func:`candidate_cards`, the first :data:`_PER_SEAT` of every seat, fewest lower
    picks first, the directions in turn), then ``extra`` seeded random passes."""
    seen: set[tuple[int, tuple[CardIndex, ...]]] = set()
    ways = signal_directions(instance)
    made = []
    for d in ways:
        cards = [c[:_PER_SEAT] for c in candidate_cards(instance, d)]
        for idx in product(*(range(len(c)) for c in cards)):
            made.append((sum(idx), ways.index(d), d, tuple(c[i] for c, i in zip(cards, idx))))
    made.sort(key=lambda m: (m[0], m[1]))
    for _, _, d, passes in made:
        if (d, passes) not in seen:
            seen.add((d, passes))
            yield d, passes
    rng = random.Random(seed)
    passable = passable_cards(instance)
    for _ in range(extra):
        d = rng.choice(ways)
        passes = tuple(rng.choice(cs) for cs in passable)
        if (d, passes) not in seen:
            seen.add((d, passes))
            yield d, passes


def concrete_deals(instance: Instance) -> Iterator[tuple[Choice, Instance]]:
    """The concrete deals of the passes of :func:`candidate_passes`, in order: every variant
    of the crew's other choices under each, with the :class:`Choice` that names the passes."""
    for direction, passes in candidate_passes(instance):
        try:
            base = replace(instance, hands=passed_hands(instance, direction, passes), distress=None)
        except InvalidDealError:  # a hand emptied (its seat held only trumps)
            continue
        for inner, variant in variants(base):
            yield replace(inner, direction=direction, passes=passes), variant


def quick_signal_win(instance: Instance, budget: Budget) -> QuickPass:
    """A winning line of the distress-signal deal ``instance`` found by the search on the
    deals of :func:`concrete_deals`, within :data:`QUICK_SECONDS` or :data:`QUICK_SHARE` of
    the budget's seconds: the first :data:`QUICK_FIRST` of them on
    :data:`QUICK_FIRST_NODES` nodes each (a win that shows at once), then all in turn on
    :data:`QUICK_NODES` (those the first round refuted left out). No line when it finds
    none (which proves nothing) or the search does not take the deal."""
    assert instance.distress is not None
    solver = SearchSolver(QUICK_SEARCH)
    share = QUICK_SECONDS if budget.seconds is None else min(QUICK_SECONDS, QUICK_SHARE * budget.seconds)
    run = _Run(solver, budget, time.perf_counter() + share)
    first = list(islice(concrete_deals(instance), QUICK_FIRST))
    refuted: set[int] = set()
    rounds: tuple[tuple[Iterable[tuple[Choice, Instance]], int], ...] = (
        (first, QUICK_FIRST_NODES), (concrete_deals(instance), QUICK_NODES))
    for deals, per_deal in rounds:
        for k, (choice, variant) in enumerate(deals):
            if per_deal == QUICK_NODES and k in refuted:
                continue
            answer = run.decide(variant, per_deal)
            if answer is None:
                return run.result(None)
            if answer.verdict is Verdict.UNWINNABLE:
                refuted.add(k)
            if answer.verdict is Verdict.WINNABLE:
                assert answer.plays is not None
                seats = variant_assignment(instance, choice, variant, answer.assignment)
                return run.result((tuple(answer.plays), seats, choice))
    return run.result(None)


class _Run:
    """The quick pass's clock and counts."""

    def __init__(self, solver: SearchSolver, budget: Budget, until: float) -> None:
        self.solver, self.budget, self.until = solver, budget, until
        self.tried, self.nodes, self.loading = 0, 0, 0.0

    def decide(self, variant: Instance, nodes: int) -> Answer | None:
        """The search's answer on ``variant`` within ``nodes``; ``None`` once the time is
        up, the budget cancelled, or the search does not take the deal."""
        left = self.until - time.perf_counter()
        cancel = self.budget.cancel
        if left <= 0 or (cancel is not None and cancel()) or self.solver.supports(variant) is not None:
            return None
        answer = self.solver.decide(variant, budget=Budget(left, nodes, cancel))
        self.tried += 1
        self.nodes += answer.nodes
        loaded = float(answer.extra.get("kernel_load_seconds", 0.0))  # not charged to the share
        self.loading += loaded
        self.until += loaded
        return answer

    def result(self, line: tuple[tuple[CardIndex, ...], tuple[Seat, ...] | None, Choice] | None) -> QuickPass:
        return QuickPass(line, self.tried, self.nodes, self.loading)
