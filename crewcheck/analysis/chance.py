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
tokens renumbered, the winner to lead). Most draws need no search
(:mod:`crewcheck.analysis.draw_classes`): a position isomorphic to one answered before has
its outcome, and a winning line of another draw, its drawn cards exchanged, often wins
again; of first tricks whose positions are isomorphic only one is weighed. The rest are
decided by the plain search within :data:`SEARCH_NODES` nodes, then by the first trick's
SAT formula with the draw as assumptions (:class:`~crewcheck.analysis.draw_formula.DrawFormula`,
one incremental solver per first trick) or, for the first few and the hardest, by
:func:`crewcheck.decide`. "For every draw" comes first: a hunt goes through the
draws of the first tricks, one first trick at a time, in a scrambled order, the draws lost
after other first tricks first, until one first trick wins every draw (the chance is 1 and nothing else needs
counting) or each has lost one. Only then is the chance counted, by branch and bound: the
first tricks that went longest without a loss first, each stopped as soon as its losses
show it cannot beat the best chance found so far. Cost: up to seats x first tricks x draws
positions (the draws are the product of the hand sizes after the first trick: 9^4 = 6,561
with four players); the losing positions are the expensive part, since no line carries a
loss over; under a time budget the answer says how far it got.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import prod

from crewcheck.analysis.draw_classes import DrawClasses, DrawCounts, Line
from crewcheck.analysis.draw_formula import Decided, DrawFormula, FamilyCounts, family_draws
from crewcheck.analysis.draw_positions import after_draw, best_shields, draws, first_tricks, fixed_choices, scrambled_draws
from crewcheck.api import decide
from crewcheck.errors import NotApplicableError
from crewcheck.model.cards import CardIndex, Mask, iter_bits
from crewcheck.model.instance import Instance
from crewcheck.model.variants import Choice
from crewcheck.solvers.base import Budget, Deadline, Result, Verdict

__all__ = ["DrawAnswer", "SHIELD_CAVEAT", "analyse_draw"]


@dataclass(frozen=True)
class DrawAnswer:
    """The three answers of a deal with mission 12's draw (module docstring)."""

    every: bool | None
    """Some choice of seats and first trick wins for every draw (``None``: out of time;
    known even then when a losing draw was found after every first trick)."""
    some: bool | None
    """Some choice, first trick and draw win."""
    probability: Fraction | None
    """The best choice's chance of a win, the draw uniform (exact)."""
    choice: Choice | None = None
    """The best choice of seats (``None`` when nothing was left to choose)."""
    first_trick: tuple[CardIndex, ...] | None = None
    """The best first trick, in play order (``None`` if no first trick wins any draw)."""
    decisions: int = 0
    """Positions after a draw that were decided by a search."""
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
    counts: DrawCounts = field(default_factory=DrawCounts)
    """How the draws were answered: searched, isomorphic to one seen, or won by a line carried over."""
    formula: FamilyCounts | None = None
    """What the draw formulas did (:mod:`crewcheck.analysis.draw_formula`), when one was
    built or with ``families``."""
    every_seconds: float | None = None
    """Seconds until ``every`` was known (``None``: it is not)."""
    tricks_lost: int = 0
    """First tricks (one per class of isomorphic positions, with their seats) shown to lose
    some draw: with ``every`` unknown, how far the hunt for one that wins every draw got."""
    counted: bool = True
    """``False``: the chance was left out once "for every draw" was known (``count=False``)."""

    def _work(self) -> str:
        c, f = self.counts, self.formula
        families = f", {f.families:,} lost families answering {f.lost:,} draws" if f is not None and f.families else ""
        by_formula = "" if f is None else (
            f", {f.calls:,} SAT calls on {f.formulas:,} draw formulas ({f.won:,} draws won by a model{families})")
        return (f"{self.decisions:,} positions searched, {c.isomorphic:,} isomorphic to one seen, "
                f"{c.carried:,} won by a line carried over{by_formula}")

    def describe(self, instance: Instance) -> str:
        if not self.complete:
            known = "" if self.every is None else (
                f"winnable for every draw: {'yes' if self.every else 'no'}; for some draw: "
                f"{'yes' if self.some else 'unknown'}; ")
            hunt = "" if self.every is not None or self.shielded else (
                f"; {self.tricks_lost:,} first tricks shown to lose a draw, none yet to win every draw")
            cut = "undecided" if self.counted else "the chance not counted"
            return (f"{known}{cut} after {self._work()} ({self.seconds:.1f} s): the chance of a win "
                    f"is at least {float(self.lower):.3f}{hunt}" + ("" if self.shielded else f"\n{SHIELD_CAVEAT}"))
        assert self.probability is not None
        trick = "" if self.first_trick is None else " (first trick " + " ".join(
            str(instance.deck.card(c)) for c in self.first_trick) + ")"
        lines = [f"winnable for every draw: {'yes' if self.every else 'no'}; for some draw: "
                 f"{'yes' if self.some else 'no'}; best chance {self.probability} = {float(self.probability):.3f}"
                 f"{trick}; {self._work()}, {self.seconds:.1f} s"]
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


