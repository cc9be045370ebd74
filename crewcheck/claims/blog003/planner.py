"""Claims from the critical-card planner blog post (seed ``003``): where the planner fails.

The post's algorithm has two stages: *planning* builds a seat/task bipartite graph from
the opening hands and enumerates its matchings; *execution* runs a depth-first search
guided by each matching's critical cards. The post says that "a majority of the time we
get no possible matchings" and that "if we were able to find a valid matching we can
generally find a solution". It gives no numbers.

In the post the matching *is* the task assignment (who takes which objective), so its own
setting is **free assignment**: the two halves of the statement are two claims, judged in
that setting, with the fixed-assignment numbers (tasks dealt round-robin from the
commander, where the only matching considered is the deal's own) beside them. The post
gives no deal distribution, so these are empirical claims with readings
(:class:`~crewcheck.claims.claim.Readings`): seeded random Classic deals, 4 and 3 players,
k = 1..12 tasks (the deals of ``benchmarks/scripts/corpus.py``); the exact ``engine`` back-end says
which deals are winnable, and the ``planner`` back-end (:mod:`crewcheck.solvers.heuristic.planner`)
says at which stage it stops (``Result.stats.extra["stage"]``). Fractions are taken over
the winnable deals, so a planner failure on an unwinnable deal (which no plan could solve)
is not counted; "a majority" and "generally" are read as more than half, decided by the
95 % Wilson interval of the fraction (above or below 1/2).

References
----------
.. [1] Seed ``003``, blog post on the "Critical Card Technique" (planning stage,
   objective matching, ``findValidPlays``).
"""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Mapping
from typing import Any, Literal

from crewcheck.api import decide
from crewcheck.claims.claim import Computation, Mode, Readings, Value
from crewcheck.claims.stats import wilson
from crewcheck.claims.execution import run_job
from crewcheck.model import dealing
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Verdict

__all__ = ["STAGES", "ENGINE_TIMEOUT", "PLANNER_TIMEOUT", "QUICK_CELLS", "FULL_CELLS", "random_deal",
           "planner_chunk", "stage_counts", "planner_no_matching", "planner_execution"]

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

def random_deal(rng: random.Random, players: int, k: int, assignment: Literal["fixed", "free"] = "fixed") -> Instance:
    """One random Classic deal with ``k`` tasks, fixed round-robin from the commander or free:
    :func:`crewcheck.model.dealing.random_deal` (the distribution of ``crewcheck deals`` and
    of ``benchmarks/scripts/corpus.py``'s cells), from ``rng``'s stream."""
    return dealing.random_deal(rng, players=players, k=k, assignment=assignment)


def planner_chunk(params: Mapping[str, Any]) -> dict[str, int]:
    """Decide ``size`` deals of one cell with the engine and try them with the planner.

    Returns counts: ``engine_winnable`` / ``engine_unwinnable`` / ``engine_unknown`` (the
    exact verdict: ``engine``, or ``search`` inside a daemonic worker process, counted in
    ``decided_by_*``), and per planner stage the count among the winnable deals.
    """
    # the engine races a SAT solver in a child process, which a daemonic process (a Dask
    # worker's) may not start: there the exact verdict comes from the search alone
    exact_backend = "search" if multiprocessing.current_process().daemon else "engine"
    assignment: Literal["fixed", "free"] = "free" if params.get("assignment") == "free" else "fixed"
    tag = "" if assignment == "fixed" else f":{assignment}"
    rng = random.Random(f"blog003{tag}:{params['players']}p:k{params['tasks']}:{params['seed']}:{params['index']}")
    out = {"engine_winnable": 0, "engine_unwinnable": 0, "engine_unknown": 0, **{s: 0 for s in STAGES},
           f"decided_by_{exact_backend}": 0}
    for _ in range(int(params["size"])):
        inst = random_deal(rng, int(params["players"]), int(params["tasks"]), assignment)
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


