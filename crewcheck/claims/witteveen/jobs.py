"""Chunk functions for the characterisation checks (Witteveen Thm 3.15/3.18).

Each function takes JSON-able parameters and returns a JSON-able summary, so
chunks can run on Dask workers and be cached in the results store. The task
suit is fixed to suit 0: relabelling suits maps games to games of the same
winnability (no trumps in Witteveen's game), so this loses no generality.

A game is checked by deciding it with an exact search and classifying it
with the characterisation; the summary counts agreements per case
(``A``: task card in player 1's hand, Thm 3.15; ``B``: in player 2's hand,
Thm 3.18) and keeps the first few disagreements as counterexamples.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping
from typing import Any

from crewcheck.claims.witteveen import kernel, project
from crewcheck.claims.witteveen.burnside import all_hands
from crewcheck.claims.witteveen.characterisation import losing_class
from crewcheck.claims.witteveen.project import Decider
from crewcheck.claims.witteveen.reference_search import reference_decider

SUITS = 4
MAX_EXAMPLES = 5


def deciders() -> dict[str, Decider]:
    """Every decider by name: ``reference`` (the claims' own search, compiled when numba
    is installed), ``reference-python`` (its plain-Python form) and
    ``project-<backend>`` for each installed project back-end (:mod:`.project`)."""
    return {"reference": kernel.decider(), "reference-python": reference_decider, **project.deciders()}


def _empty() -> dict[str, Any]:
    return {
        "games": 0,
        "A": {"games": 0, "losing_search": 0, "losing_char": 0, "disagree": 0, "unknown": 0},
        "B": {"games": 0, "losing_search": 0, "losing_char": 0, "disagree": 0, "unknown": 0},
        "classes": {"S1": 0, "S2": 0, "S3": 0, "S4": 0},
        "examples": [],
        "decider": "",
    }


def check_games(games: Iterable[tuple[int, int]], n: int, decider: str = "reference") -> dict[str, Any]:
    """Decide and classify every ``(hand1, task_value)`` game (task suit 0)."""
    decide = deciders()[decider]
    full = (1 << n) - 1
    out = _empty()
    out["decider"] = decider if decider != "reference" else (
        "reference (numba)" if decide is not reference_decider else "reference (python)")
    for hand1, tv in games:
        task = tv - 1
        holdings = [(hand1 >> (s * n)) & full for s in range(SUITS)]
        cls = losing_class(holdings, 0, tv, n)
        win = decide(hand1, task, n, SUITS)
        case = "A" if hand1 >> task & 1 else "B"
        out["games"] += 1
        rec = out[case]
        rec["games"] += 1
        if cls is not None:
            out["classes"][cls] += 1
        if win is None:
            rec["unknown"] += 1
            continue
        rec["losing_search"] += not win
        rec["losing_char"] += cls is not None
        if win != (cls is None):
            rec["disagree"] += 1
            if sum(e["case"] == case for e in out["examples"]) < MAX_EXAMPLES:
                out["examples"].append({"hand1": hand1, "task_value": tv, "values": n, "case": case,
                                        "search_winnable": win, "class": cls})
    return out


def merge(parts: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Add up chunk summaries."""
    out = _empty()
    for p in parts:
        out["games"] += p["games"]
        out["decider"] = p["decider"]
        for case in ("A", "B"):
            for k in out[case]:
                out[case][k] += p[case][k]
        for c in out["classes"]:
            out["classes"][c] += p["classes"][c]
        for e in p["examples"]:
            if sum(x["case"] == e["case"] for x in out["examples"]) < MAX_EXAMPLES:
                out["examples"].append(e)
    return out


def exhaustive_chunk(params: Mapping[str, Any]) -> dict[str, Any]:
    """All hands (slice ``part`` of ``parts``) with task value ``tv``, values ``n``."""
    n, tv = int(params["n"]), int(params["tv"])
    part, parts = int(params["part"]), int(params["parts"])
    hands = all_hands(SUITS * n, (SUITS * n + 1) // 2)[part::parts]
    return check_games(((int(h), tv) for h in hands), n, params.get("decider", "reference"))


def _random_hand(rng: random.Random, n: int) -> int:
    cards = rng.sample(range(SUITS * n), (SUITS * n + 1) // 2)
    return sum(1 << c for c in cards)


def sample_chunk(params: Mapping[str, Any]) -> dict[str, Any]:
    """``size`` uniform games (uniform hand, uniform task value) from a seeded stream."""
    n, size = int(params["n"]), int(params["size"])
    rng = random.Random(f"uniform:{params['seed']}:{params['index']}")
    games = [(_random_hand(rng, n), rng.randrange(1, n + 1)) for _ in range(size)]
    return check_games(games, n, params.get("decider", "reference"))


def losing_sample_chunk(params: Mapping[str, Any]) -> dict[str, Any]:
    """``size`` uniform games conditioned on the characterisation saying "losing".

    Rejection sampling from the uniform distribution, so the result is a
    uniform sample of the predicted-losing games (mostly S2 and S4).
    """
    n, size = int(params["n"]), int(params["size"])
    rng = random.Random(f"losing:{params['seed']}:{params['index']}")
    full = (1 << n) - 1
    games: list[tuple[int, int]] = []
    drawn = 0
    while len(games) < size:
        hand, tv = _random_hand(rng, n), rng.randrange(1, n + 1)
        drawn += 1
        if losing_class([(hand >> (s * n)) & full for s in range(SUITS)], 0, tv, n) is not None:
            games.append((hand, tv))
    out = check_games(games, n, params.get("decider", "reference"))
    out["drawn"] = drawn
    return out


def down_set_chunk(params: Mapping[str, Any]) -> dict[str, Any]:
    """Every game with task value ``tv`` where player 1 holds the lowest cards of each suit.

    These are exactly the games without a directly winning card for player 1,
    which contain the small classes S1 and S3 (2037 games each at ``n = 9``).
    """
    n, tv = int(params["n"]), int(params["tv"])
    hand_size = (SUITS * n + 1) // 2
    games = []
    for ks in itertools.product(range(n + 1), repeat=SUITS):
        if sum(ks) != hand_size:
            continue
        hand = sum(((1 << k) - 1) << (s * n) for s, k in enumerate(ks))
        games.append((hand, tv))
    return check_games(games, n, params.get("decider", "reference"))
