"""Reiber §5 (Theorem 5.3): deciding β(_, 1, _, _), one suit, task cards anywhere.

What it is
    Reiber's greedy simulation, as stated in Theorem 5.3 with Lemmas 5.1 and 5.2:

    1. take the remaining task with the largest card c*; its owner is player i;
    2. the holder of c* plays it, and i plays "their highest card" (one card if they
       are the same player);
    3. "all players who have objective cards that map to player i's objectives add
       them to the trick, starting from the objective cards with the highest value";
    4. everyone else plays by Lemma 5.2: "the non-objective card with the highest
       value that will not win the trick, as long as that card is not one of the j
       highest cards", j being "the largest number of objective cards owned by a
       different single player that map to the original player's objective";
    5. repeat "until either an objective card is won by the incorrect hand, a player
       runs out of cards, or all objectives have been completed".

    The tricks played are the witness when the run completes every task.

Readings (the text is ambiguous; :class:`Reading` selects one)
    ``reserve``
        ``"static"`` (default): j is computed once per player before play, as in the
        running-time paragraph ("once j is calculated ... separate the j highest
        cards from each hand"). ``"dynamic"``: j is recomputed before every trick from
        the tasks still open.
    ``followers``
        ``"below"`` (default): in step 3 a holder of another task card of player i
        adds its highest such card *that is lower than the card i played* (the only
        ones that can be completed in this trick, Lemma 5.1). ``"all"``: the literal
        reading, every such holder adds its highest such card whatever its value.
    Fixed choices, the same in both readings: when the holder of c* is i itself, i
    plays c* (the text's "single card" case; i cannot play two cards). "Will not win
    the trick" is judged against the highest card already in the trick, and the j
    highest cards are the j highest cards of the whole hand. If Lemma 5.2 leaves a
    player no card, the player plays its lowest non-task card, or its lowest card if
    it holds only task cards (the text does not say; any card then loses or wins the
    trick as the rules decide).
Rule features
    One suit, no trumps, fixed task seats, no order tokens, no history, hands of any
    size; any first lead (with one suit the leader never changes who wins a trick).
Exact
    Claimed exact by the paper. It is NOT: see ``docs/special-cases.md`` and
    ``models/counterexamples/single_suit_*.json`` for deals where each reading answers
    *false* although the exhaustive oracle finds a win. A WINNABLE answer is always
    right (its witness is replayed); UNWINNABLE answers are not trustworthy.
Cost
    O(l · p · n) as implemented (linear scans; the paper claims O(n² + p² + np log n)).

References
----------
.. [1] F. Reiber, "The Crew: The Quest for Planet Nine is NP-complete", §5, Lemmas 5.1
   and 5.2, Thm 5.3.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from crewcheck.model.cards import CardIndex
from crewcheck.model.instance import Instance, Seat
from crewcheck.solvers.base import Answer, Budget, Verdict
from crewcheck.solvers.special.requirements import requires
from crewcheck.solvers.special.playout import sequence

__all__ = ["SingleSuitSolver", "Reading", "READINGS", "published_play"]

CONDITIONS = dict(history=False, assignment="fixed", trumps=False, tokens=False, suits=1, lead=("any", "seat"))


@dataclass(frozen=True)
class Reading:
    """One reading of the ambiguous §5 text (see the module docstring): the options of
    :class:`SingleSuitSolver`."""

    reserve: Literal["static", "dynamic"] = "static"
    """When j (the reserved high cards of Lemma 5.2) is computed."""
    followers: Literal["below", "all"] = "below"
    """Which of player i's other task cards are added in step 3."""

    def __str__(self) -> str:
        return f"reserve={self.reserve},followers={self.followers}"


READINGS: tuple[Reading, ...] = tuple(Reading(r, f) for r in ("static", "dynamic") for f in ("below", "all"))
"""Every reading tested against the oracle."""


def _top(mask: int, j: int) -> int:
    """The ``j`` highest cards of ``mask``."""
    out = 0
    for _ in range(j):
        if not mask:
            break
        hi = 1 << (mask.bit_length() - 1)
        out |= hi
        mask &= ~hi
    return out


