"""Measure strengthenings of the winnability encoding on the deals where CDCL is slowest.

For each deal, and each *variant* of the encoding (the baseline blocks plus some extra
blocks, see :data:`VARIANTS`), one child process builds the formula
(:func:`crewcheck.solvers.logic.encoding.encode`), expands it to CNF with the task assumptions
as unit clauses (:func:`crewcheck.solvers.logic.export.to_cnf`), and solves it with a
PySAT solver, as the engine's SAT side does (:mod:`crewcheck.solvers.logic.sat_process`). The
child is killed at the per-deal limit. Reported per variant and solver: total and
maximum solve seconds and conflicts, median build + solve seconds, timeouts, and any
verdict that differs from the baseline's (which would be a bug: every variant is exact).

Usage::

    # pick the hard set: the deals on which Glucose takes longest
    python -m benchmarks.scripts.run_encoding select --cells 3p-fixed-k12,3p-fixed-k15 --top 40 \\
        --out benchmarks/corpus/hard_sat_ids.txt
    # compare variants on it (the baseline is always measured in the same run)
    python -m benchmarks.scripts.run_encoding compare --ids benchmarks/corpus/hard_sat_ids.txt \\
        --variants base,own_win --solvers glucose42,cadical195 --jsonl /tmp/enc.jsonl
    # "precedence@1": that variant with its clauses shuffled (seed 1), to see the noise
    # or on the first deals of a cell
    python -m benchmarks.scripts.run_encoding compare --cells 4p-fixed-k10 --deals 100 --variants base,own_win
"""

from __future__ import annotations

import argparse
import gc
import json
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from crewcheck.formats.deal_json import from_dict
from crewcheck.model.instance import Instance
from benchmarks.scripts.encoding_candidates import CANDIDATES
from crewcheck.solvers.logic import encoding

CORPUS_DIR = Path(__file__).resolve().parents[1] / "corpus"

BASE: tuple[Callable[..., None], ...] = (
    encoding.add_play_constraints,
    encoding.add_symmetry_constraints,
    encoding.add_lead_constraints,
    encoding.add_led_suit_constraints,
    encoding.add_follow_suit_constraints,
    encoding.add_winner_constraints,
    encoding.add_task_constraints,
    encoding.add_assignment_constraints,
    encoding.add_order_constraints,
)
"""The blocks of the encoding before the strengthenings (commit c48eeaf)."""

ORIGINAL_ENCODERS = encoding.ENCODERS


def variant_blocks(name: str) -> tuple[Callable[..., None], ...] | None:
    """The blocks of a variant: ``base``, ``current`` (:data:`encoding.ENCODERS`), or
    candidate names of :data:`benchmarks.scripts.encoding_candidates.CANDIDATES` joined by ``+``
    (added to ``base``; ``current+x`` adds them to the current encoding)."""
    parts = name.split("@")[0].split("+")
    blocks: tuple[Callable[..., None], ...]
    if parts[0] == "current":
        blocks, parts = ORIGINAL_ENCODERS, parts[1:]
    elif parts[0] == "base":
        blocks, parts = BASE, parts[1:]
    else:
        blocks = BASE
    for part in parts:
        if part not in CANDIDATES:
            return None
        blocks = blocks + CANDIDATES[part]
    return blocks


def load_deals(cells: list[str], deals: int | None = None,
               ids: set[str] | None = None) -> list[tuple[str, Instance]]:
    out = []
    for cell in cells:
        for n, line in enumerate((CORPUS_DIR / f"{cell}.jsonl").read_text().splitlines()):
            if deals is not None and n >= deals:
                break
            data = json.loads(line)
            ident = data.pop("id")
            data.pop("seed", None)  # (the hard set's files carry their generator's seed)
            if ids is None or ident in ids:
                out.append((ident, from_dict(data)))
    return out


def _measure(instance: Instance, variant: str, solver: str) -> dict[str, Any]:
    from pysat.solvers import Solver  # type: ignore[import-untyped]

    from crewcheck.solvers.logic.export import to_cnf

    blocks = variant_blocks(variant)
    assert blocks is not None
    encoding.ENCODERS = blocks
    t0 = time.perf_counter()
    enc = encoding.encode(instance)
    cnf = to_cnf(enc.formula, assume=enc.assumptions)
    t1 = time.perf_counter()
    if "@" in variant:
        # "variant@N": the same clauses in an order shuffled with seed N (a CDCL solver's
        # run depends on the order; this measures how much)
        random.Random(int(variant.split("@")[1])).shuffle(cnf.clauses)
    with Solver(name=solver, bootstrap_with=cnf.clauses) as sat:
        won = sat.solve()
        t2 = time.perf_counter()
        conflicts = sat.accum_stats().get("conflicts", 0)
    return {"won": won, "build": t1 - t0, "solve": t2 - t1, "conflicts": conflicts,
            "vars": cnf.nv, "clauses": len(cnf.clauses)}


