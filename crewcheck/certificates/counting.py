"""The counting refutation a certificate may name instead of a clausal proof.

Some unwinnable deals are pigeonholes: one seat's top trumps must win tricks into which
the other seats have to play more task cards than that seat may take. A CDCL solver
refutes them only after hours (a pigeonhole has no short resolution proof), so their
certificate names the count instead (a part ``c count top-trumps``), and the checker
counts again, here, from the deal alone: this module reads the deal's position through
the model (hands, tasks, draft counts) and shares no code with the search, whose rule
:func:`crewcheck.solvers.search.cuts.boss_trump_dead` makes the same argument.

The argument (docs/certificates.md, "Counting parts"), at a trick boundary of a game not
yet over, for some number ``P`` of further tricks, from the most task cards any hand
holds (each is played) up to the smallest hand: seat ``s``'s trumps higher than every
trump of the other seats each win the trick they are played in; ``s`` leaves its hand's
size minus ``P`` cards unplayed, so plays at least that many fewer of them into tricks of
their own; every other seat plays one card into each of those tricks, and at most as
many of them are harmless to ``s`` as it plays cards that are no task (it plays all its
task cards), plus, under fixed assignment, ``s``'s own task cards. Under free assignment
the task cards left over are more than ``s`` may still take; under fixed assignment any
left over is another seat's. When that holds for every ``P``, no line wins.
"""

from __future__ import annotations

from crewcheck.model.cards import CardIndex, iter_bits
from crewcheck.model.derived import quotas_left
from crewcheck.model.instance import Instance

__all__ = ["COUNTS", "top_trumps"]


def top_trumps(instance: Instance) -> str | None:
    """Why the top-trump count refutes ``instance`` at its position (``None``: it does not)."""
    state = instance.state()
    trump = instance.trump_suit
    if state.end is not None or state.trick or trump is None:
        return None
    deck = instance.deck
    hands = [set(iter_bits(hand)) for hand in state.hands]
    open_cards = {t.card for i, t in enumerate(instance.tasks) if not state.done >> i & 1}
    if not open_cards:
        return None
    seat_of = {t.card: t.seat for t in instance.tasks}
    quota = quotas_left(state)
    trumps = [{c for c in hand if deck.suit_of(c) == trump} for hand in hands]

    def value(c: CardIndex) -> int:
        return deck.card(c).value

    seats = range(len(hands))
    tops = [sum(1 for c in trumps[s] if all(value(c) > value(d) for t in seats if t != s for d in trumps[t]))
            for s in seats]

    def overloaded(s: int, tricks: int) -> int | None:
        """Task cards seat ``s`` takes beyond what it may, if the game lasts ``tricks`` more."""
        others = [t for t in seats if t != s]
        played = tops[s] - (len(hands[s]) - tricks)
        if played <= 0:
            return None
        taken = 0
        for t in others:
            tasks_held = hands[t] & open_cards
            harmless = min(len(hands[t] - open_cards), tricks - len(tasks_held))
            if quota is None:
                harmless += sum(1 for c in tasks_held if seat_of[c] == s)
            taken += max(0, played - harmless)
        allowed = 0 if quota is None else quota[s]
        return taken - allowed if taken > allowed else None

    shortest = min(len(hand) for hand in hands)
    longest_tasks = max(len(hand & open_cards) for hand in hands)
    reasons = []
    for tricks in range(longest_tasks, shortest + 1):
        found = next(((s, over) for s in seats if (over := overloaded(s, tricks)) is not None), None)
        if found is None:
            return None
        reasons.append(f"{tricks} more tricks: seat {found[0]}, {found[1]} too many")
    what = "task cards beyond its quota" if quota is not None else "task cards of other seats"
    return f"however long the game lasts, a seat's top trumps take {what} ({'; '.join(reasons)})"


COUNTS = {"top-trumps": top_trumps}
"""The counting arguments a certificate part may name (``c count NAME``), by name."""