def _reserve_counts(instance: Instance, open_tasks: list[int], hands: list[int]) -> list[int]:
    """j per seat: the most open task cards of that seat's tasks held by one other seat."""
    p = instance.players
    counts = [[0] * p for _ in range(p)]
    for k in open_tasks:
        t = instance.tasks[k]
        holder = next(s for s in range(p) if hands[s] >> t.card & 1)
        if holder != t.seat:
            counts[t.seat][holder] += 1  # type: ignore[index]
    return [max(row) for row in counts]


def published_play(instance: Instance, reading: Reading = Reading()
                   ) -> tuple[bool, list[dict[Seat, CardIndex]], str | None]:
    """Run Theorem 5.3's algorithm: (verdict, tricks played, reason for *false*)."""
    p = instance.players
    hands = list(instance.hands)
    tasks = instance.tasks
    open_tasks = list(range(len(tasks)))
    tricks: list[dict[Seat, CardIndex]] = []
    j_static = _reserve_counts(instance, open_tasks, hands)
    while open_tasks:
        open_cards = 0
        for k in open_tasks:
            open_cards |= 1 << tasks[k].card
        j = j_static if reading.reserve == "static" else _reserve_counts(instance, open_tasks, hands)
        star = max(open_tasks, key=lambda k: tasks[k].card)
        owner = tasks[star].seat
        assert owner is not None
        c_star = tasks[star].card
        holder = next(s for s in range(p) if hands[s] >> c_star & 1)
        trick: dict[Seat, CardIndex] = {holder: c_star}
        if holder != owner:
            trick[owner] = hands[owner].bit_length() - 1  # "their highest card"
        # step 3: holders of the owner's other task cards, highest task card first
        winning = max(trick.values())
        mine = sorted((tasks[k].card for k in open_tasks if tasks[k].seat == owner and k != star), reverse=True)
        for card in mine:
            seat = next(s for s in range(p) if hands[s] >> card & 1)
            if seat in trick:
                continue
            if reading.followers == "below" and card > winning:
                continue
            trick[seat] = card
            winning = max(winning, card)
        # step 4: everyone else by Lemma 5.2
        winning = max(trick.values())
        for seat in range(p):
            if seat in trick:
                continue
            hand = hands[seat]
            candidates = hand & ~open_cards & ((1 << winning) - 1) & ~_top(hand, j[seat])
            if candidates:
                trick[seat] = candidates.bit_length() - 1
            else:
                free = hand & ~open_cards
                pick = free if free else hand
                trick[seat] = (pick & -pick).bit_length() - 1  # lowest
        for seat, card in trick.items():
            hands[seat] &= ~(1 << card)
        tricks.append(trick)
        winner = max(trick, key=lambda s: trick[s])
        played = set(trick.values())
        for k in list(open_tasks):
            if tasks[k].card in played:
                if tasks[k].seat != winner:
                    return False, tricks, (f"trick {len(tricks)}: {instance.card(tasks[k].card)} is won by "
                                           f"seat {winner}, not by seat {tasks[k].seat}")
                open_tasks.remove(k)
        if not open_tasks:
            return True, tricks, None
        if any(h == 0 for h in hands):
            return False, tricks, f"trick {len(tricks)}: a player runs out of cards with tasks left"
    return True, tricks, None


@requires(**CONDITIONS)
class SingleSuitSolver:
    """Reiber §5: one suit; see the module docstring (published, not exact)."""

    name: ClassVar[str] = "single_suit"
    exact: ClassVar[bool] = False
    requires: ClassVar[tuple[tuple[str, str], ...]] = ()

    def __init__(self, options: Reading | None = None) -> None:
        self.options = options or Reading()
        """The reading of §5 (the back-end's options)."""

    def decide(self, instance: Instance, *, budget: Budget) -> Answer:
        ok, tricks, why = published_play(instance, self.options)
        extra = {"reading": str(self.options), "tricks": len(tricks)}
        if not ok:
            return Answer(Verdict.UNWINNABLE, extra=extra,
                          explanation=f"Reiber §5 algorithm ({self.options}): {why}")
        leader = instance.first_leader
        if leader is None:
            leader = next(iter(tricks[0])) if tricks else 0
        return Answer(Verdict.WINNABLE, plays=sequence(instance, tricks, leader), extra=extra)
