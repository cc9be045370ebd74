"""Time the ``search`` back-end on the benchmark corpus, cell by cell.

For every cell (see :mod:`benchmarks.scripts.corpus`) each deal is decided with
:func:`crewcheck.decide` (``backend="search"`` unless ``--backend`` says otherwise, which includes the replay of every
winning line), timing each call. Per cell it reports the median, p90, p99 and max
seconds per deal, the winnable / unwinnable / unknown counts and the median and max
nodes. Deals that hit ``--timeout`` count as UNKNOWN and at the timeout.

Usage::

    python -m benchmarks.scripts.run_search                          # every cell, 100 deals
    python -m benchmarks.scripts.run_search --deals 40 --timeout 2 --cells 4p-fixed-k10 3p-free-k36
    python -m benchmarks.scripts.run_search --markdown results.md --raw results.jsonl
    python -m benchmarks.scripts.run_search --backend portfolio            # the search/SAT race

Before the first timed call the compiled kernel is loaded and run once, so the table
measures warm calls; the fresh-process start-up is measured separately (``--startup``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.scripts.corpus import CORPUS_DIR, corpus_path, find_cells, load_cell, write_cell
from crewcheck import decide, dumps
from crewcheck.solvers.base import Verdict


def _quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    if not xs:
        return float("nan")
    i = min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))
    return xs[i]


def _warm_up(inst: object) -> None:
    """Load the compiled kernel (not the plain warm-start path) before timing."""
    from crewcheck.solvers.search import kernel
    from crewcheck.solvers.base import Budget
    from crewcheck.solvers.search import SearchOptions, SearchSolver

    try:
        kernel.compiled()
        SearchSolver(SearchOptions(warm_start=False)).decide(inst, budget=Budget(seconds=5))  # type: ignore[arg-type]
    except ImportError:
        pass


def startup_seconds(deal_path: Path, repeats: int = 3) -> list[float]:
    """Wall time of ``python -m crewcheck decide <deal>`` in fresh processes."""
    out = []
    for _ in range(repeats):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "crewcheck", "decide", str(deal_path)],
                       capture_output=True, check=False)
        out.append(time.perf_counter() - t)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100, help="deals per cell (default %(default)s)")
    parser.add_argument("--timeout", type=float, default=2.0, help="seconds per deal (default %(default)s)")
    parser.add_argument("--cells", nargs="*", help="cell names (default: all)")
    parser.add_argument("--corpus", default=str(CORPUS_DIR), help="corpus directory")
    parser.add_argument("--raw", help="append one JSON line per deal to this file")
    parser.add_argument("--markdown", help="write the table to this file")
    parser.add_argument("--startup", action="store_true", help="also time a fresh-process decide")
    parser.add_argument("--backend", default="search",
                        help="back-end to time (default %(default)s; e.g. portfolio for the search/SAT race)")
    args = parser.parse_args(argv)

    cells = find_cells(args.cells)
    raw = open(args.raw, "a", encoding="utf-8") if args.raw else None
    header = ("| cell | deals | median s | p90 s | p99 s | max s | winnable | unwinnable | unknown "
              "| median nodes | max nodes |")
    rows = [header, "|" + "---|" * 11]
    print(header, flush=True)
    warmed = False
    for cell in cells:
        if not corpus_path(cell, args.corpus).exists():
            write_cell(cell, max(args.deals, 100), directory=args.corpus)
        deals = load_cell(cell, args.deals, directory=args.corpus)
        times: list[float] = []
        nodes: list[int] = []
        verdicts = {v: 0 for v in Verdict}
        for n, inst in enumerate(deals):
            if not warmed:
                _warm_up(inst)
                warmed = True
            t = time.perf_counter()
            r = decide(inst, backend=args.backend, timeout=args.timeout)
            dt = time.perf_counter() - t
            times.append(dt)
            nodes.append(r.stats.nodes)
            verdicts[r.verdict] += 1
            if raw:
                raw.write(json.dumps({"cell": cell.name, "n": n, "verdict": r.verdict.value,
                                      "seconds": dt, "nodes": r.stats.nodes,
                                      "extra": {k: v for k, v in r.stats.extra.items()}}) + "\n")
                raw.flush()
        row = (f"| {cell.name} | {len(deals)} | {statistics.median(times):.4f} | {_quantile(times, .9):.4f} "
               f"| {_quantile(times, .99):.4f} | {max(times):.4f} | {verdicts[Verdict.WINNABLE]} "
               f"| {verdicts[Verdict.UNWINNABLE]} | {verdicts[Verdict.UNKNOWN]} "
               f"| {int(statistics.median(nodes))} | {max(nodes)} |")
        rows.append(row)
        print(row, flush=True)
    if args.startup:
        deal = Path("/tmp/crewcheck-startup-deal.json")
        deal.write_text(dumps(load_cell(find_cells(["4p-fixed-k04"])[0], 1, directory=args.corpus)[0]))
        secs = startup_seconds(deal)
        line = f"startup (fresh process, decide one 4p k=4 deal): {', '.join(f'{s:.2f}' for s in secs)} s"
        rows.append("")
        rows.append(line)
        print(line, flush=True)
    if args.markdown:
        Path(args.markdown).write_text("\n".join(rows) + "\n", encoding="utf-8")
    if raw:
        raw.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
