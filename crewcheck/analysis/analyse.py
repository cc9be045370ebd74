"""Every card's verdict at a position (:func:`analyse`).

These are the questions asked after "can this deal be won?": which cards keep the
position winnable, and which card of a played game turned a winnable position into a
lost one. Both are answered with :func:`crewcheck.decide` on the positions concerned, so
every verdict is exact and every winning line has passed the replay checker. (Not to be
confused with :mod:`crewcheck.solvers.search.refutations`, the cheap sound refutations that the
search tries first.)

How few decisions are needed
    * *Equivalent cards* (:func:`equivalent_cards`) get one decision per class.
    * *The position first.* If the position cannot be won, no card wins: one decision
      answers for every card. If it can, its winning line answers for the class of the
      line's first card.
    * *Monotonicity along a game.* A position reached from a winnable one by a card
      that keeps it winnable is winnable; a position after an unwinnable one is
      unwinnable. So along a played game the verdicts read "winnable" up to one card and
      "unwinnable" after it, and :func:`crewcheck.analysis.review.review` finds that card by bisection (about
      ``log2(cards played)`` decisions), skipping ahead along every winning line it is
      given that the game followed.
    * *One refutation table.* All the decisions of one call share the search's
      refutation table (:func:`crewcheck.solvers.search.table.shared`): they are
      positions of one deal, and a position refuted for one of them is refuted for all.

Free assignment
    :func:`crewcheck.analysis.seats.task_seats` answers, for each task still open, which seats can take it in
    some winning line, with the winnability encoding (:mod:`crewcheck.solvers.logic.encoding`)
    kept in one incremental CDCL solver queried under the assumption "task k goes to
    seat s" (every model found answers several such questions at once).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from crewcheck.analysis.run import Cancel, Decisions, Progress
from crewcheck.analysis.seats import TaskSeats, task_seats
from crewcheck.model.cards import CardIndex
from crewcheck.model.derived import equivalent_plays
from crewcheck.model.instance import Instance, Seat
from crewcheck.model.state import State
from crewcheck.model.variants import play_state
from crewcheck.solvers.base import Result, Verdict, Witness
from crewcheck.solvers.search.table import shared

__all__ = ["CardVerdict", "Analysis", "Decided", "equivalent_cards", "analyse",
           "DECIDED", "ON_WINNING_LINE", "POSITION_LOST", "CANCELLED"]

DECIDED = "decided"
""":attr:`CardVerdict.how`: the position after the card was decided."""
ON_WINNING_LINE = "winning line of the position"
"""The card starts the position's winning line."""
POSITION_LOST = "the position cannot be won"
"""The position before the card is unwinnable, so every card loses."""
CANCELLED = "cancelled"
"""Not decided: the caller cancelled."""


@dataclass(frozen=True)
class CardVerdict:
    """The verdict after playing any card of one class of equivalent cards."""

    cards: tuple[CardIndex, ...]
    """The class (:func:`equivalent_cards`), lowest first: the verdict of each is the same."""
    verdict: Verdict
    """Whether the position after playing ``cards[0]`` can still be won."""
    witness: Witness | None = None
    """A winning game (history included) whose next card is one of :attr:`cards`, when
    winnable (``cards[0]`` when decided; the position's own line when it starts with
    another card of the class)."""
    explanation: str | None = None
    """Why it cannot be won, when the back-end said."""
    how: str = DECIDED
    """How the verdict was obtained: decided, or known from the position's own verdict."""
    nodes: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class Analysis:
    """Every legal card's verdict at the position after an instance's history."""

    instance: Instance
    position: Result
    """The verdict of the position itself (before the next card)."""
    to_play: Seat | None
    """The seat to play; ``None`` before a free first lead (any seat may lead)."""
    cards: tuple[CardVerdict, ...]
    """One entry per class of equivalent legal cards, in card order (empty when the game
    is over)."""
    tasks: tuple[TaskSeats, ...] | None = None
    """Free assignment: the seats that can take each open task; ``None`` otherwise."""
    seconds: float = 0.0
    """Wall-clock time of the whole analysis."""
    decisions: int = 0
    """Calls of :func:`crewcheck.decide` made."""
    nodes: int = 0
    """Search nodes of those decisions."""

    @property
    def winning(self) -> tuple[CardVerdict, ...]:
        """The classes after which the position can still be won."""
        return tuple(c for c in self.cards if c.verdict is Verdict.WINNABLE)


Decided = Callable[[Result, "CardVerdict | None"], None]
"""``decided(position, verdict)``: the position's result, then each class's verdict as
:func:`analyse` finds it (``verdict`` is ``None`` for the position alone)."""


