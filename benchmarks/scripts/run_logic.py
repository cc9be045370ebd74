"""Benchmark the logic back-ends (z3, cpsat) on the seeded Classic corpus, side by side.

For every cell of the corpus (``benchmarks/corpus/<cell>.jsonl``, written by
``benchmarks/scripts/corpus.py``) and the first ``--deals`` deals of it, each back-end decides
the deal under a per-deal time limit; every winning line is replayed by the independent
checker, and verdicts of different back-ends on the same deal are compared. Timing is
the decision only (``explain=False``: no unsat-core minimisation), plus the replay.

Prints (and with ``--table`` writes) a Markdown table: per cell and back-end the
median, 90th percentile and maximum seconds, the timeouts, the share of winnable deals,
and the number of disagreements between back-ends. ``--jsonl`` writes one line per run.

Usage::

    python -m benchmarks.scripts.run_logic --deals 5 --timeout 10 --backends z3,cpsat,search \\
        --table docs/performance-logic.md --jsonl /tmp/logic.jsonl
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from crewcheck.api import check_witness
from crewcheck.errors import CrewcheckError
from crewcheck.formats.deal_json import from_dict
from crewcheck.model.instance import Instance
from crewcheck.solvers import registry
from crewcheck.solvers.base import Budget, Verdict

CORPUS_DIR = Path(__file__).resolve().parents[1] / "corpus"


def make_solver(name: str) -> Any:
    """The back-end object, with explanations off for the logic back-ends."""
    if name == "z3":
        from crewcheck.solvers.logic.smt import Z3Options, Z3Solver

        return Z3Solver(Z3Options(explain=False))
    if name == "cpsat":
        from crewcheck.solvers.logic.cpsat import CpSatOptions, CpSatSolver

        return CpSatSolver(CpSatOptions(explain=False, workers=1))
    return registry.get(name)


def load_cell(path: Path, deals: int) -> list[tuple[str, Instance]]:
    out = []
    for n, line in enumerate(path.read_text().splitlines()):
        if n >= deals:
            break
        data = json.loads(line)
        ident = data.pop("id", f"{path.stem}/{n}")
        out.append((ident, from_dict(data)))
    return out


def run_one(solver: Any, name: str, inst: Instance, timeout: float) -> tuple[str, float]:
    start = time.perf_counter()
    try:
        why = solver.supports(inst)
        if why is not None:
            return "refused", 0.0
        ans = solver.decide(inst, budget=Budget(seconds=timeout))
        if ans.verdict is Verdict.WINNABLE:
            check_witness(inst, inst.history + tuple(ans.plays or ()), ans.assignment, name)
        verdict = ans.verdict.value
    except CrewcheckError as e:
        print(f"  {name}: {e}", file=sys.stderr)
        verdict = "error"
    return verdict, time.perf_counter() - start


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    if not xs:
        return float("nan")
    i = min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))
    return xs[i]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=CORPUS_DIR, help="directory of <cell>.jsonl files")
    ap.add_argument("--cells", default="*", help="comma-separated glob patterns of cell names (default: all)")
    ap.add_argument("--deals", type=int, default=5, help="deals per cell (default: 5)")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per deal and back-end (default: 10)")
    ap.add_argument("--backends", default="z3,cpsat", help="comma-separated back-ends (default: z3,cpsat)")
    ap.add_argument("--table", type=Path, help="write the Markdown table here")
    ap.add_argument("--jsonl", type=Path, help="write one JSON line per run here")
    ap.add_argument("--from-jsonl", type=Path, metavar="LOG",
                    help="do not run anything: render the table from a --jsonl log of an earlier run")
    args = ap.parse_args(argv)
    if args.from_jsonl:
        return render_log(args)

    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    solvers = {}
    for b in backends:
        try:
            solvers[b] = make_solver(b)
        except CrewcheckError as e:
            print(f"skipping {b}: {e}", file=sys.stderr)
    patterns = args.cells.split(",")
    files = sorted(p for p in args.corpus.glob("*.jsonl") if any(fnmatch.fnmatch(p.stem, pat) for pat in patterns))
    if not files:
        print(f"no corpus cells in {args.corpus}", file=sys.stderr)
        return 2
    # warm up every back-end (imports, JIT compilation) on one deal, untimed
    warm = load_cell(files[0], 1)
    for b, solver in solvers.items():
        for _, inst in warm:
            run_one(solver, b, inst, args.timeout)
    log = args.jsonl.open("w", buffering=1) if args.jsonl else None
    rows = []
    total_disagree = 0
    started = time.perf_counter()
    for path in files:
        deals = load_cell(path, args.deals)
        times: dict[str, list[float]] = {b: [] for b in solvers}
        outs: dict[str, list[str]] = {b: [] for b in solvers}
        disagree = 0
        for ident, inst in deals:
            verdicts = {}
            for b, solver in solvers.items():
                v, dt = run_one(solver, b, inst, args.timeout)
                verdicts[b] = v
                times[b].append(dt)
                outs[b].append(v)
                if log:
                    log.write(json.dumps({"id": ident, "backend": b, "verdict": v, "seconds": round(dt, 4)}) + "\n")
            decided = {v for v in verdicts.values() if v in ("winnable", "unwinnable")}
            if len(decided) > 1:
                disagree += 1
                print(f"DISAGREEMENT on {ident}: {verdicts}", file=sys.stderr)
        total_disagree += disagree
        row = {"cell": path.stem, "deals": len(deals), "disagree": disagree, "by": {}}
        for b in solvers:
            ts = times[b]
            decided = [v for v in outs[b] if v in ("winnable", "unwinnable")]
            row["by"][b] = {
                "median": statistics.median(ts) if ts else float("nan"),
                "p90": percentile(ts, 0.9), "max": max(ts) if ts else float("nan"),
                "timeouts": sum(1 for v in outs[b] if v == "unknown"),
                "errors": sum(1 for v in outs[b] if v == "error"),
                "winnable": sum(1 for v in outs[b] if v == "winnable"), "decided": len(decided),
            }
        rows.append(row)
        cells = "  ".join(f"{b}: med {r['median']:.2f} p90 {r['p90']:.2f} max {r['max']:.2f} to {r['timeouts']}"
                          for b, r in row["by"].items())
        print(f"{path.stem:<22} n={len(deals)}  {cells}  disagree={disagree}", flush=True)
    if log:
        log.close()
    elapsed = time.perf_counter() - started
    table = render(rows, list(solvers), args, elapsed, total_disagree)
    if args.table:
        args.table.write_text(table)
    print(table)
    return 1 if total_disagree else 0


def render_log(args: argparse.Namespace) -> int:
    """The table of an earlier (possibly interrupted) run, from its JSONL log."""
    runs: dict[str, dict[str, dict[str, tuple[str, float]]]] = {}
    for line in args.from_jsonl.read_text().splitlines():
        r = json.loads(line)
        cell, _, _ = r["id"].rpartition("/")
        runs.setdefault(cell, {}).setdefault(r["id"], {})[r["backend"]] = (r["verdict"], r["seconds"])
    backends: list[str] = []
    for deals in runs.values():
        for by in deals.values():
            backends += [b for b in by if b not in backends]
    rows, total = [], 0
    for cell in sorted(runs):
        deals = runs[cell]
        disagree = sum(1 for by in deals.values()
                       if len({v for v, _ in by.values() if v in ("winnable", "unwinnable")}) > 1)
        total += disagree
        row: dict[str, Any] = {"cell": cell, "deals": len(deals), "disagree": disagree, "by": {}}
        for b in backends:
            got = [by[b] for by in deals.values() if b in by]
            ts = [t for _, t in got]
            vs = [v for v, _ in got]
            row["by"][b] = {
                "median": statistics.median(ts) if ts else float("nan"),
                "p90": percentile(ts, 0.9), "max": max(ts) if ts else float("nan"),
                "timeouts": vs.count("unknown"), "errors": vs.count("error"),
                "winnable": vs.count("winnable"), "decided": vs.count("winnable") + vs.count("unwinnable"),
            }
        rows.append(row)
    table = render(rows, backends, args, float("nan"), total)
    if args.table:
        args.table.write_text(table)
    print(table)
    return 1 if total else 0


def render(rows: list[dict[str, Any]], backends: list[str], args: argparse.Namespace,
           elapsed: float, disagree: int) -> str:
    head = ["cell", "n", "won"]
    for b in backends:
        head += [f"{b} med", f"{b} p90", f"{b} max", f"{b} t/o"]
    head.append("disagree")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        wins = max((r["by"][b]["winnable"] for b in backends), default=0)
        decided = max((r["by"][b]["decided"] for b in backends), default=0)
        cells = [r["cell"], str(r["deals"]), f"{wins}/{decided}"]
        for b in backends:
            x = r["by"][b]
            cells += [f"{x['median']:.2f}", f"{x['p90']:.2f}", f"{x['max']:.2f}", str(x["timeouts"] + x["errors"])]
        cells.append(str(r["disagree"]))
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(f"{len(rows)} cells, {args.deals} deal(s) per cell, {args.timeout:g} s limit per deal and "
                 f"back-end; {elapsed:.0f} s wall in total; {disagree} deal(s) with disagreeing verdicts. "
                 "Seconds include building the model and replaying the witness; 'won' = winnable / "
                 "decided by at least one back-end.")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
