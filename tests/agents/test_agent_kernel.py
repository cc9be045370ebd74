"""The playout kernel: compiled == plain twin, and kernel rules == crewcheck.State."""

from __future__ import annotations

import math
import random

import pytest

np = pytest.importorskip("numpy")
from hypothesis import given, settings, strategies as st  # noqa: E402

from crewcheck.agents.fast import Tables, kernel, pack, seed_state, twin  # noqa: E402
from crewcheck.agents.kernel import Tree  # noqa: E402
from crewcheck.agents.simulate import deal, setup_instance  # noqa: E402
from crewcheck.model.cards import iter_bits  # noqa: E402

DECKS = ("3x4", "3x4+R2", "plain", "classic", "2x5")


def _setup(players: int, ntasks: int, seed: int, deck: str):
    return deal(players, ntasks, seed=seed, deck=deck)


@pytest.mark.parametrize("deck,players", [("classic", 4), ("plain", 3), ("3x4+R2", 3)])
def test_compiled_kernel_matches_twin(deck: str, players: int) -> None:
    """Same seed, same state: the compiled kernel and the plain twin give identical numbers."""
    k, t = kernel(), twin()
    s = _setup(players, 4, 11, deck)
    tb = Tables.build(s.deck, players, s.trump, s.tasks)
    for owners in ([-1] * 4, [0, 1, 2, 0]):
        st0 = pack(tb, s.hands, owners, s.commander, s.commander, (), 0, 0)
        assert k.playouts(st0, 300, seed_state(5), tb) == t.playouts(st0, 300, seed_state(5), tb)
    st0 = pack(tb, s.hands, [0, 1, 2, 0], s.commander, s.commander, (), 0, 0)
    moves = np.array(list(iter_bits(s.hands[s.commander]))[:4], dtype=np.int64)
    deals = np.array([s.hands] * 3, dtype=np.int64)
    res = []
    for mod in (k, t):
        w, d, tr = (np.zeros(len(moves), np.int64) for _ in range(3))
        mod.evaluate_moves(st0, moves, deals, seed_state(9), tb, w, d, tr)
        res.append((w.tolist(), d.tolist(), tr.tolist()))
    assert res[0] == res[1]
    trees = []
    for mod in (k, t):
        cap = 1 + 50 * 20
        arrs = [np.zeros(cap, np.int64), np.full(cap, -1, np.int64), np.zeros(cap, np.int64),
                np.zeros(cap, np.int64), np.zeros(cap), np.zeros(cap)]
        n = mod.mcts_iterate(st0, 50, True, True, 2 ** 0.5, seed_state(3), Tree(*arrs), 1, tb)
        trees.append((n, arrs[4][:n].tolist(), arrs[5][:n].tolist()))
    assert trees[0] == trees[1]


@settings(max_examples=40, deadline=None)
@given(deck=st.sampled_from(DECKS), players=st.integers(3, 4), ntasks=st.integers(0, 5),
       seed=st.integers(0, 10 ** 6))
def test_kernel_rules_agree_with_state(deck: str, players: int, ntasks: int, seed: int) -> None:
    """Random legal moves applied to the kernel state and to crewcheck.State stay in step:
    same legal moves, hands, leader, completed tasks and outcome."""
    s = _setup(players, ntasks, seed, deck)
    rng = random.Random(seed)
    owners = [rng.randrange(players) for _ in range(ntasks)]
    state = setup_instance(s, owners).initial_state()
    tb = Tables.build(s.deck, players, s.trump, s.tasks)
    kst = pack(tb, s.hands, owners, s.commander, s.commander, (), 0, 0)
    tw = twin()
    while True:
        status = int(kst[5])
        if state.is_terminal():
            assert status == (1 if state.end.won else 2)
            break
        assert status == 0
        legal = tw.legal_mask(kst, tb)
        assert int(legal) == state.legal_mask()
        card = rng.choice(list(iter_bits(state.legal_mask())))
        state = state.apply(card)
        tw.apply_move(kst, card, tb)
        assert tuple(int(h) for h in kst[8:8 + players]) == state.hands
        if not state.trick and not state.is_terminal():
            assert int(kst[1]) == state.leader
            assert int(kst[3]) == state.done


