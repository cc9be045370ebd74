"""Claims from the critical-card planner blog post (seed ``003``): where the planner fails.

The post's algorithm has two stages: *planning* builds a seat/task bipartite graph from
the opening hands and enumerates its matchings; *execution* runs a depth-first search
guided by each matching's critical cards. The post says that "a majority of the time we
get no possible matchings" and that "if we were able to find a valid matching we can
generally find a solution". It gives no numbers.

The claim is re-derived on seeded random Classic deals with a fixed assignment (4 and 3
players, k tasks dealt round-robin from the commander, as in ``benchmarks/scripts/corpus.py``):
the exact ``engine`` back-end says which deals are winnable, and the ``planner`` back-end
(:mod:`crewcheck.solvers.heuristic.planner`) says at which stage it stops
(``Result.stats.extra["stage"]``). Fractions are taken over the winnable deals, so a
planner failure on an unwinnable deal (which no plan could solve) is not counted.

References
----------
.. [1] Seed ``003``, blog post on the "Critical Card Technique" (planning stage,
   objective matching, ``findValidPlays``).
"""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Mapping
from typing import Any

from crewcheck.api import decide
from crewcheck.claims.claim import Computation, Mode, Value
from crewcheck.claims.execution import run_job
from crewcheck.model.cards import CLASSIC_DECK, Mask
from crewcheck.model.instance import Instance
from crewcheck.model.rules import Rules
from crewcheck.model.tasks import Task
from crewcheck.solvers.base import Verdict

__all__ = ["STAGES", "ENGINE_TIMEOUT", "PLANNER_TIMEOUT", "QUICK_CELLS", "FULL_CELLS", "random_fixed_deal",
           "planner_chunk", "planner_stages"]

STAGES = ("solved", "no_matching", "execution_failed", "out_of_budget")
"""Where the planner stops (``stats.extra["stage"]``)."""

ENGINE_TIMEOUT = 30.0
"""Seconds per deal for the exact engine (an UNKNOWN verdict is counted, never guessed)."""

PLANNER_TIMEOUT = 10.0
"""Seconds per deal for the planner (running out is its own stage)."""

QUICK_CELLS: tuple[tuple[int, int, int], ...] = tuple((p, k, 10) for p in (4, 3) for k in (1, 2, 4))
"""(players, tasks, deals) of the quick run: 60 deals."""

FULL_CELLS: tuple[tuple[int, int, int], ...] = tuple((p, k, 100) for p in (4, 3) for k in range(1, 13))
"""(players, tasks, deals) of the full run: 100 deals per cell, k = 1..12, 2,400 deals."""

_TRUMP = "R"
_COLOUR_CARDS: tuple[int, ...] = tuple(
    i for i in range(CLASSIC_DECK.size) if CLASSIC_DECK.suits[CLASSIC_DECK.suit_of(i)] != _TRUMP)
_COMMANDER_CARD = max(i for i in range(CLASSIC_DECK.size) if CLASSIC_DECK.suits[CLASSIC_DECK.suit_of(i)] == _TRUMP)


def random_fixed_deal(rng: random.Random, players: int, k: int) -> Instance:
    """One random Classic deal with ``k`` tasks, fixed round-robin from the commander.

    The 40 cards are shuffled and dealt one at a time from seat 0 (hands 10 each for 4
    players, 14/13/13 for 3); the commander holds the top rocket; the tasks are ``k``
    distinct colour cards. The distribution of ``benchmarks/scripts/corpus.py``'s fixed cells.
    """
    cards = list(range(CLASSIC_DECK.size))
    rng.shuffle(cards)
    hands: list[Mask] = [0] * players
    for n, c in enumerate(cards):
        hands[n % players] |= 1 << c
    commander = next(s for s in range(players) if hands[s] >> _COMMANDER_CARD & 1)
    tasks = tuple(Task(c, (commander + j) % players) for j, c in enumerate(rng.sample(_COLOUR_CARDS, k)))
    return Instance(CLASSIC_DECK, tuple(hands), tasks, _TRUMP, "rocket", Rules("strict", "fixed"))


