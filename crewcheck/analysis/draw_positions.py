"""Mission 12's draw, position by position: the first tricks, the draws after one, the
position after a draw as a fresh deal, and the shields a seat may choose.

The analysis (:mod:`crewcheck.analysis.chance`) goes through these; the board
(:mod:`crewcheck.web.draw`) plays the position after a draw the player picks. A draw is
one card of each seat's hand after the first trick, given seat by seat; seat ``s``'s card
goes to seat ``s + 1`` (Board Game Arena, ``Mission12.php``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction
from itertools import product
from math import gcd, prod

from crewcheck.model.cards import CardIndex, Deck, iter_bits
from crewcheck.model.instance import Instance
from crewcheck.model.rules import Rules
from crewcheck.model.state import State
from crewcheck.model.tasks import Task, TokenKind, token_kind
from crewcheck.model.variants import Choice, variants

__all__ = ["first_tricks", "draws", "scrambled_draws", "after_draw", "fixed_choices", "shieldable", "best_shields"]


def first_tricks(instance: Instance) -> Iterator[tuple[CardIndex, ...]]:
    """Every legal first trick of ``instance`` (a deal before its first card), in play order,
    as the rules engine plays it."""
    start = instance.state()

    def walk(state: State, cards: tuple[CardIndex, ...]) -> Iterator[tuple[CardIndex, ...]]:
        if len(cards) == instance.players:
            yield cards
            return
        for c in iter_bits(state.legal_mask()):
            yield from walk(state.apply(c), (*cards, c))

    yield from walk(start, ())


def draws(hands: tuple[int, ...]) -> Iterator[tuple[CardIndex, ...]]:
    """Every draw: one card of each seat's hand (seat ``s``'s card goes to seat ``s + 1``)."""
    return product(*(tuple(iter_bits(h)) for h in hands))


def scrambled_draws(hands: tuple[int, ...], seed: int) -> Iterator[tuple[CardIndex, ...]]:
    """Every draw of :func:`draws` once, in an order scrambled by ``seed`` (a stride through
    their numbering that is prime to their count, from a random start), without listing them."""
    cards = [tuple(iter_bits(h)) for h in hands]
    total = prod(len(c) for c in cards)
    if total == 0:
        return
    rng = random.Random(seed)
    step = 1
    if total > 2:
        step = rng.randrange(1, total)
        while gcd(step, total) != 1:
            step = rng.randrange(1, total)
    at = rng.randrange(total)
    for _ in range(total):
        rest, draw = at, []
        for c in reversed(cards):
            rest, i = divmod(rest, len(c))
            draw.append(c[i])
        yield tuple(reversed(draw))
        at = (at + step) % total


def _renumbered(tasks: list[Task], done: int) -> tuple[Task, ...]:
    """The tokens of the tasks left after ``done`` tasks were completed: absolute tokens
    count from the next place, relative tokens keep their order from ``">"``."""
    relative = sorted({t.token for t in tasks if t.token and token_kind(t.token)[0] is TokenKind.RELATIVE}, key=len)
    out = []
    for t in tasks:
        tok = t.token
        if tok is not None:
            kind, rank = token_kind(tok)
            if kind is TokenKind.ABSOLUTE:
                tok = str(rank - done)
            elif kind is TokenKind.RELATIVE:
                tok = ">" * (relative.index(tok) + 1)
        out.append(Task(t.card, t.seat, tok))
    return tuple(out)


def after_draw(concrete: Instance, trick: tuple[CardIndex, ...], draw: tuple[CardIndex, ...]) -> Instance | bool:
    """The deal left after the first ``trick`` and the ``draw``: a fresh deal with fixed
    task seats; or ``True``/``False`` when the first trick already ended the game."""
    state = concrete.with_history(trick).state()
    if state.end is not None:
        return state.end.won
    p = concrete.players
    hands = [concrete.hands[s] & ~sum(1 << c for c in trick) for s in range(p)]
    for s, c in enumerate(draw):
        hands[s] &= ~(1 << c)
    for s, c in enumerate(draw):
        hands[(s + 1) % p] |= 1 << c
    cards = [concrete.deck.card(c) for h in hands for c in iter_bits(h)]
    deck = Deck.from_cards(cards)
    trump = concrete.trump if concrete.trump in deck.suits else None
    seats = state.owners if state.owners is not None else tuple(t.seat for t in concrete.tasks)
    left = []
    done = 0
    for t, seat in zip(concrete.tasks, seats):
        if t.card in trick:
            done += 1
        else:
            left.append(Task(deck.index(concrete.deck.card(t.card)), seat, t.token))
    masks = tuple(deck.mask_of(concrete.deck.card(c) for c in iter_bits(h)) for h in hands)
    winner = state.leader
    assert winner is not None
    return Instance(deck, masks, _renumbered(left, done), trump, winner, Rules(concrete.rules.order_rule, "fixed"))


def fixed_choices(instance: Instance) -> Iterator[tuple[Choice, Instance]]:
    """Every choice of task seats as a fixed deal (free assignment: every split the draft allows)."""
    for choice, concrete in variants(instance):
        if concrete.rules.assignment == "fixed":
            yield choice, concrete
            continue
        counts = concrete.task_counts
        assert counts is not None
        for seats in product(range(concrete.players), repeat=len(concrete.tasks)):
            if all(seats.count(s) == counts[s] for s in range(concrete.players)):
                yield choice, concrete.with_assignment(seats)


def shieldable(instance: Instance, seat: int) -> tuple[CardIndex, ...]:
    """The cards ``seat`` may place on its communication token before the first trick: a
    card that is no trump and is the highest or the lowest of its suit in the hand (the
    reference's ``CommunicationTrait::argComm``, lines 66-79 at ``c57d835``)."""
    deck, hand = instance.deck, instance.hands[seat]
    by_suit: dict[int, list[CardIndex]] = {}
    for c in iter_bits(hand):
        if deck.suit_of(c) != instance.trump_suit:
            by_suit.setdefault(deck.suit_of(c), []).append(c)
    return tuple(sorted({c for cards in by_suit.values() for c in (min(cards), max(cards))}))


def best_shields(instance: Instance, trick: tuple[CardIndex, ...], hands: tuple[int, ...],
                 won: dict[tuple[CardIndex, ...], bool]) -> tuple[Fraction, tuple[CardIndex | None, ...]]:
    """The best chance over the crew's shields (each seat shields one card it may
    communicate and still holds after ``trick``, or none) given every draw's outcome
    ``won``, and the shields that reach it (``None``: no shield)."""
    options = [(None, *(c for c in shieldable(instance, s) if hands[s] >> c & 1)) for s in range(instance.players)]
    best = Fraction(-1)
    best_shield: tuple[CardIndex | None, ...] = tuple(None for _ in options)
    for shield in product(*options):
        total = 1
        for s, h in enumerate(hands):
            total *= h.bit_count() - (shield[s] is not None)
        wins = sum(1 for d, w in won.items() if w and all(d[s] != shield[s] for s in range(len(d))))
        if Fraction(wins, total) > best:
            best, best_shield = Fraction(wins, total), shield
    return best, best_shield
