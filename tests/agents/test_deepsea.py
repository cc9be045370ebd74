"""Harvill & Vivek's Deep Sea experiment (seed 004): set-up, views, agents, RTU (the bench's
tests are in ``tests/experiments/test_deepsea_bench.py``)."""

from __future__ import annotations

import math
import random
from dataclasses import fields
from fractions import Fraction
from pathlib import Path

import pytest

from crewcheck.agents.deepsea import (PASS, PLAYERS, R4, TASK_IDS, DeepSeaDeal, DeepSeaRules, DeepSeaView,
                                      MCTSAgent, NoisyAgent, QTable, StochasticAgent, assignments, build_instance,
                                      deal_deepsea, play_deepsea, rtu, task_options, train_mcts, trapezoid,
                                      visible_state)
from crewcheck.errors import InvalidInputError
from crewcheck.model.cards import CLASSIC_DECK, Card, iter_bits

ROOT = Path(__file__).resolve().parents[2]


def _card(name: str) -> int:
    return CLASSIC_DECK.index(Card.parse(name))


def _deal(hands: list[str], tasks: tuple[str, ...], captain: int | None = None) -> DeepSeaDeal:
    masks = tuple(sum(1 << _card(c) for c in h.split()) for h in hands)
    cap = captain if captain is not None else next((s for s, m in enumerate(masks) if m >> R4 & 1), 0)
    return DeepSeaDeal(len(hands[0].split()), masks, cap, tuple(TASK_IDS.index(t) for t in tasks), "hand")


# -- the set-up ----------------------------------------------------------------------------

@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_deal_shape_and_seed(n: int) -> None:
    a, b = deal_deepsea(n, "x"), deal_deepsea(n, "x")
    assert a == b and deal_deepsea(n, "y") != a
    assert all(h.bit_count() == n for h in a.hands)
    assert bin(a.in_play).count("1") == PLAYERS * n  # disjoint hands
    assert len(a.tasks) == 2 and len(set(a.tasks)) == 2
    if a.in_play >> R4 & 1:
        assert a.hands[a.captain] >> R4 & 1
    else:
        assert a.captain == 0


def test_redeal_reading_always_deals_r4() -> None:
    rules = DeepSeaRules(r4_absent="redeal")
    for i in range(50):
        d = deal_deepsea(3, i, rules)
        assert d.hands[d.captain] >> R4 & 1
    # under the default reading R4 is out of play in about 70 % of 12-card deals
    assert sum(not deal_deepsea(3, i).in_play >> R4 & 1 for i in range(200)) > 100


def test_bad_rules_and_sizes() -> None:
    with pytest.raises(InvalidInputError):
        DeepSeaRules(hv5="sometimes")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError):
        deal_deepsea(0, 1)


def test_task_phase_options() -> None:
    d = _deal(["R4 B1 B2", "B3 B4 B5", "G1 G2 G3", "Y1 Y2 Y3"], ("HV1", "HV3"))
    allow, forbid = DeepSeaRules(captain_hv1="allow"), DeepSeaRules(captain_hv1="forbid")
    assert task_options(d, [-1, -1], 0, allow) == (0, 1, PASS)
    assert task_options(d, [-1, -1], 0, forbid) == (1, PASS)  # the captain may not take HV1
    assert task_options(d, [-1, -1], 2, allow) == (0, 1)  # two seats left for two tasks: take one
    assert task_options(d, [0, -1], 3, allow) == (1,)
    assert task_options(d, [0, 1], 2, allow) == ()
    every = assignments(d, allow)
    assert len(every) == 12 and all(a[0] != a[1] for a in every)
    assert all(a[0] != 0 for a in assignments(d, forbid)) and len(assignments(d, forbid)) == 9


