"""The engine: seeded reproducibility, the two phases, the rule-based agents."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")

from crewcheck.agents import deal, make_agent, play_game, setup_instance, simulate  # noqa: E402
from crewcheck.agents.base import observe  # noqa: E402
from crewcheck.agents.rulebased import tactical_score  # noqa: E402
from crewcheck.model.cards import CLASSIC_DECK, Card  # noqa: E402
from crewcheck.model.replay import replay  # noqa: E402


def test_same_seed_same_deal_and_layout() -> None:
    a, b = deal(3, 6, seed=42), deal(3, 6, seed=42)
    assert a == b
    assert deal(3, 6, seed=43) != a
    assert sorted(c for h in a.hands for c in range(36) if h >> c & 1) == list(range(36))


def test_classic_commander_holds_the_top_rocket() -> None:
    s = deal(4, 3, seed=9, deck="classic")
    top = CLASSIC_DECK.index(Card.parse("R4"))
    assert s.commander_card == top and s.hands[s.commander] >> top & 1
    assert all(CLASSIC_DECK.suit_of(c) != s.trump for c in s.tasks)


@pytest.mark.parametrize("ta,pa", [("random", "random"), ("tactical", "randomsmart"),
                                   ("mcts-smart", "pmc"), ("random", "mc-smart")])
def test_seeds_reproduce_games_exactly(ta: str, pa: str) -> None:
    """Same seed => same assignment, same cards, same result, for every kind of agent."""
    s = deal(4, 3, seed=7, deck="classic")
    runs = [play_game(s, make_agent(ta, "30"), make_agent(pa, "30"), seed=7) for _ in range(2)]
    assert runs[0] == runs[1]


def test_play_phase_random_choices_do_not_depend_on_the_task_agent() -> None:
    """Witteveen §5: the generator is seeded afresh after the task phase."""
    s = deal(3, 1, seed=3)
    a = play_game(s, make_agent("random"), make_agent("random"), seed=3)
    b = play_game(s, make_agent("tactical"), make_agent("random"), seed=3)
    assert a.owners == b.owners  # one task: the commander takes it either way
    assert a.plays == b.plays


def test_records_replay_through_the_checker() -> None:
    """A game record is a legal line: the independent replay agrees on the result."""
    for seed in range(5):
        s = deal(3, 3, seed=seed)
        rec = play_game(s, make_agent("tactical"), make_agent("mcts-smart", "100"), seed=seed)
        out = replay(setup_instance(s, rec.owners), rec.plays)
        assert out.won == rec.won


def test_simulate_many() -> None:
    setups = [deal(3, 2, seed=i) for i in range(3)]
    recs = simulate(setups, make_agent("random"), make_agent("randomsmart"), seed=1)
    assert len(recs) == 3 and recs == simulate(setups, make_agent("random"), make_agent("randomsmart"), seed=1)


def test_tactical_score_formula_8() -> None:
    """(x_v - 5)*2 + |P_xs| in hand; |P_>x| if positive; else -|P_xs|."""
    s = deal(3, 3, seed=0)
    d = s.deck
    hand = d.mask_of([Card.parse(c) for c in ("B9", "B2", "G5", "G7", "P1")])
    s = type(s)(d, (hand,) + s.hands[1:], None, 0, s.tasks)
    v = observe(s.hands, s, [-1, -1, -1], (), 0, (), 0, 0, 0, "tasks")
    score = lambda c: tactical_score(v, d.index(Card.parse(c)))  # noqa: E731
    assert score("B9") == (9 - 5) * 2 + 2
    assert score("B2") == (2 - 5) * 2 + 2
    assert score("G3") == 2
    assert score("G6") == 1
    assert score("G8") == -2
    assert score("Y4") == 0


def test_randomsmart_high_on_own_task_low_on_others() -> None:
    s = deal(3, 2, seed=0)
    d = s.deck
    c = lambda x: d.index(Card.parse(x))  # noqa: E731
    hands = (d.mask_of([Card.parse(x) for x in ("B9", "B2", "B5", "G1")]),) + s.hands[1:]
    s = type(s)(d, hands, None, 1, (c("B7"), c("Y3")))
    agent = make_agent("randomsmart")
    mine = observe(s.hands, s, [0, 1], ((1, c("B7")),), 1, (c("B7"),), 0, 0, 0, "play")
    assert agent.choose(mine, random.Random(0)) == c("B9")
    theirs = observe(s.hands, s, [1, 0], ((1, c("B7")),), 1, (c("B7"),), 0, 0, 0, "play")
    assert agent.choose(theirs, random.Random(0)) == c("B2")


def test_mcts_finds_the_only_winning_line() -> None:
    """3x2 deck, one task: MCTS with a few hundred iterations wins every seed where the
    deal is winnable (checked by the exhaustive oracle)."""
    from crewcheck.experiments.bench import oracle

    for seed in range(6):
        s = deal(3, 2, seed=seed, deck="3x3")
        rec = play_game(s, make_agent("mcts-smart", "300"), make_agent("mcts-smart", "300"), seed=seed)
        verdict, _ = oracle(setup_instance(s, rec.owners), "exhaustive")
        assert rec.won == (verdict == "winnable")


def test_time_budgets() -> None:
    """Tree search and Monte Carlo players also run on a time budget per move."""
    from crewcheck.agents import parse_budget
    from crewcheck.agents.mcts import TreeSearchAgent
    from crewcheck.agents.montecarlo import MonteCarloAgent

    assert parse_budget("0.5s") == (None, 0.5) and parse_budget("200") == (200, None)
    s = deal(4, 3, seed=1, deck="classic")
    owners = [(s.commander + j) % 4 for j in range(3)]
    full = observe(s.hands, s, owners, (), s.commander, (), 0, 0, s.commander, "play", cheating=True)
    moves, visits, _, done = TreeSearchAgent(iterations=None, seconds=0.05).search(full, random.Random(0))
    assert done >= TreeSearchAgent.chunk and visits.sum() == done and len(moves) == len(full.legal())
    fair = observe(s.hands, s, owners, (), s.commander, (), 0, 0, s.commander, "play")
    legal, _, _, _, n = MonteCarloAgent("smart", playouts=None, seconds=0.002).scores(fair, random.Random(0))
    assert n > 0 and legal == fair.legal()
    assert make_agent("mc-smart", "0.001s").choose(fair, random.Random(0)) in fair.legal()
