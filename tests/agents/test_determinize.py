"""Determinization (de Jong §5.2): consistency, uniformity, and the thesis's examples."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from math import sqrt

import pytest
from hypothesis import given, settings, strategies as st

from crewcheck.agents.determinize import (
    SAMPLERS, closed_form_count, closed_form_count_as_printed, count_distributions, enumerate_distributions,
    figure7, most_restricted_distribution, probability, random_selection_distribution, sample_uniform,
    uniform_distribution,
)


@st.composite
def knowledge(draw: st.DrawFn, max_seats: int = 3, max_cards: int = 8) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Candidate sets and hand sizes with at least one consistent distribution: deal the
    cards, then widen every seat's candidates by random extra cards."""
    seats = draw(st.integers(2, max_seats))
    n = draw(st.integers(seats, max_cards))
    owner = draw(st.lists(st.integers(0, seats - 1), min_size=n, max_size=n))
    hands = [0] * seats
    for card, s in enumerate(owner):
        hands[s] |= 1 << card
    extra = draw(st.lists(st.integers(0, (1 << n) - 1), min_size=seats, max_size=seats))
    cands = tuple(h | e for h, e in zip(hands, extra))
    return cands, tuple(h.bit_count() for h in hands)


@settings(max_examples=60, deadline=None)
@given(knowledge(max_seats=4))
def test_dynamic_programme_counts_like_enumeration(k) -> None:
    cands, sizes = k
    assert count_distributions(cands, sizes) == len(enumerate_distributions(cands, sizes))


@settings(max_examples=60, deadline=None)
@given(knowledge(max_seats=3))
def test_closed_forms_19_20_with_the_missing_term(k) -> None:
    """(19) and (20) with the cards only seat q can hold accounted for equal the count."""
    cands, sizes = k
    assert closed_form_count(cands, sizes) == count_distributions(cands, sizes)


def test_formula_20_as_printed_misses_cards_only_q_can_hold() -> None:
    """As printed, (20)'s last binomial ignores C_q minus (C_p or C_r). Smallest case:
    every hand known (p holds card 1, q card 2, r card 0): one distribution, (20) says 0."""
    cands, sizes = (0b010, 0b100, 0b001), (1, 1, 1)
    assert count_distributions(cands, sizes) == len(enumerate_distributions(cands, sizes)) == 1
    assert closed_form_count(cands, sizes) == 1
    assert closed_form_count_as_printed(cands, sizes) == 0
    # without cards only q can hold, the printed form is right
    cands2 = (0b011, 0b111, 0b110)
    assert closed_form_count_as_printed(cands2, sizes) == count_distributions(cands2, sizes)


@settings(max_examples=40, deadline=None)
@given(knowledge(max_seats=3, max_cards=6))
def test_algorithm_1_is_exactly_uniform(k) -> None:
    """The exact law of Algorithm 1 puts 1/count on every consistent distribution."""
    cands, sizes = k
    law = uniform_distribution(cands, sizes)
    every = enumerate_distributions(cands, sizes)
    assert set(law) == set(every)
    assert all(p == Fraction(1, len(every)) for p in law.values())


@settings(max_examples=30, deadline=None)
@given(knowledge(max_seats=4, max_cards=7), st.sampled_from(sorted(SAMPLERS)), st.integers(0, 2 ** 32))
def test_samplers_only_return_consistent_deals(k, name: str, seed: int) -> None:
    cands, sizes = k
    d = SAMPLERS[name](cands, sizes, random.Random(seed))
    assert d in set(enumerate_distributions(cands, sizes))


def _chi2_upper(df: int, z: float = 4.0) -> float:
    """Wilson-Hilferty upper quantile of chi-squared(df) at ``z`` standard deviations."""
    a = 2 / (9 * df)
    return df * (1 - a + z * sqrt(a)) ** 3


@pytest.mark.parametrize("case", [
    figure7(),
    ((0b0011_1111, 0b1111_1100, 0b1100_1111), (2, 3, 3)),
    ((0b111111, 0b111111, 0b000111), (2, 2, 2)),
])
def test_algorithm_1_sampling_is_uniform_statistically(case) -> None:
    """6000 seeded samples of Algorithm 1 against the enumerated set: chi-squared test."""
    cands, sizes = case
    every = enumerate_distributions(cands, sizes)
    rng = random.Random(2024)
    n = 6000
    counts = Counter(sample_uniform(cands, sizes, rng) for _ in range(n))
    assert set(counts) <= set(every)
    e = n / len(every)
    chi2 = sum((counts.get(d, 0) - e) ** 2 / e for d in every)
    assert chi2 < _chi2_upper(len(every) - 1)


def test_figure7_probability_is_two_thirds() -> None:
    """de Jong Example 2: North holds the heart in 2 of the 3 consistent distributions."""
    cands, sizes = figure7()
    assert len(enumerate_distributions(cands, sizes)) == 3
    assert probability(cands, sizes, card=2, seat=0) == Fraction(2, 3)


def test_figure8_uniform_random_selection_gives_41_72() -> None:
    """de Jong Figure 8: one pass of uniform random selection gives North the heart with
    probability 41/72, not 2/3. (With restarts on dead ends, probability 5/36, the
    sampler's output law is 41/62: also not 2/3.)"""
    cands, sizes = figure7()
    law, dead = random_selection_distribution(cands, sizes)
    north_heart = sum(p for d, p in law.items() if d[0] >> 2 & 1)
    assert north_heart == Fraction(41, 72)
    assert dead == Fraction(5, 36)
    assert north_heart / (1 - dead) == Fraction(41, 62)


def test_algorithm_2_not_uniform_on_figure7_but_uniform_on_chains() -> None:
    """Example 2: most restricted first gives North the heart with probability 1/2 (ties to
    the lowest seat); Lemma 2: uniform when the candidate sets form a chain."""
    cands, sizes = figure7()
    law, dead = most_restricted_distribution(cands, sizes)
    assert dead == 0
    assert sum(p for d, p in law.items() if d[0] >> 2 & 1) == Fraction(1, 2)
    chain = (0b000111, 0b011111, 0b111111)
    law, dead = most_restricted_distribution(chain, (2, 2, 2))
    every = enumerate_distributions(chain, (2, 2, 2))
    assert dead == 0 and set(law) == set(every)
    assert set(law.values()) == {Fraction(1, len(every))}


def test_sampler_seeded_is_deterministic() -> None:
    cands, sizes = ((0b0011_1111, 0b1111_1100, 0b1100_1111), (2, 3, 3))
    for name, f in SAMPLERS.items():
        assert [f(cands, sizes, random.Random(5)) for _ in range(3)] == \
               [f(cands, sizes, random.Random(5)) for _ in range(3)], name

