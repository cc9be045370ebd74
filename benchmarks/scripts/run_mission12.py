"""Mission 12's draw (``crewcheck draw``) on the seeded deals of the logbook, timed.

Each deal is ``crewcheck mission 12 --players P --seed S`` (the draft free, the draw
from the whole hand), answered by :func:`crewcheck.analysis.chance.analyse_draw` with the
default back-end and a time limit per deal, one deal at a time in this process (run it
on a quiet machine: the seconds are the speed claim). A record per deal: the three
answers (``every``, ``some``, the chance or its proven lower bound), whether the answer is
complete, the seconds, when "for every draw" became known (``every_seconds``, where the
code reports it) and how the draws were answered.

``--seeds`` and ``--first-seed`` choose the seeds; two processes on different seeds may
append to one file (a record is one line). ``--label`` names the code that ran, so that two versions of the analysis run one after
the other on the same deals (the older from a ``git worktree``, with ``PYTHONPATH``
pointing at it) share one file; ``--report`` prints a table per label and player count.
Resumable: a (label, players, seed) already in the file is skipped.

    python -m benchmarks.scripts.run_mission12 --label after --out benchmarks/results/mission12.jsonl
    python -m benchmarks.scripts.run_mission12 --report --out benchmarks/results/mission12.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from crewcheck.formats.deal_json import from_dict
from crewcheck.missions.logbook import deal_mission
from crewcheck.solvers.base import Budget

PLAYERS = (3, 4, 5)


def _warm() -> None:
    """Load the compiled search kernel (and compile it, in a fresh checkout) before the first timed deal."""
    from crewcheck import decide

    decide(from_dict({"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0}]}))


def run_one(label: str, players: int, seed: int, limit: float) -> dict[str, Any]:
    from crewcheck.analysis.chance import analyse_draw

    deal = deal_mission(12, players, seed=seed)
    inst = from_dict({k: v for k, v in deal.items() if k != "comment"})
    start = time.perf_counter()
    a = analyse_draw(inst, budget=Budget(seconds=limit))
    seconds = time.perf_counter() - start
    return {"label": label, "players": players, "seed": seed, "limit": limit,
            "every": a.every, "some": a.some, "complete": a.complete,
            "probability": None if a.probability is None else str(a.probability),
            "lower": str(a.lower), "seconds": round(seconds, 3),
            "every_seconds": getattr(a, "every_seconds", None),
            "searched": a.counts.searched, "isomorphic": a.counts.isomorphic, "carried": a.counts.carried,
            "first_trick": None if a.first_trick is None else [str(inst.deck.card(c)) for c in a.first_trick]}


def _done(out: Path) -> set[tuple[str, int, int]]:
    if not out.exists():
        return set()
    return {(r["label"], r["players"], r["seed"]) for r in map(json.loads, out.read_text().splitlines()) if r}


def report(out: Path) -> str:
    rows = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    lines = ["| code | players | deals | complete | every known | every: yes | median s | max s | answers |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    labels = list(dict.fromkeys(r["label"] for r in rows))
    for label in labels:
        for p in PLAYERS:
            mine = [r for r in rows if r["label"] == label and r["players"] == p]
            if not mine:
                continue
            secs = [r["seconds"] for r in mine]
            answers = ", ".join(
                f"s{r['seed']} {r['seconds']:.1f} s " + ("every" if r["every"] else f"{r['probability']}" if r["complete"]
                                    else f">={float(Fraction(r['lower'])):.4f}" + ("" if r["every"] is None else " not every"))
                for r in sorted(mine, key=lambda r: r["seed"]))
            lines.append(f"| {label} | {p} | {len(mine)} | {sum(r['complete'] for r in mine)} | "
                         f"{sum(r['every'] is not None for r in mine)} | {sum(bool(r['every']) for r in mine)} | "
                         f"{statistics.median(secs):.1f} | {max(secs):.1f} | {answers} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--label", default="current", help="the code that runs (default: current)")
    ap.add_argument("--players", type=int, nargs="+", default=list(PLAYERS))
    ap.add_argument("--seeds", type=int, default=4, help="seeds per player count (default: 4)")
    ap.add_argument("--first-seed", type=int, default=0, help="the first seed (default: 0)")
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds per deal (default: 60)")
    ap.add_argument("--report", action="store_true", help="print the table of --out and stop")
    args = ap.parse_args(argv)
    if args.report:
        print(report(args.out))
        return 0
    done = _done(args.out)
    _warm()
    for p in args.players:
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            if (args.label, p, seed) in done:
                continue
            rec = run_one(args.label, p, seed, args.time_limit)
            with args.out.open("a") as f:
                f.write(json.dumps(rec) + "\n")
            print(f"{args.label} {p}p s{seed}: {rec['seconds']:.1f} s, every {rec['every']}, "
                  f"complete {rec['complete']}", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
