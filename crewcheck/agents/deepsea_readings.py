"""Readings of Harvill & Vivek's Deep Sea experiment that the paper leaves open, as options.

The published set-up is :mod:`crewcheck.agents.deepsea`; the paper (seed ``004``) is silent
on several points, and each reading here is one named choice (:class:`ReadingOptions`):

Set-up
    ``r4_absent``: who leads when R4 is out of play: ``"seat0"`` (the first seat),
    ``"redeal"`` (deal again until R4 is in play) or ``"highest-sub"`` (the holder of the
    highest submarine in play; seat 0 when no submarine is in play).
    ``tasks``: ``"drawn"`` (2 of the 5 tasks at random, as published: a task whose cards
    are out of play loses before the first card) or ``"feasible"`` (a drawn task whose
    cards are out of play is redrawn from the tasks not on the table that are feasible:
    HV4 needs a non-trump 9 in play, HV5 needs G7 and B8 in play, and in different hands
    when ``hv5 = "together"``; the pair laid out is then uniform over pairs of feasible
    tasks). ``hv5`` and ``captain_hv1`` as in :class:`~crewcheck.agents.deepsea.DeepSeaRules`.
Agents
    ``"stochastic"``: uniformly random valid actions (the paper's baseline).
    ``"mcts-table"``: the paper's trained Q-table (UCB-1 self-play training on
    ``training`` random deals, greedy play), over a visible state whose hand part is the
    exact hand (``abstraction = "exact-hand"``, as published) or, without the exact hand,
    the count of cards per suit and whether the hand holds a non-trump 9, G7, B8
    (``"suit-counts"``); trained in the numba kernel
    (:func:`~crewcheck.agents.deepsea_kernel.ds_train`) and played through
    :func:`~crewcheck.agents.deepsea.play_deepsea`.
    ``"mcts-online"``: MCTS as online planning (§3.3 "an online planning technique"): at
    each decision with more than one valid action, ``k`` simulations, each dealing the
    hidden cards anew (the seat's own hand fixed; every card not in it and not yet played,
    out-of-play cards included, equally likely in the other hands, each hand its true
    size: the paper's "all cards not in one's hand are equally likely"), choosing one of
    the seat's actions by UCB-1 (``c``, untried actions first), then playing uniformly at
    random to the end (reward 1 won, 0 lost); the action with the highest mean reward is
    played (ties at random). The budget ``k``: ``budget = "game:B"`` spreads B rollouts
    over the 4 + 4N decisions a game can have (``k = B // (4 + 4N)``; the paper's
    102,400 gives 6,400 per decision at N = 3 and 3,657 at N = 6; decisions with one
    valid action and draft steps with no open task spend nothing), ``"decision:K"`` uses
    ``k = K``.

Every game is played by :func:`~crewcheck.agents.deepsea.play_deepsea` and judged by the rules
engine; the kernel only plans and trains.

:data:`DEEPSEA_AGENTS` is the one table of Deep Sea agents by name (these three and the
bench's ``"mcts"``); :func:`make_deepsea_agent` builds one, and the bench and the study build
agents only through it.
"""

from __future__ import annotations

import dataclasses
import math
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Literal

import numpy as np

from crewcheck.agents.deepsea import (PASS, PLAYERS, R4, TASK_IDS, DeepSeaAgent, DeepSeaDeal, DeepSeaRules,
                                      DeepSeaView, MCTSAgent, StochasticAgent, action_code, deal_deepsea)
from crewcheck.agents.deepsea_kernel import (B8, CAPTAIN, CARDS, DONE, FLAG_FORBID, FLAG_TOGETHER, FLAGS, G7,
                                             HAND_COUNTS, HAND_EXACT, HANDS, LEADER, NINES, NINES_WON, NT,
                                             NTRICK, OWNERS, PASS_MOVE, SIZE, STEP, TIDS, TOGETHER, TRICK, TRICKS,
                                             TRICKS_WON, WON, kernel, twin)
from crewcheck.agents.kernel import ucb_score
from crewcheck.errors import InvalidInputError
from crewcheck.model.cards import CLASSIC_DECK, Card, CardIndex
from crewcheck.model.rules import trick_winner