class _OutOfTime(Exception):
    """The budget ran out (or a search came back undecided)."""


LOSING_KEPT = 64
"""Draws lost after earlier first tricks that are kept, the most recent first, and tried
first after each first trick (a draw that ruins one first trick often ruins others)."""

WIDEN_TRIAL = 2
"""Widening goes on after a first trick's first lost family only while the time it took
stays within this many times the time its families saved (their draws times the mean
search of a losing draw there, plus one), :meth:`_Analysis._by_families`."""

SEARCH_NODES = 5_000
"""Nodes the plain search gets before a position goes to its first trick's SAT formula
with the draw as variables (:class:`~crewcheck.analysis.draw_formula.DrawFormula`, one
incremental solver per first trick, the draw as assumptions): most positions after a
draw take a few hundred nodes, and the formula answers most others in a millisecond or
two once it is built (docs/missions.md, mission 12)."""

FORMULA_AFTER = 4
"""Positions after a first trick that the plain search leaves open and the default
back-end decides before the first trick's formula is built (it takes a tenth of a second
with three players, more than a few such positions cost)."""

FORMULA_CONFLICTS = 2_000
"""Conflicts the formula gets on one draw before the position goes to the default
back-end (search and SAT side racing): a lost position of a long game (twelve tricks with
three players) can take the formula alone many seconds to refute."""


@dataclass
class _Best:
    """The best choice and first trick found so far."""

    chance: Fraction = Fraction(-1)
    some: bool = False
    choice: Choice | None = None
    trick: tuple[CardIndex, ...] | None = None
    seats: tuple[int, ...] | None = None
    shields: tuple[CardIndex | None, ...] | None = None
    lower: Fraction = Fraction(0)
    """A proven lower bound on the best chance (wins counted so far after one first trick)."""


@dataclass
class _Pair:
    """A choice of seats and a first trick, with the draws after it (``None``: the first
    trick ended the game)."""

    choice: Choice
    concrete: Instance
    trick: tuple[CardIndex, ...]
    classes: DrawClasses | None
    ended: bool = False
    """With ``classes`` ``None``: whether the first trick won the game."""
    hands: tuple[Mask, ...] = ()
    """The hands after the first trick, in the deal's card indices."""
    index: dict[CardIndex, CardIndex] = field(default_factory=dict)
    """A card of ``hands`` -> its index in the position after the first trick (``classes.base``)."""
    losing: tuple[CardIndex, ...] | None = None
    """A draw found lost after this first trick (the deal's card indices)."""
    streak: int = 0
    """Draws the hunt found won, in its scrambled order, before the first loss (:meth:`_Analysis.hunt`)."""
    hard: int = 0
    """Positions after its draws that the plain search left open (:meth:`_Analysis.decider`)."""
    formula: DrawFormula | None = field(default=None, repr=False, compare=False)
    """The SAT formula of the draws after the first trick, while it is open (:meth:`close`)."""

    def close(self) -> None:
        """Free the formula's solver (it is built again if needed)."""
        if self.formula is not None:
            self.formula.close()
            self.formula = None

    @property
    def total(self) -> int:
        """How many draws there are after the first trick."""
        return prod(h.bit_count() for h in self.hands)

    def draw(self, draw: Sequence[CardIndex]) -> tuple[CardIndex, ...] | None:
        """``draw`` (the deal's card indices) in ``classes.base``'s indices; ``None`` if a
        seat no longer holds its card."""
        if any(not self.hands[s] >> c & 1 for s, c in enumerate(draw)):
            return None
        return tuple(self.index[c] for c in draw)


