"""The hard set of the heart cells: the deals the engine takes longest on, against the peer.

``select``
    For each heart cell (:data:`HEART`) a pool of fresh deals (``crewcheck deals --cell C
    --seed SEED --count N``) decided by the default ``crewcheck decide --batch POOL --workers
    1 --out POOL.ours.jsonl`` (run beforehand, resumable); this step reads the pool and its
    results and writes the ``--top`` slowest deals of each cell, by the batch's own
    ``seconds``, to ``benchmarks/corpus/hard/heart-<cell>.jsonl`` (the deal lines as
    generated, with their id and seed), and a summary of every pool (deals, verdicts,
    median / p99 / max seconds, the selection's threshold) to ``--summary``; a cell whose
    pool is not complete is left as it was, hard set and summary entry.
``compare``
    Every deal of the hard set decided by the default engine through the API
    (:func:`crewcheck.decide` in this process, kernel loaded, winning lines replayed) and,
    right after it, by de Jong's program (one process per deal, ``run_dejong.py``'s code);
    then each cell's file through the default command line, ``crewcheck decide --batch``
    (its own worker policy), timed whole. Per cell: median / p99 / max of both, the ratios
    peer / ours, and the batch's wall time. Any verdict on which the two disagree makes
    the script exit 1. With ``--timeout`` a deal we leave unknown counts at that limit, as
    the peer's time-outs count at ``--peer-timeout``: the side's quantiles are then lower
    bounds (``>=``), the ratios bounds the other way (``<=``; ``?`` when both sides have
    deals left unknown). ``--no-batch`` (or ``--limit``) skips the batch run.

All times come from one run on one machine: compare ratios, never seconds across runs.

Usage::

    PYTHONPATH=. python -m benchmarks.scripts.run_hard_set select --pool DIR --top 100 \\
        --summary benchmarks/results/hard-set-pools.json --records benchmarks/results/hard-set-pools
    PYTHONPATH=. python -m benchmarks.scripts.run_hard_set compare --peer BIN \\
        --jsonl benchmarks/results/hard-set.jsonl --markdown benchmarks/results/hard-set-table.md
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.scripts.run_peer import load_run_dejong, quantile, run_ours, run_peer_one
from crewcheck.formats.deal_json import from_dict

HEART = ("4p-fixed-k08", "4p-fixed-k10", "4p-fixed-k12", "4p-fixed-k15", "3p-fixed-k12", "3p-fixed-k20")
"""The cells where the engine is closest to the peer."""
HARD_DIR = Path(__file__).resolve().parents[1] / "corpus" / "hard"
ROOT = Path(__file__).resolve().parents[2]


def hard_path(cell: str) -> Path:
    return HARD_DIR / f"heart-{cell}.jsonl"


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def pool_records(pool: Path, records: Path) -> None:
    """Each cell's pool results, complete or not, as compact records in ``records``
    (``<cell>.jsonl.gz``: id, verdict, seconds, the side that answered, nodes; one line a
    deal decided), so the pools are kept in the repository and a cut run can be taken up
    from the first deal missing (``crewcheck deals --start N``)."""
    import gzip
    import io

    records.mkdir(parents=True, exist_ok=True)
    for cell in HEART:
        results = pool / f"{cell}.ours.jsonl"
        if not results.exists():
            continue
        ids = [json.loads(line)["id"] for line in _lines(pool / f"{cell}.jsonl")]
        rows = [json.loads(line) for line in _lines(results)]
        out = gzip.GzipFile(records / f"{cell}.jsonl.gz", "wb", mtime=0)  # the same bytes for the same pool
        with io.TextIOWrapper(out, encoding="utf-8") as f:
            for ident, r in zip(ids, rows):
                stats = r.get("stats", {})
                f.write(json.dumps({"id": r.get("id", ident), "verdict": r.get("verdict"),
                                    "seconds": r.get("seconds"), "stage": stats.get("stage"),
                                    "nodes": stats.get("nodes")}) + "\n")
        print(f"{cell}: {len(rows)} of {len(ids)} deals -> {records / (cell + '.jsonl.gz')}", file=sys.stderr)


def select(pool: Path, top: int, summary: Path | None) -> int:
    pools: dict[str, Any] = {}
    if summary is not None and summary.exists():  # a cell without a complete pool keeps its entry
        pools = json.loads(summary.read_text(encoding="utf-8"))
    for cell in HEART:
        deals, results = pool / f"{cell}.jsonl", pool / f"{cell}.ours.jsonl"
        if not results.exists():
            print(f"{cell}: no results in {results}; skipped", file=sys.stderr)
            continue
        lines = _lines(deals)
        rows = [json.loads(line) for line in _lines(results)]
        if len(rows) != len(lines) or any("seconds" not in r for r in rows):
            print(f"{cell}: {len(rows)} results for {len(lines)} deals (or errors); skipped", file=sys.stderr)
            continue
        secs = [float(r["seconds"]) for r in rows]
        order = sorted(range(len(rows)), key=lambda i: -secs[i])[:top]
        chosen = sorted(order)
        hard_path(cell).write_text("".join(lines[i] + "\n" for i in chosen), encoding="utf-8")
        seed = json.loads(lines[0]).get("seed")
        pools[cell] = {
            "seed": seed, "deals": len(rows),
            "winnable": sum(r["verdict"] == "winnable" for r in rows),
            "unknown": sum(r["verdict"] == "unknown" for r in rows),
            "median_s": round(quantile(secs, 0.5), 4), "p99_s": round(quantile(secs, 0.99), 4),
            "max_s": round(max(secs), 4), "threshold_s": round(secs[order[-1]], 4),
            "sat_answered": sum(r.get("stats", {}).get("stage") == "sat" for r in rows),
            "hard": [{"id": rows[i].get("id"), "seconds": secs[i], "verdict": rows[i]["verdict"]} for i in chosen],
        }
        print(f"{cell}: {len(rows)} deals, median {quantile(secs, 0.5):.4f} s, max {max(secs):.3f} s; "
              f"the {len(chosen)} slowest from {secs[order[-1]]:.4f} s -> {hard_path(cell)}", file=sys.stderr)
    if summary is not None:
        summary.write_text(json.dumps(pools, indent=1) + "\n", encoding="utf-8")
    return 0


def _batch_seconds(path: Path) -> float:
    """Wall time of the default ``crewcheck decide --batch`` on ``path`` (its kernel load left out)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.jsonl"
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "crewcheck", "decide", "--batch", str(path), "--out", str(out),
                               "--no-progress"], env={**os.environ, "PYTHONPATH": str(ROOT)},
                              capture_output=True, text=True, check=False)
        wall = time.perf_counter() - t0
    load = 0.0
    for line in proc.stderr.splitlines():
        if "kernel loaded in" in line:
            load = float(line.split("loaded in ")[1].split(" s")[0])
    return wall - load


