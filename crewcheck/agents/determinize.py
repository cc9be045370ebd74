"""Determinization: deal the unseen cards consistently with what a seat knows (de Jong §5.2).

What a seat knows is a *candidate set* ``C_p`` per other seat (the unseen cards that seat
may hold: not in a suit it showed void in, not the commander's known card) and the hand
sizes ``#H_p``. A *consistent distribution* gives every seat ``#H_p`` cards of ``C_p``,
each unseen card to exactly one seat.

Samplers
    :func:`sample_uniform` is de Jong's Algorithm 1: cards one at a time, each to seat
    ``p`` with probability ``P(c in H_p | consistent)``. The thesis gives closed forms for
    3 and 4 players (formulas (19), (20)-(21)); here the probability is a ratio of counts
    of consistent distributions, computed for any number of seats by a dynamic programme
    over the *classes* of cards (cards with the same set of possible holders) and the
    seats' remaining needs. It is exactly uniform (de Jong, Lemma 1).
    :func:`sample_most_restricted` is Algorithm 2 (the seat with the fewest candidates
    first, a uniform hand from its candidates), uniform when the candidate sets form a
    chain (Lemma 2) but not in general (Example 2). :func:`sample_random_selection` is
    §5.2.5's "uniform random selection" (a random seat takes a random candidate card),
    not uniform (Figure 8). Both restart on a dead end.
Exact distributions
    :func:`enumerate_distributions` lists every consistent distribution; the
    ``*_distribution`` functions give each sampler's exact output probabilities as
    fractions, for tests and for the thesis's 41/72 example (:func:`figure7`).
Cost
    Counting is O(classes * needs^seats * splits) with memoisation: instant for the 2-3
    unknown seats of 3-5 player games.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import comb, factorial

from crewcheck.errors import InvalidInputError
from crewcheck.model.cards import Mask, iter_bits

__all__ = [
    "count_distributions", "closed_form_count", "closed_form_count_as_printed", "probability",
    "sample_uniform", "sample_most_restricted", "sample_random_selection", "SAMPLERS",
    "enumerate_distributions", "uniform_distribution", "most_restricted_distribution",
    "random_selection_distribution", "figure7",
]

Distribution = tuple[Mask, ...]


def _classes(cands: Sequence[Mask]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Cards grouped by the set of seats that may hold them: ``((seat_set, cards), ...)``."""
    union = 0
    for c in cands:
        union |= c
    groups: dict[int, list[int]] = {}
    for card in iter_bits(union):
        sig = 0
        for s, c in enumerate(cands):
            if c >> card & 1:
                sig |= 1 << s
        groups.setdefault(sig, []).append(card)
    return tuple((sig, tuple(cards)) for sig, cards in sorted(groups.items()))


def _splits(m: int, caps: Sequence[int]) -> list[tuple[int, ...]]:
    """Every way to write ``m`` as a sum of ``len(caps)`` parts with part i <= caps[i]."""
    if not caps:
        return [()] if m == 0 else []
    out = []
    rest_cap = sum(caps[1:])
    for k in range(max(0, m - rest_cap), min(m, caps[0]) + 1):
        for tail in _splits(m - k, caps[1:]):
            out.append((k, *tail))
    return out


class _Counter:
    """Counts consistent distributions, memoised over (class, cards left in it, needs)."""

    def __init__(self, cands: Sequence[Mask]) -> None:
        self.classes = _classes(cands)
        self.members = tuple(tuple(s for s in range(len(cands)) if sig >> s & 1) for sig, _ in self.classes)
        self.g = lru_cache(maxsize=None)(self._g)

    def _g(self, i: int, r: int, needs: tuple[int, ...]) -> int:
        """Ways to deal ``r`` cards of class ``i`` and all of classes ``i+1..``."""
        if i == len(self.classes):
            return 1 if not any(needs) else 0
        members = self.members[i]
        total = 0
        nxt = len(self.classes[i + 1][1]) if i + 1 < len(self.classes) else 0
        for split in _splits(r, [needs[s] for s in members]):
            ways = factorial(r)
            left = list(needs)
            for s, k in zip(members, split):
                ways //= factorial(k)
                left[s] -= k
            total += ways * self.g(i + 1, nxt, tuple(left))
        return total

    def total(self, needs: Sequence[int]) -> int:
        if not self.classes:
            return 1 if not any(needs) else 0
        return self.g(0, len(self.classes[0][1]), tuple(needs))


