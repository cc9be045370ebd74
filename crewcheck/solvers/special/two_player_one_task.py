"""Witteveen Theorems 3.15 and 3.18: which 2-player, 1-task games are winnable.

What it is
    The closed-form characterisation of Witteveen §3.3, evaluated after counting the
    cards of each suit in player 1's hand, plus the winning playouts G of the proofs
    as witnesses. Player 1 leads the first trick and owns the task t (Definition 3.2);
    r is the critical suit (t's suit), k_s the number of cards of suit s player 1 holds.

    Task card in player 1's hand (Theorem 3.15): winnable iff
      1. player 2 holds a card of suit r lower than t, or
      2. player 1 holds every card of some suit, or
      3. player 1 holds a card directly winning over (same suit, higher than) a card of
         player 2, and ``2 k_r - (n + 1) + sum_{s != r} T(k_s) >= 0``, every card of
         suit r up to t is in player 1's hand, and every k_s <= n - 1.

    Task card in player 2's hand (Theorem 3.18): winnable iff
      1. player 1 holds a card of suit r higher than t, or
      2. player 1 holds every card of some non-critical suit, or
      3. player 1 holds a directly winning card over a card of player 2, and holds a
         majority (2 k_s > n) but not all of some non-critical suit s.

How it is generalised
    The thesis fixes 4 suits of 9 values. Here every suit has the same number n of
    values and there are s suits (the tests check s = 4 as in the paper, and s = 2, 3).
    Every constant is rewritten in n: T(k) = max(0, 2k - n) (Lemma 3.14's 9 is the
    suit length); formula (2)'s ``2k_r - 10`` is ``2k_r - (n + 1)`` (from
    ``k_r - 1 + sum T >= n - k_r``); the bound ``k <= 8`` is ``k <= n - 1``; "majority"
    is ``k > n - k``; the sum over a, b, c runs over all non-critical suits. Seats are
    relabelled so that the task's seat is player 1: any seat may hold the task as
    long as it also leads the first trick. Hands are equal (|P1| = |P2|).
Rule features
    2 players, one task, no trumps, no order tokens, fixed assignment, the task's seat
    leads the first trick, every suit with the same number of values, equal hands, no
    history. Everything else is refused.
Exact
    Claimed exact by the thesis; checked against the exhaustive oracle on every deal
    with 4 suits of n <= 3 values (n = 4 in the slow suite) and on 2- and 3-suit decks
    and on random standard 4 x 9 deals against the exact ``search`` back-end
    (``tests/solvers/special/test_two_player_one_task.py``): no disagreement. WINNABLE
    answers carry the proof's playout, which the replay checker verifies.
Cost
    O(N) to count the cards and find a directly winning pair; O(N) for the playout.

References
----------
.. [1] E. Witteveen, "The Crew, a Strategy Analysis", Leiden bachelor thesis, §3.3,
   Lemma 3.14, Theorems 3.15 and 3.18.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from crewcheck.model.cards import CardIndex, Mask, iter_bits
from crewcheck.model.instance import Instance, Seat
from crewcheck.solvers.base import Answer, Budget, Verdict
from crewcheck.solvers.special.requirements import requires
from crewcheck.solvers.special.playout import sequence

__all__ = ["TwoPlayerOneTaskSolver", "Counts", "counts", "discard_opportunities", "published_verdict", "playout"]

CONDITIONS = dict(history=False, assignment="fixed", trumps=False, tokens=False, players=2, tasks=1,
                  rectangular=True, equal_hands=True, lead=("seat",), task_leads=True)


def discard_opportunities(k: int, n: int) -> int:
    """Lemma 3.14 generalised: T(k) = max(0, 2k - n)."""
    return max(0, 2 * k - n)


@dataclass(frozen=True)
class Counts:
    """The quantities the theorems are stated in."""

    n: int
    """Values per suit (9 in the thesis)."""
    r: int
    """Critical suit index."""
    k: tuple[int, ...]
    """k_s: cards of suit s in player 1's hand."""
    task_in_p1: bool
    """Which theorem applies: 3.15 (True) or 3.18 (False)."""
    direct_pair: tuple[CardIndex, CardIndex] | None
    """Some (x_w, y_l): x_w of player 1 directly winning over y_l of player 2."""


def _seats(instance: Instance) -> tuple[Seat, Seat]:
    one = instance.tasks[0].seat
    assert one is not None
    return one, 1 - one


def _direct_pair(instance: Instance, p1: Mask, p2: Mask, avoid: CardIndex | None) -> tuple[int, int] | None:
    """A directly winning pair; prefer one that does not involve ``avoid`` (the task card)."""
    deck = instance.deck
    best = None
    for s in range(len(deck.suits)):
        m = deck.suit_mask(s)
        ones, twos = p1 & m, p2 & m
        if not ones or not twos:
            continue
        hi = ones.bit_length() - 1
        for y in iter_bits(twos):
            if y < hi:
                pair = (hi, y)
                if avoid not in pair:
                    return pair
                best = best or pair
                # try the second highest of player 1 too
                rest = ones & ~(1 << hi)
                while rest:
                    x = rest.bit_length() - 1
                    if x > y and x != avoid:
                        return (x, y)
                    rest &= ~(1 << x)
            else:
                break
    return best


def counts(instance: Instance) -> Counts:
    """Count the deal in the theorems' terms."""
    deck = instance.deck
    one, two = _seats(instance)
    p1, p2 = instance.hands[one], instance.hands[two]
    t = instance.tasks[0].card
    r = deck.suit_of(t)
    n = len(deck.values[0])
    k = tuple((p1 & deck.suit_mask(s)).bit_count() for s in range(len(deck.suits)))
    return Counts(n, r, k, bool(p1 >> t & 1), _direct_pair(instance, p1, p2, t))


