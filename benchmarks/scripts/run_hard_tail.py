"""The hard tail of de Jong's Figure 3: the free deals with 33 and 34 tasks that the engine
did not decide in its first 20 s, and what the integer trick counts change.

Every deal of :data:`HARD_TAIL` is regenerated from the full run's seeds
(:func:`crewcheck.claims.dejong.figure3.chunk_deals`) and decided, each with ``--limit``
seconds, by the deciders of :data:`DECIDERS`, each beside its baseline (:data:`BASELINE`):

- ``cpsat``: CP-SAT with the integer counts of each seat's tasks, tricks and other cards
  (:func:`crewcheck.solvers.logic.cpsat.add_task_count_constraints`; tricks and other
  cards where they bind, :func:`~crewcheck.solvers.logic.cpsat.counts_bind`), as
  ``decide`` runs it;
  ``cpsat-no-tricks`` without the tricks and other cards (``trick_counts=False``);
- ``engine``: the default engine, whose SAT side runs CP-SAT on such deals
  (:func:`crewcheck.solvers.engine.sat_solver_for`); ``engine-glucose`` with Glucose there.

CP-SAT runs one worker and no explanation; a winning line is replayed by the independent
checker. Verdicts of different deciders on a deal must agree (the script exits 1 if not).
Then ``--typical`` ordinary deals (chunk 0) at each of ``--counts``: what the change costs
where the deal is not hard.

All times come from this one run on this machine: compare ratios, not seconds.

Usage::

    PYTHONPATH=. python benchmarks/scripts/run_hard_tail.py [--limit 20] [--typical 30] \\
        [--counts 16,20,28,32,34] [--jsonl benchmarks/results/hard_tail.jsonl]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from crewcheck.api import check_witness  # noqa: E402
from crewcheck.claims.dejong.figure3 import chunk_deals, deal_instance  # noqa: E402
from crewcheck.model.instance import Instance  # noqa: E402
from crewcheck.solvers.base import Budget, Verdict  # noqa: E402
from crewcheck.solvers.engine import AUTO, EngineOptions, EngineSolver  # noqa: E402
from crewcheck.solvers.logic.cpsat import CpSatOptions, CpSatSolver  # noqa: E402
from crewcheck.solvers.logic.sat_process import SOLVER  # noqa: E402

HARD_TAIL: tuple[tuple[int, int, int], ...] = (
    (32, 4, 106), (32, 6, 105), (32, 12, 141), (32, 13, 101), (33, 23, 164),
    (34, 8, 35), (34, 8, 36), (34, 8, 241), (34, 12, 49), (34, 12, 167),
    (34, 14, 83), (34, 30, 176), (34, 31, 19), (34, 35, 5), (34, 35, 36),
)
"""(task count, chunk, deal) of the free Figure 3 deals the engine with Glucose left
undecided after 20 s (32 tasks: 10 s), over the chunks whose records escalated past CP-SAT
without the trick counts (free 34 tasks chunks 8, 12, 14, 30, 31), the two chunks decided
last (33/23, 34/35), and four 32-task chunks whose records escalated to CP-SAT (4, 6, 12,
13). Chunks of 29-31 tasks whose records were slow (29/28, 30/5, 30/14, 31/1) hold no
deal the engine takes over a second on now."""


def _deal(k: int, chunk: int, index: int) -> dict[str, Any]:
    params = {"backend": "engine", "index": chunk, "objectives": "free", "seed": 0, "size": index + 1,
              "tasks": k, "timeout": None}
    *_, deal = chunk_deals(params)
    return deal


def _cpsat(inst: Instance, limit: float, tricks: bool) -> Verdict:
    solver = CpSatSolver(CpSatOptions(explain=False, trick_counts=tricks))
    answer = solver.decide(inst, budget=Budget(seconds=limit))
    if answer.verdict is Verdict.WINNABLE:
        check_witness(inst, inst.history + tuple(answer.plays or ()), answer.assignment, "cpsat")
    return answer.verdict


def _engine(inst: Instance, limit: float, solver: str) -> Verdict:
    answer = EngineSolver(EngineOptions(sat_solver=solver)).decide(inst, budget=Budget(seconds=limit))
    if answer.verdict is Verdict.WINNABLE:
        check_witness(inst, inst.history + tuple(answer.plays or ()), answer.assignment, "engine")
    return answer.verdict


DECIDERS: dict[str, Callable[[Instance, float], Verdict]] = {
    "cpsat": lambda inst, limit: _cpsat(inst, limit, True),
    "cpsat-no-tricks": lambda inst, limit: _cpsat(inst, limit, False),
    "engine": lambda inst, limit: _engine(inst, limit, AUTO),
    "engine-glucose": lambda inst, limit: _engine(inst, limit, SOLVER),
}
"""The deciders compared, by the name the table prints."""

BASELINE = {"cpsat": "cpsat-no-tricks", "engine": "engine-glucose"}
"""Each decider's baseline in the ratios."""