@lru_cache(maxsize=32)
def _counter_for(cands: tuple[Mask, ...]) -> _Counter:
    """A counter per candidate sets, kept so that repeated samples (a Monte Carlo player
    draws many per move from one view) reuse the memoised counts."""
    return _Counter(cands)


def _check(cands: Sequence[Mask], sizes: Sequence[int]) -> None:
    if len(cands) != len(sizes):
        raise InvalidInputError(f"{len(cands)} candidate sets but {len(sizes)} hand sizes")
    union = 0
    for c in cands:
        union |= c
    if union.bit_count() != sum(sizes):
        raise InvalidInputError(f"{union.bit_count()} unseen cards but the hands need {sum(sizes)}")


def count_distributions(cands: Sequence[Mask], sizes: Sequence[int]) -> int:
    """Number of consistent distributions (any number of seats)."""
    _check(cands, sizes)
    return _Counter(cands).total(sizes)


def probability(cands: Sequence[Mask], sizes: Sequence[int], card: int, seat: int) -> Fraction:
    """``P(card in H_seat | H_q subset of C_q for all q)`` under the uniform distribution:
    de Jong's (21), for any number of seats."""
    total = count_distributions(cands, sizes)
    if total == 0:
        raise InvalidInputError("no distribution is consistent with these candidate sets")
    if not cands[seat] >> card & 1:
        return Fraction(0)
    forced = [c & ~(1 << card) if s != seat else c for s, c in enumerate(cands)]
    return Fraction(count_distributions(forced, sizes), total)


def closed_form_count(cands: Sequence[Mask], sizes: Sequence[int]) -> int:
    """The thesis's closed forms: (19) for 2 unknown seats, (20) for 3, with the term for
    the cards only the second seat can hold put back (see
    :func:`closed_form_count_as_printed`)."""
    return _closed(cands, sizes, corrected=True)


def closed_form_count_as_printed(cands: Sequence[Mask], sizes: Sequence[int]) -> int:
    """Formula (20) exactly as printed: the last binomial omits the cards that only seat q
    can hold (``C_q minus (C_p or C_r)``), so it miscounts when there are such cards."""
    return _closed(cands, sizes, corrected=False)


def _binom(n: int, k: int) -> int:
    return comb(n, k) if 0 <= k <= n else 0


def _closed(cands: Sequence[Mask], sizes: Sequence[int], *, corrected: bool) -> int:
    _check(cands, sizes)
    if len(cands) == 2:
        cp, cq = cands
        both = (cp & cq).bit_count()
        return _binom(both, sizes[0] - (cp & ~cq).bit_count())  # (19): p picks its rest from C_p & C_q
    if len(cands) != 3:
        raise InvalidInputError("the closed forms cover 2 or 3 unknown hands (3- and 4-player games)")
    cp, cq, cr = cands
    hp, hq, _ = sizes
    pq_r = (cp & cq & ~cr).bit_count()
    pqr = (cp & cq & cr).bit_count()
    pr_q = (cp & cr & ~cq).bit_count()
    qr_p = (cq & cr & ~cp).bit_count()
    p_only = (cp & ~(cq | cr)).bit_count()
    q_only = (cq & ~(cp | cr)).bit_count() if corrected else 0
    total = 0
    for i in range(pq_r + 1):
        for j in range(pqr + 1):
            for k in range(qr_p + 1):
                total += (_binom(pq_r, i) * _binom(pqr, j) * _binom(pr_q, hp - i - j - p_only)
                          * _binom(qr_p, k) * _binom(pqr - j, hq - q_only - pq_r + i - k))
    return total


# -- samplers -------------------------------------------------------------------------