@dataclass
class _Analysis:
    """The state of one :func:`analyse_draw`: the bounds, the classes and the clock."""

    backend: str | None
    limit: float | None
    progress: Callable[[int], None] | None
    shield: bool
    best: _Best = field(default_factory=_Best)
    memo: dict[Hashable, bool] = field(default_factory=dict)
    """Outcomes after a draw by isomorphism class (:class:`DrawClasses`)."""
    tricks: set[Hashable] = field(default_factory=set)
    """The classes of the positions after a first trick already weighed."""
    counts: DrawCounts = field(default_factory=DrawCounts)
    families: bool = False
    """Decide the draws that need more than a quick search in one SAT formula per first
    trick, lost draws widened into lost families (:mod:`crewcheck.analysis.draw_formula`)."""
    formula_counts: FamilyCounts = field(default_factory=FamilyCounts)
    losing: list[tuple[CardIndex, ...]] = field(default_factory=list)
    """Draws lost after some first trick, the most recent first (:data:`LOSING_KEPT`)."""
    tricks_lost: int = 0
    """First tricks the hunt showed to lose a draw (or the game in the trick itself)."""

    def _lost(self, pair: _Pair, draw: tuple[CardIndex, ...]) -> None:
        """Note that ``draw`` loses after ``pair``'s first trick."""
        self.tricks_lost += pair.losing is None
        pair.losing = draw
        if draw in self.losing:
            self.losing.remove(draw)
        self.losing.insert(0, draw)
        del self.losing[LOSING_KEPT:]

    def _decide(self, fresh: Instance, backend: str | None, nodes: int | None) -> Result | None:
        left = None if self.limit is None else self.limit - time.perf_counter()
        if left is not None and left <= 0:
            raise _OutOfTime
        r = decide(fresh, backend=backend, budget=Budget(seconds=left, nodes=nodes))
        return None if r.verdict is Verdict.UNKNOWN else r

    def search(self, fresh: Instance) -> tuple[bool, Line | None]:
        """Decide a position after a draw with ``backend`` (the default back-end when none
        was named)."""
        return self._answer(self._decide(fresh, self.backend, None))

    def decider(self, pair: _Pair, draw: tuple[CardIndex, ...]) -> Callable[[Instance], tuple[bool, Line | None]]:
        """How the position after ``draw`` (``classes.base``'s indices) following ``pair``'s
        first trick is decided when it needs a search: with ``backend`` if one was named;
        else the plain search for :data:`SEARCH_NODES` nodes, then the first trick's SAT
        formula with the draw as assumptions (:class:`DrawFormula`, built once a first
        trick needs it and kept while the pair is open)."""
        if self.backend is not None:
            return self.search

        def decide_one(fresh: Instance) -> tuple[bool, Line | None]:
            r = self._decide(fresh, "search", SEARCH_NODES)
            if r is not None:
                return self._answer(r)
            pair.hard += 1
            if pair.hard <= FORMULA_AFTER:
                return self._answer(self._decide(fresh, None, None))
            if pair.formula is None:
                assert pair.classes is not None
                left = None if self.limit is None else max(0.0, self.limit - time.perf_counter())
                pair.formula = DrawFormula(pair.classes.base, self.formula_counts, Deadline(Budget(seconds=left)))
            got = pair.formula.winning(draw, FORMULA_CONFLICTS)
            if got is None:
                if pair.formula.deadline.expired():
                    raise _OutOfTime
                return self._answer(self._decide(fresh, None, None))  # a hard one: the engine
            self._tick()
            return (True, got.line) if isinstance(got, Decided) else (False, None)

        return decide_one

    def _answer(self, r: Result | None) -> tuple[bool, Line | None]:
        if r is None:
            raise _OutOfTime
        self._tick()
        return r.verdict is Verdict.WINNABLE, None if r.witness is None else tuple(r.witness.plays)

    def _tick(self) -> None:
        if self.progress is not None and (self.counts.searched + 1) % 500 == 0:
            self.progress(self.counts.searched + 1)

    def _by_families(self, pair: _Pair) -> Iterator[tuple[tuple[CardIndex, ...], bool, int]]:
        """Each draw after ``pair``'s first trick, whether it is won and how many later
        draws are known to be lost, in :func:`draws`' order, as :meth:`decider` and the
        classes decide it; a lost one (the losing draw the hunt found first) is
        widened into a lost family by the first trick's :class:`DrawFormula`, whose draws
        are then answered unsearched, as long as the families pay (:data:`WIDEN_TRIAL`)."""
        classes, index = pair.classes, pair.index
        assert classes is not None
        formula: DrawFormula | None = None
        won_draws: set[tuple[CardIndex, ...]] = set()
        lost: set[tuple[CardIndex, ...]] = set()
        seen: set[tuple[CardIndex, ...]] = set()
        ahead = 0  # (draws in lost not seen yet)
        # what widening costs here and what it saves: seconds in the formula, draws it found
        # lost, seconds and losing draws the search took
        spent, gained, searching, searched = 0.0, 0, 0.0, 0

        def widen(mine: tuple[CardIndex, ...]) -> None:
            nonlocal formula, ahead, spent, gained
            if spent > WIDEN_TRIAL * (1 + gained) * searching / max(1, searched):
                return  # the families here cost more than the searches they spare
            start = time.perf_counter()
            if formula is None:
                left = None if self.limit is None else self.limit - time.perf_counter()
                formula = DrawFormula(classes.base, self.formula_counts, Deadline(Budget(seconds=left)))
                for w in won_draws:
                    formula.block(w)
            got = formula.widen(mine)
            if got is None:
                raise _OutOfTime
            assert got.family is not None
            for e in family_draws(got.family):
                if e not in won_draws and e not in lost:
                    lost.add(e)
                    ahead += e not in seen
                    gained += e not in seen
                    classes.memo[classes.key(classes.drawn(e))] = False
            spent += time.perf_counter() - start

        try:
            seed = None if pair.losing is None else pair.draw(pair.losing)
            if seed is not None and self._outcome(pair, seed) is False:
                widen(seed)
            for d in draws(pair.hands):
                mine = tuple(index[c] for c in d)
                seen.add(mine)
                if mine in lost:
                    self.formula_counts.lost += 1
                    ahead -= 1
                    won = False
                else:
                    start, before = time.perf_counter(), self.counts.searched
                    won = self._outcome(pair, mine) is True
                    if not won and self.counts.searched > before:
                        searching += time.perf_counter() - start
                        searched += 1
                    if won:
                        won_draws.add(mine)
                        if formula is not None:
                            formula.block(mine)
                    else:
                        widen(mine)
                yield d, won, ahead
        finally:
            if formula is not None:
                formula.close()

    def pairs(self, instance: Instance) -> Iterator[_Pair]:
        """Every choice of seats and first trick, one per class of the position after the
        first trick (module docstring) unless the shields are chosen too, as they are
        needed: a first trick of each choice of seats in turn, so that a choice whose first
        tricks all lose some draw does not hold up the hunt for one that wins every draw."""
        seen: set[Hashable] = set()

        def tricks(choice: Choice, concrete: Instance) -> Iterator[_Pair]:
            for trick in first_tricks(concrete):
                base = after_draw(concrete, trick, ())
                if isinstance(base, bool):
                    yield _Pair(choice, concrete, trick, None, base)
                    continue
                classes = DrawClasses(base, self.memo, self.counts)
                if not self.shield:  # (the shields depend on the hands before the first trick)
                    k = classes.key(classes.hands)
                    if k in seen:
                        continue  # an isomorphic first trick has the same chance
                    seen.add(k)
                hands = tuple(concrete.with_history(trick).state().hands)
                index = {c: base.deck.index(concrete.deck.card(c)) for h in hands for c in iter_bits(h)}
                yield _Pair(choice, concrete, trick, classes, hands=hands, index=index)

        turns = [tricks(choice, concrete) for choice, concrete in fixed_choices(instance)]
        while turns:
            going = []
            for each in turns:
                pair = next(each, None)
                if pair is not None:
                    yield pair
                    going.append(each)
            turns = going

    def weigh(self, pair: _Pair) -> None:
        """Count the draws after ``pair``'s first trick (branch and bound: stop once it
        cannot beat the best) and keep it if it is the best so far."""
        try:
            self._weigh(pair)
        finally:
            pair.close()

    def _weigh(self, pair: _Pair) -> None:
        best = self.best
        concrete, trick = pair.concrete, pair.trick
        outcomes: dict[tuple[CardIndex, ...], bool] = {}
        if pair.classes is None:
            total, wins = 1, int(pair.ended)
        else:
            classes, hands, index = pair.classes, pair.hands, pair.index
            total, wins, losses = pair.total, 0, 0
            found = self._by_families(pair) if self.families else (
                (d, self._outcome(pair, tuple(index[c] for c in d)), 0) for d in draws(hands))
            for d, won, ahead in found:
                assert won is not None
                wins += won
                losses += not won
                best.some = best.some or won
                best.lower = max(best.lower, Fraction(wins, total))
                outcomes[d] = won
                if not self.shield and best.chance >= 0 and Fraction(total - losses - ahead, total) <= best.chance \
                        and (best.chance > 0 or best.some):
                    return  # this first trick cannot beat the best one (and "some" is known)
        best.some = best.some or wins > 0
        chance = Fraction(wins, total)
        shields: tuple[CardIndex | None, ...] | None = None
        if self.shield and outcomes:
            chance, shields = best_shields(concrete, trick, tuple(concrete.with_history(trick).state().hands),
                                           outcomes)
        self._keep(pair, chance, shields)

    def _outcome(self, pair: _Pair, draw: tuple[CardIndex, ...]) -> bool | None:
        """Whether the position after ``draw`` (``classes.base``'s indices) is won."""
        assert pair.classes is not None
        return pair.classes.outcome(draw, self.decider(pair, draw))

    def _keep(self, pair: _Pair, chance: Fraction, shields: tuple[CardIndex | None, ...] | None = None) -> None:
        """Keep ``pair`` as the best so far if its ``chance`` beats the best one's."""
        best = self.best
        best.lower = max(best.lower, chance)
        if chance > best.chance:
            best.chance, best.choice, best.trick, best.shields = chance, pair.choice, pair.trick, shields
            best.seats = tuple(-1 if t.seat is None else t.seat for t in pair.concrete.tasks)

    def _scan(self, pair: _Pair, seed: int) -> Iterator[bool]:
        """The hunt's outcomes of the draws after ``pair``'s first trick, one for each draw,
        until the first loss: the draws lost after other first tricks are tried first
        (uncounted), then every draw once, in an order scrambled by ``seed``
        (:func:`scrambled_draws`)."""
        for d in list(self.losing):
            mine = pair.draw(d)
            if mine is not None and self._outcome(pair, mine) is False:
                self._lost(pair, d)
                yield False
                return
        for d in scrambled_draws(pair.hands, seed):
            if not self._outcome(pair, tuple(pair.index[c] for c in d)):
                self._lost(pair, d)
                yield False
                return
            yield True

    def hunt(self, pairs: Iterable[_Pair], met: list[_Pair]) -> _Pair | None:
        """A first trick of ``pairs`` that wins every draw, or ``None`` when each loses one.

        The first tricks in turn, each until its first lost draw (:meth:`_scan`: the draws
        lost elsewhere first, then a scrambled order), so that a first
        trick that wins every draw is found without counting every draw of the first tricks
        before it, and the chance is counted only when none does. Each pair taken from
        ``pairs`` is added to ``met``, its :attr:`_Pair.streak` set (the weighing order then)."""
        best = self.best
        for i, pair in enumerate(pairs):
            met.append(pair)
            if pair.classes is None:
                if pair.ended:
                    best.some = True
                    self._keep(pair, Fraction(1))
                    return pair
                self.tricks_lost += 1
                continue
            total = pair.total
            try:
                for won in self._scan(pair, i):
                    if not won:
                        break
                    pair.streak += 1
                    best.some = True
                    best.lower = max(best.lower, Fraction(pair.streak, total))
            finally:
                pair.close()
            if pair.streak == total:
                self._keep(pair, Fraction(1))
                return pair
        return None