def compare(peer: str, cells: Sequence[str], limit: int | None, peer_timeout: float, jsonl: Path | None,
            markdown: Path | None, timeout: float | None = None, batch_run: bool = True) -> int:
    from crewcheck.solvers.search import load_compiled

    load_compiled()
    dejong = load_run_dejong()
    table = ["| cell | deals | agree | ours median / p99 / max s | peer median / p99 / max s | ratio median / p99 / max "
             "| batch s (default) | peer two processes s (est.) | batch throughput / peer's |",
             "|---|---|---|---|---|---|---|---|---|"]
    bad = 0
    game = Path(tempfile.mkdtemp()) / "deal.game"
    if jsonl is not None:
        jsonl.write_text("", encoding="utf-8")
    for cell in cells:
        lines = _lines(hard_path(cell))[:limit]
        ours_all, peer_all = [], []
        for line in lines:
            data = json.loads(line)
            ident = data["id"]
            deal = {k: v for k, v in data.items() if k not in ("id", "seed")}
            ours = run_ours([(ident, from_dict(deal))], timeout)[0]
            theirs = run_peer_one(dejong, ident, deal, peer, peer_timeout, 8.0, game)
            if theirs["verdict"] in ("winnable", "unwinnable") and theirs["verdict"] != ours["verdict"]:
                bad += 1
                print(f"DISAGREEMENT {ident}: ours {ours['verdict']}, peer {theirs['verdict']}", file=sys.stderr)
            ours_all.append(ours)
            peer_all.append(theirs)
            if jsonl is not None:  # deal by deal: a run cut short keeps what it measured
                with jsonl.open("a", encoding="utf-8") as f:
                    f.write(json.dumps({"cell": cell, "id": ident, "ours": ours, "peer": theirs}) + "\n")
        o = [r["seconds"] for r in ours_all]
        p = [r["seconds"] if r["seconds"] is not None else peer_timeout for r in peer_all]
        agree = sum(a["verdict"] == b["verdict"] for a, b in zip(ours_all, peer_all))
        ours_unknown = sum(r["verdict"] not in ("winnable", "unwinnable") for r in ours_all)
        peer_unknown = sum(r["verdict"] not in ("winnable", "unwinnable") for r in peer_all)
        batch = _batch_seconds(hard_path(cell)) if limit is None and batch_run else None
        stats = [(quantile(o, q), quantile(p, q)) for q in (0.5, 0.99, 1.0)]
        # a deal left unknown counts at its limit: that side's quantiles are lower bounds
        ge_o, ge_p = (">= " if ours_unknown else ""), (">= " if peer_unknown else "")
        ratio = "? " if ours_unknown and peer_unknown else "<= " if ours_unknown else ">= " if peer_unknown else ""
        note = "".join(f", {n} {who} unknown" for n, who in ((ours_unknown, "ours"), (peer_unknown, "peer")) if n)
        table.append(f"| {cell} | {len(lines)} | {agree}{note} | " + " / ".join(f"{ge_o}{a:.4f}" for a, _ in stats)
                     + " | " + " / ".join(f"{ge_p}{b:.4f}" for _, b in stats) + " | "
                     + " / ".join(f"{ratio}{b / a:.1f}x" for a, b in stats)
                     + (" | not run" if batch is None else f" | {batch:.2f}") + f" | {ge_p}{sum(p) / 2:.2f} | "
                     + ("|" if batch is None else f"{sum(p) / 2 / batch:.2f}x |"))
        print(table[-1], file=sys.stderr)
    if markdown is not None:
        markdown.write_text("\n".join(table) + "\n", encoding="utf-8")
    print("\n".join(table))
    return 1 if bad else 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=["select", "compare"])
    ap.add_argument("--pool", type=Path, help="select: the folder of <cell>.jsonl and <cell>.ours.jsonl")
    ap.add_argument("--top", type=int, default=100)
    ap.add_argument("--summary", type=Path)
    ap.add_argument("--records", type=Path, help="select: also write each pool's compact records here")
    ap.add_argument("--peer", default=os.environ.get("DEJONG_BIN"))
    ap.add_argument("--cells", nargs="*", default=list(HEART))
    ap.add_argument("--limit", type=int, default=None, help="compare: the first N deals of each cell only")
    ap.add_argument("--peer-timeout", type=float, default=60.0)
    ap.add_argument("--timeout", type=float, default=None,
                    help="compare: our engine's limit a deal (default none); a deal left unknown counts at it")
    ap.add_argument("--no-batch", action="store_true", help="compare: skip the default command line's batch run")
    ap.add_argument("--jsonl", type=Path)
    ap.add_argument("--markdown", type=Path)
    args = ap.parse_args(argv)
    if args.mode == "select":
        if args.pool is None:
            ap.error("select needs --pool")
        if args.records is not None:
            pool_records(args.pool, args.records)
        return select(args.pool, args.top, args.summary)
    if not args.peer:
        ap.error("compare needs --peer (or $DEJONG_BIN)")
    return compare(args.peer, args.cells, args.limit, args.peer_timeout, args.jsonl, args.markdown, args.timeout,
                   not args.no_batch)


if __name__ == "__main__":
    raise SystemExit(main())
