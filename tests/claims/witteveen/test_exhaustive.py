"""The exhaustive solve of Witteveen's game against the independent searches, game by game."""

from __future__ import annotations

import itertools
import random
from functools import cache

import numpy as np
import pytest

from crewcheck.claims.witteveen import exhaustive as ex
from crewcheck.claims.witteveen.burnside import all_hands
from crewcheck.claims.witteveen.characterisation import count_classes, is_down_set, losing_class
from crewcheck.claims.witteveen.reference_search import is_winnable_plain, reference_decider


def _holdings(hand1: int, n: int) -> list[int]:
    return [(hand1 >> (s * n)) & ((1 << n) - 1) for s in range(4)]


@cache
def _losers(n: int, compiled: bool) -> frozenset[tuple[int, int]]:
    """Every losing ``(hand1, task value)`` by the exhaustive solver, all suit orders expanded
    (computed once a process: the tests below only read it)."""
    ws = ex.Workspace(n, memo_bits=16, relaxed_bits=14, max_lines=1024, record=1 << 20)
    fns = ex.kernel(compiled)
    out = set()
    for tv in range(1, n + 1):
        for h0 in range(1 << n):
            res = ex.solve_layout(ws, tv, h0, fns)
            assert res["stats"][ex.ek.STAT_RECORD_OVERFLOW] == 0
            for triple in res["losers"]:
                for a, b, c in itertools.permutations(triple):
                    out.add((h0 | a << n | b << (2 * n) | c << (3 * n), tv))
    return frozenset(out)


@cache
def _numba() -> bool:
    return ex.numba_missing() is None


def test_pair_table_by_brute_force() -> None:
    """``p`` higher-for-player-1 and ``q`` higher-for-player-2 disjoint pairs, every holding of 4 values."""
    n = 4
    table = ex.pair_table(n)
    for h in range(1 << n):
        mine = [v for v in range(n) if h >> v & 1]
        theirs = [v for v in range(n) if not h >> v & 1]
        found = set()
        pairs = [(x, y) for x in mine for y in theirs]
        for r in range(len(pairs) + 1):
            for chosen in itertools.combinations(pairs, r):
                cards = [c for pair in chosen for c in pair]
                if len(set(cards)) == len(cards):
                    found.add((sum(x > y for x, y in chosen), sum(x < y for x, y in chosen)))
        got = {(p, q) for p in range(n + 1) for q in range(n + 1) if table[h, p, q]}
        assert got == found, h


@pytest.mark.parametrize("n", [1, 2, 3])
def test_every_game_against_the_plain_search(n: int) -> None:
    """4 x 1..3, plain-Python kernel: each game's verdict equals the memo-only oracle's."""
    losers = _losers(n, compiled=False)
    full = (1 << (4 * n)) - 1
    for hand in all_hands(4 * n, 2 * n):
        for tv in range(1, n + 1):
            h = int(hand)
            assert ((h, tv) not in losers) == is_winnable_plain(h, full ^ h, tv - 1, n, 4), (h, tv)


@pytest.mark.parametrize("n", [4, pytest.param(5, marks=pytest.mark.slow)])
def test_every_game_against_the_reference_kernel(n: int) -> None:
    """4 x 4 and (in the slow suite) 4 x 5, compiled: each game's verdict equals the
    reference search's (compiled)."""
    if not _numba():
        pytest.skip("numba is not available")
    from crewcheck.claims.witteveen.kernel import is_winnable_compiled

    losers = _losers(n, compiled=True)
    for hand in all_hands(4 * n, 2 * n):
        for tv in range(1, n + 1):
            h = int(hand)
            assert ((h, tv) not in losers) == is_winnable_compiled(h, tv - 1, n, 4), (h, tv)


def test_compiled_equals_python_twin() -> None:
    """Same tallies and statistics from the compiled kernel and its twin (4 x 4, every layout)."""
    if not _numba():
        pytest.skip("numba is not available")
    layouts = [(tv, h0) for tv in range(1, 5) for h0 in range(16)]
    a = ex.solve_layouts(4, layouts, compiled=True, workspace=ex.Workspace(4, memo_bits=16, relaxed_bits=14))
    b = ex.solve_layouts(4, layouts, compiled=False, workspace=ex.Workspace(4, memo_bits=16, relaxed_bits=14))
    assert a == b