def analyse_draw(instance: Instance, *, backend: str | None = None, budget: Budget | None = None,
                 progress: Callable[[int], None] | None = None, shield: bool = False,
                 families: bool = False, count: bool = True) -> DrawAnswer:
    """The three answers of ``instance`` with mission 12's draw after the first trick.

    ``instance`` is a deal before its first card (a deal file of ``crewcheck mission 12``),
    without conditions, distress signal, hand-over or covered cards. ``backend`` decides the positions
    after a draw (default: the plain search, then the default back-end for a position it
    does not settle quickly); ``budget.seconds`` bounds the whole analysis;
    ``progress(searches)`` is called now and then.

    Draws are answered by class (:mod:`crewcheck.analysis.draw_classes`: isomorphic
    positions, winning lines carried over), and of first tricks whose positions are
    isomorphic only one is weighed. Without ``shield`` a hunt (:meth:`_Analysis.hunt`)
    goes through the first tricks until one wins every draw or each loses one: "for
    every draw" is then exact
    (``every_seconds`` says when) even if the budget runs out before the chance, which is
    counted only when no first trick wins every draw, the first tricks that went longest
    without a loss first. ``shield``: the crew also chooses,
    before the first trick, the card each seat places on its communication token, which
    the reference never draws (:func:`best_shields`); every draw of every first trick is
    then counted (no pruning, no skipped first tricks), and the answers are the
    reference's, not lower bounds. ``families``: a draw that a quick search does not
    win is decided in its first trick's SAT formula with the draw as variables, a lost
    one widened into a family of lost draws (:mod:`crewcheck.analysis.draw_formula`; the
    same answers). ``count=False`` stops once "for every draw" is known: when no first
    trick wins every draw the chance is not counted (the answer is incomplete, with
    ``counted`` false and the lower bound the hunt proved). Raises
    :class:`NotApplicableError` for any other deal, and for ``count=False`` with ``shield``
    (which counts every draw, without the hunt).
    """
    if shield and not count:
        raise NotApplicableError("the shields are chosen by counting every draw: leaving the chance out "
                                 "does not apply")
    if instance.history:
        raise NotApplicableError("the draw comes after the first trick: give the deal before its first card")
    if instance.conditions or instance.distress is not None or instance.handover:
        raise NotApplicableError("the draw analysis takes deals with tasks only (mission 12)")
    if instance.covered:
        raise NotApplicableError("the draw with JARVIS (covered cards: it gives a random face-down card, and "
                                 "the card it takes lies in that card's column) is not modelled")
    start = time.perf_counter()
    limit = None if budget is None or budget.seconds is None else start + budget.seconds
    run = _Analysis(backend, limit, progress, shield, families=families)
    formula = run.formula_counts
    best = run.best
    every: bool | None = None
    every_seconds: float | None = None
    try:
        pairs: list[_Pair] = []
        if shield:
            pairs = list(run.pairs(instance))
        else:
            winner = run.hunt(run.pairs(instance), pairs)
            every, every_seconds = winner is not None, time.perf_counter() - start
            # the likeliest best first: the longest runs of won draws before a loss
            pairs = [] if winner is not None else sorted(pairs, key=lambda p: -p.streak)
            if not count and winner is None:
                return DrawAnswer(every, True if best.some else None, None, None, None, run.counts.searched,
                                  time.perf_counter() - start, False, best.lower, counts=run.counts,
                                  every_seconds=every_seconds, tricks_lost=run.tricks_lost, counted=False)
        for pair in pairs:
            run.weigh(pair)
            if best.chance == 1:
                break
    except _OutOfTime:
        return DrawAnswer(every, True if best.some else None, None, best.choice, best.trick, run.counts.searched,
                          time.perf_counter() - start, False, best.lower, shielded=shield, counts=run.counts,
                          formula=formula if families or formula.formulas else None, every_seconds=every_seconds,
                          tricks_lost=run.tricks_lost)
    chance = max(best.chance, Fraction(0))
    won = chance > 0
    seconds = time.perf_counter() - start
    return DrawAnswer(chance == 1, best.some, chance,
                      None if best.choice is None or best.choice.is_empty() else best.choice,
                      best.trick if won else None, run.counts.searched, seconds,
                      task_seats=best.seats if won else None, shielded=shield,
                      shields=best.shields if won else None, counts=run.counts,
                      formula=formula if families or formula.formulas else None,
                      tricks_lost=run.tricks_lost,
                      every_seconds=seconds if every_seconds is None else every_seconds)
