"""Explicit check of Witteveen's bijection between the S2 and S4 sets (Thm 3.23).

The map: complement every card of the critical suit (value ``v -> n + 1 - v``),
complement the task card the same way, and swap the two hands (player 1 keeps
owning the task). The theorem says it maps the S2 set (task in player 1's
hand, losing, Formula 3) onto the S4 set (task in player 2's hand, losing,
no player-1 majority in a non-critical suit); see
:mod:`crewcheck.claims.witteveen.characterisation` for the class definitions.

Both sets are enumerated explicitly, block by block, with numpy: a block fixes
the task value, the per-suit card counts and the critical-suit holding, and
ranges over all holdings of the three other suits at once. Every generated
game is re-classified by :func:`classify_many` (a vectorised twin of
:func:`~crewcheck.claims.witteveen.characterisation.losing_class`), mapped, and its image
classified. The check passes when every S2 game maps into S4, every S4 game
maps into S2, and the map is an involution: then it is injective both ways
between finite sets, hence a bijection.

Cost: linear in ``|S2| + |S4|`` (about ``2.2e8`` games at ``n = 9``), memory
bounded by one block (at most ``C(n, n//2)^3`` games).

References
----------
.. [1] M. Witteveen, seed ``000``, §3.4, Def 3.22, Thm 3.23.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

SUITS = 4
CLASS_CODES = {0: None, 1: "S1", 2: "S2", 3: "S3", 4: "S4"}


def _tables(n: int) -> tuple[np.ndarray, np.ndarray]:
    m = np.arange(1 << n, dtype=np.int64)
    pop = np.zeros_like(m)
    rev = np.zeros_like(m)
    for v in range(n):
        bit = (m >> v) & 1
        pop += bit
        rev |= bit << (n - 1 - v)
    return pop, rev


def classify_many(hands: np.ndarray, tv: int, n: int) -> np.ndarray:
    """Vectorised :func:`losing_class` for task suit 0 and task value `tv`.

    Returns an int8 array of class codes: 0 winnable, 1..4 for S1..S4.
    """
    pop, _ = _tables(n)
    full = (1 << n) - 1
    hold = [(hands >> (s * n)) & full for s in range(SUITS)]
    ks = [pop[h] for h in hold]
    down = [h == ((np.int64(1) << k) - 1) for h, k in zip(hold, ks)]
    any_dw = ~(down[0] & down[1] & down[2] & down[3])
    hr, kr = hold[0], ks[0]
    in_p1 = ((hr >> (tv - 1)) & 1) == 1
    low = (1 << tv) - 1
    slack = 2 * kr - (n + 1) + sum(np.maximum(0, 2 * ks[s] - n) for s in range(1, SUITS))
    any_full = (ks[0] == n) | (ks[1] == n) | (ks[2] == n) | (ks[3] == n)
    a_base = in_p1 & ((hr & low) == low) & ~any_full
    s2 = a_base & (slack < 0)
    s1 = a_base & (slack >= 0) & ~any_dw
    full_other = (ks[1] == n) | (ks[2] == n) | (ks[3] == n)
    b_base = ~in_p1 & ((hr >> (tv - 1)) == 0) & ~full_other
    nomaj = (2 * ks[1] <= n) & (2 * ks[2] <= n) & (2 * ks[3] <= n)
    s4 = b_base & nomaj
    s3 = b_base & ~nomaj & ~any_dw
    out = np.zeros(hands.shape, dtype=np.int8)
    out[s1] = 1
    out[s2] = 2
    out[s3] = 3
    out[s4] = 4
    return out


def witteveen_map(hands: np.ndarray, tv: int, n: int) -> tuple[np.ndarray, int]:
    """Apply the Thm 3.23 map to games with task suit 0 and task value `tv`."""
    _, rev = _tables(n)
    full = (1 << n) - 1
    deck = (1 << (SUITS * n)) - 1
    reflected = (hands & ~np.int64(full)) | rev[hands & full]
    return deck ^ reflected, n + 1 - tv


def _holdings_by_count(n: int) -> list[np.ndarray]:
    pop, _ = _tables(n)
    m = np.arange(1 << n, dtype=np.int64)
    return [m[pop == k] for k in range(n + 1)]


def blocks(cls: str, n: int, *, task_value: int | None = None) -> Iterator[tuple[int, np.ndarray]]:
    """Yield ``(task value, hands)`` blocks covering every game of class `cls`.

    ``cls`` is ``"S2"`` or ``"S4"``. Blocks are generated from the class
    definition: per-suit counts with the count conditions of the class, the
    critical holdings allowed by it, and every holding of the other suits.
    """
    by_k = _holdings_by_count(n)
    hand = (SUITS * n + 1) // 2
    for tv in range(1, n + 1):
        if task_value is not None and tv != task_value:
            continue
        for ks in itertools.product(range(n + 1), repeat=SUITS):
            if sum(ks) != hand:
                continue
            kr, others = ks[0], ks[1:]
            crit = by_k[kr]
            if cls == "S2":
                low = (1 << tv) - 1
                if any(k == n for k in ks):
                    continue
                if 2 * kr - (n + 1) + sum(max(0, 2 * k - n) for k in others) >= 0:
                    continue
                crit = crit[(crit & low) == low]
            elif cls == "S4":
                if any(k == n for k in others) or any(2 * k > n for k in others):
                    continue
                crit = crit[(crit >> (tv - 1)) == 0]
            else:
                raise ValueError(f"unknown class {cls!r}; expected S2 or S4")
            if crit.size == 0:
                continue
            a, b, c = (by_k[k] for k in others)
            rest = (a[:, None, None] << n) | (b[None, :, None] << (2 * n)) | (c[None, None, :] << (3 * n))
            rest = rest.ravel()
            for hr in crit:
                yield tv, rest | hr


def check_direction(cls: str, n: int, *, task_value: int | None = None) -> dict[str, Any]:
    """Enumerate class `cls` (optionally one task value) and check classes and images."""
    target = {"S2": 4, "S4": 2}[cls]
    code = {"S2": 2, "S4": 4}[cls]
    games = wrong_class = wrong_image = not_involution = 0
    example: dict[str, int] | None = None
    for tv, hands in blocks(cls, n, task_value=task_value):
        games += hands.size
        got = classify_many(hands, tv, n)
        wrong_class += int(np.count_nonzero(got != code))
        image, itv = witteveen_map(hands, tv, n)
        bad = classify_many(image, itv, n) != target
        nbad = int(np.count_nonzero(bad))
        wrong_image += nbad
        if nbad and example is None:
            i = int(np.flatnonzero(bad)[0])
            example = {"hand1": int(hands[i]), "task_value": tv, "values": n}
        back, btv = witteveen_map(image, itv, n)
        not_involution += int(np.count_nonzero(back != hands)) + (btv != tv) * hands.size
    return {"class": cls, "n": n, "games": games, "wrong_class": wrong_class,
            "wrong_image": wrong_image, "not_involution": int(not_involution), "example": example}


def check_bijection_chunk(params: Mapping[str, Any]) -> dict[str, Any]:
    """Chunk function: one direction (``cls``) at one ``n`` and task value ``tv``."""
    tv = params.get("tv")
    return check_direction(str(params["cls"]), int(params["n"]), task_value=None if tv is None else int(tv))
