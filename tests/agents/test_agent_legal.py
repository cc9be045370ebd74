"""Every agent plays only legal cards and takes only open tasks."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")
from hypothesis import given, settings, strategies as st  # noqa: E402

from crewcheck.agents import PLAY_AGENTS, TASK_AGENTS, is_cheating, make_agent  # noqa: E402
from crewcheck.agents.base import observe  # noqa: E402
from crewcheck.agents.simulate import deal, setup_instance  # noqa: E402
from crewcheck.model.cards import iter_bits  # noqa: E402


@settings(max_examples=25, deadline=None)
@given(deck=st.sampled_from(["3x4", "3x5+R2", "plain", "classic"]), players=st.integers(3, 4),
       ntasks=st.integers(1, 4), seed=st.integers(0, 10 ** 6), prefix=st.integers(0, 30))
def test_play_agents_choose_legal_cards(deck: str, players: int, ntasks: int, seed: int, prefix: int) -> None:
    """From a random mid-game state, every play agent returns a legal card of its seat."""
    s = deal(players, ntasks, seed=seed, deck=deck)
    rng = random.Random(seed)
    owners = [rng.randrange(players) for _ in range(ntasks)]
    state = setup_instance(s, owners).initial_state()
    plays = []
    for _ in range(prefix):
        if state.is_terminal():
            break
        card = rng.choice(list(iter_bits(state.legal_mask())))
        plays.append((state.to_play, card))
        state = state.apply(card)
    if state.is_terminal():
        return
    seat = state.to_play
    for name in PLAY_AGENTS:
        agent = make_agent(name, "8")
        view = observe(state.hands, s, owners, plays, state.leader, state.trick, state.done,
                       state.tricks_played, seat, "play", cheating=is_cheating(agent))
        card = agent.choose(view, random.Random(seed))
        assert state.legal_mask() >> card & 1, (name, card)


@settings(max_examples=15, deadline=None)
@given(players=st.integers(3, 4), ntasks=st.integers(1, 6), seed=st.integers(0, 10 ** 6),
       taken=st.integers(0, 5))
def test_task_agents_take_open_tasks(players: int, ntasks: int, seed: int, taken: int) -> None:
    """Mid-draft, every task agent returns the card of a task still open."""
    s = deal(players, ntasks, seed=seed, deck="plain")
    taken = min(taken, ntasks - 1)
    owners = [-1] * ntasks
    for j in range(taken):
        owners[j] = (s.commander + j) % players
    seat = (s.commander + taken) % players
    for name in TASK_AGENTS:
        agent = make_agent(name, "8")
        view = observe(s.hands, s, owners, (), s.commander, (), 0, 0, seat, "tasks", cheating=is_cheating(agent))
        card = agent.choose(view, random.Random(seed))
        assert card in s.tasks and owners[s.tasks.index(card)] == -1
