"""How long the engine's SAT process takes to build a deal's CNF, and what that costs a
decision: :class:`crewcheck.solvers.logic.export.ClauseFormula` (each constraint written
as clauses as it is added, the SAT process's build) against the two passes of
``to_cnf(encode(deal))`` (the constraints first, then their expansion).

``build``
    For each hard-set cell (``benchmarks/corpus/hard/heart-<cell>.jsonl``), every deal's
    CNF built both ways, alternating which goes first, ``--repeat`` times; CPU seconds
    per build (median and total). The two CNFs must be equal clause for clause (the
    script exits 1 if not).
``decide``
    The same deals decided by the default engine (:func:`crewcheck.decide`, kernel
    loaded, winning lines replayed) twice, the SAT process building its CNF one way and
    then the other, alternating deal by deal. Both settings fork their SAT process from
    this one (spare processes off), so that the setting reaches the child. Wall seconds:
    median / p90 / total, and the deals the SAT side answered. Verdicts must agree.

All times come from one run on one machine: compare within a row, never across runs.

Usage::

    PYTHONPATH=. python -m benchmarks.scripts.run_cnf_build --cells 4p-fixed-k10 4p-fixed-k15 3p-fixed-k12 \\
        --markdown benchmarks/results/cnf-build.md
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from benchmarks.scripts.run_peer import quantile
from benchmarks.scripts.run_sat_start import decide_alternating
from crewcheck.formats.deal_json import from_dict
from crewcheck.model.instance import Instance
from crewcheck.solvers.logic import sat_process
from crewcheck.solvers.logic.encoding import encode
from crewcheck.solvers.logic.export import CNF, ClauseFormula, to_cnf
from crewcheck.solvers.logic.formula import Formula

HARD = Path(__file__).resolve().parents[1] / "corpus" / "hard"


def two_passes(inst: Instance) -> CNF:
    enc = encode(inst)
    return to_cnf(enc.formula, assume=enc.assumptions)


def as_clauses(inst: Instance) -> CNF:
    built = ClauseFormula()
    enc = encode(inst, formula=built)
    return built.cnf(assume=enc.assumptions)


BUILDS: dict[str, Callable[[Instance], CNF]] = {"to_cnf(encode)": two_passes, "ClauseFormula": as_clauses}


def _deals(cell: str, limit: int | None) -> list[Instance]:
    out = []
    for line in (HARD / f"heart-{cell}.jsonl").read_text(encoding="utf-8").splitlines()[:limit]:
        data = json.loads(line)
        data.pop("id", None)
        data.pop("seed", None)
        out.append(from_dict(data))
    return out


def build_rows(cells: Sequence[str], limit: int | None, repeat: int) -> tuple[list[str], int]:
    rows = ["| cell | deals | build | median ms | total s | ratio (total) |", "|---|---|---|---|---|---|"]
    bad = 0
    for cell in cells:
        deals = _deals(cell, limit)
        secs: dict[str, list[float]] = {name: [] for name in BUILDS}
        for n, inst in enumerate(deals):
            for r in range(repeat):
                got = {}
                for name in (list(BUILDS) if (n + r) % 2 == 0 else list(BUILDS)[::-1]):
                    t0 = time.process_time()
                    got[name] = BUILDS[name](inst)
                    secs[name].append(time.process_time() - t0)
                a, b = got.values()
                if a.clauses != b.clauses or a.nv != b.nv:
                    bad += 1
                    print(f"DIFFERENT CNF {cell}/{n}", file=sys.stderr)
        base = sum(secs["to_cnf(encode)"])
        for name, xs in secs.items():
            rows.append(f"| {cell} | {len(deals)} | {name} | {1000 * quantile(xs, 0.5):.1f} | {sum(xs):.2f} | "
                        f"{base / sum(xs):.2f}x |")
            print(rows[-1], file=sys.stderr)
    return rows, bad


class _TwoPasses(ClauseFormula):
    """The SAT process's builder behaving as a plain :class:`Formula` (the constraints
    kept) whose clauses :func:`to_cnf` expands at the end: the two passes."""

    add_bool_or = Formula.add_bool_or
    add_bool_and = Formula.add_bool_and
    add_implication = Formula.add_implication
    _add = Formula._add

    def cnf(self, *, assume: Iterable[int] = ()) -> CNF:
        return to_cnf(self, assume=assume)


def _builder(cls: type[ClauseFormula]) -> Callable[[], None]:
    return lambda: setattr(sat_process, "ClauseFormula", cls)


def decide_rows(cells: Sequence[str], limit: int | None) -> tuple[list[str], int]:
    rows = ["| cell | deals | SAT process builds with | median s | p90 s | total s | SAT side answered |",
            "|---|---|---|---|---|---|---|"]
    bad = 0
    settings = {"ClauseFormula": _builder(ClauseFormula), "to_cnf(encode)": _builder(_TwoPasses)}
    sat_process.SPARES.enabled = False
    try:
        for cell in cells:
            got, b = decide_alternating(cell, _deals(cell, limit), settings)
            rows += got
            bad += b
    finally:
        setattr(sat_process, "ClauseFormula", ClauseFormula)
        sat_process.SPARES.enabled = True
    return rows, bad


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--modes", nargs="+", choices=["build", "decide"], default=["build", "decide"])
    ap.add_argument("--cells", nargs="+", default=["4p-fixed-k10", "4p-fixed-k15", "3p-fixed-k12"])
    ap.add_argument("--limit", type=int, default=None, help="the first N deals of each cell only")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--markdown", type=Path)
    args = ap.parse_args(argv)
    from crewcheck.solvers.search import load_compiled

    load_compiled()
    text, bad = [], 0
    if "build" in args.modes:
        rows, b = build_rows(args.cells, args.limit, args.repeat)
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