def stage_counts(mode: Mode, assignment: str) -> tuple[dict[str, int], dict[str, dict[str, int]], int]:
    """Run (or read) the planner job of one assignment: totals, counts per cell, deals."""
    cells = QUICK_CELLS if mode == "quick" else FULL_CELLS
    chunk = 25
    extra = {} if assignment == "fixed" else {"assignment": assignment}
    chunks: list[dict[str, Any]] = [
        {"players": p, "tasks": k, "seed": 0, "index": i, "size": min(chunk, deals - i * chunk),
         "engine_timeout": ENGINE_TIMEOUT, "planner_timeout": PLANNER_TIMEOUT, **extra}
        for p, k, deals in cells for i in range((deals + chunk - 1) // chunk)]
    results = run_job("blog003-planner/v2", planner_chunk, chunks, label=f"planner stages ({assignment})")
    per_cell: dict[str, dict[str, int]] = {}
    for c, r in zip(chunks, results):
        rec = per_cell.setdefault(f"{c['players']}p-{assignment}-k{c['tasks']:02d}", {})
        for key, n in r.items():
            rec[key] = rec.get(key, 0) + n
    total: dict[str, int] = {}
    for rec in per_cell.values():
        for key, n in rec.items():
            total[key] = total.get(key, 0) + n
    return total, per_cell, sum(d for _, _, d in cells)


def _majority(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return "majority" if lo > 0.5 else "minority" if hi < 0.5 else "undecided"


def _stage_claim(mode: Mode, half: str) -> Computation:
    """One half of the post's statement, in its own setting (free) with fixed beside."""
    values: list[Value] = []
    tried: list[str] = []
    found: dict[str, str] = {}
    for assignment in ("free", "fixed"):
        total, per_cell, deals = stage_counts(mode, assignment)
        winnable = total["engine_winnable"]
        matched = winnable - total["no_matching"]
        if half == "no_matching":
            k, n, what = total["no_matching"], winnable, "winnable deals with no matching"
        else:
            k, n, what = total["solved"], matched, "deals with a matching that the execution solves"
        lo, hi = wilson(k, n)
        found[assignment] = _majority(k, n) if n else "undecided"
        where = (f"{deals:,} seeded random Classic deals, {assignment} assignment, 4 and 3 players, "
                 f"k = 1..{max(k_ for _, k_, _ in (QUICK_CELLS if mode == 'quick' else FULL_CELLS))}")
        values.append(Value(f"{assignment}_fraction", _ratio(k, n),
                            f"{what}: {k:,} of {n:,} [95 % Wilson {lo:.3f}, {hi:.3f}]; {where}; "
                            f"exact verdicts by crewcheck.decide (engine, or search in a Dask worker; "
                            f"{total['engine_unknown']} undecided, not counted)"))
        values.append(Value(f"{assignment}_counts", {**total, "deals": deals},
                            "engine verdicts; planner stages among engine-winnable deals"))
        if assignment == "free":
            tried.append(f"free assignment (the post's setting: its matching assigns the tasks): "
                         f"{_ratio(k, n)} ({k:,} of {n:,}), a {found['free']}")
    values.append(Value("fixed_beside", found["fixed"], "the same fraction with the fixed round-robin "
                        "assignment (not the post's setting: there the matching is the deal's own)"))
    not_tried = ("5 players, and more than 12 tasks (the planner's matchings multiply; not run)",
                 "the post's own bipartite-graph heuristic as coded (not located; ours follows its text, "
                 "docs/planner.md)",
                 "the deal distribution the post used (not stated)")
    majority = found["free"]
    readings = Readings(tried=tuple(tried), not_tried=not_tried,
                        reproducing=("free assignment",) if majority == "majority" else (),
                        contradicted=majority == "minority")
    if majority == "undecided":
        return Computation(tuple(values), holds=None, readings=readings,
                           open_reason="the free-assignment fraction's interval contains 1/2")
    values.append(Value("majority", majority == "majority", "the fraction's 95 % interval lies above 1/2 "
                        "(free assignment)"))
    return Computation(tuple(values), holds=None, readings=readings,
                       evidence=f"free assignment: a {majority}; fixed assignment: a {found['fixed']}")


def planner_no_matching(mode: Mode) -> Computation:
    """"A majority of the time we get no possible matchings" (the planning stage)."""
    return _stage_claim(mode, "no_matching")


def planner_execution(mode: Mode) -> Computation:
    """"If we were able to find a valid matching we can generally find a solution"."""
    return _stage_claim(mode, "solved")
