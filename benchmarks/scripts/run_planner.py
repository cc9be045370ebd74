"""How often the critical-card planner (seed 003) wins the deals that can be won, and how fast.

For every deal of the chosen corpus cells (:mod:`benchmarks.scripts.corpus`) the exact engine
decides the deal (``backend="engine"``) and the planner tries it (``backend="planner"``),
one after the other in the same process, each call timed around
:func:`crewcheck.decide` (which includes replaying a winning line). Per cell the table
gives the engine's verdicts, the share of the winnable deals the planner solves, why it
fails on the others (no matching / matching but the execution fails / out of budget),
and the median seconds of each and the median per-deal ratio planner / engine.

Usage::

    python -m benchmarks.scripts.run_planner                       # fixed cells, k <= 12, 100 deals each
    python -m benchmarks.scripts.run_planner --deals 20 --cells 4p-fixed-k04 3p-free-k08
    python -m benchmarks.scripts.run_planner --table-only          # rebuild the table from --raw

Results go to ``--raw`` (one JSON object per deal, appended as the run goes, so an
interrupted run resumes where it stopped) and the table to ``--markdown`` and stdout.
Runs one deal at a time (one worker); the engine's SAT side uses a second process.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.scripts.corpus import CELLS, Cell, find_cells, load_cell
from crewcheck import decide
from crewcheck.solvers.base import Budget, Verdict
from crewcheck.solvers.heuristic.planner import PlannerOptions, PlannerSolver

HERE = Path(__file__).resolve().parents[1]
DEFAULT_RAW = HERE / "results" / "planner.jsonl"
DEFAULT_MD = HERE / "results" / "planner.md"
DEFAULT_CELLS = tuple(c.name for c in CELLS if c.assignment == "fixed" and c.k <= 12)
"""The fixed-assignment cells with 1-12 tasks (plain and with tokens), 4 and 3 players."""

STAGES = ("no_matching", "execution_failed", "out_of_budget")


def _warm_up(deal: object) -> None:
    """Load the engine's compiled kernel before the first timed call."""
    try:
        from crewcheck.solvers.search import kernel

        kernel.compiled()
    except ImportError:
        pass
    decide(deal, backend="engine", timeout=5)  # type: ignore[arg-type]


def run_deal(deal_id: str, deal: object, *, engine_timeout: float, planner_timeout: float,
             options: PlannerOptions) -> dict[str, object]:
    """Both back-ends on one deal: the record written to the raw file."""
    t = time.perf_counter()
    exact = decide(deal, backend="engine", timeout=engine_timeout)  # type: ignore[arg-type]
    engine_s = time.perf_counter() - t
    solver = PlannerSolver(options)
    t = time.perf_counter()
    answer = solver.decide(deal, budget=Budget(seconds=planner_timeout))  # type: ignore[arg-type]
    if answer.verdict is Verdict.WINNABLE:  # the same replay check decide() makes
        from crewcheck.api import check_witness

        check_witness(deal, tuple(answer.plays or ()), answer.assignment, "planner")  # type: ignore[arg-type]
    planner_s = time.perf_counter() - t
    return {
        "id": deal_id,
        "engine": exact.verdict.value, "engine_s": round(engine_s, 6),
        "planner": answer.verdict.value, "planner_s": round(planner_s, 6),
        "stage": answer.extra.get("stage"), "matchings": answer.extra.get("matchings"),
        "edges": answer.extra.get("edges"), "planner_nodes": answer.nodes,
    }


def _done_ids(path: Path) -> set[str]:
    if not path.exists():
        return set()
    return {json.loads(line)["id"] for line in path.read_text().splitlines() if line.strip()}


def _median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def _fmt_s(x: float) -> str:
    return "-" if x != x else f"{x:.4f}" if x < 10 else f"{x:.1f}"


def _pair(rs: list[dict[str, object]]) -> str:
    """``"planner / engine"`` median seconds of the records ``rs``."""
    p = _median([float(r["planner_s"]) for r in rs])  # type: ignore[arg-type]
    e = _median([float(r["engine_s"]) for r in rs])  # type: ignore[arg-type]
    return f"{_fmt_s(p)} / {_fmt_s(e)}"