__all__ = ["ReadingOptions", "reading_deal", "deal_row", "state_from_view", "OnlineMCTSAgent", "TableAgent",
           "train_table", "Table", "rollouts_per_decision", "ABSTRACTIONS", "DEEPSEA_AGENTS", "DeepSeaAgentSpec",
           "STUDY_AGENTS", "make_deepsea_agent"]

ABSTRACTIONS: dict[str, int] = {"exact-hand": HAND_EXACT, "suit-counts": HAND_COUNTS}
"""Hand part of the visible state: name -> kernel code."""
_SUBS: tuple[CardIndex, ...] = tuple(CLASSIC_DECK.index(Card("R", v)) for v in (4, 3, 2, 1))
_TRUMP = CLASSIC_DECK.suit_index("R")
_CHOICES: dict[str, tuple[str, ...]] = {
    "r4_absent": ("seat0", "redeal", "highest-sub"), "hv5": ("separate", "together"),
    "captain_hv1": ("allow", "forbid"), "tasks": ("drawn", "feasible"),
    "abstraction": tuple(ABSTRACTIONS),
}


@dataclass(frozen=True)
class ReadingOptions:
    """One reading of the experiment (module docstring). Fields that do not apply to the
    agent (``abstraction`` and ``training`` for the online planner, ...) are ignored."""

    r4_absent: Literal["seat0", "redeal", "highest-sub"] = "seat0"
    hv5: Literal["separate", "together"] = "separate"
    captain_hv1: Literal["allow", "forbid"] = "allow"
    tasks: Literal["drawn", "feasible"] = "drawn"
    agent: Literal["stochastic", "mcts-table", "mcts-online"] = "stochastic"
    abstraction: Literal["exact-hand", "suit-counts"] = "exact-hand"
    training: int = 102_400
    """Self-play training games of ``mcts-table``."""
    budget: str = "game:102400"
    """Rollouts of ``mcts-online``: ``game:B`` or ``decision:K``."""
    c: float = math.sqrt(2)
    """UCB-1 exploration constant (training and online planning)."""

    def __post_init__(self) -> None:
        for name, allowed in (*_CHOICES.items(), ("agent", STUDY_AGENTS)):
            if getattr(self, name) not in allowed:
                raise InvalidInputError(f"{name}: expected one of {', '.join(allowed)}, got {getattr(self, name)!r}")
        if self.training < 1:
            raise InvalidInputError(f"training: expected a positive number of games, got {self.training}")
        kind, _, num = self.budget.partition(":")
        if kind not in ("game", "decision") or not num.isdigit() or int(num) < 1:
            raise InvalidInputError(f"budget: expected 'game:B' or 'decision:K' with a positive int, got "
                                    f"{self.budget!r}")
        if not self.c >= 0:
            raise InvalidInputError(f"c: expected a number >= 0, got {self.c}")

    @property
    def rules(self) -> DeepSeaRules:
        """The engine's rules for these options (``highest-sub`` deals as ``seat0``, then
        moves the lead: :func:`reading_deal`)."""
        if self.r4_absent == "redeal":
            return DeepSeaRules(r4_absent="redeal", hv5=self.hv5, captain_hv1=self.captain_hv1)
        return DeepSeaRules(r4_absent="seat0", hv5=self.hv5, captain_hv1=self.captain_hv1)

    @property
    def flags(self) -> int:
        """The kernel's rule flags."""
        return (FLAG_TOGETHER if self.hv5 == "together" else 0) | (FLAG_FORBID if self.captain_hv1 == "forbid" else 0)

    def to_json(self) -> dict[str, Any]:
        """The options that apply to the agent, as a JSON object."""
        d: dict[str, Any] = {k: getattr(self, k) for k in ("r4_absent", "hv5", "captain_hv1", "tasks", "agent")}
        for k in DEEPSEA_AGENTS[self.agent].options:
            d[k] = round(self.c, 6) if k == "c" else getattr(self, k)
        return d


def rollouts_per_decision(options: ReadingOptions, cards: int) -> int:
    """``k`` of the online planner at N = ``cards`` (module docstring)."""
    kind, _, num = options.budget.partition(":")
    return int(num) // (PLAYERS + PLAYERS * cards) if kind == "game" else int(num)


