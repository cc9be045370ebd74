"""Claims from de Jong's thesis (seed ``001``, §5.2): determinization.

Every check here is exact: the output law of a sampler is computed as fractions
(:mod:`crewcheck.agents.determinize`) on every small case of a family, and compared
with the set of consistent distributions enumerated by brute force.

* Lemma 1: Algorithm 1 (card by card, with the exact conditional probability) outputs
  every consistent distribution with probability 1/count.
* Formula (20), as printed, counts the consistent distributions of three unknown hands.
* Lemma 2: Algorithm 2 (most restricted first) is uniform when the candidate sets form a
  chain.
* §5.2.5: uniform random selection gives North the heart of Figure 7 with probability
  41/72 in one pass, where the consistent distributions give 2/3.

Each check takes the law (or count) it judges as a parameter, so a test can hand it a
wrong one and see it fail.

References
----------
.. [1] A. de Jong, "An Analysis of the Cooperative Card Game The Crew", seed ``001``, §5.2.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction

from crewcheck.agents.determinize import (Distribution, closed_form_count_as_printed, count_distributions,
                                          enumerate_distributions, figure7, most_restricted_distribution,
                                          random_selection_distribution, uniform_distribution)
from crewcheck.claims.claim import Computation, Mode, Value

__all__ = ["cases", "chains", "uniform_on", "lemma_1", "eq_20_as_printed", "lemma_2", "figure_8",
           "north_heart", "first_disagreement"]

Case = tuple[tuple[int, ...], tuple[int, ...]]
Law = Callable[[Sequence[int], Sequence[int]], dict[Distribution, Fraction]]


def cases(seats: int, cards: int) -> Iterator[Case]:
    """Every (candidate sets, hand sizes) of `seats` unknown hands over `cards` cards that
    has a consistent distribution (each card a candidate of some seat), smallest first."""
    full = (1 << cards) - 1
    for sizes in itertools.product(range(cards + 1), repeat=seats):
        if sum(sizes) != cards:
            continue
        for cands in itertools.product(range(full + 1), repeat=seats):
            union = 0
            for c in cands:
                union |= c
            if union == full and count_distributions(cands, sizes):
                yield tuple(cands), tuple(sizes)


def chains(seats: int, cards: int) -> Iterator[Case]:
    """The cases of :func:`cases` whose candidate sets form a chain in some order."""
    for cands, sizes in cases(seats, cards):
        ordered = sorted(cands, key=int.bit_count)
        if all(a & ~b == 0 for a, b in zip(ordered, ordered[1:])):
            yield cands, sizes


def uniform_on(law: Law, family: Sequence[Case]) -> tuple[int, Case | None]:
    """How many cases of `family` `law` gives exactly 1/count on every consistent
    distribution (and nothing else), and the first case where it does not."""
    good, bad = 0, None
    for cands, sizes in family:
        every = enumerate_distributions(cands, sizes)
        got = law(cands, sizes)
        if set(got) == set(every) and all(p == Fraction(1, len(every)) for p in got.values()):
            good += 1
        elif bad is None:
            bad = (cands, sizes)
    return good, bad


def _family(mode: Mode, chain: bool = False) -> list[Case]:
    shapes = ((2, 3), (3, 3)) if mode == "quick" else ((2, 3), (3, 3), (2, 4), (3, 4))
    gen = chains if chain else cases
    return [c for seats, cards in shapes for c in gen(seats, cards)]


def lemma_1(mode: Mode, law: Law = uniform_distribution) -> Computation:
    """Lemma 1: Algorithm 1 generates every consistent distribution uniformly."""
    family = _family(mode)
    good, bad = uniform_on(law, family)
    values = (Value("cases", len(family), "every candidate-set family of 2-3 unknown hands over 3 cards"
                    + ("" if mode == "quick" else " and over 4 cards") + " with a consistent distribution"),
              Value("uniform", good, "cases where Algorithm 1's exact output law (fractions, card by card with "
                    "the exact conditional probabilities) is 1/count on every enumerated consistent distribution"))
    if bad is not None:
        return Computation(values, holds=False, evidence=f"not uniform on candidate sets {bad[0]}, sizes {bad[1]}")
    return Computation(values, holds=True, evidence=f"exactly uniform on all {len(family):,} cases")


def first_disagreement(count: Callable[[Sequence[int], Sequence[int]], int],
                       family: Sequence[Case]) -> tuple[int, Case | None]:
    """How many cases `count` gets right (against the enumeration), and the first it gets wrong."""
    good, bad = 0, None
    for cands, sizes in family:
        if count(cands, sizes) == len(enumerate_distributions(cands, sizes)):
            good += 1
        elif bad is None:
            bad = (cands, sizes)
    return good, bad


def eq_20_as_printed(mode: Mode, count: Callable[[Sequence[int], Sequence[int]], int]
                     = closed_form_count_as_printed) -> Computation:
    """Formula (20) as printed counts the consistent distributions of three unknown hands p, q, r."""
    family = [c for cards in (1, 2, 3) for c in cases(3, cards) if min(c[1]) >= 1]
    good, bad = first_disagreement(count, family)
    values = [Value("cases", len(family), "every candidate-set family of three unknown non-empty hands (p, q, r) "
                    "over 3 cards with a consistent distribution")]
    values.append(Value("agree", good, "cases where (20) as printed equals the number of consistent distributions "
                        "(enumerated)"))
    if bad is None:
        return Computation(tuple(values), holds=True, evidence="(20) as printed agrees on every case")
    known = ((0b010, 0b100, 0b001), (1, 1, 1))
    values.append(Value("known_hands", {"distributions": len(enumerate_distributions(*known)),
                                        "(20) as printed": count(*known)},
                        "C_p = {1}, C_q = {2}, C_r = {0}, one card each (every hand known)"))
    (cp, cq, cr), sizes = bad
    as_sets = ", ".join(f"C_{s} = {{{', '.join(str(i) for i in range(3) if m >> i & 1)}}}"
                        for s, m in zip("pqr", (cp, cq, cr)))
    values.append(Value("smallest_counterexample", {"candidate sets": as_sets, "hand sizes": list(sizes),
                                                   "distributions": len(enumerate_distributions(*bad)),
                                                   "(20) as printed": count(*bad)},
                        "the first case where they differ (seats in the order p, q, r; hands enumerated in "
                        "increasing candidate masks)"))
    return Computation(tuple(values), holds=False,
                       evidence=(f"{as_sets}, hands of {'/'.join(map(str, sizes))} cards: "
                                 f"{len(enumerate_distributions(*bad))} consistent distribution(s), (20) as printed "
                                 f"gives {count(*bad)}; its last binomial omits the #(C_q \\ (C_p ∪ C_r)) cards "
                                 "only q can hold"))


def _most_restricted(cands: Sequence[int], sizes: Sequence[int]) -> dict[Distribution, Fraction]:
    law, dead = most_restricted_distribution(cands, sizes)
    return law if dead == 0 else {}


def lemma_2(mode: Mode, law: Law = _most_restricted, family: Sequence[Case] | None = None) -> Computation:
    """Lemma 2: on chains of candidate sets, Algorithm 2 generates every consistent
    distribution uniformly (and never dead-ends)."""
    family = _family(mode, chain=True) if family is None else family
    good, bad = uniform_on(law, family)
    values = (Value("chains", len(family), "every chain of candidate sets of 2-3 unknown hands over 3 cards"
                    + ("" if mode == "quick" else " and over 4 cards") + " with a consistent distribution"),
              Value("uniform", good, "chains where Algorithm 2's exact output law (ties to the lowest seat) is "
                    "1/count on every enumerated consistent distribution, with no dead end"))
    if bad is not None:
        return Computation(values, holds=False, evidence=f"not uniform on candidate sets {bad[0]}, sizes {bad[1]}")
    return Computation(values, holds=True, evidence=f"exactly uniform on all {len(family):,} chains")


def north_heart(law: dict[Distribution, Fraction]) -> Fraction:
    """The probability that North (seat 0) holds the heart (card 2) of Figure 7 under `law`."""
    return sum((p for d, p in law.items() if d[0] >> 2 & 1), Fraction(0))


def figure_8(mode: Mode) -> Computation:
    """§5.2.5: uniform random selection gives North the heart with probability 41/72, not 2/3."""
    cands, sizes = figure7()
    every = enumerate_distributions(cands, sizes)
    uniform = north_heart({d: Fraction(1, len(every)) for d in every})
    law, dead = random_selection_distribution(cands, sizes)
    one_pass = north_heart(law)
    values = (Value("north_heart_consistent", str(uniform), f"share of the {len(every)} consistent distributions of "
                    "Figure 7 (enumerated) in which North holds the heart"),
              Value("north_heart_selection", str(one_pass), "exact law of one pass of uniform random selection "
                    "(a random seat still short of cards takes a random free candidate): North holds the heart"),
              Value("dead_end", str(dead), "probability that one pass dead-ends (not in the thesis)"),
              Value("north_heart_with_restarts", str(one_pass / (1 - dead)), "the same, for a sampler that "
                    "restarts on a dead end (not in the thesis; also not 2/3)"))
    return Computation(values, holds=None, evidence=f"one pass: {one_pass}; consistent distributions: {uniform}")