@pytest.mark.parametrize("n", [4, 6])
def test_totals_against_the_characterisation_count(n: int) -> None:
    """All games counted once; per class, the losing games equal the characterisation's count."""
    if not _numba() and n > 4:
        pytest.skip("numba is not available")
    r = ex.solve_layouts(n, [(tv, h0) for tv in range(1, n + 1) for h0 in range(1 << n)])
    counts = count_classes(n)
    assert r["games"] == ex.games_count(n) == counts["games"]
    assert r["classes"] == {k: counts[k] for k in ("S1", "S2", "S3", "S4")}
    assert r["disagree"] == {"search_losing_char_winnable": 0, "search_winnable_char_losing": 0}


def test_random_nine_value_games_against_the_reference_kernel() -> None:
    """Random 4 x 9 layouts: every losing game found, checked with the reference search, and
    random games of the layout decided the same way as by the reference search."""
    if not _numba():
        pytest.skip("numba is not available")
    from crewcheck.claims.witteveen.kernel import is_winnable_compiled

    rng = random.Random(9)
    ws = ex.Workspace(9, record=1 << 16)
    fns = ex.kernel(True)
    checked = 0
    while checked < 6:
        tv = rng.randrange(1, 10)
        h0 = rng.randrange(512)
        res = ex.solve_layout(ws, tv, h0, fns)
        if res["stats"][ex.ek.STAT_RECORD_OVERFLOW]:
            continue  # a layout with a huge losing class: too many games to check one by one
        checked += 1
        losers = {tuple(t) for t in res["losers"]}
        for t in list(losers)[:20]:
            hand = h0 | t[0] << 9 | t[1] << 18 | t[2] << 27
            assert not is_winnable_compiled(hand, tv - 1, 9, 4)
        need = 18 - h0.bit_count()
        for _ in range(150):
            cards = rng.sample(range(27), need)
            hs = sorted(sum(1 << (c - 9 * s) for c in cards if c // 9 == s) for s in range(3))
            hand = h0 | sum(1 << (c + 9) for c in cards)
            assert (tuple(hs) not in losers) == is_winnable_compiled(hand, tv - 1, 9, 4), (tv, h0, hs)


def test_losing_class_depends_on_size_and_down_flag_only() -> None:
    """The characterisation is constant on non-task holdings of one size and one down-set
    flag (what the exhaustive summary relies on), checked on random games of 4 x 9."""
    rng = random.Random(3)
    for _ in range(3000):
        hand = sum(1 << c for c in rng.sample(range(36), 18))
        tv = rng.randrange(1, 10)
        hold = _holdings(hand, 9)
        s = rng.randrange(1, 4)
        k = hold[s].bit_count()
        for other in (rng.sample(range(9), k), list(range(k))):
            h = sum(1 << v for v in other)
            if is_down_set(h, k) != is_down_set(hold[s], k):
                continue
            alt = list(hold)
            alt[s] = h
            assert losing_class(alt, 0, tv, 9) == losing_class(hold, 0, tv, 9)


def test_reference_decider_sanity() -> None:
    """The reference used above accepts and rejects: one winnable and one losing 4 x 2 game."""
    assert reference_decider(0b00110011, 0, 2, 4) is True
    losing = [(int(h), tv) for h in all_hands(8, 4) for tv in (1, 2) if not reference_decider(int(h), tv - 1, 2, 4)]
    assert len(losing) == count_classes(2)["losing"]


def _replay(hand1: int, hand2: int, plays: list[tuple[int, int]], task: int, n: int) -> bool:
    """Independent replay of a play sequence (each trick: the leader's card, the follower's):
    every play legal, the task in the last trick only, won by player 1."""
    hands = [hand1, hand2]
    leader = 0
    for i, (c, d) in enumerate(plays):
        follower = 1 - leader
        assert hands[leader] >> c & 1 and hands[follower] >> d & 1
        suit_cards = ((1 << n) - 1) << (c // n * n)
        if d // n != c // n:
            assert hands[follower] & suit_cards == 0, "follower revoked"
        hands[leader] ^= 1 << c
        hands[follower] ^= 1 << d
        winner = follower if (d // n == c // n and d > c) else leader
        if task in (c, d):
            return i == len(plays) - 1 and winner == 0
        leader = winner
    return False


def _realise(path: list[tuple[int, int, int]], hand1: int, n: int) -> list[tuple[int, int]] | None:
    """The line's plays with the non-task cards re-chosen for the game `hand1` (backtracking
    over every choice: same suits, same players, same winner of each shared-suit trick)."""
    full = (1 << (4 * n)) - 1
    hands = [hand1, full ^ hand1]

    def go(i: int, h: list[int]) -> list[tuple[int, int]] | None:
        if i == len(path):
            return []
        leader, c0, d0 = path[i]
        follower = 1 - leader
        choices_c = [c0] if c0 // n == 0 else [c for c in range(c0 // n * n, c0 // n * n + n) if h[leader] >> c & 1]
        for c in choices_c:
            if not h[leader] >> c & 1:
                continue
            choices_d = [d0] if d0 // n == 0 else [d for d in range(d0 // n * n, d0 // n * n + n)
                                                   if h[follower] >> d & 1]
            for d in choices_d:
                if not h[follower] >> d & 1:
                    continue
                if c // n == d // n and c // n != 0 and (d > c) != (d0 > c0):
                    continue  # the trick would change winner
                nh = list(h)
                nh[leader] ^= 1 << c
                nh[follower] ^= 1 << d
                rest = go(i + 1, nh)
                if rest is not None:
                    return [(c, d), *rest]
        return None

    return go(0, hands)


def test_lines_replay_on_every_accepted_holding() -> None:
    """Soundness of the line reduction, checked directly: a line found on one 4 x 9 game,
    realised on other games whose holdings the line accepts, is a legal winning play
    sequence there (independent replay); holdings it rejects are never needed for this."""
    if not _numba():
        pytest.skip("numba is not available")
    fns = ex.kernel(True)
    n = 9
    ws = ex.Workspace(n, memo_bits=18, relaxed_bits=14)
    rng = random.Random(21)
    full = (1 << 36) - 1
    realised = 0
    for _ in range(40):
        hand = sum(1 << c for c in rng.sample(range(36), 18))
        tv = rng.randrange(1, 10)
        ws.plen[0] = 0
        ws.memo[0] += 1
        if not fns.go_line(hand, full ^ hand, 0, tv - 1, n, ws.tables, ws.concrete(), int(ws.memo[0]), ws.stacks(), 0,
                           ws.line()):
            continue
        path = [tuple(int(x) for x in ws.path[i]) for i in range(int(ws.plen[0]))]
        assert _replay(hand, full ^ hand, [(c, d) for _, c, d in path], tv - 1, n)
        accepted = np.zeros((3, 1 << n), dtype=np.uint8)
        for s in range(3):
            fns.line_holdings(ws.path, int(ws.plen[0]), s + 1, n, ws.pairs, accepted[s])
        h0 = hand & 511
        for _ in range(30):
            hs = [rng.choice(np.flatnonzero(accepted[s])) for s in range(3)]
            other = h0 | sum(int(h) << (9 * (s + 1)) for s, h in enumerate(hs))
            if other.bit_count() != 18:
                continue
            plays = _realise(path, other, n)
            assert plays is not None, (hand, tv, other)
            assert _replay(other, full ^ other, plays, tv - 1, n)
            realised += 1
    assert realised > 50


@pytest.mark.parametrize("n", [4, 5])
def test_random_games_against_the_plain_search(n: int) -> None:
    """4 x 4 and 4 x 5, random games: the verdict equals the memo-only oracle's (no
    touching-card reduction, no canonical key: no code shared with the solver)."""
    losers = _losers(n, compiled=_numba())
    rng = random.Random(40 + n)
    full = (1 << (4 * n)) - 1
    for _ in range(1500):
        h = sum(1 << c for c in rng.sample(range(4 * n), 2 * n))
        tv = rng.randrange(1, n + 1)
        assert ((h, tv) not in losers) == is_winnable_plain(h, full ^ h, tv - 1, n, 4), (h, tv)


def test_disagreeing_game_finds_a_game_of_the_group(monkeypatch: pytest.MonkeyPatch) -> None:
    """The counterexample finder returns nothing for an agreeing group, and a game of the
    group when the characterisation is made to disagree (patched to call everything losing)."""
    example = {"task_value": 1, "h0": 0b0010, "counts": [3, 2, 2], "down": [0, 0, 1]}
    assert ex.disagreeing_game(example, 4) is None
    monkeypatch.setattr(ex, "losing_class", lambda *args: "S2")
    game = ex.disagreeing_game(example, 4)
    assert game is not None and game["search_winnable"] is True and game["task_value"] == 1
    hold = _holdings(game["hand1"], 4)
    assert hold[0] == 0b0010 and [h.bit_count() for h in hold[1:]] == [3, 2, 2] and hold[3] == 0b11
