"""Throughput of ``crewcheck decide --batch``: deals per second on 1 and more workers, the
race's share of the cores, the Dask scheduler's overhead, the peer two at a time.

For every cell (default the issue's two: 4p-fixed-k10 and 3p-fixed-k12) the script takes
the first ``--deals`` deals of the benchmark corpus (``crewcheck deals --cell C --seed
20261123``; the committed files are their first 100) and runs the real command line,
``crewcheck decide --batch FILE --workers W``, as a child process, once per setting:

``race``
    the default engine (search, then a SAT child raced against it) in each worker;
``search``
    ``--backend search --timeout S`` (``--search-timeout``, default 5 s): the search alone,
    one process per worker; the deals it does not decide in S seconds are counted as
    unknown (and left out of the verdict comparison), since without the SAT side some
    deals take it minutes.

Throughput is deals / seconds of deciding: the child's wall time less the compiled
kernel's loading, which the command reports and which happens once before the workers
start. The CPU seconds per deal are the whole machine's busy time during the run (``/proc/stat``;
where it is missing, the child and the processes it waited for, which leaves out the race's
SAT children: they are the forkserver's) divided by the deals: on a quiet machine that is
everything the batch cost, SAT children included, and ``2 / (CPU s per deal)`` is the
throughput two cores kept busy would give, the ceiling of any split of two cores between
workers and races. On a shared machine the column counts the other work too. Every run's verdicts are compared with the first run's; a disagreement makes the
script exit 1. Ratios are taken between runs of the same invocation (the machine's load
is printed with them: on a shared machine only the ratios mean anything).

``--dask`` adds a run on a local Dask cluster (``--scheduler local``) and measures the
scheduler's cost per task (``--dask-tasks`` empty tasks through the same cluster),
which is what one deal per task costs on top of deciding it on a cluster.

``--peer BIN`` runs de Jong's program (``../shared/anchors/run_dejong.py``, as
``run_peer.py`` does) on the same deals, two processes at a time, for the ratio of the
issue (2 workers against the peer two at a time).

``--figure3`` estimates the Figure 3 run (720,000 games) from the committed records of
``prove --full`` (each chunk's wall time where it ran): seconds per deal per task count,
the wall time on 2 workers, and on a 64-core cluster with the measured per-task overhead.

``--figure3-scaling K`` times the first ``--figure3-chunks`` chunks of Figure 3's fixed count
K exactly as ``prove --full`` runs them (the same chunk function through the same fan-out)
on each ``--workers`` count, and checks their tallies against the committed records; the
estimate of ``--figure3`` then uses the measured speed-up instead of a perfect one.

Usage (one command; the markdown table goes to ``--markdown``)::

    python -m benchmarks.scripts.run_throughput --deals 100 --workers 1 2 --dask --figure3 \\
        --markdown benchmarks/results/throughput.md
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from crewcheck.formats.deal_json import to_line
from crewcheck.model.dealing import Cell, generate

ROOT = Path(__file__).resolve().parents[2]
CORPUS_SEED = 20261123
SETTINGS = {"race": [], "search": ["--backend", "search"]}
"""Extra arguments per setting (``search`` also gets ``--timeout``)."""
FIGURE3_DEALS = 10_000
"""Deals per task count and assignment in Figure 3 (36 counts x 2 assignments)."""


def _load() -> str:
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def write_deals(cell: Cell, deals: int, directory: Path) -> Path:
    path = directory / f"{cell.name}.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for n, deal in enumerate(generate(cell, deals, seed=CORPUS_SEED)):
            f.write(to_line(deal, ident=f"{cell.name}/{n}", seed=CORPUS_SEED) + "\n")
    return path


def _machine_busy() -> float | None:
    """Seconds of CPU the whole machine spent busy since boot (``/proc/stat``), or ``None``."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle and iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def run_batch(path: Path, workers: int, extra: Sequence[str], out: Path) -> dict[str, Any]:
    """One ``decide --batch`` child: wall time, kernel loading, verdicts."""
    if out.exists():
        out.unlink()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = [sys.executable, "-m", "crewcheck", "decide", "--batch", str(path), "--workers", str(workers),
            "--no-progress", "--out", str(out), *extra]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    machine_before = _machine_busy()
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    machine_after = _machine_busy()
    cpu = ((machine_after - machine_before) if machine_before is not None and machine_after is not None
           else (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    load = 0.0
    for line in done.stderr.splitlines():
        if "kernel loaded in" in line:
            load = float(line.split("loaded in ")[1].split(" s")[0])
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    if done.returncode not in (0, 1) or len(rows) != sum(1 for _ in open(path)):
        raise SystemExit(f"{' '.join(argv)} failed (exit {done.returncode}): {done.stderr[-2000:]}")
    verdicts = [r.get("verdict", "error") for r in rows]
    busy = sum(r["seconds"] for r in rows if "seconds" in r)
    return {"wall": wall, "load": load, "decide": max(1e-9, wall - load), "verdicts": verdicts, "cpu": cpu,
            "deal_seconds": busy, "sat": sum(1 for r in rows if r.get("stats", {}).get("stage") == "sat")}


def run_peer(path: Path, peer: str, timeout: float) -> dict[str, Any]:
    """The peer on every deal of ``path``, two processes at a time."""
    from benchmarks.scripts.run_peer import load_run_dejong, run_peer_one

    dejong = load_run_dejong()
    deals = [json.loads(line) for line in path.read_text().splitlines()]
    tmp = Path(tempfile.mkdtemp(prefix="crewcheck-peer-"))

    def one(n: int) -> dict[str, Any]:
        d = dict(deals[n])
        ident = d.pop("id")
        d.pop("seed", None)
        return run_peer_one(dejong, ident, d, peer, timeout, 8.0, tmp / f"game{n}.txt")

    start = time.perf_counter()
    with ThreadPoolExecutor(2) as pool:
        rows = list(pool.map(one, range(len(deals))))
    wall = time.perf_counter() - start
    return {"decide": wall, "verdicts": [r["verdict"] for r in rows]}


def dask_overhead(tasks: int, workers: int) -> float:
    """Seconds per empty task through a local Dask cluster (submit to result)."""
    from crewcheck.runtime.fanout import Workers, fan_out

    list(fan_out(abs, range(50), Workers(workers, "local")))  # (a cluster of its own, warmed)
    start = time.perf_counter()
    n = sum(1 for _ in fan_out(abs, range(tasks), Workers(workers, "local"), window=4 * workers))
    wall = time.perf_counter() - start
    startup = _dask_startup(workers)
    return max(0.0, (wall - startup) / n)


def _dask_startup(workers: int) -> float:
    from crewcheck.runtime.fanout import Workers, fan_out

    start = time.perf_counter()
    list(fan_out(abs, range(1), Workers(workers, "local")))
    return time.perf_counter() - start


def figure3(per_task: float, workers_now: int, speedup: float | None = None) -> list[str]:
    """The Figure 3 estimate from the committed records of ``prove --full``."""
    from crewcheck.claims.records import Records

    records = Records()
    lines = ["", "### Figure 3 (720,000 games) from the committed records", "",
             "| assignment | task counts recorded | deals recorded | seconds per deal (mean) | "
             "counts not recorded |", "|---|---|---|---|---|"]
    total_seconds = 0.0
    total_deals = 0
    chunks = 0
    for objectives in ("fixed", "free"):
        got = records.get_many(f"dejong-fig3/{objectives}/engine/v3")
        per_k: dict[int, list[float]] = {}
        for key, (_, seconds) in got.items():
            params = json.loads(key)
            rec = per_k.setdefault(int(params["tasks"]), [0.0, 0.0])
            rec[0] += int(params["size"])
            rec[1] += seconds
            chunks += 1
        deals = sum(v[0] for v in per_k.values())
        secs = sum(v[1] for v in per_k.values())
        missing = [k for k in range(1, 37) if per_k.get(k, [0])[0] < FIGURE3_DEALS]
        mean = secs / deals if deals else float("nan")
        # a count not (fully) recorded is charged the mean of the recorded ones: a guess, marked
        total_seconds += secs + mean * (36 * FIGURE3_DEALS - deals)
        total_deals += int(deals)
        lines.append(f"| {objectives} | {len(per_k)} | {int(deals):,} | {mean:.4f} | "
                     f"{_ranges(missing) or 'none'} |")
    n_chunks = 2 * 36 * (FIGURE3_DEALS // 250)
    lines += ["", f"Recorded: {total_deals:,} of 720,000 deals; the rest charged the recorded mean of their "
                  "assignment (an estimate until they are decided).",
              f"- deciding time, all 720,000 deals: {total_seconds / 3600:.1f} h of one worker "
              "(chunk wall times as recorded, on the loaded 2-core machine, 2 workers)",
              (f"- on {workers_now} workers: {total_seconds / speedup / 3600:.1f} h (the speed-up measured "
               f"above, {speedup:.2f}x)" if speedup else
               f"- on {workers_now} workers: at most {total_seconds / workers_now / 3600:.1f} h (a perfect "
               "speed-up; measure it with --figure3-scaling)"),
              f"- on a 64-core Dask cluster: {total_seconds / 64 / 3600:.2f} h of deciding + "
              f"{n_chunks:,} chunk tasks x {per_task * 1e3:.2f} ms scheduler overhead = "
              f"{n_chunks * per_task:.1f} s (one task per deal instead: {720_000 * per_task / 60:.1f} min "
              "of scheduler time, spread over the run)"]
    return lines


def figure3_scaling(tasks: int, chunks: int, workers: Sequence[int]) -> tuple[list[str], float | None]:
    """The first ``chunks`` chunks of Figure 3's fixed count ``tasks``, exactly as ``prove
    --full`` runs them (:func:`crewcheck.claims.dejong.figure3.dejong_chunk` through the
    fan-out), once per worker count; the tallies must equal each other and the committed
    records'. Returns the table's lines and the speed-up of the most workers over one."""
    from crewcheck.claims.dejong.figure3 import CHUNK, dejong_chunk
    from crewcheck.claims.records import Records
    from crewcheck.runtime.fanout import Workers, fan_out

    items = [{"objectives": "fixed", "tasks": tasks, "seed": 0, "index": i, "backend": "engine", "size": CHUNK,
              "timeout": None} for i in range(chunks)]
    recorded = Records().get_many("dejong-fig3/fixed/engine/v3")
    lines = ["", f"### Figure 3's chunks on 1 and 2 workers (fixed, {tasks} tasks, {chunks} chunks of {CHUNK} "
             "deals, as `prove --full` runs them)", "",
             "| workers | deals | wall s | deals/s | vs 1 worker | CPU s per deal | winnable | same as the records |",
             "|---|---|---|---|---|---|---|---|"]
    first: float | None = None
    speedup = None
    for w in workers:
        busy0, t0 = _machine_busy(), time.perf_counter()
        done = list(fan_out(dejong_chunk, items, Workers(w)))
        if any(d.value is None for d in done):
            raise SystemExit(f"a Figure 3 chunk failed: {[d.failure for d in done if d.value is None][0]}")
        got: list[dict[str, Any]] = [d.value for d in done if d.value is not None]
        wall = time.perf_counter() - t0
        busy1 = _machine_busy()
        cpu = (busy1 - busy0) if busy0 is not None and busy1 is not None else float("nan")
        first = first or wall
        speedup = first / wall
        deals = chunks * CHUNK
        keys = [json.dumps(c, sort_keys=True, separators=(",", ":")) for c in items]
        tally = ("winnable", "unwinnable", "unknown")
        same = ("no record" if not all(k in recorded for k in keys) else
                "yes" if all([g[t] for t in tally] == [recorded[k][0][t] for t in tally] for k, g in zip(keys, got))
                else "NO")
        lines.append(f"| {w} | {deals} | {wall:.1f} | {deals / wall:.2f} | {first / wall:.2f}x | {cpu / deals:.3f} | "
                     f"{sum(g['winnable'] for g in got)} | {same} |")
        print(lines[-1], file=sys.stderr)
    return lines, speedup


def _ranges(ks: list[int]) -> str:
    out: list[str] = []
    for k in ks:
        if out and out[-1].split("..")[-1] == str(k - 1):
            out[-1] = f"{out[-1].split('..')[0]}..{k}"
        else:
            out.append(str(k))
    return ", ".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cells", nargs="+", default=["4p-fixed-k10", "3p-fixed-k12"], help="corpus cells")
    parser.add_argument("--deals", type=int, default=100, help="deals per cell (default %(default)s)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="worker counts (default 1 2)")
    parser.add_argument("--settings", nargs="+", default=list(SETTINGS), choices=list(SETTINGS),
                        help="race (the default engine) and/or search (default both)")
    parser.add_argument("--search-timeout", type=float, default=5.0,
                        help="seconds per deal of the search-alone setting (default %(default)s)")
    parser.add_argument("--dask", action="store_true", help="also a local Dask cluster, and its per-task cost")
    parser.add_argument("--dask-tasks", type=int, default=2000, help="empty tasks for the overhead (default 2000)")
    parser.add_argument("--peer", default=os.environ.get("DEJONG_BIN"), help="de Jong's satisfiability binary")
    parser.add_argument("--peer-timeout", type=float, default=120.0)
    parser.add_argument("--figure3", action="store_true", help="estimate the Figure 3 run from the records")
    parser.add_argument("--figure3-scaling", type=int, metavar="K", default=None,
                        help="also time Figure 3's fixed count K, chunk by chunk as prove --full runs it, on each "
                             "--workers count (with --figure3-chunks chunks of 250 deals)")
    parser.add_argument("--figure3-chunks", type=int, default=4, help="chunks for --figure3-scaling (default 4)")
    parser.add_argument("--markdown", help="write the table here too")
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="crewcheck-throughput-"))
    lines = [f"Machine: {os.cpu_count()} cores, load average at start {_load()} (1 / 5 / 15 min).", "",
             "| cell | setting | workers | deals | wall s | kernel load s | deals/s | vs 1 worker | "
             "CPU s per deal | deals/s at 2 busy cores | SAT answers | unknown |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    disagree = []
    per_task = 0.0
    for name in args.cells:
        cell = Cell.parse(name)
        path = write_deals(cell, args.deals, tmp)
        reference: list[str] | None = None
        base: dict[str, float] = {}
        rates: dict[tuple[str, int], float] = {}
        runs = [(s, w, SETTINGS[s]) for s in args.settings for w in args.workers]
        if args.dask:
            runs.append(("race, dask local", max(args.workers), ["--scheduler", "local"]))
        for setting, workers, extra in runs:
            if setting == "search":
                extra = [*extra, "--timeout", str(args.search_timeout)]
            got = run_batch(path, workers, extra, tmp / "out.jsonl")
            if reference is None:
                reference = got["verdicts"]
            elif any(a != b for a, b in zip(got["verdicts"], reference) if "unknown" not in (a, b)):
                disagree.append(f"{name} {setting} {workers}")
            unknown = got["verdicts"].count("unknown")
            rate = args.deals / got["decide"]
            rates[(setting, workers)] = rate
            key = setting.split(",")[0]
            base.setdefault(key, rate if workers == 1 else 0.0)
            ratio = f"{rate / base[key]:.2f}x" if base.get(key) else "-"
            lines.append(f"| {name} | {setting} | {workers} | {args.deals} | {got['wall']:.1f} | {got['load']:.1f} | "
                         f"{rate:.2f} | {ratio} | {got['cpu'] / args.deals:.3f} | {2 * args.deals / got['cpu']:.2f} | "
                         f"{got['sat']} | {unknown} |")
            print(lines[-1], file=sys.stderr)
        if args.peer:
            peer = run_peer(path, args.peer, args.peer_timeout)
            rate = args.deals / peer["decide"]
            ours = rates.get(("race", 2))
            versus = f"race on 2 workers / peer: {ours / rate:.1f}x" if ours else "-"
            lines.append(f"| {name} | peer, 2 at a time | 2 | {args.deals} | {peer['decide']:.1f} | - | {rate:.2f} | "
                         f"{versus} | - | - | - | - |")
    lines.append("")
    lines.append(f"Load average at the end: {_load()}.")
    if args.dask:
        per_task = dask_overhead(args.dask_tasks, max(args.workers))
        lines.append(f"Dask local cluster, {max(args.workers)} workers: {per_task * 1e3:.2f} ms per empty task "
                     f"({args.dask_tasks} tasks, cluster start-up subtracted).")
    speedup = None
    if args.figure3_scaling is not None:
        more, speedup = figure3_scaling(args.figure3_scaling, args.figure3_chunks, args.workers)
        lines += more
    if args.figure3:
        lines += figure3(per_task, 2, speedup)
    if disagree:
        lines.append(f"**Verdicts differ from the first run's**: {', '.join(disagree)}")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text, encoding="utf-8")
    return 1 if disagree else 0


if __name__ == "__main__":
    raise SystemExit(main())
