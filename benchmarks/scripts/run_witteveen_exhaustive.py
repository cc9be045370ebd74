"""Solve every game of Witteveen's 2-player 1-task game (4 x 9 deck, Cor 3.21) by exact search.

Usage::

    PYTHONPATH=. python benchmarks/scripts/run_witteveen_exhaustive.py [--values 9] [--store PATH]
        [--workers 1] [--out benchmarks/results/witteveen_exhaustive.json]
    PYTHONPATH=. python benchmarks/scripts/run_witteveen_exhaustive.py --store PATH \
        --export benchmarks/results/witteveen_exhaustive_chunks.jsonl

Runs the chunks of :mod:`crewcheck.claims.witteveen.exhaustive` (72 at ``--values 9``)
through :class:`crewcheck.claims.execution.Executor` with a SQLite results store, so a
killed run resumes where it stopped (finished chunks are read back, not recomputed).
Prints one line per finished chunk with its time and the projected time of the rest,
then the totals; ``--out`` writes them as JSON (wall time, chunk times, counts per
characterisation class, disagreements, solver statistics). ``--workers 2`` runs the
chunks on a local Dask cluster.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from crewcheck.claims.execution import Executor, Job  # noqa: E402
from crewcheck.claims.witteveen import exhaustive  # noqa: E402
from crewcheck.runtime.store import ResultStore, canonical_key  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--values", type=int, default=9, help="values per suit (1..9; default 9)")
    parser.add_argument("--store", default=None, help="results store (default: the user cache folder's)")
    parser.add_argument("--workers", type=int, default=1, help="1: in this process; more: local Dask cluster")
    parser.add_argument("--out", default=None, help="write the summary as JSON to this file")
    parser.add_argument("--export", default=None, metavar="PATH",
                        help="only write the chunks already in the store as JSON lines (params, result) "
                        "to PATH and exit: the compact data to commit from a partial or finished run")
    args = parser.parse_args(argv)
    if not 1 <= args.values <= 9:
        print(f"run_witteveen_exhaustive: error: --values must be 1..9, got {args.values}", file=sys.stderr)
        return 2
    if args.workers < 1:
        print(f"run_witteveen_exhaustive: error: --workers must be at least 1, got {args.workers}", file=sys.stderr)
        return 2
    chunks = exhaustive.chunks(args.values)
    store = ResultStore(args.store)
    if args.export:
        stored = store.get_many(exhaustive.NAMESPACE)
        lines = [json.dumps({"params": c, "result": stored[canonical_key(c)]}, sort_keys=True)
                 for c in chunks if canonical_key(c) in stored]
        Path(args.export).write_text("".join(line + "\n" for line in lines))
        print(f"{len(lines)} of {len(chunks)} chunks of {exhaustive.NAMESPACE} written to {args.export}")
        store.close()
        return 0
    done_before = store.get_many(exhaustive.NAMESPACE)
    todo = [c for c in chunks if canonical_key(c) not in done_before]
    print(f"{len(chunks)} chunks, {len(chunks) - len(todo)} already in {store.path}", flush=True)
    start = time.perf_counter()
    executor = Executor(store=store, workers=args.workers, parallel=args.workers > 1)
    results: list[Any] = []
    chunk_seconds: dict[str, float] = {}
    try:
        # One job per chunk when inline, so progress and projections print as chunks finish.
        if args.workers > 1:
            results = executor.run(Job(exhaustive.NAMESPACE, tuple(chunks), exhaustive.chunk))
        else:
            for i, c in enumerate(chunks):
                t0 = time.perf_counter()
                results += executor.run(Job(exhaustive.NAMESPACE, (c,), exhaustive.chunk))
                if c in todo:
                    chunk_seconds[f"tv={c['tv']} h0={c['h0_from']}..{c['h0_to'] - 1}"] = round(
                        time.perf_counter() - t0, 2)
                spent = time.perf_counter() - start
                left = len(chunks) - i - 1
                print(f"chunk {i + 1}/{len(chunks)} tv={c['tv']} h0={c['h0_from']}..{c['h0_to'] - 1}: "
                      f"{time.perf_counter() - t0:.1f} s; elapsed {spent:.0f} s, "
                      f"projected rest {spent / (i + 1) * left:.0f} s", flush=True)
    finally:
        executor.close()
    wall = time.perf_counter() - start
    summary = exhaustive.merge(results)
    store.close()
    total = summary["games"]
    out = {
        "values": args.values,
        "wall_seconds_this_run": round(wall, 1),
        "chunks": len(chunks),
        "chunks_computed_this_run": len(todo),
        "chunk_seconds_this_run": chunk_seconds,
        "games": total,
        "games_expected": exhaustive.games_count(args.values),
        "losing": summary["losing"],
        "winnable": total - summary["losing"],
        "winnable_percent": round(100 * (total - summary["losing"]) / total, 4),
        "losing_by_class": summary["classes"],
        "disagreements": summary["disagree"],
        "examples": summary["examples"],
        "solver": summary["stats"],
    }
    print(json.dumps(out, indent=2))
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