def _child(conn: Any, instance: Instance, variant: str, solver: str) -> None:
    # As the engine's SAT child: the parent's objects go to the permanent generation, so
    # a collection in the child does not walk the parent's heap (about 12 ms with 200
    # deals loaded, triggered or not by a few more allocations: a threshold effect that
    # first showed up as a doubled build time)
    gc.freeze()
    try:
        conn.send(_measure(instance, variant, solver))
    except BaseException as e:  # reported, not raised
        conn.send({"error": f"{type(e).__name__}: {e}"})
    conn.close()


def measure(instance: Instance, variant: str, solver: str, limit: float) -> dict[str, Any]:
    """One build + solve in a child process killed after ``limit`` seconds."""
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(send, instance, variant, solver), daemon=True)
    start = time.perf_counter()
    proc.start()
    send.close()
    if recv.poll(limit):
        try:
            got: dict[str, Any] = recv.recv()
        except EOFError:
            got = {"error": "child died"}
    else:
        got = {"won": None, "build": float("nan"), "solve": limit, "conflicts": None, "timeout": True}
    proc.kill()
    proc.join()
    recv.close()
    got["wall"] = time.perf_counter() - start
    return got


def summarise(rows: list[dict[str, Any]], variants: list[str], solvers: list[str]) -> str:
    lines = ["| variant | solver | total solve s | max solve s | total conflicts | max conflicts "
             "| median build+solve s | total build s | timeouts | verdict changes |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    base = {(r["id"], r["solver"]): r["won"] for r in rows if r["variant"] == variants[0]}
    for solver in solvers:
        for variant in variants:
            rs = [r for r in rows if r["variant"] == variant and r["solver"] == solver]
            if not rs:
                continue
            solve = [r["solve"] for r in rs]
            conf = [r["conflicts"] or 0 for r in rs]
            build = [r["build"] for r in rs if r["build"] == r["build"]]
            both = [r["build"] + r["solve"] for r in rs if r["build"] == r["build"]]
            changed = sum(1 for r in rs if r["won"] is not None
                          and base.get((r["id"], solver)) is not None and r["won"] != base[(r["id"], solver)])
            timeouts = sum(1 for r in rs if r.get("timeout"))
            lines.append(f"| {variant} | {solver} | {sum(solve):.2f} | {max(solve):.2f} | {sum(conf):,} | "
                         f"{max(conf):,} | {statistics.median(both) if both else float('nan'):.3f} | "
                         f"{sum(build):.2f} | {timeouts} | {changed} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["select", "compare"])
    ap.add_argument("--cells", default="")
    ap.add_argument("--deals", type=int, default=None)
    ap.add_argument("--ids", type=Path, default=None, help="file of deal ids, one a line")
    ap.add_argument("--variants", default="base")
    ap.add_argument("--solvers", default="glucose42")
    ap.add_argument("--limit", type=float, default=20.0)
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--jsonl", type=Path, default=None)
    args = ap.parse_args(argv)
    ids = None
    cells = [c for c in args.cells.split(",") if c]
    if args.ids is not None:
        ids = {line.strip() for line in args.ids.read_text().splitlines() if line.strip()}
        cells = sorted({i.split("/")[0] for i in ids})
    deals = load_deals(cells, args.deals, ids)
    variants = args.variants.split(",")
    solvers = args.solvers.split(",")
    for v in variants:
        if variant_blocks(v) is None:
            ap.error(f"unknown variant {v!r}; use base, current or {', '.join(CANDIDATES)} joined by '+'")
    rows: list[dict[str, Any]] = []
    log = args.jsonl.open("a") if args.jsonl else None
    for n, (ident, inst) in enumerate(deals):
        for solver in solvers:
            for variant in variants:
                got = measure(inst, variant, solver, args.limit)
                got.update(id=ident, variant=variant, solver=solver)
                rows.append(got)
                if log:
                    log.write(json.dumps(got) + "\n")
                    log.flush()
        if (n + 1) % 20 == 0:
            print(f"{n + 1}/{len(deals)} deals", file=sys.stderr, flush=True)
    if args.mode == "select":
        rs = sorted((r for r in rows if r["variant"] == variants[0] and r["solver"] == solvers[0]),
                    key=lambda r: -r["solve"])[:args.top]
        if args.out:
            args.out.write_text("".join(r["id"] + "\n" for r in sorted(rs, key=lambda r: r["id"])))
        for r in rs:
            print(f"{r['id']}\t{r['solve']:.2f}\t{r['conflicts']}\t{r['won']}")
        rows = [r for r in rows if r["id"] in {x["id"] for x in rs}]
    print(summarise(rows, variants, solvers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