# -- equivalent cards ---------------------------------------------------------------
def equivalent_cards(state: State) -> list[tuple[CardIndex, ...]]:
    """The legal plays of ``state`` grouped into classes of interchangeable cards.

    Two legal cards are *equivalent* when they are held by the same seat, are of the
    same suit, neither is a task card (nor a card a condition of the deal names, such as
    the 9s of "no trick is won with a 9": :meth:`Condition.named`), and every card of
    that suit ranked between them is out of play (won in an earlier trick): no card
    between them is in any hand or in the trick in progress. Classes are the chains of
    such pairs ("B3 = B4 = B5").

    Equivalent cards have the same verdict: exchanging them throughout any game (one
    seat holds both, so they are never in one trick) changes no comparison with any
    other card still in play, so no trick winner and no task. This is the rule by
    which the search tries only the lowest card of a class
    (:func:`crewcheck.solvers.search.driver._first_plays`).

    Returns the classes in card order, each lowest card first; empty when the game is
    over.

    Examples
    --------
    >>> from crewcheck.formats.notation import parse_deal
    >>> deal = parse_deal("B3 B4 B6 G1 | B5 G2 G3 G4 ; trump - ; lead 0 ; tasks G4@1 ; strict/fixed")
    >>> [" = ".join(str(deal.card(c)) for c in group) for group in equivalent_cards(deal.state())]
    ['B3 = B4', 'B6', 'G1']
    """
    return [tuple(g) for g in equivalent_plays(state)]


# -- analyse --------------------------------------------------------------------------
def _child(instance: Instance, card: CardIndex) -> Instance:
    return instance.with_history((*instance.history, card))


def analyse(instance: Instance, *, backend: str | None = None, timeout: float | None = None,
            cancel: Cancel | None = None, progress: Progress | None = None,
            position: Result | None = None, tasks: bool = True,
            decided: Decided | None = None) -> Analysis:
    """Every legal card's verdict at the position after ``instance.history`` (none before
    a distress signal's passes: the hands the cards come from are not chosen yet).

    Parameters
    ----------
    instance
        The deal; the question is about its next card.
    backend
        As for :func:`crewcheck.decide` (default: the best exact back-end per position).
    timeout
        Seconds per decision; a decision that runs out answers ``UNKNOWN``.
    cancel
        Polled while deciding; once true, what is left is ``UNKNOWN``.
    progress
        Called before each decision (see :data:`Progress`).
    position
        The position's own result, if already known (it must be exact: a winning line
        from this very position, or unwinnable).
    tasks
        Free assignment: also compute :attr:`Analysis.tasks` (:func:`task_seats`).
    decided
        Called with the position's result as soon as it is known (``decided(position,
        None)``), then with each class's verdict as it is found (``decided(position,
        verdict)``, in the order of :attr:`Analysis.cards`): a page shows them as they come.

    Raises
    ------
    The errors of :func:`crewcheck.decide` (bad back-end name, a back-end failure).

    Examples
    --------
    >>> from crewcheck.formats.notation import parse_deal
    >>> deal = parse_deal("B1 B2 B4 | B3 G1 G2 ; trump - ; lead 0 ; tasks B3@1 ; strict/fixed")
    >>> a = analyse(deal, backend="exhaustive")
    >>> [(" = ".join(str(deal.card(c)) for c in v.cards), v.verdict.value) for v in a.cards]
    [('B1 = B2', 'winnable'), ('B4', 'unwinnable')]
    """
    t0 = time.perf_counter()
    run = Decisions(backend, timeout, cancel, progress)
    state = play_state(instance)
    # a distress signal still to give: the cards are played from the hands after the
    # passes, which the crew has not chosen yet; only the position is decided
    classes = equivalent_cards(state) if state.end is None and instance.distress is None else []
    run.total = len(classes) + (position is None)
    with shared():
        if position is None:
            position = run.decide(instance, "the position")
        if decided is not None:
            decided(position, None)
        verdicts = _card_verdicts(instance, position, classes, run, decided)
    seats = None
    if instance.rules.assignment == "free" and instance.is_concrete() and state.end is None and tasks:
        seats = task_seats(instance, position=position, timeout=timeout, cancel=cancel)
    return Analysis(instance, position, state.to_play, tuple(verdicts), seats,
                    time.perf_counter() - t0, run.decisions, run.nodes)


def _card_verdicts(instance: Instance, position: Result, classes: Sequence[tuple[CardIndex, ...]],
                   run: Decisions, decided: Decided | None = None) -> list[CardVerdict]:
    n = len(instance.history)
    out: list[CardVerdict] = []
    line = position.witness.plays if position.witness is not None else ()
    next_card = line[n] if len(line) > n else None
    for group in classes:
        if position.verdict is Verdict.UNWINNABLE:
            out.append(CardVerdict(group, Verdict.UNWINNABLE, None, position.explanation, POSITION_LOST))
        elif next_card is not None and next_card in group:
            out.append(CardVerdict(group, Verdict.WINNABLE, position.witness, None, ON_WINNING_LINE))
        elif run.cancelled():
            out.append(CardVerdict(group, Verdict.UNKNOWN, how=CANCELLED))
        else:
            first = instance.deck.card(group[0])
            r = run.decide(_child(instance, group[0]), f"after {first}")
            out.append(CardVerdict(group, r.verdict, r.witness, r.explanation, DECIDED, r.stats.nodes,
                                   r.stats.seconds))
        if decided is not None:
            decided(position, out[-1])
    return out