def test_conditions_out_of_play() -> None:
    d = _deal(["R4 B1 B2", "B3 B4 B5", "P1 P2 P3", "P4 P5 P6"], ("HV2", "HV5"))
    b = build_instance(d, (1, 2))
    assert b.spans[0] == (0, 0)  # no yellow or green in play: HV2 holds, no condition left
    assert b.impossible is not None and "G7" in b.impossible
    rec = play_deepsea(d, StochasticAgent(), seed=1)
    assert not rec.won and rec.termination == "task impossible" and rec.plays == ()
    # HV4 without a 9 in play; HV1 taken by the captain
    d = _deal(["R4 B1 B2", "B3 B4 B5", "P1 P2 P3", "P4 P5 P6"], ("HV4", "HV1"))
    assert "9" in (build_instance(d, (1, 2)).impossible or "")
    assert "itself" in (build_instance(d, (1, 0)).impossible or "")
    assert build_instance(d, (2, 1)).impossible is not None  # HV4 still
    d = _deal(["R4 B9 B2", "B3 B4 B5", "P1 P2 P3", "P4 P5 P6"], ("HV4", "HV1"))
    assert build_instance(d, (2, 1)).impossible is None


def test_hv5_readings() -> None:
    d = _deal(["R4 G7 B8", "B3 B4 B5", "P1 P2 P3", "P4 P5 P6"], ("HV5", "HV3"))
    assert build_instance(d, (1, 2)).impossible is None
    # both in one hand never fall in one trick
    assert build_instance(d, (1, 2), DeepSeaRules(hv5="together")).impossible is not None


# -- what a seat sees ----------------------------------------------------------------------

