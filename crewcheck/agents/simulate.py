"""The game engine for agents: seeded deals, the task phase, the play phase.

:func:`deal` makes a :class:`~crewcheck.agents.base.Setup` from a seed (the same seed
gives the same hands, commander and task layout); :func:`play_game` runs one game with an
agent per seat; :func:`simulate` runs many. The rules are the model's: the play phase is
driven by :class:`crewcheck.State` (``State.apply`` rejects an illegal card with
:class:`~crewcheck.errors.IllegalPlayError`), so an agent cannot bend them. Each agent gets
only :func:`~crewcheck.agents.base.observe`'s view of the table.

Randomness follows Witteveen §5: one generator for the task phase and a fresh one,
seeded again, for the play phase, so a play agent makes the same random choices
whatever the task agents did.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from crewcheck.agents.base import Agent, GameRecord, Setup, is_cheating, observe
from crewcheck.errors import IllegalPlayError, InvalidInputError
from crewcheck.model.cards import CLASSIC_DECK, CardIndex, Deck, Mask
from crewcheck.model.instance import Instance, Seat
from crewcheck.model.rules import Rules, trick_winner
from crewcheck.model.tasks import Task

__all__ = ["DeckSpec", "parse_deck", "deal", "play_game", "simulate", "GameRecord",
           "setup_instance", "tasks_completed"]


@dataclass(frozen=True)
class DeckSpec:
    """A deck and its trump suit name (``None``: no trumps, random commander)."""

    name: str
    deck: Deck
    trump: str | None


_SUIT_LETTERS = "BGPYOCKMNQ"


def parse_deck(spec: str) -> DeckSpec:
    """``"classic"`` (40 cards, rockets R1-4 trump), ``"plain"`` (36 cards, no trumps,
    Witteveen's game) or ``"SxV"``/``"SxV+RK"``: S suits valued 1..V, plus rockets 1..K."""
    key = spec.strip().lower()
    if key == "classic":
        return DeckSpec("classic", CLASSIC_DECK, "R")
    if key == "plain":
        return DeckSpec("plain", Deck.from_sizes({s: 9 for s in "BGPY"}), None)
    m = re.fullmatch(r"(\d{1,4})x(\d{1,4})(?:\+r(\d{1,4}))?", key)
    if (not m or not 1 <= int(m.group(1)) <= len(_SUIT_LETTERS) or int(m.group(2)) < 1
            or (m.group(3) is not None and int(m.group(3)) < 1)):
        raise InvalidInputError(f"unknown deck {spec!r}; expected classic, plain or SxV[+RK] with S from 1 to "
                                f"{len(_SUIT_LETTERS)}, V and K from 1 (e.g. 3x6+R2)")
    sizes = {s: int(m.group(2)) for s in _SUIT_LETTERS[:int(m.group(1))]}
    trump = None
    if m.group(3):
        sizes["R"] = int(m.group(3))
        trump = "R"
    return DeckSpec(key, Deck.from_sizes(dict(sorted(sizes.items()))), trump)


def deal(players: int, ntasks: int, seed: int | str, deck: DeckSpec | str = "plain") -> Setup:
    """A seeded deal: shuffled hands (the first seats get the odd cards), the commander
    (holder of the top trump, else a random seat) and ``ntasks`` task cards laid out
    (never trumps)."""
    spec = parse_deck(deck) if isinstance(deck, str) else deck
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= spec.deck.size:
        raise InvalidInputError(f"expected 2 to {spec.deck.size} players for this deck, got {players!r}")
    if isinstance(ntasks, bool) or not isinstance(ntasks, int) or ntasks < 0:
        raise InvalidInputError(f"expected a number of tasks from 0, got {ntasks!r}")
    d = spec.deck
    rng = random.Random(f"crewcheck-deal:{seed}")
    cards = list(range(d.size))
    rng.shuffle(cards)
    base, extra = divmod(d.size, players)
    hands: list[Mask] = []
    pos = 0
    for s in range(players):
        n = base + (1 if s < extra else 0)
        m = 0
        for c in cards[pos:pos + n]:
            m |= 1 << c
        hands.append(m)
        pos += n
    trump = None if spec.trump is None else d.suit_index(spec.trump)
    if trump is not None:
        top = d.suit_mask(trump).bit_length() - 1
        commander = next(s for s, h in enumerate(hands) if h >> top & 1)
        known: CardIndex | None = top
    else:
        commander = rng.randrange(players)
        known = None
    pool = [c for c in range(d.size) if trump is None or d.suit_of(c) != trump]
    if ntasks > len(pool):
        raise InvalidInputError(f"{ntasks} tasks asked for but the deck has only {len(pool)} non-trump cards")
    tasks = tuple(rng.sample(pool, ntasks))
    return Setup(d, tuple(hands), trump, commander, tasks, known, key=str(seed))


def setup_instance(setup: Setup, owners: Sequence[Seat] | None = None) -> Instance:
    """The perfect-information deal: fixed assignment ``owners``, or free assignment
    (per-seat counts drafted from the commander) when ``owners`` is ``None``."""
    trump = None if setup.trump is None else setup.deck.suits[setup.trump]
    if owners is None:
        tasks = tuple(Task(c) for c in setup.tasks)
        rules = Rules(assignment="free")
    else:
        tasks = tuple(Task(c, s) for c, s in zip(setup.tasks, owners, strict=True))
        rules = Rules()
    return Instance(setup.deck, setup.hands, tasks, trump, setup.commander, rules)


def tasks_completed(setup: Setup, owners: Sequence[Seat], plays: Sequence[CardIndex]) -> int:
    """Tasks won by their owner in the complete tricks of ``plays``."""
    p = setup.players
    leader = setup.commander
    where = {c: k for k, c in enumerate(setup.tasks)}
    n = 0
    for start in range(0, len(plays) - len(plays) % p, p):
        trick = plays[start:start + p]
        winner = (leader + trick_winner(setup.deck, setup.trump, trick)) % p
        for c in trick:
            k = where.get(c)
            if k is not None and owners[k] == winner:
                n += 1
        leader = winner
    return n


def _per_seat(agents: Agent | Sequence[Agent], players: int) -> tuple[Agent, ...]:
    if isinstance(agents, Sequence):
        if len(agents) != players:
            raise InvalidInputError(f"expected {players} agents, got {len(agents)}")
        return tuple(agents)
    return (agents,) * players


def take_tasks(setup: Setup, agents: Agent | Sequence[Agent], rng: random.Random) -> tuple[Seat, ...]:
    """The task phase: tasks taken one at a time, round-robin from the commander."""
    p = setup.players
    seats = _per_seat(agents, p)
    owners = [-1] * len(setup.tasks)
    for j in range(len(setup.tasks)):
        seat = (setup.commander + j) % p
        agent = seats[seat]
        view = observe(setup.hands, setup, owners, (), setup.commander, (), 0, 0, seat, "tasks",
                       cheating=is_cheating(agent))
        card = agent.choose(view, rng)
        if card not in setup.tasks or owners[setup.tasks.index(card)] >= 0:
            raise IllegalPlayError(f"agent {agent.name!r} (seat {seat}) took card {card!r}, "
                                   "which is not an open task")
        owners[setup.tasks.index(card)] = seat
    return tuple(owners)


def play_game(setup: Setup, task_agents: Agent | Sequence[Agent], play_agents: Agent | Sequence[Agent],
              *, seed: int | str = 0, owners: Sequence[Seat] | None = None) -> GameRecord:
    """Play one game: the task phase (skipped when ``owners`` is given), then the tricks.

    Parameters
    ----------
    setup
        The deal (:func:`deal`).
    task_agents, play_agents
        One agent for every seat, or a sequence of one per seat.
    seed
        Seeds the task phase's and (afresh) the play phase's random generators.
    owners
        A fixed assignment to play instead of running the task phase.
    """
    p = setup.players
    if owners is None:
        owners = take_tasks(setup, task_agents, random.Random(f"crewcheck-tasks:{seed}"))
    owners = tuple(owners)
    seats = _per_seat(play_agents, p)
    state = setup_instance(setup, owners).initial_state()
    rng = random.Random(f"crewcheck-play:{seed}")
    plays: list[tuple[Seat, CardIndex]] = []
    while not state.is_terminal():
        seat = state.to_play
        assert seat is not None
        agent = seats[seat]
        view = observe(state.hands, setup, owners, plays, state.leader or 0, state.trick, state.done,
                       state.tricks_played, seat, "play", cheating=is_cheating(agent))
        card = agent.choose(view, rng)
        state = state.apply(card)
        plays.append((seat, card))
    end = state.end
    assert end is not None
    cards = tuple(c for _, c in plays)
    return GameRecord(setup.key, owners, cards, end.won, end.termination.value if end.termination else "",
                      tasks_completed(setup, owners, cards), state.tricks_played)


def simulate(setups: Iterable[Setup], task_agents: Agent | Sequence[Agent],
             play_agents: Agent | Sequence[Agent], *, seed: int | str = 0) -> tuple[GameRecord, ...]:
    """:func:`play_game` on every setup; game ``i`` is seeded with ``f"{seed}:{i}"``."""
    return tuple(play_game(s, task_agents, play_agents, seed=f"{seed}:{i}")
                 for i, s in enumerate(setups))