def sample_uniform(cands: Sequence[Mask], sizes: Sequence[int], rng: random.Random) -> Distribution:
    """de Jong's Algorithm 1: a uniformly random consistent distribution.

    Cards are taken class by class (an order the algorithm allows: "in any order"); each
    goes to seat ``p`` with weight = number of consistent completions after giving it to
    ``p``, drawn exactly with integer arithmetic.
    """
    _check(cands, sizes)
    counter = _counter_for(tuple(cands))
    needs = list(sizes)
    if counter.total(needs) == 0:
        raise InvalidInputError("no distribution is consistent with these candidate sets")
    hands = [0] * len(cands)
    classes = counter.classes
    for i, (_, cards) in enumerate(classes):
        members = counter.members[i]
        r = len(cards)
        for card in cards:
            weights = []
            for s in members:
                if needs[s] == 0:
                    weights.append(0)
                    continue
                needs[s] -= 1
                weights.append(counter.g(i, r - 1, tuple(needs)) if r > 1 else
                               counter.g(i + 1, len(classes[i + 1][1]) if i + 1 < len(classes) else 0,
                                         tuple(needs)))
                needs[s] += 1
            x = rng.randrange(sum(weights))
            for s, w in zip(members, weights):
                if x < w:
                    hands[s] |= 1 << card
                    needs[s] -= 1
                    break
                x -= w
            r -= 1
    return tuple(hands)


def _most_restricted_once(cands: Sequence[Mask], sizes: Sequence[int], rng: random.Random) -> Distribution | None:
    c = list(cands)
    left = set(range(len(c)))
    while left:
        p = min(left, key=lambda s: (c[s].bit_count(), s))
        cards = list(iter_bits(c[p]))
        if len(cards) < sizes[p]:
            return None
        chosen = 0
        for card in rng.sample(cards, sizes[p]):
            chosen |= 1 << card
        c[p] = chosen
        for q in left:
            if q != p:
                c[q] &= ~chosen
        left.discard(p)
    return tuple(c)


def sample_most_restricted(cands: Sequence[Mask], sizes: Sequence[int], rng: random.Random,
                           *, tries: int = 10_000) -> Distribution:
    """de Jong's Algorithm 2 (most restricted first; ties to the lowest seat), restarted on
    a dead end. Not uniform in general."""
    _check(cands, sizes)
    for _ in range(tries):
        d = _most_restricted_once(cands, sizes, rng)
        if d is not None and _valid(d, cands, sizes):
            return d
    raise InvalidInputError("most-restricted-first found no consistent distribution")


def _selection_once(cands: Sequence[Mask], sizes: Sequence[int], rng: random.Random) -> Distribution | None:
    hands = [0] * len(cands)
    need = list(sizes)
    free = 0
    for c in cands:
        free |= c
    while any(need):
        p = rng.choice([s for s in range(len(cands)) if need[s]])
        options = list(iter_bits(cands[p] & free))
        if not options:
            return None
        card = rng.choice(options)
        hands[p] |= 1 << card
        free &= ~(1 << card)
        need[p] -= 1
    return tuple(hands)


def sample_random_selection(cands: Sequence[Mask], sizes: Sequence[int], rng: random.Random,
                            *, tries: int = 10_000) -> Distribution:
    """§5.2.5's uniform random selection: a uniformly random seat still short of cards
    takes a uniformly random free card of its candidates; restarted on a dead end."""
    _check(cands, sizes)
    for _ in range(tries):
        d = _selection_once(cands, sizes, rng)
        if d is not None:
            return d
    raise InvalidInputError("uniform random selection found no consistent distribution")


SAMPLERS = {
    "uniform": sample_uniform,
    "restricted": sample_most_restricted,
    "selection": sample_random_selection,
}
"""Determinizers by name: Algorithm 1, Algorithm 2, uniform random selection."""


def _valid(d: Distribution, cands: Sequence[Mask], sizes: Sequence[int]) -> bool:
    return all(h & ~c == 0 and h.bit_count() == n for h, c, n in zip(d, cands, sizes))


# -- exact distributions (small cases) --------------------------------------------------

def enumerate_distributions(cands: Sequence[Mask], sizes: Sequence[int]) -> list[Distribution]:
    """Every consistent distribution, by brute force."""
    _check(cands, sizes)
    out: list[Distribution] = []

    def rec(s: int, free: Mask, acc: list[Mask]) -> None:
        if s == len(cands):
            out.append(tuple(acc))
            return
        for combo in combinations(list(iter_bits(cands[s] & free)), sizes[s]):
            m = 0
            for c in combo:
                m |= 1 << c
            acc.append(m)
            rec(s + 1, free & ~m, acc)
            acc.pop()

    union = 0
    for c in cands:
        union |= c
    rec(0, union, [])
    return out