class Spy:
    """Records every view it is shown and plays like the agent it wraps."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.name = "spy"
        self.views: list[DeepSeaView] = []

    def choose(self, view: DeepSeaView, rng: random.Random) -> int:
        self.views.append(view)
        return self.inner.choose(view, rng)  # type: ignore[attr-defined, no-any-return]


def _cards_in(view: DeepSeaView) -> set[int]:
    """Every card a view mentions, wherever it is."""
    out = set(iter_bits(view.hand)) | set(view.trick)
    out |= {c for _, c in view.plays}
    if view.phase == "play":
        out |= set(view.legal)
    return out


@pytest.mark.parametrize("n", [3, 6])
def test_views_hold_only_the_seats_own_cards(n: int) -> None:
    """No view mentions a card that is in another seat's hand at that moment, and every
    field of the view is accounted for (nothing refers to the deal)."""
    assert {f.name for f in fields(DeepSeaView)} == {
        "seat", "phase", "cards", "captain", "hand", "tasks", "owners", "done", "pending", "trick", "plays", "legal"}
    table = train_mcts(n, 300, seed=5)
    for i in range(30):
        d = deal_deepsea(n, f"spy:{i}")
        spy = Spy(MCTSAgent(table))
        play_deepsea(d, spy, seed=i)
        for v in spy.views:
            played = {c for _, c in v.plays}
            held = {s: set(iter_bits(d.hands[s])) - played for s in range(PLAYERS)}
            assert set(iter_bits(v.hand)) == held[v.seat]
            for s in range(PLAYERS):
                if s != v.seat:
                    assert not _cards_in(v) & held[s]
            for f in fields(DeepSeaView):
                assert not isinstance(getattr(v, f.name), (DeepSeaDeal, QTable))


def test_mcts_choice_depends_only_on_the_view() -> None:
    """Two deals that differ only in other seats' hands look the same to the captain,
    so the trained agent decides the same; the visible state keys agree too. The check
    is sensitive: an agent reading the deal decides differently."""
    table = train_mcts(3, 2000, seed=1)
    a = _deal(["R4 B9 G2", "B3 B4 B5", "G7 P2 P3", "Y1 Y2 Y3"], ("HV4", "HV3"))
    b = _deal(["R4 B9 G2", "B3 B4 Y3", "G7 P2 P3", "Y1 Y2 B5"], ("HV4", "HV3"))
    for seed in range(5):
        sa, sb = Spy(MCTSAgent(table)), Spy(MCTSAgent(table))
        play_deepsea(a, [sa, StochasticAgent(), StochasticAgent(), StochasticAgent()], seed=seed)
        play_deepsea(b, [sb, StochasticAgent(), StochasticAgent(), StochasticAgent()], seed=seed)
        first_a, first_b = sa.views[0], sb.views[0]
        assert first_a == first_b and visible_state(first_a) == visible_state(first_b)

    class Peeker:
        """Cheats: takes task 0 iff seat 1 holds B5."""
        name = "peeker"

        def __init__(self, deal: DeepSeaDeal) -> None:
            self.deal = deal

        def choose(self, view: DeepSeaView, rng: random.Random) -> int:
            if view.phase == "tasks":
                return view.legal[0] if self.deal.hands[1] >> _card("B5") & 1 else view.legal[-1]
            return view.legal[0]

    ra = play_deepsea(a, Peeker(a), seed=0)
    rb = play_deepsea(b, Peeker(b), seed=0)
    assert ra.owners != rb.owners


def test_visible_state_packs_the_papers_fields() -> None:
    v = DeepSeaView(2, "play", 3, 0, 0b1011, (4, 1), (3, 2), (False, True), 3, (5,), ((1, 5),), (0,))
    k = visible_state(v)
    assert k & ((1 << 40) - 1) == 0b1011
    # tasks sorted by id: HV2 (id 1) held by seat 2 = self (0), done; HV5 (id 4) by seat 3 (rel 1)
    assert (k >> 40) & 0x7F == 1 | 0 << 3 | 1 << 6
    assert (k >> 47) & 0x7F == 4 | 1 << 3
    assert (k >> 54) & 7 == 3 and k >> 57 == 1
    assert k < 1 << 58  # with the action's 6 bits the table key fits 64 bits


# -- seeds, agents -------------------------------------------------------------------------

def test_games_and_training_reproduce() -> None:
    d = deal_deepsea(4, "r")
    assert play_deepsea(d, StochasticAgent(), seed=3) == play_deepsea(d, StochasticAgent(), seed=3)
    t1, t2 = train_mcts(4, 400, seed=9), train_mcts(4, 400, seed=9)
    assert t1.visits == t2.visits and t1.wins == t2.wins and t1.rollouts == 400
    assert train_mcts(4, 400, seed=10).visits != t1.visits
    # resuming a partly trained table gives the same table
    part = train_mcts(4, 150, seed=9)
    assert train_mcts(4, 400, seed=9, table=part).visits == t1.visits


def test_table_round_trip(tmp_path: Path) -> None:
    t = train_mcts(5, 300, seed=2)
    t.save(tmp_path / "t.npz")
    u = QTable.load(tmp_path / "t.npz")
    assert u.visits == t.visits and u.wins == {k: w for k, w in t.wins.items() if w} and u.total == t.total
    assert u.rollouts == 300


def test_ucb_tries_every_action_then_exploits() -> None:
    t = QTable()
    v = DeepSeaView(0, "play", 3, 0, 0b111, (0, 1), (0, 1), (False, False), 4, (), (), (0, 1, 2))
    h = visible_state(v)
    t.update([(h, 0)], 1)
    t.update([(h, 1)], 0)
    rng = random.Random(0)
    assert MCTSAgent(t, math.sqrt(2)).choose(v, rng) == 2  # never tried: infinite score
    assert MCTSAgent(t, 0.0).choose(v, rng) == 0  # greedy: Q = 1 beats 0 and unvisited
    t.update([(h, 2)], 1)
    t.update([(h, 2)], 0)
    # UCB: card 0 has Q 1 + c sqrt(ln 4 / 1); card 2 Q 0.5 + c sqrt(ln 4 / 2)
    assert MCTSAgent(t, math.sqrt(2)).choose(v, rng) == 0


def test_noisy_agent_endpoints_are_exact() -> None:
    table = train_mcts(3, 500, seed=4)
    best = MCTSAgent(table)
    for i in range(20):
        d = deal_deepsea(3, f"n:{i}")
        assert play_deepsea(d, NoisyAgent(best, 1.0), seed=i) == play_deepsea(d, best, seed=i)
        assert play_deepsea(d, NoisyAgent(best, 0.0), seed=i) == play_deepsea(d, StochasticAgent(), seed=i)
    with pytest.raises(InvalidInputError):
        NoisyAgent(best, 1.5)


def _exact_stochastic(deal: DeepSeaDeal, rules: DeepSeaRules) -> Fraction:
    """Win probability of four stochastic agents on ``deal``, by enumerating every choice
    (legal plays from the rules engine's ``State``, not the agents' view)."""
    def play(state: object) -> Fraction:
        if state.is_terminal():  # type: ignore[attr-defined]
            return Fraction(int(state.end.won))  # type: ignore[attr-defined]
        opts = list(iter_bits(state.legal_mask()))  # type: ignore[attr-defined]
        return sum((play(state.apply(c)) for c in opts), Fraction(0)) / len(opts)  # type: ignore[attr-defined]

    def tasks(step: int, owners: list[int]) -> Fraction:
        if step == PLAYERS:
            b = build_instance(deal, owners, rules)
            return Fraction(0) if b.impossible else play(b.instance.initial_state())
        opts = task_options(deal, owners, step, rules)
        if not opts:
            return tasks(step + 1, owners)
        total = Fraction(0)
        for a in opts:
            nxt = list(owners)
            if a != PASS:
                nxt[a] = (deal.captain + step) % PLAYERS
            total += tasks(step + 1, nxt)
        return total / len(opts)

    return tasks(0, [-1] * len(deal.tasks))


def test_stochastic_win_rate_matches_exact_expectation() -> None:
    """On a 2-card deal the stochastic agents' win rate over 3000 seeded games lies within
    4 standard errors of the exact probability."""
    rules = DeepSeaRules()
    d = _deal(["R4 B9", "B3 Y9", "G7 B8", "G2 Y2"], ("HV4", "HV1"))
    p = _exact_stochastic(d, rules)
    assert 0 < p < 1
    games = 3000
    wins = sum(play_deepsea(d, StochasticAgent(), seed=f"e:{j}", rules=rules).won for j in range(games))
    se = math.sqrt(float(p) * (1 - float(p)) / games)
    assert abs(wins / games - float(p)) < 4 * se, (wins / games, float(p))


# -- RTU -----------------------------------------------------------------------------------

RS = [k / 10 for k in range(11)]


def test_trapezoid_by_hand() -> None:
    assert trapezoid([0, 0.5, 1], [0, 1, 0]) == pytest.approx(0.5)
    # r^2 on steps of 0.1: the exact 1/3 plus h^2/6
    assert trapezoid(RS, [r * r for r in RS]) == pytest.approx(1 / 3 + 0.01 / 6)


def test_rtu_hand_computed_curves() -> None:
    s, m = 0.05, 0.25
    # a straight line from the stochastic rate to self-play integrates to its mean: RTU 1/2
    assert rtu(RS, [s + (m - s) * r for r in RS], s) == pytest.approx(0.5)
    # no degradation at all: RTU 1
    assert rtu(RS, [m] * 11, s) == pytest.approx(1.0)
    # the agent alone lifts the team to 0.15 at r = 0, then a line to m: (0.2 - 0.05) / 0.2
    assert rtu(RS, [0.15 + (m - 0.15) * r for r in RS], s) == pytest.approx(0.75)
    # r^2 from 0 to 1 with stochastic 0: 1/3 + 1/600
    assert rtu(RS, [r * r for r in RS], 0.0) == pytest.approx(1 / 3 + 1 / 600)
    assert math.isnan(rtu(RS, [s] * 11, s))
    with pytest.raises(InvalidInputError):
        rtu([0.1, 1.0], [0.1, 0.2], 0.0)
