"""The Deep Sea kernel: its rules == play_deepsea (judged by crewcheck.State), compiled == twin."""

from __future__ import annotations

import random

import numpy as np
import pytest

from crewcheck.agents.deepsea import PASS, DeepSeaView, play_deepsea, visible_state
from crewcheck.agents.deepsea_kernel import PASS_MOVE, SIZE, STATUS, WON_GAME, twin
from crewcheck.agents.deepsea_readings import ReadingOptions, deal_row, reading_deal, state_from_view
from crewcheck.model.cards import iter_bits

numba = pytest.importorskip("numba")
from crewcheck.agents.deepsea_kernel import compiled  # noqa: E402

OPTIONS = [ReadingOptions(), ReadingOptions(hv5="together", captain_hv1="forbid"),
           ReadingOptions(r4_absent="highest-sub", tasks="feasible"),
           ReadingOptions(r4_absent="redeal", hv5="together", tasks="feasible")]


class Scripted:
    """Plays the kernel's recorded moves, checking at each step that the views agree with
    the kernel state built from them."""

    name = "scripted"

    def __init__(self, moves: list[int], states: list[np.ndarray], flags: int) -> None:
        self.moves, self.states, self.flags, self.i = moves, states, flags, 0

    def choose(self, view: DeepSeaView, rng: random.Random) -> int:
        k = twin()
        st = self.states[self.i]
        mv = self.moves[self.i]
        self.i += 1
        legal = k.ds_legal(st)
        if view.phase == "tasks":
            assert sorted(PASS_MOVE if a == PASS else a for a in view.legal) == list(iter_bits(int(legal)))
        else:
            assert sorted(view.legal) == list(iter_bits(int(legal)))
        mine = state_from_view(view, self.flags)
        # the view-built state agrees with the kernel on everything public and the own hand
        assert k.ds_state_code(mine, 0) == k.ds_state_code(st, 0)
        assert k.ds_state_code(mine, 1) == k.ds_state_code(st, 1)
        return PASS if view.phase == "tasks" and mv == PASS_MOVE else int(mv)


@pytest.mark.parametrize("opt", range(len(OPTIONS)))
@pytest.mark.parametrize("cards", [3, 4, 5, 6])
def test_kernel_rules_match_engine(opt: int, cards: int) -> None:
    """Random games of the kernel, replayed through play_deepsea: same legal moves at every
    step, same end (after the same number of actions), same outcome."""
    options = OPTIONS[opt]
    k = twin()
    outcomes = set()
    for g in range(40):
        deal = reading_deal(cards, f"kt:{g}", options)
        row = np.array(deal_row(deal, options.flags), np.int64)
        st = np.zeros(SIZE, np.int64)
        k.ds_init(st, row[0:4], row[4], row[6:11], row[5], row[11], row[12])
        rs = np.array([g + 1], np.int64)
        moves: list[int] = []
        states: list[np.ndarray] = []
        while st[STATUS] == 0:
            states.append(st.copy())
            mv = k.random_bit(rs, k.ds_legal(st))
            moves.append(int(mv))
            k.ds_apply(st, mv)
        agent = Scripted(moves, states, options.flags)
        rec = play_deepsea(deal, agent, seed=g, rules=options.rules)
        assert agent.i == len(moves)
        assert rec.won == (st[STATUS] == WON_GAME)
        outcomes.add((rec.won, rec.impossible is not None))
    assert (False, True) in outcomes and (False, False) in outcomes  # both kinds of loss met


def test_exact_code_is_the_visible_state() -> None:
    """Two views have equal exact-hand kernel codes exactly when their visible_state is equal."""
    k = twin()
    seen: dict[int, int] = {}
    back: dict[int, int] = {}

    class Probe:
        name = "probe"

        def choose(self, view: DeepSeaView, rng: random.Random) -> int:
            code = int(k.ds_state_code(state_from_view(view, 0), 0))
            vs = visible_state(view)
            assert seen.setdefault(code, vs) == vs
            assert back.setdefault(vs, code) == code
            return rng.choice(view.legal)

    for g in range(300):
        play_deepsea(reading_deal(3, f"vs:{g % 40}", ReadingOptions()), Probe(), seed=g)
    assert len(seen) > 100


def test_compiled_matches_twin() -> None:
    """Same seed, same inputs: the compiled kernel and the twin give identical results
    (planning, training, greedy play, random games)."""
    c, t = compiled(), twin()
    from numba import types
    from numba.typed import Dict

    options = ReadingOptions(hv5="together")
    rows = np.array([deal_row(reading_deal(4, f"tw:{j}", options), options.flags) for j in range(25)], np.int64)
    for abstraction in (0, 1):
        tabs = []
        for kern, mk in ((c, lambda: Dict.empty(types.int64, types.int64)), (t, dict)):
            v, w, tot = mk(), mk(), mk()
            rs = np.array([7], np.int64)
            won = kern.ds_train(rows, 0, 25, rs, abstraction, 1.4142, v, w, tot)
            out = np.zeros(25, np.int64)
            kern.ds_greedy_games(rows, 0, 25, rs, abstraction, v, w, tot, out)
            tabs.append((int(won), dict(v), dict(w), dict(tot), out.tolist(), int(rs[0])))
        assert tabs[0] == tabs[1]
        assert len(tabs[0][1]) > 50
    st = np.zeros(SIZE, np.int64)
    res = []
    for kern in (c, t):
        row = rows[3]
        kern.ds_init(st, row[0:4], row[4], row[6:11], row[5], row[11], row[12])
        for _ in range(5):  # into the play phase
            kern.ds_apply(st, kern.random_bit(np.array([3], np.int64), kern.ds_legal(st)))
        moves = np.array(list(iter_bits(int(kern.ds_legal(st)))), np.int64)
        visits = np.zeros(len(moves), np.int64)
        wins = np.zeros(len(moves), np.int64)
        rs = np.array([11], np.int64)
        kern.ds_plan(st, 150, 1.4142, rs, moves, visits, wins)
        res.append((visits.tolist(), wins.tolist(), int(rs[0])))
    assert res[0] == res[1]
    assert sum(res[0][0]) == 150
