"""Nodes of the ``search`` back-end alone with and without the partition table.

For each file and each of its first ``--deals`` deals, the deal is decided by
:class:`~crewcheck.solvers.search.SearchSolver` with a node budget (``--nodes``), once
per variant, the variants alternating deal by deal: ``off`` the default options, ``on``
with :attr:`~crewcheck.solvers.search.SearchOptions.partition` set. Per file and variant
it reports the deals decided within the budget, the total nodes (an undecided deal
counts its budget), the nodes of the deals both variants decided, the partition table's
hits and CPU seconds per million nodes (indicative only on a busy machine). Nodes are
deterministic: the same code gives the same counts on any machine.

Usage::

    PYTHONPATH=. python -m benchmarks.scripts.run_partition --deals 30 --nodes 2000000 \\
        benchmarks/corpus/hard/heart-4p-fixed-k10.jsonl --raw runs.jsonl --markdown table.md
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.scripts.corpus import read_cell
from crewcheck.solvers.base import Budget, Verdict
from crewcheck.solvers.search import SearchOptions, SearchSolver, load_compiled

VARIANTS: dict[str, dict[str, Any]] = {"off": {}, "on": {"partition": True}}
"""Each variant's :class:`SearchOptions` fields."""


def run_one(inst: Any, variant: str, nodes: int) -> dict[str, Any]:
    """One decision of ``inst`` by the search alone under ``variant``, within ``nodes``."""
    solver = SearchSolver(SearchOptions(**VARIANTS[variant]))
    t = time.process_time()
    answer = solver.decide(inst, budget=Budget(nodes=nodes))
    cpu = time.process_time() - t
    return {"variant": variant, "budget": nodes, "verdict": answer.verdict.value, "nodes": answer.nodes or 0,
            "cpu": round(cpu, 4),
            "part_hits": int(answer.extra.get("part_hits", 0)), "part_stores": int(answer.extra.get("part_stores", 0)),
            "tt_hits": int(answer.extra.get("tt_hits", 0)), "cuts": int(answer.extra.get("cuts", 0))}


def summarize(rows: list[dict[str, Any]], budget: int) -> list[str]:
    """Markdown rows, one per file and variant (an undecided deal counts its record's
    budget, else ``budget``)."""
    out = []
    files = sorted({r["file"] for r in rows}, key=[r["file"] for r in rows].index)
    for f in files:
        mine = [r for r in rows if r["file"] == f]
        decided = {v: {r["deal"] for r in mine if r["variant"] == v and r["verdict"] != Verdict.UNKNOWN.value}
                   for v in VARIANTS}
        both = set.intersection(*decided.values())
        for v in VARIANTS:
            rs = [r for r in mine if r["variant"] == v]
            total = sum(r["nodes"] if r["verdict"] != Verdict.UNKNOWN.value else max(r["nodes"], r.get("budget", budget))
                        for r in rs)
            common = sum(r["nodes"] for r in rs if r["deal"] in both)
            cpu = sum(r["cpu"] for r in rs)
            raw = sum(r["nodes"] for r in rs)
            per = cpu / raw * 1e6 if raw else float("nan")
            out.append(f"| {Path(f).stem} | {v} | {len(rs)} | {len(decided[v])} | {len(rs) - len(decided[v])} | "
                       f"{total:,} | {common:,} ({len(both)}) | {sum(r['part_hits'] for r in rs):,} | "
                       f"{sum(r['part_stores'] for r in rs):,} | {per:.3f} |")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", help="corpus files (JSON lines of deals)")
    parser.add_argument("--deals", type=int, default=30, help="first deals of each file (default %(default)s)")
    parser.add_argument("--nodes", type=int, default=2_000_000, help="node budget per deal (default %(default)s)")
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    parser.add_argument("--raw", help="write one JSON line per decision to this file")
    parser.add_argument("--markdown", help="write the table to this file")
    parser.add_argument("--from-raw", nargs="+", metavar="RAW",
                        help="no decisions: the table of these --raw files (rows of both variants)")
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    if args.from_raw:
        for raw in args.from_raw:
            rows += [json.loads(line) for line in Path(raw).read_text(encoding="utf-8").splitlines() if line]
        rows = [r for r in rows if r["file"] in args.files]
        return _table(rows, args.nodes, args.markdown)
    load_compiled()
    for f in args.files:
        for i, (ident, inst) in enumerate(read_cell(f)[:args.deals]):
            for v in args.variants:
                row = {"file": f, "deal": ident or str(i), **run_one(inst, v, args.nodes)}
                rows.append(row)
                if args.raw:
                    with open(args.raw, "a", encoding="utf-8") as fh:
                        fh.write(json.dumps(row) + "\n")
            mine = [r for r in rows if r["file"] == f and r["deal"] == (ident or str(i))]
            agree = {r["verdict"] for r in mine if r["verdict"] != Verdict.UNKNOWN.value}
            if len(agree) > 1:
                print(f"DISAGREE {f} {ident}: {mine}")
                return 1
    return _table(rows, args.nodes, args.markdown)


def _table(rows: list[dict[str, Any]], budget: int, markdown: str | None) -> int:
    """Print (and write to ``markdown``) the table of ``rows``."""
    head = ["| file | variant | deals | decided | undecided | total nodes (undecided at the budget) | "
            "nodes of the deals both decided (deals) | partition hits | partition stores | CPU s per M nodes |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    table = "\n".join(head + summarize(rows, budget))
    print(table)
    if markdown:
        Path(markdown).write_text(table + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