def table(rows: list[dict[str, object]], cells: Sequence[str]) -> str:
    """The markdown table of the records ``rows`` for ``cells`` (in that order)."""
    head = ("| cell | deals | engine W / U / ? | planner solved | % of winnable | no matching | "
            "execution failed | out of budget | median s planner / engine | "
            "median ratio planner/engine | median s planner / engine, solved deals |")
    out = [head, "|" + "---|" * (head.count("|") - 1)]
    total = {"deals": 0, "W": 0, "solved": 0, **{s: 0 for s in STAGES}}
    for name in cells:
        rs = [r for r in rows if str(r["id"]).split("/")[0] == name]
        if not rs:
            continue
        win = [r for r in rs if r["engine"] == "winnable"]
        unw = sum(r["engine"] == "unwinnable" for r in rs)
        unk = len(rs) - len(win) - unw
        solved = [r for r in win if r["planner"] == "winnable"]
        fails = {s: sum(r["stage"] == s for r in win) for s in STAGES}
        ratio = [float(r["planner_s"]) / max(float(r["engine_s"]), 1e-9) for r in rs]  # type: ignore[arg-type]
        pct = f"{100 * len(solved) / len(win):.0f} %" if win else "-"
        out.append(
            f"| {name} | {len(rs)} | {len(win)} / {unw} / {unk} | {len(solved)} | {pct} | "
            + " | ".join(str(fails[s]) for s in STAGES)
            + f" | {_pair(rs)} | {_median(ratio):.2g} | {_pair(solved)} |"
        )
        total["deals"] += len(rs)
        total["W"] += len(win)
        total["solved"] += len(solved)
        for s in STAGES:
            total[s] += fails[s]
    if total["W"]:
        out.append(f"| **all** | {total['deals']} | {total['W']} winnable | {total['solved']} | "
                   f"{100 * total['solved'] / total['W']:.0f} % | "
                   + " | ".join(str(total[s]) for s in STAGES) + " | | | |")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cells", nargs="*", default=list(DEFAULT_CELLS),
                    help="cell names (default: the fixed cells with k <= 12, with and without tokens)")
    ap.add_argument("--deals", type=int, default=100, help="deals per cell, the first of each file (default 100)")
    ap.add_argument("--engine-timeout", type=float, default=30.0, help="seconds per deal for the engine (default 30)")
    ap.add_argument("--planner-timeout", type=float, default=10.0, help="seconds per deal for the planner (default 10)")
    ap.add_argument("--winning-card", choices=("highest", "lowest"), default="highest",
                    help="which winning card a plan reserves (default highest)")
    ap.add_argument("--raw", type=Path, default=DEFAULT_RAW, help=f"per-deal JSONL (default {DEFAULT_RAW.name})")
    ap.add_argument("--markdown", type=Path, default=DEFAULT_MD, help=f"the table (default {DEFAULT_MD.name})")
    ap.add_argument("--table-only", action="store_true", help="only rebuild the table from --raw")
    args = ap.parse_args(argv)
    cells: list[Cell] = find_cells(args.cells)
    names = [c.name for c in cells]
    if not args.table_only:
        options = PlannerOptions(winning_card=args.winning_card)
        done = _done_ids(args.raw)
        args.raw.parent.mkdir(parents=True, exist_ok=True)
        warm = False
        with args.raw.open("a") as out:
            for cell in cells:
                deals = load_cell(cell, args.deals)
                start = time.perf_counter()
                for n, deal in enumerate(deals):
                    deal_id = f"{cell.name}/{n}"
                    if deal_id in done:
                        continue
                    if not warm:
                        _warm_up(deal)
                        warm = True
                    rec = run_deal(deal_id, deal, engine_timeout=args.engine_timeout,
                                   planner_timeout=args.planner_timeout, options=options)
                    out.write(json.dumps(rec) + "\n")
                    out.flush()
                print(f"{cell.name}: {time.perf_counter() - start:.1f} s", file=sys.stderr)
    rows = [json.loads(line) for line in args.raw.read_text().splitlines() if line.strip()]
    wanted = {f"{n}/{i}" for n in names for i in range(args.deals)}
    rows = [r for r in rows if r["id"] in wanted]
    text = table(rows, names)
    print(text)
    if args.markdown:
        args.markdown.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    raise SystemExit(main())