def _feasible(task: int, hands: Sequence[int], together: bool) -> bool:
    inplay = 0
    for h in hands:
        inplay |= h
    tid = TASK_IDS[task]
    if tid == "HV4":
        return inplay & NINES != 0
    if tid == "HV5":
        if not (inplay >> G7 & 1 and inplay >> B8 & 1):
            return False
        return not (together and any(h >> G7 & 1 and h >> B8 & 1 for h in hands))
    return True


def reading_deal(cards: int, seed: int | str, options: ReadingOptions) -> DeepSeaDeal:
    """The deal of :func:`~crewcheck.agents.deepsea.deal_deepsea` (same hands and layout
    for the same seed), with the lead and the tasks of ``options``."""
    deal = deal_deepsea(cards, seed, options.rules)
    if options.r4_absent == "highest-sub" and not deal.in_play >> R4 & 1:
        holder = next((s for c in _SUBS for s, h in enumerate(deal.hands) if h >> c & 1), 0)
        deal = dataclasses.replace(deal, captain=holder)
    if options.tasks == "feasible":
        together = options.hv5 == "together"
        ok = [t for t in range(len(TASK_IDS)) if _feasible(t, deal.hands, together)]
        tasks = list(deal.tasks)
        bad = [i for i, t in enumerate(tasks) if t not in ok]
        if bad:
            rng = random.Random(f"crewcheck-deepsea-feasible:{seed}")
            for i in bad:
                tasks[i] = rng.choice([t for t in ok if t not in tasks])
            deal = dataclasses.replace(deal, tasks=tuple(tasks))
    return deal


def deal_row(deal: DeepSeaDeal, flags: int) -> list[int]:
    """The kernel's row for one deal: 4 hands, captain, T, 5 task ids, N, flags."""
    tids = list(deal.tasks) + [-1] * (5 - len(deal.tasks))
    return [*deal.hands, deal.captain, len(deal.tasks), *tids, deal.cards, flags]


def state_from_view(view: DeepSeaView, flags: int) -> np.ndarray:
    """The kernel state of what ``view``'s seat knows: its own hand, the tasks and
    holders, the cards played and who won each trick; the other hands are empty (a
    planner deals them: :func:`~crewcheck.agents.deepsea_kernel.ds_determinize`)."""
    st = np.zeros(SIZE, np.int64)
    st[CARDS] = view.cards
    st[CAPTAIN] = view.captain
    st[LEADER] = view.captain
    st[NT] = len(view.tasks)
    st[FLAGS] = flags
    st[TOGETHER] = -1
    for i in range(5):
        st[TIDS + i] = view.tasks[i] if i < len(view.tasks) else -1
        st[OWNERS + i] = view.owners[i] if i < len(view.owners) else -1
    st[HANDS + view.seat] = view.hand
    if view.phase == "tasks":
        st[STEP] = PLAYERS - view.pending
        return st
    st[STEP] = PLAYERS
    leader = view.captain
    complete = len(view.plays) - len(view.trick)
    for start in range(0, complete, PLAYERS):
        trick = [c for _, c in view.plays[start:start + PLAYERS]]
        pos = trick_winner(CLASSIC_DECK, _TRUMP, trick)
        w = (leader + pos) % PLAYERS
        played = sum(1 << c for c in trick)
        st[TRICKS_WON + w] += 1
        st[WON + w] |= played
        if NINES >> trick[pos] & 1:
            st[NINES_WON + w] += 1
        if st[TOGETHER] == -1 and (played >> G7 & 1 or played >> B8 & 1):
            st[TOGETHER] = w if played >> G7 & 1 and played >> B8 & 1 else -2
        st[TRICKS] += 1
        leader = w
    st[LEADER] = leader
    st[NTRICK] = len(view.trick)
    for pos, c in enumerate(view.trick):
        st[TRICK + pos] = c
    st[DONE] = sum(1 << i for i, d in enumerate(view.done) if d)
    return st