def _timed(name: str, inst: Instance, limit: float) -> tuple[str, float]:
    start = time.perf_counter()
    verdict = DECIDERS[name](inst, limit)
    return verdict.name, time.perf_counter() - start


def _cell(verdict: str, seconds: float, limit: float) -> str:
    return f"{verdict.lower()} {seconds:.1f} s" if verdict != "UNKNOWN" else f"undecided ({limit:g} s)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--limit", type=float, default=20.0, help="seconds per deal and decider (default 20)")
    ap.add_argument("--typical", type=int, default=30, help="ordinary deals per task count (default 30)")
    ap.add_argument("--counts", default="16,20,28,32,34",
                    help="task counts of the ordinary deals (default 16,20,28,32,34)")
    ap.add_argument("--jsonl", type=Path, help="also write one line per deal and decider here")
    ap.add_argument("--no-hard-tail", action="store_true", help="only the ordinary deals")
    args = ap.parse_args(argv)
    names = list(DECIDERS)
    rows: list[dict[str, Any]] = []
    disagreements = 0

    def run(deal: tuple[int, int, int], inst: Instance) -> list[tuple[str, float]]:
        nonlocal disagreements
        out = [_timed(name, inst, args.limit) for name in names]
        rows.extend({"deal": list(deal), "decider": n, "verdict": v, "seconds": round(t, 3)}
                    for n, (v, t) in zip(names, out))
        disagreements += len({v for v, _ in out} - {"UNKNOWN"}) > 1
        return out

    print(f"| deal (tasks/chunk/deal) | {' | '.join(names)} |")
    print(f"|---|{'---|' * len(names)}")
    for k, chunk, index in () if args.no_hard_tail else HARD_TAIL:
        out = run((k, chunk, index), deal_instance(_deal(k, chunk, index)))
        print(f"| {k}/{chunk}/{index} | {' | '.join(_cell(v, t, args.limit) for v, t in out)} |", flush=True)
    if args.typical:
        print(f"\n| tasks | deals | {' | '.join(f'{n} median s' for n in names)} | "
              f"{' | '.join(f'{n} / {b}' for n, b in BASELINE.items())} |")
        print(f"|---|---|{'---|' * (len(names) + len(BASELINE))}")
        for k in (int(x) for x in args.counts.split(",") if x):
            params = {"backend": "engine", "index": 0, "objectives": "free", "seed": 0, "size": args.typical,
                      "tasks": k, "timeout": None}
            times: dict[str, list[float]] = {n: [] for n in names}
            for i, deal in enumerate(chunk_deals(params)):
                inst = deal_instance(deal)
                _timed("engine-glucose", inst, args.limit)  # untimed: a deal's first decision warms its caches
                for n, (_, t) in zip(names, run((k, 0, i), inst)):
                    times[n].append(t)
            med = {n: statistics.median(t) for n, t in times.items()}
            print(f"| {k} | {args.typical} | {' | '.join(f'{med[n]:.3f}' for n in names)} | "
                  f"{' | '.join(f'{med[n] / med[b]:.2f}x' for n, b in BASELINE.items())} |", flush=True)
    if args.jsonl:
        args.jsonl.write_text("".join(json.dumps(r) + "\n" for r in rows))
    if disagreements:
        print(f"DISAGREEMENTS: {disagreements} deal(s) got different verdicts", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
