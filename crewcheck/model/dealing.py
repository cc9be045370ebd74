"""Seeded random Classic deals: the one generator behind ``crewcheck deals``, the benchmark
corpus and the claims that sample deals the way the corpus does.

The distribution
    The 40-card Classic deck (B G P Y 1-9, rockets R 1-4 as trumps) is shuffled and dealt
    one card at a time from seat 0, so hands are as even as possible and the first seats
    get the odd cards (10/10/10/10 for four players, 14/13/13 for three, 8 each for five).
    The commander (holder of R4) leads the first trick (``"lead": "rocket"``). The ``k``
    task cards are drawn uniformly from the 36 colour cards (the game's task deck has no
    rockets); under *fixed* assignment they are drafted round-robin from the commander in
    the order drawn (de Jong's set-up), under *free* assignment they name no seat and the
    per-seat counts follow the same draft (:attr:`Instance.task_counts`).
Order tokens
    A cell with tokens draws 1-3 tokens per deal from one of three schemes chosen at
    random: absolute (``"1"``, ``"2"``, ...), relative (``">"``, ``">>"``, ...) or mixed
    (``"1"``, ``">"``, ``"omega"``), put on randomly chosen tasks.
Seeds
    A *cell* is one (players, assignment, k, tokens) combination, named like
    ``"4p-fixed-k10"``. Its deals come from one :class:`random.Random` seeded with a stable
    hash of the base seed and the cell name (:meth:`Cell.seed`), so the deals of a cell do
    not depend on which other cells are generated, the first ``n`` deals of a longer run
    are the deals of a run of ``n``, and the same seed gives the same deals on every
    machine and Python version (``random.Random`` with an int seed, ``shuffle`` and
    ``sample`` are stable).

Examples
--------
>>> import random
>>> deal = random_deal(random.Random(7), players=4, k=3)
>>> deal.players, len(deal.tasks), deal.lead
(4, 3, 'rocket')
>>> [d.tasks == e.tasks for d, e in zip(generate(Cell(3, "free", 5), 2, seed=1),
...                                       generate(Cell(3, "free", 5), 3, seed=1))]
[True, True]
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from crewcheck.errors import InvalidInputError
from crewcheck.model.cards import CLASSIC_DECK, CardIndex, Mask
from crewcheck.model.instance import Instance
from crewcheck.model.rules import Rules
from crewcheck.model.tasks import Task

__all__ = ["PLAYERS", "ASSIGNMENTS", "COLOUR_CARDS", "COMMANDER_CARD", "Cell", "random_deal", "generate"]

PLAYERS: tuple[int, ...] = (2, 3, 4, 5)
"""Seats a Classic deal can be dealt to (the game is for 3-5; 2 is kept for small studies)."""

ASSIGNMENTS: tuple[str, ...] = ("fixed", "free")
"""How tasks reach the seats: drafted round-robin from the commander, or left to the crew."""

_TRUMP = "R"
COLOUR_CARDS: tuple[CardIndex, ...] = tuple(
    i for i in range(CLASSIC_DECK.size) if CLASSIC_DECK.suits[CLASSIC_DECK.suit_of(i)] != _TRUMP)
"""The 36 cards a task can name (no rockets)."""
COMMANDER_CARD: CardIndex = max(i for i in range(CLASSIC_DECK.size)
                                if CLASSIC_DECK.suits[CLASSIC_DECK.suit_of(i)] == _TRUMP)
"""R4: its holder is the commander, who leads the first trick and drafts the first task."""


@dataclass(frozen=True, slots=True, order=True)
class Cell:
    """One combination of deal parameters; its deals are one seeded stream."""

    players: int
    """Seats, one of :data:`PLAYERS`."""
    assignment: str
    """``"fixed"`` or ``"free"``."""
    k: int
    """Number of tasks, 0..36."""
    tokens: bool = False
    """Whether order tokens are drawn."""

    def __post_init__(self) -> None:
        if self.players not in PLAYERS:
            raise InvalidInputError(f"{self.players!r} players: Classic deals are dealt to "
                                    f"{PLAYERS[0]}..{PLAYERS[-1]} players", field="players")
        if self.assignment not in ASSIGNMENTS:
            raise InvalidInputError(f"unknown assignment {self.assignment!r}; expected fixed or free",
                                    field="assignment")
        if not 0 <= self.k <= len(COLOUR_CARDS):
            raise InvalidInputError(f"{self.k!r} tasks: expected 0..{len(COLOUR_CARDS)} "
                                    "(tasks name colour cards)", field="tasks")
        if self.tokens and self.assignment != "fixed":
            raise InvalidInputError("order tokens are drawn for fixed assignment only", field="tokens")

    @property
    def name(self) -> str:
        """``"4p-fixed-k10"``, ``"3p-free-k25"``, ``"4p-fixed-k08-tokens"``."""
        return f"{self.players}p-{self.assignment}-k{self.k:02d}" + ("-tokens" if self.tokens else "")

    @classmethod
    def parse(cls, name: str) -> Cell:
        """Inverse of :attr:`name` (the ``k`` may or may not be zero-padded).

        Raises :class:`InvalidInputError` for anything else.
        """
        parts = name.split("-")
        bad = InvalidInputError(f"bad cell name {name!r}; expected e.g. '4p-fixed-k10' or '4p-fixed-k08-tokens'",
                                field="cell")
        if len(parts) not in (3, 4) or (len(parts) == 4 and parts[3] != "tokens"):
            raise bad
        if not (parts[0][:-1].isdigit() and parts[0].endswith("p") and parts[2][:1] == "k" and parts[2][1:].isdigit()):
            raise bad
        try:
            return cls(int(parts[0][:-1]), parts[1], int(parts[2][1:]), len(parts) == 4)
        except InvalidInputError as e:
            raise InvalidInputError(f"bad cell name {name!r}: {e.reason}", field="cell") from None

    def seed(self, base: int) -> int:
        """The cell's own seed: a stable hash of the base seed and the cell name."""
        digest = hashlib.sha256(f"{base}:{self.name}".encode()).digest()
        return int.from_bytes(digest[:8], "big")