def _moves(view: DeepSeaView) -> np.ndarray:
    if view.phase == "tasks":
        return np.array([PASS_MOVE if a == PASS else a for a in view.legal], np.int64)
    return np.array(view.legal, np.int64)


class OnlineMCTSAgent:
    """MCTS as online planning (module docstring): determinized flat UCB-1 with random
    rollouts, ``k`` simulations per decision with more than one valid action."""

    name = "mcts-online"

    def __init__(self, k: int, c: float = math.sqrt(2), flags: int = 0, kern: SimpleNamespace | None = None) -> None:
        if k < 1:
            raise InvalidInputError(f"rollouts per decision must be positive, got {k}")
        self.k = k
        self.c = c
        self.flags = flags
        self.kern = kern if kern is not None else kernel()
        self.rollouts = 0
        """Simulations run so far."""

    def choose(self, view: DeepSeaView, rng: random.Random) -> int:
        if len(view.legal) == 1:
            return view.legal[0]
        st = state_from_view(view, self.flags)
        moves = _moves(view)
        visits = np.zeros(len(moves), np.int64)
        wins = np.zeros(len(moves), np.int64)
        rs = np.array([rng.getrandbits(32)], np.int64)
        self.kern.ds_plan(st, self.k, self.c, rs, moves, visits, wins)
        self.rollouts += self.k
        q = [w / n if n else 0.0 for w, n in zip(wins.tolist(), visits.tolist())]
        top = max(q)
        best = [a for a, x in zip(view.legal, q) if x == top]
        return best[0] if len(best) == 1 else rng.choice(best)


@dataclass
class Table:
    """A trained Q-table: ``N(h, a)`` and wins keyed ``h << 6 | a`` (kernel state codes),
    ``N(h)``; ``won``: training games won."""

    visits: dict[int, int]
    wins: dict[int, int]
    total: dict[int, int]
    abstraction: str
    games: int
    won: int

    def save(self, path: str) -> None:
        kv = np.array(list(self.visits.items()), np.int64).reshape(-1, 2)
        kw = np.array(list(self.wins.items()), np.int64).reshape(-1, 2)
        kt = np.array(list(self.total.items()), np.int64).reshape(-1, 2)
        tmp = path + ".tmp.npz"
        np.savez_compressed(tmp, visits=kv, wins=kw, total=kt, meta=np.array([self.games, self.won], np.int64),
                            abstraction=np.array(self.abstraction))
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: str) -> Table:
        with np.load(path) as z:
            def d(name: str) -> dict[int, int]:
                a = z[name]
                return dict(zip(a[:, 0].tolist(), a[:, 1].tolist()))

            games, won = (int(x) for x in z["meta"])
            return cls(d("visits"), d("wins"), d("total"), str(z["abstraction"]), games, won)


def _typed_dict(compiled: bool) -> Any:
    if not compiled:
        return {}
    from numba import types
    from numba.typed import Dict

    return Dict.empty(types.int64, types.int64)


def train_table(cards: int, options: ReadingOptions, seed: int, *, kern: SimpleNamespace | None = None) -> Table:
    """Self-play training of the paper's Q-table (``options.training`` games on deals
    ``train:{seed}:{cards}:{j}`` of :func:`reading_deal`, all seats UCB-1 with
    ``options.c`` from one shared table, every visited pair updated with the reward)."""
    k = kern if kern is not None else kernel()
    compiled = k.ds_train is not twin().ds_train
    rows = np.array([deal_row(reading_deal(cards, f"train:{seed}:{cards}:{j}", options), options.flags)
                     for j in range(options.training)], np.int64)
    visits, wins, total = _typed_dict(compiled), _typed_dict(compiled), _typed_dict(compiled)
    rs = np.array([random.Random(f"crewcheck-deepsea-table:{seed}:{cards}").getrandbits(32)], np.int64)
    won = k.ds_train(rows, 0, len(rows), rs, ABSTRACTIONS[options.abstraction], options.c, visits, wins, total)

    def export(d: Any) -> dict[int, int]:
        a = np.zeros((len(d), 2), np.int64)
        k.ds_export(d, a)
        return dict(zip(a[:, 0].tolist(), a[:, 1].tolist()))

    return Table(export(visits), export(wins), export(total), options.abstraction, len(rows), int(won))


