"""A deal: hands, trumps, first lead, tasks, rules and the history already played.

An :class:`Instance` is immutable, hashes by content, and is valid by construction:
the constructor runs every check and raises :class:`InvalidDealError` naming the first
problem (as a JSON path of the deal file) with ``.status`` holding every problem found.
The generalised model is Reiber's β(k, s, p, O): any number of values (k), suits (s),
players (p) and tasks (O), hands of any sizes; the game ends when a hand runs empty.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Literal

from crewcheck.errors import IllegalPlayError, InvalidDealError
from crewcheck.model.cards import Card, CardIndex, Deck, Mask, iter_bits
from crewcheck.model.conditions import Condition, Undecided
from crewcheck.model.deal import Lead, Seat
from crewcheck.model.limits import MAX_CONDITIONS, MAX_PLAYERS, is_int
from crewcheck.model.rules import Cover, Rules
from crewcheck.model.state import State
from crewcheck.model.tasks import TOKENS, Task, TokenKind, token_kind

__all__ = ["Seat", "Lead", "Instance", "DealStatus", "seats_from"]


def seats_from(leader: Seat, players: int) -> tuple[Seat, ...]:
    """Seats in play order for a trick led by ``leader``."""
    return tuple((leader + i) % players for i in range(players))


class DealStatus(enum.IntFlag):
    """Every way a deal can be impossible; :attr:`Instance.status` ORs those found."""

    VALID = 0
    TOO_FEW_PLAYERS = enum.auto()
    """Fewer than two hands."""
    TOO_MANY_PLAYERS = enum.auto()
    """More hands than :data:`~crewcheck.model.limits.MAX_PLAYERS`."""
    HAND_SIZES_INVALID = enum.auto()
    """An empty hand, or a hand that is not a set of the deck's cards."""
    DUPLICATE_CARD = enum.auto()
    """A card dealt twice."""
    MISSING_CARD = enum.auto()
    """A card of the declared deck is not dealt."""
    UNKNOWN_SUIT = enum.auto()
    """The trump suit is not a suit of the deal."""
    BAD_LEAD = enum.auto()
    """Lead seat out of range, or ``"rocket"`` without trumps."""
    TASK_CARD_NOT_DEALT = enum.auto()
    """A task on a card nobody holds."""
    DUPLICATE_TASK = enum.auto()
    """Two tasks on one card."""
    TASK_OWNER_UNKNOWN = enum.auto()
    """A task's seat does not exist, is missing under fixed assignment, or is given
    under free assignment."""
    BAD_TOKEN = enum.auto()
    """Unknown, duplicated or unsatisfiable order token."""
    ILLEGAL_HISTORY = enum.auto()
    """The tricks already played break the rules."""
    BAD_CONDITION = enum.auto()
    """A condition does not fit the deal (seat, value, suit or trick out of range)."""
    BAD_COVER = enum.auto()
    """A covered card that is not under a card of its own hand, covered twice, covering
    two cards, or in a cycle of covers."""


