"""Logbook mission 12's random draw as a chance node: three answers instead of one verdict.

*Immediately after the first trick, each of you must draw a random card from the crew
member to your right and add it to your hand.* Every seat's random card is picked first
(uniformly from its hand after the first trick) and then goes to the next seat in play
order (Board Game Arena, ``Mission12.php``: the card moves to ``Players::getNextId``).
The reference never draws the card a seat has placed on its communication token
(``Player.php:115`` at ``c57d835``, ``getRandomCard``), so a seat can shield one card; the
draw here is uniform over the whole hand, so "every draw" and the chance are lower bounds
of the reference's (:data:`SHIELD_CAVEAT`, printed with every answer).

The crew fixes the task seats (the draft, or whatever the assignment rule allows) and
plays the first trick knowing every hand but not the draw; the rest of the game is played
knowing the draw. So a deal has three answers, for the best seats and first trick:

``every``
    some choice of seats and first trick wins *whatever* the draw;
``some``
    some choice and some draw win (the crew is lucky);
``probability``
    the highest chance of a win over the crew's choices, the draw uniform.

:func:`analyse_draw` computes them exactly: for each choice of seats (the variants of
:mod:`crewcheck.model.variants`) and each legal first trick, the position after the draw
is a fresh deal (the first trick's cards gone, the tasks it completed gone and the order
tokens renumbered, the winner to lead) decided by :func:`crewcheck.decide`. Branch and
bound keeps it from deciding every draw: a choice stops as soon as its losses show it
cannot beat the best chance found so far. Cost: up to seats x first tricks x draws
decisions (the draws are the product of the hand sizes after the first trick: 9^4 =
6,561 with four players), so a Classic deal can take hours when the answer is "not for
every draw"; under a time budget the answer says how far it got.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product

from crewcheck.api import decide
from crewcheck.errors import NotApplicableError
from crewcheck.model.cards import CardIndex, Deck, iter_bits
from crewcheck.model.instance import Instance
from crewcheck.model.rules import Rules
from crewcheck.model.state import State
from crewcheck.model.tasks import Task, TokenKind, token_kind
from crewcheck.model.variants import Choice, variants
from crewcheck.solvers.base import Budget, Verdict

__all__ = ["DrawAnswer", "SHIELD_CAVEAT", "analyse_draw", "best_shields", "shieldable", "first_tricks", "draws", "after_draw"]


@dataclass(frozen=True)
class DrawAnswer:
    """The three answers of a deal with mission 12's draw (module docstring)."""

    every: bool | None
    """Some choice of seats and first trick wins for every draw (``None``: out of time)."""
    some: bool | None
    """Some choice, first trick and draw win."""
    probability: Fraction | None
    """The best choice's chance of a win, the draw uniform (exact)."""
    choice: Choice | None = None
    """The best choice of seats (``None`` when nothing was left to choose)."""
    first_trick: tuple[CardIndex, ...] | None = None
    """The best first trick, in play order (``None`` if no first trick wins any draw)."""
    decisions: int = 0
    """Positions after a draw that were decided."""
    seconds: float = 0.0
    complete: bool = True
    """Whether every answer is exact (else the budget ran out; the bounds are in ``lower``)."""
    lower: Fraction = field(default=Fraction(0))
    """A proven lower bound on the probability (the best choice fully counted so far)."""
    task_seats: tuple[int, ...] | None = None
    """The seat of each task (in the deal's task order) for the best first trick."""
    shielded: bool = False
    """Whether the crew's shields were chosen too (``analyse_draw(shield=True)``)."""
    shields: tuple[CardIndex | None, ...] | None = None
    """With ``shielded``: the card each seat places on its communication token (``None``: none)."""

    def describe(self, instance: Instance) -> str:
        if not self.complete:
            return (f"undecided after {self.decisions:,} decisions ({self.seconds:.1f} s): the chance of a win "
                    f"is at least {float(self.lower):.3f}" + ("" if self.shielded else f"\n{SHIELD_CAVEAT}"))
        assert self.probability is not None
        trick = "" if self.first_trick is None else " (first trick " + " ".join(
            str(instance.deck.card(c)) for c in self.first_trick) + ")"
        lines = [f"winnable for every draw: {'yes' if self.every else 'no'}; for some draw: "
                 f"{'yes' if self.some else 'no'}; best chance {self.probability} = {float(self.probability):.3f}"
                 f"{trick}; {self.decisions:,} decisions, {self.seconds:.1f} s"]
        if self.task_seats is not None and self.first_trick is not None:
            lines.append("task seats: " + ", ".join(f"{instance.deck.card(t.card)} seat {s}"
                                                    for t, s in zip(instance.tasks, self.task_seats)))
        if not self.shielded:
            lines.append(SHIELD_CAVEAT)
        elif self.shields is not None:
            lines.append("shields (the card on each seat's communication token, never drawn): " + ", ".join(
                f"seat {s} {'none' if c is None else instance.deck.card(c)}" for s, c in enumerate(self.shields)))
        return "\n".join(lines)