class TableAgent:
    """The trained table played greedily (``c = 0``; an untried action counts Q = 0; ties
    at random), as :class:`~crewcheck.agents.deepsea.MCTSAgent` but over kernel state codes."""

    name = "mcts-table"

    def __init__(self, table: Table, flags: int = 0) -> None:
        self.table = table
        self.flags = flags
        self.code = ABSTRACTIONS[table.abstraction]
        self._state_code = twin().ds_state_code

    def choose(self, view: DeepSeaView, rng: random.Random) -> int:
        st = state_from_view(view, self.flags)
        base = int(self._state_code(st, self.code)) << 6
        v, w = self.table.visits, self.table.wins
        best: list[int] = []
        top = -1.0
        for a in view.legal:
            key = base | action_code(view, a)
            q = ucb_score(w.get(key, 0), v.get(key, 0), 1.0, 0.0, 0.0, 0.0)
            if q > top:
                top, best = q, [a]
            elif q == top:
                best.append(a)
        return best[0] if len(best) == 1 else rng.choice(best)


# -- every Deep Sea agent by name ------------------------------------------------------------

Factory = Callable[[ReadingOptions, int, Any], DeepSeaAgent]
"""Builds an agent from the reading's options, N (cards per player) and its trained table
(``None`` for an agent that plays from none)."""


@dataclass(frozen=True)
class DeepSeaAgentSpec:
    """One entry of :data:`DEEPSEA_AGENTS`."""

    build: Factory
    options: tuple[str, ...]
    """The fields of :class:`ReadingOptions` that apply to it (written by :meth:`ReadingOptions.to_json`)."""
    table: Literal["", "qtable", "table"]
    """The trained table it plays from: none (``""``), a :class:`~crewcheck.agents.deepsea.QTable`
    of :func:`~crewcheck.agents.deepsea.train_mcts` (the bench) or a :class:`Table` of
    :func:`train_table` (the readings study)."""
    description: str


DEEPSEA_AGENTS: dict[str, DeepSeaAgentSpec] = {
    "stochastic": DeepSeaAgentSpec(
        lambda o, n, t: StochasticAgent(), (), "", "a uniformly random valid action (the paper's baseline)"),
    "mcts": DeepSeaAgentSpec(
        lambda o, n, t: MCTSAgent(t), (), "qtable",
        "the paper's Q-table over the visible state, trained in Python by UCB-1 self-play, played greedily "
        "(the bench)"),
    "mcts-table": DeepSeaAgentSpec(
        lambda o, n, t: TableAgent(t, o.flags), ("abstraction", "training", "c"), "table",
        "the paper's Q-table trained in the numba kernel, over the exact hand or suit counts, played greedily"),
    "mcts-online": DeepSeaAgentSpec(
        lambda o, n, t: OnlineMCTSAgent(rollouts_per_decision(o, n), o.c, o.flags), ("budget", "c"), "",
        "MCTS as online planning: determinized flat UCB-1 with random rollouts at every decision"),
}
"""Every Deep Sea agent by name: how to build it, the table it plays from, what it is (add
an agent here)."""

STUDY_AGENTS: tuple[str, ...] = tuple(n for n, s in DEEPSEA_AGENTS.items() if s.table != "qtable")
"""The agents a reading (:attr:`ReadingOptions.agent`) may name: those the study trains or
needs no table for."""


def make_deepsea_agent(name: str, options: ReadingOptions | None = None, cards: int = 3,
                       table: Any = None) -> DeepSeaAgent:
    """The Deep Sea agent ``name`` (:data:`DEEPSEA_AGENTS`) for ``options`` at N = ``cards``,
    playing from ``table`` if it plays from one."""
    spec = DEEPSEA_AGENTS.get(name)
    if spec is None:
        raise InvalidInputError(f"unknown Deep Sea agent {name!r}; available: {', '.join(DEEPSEA_AGENTS)}",
                                field="agent")
    if spec.table and table is None:
        raise InvalidInputError(f"the Deep Sea agent {name!r} plays from a trained table; none given",
                                field="table")
    return spec.build(options if options is not None else ReadingOptions(), cards, table)