def test_draft_phase_in_kernel() -> None:
    """In the task phase the kernel's moves are open task indices, drafted from the commander."""
    s = _setup(3, 4, 2, "plain")
    tb = Tables.build(s.deck, 3, s.trump, s.tasks)
    kst = pack(tb, s.hands, [-1] * 4, s.commander, s.commander, (), 0, 0)
    tw = twin()
    assert tw.legal_mask(kst, tb) == 0b1111
    tw.apply_move(kst, 2, tb)
    assert int(kst[8 + 6 + 2]) == s.commander
    assert tw.legal_mask(kst, tb) == 0b1011
    assert tw.to_move(kst, tb) == (s.commander + 1) % 3


# -- UCB-1 selection, shared by every agent that picks by it ----------------------------------

def _ucb_pick(mod, totals, counts, log_parent: float, cexp: float, untried: float, rs) -> int:  # type: ignore[no-untyped-def]
    best, bestu, ties = -1, -1.0, 0
    for j in range(len(totals)):
        u = mod.ucb_score(totals[j], counts[j], 1.0, log_parent, cexp, untried)
        best, bestu, ties = mod.ucb_keep(j, u, best, bestu, ties, rs)
    return int(best)


def test_ucb_score_by_hand() -> None:
    """The score is the mean reward plus the exploration term; an untried action scores
    what the caller says; with c = 0 it is the mean exactly."""
    from crewcheck.agents.kernel import UNTRIED, ucb_score

    assert ucb_score(3, 4, 1.0, math.log(10), 2 ** 0.5, UNTRIED) == 0.75 + 2 ** 0.5 * math.sqrt(math.log(10) / 4)
    assert ucb_score(30.0, 4.0, 0.01, 0.0, 2 ** 0.5, UNTRIED) == 30.0 / 4.0 * 0.01
    assert ucb_score(0, 0, 1.0, 1.0, 1.0, UNTRIED) == UNTRIED and ucb_score(0, 0, 1.0, 0.0, 0.0, 0.0) == 0.0
    assert ucb_score(1, 3, 1.0, 0.0, 0.0, 0.0) == 1 / 3


@settings(max_examples=60, deadline=None)
@given(counts=st.lists(st.integers(0, 6), min_size=1, max_size=8), seed=st.integers(0, 2 ** 32 - 1),
       data=st.data(), cexp=st.sampled_from([0.0, 2 ** 0.5]))
def test_ucb_selection_compiled_matches_twin_and_reference(counts: list[int], seed: int, data: st.DataObject,
                                                           cexp: float) -> None:
    """The compiled UCB-1 selection picks what its plain-Python twin picks, drawing the same
    random numbers, and the pick is one of the best-scoring actions (untried ones first)."""
    from crewcheck.agents.kernel import UNTRIED

    totals = [data.draw(st.integers(0, n)) for n in counts]
    parent = max(1, sum(counts))
    log_parent = math.log(parent)
    untried = UNTRIED if cexp > 0 else 0.0
    picks, states = [], []
    for mod in (kernel(), twin()):
        rs = seed_state(seed)
        picks.append(_ucb_pick(mod, np.array(totals, np.int64), np.array(counts, np.int64), log_parent, cexp,
                               untried, rs))
        states.append(int(rs[0]))
    assert picks[0] == picks[1] and states[0] == states[1]
    scores = [untried if n == 0 else t / n + cexp * math.sqrt(log_parent / n) for t, n in zip(totals, counts)]
    assert scores[picks[0]] == max(scores)


def test_ucb_ties_are_broken_uniformly() -> None:
    """Among tied best actions each is picked about equally often (reservoir sampling)."""
    from collections import Counter

    tw = twin()
    seen: Counter[int] = Counter()
    rs = seed_state(7)
    for _ in range(3000):
        seen[_ucb_pick(tw, [0, 2, 0, 2, 2], [2, 4, 0, 4, 4], 0.0, 0.0, 0.0, rs)] += 1
    assert set(seen) == {1, 3, 4} and min(seen.values()) > 900