@dataclass(frozen=True)
class Instance:
    """A deal of The Crew, possibly part-way through.

    Parameters are the deal file's fields in int form; see
    :mod:`crewcheck.formats.deal_json` for the file format.
    """

    deck: Deck
    """The cards in play (every card of it is dealt)."""
    hands: tuple[Mask, ...]
    """The original deal, seat 0 first."""
    tasks: tuple[Task, ...] = ()
    """The tasks, in the order listed."""
    trump: str | None = None
    """Name of the trump suit, or ``None``."""
    lead: Lead = 0
    """First lead of the game (see :data:`Lead`)."""
    rules: Rules = field(default_factory=Rules)
    """Order-token reading and task assignment mode."""
    history: tuple[CardIndex, ...] = ()
    """Cards already played, in play order from the first trick (the trick in progress
    last). Each card's player is its holder, so the leaders follow from the cards."""
    conditions: tuple[Condition, ...] = ()
    """Special-rule conditions (:mod:`crewcheck.model.conditions`), all of which must
    hold for a win, besides the tasks."""
    quota: tuple[int, ...] | None = None
    """Free assignment with these tasks per seat instead of the draft's counts: one
    split of the commander's distribution (:mod:`crewcheck.model.variants`). Not part
    of the deal file."""
    distress: Literal["left", "right", "choose"] | None = None
    """The distress signal: before play every seat passes one card that is no trump to
    its left neighbour (the next seat in play order), its right neighbour, or the way
    the crew chooses (:mod:`crewcheck.model.variants`). :attr:`hands` are the hands
    before the passes."""
    token_move: Literal["swap", "move"] | None = None
    """Before the tasks are handed out the crew may swap the tokens of two tasks
    (``"swap"``, logbook mission 23) or move one token to a task without one
    (``"move"``, mission 40), or leave them (:mod:`crewcheck.model.variants`)."""
    handover: bool = False
    """The five-player rule: before the first trick one seat may hand one of its tasks
    to another (:mod:`crewcheck.model.variants`)."""
    covered: tuple[Cover, ...] = ()
    """Cards lying face down under another card of the same hand, as ``(covered,
    covering)`` pairs: JARVIS's columns in the two-player game. A covered card may be
    played only once its covering card has been played in an earlier trick (it is turned
    up at the end of that trick), and its seat follows suit only with the cards it may
    play (:func:`crewcheck.model.rules.uncovered`). Each card is covered by at most one
    card and covers at most one, without a cycle: the pairs form stacks."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "hands", tuple(self.hands))
        object.__setattr__(self, "tasks", tuple(self.tasks))
        object.__setattr__(self, "history", tuple(self.history))
        object.__setattr__(self, "conditions", tuple(self.conditions))
        object.__setattr__(self, "covered", tuple(
            tuple(pair) if isinstance(pair, (tuple, list)) else pair for pair in self.covered))
        problems = self.problems()
        if problems:
            status = DealStatus.VALID
            for flag, _, _ in problems:
                status |= flag
            _, where, message = problems[0]
            raise InvalidDealError(message, field=where, status=int(status))

    # -- derived facts --------------------------------------------------------------
    @property
    def players(self) -> int:
        """Number of seats p."""
        return len(self.hands)

    @cached_property
    def trump_suit(self) -> int | None:
        """Suit index of the trump suit, or ``None``."""
        return None if self.trump is None else self.deck.suit_index(self.trump)

    @cached_property
    def holder(self) -> tuple[Seat, ...]:
        """``holder[card]``: the seat dealt that card."""
        table = [-1] * self.deck.size
        for seat, hand in enumerate(self.hands):
            for c in iter_bits(hand):
                table[c] = seat
        return tuple(table)

    @cached_property
    def first_leader(self) -> Seat | None:
        """Seat that leads the first trick; ``None`` when the lead is free (``"any"``)."""
        if self.lead == "any":
            return None
        if self.lead == "rocket":
            assert self.trump_suit is not None
            top = self.deck.suit_mask(self.trump_suit).bit_length() - 1
            return self.holder[top]
        return int(self.lead)

    @cached_property
    def commander(self) -> Seat:
        """The commander: the holder of the highest trump (the rocket 4); in a deal
        without trumps, the first leader (seat 0 under a free first lead)."""
        if self.trump_suit is not None:
            top = self.deck.suit_mask(self.trump_suit).bit_length() - 1
            return self.holder[top]
        return self.first_leader or 0

    def is_concrete(self) -> bool:
        """Whether the deciders can take this deal as it is: fixed or free assignment and
        no ``"choose"`` seat (else :func:`crewcheck.model.variants.variants` expands it)."""
        return (self.rules.assignment in ("fixed", "free") and self.distress is None
                and self.token_move is None and not self.handover
                and all(c.is_concrete() for c in self.conditions))

    @cached_property
    def task_counts(self) -> tuple[int, ...] | None:
        """Tasks per seat under free assignment: drafted one at a time, round-robin from
        the first leader (seat 0 when the lead is free), or :attr:`quota` when given.
        ``None`` under any other assignment."""
        if self.rules.assignment != "free":
            return None
        if self.quota is not None:
            return self.quota
        start = self.first_leader or 0
        counts = [0] * self.players
        for j in range(len(self.tasks)):
            counts[(start + j) % self.players] += 1
        return tuple(counts)

    @property
    def tricks(self) -> int:
        """Tricks in a full game: the smallest hand (the game ends when a hand is empty)."""
        return min(h.bit_count() for h in self.hands)

    @property
    def task_mask(self) -> Mask:
        m = 0
        for t in self.tasks:
            m |= 1 << t.card
        return m

    def card(self, index: CardIndex) -> Card:
        return self.deck.card(index)

    def with_assignment(self, seats: Sequence[Seat]) -> Instance:
        """The fixed-assignment deal with task ``i`` given to ``seats[i]``."""
        tasks = tuple(Task(t.card, s, t.token) for t, s in zip(self.tasks, seats, strict=True))
        return Instance(self.deck, self.hands, tasks, self.trump, self.lead,
                        Rules(self.rules.order_rule, "fixed"), self.history, self.conditions,
                        covered=self.covered)

    def with_history(self, history: Sequence[CardIndex]) -> Instance:
        return replace(self, history=tuple(history))

    def initial_state(self) -> State:
        """The state before any card is played (ignores :attr:`history`)."""
        return State.initial(self)

    def state(self) -> State:
        """The state after :attr:`history`: the position the question is about."""
        s = self.initial_state()
        for c in self.history:
            s = s.apply(c)
        return s

    # -- validation -----------------------------------------------------------------
    def problems(self) -> list[tuple[DealStatus, str, str]]:
        """Every problem with this deal as ``(flag, json_path, message)``; empty if valid."""
        shape = self._shape_problems()
        if shape:
            return shape
        out: list[tuple[DealStatus, str, str]] = []
        deck, p = self.deck, len(self.hands)
        fmt = deck.card
        if p < 2:
            out.append((DealStatus.TOO_FEW_PLAYERS, "hands", f"need at least 2 hands, got {p}"))
        seen: dict[int, int] = {}
        for seat, hand in enumerate(self.hands):
            if hand == 0:
                out.append((DealStatus.HAND_SIZES_INVALID, f"hands[{seat}]", "empty hand"))
            for c in iter_bits(hand):
                if c in seen:
                    out.append((DealStatus.DUPLICATE_CARD, f"hands[{seat}]",
                                f"card {str(fmt(c))!r} is also dealt to hands[{seen[c]}]"))
                else:
                    seen[c] = seat
        if len(seen) != deck.size:
            missing = [str(fmt(c)) for c in range(deck.size) if c not in seen]
            out.append((DealStatus.MISSING_CARD, "deck",
                        f"{len(missing)} card(s) of the deck are not dealt: {' '.join(missing[:8])}"))
        if self.trump is not None and self.trump not in deck.suits:
            out.append((DealStatus.UNKNOWN_SUIT, "trump",
                        f"trump suit {self.trump!r} is not a suit of the deal "
                        f"(suits: {', '.join(deck.suits)})"))
        lead = self.lead
        if lead == "rocket":
            if self.trump is None:
                out.append((DealStatus.BAD_LEAD, "lead", "'rocket' needs a trump suit; this deal has none"))
        elif lead != "any" and (isinstance(lead, bool) or not isinstance(lead, int) or not 0 <= lead < p):
            out.append((DealStatus.BAD_LEAD, "lead",
                        f"expected a seat 0..{p - 1}, 'rocket' or 'any', got {lead!r}"))
        out.extend(self._task_problems(seen))
        out.extend(self._cover_problems())
        if not out:
            out.extend(self._condition_problems())
        if not out and self.history:
            out.extend(self._history_problems())
        return out

    def _shape_problems(self) -> list[tuple[DealStatus, str, str]]:
        """Fields of the wrong type or outside the limits (the other checks assume
        none): negative or out-of-deck masks and card indices, too many seats."""
        deck, p = self.deck, len(self.hands)
        if not isinstance(deck, Deck):
            return [(DealStatus.MISSING_CARD, "deck", f"expected a Deck, got {type(deck).__name__}")]
        if p > MAX_PLAYERS:
            return [(DealStatus.TOO_MANY_PLAYERS, "hands", f"{p} hands is more than the limit of {MAX_PLAYERS}")]
        if len(self.conditions) > MAX_CONDITIONS:
            return [(DealStatus.BAD_CONDITION, "conditions",
                     f"{len(self.conditions):,} conditions is more than the limit of {MAX_CONDITIONS}")]
        out: list[tuple[DealStatus, str, str]] = []
        for seat, hand in enumerate(self.hands):
            if not is_int(hand) or not 0 <= hand <= deck.full_mask:
                out.append((DealStatus.HAND_SIZES_INVALID, f"hands[{seat}]",
                            f"expected a set of the deck's {deck.size} cards as a mask "
                            f"0..2**{deck.size}-1, got {hand!r}"))
        for j, t in enumerate(self.tasks):
            if not isinstance(t, Task):
                out.append((DealStatus.TASK_CARD_NOT_DEALT, f"tasks[{j}]", f"expected a Task, got {t!r}"))
        if not isinstance(self.rules, Rules):
            out.append((DealStatus.BAD_TOKEN, "rules", f"expected a Rules, got {self.rules!r}"))
        if self.trump is not None and not isinstance(self.trump, str):
            out.append((DealStatus.UNKNOWN_SUIT, "trump", f"expected a suit name or None, got {self.trump!r}"))
        for n, c in enumerate(self.history):
            if not is_int(c) or not 0 <= c < deck.size:
                where = f"played[{n // max(p, 1)}].cards[{n % max(p, 1)}]"
                out.append((DealStatus.ILLEGAL_HISTORY, where,
                            f"expected a card index 0..{deck.size - 1}, got {c!r}"))
        return out

    def _cover_problems(self) -> list[tuple[DealStatus, str, str]]:
        """The covers must form stacks within one hand (see :attr:`covered`)."""
        if not self.covered:
            return []
        fmt, size = self.deck.card, self.deck.size
        under: dict[int, int] = {}  # covering card -> the card under it
        over: dict[int, int] = {}  # covered card -> the card on it
        for j, pair in enumerate(self.covered):
            where = f"covered[{j}]"
            if not isinstance(pair, tuple) or len(pair) != 2 or not all(is_int(c) and 0 <= c < size for c in pair):
                return [(DealStatus.BAD_COVER, where, f"expected two card indices 0..{size - 1}, got {pair!r}")]
            low, high = pair
            if low == high:
                return [(DealStatus.BAD_COVER, where, f"{str(fmt(low))!r} cannot cover itself")]
            if self.holder[low] != self.holder[high]:
                return [(DealStatus.BAD_COVER, f"{where}[0]", f"{str(fmt(low))!r} is not in the hand of "
                         f"seat {self.holder[high]}, which holds {str(fmt(high))!r} on top of it")]
            if low in over:
                return [(DealStatus.BAD_COVER, f"{where}[0]",
                         f"{str(fmt(low))!r} is covered twice (also by {str(fmt(over[low]))!r})")]
            if high in under:
                return [(DealStatus.BAD_COVER, f"{where}[1]",
                         f"{str(fmt(high))!r} covers two cards (also {str(fmt(under[high]))!r})")]
            over[low], under[high] = high, low
        for j, (low, _) in enumerate(self.covered):
            card, seen = low, set()
            while card in over and card not in seen:
                seen.add(card)
                card = over[card]
            if card in seen:
                return [(DealStatus.BAD_COVER, f"covered[{j}]",
                         f"the covers of {str(fmt(low))!r} form a cycle")]
        if self.distress is not None:
            return [(DealStatus.BAD_COVER, "distress", "the distress signal is not modelled with covered cards")]
        return []

    def _task_problems(self, dealt: dict[int, int]) -> list[tuple[DealStatus, str, str]]:
        out: list[tuple[DealStatus, str, str]] = []
        p, free = len(self.hands), self.rules.assignment != "fixed"
        cards: dict[int, int] = {}
        tokens: dict[str, int] = {}
        has_omega = any(t.token == "omega" for t in self.tasks)
        for j, t in enumerate(self.tasks):
            where = f"tasks[{j}]"
            if not 0 <= t.card < self.deck.size or t.card not in dealt:
                out.append((DealStatus.TASK_CARD_NOT_DEALT, f"{where}.card", "card is not dealt"))
            elif t.card in cards:
                out.append((DealStatus.DUPLICATE_TASK, f"{where}.card",
                            f"{str(self.deck.card(t.card))!r} already has a task (tasks[{cards[t.card]}])"))
            else:
                cards[t.card] = j
            if free and t.seat is not None:
                out.append((DealStatus.TASK_OWNER_UNKNOWN, f"{where}.seat",
                            f"tasks have no seat under {self.rules.assignment} assignment"))
            elif not free and t.seat is None:
                out.append((DealStatus.TASK_OWNER_UNKNOWN, f"{where}.seat",
                            "missing (fixed assignment: every task names its seat)"))
            elif t.seat is not None and not 0 <= t.seat < p:
                out.append((DealStatus.TASK_OWNER_UNKNOWN, f"{where}.seat",
                            f"seat {t.seat} does not exist (seats 0..{p - 1})"))
            if t.token is None:
                continue
            if t.token not in TOKENS:
                out.append((DealStatus.BAD_TOKEN, f"{where}.token",
                            f"unknown token {t.token!r}; expected one of {', '.join(TOKENS)}"))
                continue
            if t.token in tokens:
                out.append((DealStatus.BAD_TOKEN, f"{where}.token",
                            f"token {t.token!r} is already on tasks[{tokens[t.token]}]"))
            tokens[t.token] = j
            kind, rank = token_kind(t.token)
            room = len(self.tasks) - (1 if has_omega else 0)
            if kind is TokenKind.ABSOLUTE and rank > room:
                out.append((DealStatus.BAD_TOKEN, f"{where}.token",
                            f"token {t.token!r} asks for task number {rank} but only {room} "
                            "position(s) are available"))
        return out

    def _condition_problems(self) -> list[tuple[DealStatus, str, str]]:
        out: list[tuple[DealStatus, str, str]] = []
        if self.rules.assignment not in ("fixed", "free", "decision", "distribution"):
            out.append((DealStatus.TASK_OWNER_UNKNOWN, "assignment",
                        f"unknown assignment {self.rules.assignment!r}; expected fixed, free, "
                        "decision or distribution"))
        if self.rules.assignment == "decision" and self.players < 2:
            out.append((DealStatus.TASK_OWNER_UNKNOWN, "assignment", "the commander's decision needs a crew"))
        if self.quota is not None and (len(self.quota) != self.players or sum(self.quota) != len(self.tasks)
                                       or min(self.quota) < 0 or self.rules.assignment != "free"):
            out.append((DealStatus.TASK_OWNER_UNKNOWN, "quota",
                        f"a quota needs free assignment, one count per seat and {len(self.tasks)} in all"))
        if self.distress is not None:
            if self.distress not in ("left", "right", "choose"):
                out.append((DealStatus.BAD_CONDITION, "distress",
                            f"expected 'left', 'right' or 'choose', got {self.distress!r}"))
            elif self.history:
                out.append((DealStatus.ILLEGAL_HISTORY, "distress",
                            "a game in progress after a distress signal: give the hands after the "
                            "passes, without 'distress'"))
        if self.token_move is not None and self.token_move not in ("swap", "move"):
            out.append((DealStatus.BAD_TOKEN, "token_move", f"expected 'swap' or 'move', got {self.token_move!r}"))
        if self.handover and not self.tasks:
            out.append((DealStatus.TASK_OWNER_UNKNOWN, "handover", "a task hand-over needs tasks"))
        for j, cond in enumerate(self.conditions):
            for name, message in cond.problems(self):
                where = f"conditions[{j}]" + ("" if name == "kind" else f".{name}")
                out.append((DealStatus.BAD_CONDITION, where, message))
        return out

    def without_choices(self) -> Instance:
        """This deal with its conditions that name a seat still to choose replaced by
        :class:`~crewcheck.model.conditions.Undecided` (the rules of play do not depend on
        them; used to check a history, which they never end early)."""
        if all(c.is_concrete() for c in self.conditions):
            return self
        kept = tuple(c if c.is_concrete() else Undecided(c) for c in self.conditions)
        return replace(self, conditions=kept)

    def _history_problems(self) -> list[tuple[DealStatus, str, str]]:
        base = self.without_choices()
        s = State.initial(base)
        p = len(self.hands)
        for n, c in enumerate(self.history):
            where = f"played[{n // p}].cards[{n % p}]"
            if s.end is not None:
                return [(DealStatus.ILLEGAL_HISTORY, where,
                         f"the game already ended ({s.end.describe(base)}) before this card")]
            try:
                s = s.apply(c)
            except IllegalPlayError as e:
                return [(DealStatus.ILLEGAL_HISTORY, where, str(e))]
        return []

    def __repr__(self) -> str:
        hands = " / ".join(self.deck.format_mask(h) for h in self.hands)
        return f"<Instance {self.players}p [{hands}] tasks={len(self.tasks)} lead={self.lead!r}>"