SHIELD_CAVEAT = ("note: every card of a hand may be drawn here; the reference never draws the card a seat "
                 "has placed on its communication token (Player.php:115 at c57d835, getRandomCard), so a seat "
                 "can shield one card: 'every draw' and the chance are lower bounds of the reference's "
                 "(--shield chooses the shields too)")
"""Printed with every answer: what the draw here leaves out (the shield)."""


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


def _fixed_choices(instance: Instance) -> Iterator[tuple[Choice, Instance]]:
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


def analyse_draw(instance: Instance, *, backend: str | None = None, budget: Budget | None = None,
                 progress: Callable[[int], None] | None = None, shield: bool = False) -> DrawAnswer:
    """The three answers of ``instance`` with mission 12's draw after the first trick.

    ``instance`` is a deal before its first card (a deal file of ``crewcheck mission 12``),
    without conditions, distress signal or hand-over. ``backend`` decides the positions
    after a draw; ``budget.seconds`` bounds the whole analysis; ``progress(decisions)`` is
    called now and then. ``shield``: the crew also chooses, before the first trick, the
    card each seat places on its communication token, which the reference never draws
    (:func:`best_shields`); every draw of every first trick is then decided (no pruning),
    and the answers are the reference's, not lower bounds. Raises
    :class:`NotApplicableError` for any other deal.
    """
    if instance.history:
        raise NotApplicableError("the draw comes after the first trick: give the deal before its first card")
    if instance.conditions or instance.distress is not None or instance.handover:
        raise NotApplicableError("the draw analysis takes deals with tasks only (mission 12)")
    start = time.perf_counter()
    limit = None if budget is None or budget.seconds is None else start + budget.seconds
    best = Fraction(-1)
    best_choice: Choice | None = None
    best_trick: tuple[CardIndex, ...] | None = None
    best_seats: tuple[int, ...] | None = None
    best_shield: tuple[CardIndex | None, ...] | None = None
    decisions = 0
    some = False
    for choice, concrete in _fixed_choices(instance):
        for trick in first_tricks(concrete):
            end = after_draw(concrete, trick, ())
            if isinstance(end, bool):
                total, wins = 1, int(end)
                pending: list[tuple[CardIndex, ...]] = []
            else:
                state = concrete.with_history(trick).state()
                hands = tuple(state.hands)
                pending = list(draws(hands))
                total, wins = len(pending), 0
            losses = 0
            outcomes: dict[tuple[CardIndex, ...], bool] = {}
            for d in pending:
                if limit is not None and time.perf_counter() > limit:
                    return DrawAnswer(None, True if some else None, None, best_choice, best_trick, decisions,
                                      time.perf_counter() - start, False, max(best, Fraction(0)), shielded=shield)
                fresh = after_draw(concrete, trick, d)
                if isinstance(fresh, bool):  # (never: the game went on after the first trick)
                    won = fresh
                else:
                    left = None if limit is None else max(0.001, limit - time.perf_counter())
                    r = decide(fresh, backend=backend, budget=Budget(seconds=left))
                    decisions += 1
                    if progress is not None and decisions % 500 == 0:
                        progress(decisions)
                    if r.verdict is Verdict.UNKNOWN:
                        return DrawAnswer(None, True if some else None, None, best_choice, best_trick, decisions,
                                          time.perf_counter() - start, False, max(best, Fraction(0)), shielded=shield)
                    won = r.verdict is Verdict.WINNABLE
                wins += won
                losses += not won
                some = some or won
                outcomes[d] = won
                if not shield and best >= 0 and Fraction(total - losses, total) <= best and (best > 0 or some):
                    break  # this first trick cannot beat the best one (and "some" is known)
            else:
                chance = Fraction(wins, total)
                shields: tuple[CardIndex | None, ...] | None = None
                if shield and pending:
                    hands_after = tuple(concrete.with_history(trick).state().hands)
                    chance, shields = best_shields(concrete, trick, hands_after, outcomes)
                if chance > best:
                    best, best_choice, best_trick = chance, choice, trick
                    best_seats = tuple(-1 if t.seat is None else t.seat for t in concrete.tasks)
                    best_shield = shields
                if best == 1:
                    return DrawAnswer(True, True, best, None if best_choice is None or best_choice.is_empty()
                                      else best_choice, best_trick, decisions, time.perf_counter() - start,
                                      task_seats=best_seats, shielded=shield, shields=best_shield)
    best = max(best, Fraction(0))
    return DrawAnswer(False, some, best, None if best_choice is None or best_choice.is_empty() else best_choice,
                      best_trick if best > 0 else None, decisions, time.perf_counter() - start,
                      task_seats=best_seats if best > 0 else None, shielded=shield,
                      shields=best_shield if best > 0 else None)
