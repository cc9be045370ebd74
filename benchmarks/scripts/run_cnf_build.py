"""How long the engine's SAT process takes to build a deal's CNF, and what that costs a
decision: the compiled kernel (:func:`crewcheck.solvers.logic.cnf_build.kernel_cnf`, the
SAT process's build where the deal allows it), against
:class:`crewcheck.solvers.logic.export.ClauseFormula` (each constraint written as clauses
as it is added, the reference) and the two passes of ``to_cnf(encode(deal))`` (the
constraints first, then their expansion).

``build``
    For each hard-set cell (``benchmarks/corpus/hard/heart-<cell>.jsonl``), every deal's
    CNF built each way (``--builds``), rotating which goes first, ``--repeat`` times; CPU
    seconds per build (median and total), garbage collection off as in the SAT process.
    Each build is timed from the deal to the clause lists PySAT is given. The CNFs must
    be equal clause for clause (the script exits 1 if not).
``decide``
    The same deals decided by the default engine (:func:`crewcheck.decide`, kernel
    loaded, winning lines replayed) twice, the SAT process building its CNF with the
    kernel and then with ``ClauseFormula`` alone (the builder table cut to its last row),
    alternating deal by deal. Both settings fork their SAT process from this one (spare
    processes off), so that the setting reaches the child. Wall seconds: median / p90 /
    total, and the deals the SAT side answered. Verdicts must agree.

All times come from one run on one machine: compare within a row, never across runs.

Usage::

    PYTHONPATH=. python -m benchmarks.scripts.run_cnf_build --modes build --cells 4p-fixed-k10 4p-fixed-k15 \\
        --markdown benchmarks/results/cnf-kernel.md
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from benchmarks.scripts.run_peer import quantile
from benchmarks.scripts.run_sat_start import decide_alternating
from crewcheck.formats.deal_json import from_dict
from crewcheck.model.instance import Instance
from crewcheck.solvers.logic import cnf_build, sat_process
from crewcheck.solvers.logic.encoding import encode
from crewcheck.solvers.logic.export import to_cnf
from crewcheck.solvers.logic.position import position_of

HARD = Path(__file__).resolve().parents[1] / "corpus" / "hard"

Built = tuple[int, list[list[int]]]
"""The largest variable id and the clauses."""


def two_passes(inst: Instance) -> Built:
    enc = encode(inst)
    cnf = to_cnf(enc.formula, assume=enc.assumptions)
    return cnf.nv, cnf.clauses


def as_clauses(inst: Instance) -> Built:
    built = cnf_build.clause_formula_cnf(inst, position_of(inst))
    return built.nv, built.clauses


def by_kernel(inst: Instance) -> Built:
    built = cnf_build.build_cnf(inst)  # (the SAT process's call: the builder table first)
    if built.builder != "kernel":
        raise SystemExit(f"the kernel does not build this deal ({built.builder}): is numba missing?")
    return built.nv, built.clauses


BUILDS: dict[str, Callable[[Instance], Built]] = {
    "to_cnf(encode)": two_passes, "ClauseFormula": as_clauses, "kernel": by_kernel}


def _deals(cell: str, limit: int | None) -> list[Instance]:
    out = []
    for line in (HARD / f"heart-{cell}.jsonl").read_text(encoding="utf-8").splitlines()[:limit]:
        data = json.loads(line)
        data.pop("id", None)
        data.pop("seed", None)
        out.append(from_dict(data))
    return out


def _timed(deals: list[Instance], repeat: int, builds: Sequence[str], cell: str) -> tuple[dict[str, list[float]], int]:
    """CPU seconds of every build of every deal, rotating which build goes first; how many
    deals had CNFs that differ."""
    secs: dict[str, list[float]] = {name: [] for name in builds}
    bad = 0
    for n, inst in enumerate(deals):
        for r in range(repeat):
            turn = (n * repeat + r) % len(builds)
            got = {}
            for name in [*builds[turn:], *builds[:turn]]:
                t0 = time.process_time()
                got[name] = BUILDS[name](inst)
                secs[name].append(time.process_time() - t0)
            if any(x != got[builds[0]] for x in got.values()):
                bad += 1
                print(f"DIFFERENT CNF {cell}/{n}", file=sys.stderr)
            del got
            gc.collect()
    return secs, bad


def build_rows(cells: Sequence[str], limit: int | None, repeat: int, builds: Sequence[str]) -> tuple[list[str], int]:
    rows = ["| cell | deals | build | median ms | total s | ratio (total) |", "|---|---|---|---|---|---|"]
    bad = 0
    gc.freeze()
    gc.disable()  # as in the SAT process (sat_process._child); collected between deals
    try:
        for cell in cells:
            deals = _deals(cell, limit)
            secs, b = _timed(deals, repeat, builds, cell)
            bad += b
            base = sum(secs[builds[0]])
            for name, xs in secs.items():
                rows.append(f"| {cell} | {len(deals)} | {name} | {1000 * quantile(xs, 0.5):.2f} | {sum(xs):.2f} | "
                            f"{base / sum(xs):.2f}x |")
                print(rows[-1], file=sys.stderr)
    finally:
        gc.enable()
    return rows, bad


def _builders(rows: tuple[cnf_build.CnfBuilder, ...]) -> Callable[[], None]:
    return lambda: setattr(cnf_build, "BUILDERS", rows)


def decide_rows(cells: Sequence[str], limit: int | None) -> tuple[list[str], int]:
    rows = ["| cell | deals | SAT process builds with | median s | p90 s | total s | SAT side answered |",
            "|---|---|---|---|---|---|---|"]
    bad = 0
    every = cnf_build.BUILDERS
    settings = {"kernel": _builders(every), "ClauseFormula": _builders(every[-1:])}
    sat_process.SPARES.enabled = False
    try:
        for cell in cells:
            got, b = decide_alternating(cell, _deals(cell, limit), settings)
            rows += got
            bad += b
    finally:
        cnf_build.BUILDERS = every
        sat_process.SPARES.enabled = True
    return rows, bad


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--modes", nargs="+", choices=["build", "decide"], default=["build", "decide"])
    ap.add_argument("--cells", nargs="+", default=["4p-fixed-k10", "4p-fixed-k15", "3p-fixed-k12"])
    ap.add_argument("--builds", nargs="+", choices=list(BUILDS), default=["ClauseFormula", "kernel"],
                    help="the builds to time, the first the base of the ratio (default: ClauseFormula kernel)")
    ap.add_argument("--limit", type=int, default=None, help="the first N deals of each cell only")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--markdown", type=Path)
    args = ap.parse_args(argv)
    from crewcheck.solvers.search import load_compiled

    load_compiled()
    cnf_build.load_kernel()
    text, bad = [], 0
    if "build" in args.modes:
        rows, b = build_rows(args.cells, args.limit, args.repeat, args.builds)
        text += rows + [""]
        bad += b
    if "decide" in args.modes:
        rows, b = decide_rows(args.cells, args.limit)
        text += rows + [""]
        bad += b
    out = "\n".join(text)
    if args.markdown is not None:
        args.markdown.write_text(out, encoding="utf-8")
    print(out)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
