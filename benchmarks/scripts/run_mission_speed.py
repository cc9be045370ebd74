"""Decision time of logbook deals before and after the search judges conditions, on the
same deals in the same run.

Each deal is decided twice, in one worker process, back to back (the order alternates
from deal to deal, so neither side always runs on a warmer cache):

``before``
    the dispatch of the default engine when its search knew tasks only: a deal with
    conditions goes to the SAT side alone (``backend="sat"``), any other to the engine;
``after``
    the default engine (``backend="engine"``): the search judges the conditions and races
    the SAT side.

The deals are a stratified subset of the logbook study (``benchmarks/scripts/run_missions.py``,
50 missions x 3/4/5 players x 200 seeds, seeds from 0):

``conditions``
    every mission with a special rule, every player count, seeds ``0..--seeds-1``;
``classic``
    every mission without one, every player count, seeds ``0..--classic-seeds-1``
    (the same code on both sides: the spread between them is the noise of the machine);
``tail``
    the ``--tail`` slowest deals with conditions of the published study
    (``benchmarks/results/missions.jsonl``), wherever their seed lies.

Results go to a JSONL file (resumable: deals already there are skipped); ``--report``
prints median / p99 / max per stratum and side, the unknowns and any verdict that differs
between the sides (there must be none).

    nice -n 5 python -m benchmarks.scripts.run_mission_speed --out benchmarks/results/mission_speed.jsonl
    python -m benchmarks.scripts.run_mission_speed --report --out benchmarks/results/mission_speed.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from crewcheck import decide
from crewcheck.formats.deal_json import from_dict
from crewcheck.missions.logbook import deal_mission, missions

PLAYERS = (3, 4, 5)
STUDY = Path(__file__).resolve().parents[1] / "results" / "missions.jsonl"

Job = tuple[str, int, int, int, float, bool]
"""(stratum, mission, players, seed, timeout, before first)."""


def _warm() -> None:
    """Load the compiled search kernel before the first timed deal of a worker."""
    from crewcheck.solvers.search import load_compiled

    load_compiled()


def _timed(inst: Any, backend: str, timeout: float) -> tuple[str, float, str | None]:
    start = time.perf_counter()
    r = decide(inst, backend=backend, timeout=timeout)
    return r.verdict.value, time.perf_counter() - start, r.stats.extra.get("stage")


def run_one(job: Job) -> dict[str, object]:
    stratum, number, players, seed, timeout, before_first = job
    deal = deal_mission(number, players, seed=seed)
    inst = from_dict({k: v for k, v in deal.items() if k != "comment"})
    before_backend = "sat" if inst.conditions else "engine"
    sides = [("before", before_backend), ("after", "engine")]
    if not before_first:
        sides.reverse()
    rec: dict[str, object] = {"stratum": stratum, "mission": number, "players": players, "seed": seed,
                              "conditions": bool(inst.conditions)}
    for side, backend in sides:
        verdict, seconds, stage = _timed(inst, backend, timeout)
        rec[f"{side}_verdict"] = verdict
        rec[f"{side}_seconds"] = round(seconds, 5)
        rec[f"{side}_stage"] = stage
    return rec


def jobs(args: argparse.Namespace) -> list[Job]:
    cond = [m.number for m in missions() if m.conditions]
    plain = [m.number for m in missions() if not m.conditions]
    out: list[tuple[str, int, int, int]] = []
    for seed in range(args.seeds):
        out += [("conditions", n, p, seed) for n in cond for p in PLAYERS]
    for seed in range(args.classic_seeds):
        out += [("classic", n, p, seed) for n in plain for p in PLAYERS]
    if args.tail and STUDY.exists():
        rows = [json.loads(line) for line in STUDY.read_text().splitlines() if line.strip()]
        slow = sorted((r for r in rows if r["mission"] in cond), key=lambda r: -float(r["seconds"]))
        seen = {(n, p, s) for _, n, p, s in out}
        for r in slow:
            key = (int(r["mission"]), int(r["players"]), int(r["seed"]))
            if len([j for j in out if j[0] == "tail"]) >= args.tail:
                break
            if key not in seen:
                out.append(("tail", *key))
                seen.add(key)
    return [(s, n, p, seed, args.timeout, i % 2 == 0) for i, (s, n, p, seed) in enumerate(out)]


def load(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def run(args: argparse.Namespace) -> None:
    done = {(r["mission"], r["players"], r["seed"]) for r in load(args.out)}
    todo = [j for j in jobs(args) if (j[1], j[2], j[3]) not in done]
    print(f"{len(todo)} deals to decide twice ({len(done)} done already)", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    with args.out.open("a") as out, ProcessPoolExecutor(args.workers, initializer=_warm) as pool:
        for i, rec in enumerate(pool.map(run_one, todo, chunksize=2), 1):
            out.write(json.dumps(rec) + "\n")
            out.flush()
            if i % 100 == 0 or i == len(todo):
                print(f"{i}/{len(todo)} deals, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)


def _p99(values: list[float]) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(0.99 * len(s)))]


def _row(name: str, rows: list[dict[str, Any]], side: str) -> str:
    t = [float(r[f"{side}_seconds"]) for r in rows]
    unknown = sum(1 for r in rows if r[f"{side}_verdict"] == "unknown")
    over = sum(1 for x in t if x > 2.0)
    return (f"| {name} | {side} | {len(t)} | {statistics.median(t):.4f} | {_p99(t):.3f} | {max(t):.2f} | "
            f"{over} | {unknown} |")


def report(args: argparse.Namespace) -> None:
    rows = load(args.out)
    if not rows:
        print(f"no results in {args.out}")
        return
    print("| deals | side | n | median s | p99 s | max s | over 2 s | unknown |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    groups = [("conditions (seeds)", [r for r in rows if r["stratum"] == "conditions"]),
              ("classic (seeds)", [r for r in rows if r["stratum"] == "classic"]),
              ("tail of the study", [r for r in rows if r["stratum"] == "tail"]),
              ("conditions + classic", [r for r in rows if r["stratum"] != "tail"])]
    for name, sel in groups:
        if sel:
            for side in ("before", "after"):
                print(_row(name, sel, side))
    differ = [r for r in rows if "unknown" not in (r["before_verdict"], r["after_verdict"])
              and r["before_verdict"] != r["after_verdict"]]
    print(f"\nverdicts that differ between the sides: {len(differ)}")
    for r in differ:
        print(f"  mission {r['mission']}, {r['players']} players, seed {r['seed']}: "
              f"before {r['before_verdict']}, after {r['after_verdict']}")
    cond = [r for r in rows if r["conditions"]]
    if cond:
        by_search = sum(1 for r in cond if r["after_stage"] == "search")
        print(f"deals with conditions answered by the search (after): {by_search} of {len(cond)} "
              f"(the rest by the SAT side, or by variants: stage not recorded)")
    print("\nper mission with conditions (after): median / p99 / max s")
    for n in sorted({int(r["mission"]) for r in cond}):
        t = [float(r["after_seconds"]) for r in cond if r["mission"] == n]
        b = [float(r["before_seconds"]) for r in cond if r["mission"] == n]
        print(f"  {n:2d}: {statistics.median(t):.4f} / {_p99(t):.3f} / {max(t):.2f}   "
              f"(before {statistics.median(b):.4f} / {_p99(b):.3f} / {max(b):.2f})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/mission_speed.jsonl"),
                    help="JSONL results (default: %(default)s)")
    ap.add_argument("--seeds", type=int, default=40, help="seeds per mission with conditions (default: %(default)s)")
    ap.add_argument("--classic-seeds", type=int, default=4,
                    help="seeds per mission without conditions (default: %(default)s)")
    ap.add_argument("--tail", type=int, default=10,
                    help="slowest deals with conditions of the published study to add (default: %(default)s)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per decision (default: %(default)s)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes (default: %(default)s)")
    ap.add_argument("--report", action="store_true", help="print the table of --out instead of running")
    args = ap.parse_args(argv)
    if args.report:
        report(args)
    else:
        run(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
