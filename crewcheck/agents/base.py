"""What an agent is and what it may see: :class:`Agent`, :class:`Observation`, :class:`Setup`.

A game for agents has two phases (Witteveen §2.1, de Jong §3.1): the tasks are laid out
face up and taken one at a time, round-robin from the commander; then the cards are
played, the commander leading the first trick. An agent is anything with a ``name`` and
``choose(view, rng) -> card`` (a structural :class:`typing.Protocol`, no subclassing):
in the task phase it returns the card of the task it takes, in the play phase the card
it plays.

The view is an :class:`Observation`: the seat's own hand, the tasks and who took them,
every card played so far and by whom (so the voids a seat has shown), the publicly known
card of the commander (the top trump in Classic Crew), whose turn it is. It holds no
reference to the deal, the instance or the rules state: it is built from them by
:func:`observe` and nothing else reaches another hand. Agents that are *meant* to see
everything (de Jong's cheating player, Witteveen's Monte Carlo agents, which the thesis
runs with complete information) declare ``cheating = True``; only for them does the
engine fill in :attr:`Observation.deal`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from crewcheck.model.cards import CardIndex, Deck, Mask, iter_bits
from crewcheck.model.instance import Seat
from crewcheck.model.rules import legal_plays

__all__ = ["Agent", "Observation", "Setup", "Phase", "GameRecord", "is_cheating"]

Phase = Literal["tasks", "play"]


@dataclass(frozen=True)
class GameRecord:
    """How one game went: a Classic game (:func:`~crewcheck.agents.simulate.play_game`) or
    a Deep Sea one (:func:`~crewcheck.agents.deepsea.play_deepsea`)."""

    key: str
    """The deal's key."""
    owners: tuple[Seat, ...]
    """Seat that took each task (layout order; ``-1``: nobody, in the Deep Sea draft)."""
    plays: tuple[CardIndex, ...]
    """The cards played, in order."""
    won: bool
    termination: str
    """How the game ended (a :class:`~crewcheck.model.outcome.Termination` value, or
    ``"task impossible"``)."""
    tasks_done: int
    """Tasks completed by the end."""
    tricks: int
    """Complete tricks played."""
    impossible: str | None = None
    """Deep Sea: set when a task needed cards out of play (lost at the start of play)."""


@runtime_checkable
class Agent(Protocol):
    """A seat's policy. ``choose`` returns a task card (task phase) or a card to play."""

    @property
    def name(self) -> str: ...

    def choose(self, view: Observation, rng: random.Random) -> CardIndex: ...


def is_cheating(agent: object) -> bool:
    """Whether ``agent`` declared that it sees the whole deal (``cheating = True``)."""
    return bool(getattr(agent, "cheating", False))


@dataclass(frozen=True)
class Setup:
    """A deal before the task phase: hands, trumps, commander and the tasks laid out."""

    deck: Deck
    hands: tuple[Mask, ...]
    """The deal, seat 0 first."""
    trump: int | None
    """Trump suit index, or ``None``."""
    commander: Seat
    """Takes the first task and leads the first trick."""
    tasks: tuple[CardIndex, ...]
    """The task cards laid out, in layout order."""
    commander_card: CardIndex | None = None
    """A card everyone knows the commander holds (the top trump in Classic Crew)."""
    key: str = ""
    """Where the deal came from (seed path), for records."""

    @property
    def players(self) -> int:
        return len(self.hands)


@dataclass(frozen=True, slots=True)
class Observation:
    """What seat :attr:`seat` knows when it is its turn to move."""

    seat: Seat
    phase: Phase
    deck: Deck
    trump: int | None
    players: int
    commander: Seat
    commander_card: CardIndex | None
    hand: Mask
    """The seat's own cards."""
    hand_sizes: tuple[int, ...]
    """Cards left per seat (public)."""
    tasks: tuple[CardIndex, ...]
    """Task cards in layout order."""
    owners: tuple[Seat, ...]
    """Seat that took each task, ``-1`` while it lies open."""
    plays: tuple[tuple[Seat, CardIndex], ...]
    """Every card played so far, in order, with its player."""
    leader: Seat
    """Leader of the current trick."""
    trick: tuple[CardIndex, ...]
    """Cards of the current trick, leader first."""
    done: int
    """Completed tasks, as a mask over task indices."""
    tricks_played: int
    deal: tuple[Mask, ...] | None = None
    """Every seat's current hand: filled in only for agents with ``cheating = True``."""

    # -- derived knowledge ----------------------------------------------------------
    def legal(self) -> tuple[CardIndex, ...]:
        """Open task cards (task phase) or the legal cards of the own hand (play)."""
        if self.phase == "tasks":
            return tuple(c for c, o in zip(self.tasks, self.owners) if o < 0)
        return tuple(iter_bits(legal_plays(self.deck, self.hand, self.trick)))

    def played_mask(self) -> Mask:
        m = 0
        for _, c in self.plays:
            m |= 1 << c
        return m

    def unseen(self) -> Mask:
        """Cards in other seats' hands: neither held by this seat nor played."""
        return self.deck.full_mask & ~self.hand & ~self.played_mask()

    def voids(self) -> tuple[frozenset[int], ...]:
        """Suits each seat has shown it lacks (it did not follow the led suit)."""
        out: list[set[int]] = [set() for _ in range(self.players)]
        p = self.players
        for start in range(0, len(self.plays), p):
            trick = self.plays[start:start + p]
            led = self.deck.suit_of(trick[0][1])
            for seat, card in trick[1:]:
                if self.deck.suit_of(card) != led:
                    out[seat].add(led)
        return tuple(frozenset(v) for v in out)

    def candidates(self) -> tuple[Mask, ...]:
        """de Jong's supersets C_p: the unseen cards each seat may still hold.

        Unseen cards minus the suits a seat has shown void in; the commander's known
        card (if still unplayed) only in the commander's set. This seat's own entry is
        its hand.
        """
        unseen = self.unseen()
        voids = self.voids()
        out: list[Mask] = []
        known = self.commander_card
        known_live = known is not None and unseen >> known & 1
        for s in range(self.players):
            if s == self.seat:
                out.append(self.hand)
                continue
            c = unseen
            for suit in voids[s]:
                c &= ~self.deck.suit_mask(suit)
            if known_live and s != self.commander:
                c &= ~(1 << known)  # type: ignore[operator]
            out.append(c)
        return tuple(out)

    def task_index(self, card: CardIndex) -> int:
        return self.tasks.index(card)

    @property
    def to_move(self) -> Seat:
        return self.seat


def observe(hands: Sequence[Mask], setup: Setup, owners: Sequence[Seat],
            plays: Sequence[tuple[Seat, CardIndex]], leader: Seat, trick: Sequence[CardIndex],
            done: int, tricks_played: int, seat: Seat, phase: Phase, *,
            cheating: bool = False) -> Observation:
    """The view of ``seat`` (the only constructor the engine uses)."""
    return Observation(
        seat=seat, phase=phase, deck=setup.deck, trump=setup.trump, players=setup.players,
        commander=setup.commander, commander_card=setup.commander_card,
        hand=hands[seat], hand_sizes=tuple(h.bit_count() for h in hands),
        tasks=setup.tasks, owners=tuple(owners), plays=tuple(plays), leader=leader,
        trick=tuple(trick), done=done, tricks_played=tricks_played,
        deal=tuple(hands) if cheating else None,
    )