def planner_chunk(params: Mapping[str, Any]) -> dict[str, int]:
    """Decide ``size`` deals of one cell with the engine and try them with the planner.

    Returns counts: ``engine_winnable`` / ``engine_unwinnable`` / ``engine_unknown`` (the
    exact verdict: ``engine``, or ``search`` inside a daemonic worker process, counted in
    ``decided_by_*``), and per planner stage the count among the winnable deals.
    """
    # the engine races a SAT solver in a child process, which a daemonic process (a Dask
    # worker's) may not start: there the exact verdict comes from the search alone
    exact_backend = "search" if multiprocessing.current_process().daemon else "engine"
    rng = random.Random(f"blog003:{params['players']}p:k{params['tasks']}:{params['seed']}:{params['index']}")
    out = {"engine_winnable": 0, "engine_unwinnable": 0, "engine_unknown": 0, **{s: 0 for s in STAGES},
           f"decided_by_{exact_backend}": 0}
    for _ in range(int(params["size"])):
        inst = random_fixed_deal(rng, int(params["players"]), int(params["tasks"]))
        exact = decide(inst, backend=exact_backend, timeout=float(params["engine_timeout"])).verdict
        out[f"decided_by_{exact_backend}"] += 1
        if exact is Verdict.UNWINNABLE:
            out["engine_unwinnable"] += 1
            continue
        if exact is not Verdict.WINNABLE:
            out["engine_unknown"] += 1
            continue
        out["engine_winnable"] += 1
        stage = decide(inst, backend="planner", timeout=float(params["planner_timeout"])).stats.extra.get(
            "stage", "out_of_budget")
        out[str(stage)] += 1
    return out


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def planner_stages(mode: Mode) -> Computation:
    """The planning stage finds no matching a majority of the time; given a matching, the
    execution generally finds a solution (fractions over exactly-winnable deals)."""
    cells = QUICK_CELLS if mode == "quick" else FULL_CELLS
    chunk = 25
    chunks: list[dict[str, Any]] = [
        {"players": p, "tasks": k, "seed": 0, "index": i, "size": min(chunk, deals - i * chunk),
         "engine_timeout": ENGINE_TIMEOUT, "planner_timeout": PLANNER_TIMEOUT}
        for p, k, deals in cells for i in range((deals + chunk - 1) // chunk)]
    results = run_job("blog003-planner/v2", planner_chunk, chunks, label="planner stages")
    per_cell: dict[str, dict[str, int]] = {}
    for c, r in zip(chunks, results):
        rec = per_cell.setdefault(f"{c['players']}p-k{c['tasks']:02d}", {})
        for key, n in r.items():
            rec[key] = rec.get(key, 0) + n
    total: dict[str, int] = {}
    for rec in per_cell.values():
        for key, n in rec.items():
            total[key] = total.get(key, 0) + n
    winnable = total["engine_winnable"]
    matched = winnable - total["no_matching"]
    no_matching = _ratio(total["no_matching"], winnable)
    given = _ratio(total["solved"], matched)
    deals = sum(d for _, _, d in cells)
    where = (f"{deals} seeded random Classic deals, fixed round-robin assignment from the commander, "
             f"cells {', '.join(sorted(per_cell))}")
    values = (
        Value("winnable", winnable, f"{where}: winnable per crewcheck.decide(backend='engine', or 'search' in a "
              f"Dask worker process, timeout={ENGINE_TIMEOUT:g}); {total['engine_unknown']} undecided, not counted"),
        Value("no_matching_fraction", no_matching, "winnable deals on which crewcheck.decide(backend='planner') "
              "stops at stage no_matching, over the winnable deals"),
        Value("solved_given_matching", given, "winnable deals the planner solves, over the winnable deals on which "
              "it found a matching (solved + execution_failed + out_of_budget)"),
        Value("solved_fraction", _ratio(total["solved"], winnable), "winnable deals the planner solves, over all "
              "winnable deals"),
        Value("no_matching_majority", no_matching is not None and no_matching > 0.5,
              "no_matching_fraction > 0.5 (the post's 'a majority of the time')"),
        Value("solved_given_matching_majority", given is not None and given > 0.5,
              "solved_given_matching > 0.5 (the post's 'generally')"),
        Value("counts", {**total, "deals": deals}, "engine verdicts; planner stages among engine-winnable deals"),
        Value("cells", per_cell, "the same counts per cell (players, tasks)"),
    )
    if winnable == 0 or matched == 0:
        return Computation(values, holds=None, open_reason="no winnable deal with a matching in the sample")
    return Computation(values, holds=None,
                       evidence=f"{total['no_matching']} of {winnable} winnable deals have no matching; "
                                f"{total['solved']} of the {matched} with one are solved "
                                f"({total['execution_failed']} execution failures, "
                                f"{total['out_of_budget']} out of budget)")