def _tokens(rng: random.Random, k: int) -> list[str]:
    n = rng.randint(1, min(3, k))
    scheme = rng.choice(("absolute", "relative", "mixed"))
    if scheme == "absolute":
        return [str(i) for i in range(1, n + 1)]
    if scheme == "relative":
        return [">" * i for i in range(1, n + 1)]
    out = ["1", ">", "omega"][:n]
    if "omega" in out and k < 2:  # "1" and "omega" need two tasks
        out.remove("omega")
    return out


def random_deal(rng: random.Random, *, players: int = 4, k: int = 10,
                assignment: Literal["fixed", "free"] | str = "fixed", tokens: bool = False,
                order_rule: Literal["strict", "relaxed"] | str = "strict") -> Instance:
    """One random Classic deal (see the module docstring for the distribution).

    Parameters
    ----------
    rng
        The random source (the only one used).
    players
        Seats, 2..5 (cards dealt one at a time from seat 0).
    k
        Tasks, 0..36, drawn from the colour cards.
    assignment
        ``"fixed"`` (round-robin from the commander) or ``"free"``.
    tokens
        Draw 1-3 order tokens (see the module docstring).
    order_rule
        The order-token reading of :class:`~crewcheck.model.rules.Rules`.
    """
    if not 0 <= k <= len(COLOUR_CARDS):
        raise InvalidInputError(f"{k!r} tasks: expected 0..{len(COLOUR_CARDS)}", field="tasks")
    cards = list(range(CLASSIC_DECK.size))
    rng.shuffle(cards)
    hands: list[Mask] = [0] * players
    for n, c in enumerate(cards):
        hands[n % players] |= 1 << c
    commander = next(s for s in range(players) if hands[s] >> COMMANDER_CARD & 1)
    task_cards = rng.sample(COLOUR_CARDS, k)
    toks: list[str | None] = [None] * k
    if tokens and k:
        chosen = _tokens(rng, k)
        for pos, tok in zip(rng.sample(range(k), len(chosen)), chosen):
            toks[pos] = tok
    tasks = tuple(Task(c, (commander + j) % players if assignment == "fixed" else None, toks[j])
                  for j, c in enumerate(task_cards))
    return Instance(CLASSIC_DECK, tuple(hands), tasks, _TRUMP, "rocket",
                    Rules(order_rule, assignment))  # type: ignore[arg-type]


def generate(cell: Cell, count: int, *, seed: int, start: int = 0) -> Iterator[Instance]:
    """Deals ``start .. start + count - 1`` of ``cell`` for base ``seed``, lazily (deal
    ``n`` is the same whatever ``start`` and ``count`` are: the earlier deals are drawn
    and dropped)."""
    rng = random.Random(cell.seed(seed))
    for n in range(start + count):
        deal = random_deal(rng, players=cell.players, k=cell.k, assignment=cell.assignment, tokens=cell.tokens)
        if n >= start:
            yield deal
