"""Harvill & Vivek's *Mission Deep Sea* experiment (seed ``004``): the game, their agents, RTU.

What it is
    The set-up of *Designing a Reliable Crew Member* (§3.1): 4 players, each dealt N
    cards at random from the 40-card deck (the other 40 - 4N cards are out of play), the
    captain is the holder of the 4 submarine (R4, the top trump) and leads the first
    trick; 2 of their 5 simplified tasks are laid out (``seed_004`` in
    ``crewcheck/missions/data/deepsea_tasks.json``, as conditions of the rules engine), then, in order
    from the captain, each player takes one open task or passes, the last players being
    made to take what is left. A player takes at most one task (§3.2: "2 players each
    assigned 1 task"). The team wins when every task holds at the end of the game
    (reward 1, else 0).
Agents
    :class:`StochasticAgent` picks a uniformly random valid action (a legal card, or an
    open task or pass). :class:`MCTSAgent` is their "modified MCTS" (§3.3): a table of
    ``Q(h, a)`` and ``N(h, a)`` over the *visible state* ``h`` (own hand, the tasks not
    yet completed, who holds each task, how many players have not yet acted in the
    current round: :func:`visible_state`), trained by :func:`train_mcts` on self-play
    games from random deals where every seat picks by UCB-1 (c = sqrt 2) and every
    visited pair is updated with the game's reward; played greedily (c = 0).
    :class:`NoisyAgent` is a teammate of reliability r (the best action with
    probability r, a random one otherwise).
Information
    An agent gets a :class:`DeepSeaView`: its own hand, the tasks and owners, the cards
    played so far, the current trick, which tasks are already fulfilled (public: every
    card played is seen). Nothing in it refers to another seat's cards.
Rules
    The rules engine (:class:`crewcheck.State`) judges legality and the outcome: the
    game ends as soon as a task is broken or all hold. A task that needs a card or a
    value that is out of play (HV4 without a 9 dealt; HV5 without G7 or B8) cannot
    hold: the game is lost when play starts (:attr:`GameRecord.impossible`).
Readings (:class:`DeepSeaRules`; the paper is silent)
    ``r4_absent``: who captains when R4 is not among the 4N cards (``"seat0"``: the
    first seat; ``"redeal"``: deal again until R4 is in play). ``hv5``: G7 and B8 won
    in any tricks (``"separate"``) or in one trick (``"together"``). ``captain_hv1``:
    whether the captain may take "fewer tricks than the captain" (``"allow"``, the
    default: the paper states no such rule, and taking it loses; ``"forbid"``: as the
    game's card DS05 says).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, Protocol

from crewcheck.agents.base import GameRecord
from crewcheck.agents.kernel import ucb_score
from crewcheck.errors import IllegalPlayError, InvalidDealError, InvalidInputError
from crewcheck.missions.deepsea import catalogue
from crewcheck.model.cards import CLASSIC_DECK, Card, CardIndex, Deck, Mask, iter_bits
from crewcheck.model.conditions import HOLDS, Condition, condition_from_json
from crewcheck.model.instance import Instance, Seat
from crewcheck.model.rules import legal_plays

__all__ = [
    "PLAYERS", "TASK_IDS", "PASS", "DeepSeaRules", "DeepSeaDeal", "DeepSeaView", "GameRecord",
    "deal_deepsea", "task_options", "build_instance", "play_deepsea", "visible_state",
    "StochasticAgent", "MCTSAgent", "NoisyAgent", "QTable", "train_mcts", "rtu", "trapezoid",
    "assignments", "seed_tasks",
]

PLAYERS = 4
"""Harvill & Vivek play every game with 4 players."""
TASK_IDS: tuple[str, ...] = ("HV1", "HV2", "HV3", "HV4", "HV5")
"""Their five tasks, in the order the paper lists them (``seed_004`` of the catalogue)."""
PASS = -1
"""The task-phase action "pass"."""
R4: CardIndex = CLASSIC_DECK.index(Card("R", 4))


@lru_cache(maxsize=1)
def seed_tasks() -> dict[str, dict[str, Any]]:
    """The catalogue's ``seed_004`` entries by id (``crewcheck/missions/data/deepsea_tasks.json``,
    described in ``models/deepsea/README.md``)."""
    return {t["id"]: t for t in catalogue()["seed_004"]}


@dataclass(frozen=True)
class DeepSeaRules:
    """The readings the paper leaves open (module docstring)."""

    r4_absent: Literal["seat0", "redeal"] = "seat0"
    hv5: Literal["separate", "together"] = "separate"
    captain_hv1: Literal["allow", "forbid"] = "allow"

    def __post_init__(self) -> None:
        for name, allowed in (("r4_absent", ("seat0", "redeal")), ("hv5", ("separate", "together")),
                              ("captain_hv1", ("allow", "forbid"))):
            if getattr(self, name) not in allowed:
                raise InvalidInputError(f"{name}: expected one of {', '.join(allowed)}, got {getattr(self, name)!r}")

    @property
    def tag(self) -> str:
        """A short name for file and record keys."""
        return f"{self.r4_absent}-{self.hv5}-{self.captain_hv1}"


@dataclass(frozen=True)
class DeepSeaDeal:
    """A deal before the task phase. Hands are masks over :data:`CLASSIC_DECK`."""

    cards: int
    """N, cards per player."""
    hands: tuple[Mask, ...]
    captain: Seat
    tasks: tuple[int, ...]
    """Indices into :data:`TASK_IDS`, in layout order."""
    key: str = ""

    @property
    def in_play(self) -> Mask:
        m = 0
        for h in self.hands:
            m |= h
        return m


def deal_deepsea(cards: int, seed: int | str, rules: DeepSeaRules = DeepSeaRules(), ntasks: int = 2) -> DeepSeaDeal:
    """A seeded deal: 4 hands of ``cards`` cards from the 40, the captain, the task layout."""
    if not 1 <= cards <= 10:
        raise InvalidInputError(f"cards per player must lie in 1..10, got {cards}")
    if not 0 <= ntasks <= len(TASK_IDS):
        raise InvalidInputError(f"tasks per game must lie in 0..{len(TASK_IDS)}, got {ntasks}")
    rng = random.Random(f"crewcheck-deepsea:{seed}")
    n = PLAYERS * cards
    if rules.r4_absent == "redeal" and n < CLASSIC_DECK.size:
        # uniform over the deals that hold R4: the law of dealing again until it is in play
        chosen = rng.sample([c for c in range(CLASSIC_DECK.size) if c != R4], n - 1) + [R4]
        rng.shuffle(chosen)
    else:
        chosen = rng.sample(range(CLASSIC_DECK.size), n)
    hands = []
    for s in range(PLAYERS):
        m = 0
        for c in chosen[s * cards:(s + 1) * cards]:
            m |= 1 << c
        hands.append(m)
    captain = next((s for s, h in enumerate(hands) if h >> R4 & 1), 0)
    tasks = tuple(rng.sample(range(len(TASK_IDS)), ntasks))
    return DeepSeaDeal(cards, tuple(hands), captain, tasks, str(seed))


# -- the task phase ------------------------------------------------------------------------

def task_options(deal: DeepSeaDeal, owners: Sequence[Seat], step: int, rules: DeepSeaRules) -> tuple[int, ...]:
    """The valid actions of the ``step``-th seat from the captain: the layout positions of
    the open tasks it may take, and :data:`PASS` unless it must take one (as many open
    tasks as seats still to decide). Empty when no task is open."""
    seat = (deal.captain + step) % PLAYERS
    open_ = [i for i, o in enumerate(owners) if o < 0]
    if not open_:
        return ()
    allowed = [i for i in open_ if not (TASK_IDS[deal.tasks[i]] == "HV1" and seat == deal.captain
                                        and rules.captain_hv1 == "forbid")]
    forced = PLAYERS - step <= len(open_) and allowed
    return tuple(allowed) + (() if forced else (PASS,))


def assignments(deal: DeepSeaDeal, rules: DeepSeaRules) -> list[tuple[Seat, ...]]:
    """Every assignment the task phase can produce (distinct seats, HV1 rule)."""
    out: set[tuple[Seat, ...]] = set()

    def walk(step: int, owners: list[Seat]) -> None:
        if step == PLAYERS:
            if all(o >= 0 for o in owners):
                out.add(tuple(owners))
            return
        opts = task_options(deal, owners, step, rules)
        if not opts:
            walk(step + 1, owners)
        for a in opts:
            nxt = list(owners)
            if a != PASS:
                nxt[a] = (deal.captain + step) % PLAYERS
            walk(step + 1, nxt)

    walk(0, [-1] * len(deal.tasks))
    return sorted(out)


# -- the deal as the rules engine sees it --------------------------------------------------

@dataclass(frozen=True)
class Built:
    """A deal with its assignment, ready to play: the instance, the card maps, each
    task's slice of :attr:`Instance.conditions`, and why it cannot be won if a task
    needs cards out of play."""

    instance: Instance
    to_local: dict[CardIndex, CardIndex]
    to_classic: tuple[CardIndex, ...]
    spans: tuple[tuple[int, int], ...]
    impossible: str | None


def _placed(cond: dict[str, Any], seat: Seat, captain: Seat) -> dict[str, Any]:
    names = {"self": seat, "captain": captain}
    return {k: (names.get(v, v) if k in ("seat", "other") else v) for k, v in cond.items()}


def build_instance(deal: DeepSeaDeal, owners: Sequence[Seat], rules: DeepSeaRules = DeepSeaRules()) -> Built:
    """The perfect-information deal with task ``i`` held by ``owners[i]``.

    The deck is the 4N cards in play. A condition about a suit that is out of play
    (``wins_no_cards``) holds and is left out; one that needs a card or a value out of
    play, or that cannot fit (a seat fewer tricks than itself; two cards of one hand "in
    one trick") makes the deal unwinnable: it is left out and named in
    :attr:`Built.impossible`.
    """
    classic = CLASSIC_DECK
    deck = Deck.from_cards(classic.card(c) for c in iter_bits(deal.in_play))
    to_classic = tuple(classic.index(c) for c in deck.cards)
    to_local = {c: i for i, c in enumerate(to_classic)}
    hands = tuple(sum(1 << to_local[c] for c in iter_bits(h)) for h in deal.hands)
    trump = "R" if "R" in deck.suits else None
    bare = Instance(deck, hands, (), trump, deal.captain)
    conds: list[Condition] = []
    spans: list[tuple[int, int]] = []
    why: list[str] = []
    catalogue = seed_tasks()

    def card_index(name: str, where: str) -> CardIndex:
        card = Card.parse(name)
        if card not in deck:
            raise InvalidDealError(f"{name} is not in play", field=where)
        return deck.index(card)

    for i, (t, seat) in enumerate(zip(deal.tasks, owners, strict=True)):
        tid = TASK_IDS[t]
        entry = catalogue[tid]
        raw = entry["conditions"]
        if tid == "HV5" and rules.hv5 == "together":
            raw = entry["alternative"]["conditions"]
        start = len(conds)
        for obj in raw:
            obj = _placed(obj, seat, deal.captain)
            if obj["kind"] == "wins_no_cards" and obj["suit"] not in deck.suits:
                continue  # no card of the suit is in play: it holds
            try:
                cond = condition_from_json(obj, f"{tid}", card_index)
            except InvalidDealError as e:
                why.append(f"{tid} (seat {seat}): {e}")
                continue
            bad = cond.problems(bare)
            if bad:
                why.append(f"{tid} (seat {seat}): {bad[0][1]}")
                continue
            conds.append(cond)
        spans.append((start, len(conds)))
    inst = Instance(deck, hands, (), trump, deal.captain, conditions=tuple(conds))
    return Built(inst, to_local, to_classic, tuple(spans), "; ".join(why) or None)


# -- what a seat sees ----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class DeepSeaView:
    """What seat :attr:`seat` knows when it acts. Cards are :data:`CLASSIC_DECK` indices."""

    seat: Seat
    phase: Literal["tasks", "play"]
    cards: int
    """N, cards per player at the start."""
    captain: Seat
    hand: Mask
    """The seat's own cards."""
    tasks: tuple[int, ...]
    """Task ids (indices into :data:`TASK_IDS`), layout order."""
    owners: tuple[Seat, ...]
    """Seat holding each task, -1 while open."""
    done: tuple[bool, ...]
    """Whether each task already holds whatever happens (public: all cards played are seen)."""
    pending: int
    """Players that have not yet acted in the current round, this one included."""
    trick: tuple[CardIndex, ...]
    """The current trick, leader first (play phase)."""
    plays: tuple[tuple[Seat, CardIndex], ...]
    """Every card played so far, with its player."""
    legal: tuple[int, ...]
    """The valid actions: task layout positions and :data:`PASS`, or legal cards."""


class DeepSeaAgent(Protocol):
    @property
    def name(self) -> str: ...

    def choose(self, view: DeepSeaView, rng: random.Random) -> int: ...


def _per_seat(agents: DeepSeaAgent | Sequence[DeepSeaAgent]) -> tuple[DeepSeaAgent, ...]:
    if isinstance(agents, Sequence):
        if len(agents) != PLAYERS:
            raise InvalidInputError(f"expected {PLAYERS} agents, got {len(agents)}")
        return tuple(agents)
    return (agents,) * PLAYERS


def _done_flags(built: Built, state: Any) -> tuple[bool, ...]:
    inst = built.instance
    left = 0
    for h in state.hands:
        left |= h
    tricks_left = min(h.bit_count() for h in state.hands)
    return tuple(all(inst.conditions[j].judge(inst, state.memos[j], left, tricks_left) is HOLDS
                     for j in range(a, b)) for a, b in built.spans)


def play_deepsea(deal: DeepSeaDeal, agents: DeepSeaAgent | Sequence[DeepSeaAgent], *, seed: int | str = 0,
                 rules: DeepSeaRules = DeepSeaRules()) -> GameRecord:
    """One game: the task phase from the captain, then the tricks, judged by ``State``."""
    seats = _per_seat(agents)
    rng = random.Random(f"crewcheck-deepsea-game:{seed}")
    k = len(deal.tasks)
    owners = [-1] * k
    no = (False,) * k
    for step in range(PLAYERS):
        opts = task_options(deal, owners, step, rules)
        if not opts:
            continue
        seat = (deal.captain + step) % PLAYERS
        view = DeepSeaView(seat, "tasks", deal.cards, deal.captain, deal.hands[seat], deal.tasks, tuple(owners),
                           no, PLAYERS - step, (), (), opts)
        a = seats[seat].choose(view, rng)
        if a not in opts:
            raise IllegalPlayError(f"agent {seats[seat].name!r} (seat {seat}) chose {a!r}; valid: {opts}")
        if a != PASS:
            owners[a] = seat
    built = build_instance(deal, owners, rules)
    if built.impossible is not None:
        return GameRecord(deal.key, tuple(owners), (), False, "task impossible", 0, 0, built.impossible)
    state = built.instance.initial_state()
    hands = list(deal.hands)
    plays: list[tuple[Seat, CardIndex]] = []
    trick: list[CardIndex] = []
    done = _done_flags(built, state)
    while not state.is_terminal():
        mover = state.to_play
        assert mover is not None
        seat = mover
        legal = tuple(iter_bits(legal_plays(CLASSIC_DECK, hands[seat], trick)))
        view = DeepSeaView(seat, "play", deal.cards, deal.captain, hands[seat], deal.tasks, tuple(owners), done,
                           PLAYERS - len(trick), tuple(trick), tuple(plays), legal)
        card = seats[seat].choose(view, rng)
        if card not in built.to_local or not hands[seat] >> card & 1:
            raise IllegalPlayError(f"agent {seats[seat].name!r} (seat {seat}) played {card!r}, not in its hand")
        state = state.apply(built.to_local[card])
        hands[seat] &= ~(1 << card)
        plays.append((seat, card))
        trick.append(card)
        if len(trick) == PLAYERS:
            trick = []
            done = _done_flags(built, state)
    end = state.end
    assert end is not None
    term = end.termination.value if end.termination else ""
    return GameRecord(deal.key, tuple(owners), tuple(c for _, c in plays), end.won, term, sum(done),
                      state.tricks_played)


# -- agents --------------------------------------------------------------------------------

class StochasticAgent:
    """The paper's stochastic baseline: a uniformly random valid action."""

    name = "stochastic"

    def choose(self, view: DeepSeaView, rng: random.Random) -> int:
        return rng.choice(view.legal)


def visible_state(view: DeepSeaView) -> int:
    """The paper's "visible" state as one int (§3.3): the seat's hand, for each task
    (sorted by id) its id, its holder relative to the seat (4: open) and whether it is
    completed, how many players have not yet acted in the current round, the phase.
    57 bits: the hand takes 40."""
    key = view.hand
    shift = 40
    for t, o, d in sorted(zip(view.tasks, view.owners, view.done)):
        rel = 4 if o < 0 else (o - view.seat) % PLAYERS
        key |= (t | rel << 3 | int(d) << 6) << shift
        shift += 7
    key |= view.pending << shift
    key |= (view.phase == "play") << (shift + 3)
    return key


def action_code(view: DeepSeaView, action: int) -> int:
    """0..39 a card; 40 + id a task; 45 pass."""
    if view.phase == "play":
        return action
    return 45 if action == PASS else 40 + view.tasks[action]


@dataclass
class QTable:
    """``N(h, a)`` and the summed rewards of ``(h, a)``, keyed ``h << 6 | a``; rewards are
    0 or 1 and undiscounted, so ``Q(h, a) = wins / visits``."""

    visits: dict[int, int] = field(default_factory=dict)
    wins: dict[int, int] = field(default_factory=dict)
    total: dict[int, int] = field(default_factory=dict)
    """``N(h) = sum_a N(h, a)``."""
    rollouts: int = 0

    def update(self, path: Sequence[tuple[int, int]], reward: int) -> None:
        """Back up one game's reward to every visited pair."""
        v, w, t = self.visits, self.wins, self.total
        for h, a in path:
            k = h << 6 | a
            v[k] = v.get(k, 0) + 1
            if reward:
                w[k] = w.get(k, 0) + reward
            t[h] = t.get(h, 0) + 1
        self.rollouts += 1

    def q(self, h: int, a: int) -> float:
        k = h << 6 | a
        n = self.visits.get(k, 0)
        return self.wins.get(k, 0) / n if n else 0.0

    def save(self, path: str | Path) -> None:
        import numpy as np

        keys = np.fromiter(self.visits.keys(), dtype=np.uint64, count=len(self.visits))
        vis = np.fromiter(self.visits.values(), dtype=np.int64, count=len(self.visits))
        win = np.fromiter((self.wins.get(k, 0) for k in self.visits), dtype=np.int64, count=len(self.visits))
        tmp = Path(str(path) + ".tmp.npz")
        np.savez_compressed(tmp, keys=keys, visits=vis, wins=win, rollouts=np.int64(self.rollouts))
        tmp.replace(path)

    @classmethod
    def load(cls, path: str | Path) -> QTable:
        import numpy as np

        with np.load(path) as z:
            keys = [int(k) for k in z["keys"]]
            vis = [int(x) for x in z["visits"]]
            win = [int(x) for x in z["wins"]]
            rollouts = int(z["rollouts"])
        t = cls(dict(zip(keys, vis)), {k: x for k, x in zip(keys, win) if x}, {}, rollouts)
        for k, n in t.visits.items():
            t.total[k >> 6] = t.total.get(k >> 6, 0) + n
        return t

    def __len__(self) -> int:
        return len(self.visits)


class MCTSAgent:
    """Harvill & Vivek's agent: UCB-1 over the visible state, greedy (``c = 0``) in play.

    ``Q(h, a) + c * sqrt(log N(h) / N(h, a))`` (:func:`~crewcheck.agents.kernel.ucb_score`,
    the agents' one UCB-1 score); an action never tried scores
    ``+inf`` when ``c > 0`` (training) and ``Q = 0`` when ``c = 0`` (evaluation); ties
    go to a uniformly random action. With ``path`` set, every ``(h, a)`` chosen is
    appended to it (training).
    """

    name = "mcts"

    def __init__(self, table: QTable, c: float = 0.0, path: list[tuple[int, int]] | None = None) -> None:
        self.table = table
        self.c = c
        self.path = path
        self.decisions = 0
        """Choices made with more than one valid action."""
        self.informed = 0
        """Of those, choices where the table preferred some actions to others (not all tied)."""

    def choose(self, view: DeepSeaView, rng: random.Random) -> int:
        h = visible_state(view)
        t = self.table
        base = h << 6
        best: list[int] = []
        best_score = -math.inf
        log_n = math.log(t.total[h]) if self.c > 0 and t.total.get(h, 0) > 0 else 0.0
        untried = math.inf if self.c > 0 else 0.0
        for a in view.legal:
            code = action_code(view, a)
            score = ucb_score(t.wins.get(base | code, 0), t.visits.get(base | code, 0), 1.0, log_n, self.c, untried)
            if score > best_score:
                best_score, best = score, [a]
            elif score == best_score:
                best.append(a)
        if len(view.legal) > 1:
            self.decisions += 1
            self.informed += len(best) < len(view.legal)
        a = best[0] if len(best) == 1 else rng.choice(best)
        if self.path is not None:
            self.path.append((h, action_code(view, a)))
        return a


class NoisyAgent:
    """A teammate of reliability ``r``: ``inner``'s action with probability ``r``, else a
    uniformly random valid action (r = 1 is ``inner``, r = 0 the stochastic agent, both
    drawing exactly the same random numbers as those)."""

    def __init__(self, inner: DeepSeaAgent, r: float) -> None:
        if not 0.0 <= r <= 1.0:
            raise InvalidInputError(f"reliability must lie in [0, 1], got {r}")
        self.inner = inner
        self.r = r
        self.name = f"{inner.name}@r={r:g}"

    def choose(self, view: DeepSeaView, rng: random.Random) -> int:
        if self.r >= 1.0 or (self.r > 0.0 and rng.random() < self.r):
            return self.inner.choose(view, rng)
        return rng.choice(view.legal)


def train_mcts(cards: int, rollouts: int = 102_400, *, seed: int | str = 0, rules: DeepSeaRules = DeepSeaRules(),
               c: float = math.sqrt(2), table: QTable | None = None,
               progress: Callable[[int], None] | None = None) -> QTable:
    """Self-play training (§4: 102,400 rollouts from random deals to the end of the game).

    Rollout ``j`` plays deal ``train:{seed}:{j}`` (never an evaluation deal) with all four
    seats choosing by UCB-1 from one shared table, then backs the reward up to every
    visited (visible state, action) pair. Passing a partly trained ``table`` resumes at
    its :attr:`QTable.rollouts`.
    """
    t = table if table is not None else QTable()
    agent = MCTSAgent(t, c, [])
    for j in range(t.rollouts, rollouts):
        key = f"train:{seed}:{cards}:{j}"
        agent.path = []
        rec = play_deepsea(deal_deepsea(cards, key, rules), agent, seed=key, rules=rules)
        t.update(agent.path, int(rec.won))
        if progress is not None:
            progress(j + 1)
    return t


# -- the robustness metric -----------------------------------------------------------------

def trapezoid(xs: Sequence[float], ys: Sequence[float]) -> float:
    """The trapezoidal rule over the points ``(xs[i], ys[i])``, ``xs`` ascending."""
    if len(xs) != len(ys) or len(xs) < 2:
        raise InvalidInputError("trapezoid needs at least two points and as many ys as xs")
    return sum((xs[i + 1] - xs[i]) * (ys[i] + ys[i + 1]) / 2 for i in range(len(xs) - 1))


def rtu(rs: Sequence[float], curve: Sequence[float], stochastic: float) -> float:
    """Robustness to Teammate Unreliability (§3.5):

    ``(∫_0^1 WinRate(Agent, Teammates(r)) dr - WinRate(Stochastic, Teammates(0)))
    / (WinRate(Agent, Teammates(1)) - WinRate(Stochastic, Teammates(0)))``,

    the integral by the trapezoidal rule over ``rs`` (0 to 1). ``nan`` when the agent at
    r = 1 does no better than the stochastic agent.
    """
    if abs(rs[0]) > 1e-12 or abs(rs[-1] - 1.0) > 1e-12:
        raise InvalidInputError("the reliabilities must run from 0 to 1")
    den = curve[-1] - stochastic
    if den == 0:
        return math.nan
    return (trapezoid(rs, curve) - stochastic) / den