def uniform_distribution(cands: Sequence[Mask], sizes: Sequence[int]) -> dict[Distribution, Fraction]:
    """Exact output law of :func:`sample_uniform` (follows its weights card by card)."""
    _check(cands, sizes)
    counter = _Counter(cands)
    order = [(i, card) for i, (_, cards) in enumerate(counter.classes) for card in cards]
    out: dict[Distribution, Fraction] = {}

    def rec(pos: int, needs: list[int], hands: list[Mask], prob: Fraction) -> None:
        if pos == len(order):
            out[tuple(hands)] = out.get(tuple(hands), Fraction(0)) + prob
            return
        i, card = order[pos]
        cards = counter.classes[i][1]
        r = len(cards) - cards.index(card)
        weights = []
        for s in counter.members[i]:
            if needs[s] == 0:
                weights.append((s, 0))
                continue
            needs[s] -= 1
            if r > 1:
                w = counter.g(i, r - 1, tuple(needs))
            else:
                nxt = len(counter.classes[i + 1][1]) if i + 1 < len(counter.classes) else 0
                w = counter.g(i + 1, nxt, tuple(needs))
            needs[s] += 1
            weights.append((s, w))
        total = sum(w for _, w in weights)
        for s, w in weights:
            if w:
                needs[s] -= 1
                hands[s] |= 1 << card
                rec(pos + 1, needs, hands, prob * Fraction(w, total))
                hands[s] &= ~(1 << card)
                needs[s] += 1

    rec(0, list(sizes), [0] * len(cands), Fraction(1))
    return out


def random_selection_distribution(cands: Sequence[Mask], sizes: Sequence[int]
                                  ) -> tuple[dict[Distribution, Fraction], Fraction]:
    """Exact law of one pass of uniform random selection: (probability of each
    distribution reached, probability of a dead end). The sampler, which restarts on
    dead ends, outputs the first part normalised."""
    _check(cands, sizes)
    out: dict[Distribution, Fraction] = {}
    dead = Fraction(0)
    union = 0
    for c in cands:
        union |= c

    def rec(hands: list[Mask], need: list[int], free: Mask, prob: Fraction) -> None:
        nonlocal dead
        seats = [s for s in range(len(cands)) if need[s]]
        if not seats:
            out[tuple(hands)] = out.get(tuple(hands), Fraction(0)) + prob
            return
        for p in seats:
            options = list(iter_bits(cands[p] & free))
            if not options:
                dead += prob / len(seats)
                continue
            for card in options:
                hands[p] |= 1 << card
                need[p] -= 1
                rec(hands, need, free & ~(1 << card), prob / len(seats) / len(options))
                need[p] += 1
                hands[p] &= ~(1 << card)

    rec([0] * len(cands), list(sizes), union, Fraction(1))
    return out, dead


def most_restricted_distribution(cands: Sequence[Mask], sizes: Sequence[int]
                                 ) -> tuple[dict[Distribution, Fraction], Fraction]:
    """Exact law of one pass of Algorithm 2: (distributions reached, dead-end probability)."""
    _check(cands, sizes)
    out: dict[Distribution, Fraction] = {}
    dead = Fraction(0)

    def rec(c: list[Mask], left: frozenset[int], prob: Fraction) -> None:
        nonlocal dead
        if not left:
            d = tuple(c)
            if _valid(d, cands, sizes):
                out[d] = out.get(d, Fraction(0)) + prob
            else:
                dead += prob
            return
        p = min(left, key=lambda s: (c[s].bit_count(), s))
        options = list(combinations(list(iter_bits(c[p])), sizes[p]))
        if not options:
            dead += prob
            return
        for combo in options:
            chosen = 0
            for card in combo:
                chosen |= 1 << card
            nc = [h if q == p else (h & ~chosen if q in left else h) for q, h in enumerate(c)]
            nc[p] = chosen
            rec(nc, left - {p}, prob / len(options))

    rec(list(cands), frozenset(range(len(cands))), Fraction(1))
    return out, dead


def figure7() -> tuple[tuple[Mask, ...], tuple[int, ...]]:
    """de Jong's Figure 7: seats North, East, West (0, 1, 2), one card each of spades,
    clubs, hearts (cards 0, 1, 2); North has no spade, West has no heart."""
    spade, club, heart = 1, 2, 4
    return (club | heart, spade | club | heart, spade | club), (1, 1, 1)