def properties(instance: Instance) -> tuple[bool, bool, bool]:
    """Which of the three properties of the applicable theorem hold."""
    deck = instance.deck
    one, two = _seats(instance)
    p1, p2 = instance.hands[one], instance.hands[two]
    t = instance.tasks[0].card
    c = counts(instance)
    suit_r = deck.suit_mask(c.r)
    below_t = suit_r & ((1 << t) - 1)
    above_t = suit_r & ~((1 << (t + 1)) - 1)
    others = [s for s in range(len(c.k)) if s != c.r]
    if c.task_in_p1:
        prop1 = bool(p2 & below_t)
        prop2 = any(ks == c.n for ks in c.k)
        formula = (2 * c.k[c.r] - (c.n + 1) + sum(discard_opportunities(c.k[s], c.n) for s in others) >= 0
                   and below_t & ~p1 == 0 and all(ks <= c.n - 1 for ks in c.k))
        prop3 = c.direct_pair is not None and formula
    else:
        prop1 = bool(p1 & above_t)
        prop2 = any(c.k[s] == c.n for s in others)
        prop3 = c.direct_pair is not None and any(c.n - c.k[s] < c.k[s] < c.n for s in others)
    return prop1, prop2, prop3


def published_verdict(instance: Instance) -> bool:
    """Theorem 3.15 / 3.18 as stated (generalised to n values, s suits)."""
    return any(properties(instance))


def playout(instance: Instance) -> list[dict[Seat, CardIndex]] | None:
    """The winning playout G of the proof for the first property that holds, or ``None``."""
    deck = instance.deck
    one, two = _seats(instance)
    p1, p2 = instance.hands[one], instance.hands[two]
    t = instance.tasks[0].card
    c = counts(instance)
    r = c.r
    prop1, prop2, prop3 = properties(instance)
    suit = deck.suit_mask
    others = [s for s in range(len(c.k)) if s != r]
    G: list[tuple[CardIndex, CardIndex]] = []  # (player 1's card, player 2's card)

    def low(mask: Mask) -> CardIndex:
        return (mask & -mask).bit_length() - 1

    if c.task_in_p1:
        if prop1:
            y_l = low(p2 & suit(r) & ((1 << t) - 1))
            G = [(t, y_l)]
        elif prop2:
            a = next(s for s in range(len(c.k)) if c.k[s] == c.n)
            if a == r:
                G = [(t, low(p2))]
            else:
                xs = list(iter_bits(p1 & suit(a)))
                ys = list(iter_bits(p2 & suit(r)))
                G = list(zip(xs, ys))
                G.append((t, low(p2 & ~suit(r))))
        elif prop3:
            assert c.direct_pair is not None
            x_w, y_l = c.direct_pair
            rest1 = p1 & ~(1 << x_w) & ~(1 << t)
            rest2 = p2 & ~(1 << y_l)
            leftovers: list[CardIndex] = []
            critical_left: list[CardIndex] = []
            for s in [*others, r]:
                xs = list(iter_bits(rest1 & suit(s)))
                ys = list(iter_bits(rest2 & suit(s)))
                m = min(len(xs), len(ys))
                G.extend(zip(xs[:m], ys[:m]))
                if s != r:
                    leftovers.extend(xs[m:])
                else:
                    critical_left = ys[m:]
                rest2 &= ~sum(1 << y for y in ys[:m])
            G.append((x_w, y_l))
            if len(leftovers) < len(critical_left):
                return None
            G.extend(zip(leftovers, critical_left))
            rest2 &= ~sum(1 << y for y in critical_left)
            if not rest2:
                return None
            G.append((t, low(rest2)))
        else:
            return None
    else:
        if prop1:
            G = [(low(p1 & suit(r) & ~((1 << (t + 1)) - 1)), t)]
        elif prop2:
            a = next(s for s in others if c.k[s] == c.n)
            G = [(low(p1 & suit(a)), t)]
        elif prop3:
            assert c.direct_pair is not None
            x_w, y_l = c.direct_pair
            a = next(s for s in others if c.n - c.k[s] < c.k[s] < c.n)
            xs = list(iter_bits(p1 & suit(a) & ~(1 << x_w)))
            ys = list(iter_bits(p2 & suit(a) & ~(1 << y_l)))
            m = len(ys)
            if m >= len(xs):
                return None
            G = list(zip(xs[:m], ys[:m]))
            G.append((x_w, y_l))
            G.append((xs[m], t))
        else:
            return None
    return [{one: x, two: y} for x, y in G]


@requires(**CONDITIONS)
class TwoPlayerOneTaskSolver:
    """Witteveen Thm 3.15 / 3.18; see the module docstring."""

    name: ClassVar[str] = "two_player_one_task"
    exact: ClassVar[bool] = True
    requires: ClassVar[tuple[tuple[str, str], ...]] = ()

    def decide(self, instance: Instance, *, budget: Budget) -> Answer:
        props = properties(instance)
        theorem = "3.15" if counts(instance).task_in_p1 else "3.18"
        extra = {"theorem": theorem, "properties": [i + 1 for i, p in enumerate(props) if p]}
        if not any(props):
            return Answer(Verdict.UNWINNABLE, extra=extra,
                          explanation=f"Witteveen Thm {theorem}: none of properties 1-3 holds")
        tricks = playout(instance)
        if tricks is None:
            # the theorem says winnable but the proof's playout cannot be built: report it
            return Answer(Verdict.WINNABLE, plays=(), extra={**extra, "playout": "not constructible"},
                          explanation=f"Witteveen Thm {theorem} says winnable but its playout is not well-defined")
        return Answer(Verdict.WINNABLE, plays=sequence(instance, tricks, _seats(instance)[0]), extra=extra)
